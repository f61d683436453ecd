// Benchmark harness: runs autocannon scenarios against the real service (dist/src/main.js) and a
// bare node:http + pg reference server (bench/bare-server.mjs), on a fresh PostgreSQL database.
//
//   npm run bench                      # build, then run every scenario
//   BENCH_FILTER=health node bench/run.mjs
//   BENCH_SKIP_SVC=1 node bench/run.mjs # bare scenarios only, no service needed
//
// See bench/README.md for the knobs and how to add a scenario.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH_DIR, '..');
const SVC_ENTRY = path.join(ROOT, 'dist', 'src', 'main.js');
const BARE_ENTRY = path.join(BENCH_DIR, 'bare-server.mjs');
const RESULTS_DIR = path.join(BENCH_DIR, 'results');
const BASELINE = 'bare health';

let currentInstance = null; // the running autocannon instance, stopped on SIGINT/SIGTERM
let interrupted = false;

// ---------------------------------------------------------------------------------------------
// Scenarios. Append new ones here.
//   name:    unique label (BENCH_FILTER matches a substring of it)
//   target:  'svc' (the real service) or 'bare' (bench/bare-server.mjs)
//   method, path, headers?, body? (object → JSON with Content-Type set; string → sent as is)
//   setup?:  async (ctx) => ({ headers?, body?, path? }) runs once before the warm-up; it may seed
//            data (ctx.request to the service, or SQL on ctx.dbPool) and return extra headers
//            (e.g. an Authorization header) or override body/path.
//            ctx = { svcUrl, bareUrl, adminPool, dbPool, request }
//   autocannon?: extra autocannon options merged last (e.g. `requests` for per-request bodies).
// ---------------------------------------------------------------------------------------------
/**
 * Signs in once per run through `POST /admin/api/auth/setup` (the fresh database has no user yet),
 * the way an admin UI would: CSRF token first. Memoised: scenarios share the session.
 */
let benchSession;
function benchAdmin(ctx) {
  benchSession ??= (async () => {
    const csrf = await ctx.request({ url: `${ctx.svcUrl}/admin/api/auth/csrf` });
    const token = csrf.json?.csrfToken;
    const res = await ctx.request({
      method: 'POST',
      url: `${ctx.svcUrl}/admin/api/auth/setup`,
      headers: { 'X-CSRF-Token': token, Cookie: `svc_csrf=${token}` },
      body: { email: 'bench-admin@example.com', name: 'Bench Admin', password: 'Bench-Password-1' },
    });
    if (res.status !== 201) {
      throw new Error(`bench setup failed: ${res.status} ${res.body}`);
    }
    return { token: res.json.token };
  })();
  return benchSession;
}

/**
 * A user holding `read-users` only through a 3-level role chain (grandparent -> parent -> child),
 * plus 200 users to list. Created over REST by the bench admin, signed in once. Memoised.
 */
let chainSession;
function chainUser(ctx) {
  chainSession ??= (async () => {
    const { token } = await benchAdmin(ctx);
    const auth = { Authorization: `Bearer ${token}` };
    await ctx.dbPool.query(
      `INSERT INTO users (email, name) SELECT 'bench-' || i || '@example.com', 'Bench ' || i FROM generate_series(1, 200) i`,
    );
    const role = async (name) => {
      const res = await ctx.request({
        method: 'POST',
        url: `${ctx.svcUrl}/admin/api/roles`,
        headers: auth,
        body: { name },
      });
      if (res.status !== 201) {
        throw new Error(`bench role ${name}: ${res.status} ${res.body}`);
      }
      return res.json.item.id;
    };
    const [grandparent, parent, child] = [
      await role('Bench Grandparent'),
      await role('Bench Parent'),
      await role('Bench Child'),
    ];
    const { rows } = await ctx.dbPool.query(`SELECT id FROM permissions WHERE slug = 'read-users'`);
    const post = (url, body) =>
      ctx.request({ method: 'POST', url: `${ctx.svcUrl}/admin/api${url}`, headers: auth, body });
    await post(`/roles/${grandparent}/permissions`, { permissionId: rows[0].id });
    await post(`/roles/${grandparent}/children`, { childId: parent });
    await post(`/roles/${parent}/children`, { childId: child });
    const created = await post('/users', {
      email: 'bench-chain@example.com',
      name: 'Chain',
      password: 'Bench-Password-1',
      roleIds: [child],
      emailVerified: true,
    });
    if (created.status !== 201) {
      throw new Error(`bench chain user: ${created.status} ${created.body}`);
    }
    const csrf = await ctx.request({ url: `${ctx.svcUrl}/admin/api/auth/csrf` });
    const login = await ctx.request({
      method: 'POST',
      url: `${ctx.svcUrl}/admin/api/auth/login`,
      headers: { 'X-CSRF-Token': csrf.json.csrfToken, Cookie: `svc_csrf=${csrf.json.csrfToken}` },
      body: { email: 'bench-chain@example.com', password: 'Bench-Password-1' },
    });
    if (login.status !== 200) {
      throw new Error(`bench chain login: ${login.status} ${login.body}`);
    }
    return { token: login.json.token };
  })();
  return chainSession;
}

