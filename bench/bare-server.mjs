// Bare-metal reference server for the benchmark: node:http + a pg Pool, no framework.
// It answers the same JSON as the real service so the two can be compared byte for byte.
//
// Started by bench/run.mjs as a child process with env PORT and DATABASE_URL.
// To add a route, add an entry to `routes` below: key "METHOD /path", value an async
// handler `(req, ctx) => ({ status, headers?, body })` (body: object → JSON, string → as is).
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';

const VERSION = '0.1.0';
const PORT = Number(process.env.PORT ?? 0);
const HOST = process.env.HOST ?? '127.0.0.1';
const MAX_BODY_BYTES = 1024 * 1024;

if (!process.env.DATABASE_URL) {
  console.error('bare-server: DATABASE_URL is required');
  process.exit(1);
}

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
pool.on('error', (err) => console.error('bare-server: idle pg client error:', err.message));

const HEALTH_HEADERS = {
  'Cache-Control': 'public, max-age=60, stale-while-revalidate=30',
};

function round2(n) {
  return Math.round(n * 100) / 100;
}

function healthBody(database) {
  return {
    ok: database.ok,
    version: VERSION,
    uptime: Math.round(process.uptime() * 1000) / 1000, // seconds, ms precision, as the service
    timestamp: new Date().toISOString(),
    database,
  };
}

/** Route table: "METHOD /path" → async (req, ctx) => ({ status, headers?, body }). */
const routes = {
  'GET /api/health': async () => {
    const started = performance.now();
    try {
      await pool.query('SELECT 1');
      const latency = round2(performance.now() - started);
      return {
        status: 200,
        headers: HEALTH_HEADERS,
        body: healthBody({ ok: true, dialect: 'postgres', latency }),
      };
    } catch {
      const latency = round2(performance.now() - started);
      return {
        status: 503,
        headers: { 'Cache-Control': 'no-store' },
        body: healthBody({ ok: false, dialect: 'postgres', latency }),
      };
    }
  },

  // Same JSON, no database round trip: the ceiling of what node:http can do here.
  'GET /static': async () => ({
    status: 200,
    headers: HEALTH_HEADERS,
    body: healthBody({ ok: true, dialect: 'postgres', latency: 0 }),
  }),
};

/** Reads the request body (bounded); handlers that need it call ctx.readBody() / ctx.readJson(). */
function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(Object.assign(new Error('payload too large'), { status: 413 }));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res, status, headers, body) {
  const payload = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(payload),
    'X-Request-Id': randomUUID(),
    ...headers,
  });
  res.end(payload);
}

const server = http.createServer((req, res) => {
  const pathname = (req.url ?? '/').split('?', 1)[0];
  const handler = routes[`${req.method} ${pathname}`];
  if (!handler) {
    send(res, 404, {}, { statusCode: 404, message: `Cannot ${req.method} ${pathname}`, error: 'Not Found' });
    return;
  }
  const ctx = {
    pool,
    readBody: () => readBody(req),
    readJson: async () => JSON.parse((await readBody(req)) || 'null'),
  };
  handler(req, ctx).then(
    (out) => send(res, out.status ?? 200, out.headers ?? {}, out.body ?? ''),
    (err) => {
      const status = err?.status ?? 500;
      if (status >= 500) {
        console.error('bare-server: handler error:', err);
      }
      if (!res.headersSent) {
        send(res, status, {}, { statusCode: status, message: err?.message ?? 'error' });
      } else {
        res.destroy();
      }
    },
  );
});

server.listen(PORT, HOST, () => {
  const addr = server.address();
  console.log(`bare-server listening on http://${HOST}:${addr.port}`);
});

let shuttingDown = false;
async function shutdown(signal) {
  if (shuttingDown) {
    return;
  }
  shuttingDown = true;
  console.log(`bare-server: ${signal}, shutting down`);
  server.close();
  server.closeAllConnections();
  // pool.end() waits for checked-out clients; do not wait forever.
  await Promise.race([pool.end().catch(() => {}), delay(3000)]);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
