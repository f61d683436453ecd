// The cost of the access log per request: drives the service's real request logger
// (dist/src/common/request-logging.js, as SvcModule and the content read lane mount it) with fake
// request/response objects, writing through the real root logger (createRootLogger) to an
// asynchronous sonic-boom destination on /dev/null, as production writes JSON lines to stdout.
//
//   npm run build && node bench/log-cost.mjs
//   LOG_COST_N=50000 LOG_COST_ROUNDS=9 node bench/log-cost.mjs
//
// Four modes, interleaved round by round, median of the rounds:
//   - no middleware: the fake request and response alone (the harness's own cost);
//   - level warn:    the middleware, no line written (the access log off);
//   - level info:    the middleware and one access line per request (the default);
//   - level info to a no-op stream: the line built and serialised, not written.
// "info - warn" is what the access line costs; "warn - no middleware" the request id, the async
// context and the 'close' listener every request pays anyway. LOG_COST_BATCH requests run between
// event-loop turns (default 20; lines written while a write is in flight are queued by sonic-boom). Figures are ns of CPU on this
// machine, in one process: compare figures from the same run only.
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setImmediate as tick } from 'node:timers/promises';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(ROOT, 'package.json'));
const { createRootLogger } = require(path.join(ROOT, 'dist/src/common/logger.js'));
const { recordPrincipal, requestLogging } = require(path.join(ROOT, 'dist/src/common/request-logging.js'));
const pino = require('pino');

const N = Number(process.env.LOG_COST_N ?? 40_000);
const ROUNDS = Number(process.env.LOG_COST_ROUNDS ?? 7);
const BATCH = Number(process.env.LOG_COST_BATCH ?? 20); // requests between event-loop turns (the destination writes in between)

const HEADERS = {
  host: 'localhost:3000',
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
  accept: 'application/json',
  'accept-encoding': 'gzip, deflate, br',
  authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
  connection: 'keep-alive',
};
const AUTH = {
  method: 'session',
  user: { id: '0b7c6a52-3d5e-4f3a-9a7e-2f1f5c9d8e01' },
};
const BODY_LENGTH = '1834';

/** What the middleware reads of an Express response (ServerResponse's own fields and methods). */
class FakeResponse extends EventEmitter {
  constructor(req) {
    super();
    this.req = req;
    this.statusCode = 200;
    this.headersSent = false;
    this.writableEnded = false;
    this.headers = {};
  }
  setHeader(name, value) {
    this.headers[name.toLowerCase()] = value;
  }
  getHeader(name) {
    return this.headers[name];
  }
}

function fakeRequest() {
  return {
    method: 'GET',
    url: '/admin/api/collections/posts/entries?limit=10&page=2&sort=-views',
    originalUrl: '/admin/api/collections/posts/entries?limit=10&page=2&sort=-views',
    headers: HEADERS,
    ip: '203.0.113.7',
    socket: { remoteAddress: '10.0.0.2' },
  };
}

/** One request: the middleware (if any), authentication noting the principal, the answer, 'close'. */
function oneRequest(middleware) {
  const req = fakeRequest();
  const res = new FakeResponse(req);
  const handle = () => {
    recordPrincipal(req, AUTH);
    res.statusCode = 200;
    res.setHeader('Content-Length', BODY_LENGTH);
    res.headersSent = true;
    res.writableEnded = true;
  };
  if (middleware) {
    middleware(req, res, handle);
  } else {
    handle();
  }
  res.emit('close');
}

async function run(middleware) {
  const started = process.hrtime.bigint();
  for (let i = 0; i < N; i += BATCH) {
    for (let j = 0; j < BATCH; j++) {
      oneRequest(middleware);
    }
    await tick();
  }
  return Number(process.hrtime.bigint() - started) / N;
}

const destination = pino.destination({ dest: '/dev/null', sync: false });
const modes = {
  'no middleware': null,
  'level warn (access log off)': requestLogging(
    createRootLogger({ level: 'warn', pretty: false, stream: destination }),
  ),
  'level info (one access line)': requestLogging(
    createRootLogger({ level: 'info', pretty: false, stream: destination }),
  ),
  // The same line, handed to a stream that drops it: building and serialising it, no writing.
  'level info, no-op stream': requestLogging(
    createRootLogger({ level: 'info', pretty: false, stream: { write() {} } }),
  ),
};

const samples = Object.fromEntries(Object.keys(modes).map((m) => [m, []]));
for (const mw of Object.values(modes)) {
  await run(mw); // warm-up, discarded
}
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, mw] of Object.entries(modes)) {
    samples[name].push(await run(mw));
  }
}
destination.flushSync();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const result = Object.fromEntries(Object.entries(samples).map(([m, xs]) => [m, median(xs)]));
const [none, off, on, built] = Object.values(result);
console.log(`node ${process.version}, ${N} requests x ${ROUNDS} rounds, median ns/request:`);
for (const [name, ns] of Object.entries(result)) {
  console.log(`  ${name.padEnd(30)} ${ns.toFixed(0).padStart(7)} ns`);
}
console.log(
  `  ${'middleware, log off'.padEnd(30)} ${(off - none).toFixed(0).padStart(7)} ns  (warn - no middleware)`,
);
console.log(`  ${'access line'.padEnd(30)} ${(on - off).toFixed(0).padStart(7)} ns  (info - warn)`);
console.log(
  `    ${'of which building + JSON'.padEnd(28)} ${(built - off).toFixed(0).padStart(7)} ns  (no-op stream - warn)`,
);
console.log(
  `    ${'of which the destination'.padEnd(28)} ${(on - built).toFixed(0).padStart(7)} ns  (info - no-op stream)`,
);