const scenarios = [
  { name: 'health', target: 'svc', method: 'GET', path: '/api/health' },
  {
    name: 'me (bearer)',
    target: 'svc',
    method: 'GET',
    path: '/admin/api/me',
    setup: async (ctx) => ({ headers: { Authorization: `Bearer ${(await benchAdmin(ctx)).token}` } }),
  },
  {
    name: 'me (cookie)',
    target: 'svc',
    method: 'GET',
    path: '/admin/api/me',
    setup: async (ctx) => ({ headers: { Cookie: `svc_session=${(await benchAdmin(ctx)).token}` } }),
  },
  {
    name: 'users?limit=20 (super-admin)',
    target: 'svc',
    method: 'GET',
    path: '/admin/api/users?limit=20',
    setup: async (ctx) => {
      await chainUser(ctx); // same data for both scenarios
      return { headers: { Authorization: `Bearer ${(await benchAdmin(ctx)).token}` } };
    },
  },
  {
    name: 'users?limit=20 (3-level role chain)',
    target: 'svc',
    method: 'GET',
    path: '/admin/api/users?limit=20',
    setup: async (ctx) => ({ headers: { Authorization: `Bearer ${(await chainUser(ctx)).token}` } }),
  },
  {
    name: 'users?limit=20 (3-level chain, API key)',
    target: 'svc',
    method: 'GET',
    path: '/admin/api/users?limit=20',
    setup: async (ctx) => {
      const { token } = await chainUser(ctx);
      // Keys are minted with the browser session only (cookie, never Bearer).
      const res = await ctx.request({
        method: 'POST',
        url: `${ctx.svcUrl}/admin/api/api-keys`,
        headers: { Cookie: `svc_session=${token}` },
        body: { name: 'bench', type: 'full-access' },
      });
      if (res.status !== 201) {
        throw new Error(`bench API key: ${res.status} ${res.body}`);
      }
      return { headers: { Authorization: `Bearer ${res.json.key}` } };
    },
  },
  { name: 'bare health', target: 'bare', method: 'GET', path: '/api/health' },
  { name: 'bare static', target: 'bare', method: 'GET', path: '/static' },
];

// ---------------------------------------------------------------------------------------------
// Settings
// ---------------------------------------------------------------------------------------------
function intEnv(name, fallback, min) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') {
    return fallback;
  }
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  }
  return value;
}

function readSettings() {
  return {
    adminUrl: process.env.BENCH_ADMIN_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
    filter: process.env.BENCH_FILTER ?? '',
    connections: intEnv('BENCH_CONNECTIONS', 20, 1),
    warmup: intEnv('BENCH_WARMUP', 3, 0),
    duration: intEnv('BENCH_DURATION', 10, 1),
    pipelining: intEnv('BENCH_PIPELINING', 1, 1),
    rounds: intEnv('BENCH_ROUNDS', 1, 1),
    skipSvc: process.env.BENCH_SKIP_SVC === '1' || process.env.BENCH_SKIP_SVC === 'true',
  };
}

