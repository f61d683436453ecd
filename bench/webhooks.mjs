// Webhook write benchmark: entry creates over REST with no endpoint enabled, then with 3 endpoints
// subscribed to `entry.created`, on the default deployment (dist/src/main.js), and every event's
// arrival at a loopback receiver.
//
//   npm run build && node bench/webhooks.mjs
//   BENCH_ROUNDS=5 node bench/webhooks.mjs
//
// Goal per round: writes/s with the endpoints >= 0.85x writes/s without, and every event delivered
// to every endpoint. See bench/README.md for the knobs.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import {
  assertAlive,
  BENCH_DIR,
  freePort,
  isInterrupted,
  markInterrupted,
  nodeArgs,
  postgresCpuMsSince,
  postgresTicks,
  processCpuMs,
  request,
  ROOT,
  round,
  rssSampler,
  startChild,
  stopChild,
  SVC_ENTRY,
  waitForHealthy,
} from './lib.mjs';

const RESULTS_DIR = path.join(BENCH_DIR, 'results');
const COLLECTION = 'posts-hooks';
const ENTRIES_PATH = `/admin/api/collections/${COLLECTION}/entries`;
const RECEIVER_PATHS = ['/a', '/b', '/c'];
const MIN_RATIO = 0.85;
const PASSWORD = 'Bench-Password-1';
const WRITE_BODY = JSON.stringify({
  title: 'webhook bench',
  views: 42,
  body: 'written by the webhook bench',
});

let currentInstance = null; // the running autocannon instance, stopped on SIGINT/SIGTERM

function intEnv(name, fallback, min) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') {
    return fallback;
  }
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) {
    throw new Error(`${name} must be a whole number >= ${min}, got "${raw}"`);
  }
  return n;
}

function readSettings() {
  return {
    adminUrl: process.env.BENCH_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    rounds: intEnv('BENCH_ROUNDS', 3, 1),
    writes: intEnv('BENCH_WEBHOOK_WRITES', 1000, 1),
    inFlight: intEnv('BENCH_WEBHOOK_IN_FLIGHT', 16, 1),
    warmup: intEnv('BENCH_WEBHOOK_WARMUP', 1000, 0),
    drainTimeoutSeconds: intEnv('BENCH_WEBHOOK_DRAIN_SECONDS', 120, 1),
  };
}

/**
 * The receiver: answers 200 at once and counts, per path, the requests and the distinct
 * `webhook-id`s (a retry repeats an id). It checks no signature: it stands for a fast receiver.
 * `reset()` starts a round's count; `expect(n)` then `waitFor(ms)`: when every path had n distinct ids.
 */
async function startReceiver() {
  const fresh = () => ({
    requests: Object.fromEntries(RECEIVER_PATHS.map((p) => [p, 0])),
    ids: Object.fromEntries(RECEIVER_PATHS.map((p) => [p, new Set()])),
    other: 0,
    expected: null,
    completedAt: null,
  });
  let state = fresh();
  const check = (now) => {
    if (
      state.completedAt === null &&
      state.expected !== null &&
      RECEIVER_PATHS.every((p) => state.ids[p].size >= state.expected)
    ) {
      state.completedAt = now;
    }
  };
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-length': '0' });
    res.end();
    if (state.requests[req.url] === undefined) {
      state.other++;
      return;
    }
    state.requests[req.url]++;
    state.ids[req.url].add(req.headers['webhook-id']);
    check(performance.now());
  });
  const port = await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address().port));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    reset() {
      state = fresh();
    },
    expect(n) {
      state.expected = n;
      check(performance.now());
    },
    snapshot() {
      return {
        requests: { ...state.requests },
        distinct: Object.fromEntries(RECEIVER_PATHS.map((p) => [p, state.ids[p].size])),
        other: state.other,
      };
    },
    /** The time (performance.now()) every path had its expected ids, or null after `timeoutMs`. */
    async waitFor(timeoutMs) {
      const deadline = performance.now() + timeoutMs;
      while (state.completedAt === null && performance.now() < deadline) {
        if (isInterrupted()) {
          throw new Error('interrupted');
        }
        await delay(20);
      }
      return state.completedAt;
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
      });
    },
  };
}

