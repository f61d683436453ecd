// Helpers shared by the benchmark scripts (bench/run.mjs, bench/webhooks.mjs): free ports, a small
// HTTP client for 127.0.0.1, the service and reference servers as child processes (started, polled
// on /api/health, stopped), and /proc readings of a child's CPU time and RSS.
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  createWriteStream,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(BENCH_DIR, '..');
export const SVC_ENTRY = path.join(ROOT, 'dist', 'src', 'main.js');

// Set on SIGINT/SIGTERM by the script running: a wait for a child's health gives up at once.
let interrupted = false;

export function isInterrupted() {
  return interrupted;
}

export function markInterrupted() {
  interrupted = true;
}

export async function freePort() {
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
export function request({ method = 'GET', url, headers = {}, body, timeoutMs = 10_000 }) {
  const target = new URL(url);
  if (target.hostname !== '127.0.0.1' && target.hostname !== 'localhost') {
    return Promise.reject(new Error(`bench only talks to 127.0.0.1, refused ${url}`));
  }
  let payload;
  const hdrs = { ...headers };
  if (body !== undefined) {
    const raw = typeof body === 'string' || Buffer.isBuffer(body);
    payload = raw ? body : JSON.stringify(body);
    if (!raw && !Object.keys(hdrs).some((h) => h.toLowerCase() === 'content-type')) {
      hdrs['Content-Type'] = 'application/json';
    }
    hdrs['Content-Length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(target, { method, headers: hdrs, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const buffer = Buffer.concat(chunks);
        const text = buffer.toString('utf8');
        let json;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode, headers: res.headers, body: text, json, buffer });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${method} ${url}`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** Keeps the last `limit` bytes of a stream, so a chatty child cannot grow memory without bound. */
export function tailBuffer(limit = 256 * 1024) {
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

/** Extra node flags for one server from the environment (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"). */
export function nodeArgs(name) {
  return (process.env[name] ?? '').split(' ').filter(Boolean);
}

/**
 * A server as a child process. Its stdout (the access log: a line per request) goes through a pipe
 * to a `cat` writing a file, as a container runtime's shim copies a service's log: read by this
 * process instead, every line would wake the load generator and take its CPU while it measures the
 * service (the bare server writes nothing). The file is `<BENCH_CHILD_LOG_DIR>/<label>.out.log`
 * when that is set (kept), else a temporary one removed when the child exits; its tail shows in
 * `describeChild`. stderr is kept in memory (its last 256 KiB), and in `<label>.log` under
 * BENCH_CHILD_LOG_DIR.
 */
export function startChild(label, args, env) {
  const name = label.replace(/\W+/g, '-');
  const keepDir = process.env.BENCH_CHILD_LOG_DIR;
  const dir = keepDir || mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
  const outPath = path.join(dir, `${name}.out.log`);
  const outFd = openSync(outPath, 'w');
  const sink = spawn('cat', [], { stdio: ['pipe', outFd, 'ignore'] });
  closeSync(outFd);
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', sink.stdin, 'pipe'] });
  // The pipe's write end is the child's alone: cat ends when the child does.
  sink.stdin.destroy();
  const stderr = tailBuffer();
  child.stderr.on('data', (c) => stderr.push(c));
  if (keepDir) {
    child.stderr.pipe(createWriteStream(path.join(keepDir, `${name}.log`)));
  }
  const stdout = { text: () => fileTail(outPath, 64 * 1024) };
  const exited = new Promise((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
    child.on('error', (err) => resolve({ code: null, signal: null, error: err }));
  });
  const handle = { label, child, stdout, stderr, exited, exit: null };
  const sinkDone = new Promise((resolve) => sink.on('close', resolve));
  exited.then(async (info) => {
    handle.exit = info;
    await sinkDone;
    if (!keepDir) {
      // The tail stays readable for the report of an unexpected exit.
      const tail = stdout.text();
      stdout.text = () => tail;
      rmSync(dir, { recursive: true, force: true });
    }
  });
  return handle;
}

/** The last `bytes` of a file as text ('' when it is gone). */
function fileTail(file, bytes) {
  try {
    const size = statSync(file).size;
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(Math.min(bytes, size));
      readSync(fd, buffer, 0, buffer.length, size - buffer.length);
      return buffer.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}

export function describeChild(handle) {
  const parts = [`--- ${handle.label} stderr ---`, handle.stderr.text().trimEnd() || '(empty)'];
  const out = handle.stdout.text().trimEnd();
  if (out) {
    parts.push(`--- ${handle.label} stdout (tail) ---`, out.slice(-8000));
  }
  return parts.join('\n');
}

export function assertAlive(handle) {
  if (handle && handle.exit) {
    const { code, signal, error } = handle.exit;
    throw new Error(
      `${handle.label} exited unexpectedly (code ${code}, signal ${signal}${error ? `, ${error.message}` : ''})\n` +
        describeChild(handle),
    );
  }
}

export async function waitForHealthy(handle, baseUrl, timeoutMs = 60_000, intervalMs = 200) {
  const deadline = Date.now() + timeoutMs;
  const maxAttempts = Math.ceil(timeoutMs / intervalMs) + 1;
  let last = 'no attempt';
  for (let attempt = 0; attempt < maxAttempts && Date.now() < deadline; attempt++) {
    if (isInterrupted()) {
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

export async function stopChild(handle) {
  if (!handle || handle.exit) {
    return;
  }
  // SIGINT: the service stops at once (SIGTERM would drain for SVC_DRAIN_SECONDS first, and a
  // child killed after that would not write its --cpu-prof profile).
  handle.child.kill('SIGINT');
  const graceful = await Promise.race([handle.exited, delay(5000).then(() => null)]);
  if (graceful) {
    return;
  }
  console.error(`${handle.label} did not exit 5 s after SIGINT, sending SIGKILL`);
  handle.child.kill('SIGKILL');
  await Promise.race([handle.exited, delay(5000)]);
}

/** Clock ticks per second for /proc times (almost always 100). */
export const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

export function round(n, digits = 2) {
  if (typeof n !== 'number' || !Number.isFinite(n)) {
    return null;
  }
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** utime + stime of a process in ms, from /proc (Linux); null where it cannot be read. */
export function processCpuMs(pid) {
  if (!pid) {
    return null;
  }
  try {
    // Fields after the command name (which may hold spaces): utime and stime are fields 14 and 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/**
 * How often a process's main thread has gone to sleep (voluntary context switches, from /proc):
 * for a Node process, its event loop waiting with nothing to do. Per request it shows how many
 * requests each turn of the loop served; null where it cannot be read.
 */
export function processWaits(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const n = Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1]);
    return Number.isFinite(n) ? n : null;
  } catch {
    return null;
  }
}

/** The machine's CPU time since boot in ticks, from /proc/stat's first line: busy, idle and steal. */
function machineTicks() {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    return { busy: user + nice + system + irq + softirq, idle: idle + iowait, steal: steal || 0 };
  } catch {
    return null;
  }
}

/**
 * utime + stime in ticks of each PostgreSQL process of the machine (`comm` postgres), by pid:
 * the database's share of a measured run when it runs here (`postgresCpuMsSince`).
 */
export function postgresTicks() {
  const ticks = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) {
      continue;
    }
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'postgres') {
        continue;
      }
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks.set(pid, Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended while the list was read.
    }
  }
  return ticks;
}

/**
 * PostgreSQL's CPU in ms since `before` (a `postgresTicks`): what the processes alive now spent
 * since then (all of it for those started since). A process that ended in between (a closed
 * connection, an autovacuum worker) is left out. Null when no PostgreSQL runs on this machine.
 */
export function postgresCpuMsSince(before) {
  const now = postgresTicks();
  if (!now.size) {
    return null;
  }
  let ticks = 0;
  for (const [pid, t] of now) {
    ticks += t - (before.get(pid) ?? 0);
  }
  return (ticks * 1000) / CLOCK_TICKS;
}

/**
 * Where a measured run's CPU went, besides the server: the database's processes and the load
 * generator (this process, where autocannon runs), per request, and how busy the machine was
 * (share of all cores; steal: time the hypervisor gave to other machines). The load generator
 * does the same work per request whatever the server is, so a round in which its CPU per request
 * rises with the server's ran on a slower machine (it measures only the core it runs on).
 */
export function machineSampler() {
  const start = { machine: machineTicks(), db: postgresTicks(), load: process.cpuUsage() };
  return {
    stop(requests) {
      const machine = machineTicks();
      const load = process.cpuUsage(start.load);
      const per = (ms) => (requests > 0 && ms !== null ? round(ms / requests, 3) : null);
      const before = start.machine;
      const total =
        before && machine
          ? machine.busy + machine.idle + machine.steal - (before.busy + before.idle + before.steal)
          : 0;
      return {
        dbCpuMsPerRequest: per(postgresCpuMsSince(start.db)),
        loadCpuMsPerRequest: per((load.user + load.system) / 1000),
        machineBusyPct: total > 0 ? round((100 * (machine.busy - before.busy)) / total, 1) : null,
        stealPct: total > 0 ? round((100 * (machine.steal - before.steal)) / total, 1) : null,
      };
    },
  };
}

/**
 * A core-probe.mjs pinned to each core (`taskset`), sampling that core's speed on fixed work all
 * through the run; `window(from, to)` answers, per core, the median µs of each piece of work in
 * that span (ms since the epoch). Null where `taskset` (util-linux) is missing.
 */
export function coreProbes() {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  const probes = os.cpus().map((_, core) => {
    const child = spawn(
      'taskset',
      ['-c', String(core), process.execPath, path.join(BENCH_DIR, 'core-probe.mjs')],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const samples = [];
    let rest = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) {
        const [t, compute, memory] = line.split(' ').map(Number);
        samples.push({ t, compute, memory });
      }
    });
    child.on('error', () => {});
    return { child, samples };
  });
  const median = (values) => {
    const sorted = values.sort((a, b) => a - b);
    return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : null;
  };
  return {
    window(from, to) {
      return probes.map(({ samples }) => {
        const inside = samples.filter((s) => s.t >= from && s.t <= to);
        return {
          computeUs: median(inside.map((s) => s.compute)),
          memoryUs: median(inside.map((s) => s.memory)),
        };
      });
    },
    stop() {
      for (const { child } of probes) {
        child.kill('SIGTERM');
      }
    },
  };
}

/** Resident set size of a process in MB, from /proc (Linux); null where it cannot be read. */
export function processRssMb(pid) {
  if (!pid) {
    return null;
  }
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
    return Number.isFinite(kb) ? round(kb / 1024, 1) : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every 250 ms until stopped; answers the largest, the smallest and the last sample. */
export function rssSampler(pid) {
  let max = processRssMb(pid);
  let min = max;
  let last = max;
  const timer = setInterval(() => {
    last = processRssMb(pid);
    if (last !== null && (max === null || last > max)) {
      max = last;
    }
    if (last !== null && (min === null || last < min)) {
      min = last;
    }
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      last = processRssMb(pid) ?? last;
      return {
        max: max === null || last === null ? max : Math.max(max, last),
        min: min === null || last === null ? min : Math.min(min, last),
        last,
      };
    },
  };
}

/**
 * The order of one round's scenarios: each one followed at once by the bare server's scenario its
 * ratio goal names (when that is selected too), so the two of a ratio are measured seconds apart,
 * not minutes, on a machine whose speed drifts; even rounds run each such pair the other way
 * round, so neither side always runs first. The rest keep their order.
 */
export function roundOrder(scenarios, round) {
  const byName = new Map(scenarios.map((s) => [s.name, s]));
  const placed = new Set();
  const order = [];
  for (const s of scenarios) {
    if (placed.has(s.name)) {
      continue;
    }
    const refName = (s.targets ?? []).find((t) => t.vs && byName.get(t.vs)?.target === 'bare')?.vs;
    const ref = refName && !placed.has(refName) ? byName.get(refName) : undefined;
    for (const next of ref ? (round % 2 === 0 ? [ref, s] : [s, ref]) : [s]) {
      placed.add(next.name);
      order.push(next);
    }
  }
  return order;
}