/** BENCH_FILTER: substring of the scenario name; several alternatives may be given comma-separated. */
function selectScenarios(settings) {
  const needles = settings.filter
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return scenarios.filter(
    (s) =>
      (needles.length === 0 || needles.some((n) => s.name.includes(n))) &&
      !(settings.skipSvc && s.target === 'svc'),
  );
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------
async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Minimal bounded HTTP client for 127.0.0.1 (setup hooks, health polling). */
function request({ method = 'GET', url, headers = {}, body, timeoutMs = 10_000 }) {
  const target = new URL(url);
  if (target.hostname !== '127.0.0.1' && target.hostname !== 'localhost') {
    return Promise.reject(new Error(`bench only talks to 127.0.0.1, refused ${url}`));
  }
  let payload;
  const hdrs = { ...headers };
  if (body !== undefined) {
    payload = typeof body === 'string' ? body : JSON.stringify(body);
    if (typeof body !== 'string' && !Object.keys(hdrs).some((h) => h.toLowerCase() === 'content-type')) {
      hdrs['Content-Type'] = 'application/json';
    }
    hdrs['Content-Length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(target, { method, headers: hdrs, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode, headers: res.headers, body: text, json });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${url}`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Keeps the last `limit` bytes of a stream, so a chatty child cannot grow memory without bound. */
function tailBuffer(limit = 256 * 1024) {
  let chunks = [];
  let size = 0;
  return {
    push(chunk) {
      chunks.push(chunk);
      size += chunk.length;
      while (size > limit && chunks.length > 1) {
        size -= chunks.shift().length;
      }
    },
    text() {
      return Buffer.concat(chunks).toString('utf8');
    },
    clear() {
      chunks = [];
      size = 0;
    },
  };
}

function startChild(label, args, env) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout = tailBuffer();
  const stderr = tailBuffer();
  child.stdout.on('data', (c) => stdout.push(c));
  child.stderr.on('data', (c) => stderr.push(c));
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
    child.on('error', (err) => resolve({ code: null, signal: null, error: err }));
  });
  const handle = { label, child, stdout, stderr, exited, exit: null };
  exited.then((info) => {
    handle.exit = info;
  });
  return handle;
}

function describeChild(handle) {
  const parts = [`--- ${handle.label} stderr ---`, handle.stderr.text().trimEnd() || '(empty)'];
  const out = handle.stdout.text().trimEnd();
  if (out) {
    parts.push(`--- ${handle.label} stdout (tail) ---`, out.slice(-8000));
  }
  return parts.join('\n');
}

function assertAlive(handle) {
  if (handle && handle.exit) {
    const { code, signal, error } = handle.exit;
    throw new Error(
      `${handle.label} exited unexpectedly (code ${code}, signal ${signal}${error ? `, ${error.message}` : ''})\n` +
        describeChild(handle),
    );
  }
}

async function waitForHealthy(handle, baseUrl, timeoutMs = 60_000, intervalMs = 200) {
  const deadline = Date.now() + timeoutMs;
  const maxAttempts = Math.ceil(timeoutMs / intervalMs) + 1;
  let last = 'no attempt';
  for (let attempt = 0; attempt < maxAttempts && Date.now() < deadline; attempt++) {
    if (interrupted) {
      throw new Error('interrupted');
    }
    assertAlive(handle);
    try {
      const res = await request({ url: `${baseUrl}/api/health`, timeoutMs: 2000 });
      if (res.status === 200) {
        return;
      }
      last = `HTTP ${res.status}: ${res.body.slice(0, 500)}`;
    } catch (err) {
      last = err.message;
    }
    await delay(intervalMs);
  }
  assertAlive(handle);
  throw new Error(
    `${handle.label} did not answer 200 on ${baseUrl}/api/health within ${timeoutMs / 1000} s ` +
      `(last: ${last})\n${describeChild(handle)}`,
  );
}

async function stopChild(handle) {
  if (!handle || handle.exit) {
    return;
  }
  handle.child.kill('SIGTERM');
  const graceful = await Promise.race([handle.exited, delay(5000).then(() => null)]);
  if (graceful) {
    return;
  }
  console.error(`${handle.label} did not exit 5 s after SIGTERM, sending SIGKILL`);
  handle.child.kill('SIGKILL');
  await Promise.race([handle.exited, delay(5000)]);
}

function round(n, digits = 2) {
  if (typeof n !== 'number' || !Number.isFinite(n)) {
    return null;
  }
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

// ---------------------------------------------------------------------------------------------
// Running one scenario
// ---------------------------------------------------------------------------------------------
/**
 * Sub-millisecond latency percentiles. autocannon's own histogram stores whole milliseconds, which
 * makes p50 of a fast route read 0 or 1; this keeps the exact response times of 2xx responses (the
 * same responses autocannon counts), as a uniform reservoir sample once `capacity` is reached.
 */
function latencySampler(capacity = 2_000_000) {
  let buf = new Float64Array(Math.min(capacity, 65_536));
  let seen = 0;
  let kept = 0;
  return {
    record(ms) {
      seen++;
      if (kept < capacity) {
        if (kept === buf.length) {
          const bigger = new Float64Array(Math.min(capacity, buf.length * 2));
          bigger.set(buf);
          buf = bigger;
        }
        buf[kept++] = ms;
      } else {
        const j = Math.floor(Math.random() * seen);
        if (j < capacity) {
          buf[j] = ms;
        }
      }
    },
    percentiles() {
      const sorted = buf.slice(0, kept).sort();
      const at = (p) => (kept === 0 ? null : sorted[Math.min(kept - 1, Math.ceil((p / 100) * kept) - 1)]);
      return { count: seen, sampled: kept, p50: at(50), p90: at(90), p99: at(99), p999: at(99.9) };
    },
  };
}

async function cannon(opts, onResponse) {
  if (interrupted) {
    throw new Error('interrupted');
  }
  const instance = autocannon(opts);
  currentInstance = instance;
  if (onResponse) {
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) {
        onResponse(responseTime);
      }
    });
  }
  // Hard stop in case autocannon does not end by itself (it should, after `duration`).
  const guard = setTimeout(() => instance.stop(), (opts.duration + 30) * 1000);
  try {
    return await instance;
  } finally {
    clearTimeout(guard);
    currentInstance = null;
  }
}