/** The first admin (the fresh database has none), the way an admin UI signs up: CSRF token first. */
async function setupAdmin(base) {
  const csrf = await request({ url: `${base}/admin/api/auth/csrf` });
  const token = csrf.json?.csrfToken;
  const res = await request({
    method: 'POST',
    url: `${base}/admin/api/auth/setup`,
    headers: { 'X-CSRF-Token': token, Cookie: `svc_csrf=${token}` },
    body: { email: 'bench-admin@example.com', name: 'Bench Admin', password: PASSWORD },
  });
  if (res.status !== 201) {
    throw new Error(`bench setup failed: ${res.status} ${res.body}`);
  }
  return res.json.token;
}

/** A full-access API key, minted with the session cookie (keys are never minted with a Bearer). */
async function mintWriteKey(base, session) {
  const res = await request({
    method: 'POST',
    url: `${base}/admin/api/api-keys`,
    headers: { Cookie: `svc_session=${session}` },
    body: { name: 'webhook bench writer', type: 'full-access' },
  });
  if (res.status !== 201) {
    throw new Error(`bench API key: ${res.status} ${res.body}`);
  }
  return res.json.key;
}

async function createEndpoints(base, session, receiverUrl) {
  const ids = [];
  for (const p of RECEIVER_PATHS) {
    const res = await request({
      method: 'POST',
      url: `${base}/admin/api/webhooks`,
      headers: { Authorization: `Bearer ${session}` },
      body: {
        name: `bench ${p}`,
        url: `${receiverUrl}${p}`,
        events: ['entry.created'],
        collections: [COLLECTION],
      },
    });
    if (res.status !== 201) {
      throw new Error(`bench webhook ${p}: ${res.status} ${res.body}`);
    }
    ids.push(res.json.item.id);
  }
  return ids;
}

async function setEnabled(base, session, ids, enabled) {
  for (const id of ids) {
    const res = await request({
      method: 'PATCH',
      url: `${base}/admin/api/webhooks/${id}`,
      headers: { Authorization: `Bearer ${session}` },
      body: { enabled },
    });
    if (res.status !== 200 || res.json?.item?.enabled !== enabled) {
      throw new Error(`bench webhook ${id} enabled=${enabled}: ${res.status} ${res.body}`);
    }
  }
}

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null;
}

/**
 * `count` creates, `inFlight` at a time (autocannon `amount`), timed by the wall clock from the
 * start to the last answer (autocannon itself ends at its next 1-second sample, so its own end
 * and duration are up to a second late). Answers writes/s, the status codes, latency percentiles
 * (2xx, ms) and the server's CPU time per write.
 */