async function runScenario(scenario, ctx, settings) {
  const baseUrl = scenario.target === 'svc' ? ctx.svcUrl : ctx.bareUrl;
  if (!baseUrl) {
    throw new Error(`scenario "${scenario.name}": target "${scenario.target}" is not running`);
  }
  const extra = scenario.setup ? ((await scenario.setup(ctx)) ?? {}) : {};
  const headers = { ...(scenario.headers ?? {}), ...(extra.headers ?? {}) };
  let body = extra.body !== undefined ? extra.body : scenario.body;
  if (body !== undefined && typeof body !== 'string') {
    body = JSON.stringify(body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
  }
  const url = baseUrl + (extra.path ?? scenario.path);
  const base = {
    url,
    method: scenario.method ?? 'GET',
    headers,
    body,
    connections: settings.connections,
    pipelining: settings.pipelining,
    timeout: 10,
    ...(scenario.autocannon ?? {}),
  };

  if (settings.warmup > 0) {
    await cannon({ ...base, duration: settings.warmup });
  }
  const sampler = latencySampler();
  const r = await cannon({ ...base, duration: settings.duration }, sampler.record);
  if (interrupted) {
    throw new Error('interrupted');
  }
  const precise = sampler.percentiles();
  return {
    name: scenario.name,
    target: scenario.target,
    method: base.method,
    path: extra.path ?? scenario.path,
    requestsPerSec: round(r.requests.average),
    // Percentiles of 2xx responses in ms with sub-ms precision (autocannon's own are in raw.latency).
    latencyP50: round(precise.p50),
    latencyP90: round(precise.p90),
    latencyP99: round(precise.p99),
    latencyP999: round(precise.p999),
    latencyAvg: round(r.latency.average),
    latencyMax: round(r.latency.max),
    totalRequests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodeStats: r.statusCodeStats,
    raw: {
      duration: r.duration,
      start: r.start,
      finish: r.finish,
      connections: r.connections,
      pipelining: r.pipelining,
      latency: r.latency,
      requests: r.requests,
      throughput: r.throughput,
      errors: r.errors,
      timeouts: r.timeouts,
      resets: r.resets,
      mismatches: r.mismatches,
      '1xx': r['1xx'],
      '2xx': r['2xx'],
      '3xx': r['3xx'],
      '4xx': r['4xx'],
      '5xx': r['5xx'],
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------
function envLine(settings) {
  const cpus = os.cpus();
  const model = cpus[0]?.model?.trim() ?? 'unknown CPU';
  return (
    `Node ${process.version} | ${model} x${cpus.length} | connections=${settings.connections} ` +
    `pipelining=${settings.pipelining} warmup=${settings.warmup}s duration=${settings.duration}s` +
    (settings.filter ? ` filter="${settings.filter}"` : '') +
    (settings.rounds > 1 ? ` rounds=${settings.rounds} (median)` : '') +
    (settings.skipSvc ? ' skip-svc' : '')
  );
}

function fmt(n, digits) {
  return typeof n === 'number' && Number.isFinite(n) ? n.toFixed(digits) : 'n/a';
}

function markdownTable(results) {
  const baseline = results.find((r) => r.name === BASELINE)?.requestsPerSec;
  const rows = [
    '| scenario | req/s | p50 ms | p99 ms | non-2xx | vs bare health |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    const ratio = baseline ? `${((r.requestsPerSec ?? 0) / baseline).toFixed(2)}x` : 'n/a';
    const cells = [
      r.name,
      fmt(r.requestsPerSec, 1),
      fmt(r.latencyP50, 2),
      fmt(r.latencyP99, 2),
      r.non2xx,
      ratio,
    ];
    rows.push(`| ${cells.join(' | ')} |`);
  }
  return rows.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main
// ---------------------------------------------------------------------------------------------
async function main() {
  const settings = readSettings();
  const selected = selectScenarios(settings);
  if (selected.length === 0) {
    throw new Error(`no scenario matches BENCH_FILTER="${settings.filter}"`);
  }
  const names = new Set();
  for (const s of selected) {
    if (names.has(s.name)) {
      throw new Error(`duplicate scenario name "${s.name}"`);
    }
    names.add(s.name);
  }
  const needSvc = selected.some((s) => s.target === 'svc');
  const needBare = selected.some((s) => s.target === 'bare');
  if (needSvc && !existsSync(SVC_ENTRY)) {
    throw new Error(
      `${path.relative(ROOT, SVC_ENTRY)} not found: run "npm run build" (or use BENCH_SKIP_SVC=1)`,
    );
  }

  const startedAt = new Date();
  const dbName = `svc_bench_${startedAt.getTime()}`;
  const dbUrl = new URL(settings.adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const databaseUrl = dbUrl.toString();

  const adminPool = new pg.Pool({ connectionString: settings.adminUrl, max: 2 });
  // An idle client dropped by the server must not crash the harness before its cleanup runs.
  const onIdleError = (err) => console.error(`pg idle client error: ${err.message}`);
  adminPool.on('error', onIdleError);
  let dbPool = null;
  let dbCreated = false;
  let svc = null;
  let bare = null;
  const results = [];
  let failure = null;

  try {
    await adminPool.query(`CREATE DATABASE "${dbName}"`);
    dbCreated = true;
    dbPool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    dbPool.on('error', onIdleError);

    let svcUrl = null;
    let bareUrl = null;
    if (needSvc) {
      const port = await freePort();
      svcUrl = `http://127.0.0.1:${port}`;
      svc = startChild('service', [SVC_ENTRY], {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        SVC_SECRET: randomBytes(32).toString('hex'),
        NEXT_PUBLIC_APP_URL: svcUrl,
        SVC_LOG_LEVEL: 'warn',
        SVC_CONFIG: path.join(BENCH_DIR, 'bench.config.mjs'),
        // Rate-limit counters in Redis, as several instances would run them (BENCH_REDIS_URL='' for memory).
        REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
      });
    }
    if (needBare) {
      const port = await freePort();
      bareUrl = `http://127.0.0.1:${port}`;
      bare = startChild('bare server', [BARE_ENTRY], {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
      });
    }
    await Promise.all([svc && waitForHealthy(svc, svcUrl), bare && waitForHealthy(bare, bareUrl)]);

    const ctx = { svcUrl, bareUrl, adminPool, dbPool, request };
    console.error(envLine(settings));
    // BENCH_ROUNDS > 1 interleaves the scenarios round after round and keeps each one's median
    // round, so the machine's drift over a run weighs on every scenario alike.
    const runs = [];
    for (let round = 1; round <= settings.rounds; round++) {
      for (const scenario of selected) {
        console.error(
          `running "${scenario.name}" (${scenario.target} ${scenario.method} ${scenario.path}) round ${round}/${settings.rounds} ...`,
        );
        const result = await runScenario(scenario, ctx, settings);
        assertAlive(scenario.target === 'svc' ? svc : bare);
        runs.push(result);
      }
    }
    for (const scenario of selected) {
      const mine = runs.filter((r) => r.name === scenario.name);
      const sorted = [...mine].sort((a, b) => (a.requestsPerSec ?? 0) - (b.requestsPerSec ?? 0));
      const median = sorted[Math.floor((sorted.length - 1) / 2)];
      results.push(settings.rounds > 1 ? { ...median, rounds: mine.map((r) => r.requestsPerSec) } : median);
    }

    console.log(envLine(settings));
    console.log('');
    console.log(markdownTable(results));
    const troubled = results.filter((r) => r.errors > 0 || r.non2xx > 0);
    for (const r of troubled) {
      const codes = Object.entries(r.statusCodeStats ?? {})
        .map(([code, v]) => `${code}: ${v.count}`)
        .join(', ');
      console.log(
        `\nnote: "${r.name}" had ${r.non2xx} non-2xx, ${r.errors} errors (${r.timeouts} timeouts); status codes ${codes}`,
      );
    }
  } catch (err) {
    failure = err;
  } finally {
    await Promise.all([stopChild(svc), stopChild(bare)]);
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
  }

  // Partial results are kept too (status "failed"), so a crash mid-run still leaves its numbers.
  if (results.length > 0) {
    const finishedAt = new Date();
    const cpus = os.cpus();
    const report = {
      status: failure ? 'failed' : 'ok',
      error: failure ? String(failure.stack ?? failure) : undefined,
      startedAt: startedAt.toISOString(),
      finishedAt: finishedAt.toISOString(),
      node: process.version,
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      cpu: { model: cpus[0]?.model?.trim() ?? null, count: cpus.length },
      settings: { ...settings, adminUrl: undefined },
      baseline: BASELINE,
      scenarios: results,
    };
    await mkdir(RESULTS_DIR, { recursive: true });
    const file = path.join(RESULTS_DIR, `${startedAt.toISOString().replace(/:/g, '-')}.json`);
    await writeFile(file, JSON.stringify(report, null, 2) + '\n');
    console.error(`results written to ${path.relative(ROOT, file)}`);
  }

  if (failure) {
    throw failure;
  }
}

function onSignal(signal) {
  if (interrupted) {
    return;
  }
  interrupted = true;
  console.error(`\n${signal} received, stopping and cleaning up...`);
  currentInstance?.stop();
}
process.on('SIGINT', () => onSignal('SIGINT'));
process.on('SIGTERM', () => onSignal('SIGTERM'));

main().then(
  () => process.exit(0),
  (err) => {
    console.error(`bench failed: ${err.stack ?? err}`);
    process.exit(1);
  },
);