async function writeBatch(base, key, count, inFlight, pid) {
  if (isInterrupted()) {
    throw new Error('interrupted');
  }
  const latencies = [];
  let lastAnswerAt = null;
  let cpuAtLastAnswer = null;
  let pgAtLastAnswer = null;
  const cpuBefore = processCpuMs(pid);
  const pgBefore = postgresTicks();
  const startedAt = performance.now();
  const instance = autocannon({
    url: base + ENTRIES_PATH,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: WRITE_BODY,
    connections: inFlight,
    amount: count,
    timeout: 30,
  });
  currentInstance = instance;
  let answers = 0;
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    lastAnswerAt = performance.now();
    if (++answers === count) {
      cpuAtLastAnswer = processCpuMs(pid);
      pgAtLastAnswer = postgresCpuMsSince(pgBefore);
    }
    if (statusCode >= 200 && statusCode < 300) {
      latencies.push(responseTime);
    }
  });
  let r;
  try {
    r = await instance;
  } finally {
    currentInstance = null;
  }
  const endedAt = lastAnswerAt ?? performance.now();
  const cpuAfter = cpuAtLastAnswer ?? processCpuMs(pid);
  const pgSpent = pgAtLastAnswer ?? postgresCpuMsSince(pgBefore);
  if (isInterrupted()) {
    throw new Error('interrupted');
  }
  const statusCodes = Object.fromEntries(
    Object.entries(r.statusCodeStats ?? {}).map(([code, v]) => [code, v.count]),
  );
  const created = statusCodes['201'] ?? 0;
  latencies.sort((a, b) => a - b);
  const seconds = (endedAt - startedAt) / 1000;
  return {
    startedAt,
    endedAt,
    cpuBefore,
    seconds: round(seconds, 3),
    requests: r.requests.total,
    created,
    statusCodes,
    errors: r.errors,
    timeouts: r.timeouts,
    writesPerSec: round(created / seconds, 1),
    latencyP50: round(percentile(latencies, 50)),
    latencyP99: round(percentile(latencies, 99)),
    cpuMsPerWrite:
      cpuBefore !== null && cpuAfter !== null && created > 0
        ? round((cpuAfter - cpuBefore) / created, 3)
        : null,
    // PostgreSQL's CPU time per write (every postgres process here: the deliveries' statements too).
    postgresCpuMsPerWrite: pgSpent !== null && created > 0 ? round(pgSpent / created, 3) : null,
  };
}

/**
 * Waits (10 s at most) until the service has recorded every attempt: it records one a moment after
 * the receiver answered. A phase that follows starts on a quiet service.
 */
async function waitForRecords(dbPool) {
  for (let i = 0; i < 100; i++) {
    const { rows: waiting } = await dbPool.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'pending' AND attempts = 0`,
    );
    if (waiting[0].n === 0) {
      return;
    }
    await delay(100);
  }
}

/**
 * One round: (A) the endpoints disabled, `writes` creates; (B) enabled, `writes` creates, then the
 * wait for every delivery at the receiver. `withFirst` runs B before A: the rounds alternate, so a
 * service still getting faster (or slower) from round to round favours neither side. RSS sampled
 * throughout.
 */
async function runRound(ctx, label, withFirst = false) {
  const { base, session, key, endpointIds, receiver, svc, settings, dbPool } = ctx;
  const pid = svc.child.pid;
  const rss = rssSampler(pid);
  try {
    // A: no endpoint enabled. Deliveries that still arrive here (none expected) are counted.
    const runWithout = async () => {
      await setEnabled(base, session, endpointIds, false);
      receiver.reset();
      const batch = await writeBatch(base, key, settings.writes, settings.inFlight, pid);
      assertAlive(svc);
      return { batch, during: receiver.snapshot() };
    };
    // B: the 3 endpoints enabled, the same writes, then every event at every endpoint.
    const runWith = async () => {
      await setEnabled(base, session, endpointIds, true);
      receiver.reset();
      const batch = await writeBatch(base, key, settings.writes, settings.inFlight, pid);
      assertAlive(svc);
      receiver.expect(batch.created);
      const completedAt = await receiver.waitFor(settings.drainTimeoutSeconds * 1000);
      const cpuAfterDrain = processCpuMs(pid);
      assertAlive(svc);
      const got = receiver.snapshot();
      await waitForRecords(dbPool);
      return { batch, completedAt, cpuAfterDrain, got };
    };
    let a;
    let b;
    if (withFirst) {
      b = await runWith();
      a = await runWithout();
    } else {
      a = await runWithout();
      b = await runWith();
    }
    const without = a.batch;
    const duringA = a.during;
    const withHooks = b.batch;
    const perPath = withHooks.created;
    const { completedAt, cpuAfterDrain, got } = b;
    const rssMb = rss.stop();

    const expected = settings.writes * RECEIVER_PATHS.length;
    const delivered = RECEIVER_PATHS.reduce((n, p) => n + Math.min(got.distinct[p], perPath), 0);
    const ratio = without.writesPerSec ? withHooks.writesPerSec / without.writesPerSec : null;
    const clean = (b) => b.created === settings.writes && b.requests === settings.writes && b.errors === 0;
    const allWritten = clean(without) && clean(withHooks);
    const allDelivered = completedAt !== null && delivered === expected;
    return {
      round: label,
      order: withFirst ? 'with endpoints first' : 'without endpoints first',
      without,
      with: withHooks,
      ratio: round(ratio, 3),
      // From the first write of B to the delivery that completed the last endpoint's set.
      drainSeconds: completedAt === null ? null : round((completedAt - withHooks.startedAt) / 1000, 2),
      afterLastWriteSeconds: completedAt === null ? null : round((completedAt - withHooks.endedAt) / 1000, 2),
      // The server's CPU time for B's writes and all their deliveries, per write (A's is without.cpuMsPerWrite).
      withCpuMsPerWriteDelivered:
        withHooks.cpuBefore !== null && cpuAfterDrain !== null && perPath > 0
          ? round((cpuAfterDrain - withHooks.cpuBefore) / perPath, 3)
          : null,
      deliveries: {
        expected,
        delivered,
        requests: got.requests,
        distinct: got.distinct,
        duplicates: RECEIVER_PATHS.reduce((n, p) => n + got.requests[p] - got.distinct[p], 0),
        unknownPaths: got.other,
        duringWithout: RECEIVER_PATHS.reduce((n, p) => n + duringA.requests[p], 0),
        timedOut: completedAt === null,
      },
      rssMb: { min: rssMb.min, max: rssMb.max },
      verdict: {
        ratioMet: ratio !== null && ratio >= MIN_RATIO,
        allDelivered,
        allWritten,
        met: ratio !== null && ratio >= MIN_RATIO && allDelivered && allWritten,
      },
    };
  } finally {
    rss.stop();
  }
}

function fmt(n, digits = 0) {
  return typeof n === 'number'
    ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : 'n/a';
}

function markdownTable(rounds) {
  const head = [
    'round (first phase)',
    'writes/s without',
    'writes/s with 3 endpoints',
    'ratio',
    'p50 / p99 ms without',
    'p50 / p99 ms with',
    'server CPU ms/write without / with (deliveries incl.)',
    'PostgreSQL CPU ms/write without / with',
    'drain s (first write → last delivery)',
    'deliveries',
    'server RSS MB',
    'verdict',
  ];
  const rows = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const r of rounds) {
    const v = r.verdict;
    const why = [
      v.ratioMet ? null : `ratio < ${MIN_RATIO}`,
      v.allDelivered ? null : 'not all delivered',
      v.allWritten ? null : 'a write failed',
    ].filter(Boolean);
    rows.push(
      `| ${[
        `${r.round} (${r.order.startsWith('with ') ? 'with' : 'without'})`,
        fmt(r.without.writesPerSec),
        fmt(r.with.writesPerSec),
        fmt(r.ratio, 2),
        `${fmt(r.without.latencyP50, 1)} / ${fmt(r.without.latencyP99, 1)}`,
        `${fmt(r.with.latencyP50, 1)} / ${fmt(r.with.latencyP99, 1)}`,
        `${fmt(r.without.cpuMsPerWrite, 2)} / ${fmt(r.withCpuMsPerWriteDelivered, 2)}`,
        `${fmt(r.without.postgresCpuMsPerWrite, 2)} / ${fmt(r.with.postgresCpuMsPerWrite, 2)}`,
        r.drainSeconds === null ? 'timeout' : fmt(r.drainSeconds, 2),
        `${fmt(r.deliveries.delivered)} / ${fmt(r.deliveries.expected)}`,
        `${fmt(r.rssMb.min, 1)}-${fmt(r.rssMb.max, 1)}`,
        v.met ? 'met' : `MISSED (${why.join(', ')})`,
      ].join(' | ')} |`,
    );
  }
  return rows.join('\n');
}

async function main() {
  const settings = readSettings();
  if (!existsSync(SVC_ENTRY)) {
    throw new Error(`${path.relative(ROOT, SVC_ENTRY)} not found: run "npm run build"`);
  }
  const startedAt = new Date();
  const dbName = `svc_bench_hooks_${startedAt.getTime()}`;
  const dbUrl = new URL(settings.adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const workDir = path.join(os.tmpdir(), dbName);

  const adminPool = new pg.Pool({ connectionString: settings.adminUrl, max: 2 });
  const onIdleError = (err) => console.error(`pg idle client error: ${err.message}`);
  adminPool.on('error', onIdleError);
  let dbPool = null;
  let dbCreated = false;
  let svc = null;
  let receiver = null;
  const rounds = [];
  let warmup = null;
  let deliveryLog = null;
  let failure = null;

  try {
    await mkdir(workDir, { recursive: true });
    await adminPool.query(`CREATE DATABASE "${dbName}"`);
    dbCreated = true;
    dbPool = new pg.Pool({ connectionString: dbUrl.toString(), max: 2 });
    dbPool.on('error', onIdleError);

    receiver = await startReceiver();
    // The default deployment: production, the default log level (info), no Redis, the config above.
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    svc = startChild('service', [...nodeArgs('BENCH_DEFAULT_NODE_ARGS'), SVC_ENTRY], {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl.toString(),
      SVC_SECRET: randomBytes(32).toString('hex'),
      SVC_MEDIA_DIR: path.join(workDir, 'media'),
      NEXT_PUBLIC_APP_URL: base,
      SVC_CONFIG: path.join(BENCH_DIR, 'webhooks.config.mjs'),
      REDIS_URL: '',
      SVC_LOG_LEVEL: '',
    });
    await waitForHealthy(svc, base);

    const session = await setupAdmin(base);
    const key = await mintWriteKey(base, session);
    const endpointIds = await createEndpoints(base, session, receiver.url);
    // One create checked, and its event delivered to each endpoint, before anything is measured.
    receiver.reset();
    const probe = await request({
      method: 'POST',
      url: base + ENTRIES_PATH,
      headers: { Authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: WRITE_BODY,
    });
    if (probe.status !== 201 || probe.json?.item?.views !== 42) {
      throw new Error(`create in ${COLLECTION}: ${probe.status} ${probe.body.slice(0, 500)}`);
    }
    receiver.expect(1);
    const probeDelivered = await receiver.waitFor(30_000);
    if (probeDelivered === null) {
      throw new Error(`the first create was not delivered to ${RECEIVER_PATHS.join(', ')} within 30 s`);
    }

    const ctx = { base, session, key, endpointIds, receiver, svc, settings, dbPool };
    console.error(
      `webhook bench: ${settings.rounds} rounds of ${settings.writes} creates without and with ` +
        `${RECEIVER_PATHS.length} endpoints, ${settings.inFlight} in flight` +
        (settings.warmup ? `, after a warm-up round of ${settings.warmup}` : ''),
    );
    if (settings.warmup) {
      // Discarded: the first writes of a fresh process run before V8 has optimised its code.
      warmup = await runRound({ ...ctx, settings: { ...settings, writes: settings.warmup } }, 'warm-up');
      console.error(
        `warm-up: ${fmt(warmup.without.writesPerSec)} / ${fmt(warmup.with.writesPerSec)} writes/s, ` +
          `${warmup.deliveries.delivered} of ${warmup.deliveries.expected} delivered`,
      );
    }
    for (let i = 1; i <= settings.rounds; i++) {
      console.error(`round ${i}/${settings.rounds} ...`);
      const r = await runRound(ctx, String(i), i % 2 === 0);
      rounds.push(r);
      console.error(
        `round ${i}: ${fmt(r.without.writesPerSec)} → ${fmt(r.with.writesPerSec)} writes/s (${fmt(r.ratio, 2)}), ` +
          `drain ${r.drainSeconds ?? 'timeout'} s, ${r.deliveries.delivered}/${r.deliveries.expected} delivered`,
      );
    }

    // The service's own record of the deliveries: every one succeeded at its first attempt, or not.
    await waitForRecords(dbPool);
    const { rows } = await dbPool.query(
      `SELECT status, count(*)::int AS n, count(*) FILTER (WHERE attempts > 1)::int AS retried
         FROM webhook_deliveries GROUP BY status ORDER BY status`,
    );
    deliveryLog = Object.fromEntries(rows.map((r) => [r.status, { count: r.n, retried: r.retried }]));

    const cpus = os.cpus();
    console.log(
      `node ${process.version}, ${cpus.length} x ${cpus[0]?.model?.trim() ?? 'cpu'}; ` +
        `${settings.writes} creates per phase, ${settings.inFlight} in flight, ` +
        `${RECEIVER_PATHS.length} endpoints on entry.created`,
    );
    console.log('');
    console.log(markdownTable(rounds));
    console.log('');
    const ratios = rounds.map((r) => r.ratio ?? 0).sort((a, b) => a - b);
    console.log(
      `median ratio ${fmt(ratios[Math.floor((ratios.length - 1) / 2)], 2)} (goal >= ${MIN_RATIO}); ` +
        `rounds met: ${rounds.filter((r) => r.verdict.met).length} of ${rounds.length}`,
    );
    console.log(
      `service's delivery log: ${
        rows.map((r) => `${r.status} ${r.n}${r.retried ? ` (${r.retried} retried)` : ''}`).join(', ') ||
        'empty'
      } (warm-up and the first check included)`,
    );
    for (const r of rounds) {
      const d = r.deliveries;
      if (d.duplicates || d.unknownPaths || d.duringWithout) {
        console.log(
          `note: round ${r.round}: ${d.duplicates} repeated deliveries, ${d.unknownPaths} to unknown paths, ` +
            `${d.duringWithout} while the endpoints were disabled`,
        );
      }
    }
  } catch (err) {
    failure = err;
  } finally {
    currentInstance?.stop();
    await stopChild(svc);
    await receiver?.close();
    if (dbPool) {
      await dbPool.end().catch(() => {});
    }
    if (dbCreated) {
      try {
        await adminPool.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
      } catch (err) {
        console.error(`could not drop database ${dbName}: ${err.message}`);
        failure ??= err;
      }
    }
    await adminPool.end().catch(() => {});
    await rm(workDir, { recursive: true, force: true }).catch((err) =>
      console.error(`could not remove ${workDir}: ${err.message}`),
    );
  }

  // Partial results are kept too (status "failed").
  if (rounds.length > 0) {
    const cpus = os.cpus();
    const report = {
      status: failure ? 'failed' : 'ok',
      error: failure ? String(failure.stack ?? failure) : undefined,
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      node: process.version,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      cpu: { model: cpus[0]?.model?.trim() ?? null, count: cpus.length },
      settings: { ...settings, adminUrl: undefined, endpoints: RECEIVER_PATHS.length, minRatio: MIN_RATIO },
      warmup,
      rounds,
      deliveryLog,
      met: rounds.every((r) => r.verdict.met),
    };
    await mkdir(RESULTS_DIR, { recursive: true });
    const file = path.join(RESULTS_DIR, `webhooks-${startedAt.toISOString().replace(/:/g, '-')}.json`);
    await writeFile(file, JSON.stringify(report, null, 2) + '\n');
    console.error(`results written to ${path.relative(ROOT, file)}`);
  }
  if (failure) {
    if (svc) {
      console.error(
        `--- service stderr (tail) ---\n${svc.stderr.text().trimEnd().slice(-4000) || '(empty)'}`,
      );
    }
    throw failure;
  }
}

function onSignal(signal) {
  if (isInterrupted()) {
    return;
  }
  markInterrupted();
  console.error(`\n${signal} received, stopping and cleaning up...`);
  currentInstance?.stop();
}
process.on('SIGINT', () => onSignal('SIGINT'));
process.on('SIGTERM', () => onSignal('SIGTERM'));

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`webhook bench failed: ${err.stack ?? err}`);
    process.exit(1);
  },
);
