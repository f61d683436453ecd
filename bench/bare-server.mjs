// Bare-metal reference server for the benchmark: node:http + a pg Pool, no framework.
// It answers the same JSON as the real service so the two can be compared byte for byte.
//
// Started by bench/run.mjs as a child process with env PORT and DATABASE_URL.
// To add a route, add an entry to `routes` below: key "METHOD /path", value an async
// handler `(req, ctx) => ({ status, headers?, body })` (body: object → JSON, string → as is);
// routes with a path parameter go to `patternRoutes` (matched by RegExp, after `routes`).
// A handler may answer `{ status, headers, stream }` instead of a body: the readable is piped.
import http from 'node:http';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { URLSearchParams } from 'node:url';
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

  // A file from disk (BENCH_STATIC_FILE, the 1 MiB text of the media scenarios): a minimal static
  // server, stat then fs.createReadStream, no cache, no database (bench "bare media file 1MB").
  'GET /static-file': async () => {
    const file = process.env.BENCH_STATIC_FILE;
    const info = file ? await stat(file).catch(() => null) : null;
    if (!info?.isFile()) {
      return notFound('No static file (BENCH_STATIC_FILE)');
    }
    return {
      status: 200,
      headers: {
        'Content-Type': 'text/plain; charset=utf-8',
        'Content-Length': info.size,
        'Last-Modified': info.mtime.toUTCString(),
      },
      stream: createReadStream(file),
    };
  },
};

// ---------------------------------------------------------------------------------------------
// Content engine reference (bench scenarios "bare content ..."): the same SQL the service runs for
// `GET /admin/api/collections/posts-<size>/entries?where[views][greater_than]=N&sort=-views&limit=L`
// and `GET .../entries/<id>`, on plain copies of its tables (bare_posts_10k, bare_posts_1m: same
// rows, same indexes, seeded by bench/content-seed.mjs), answering the same JSON. The statements
// are hard-coded: this measures what the database and node:http alone cost for that answer.
// ---------------------------------------------------------------------------------------------
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ENTRY_COLUMNS =
  '"id", "created_at" AS "createdAt", "updated_at" AS "updatedAt", "title", "views", "body", "author", "editor", "reviewer"';
const CONTENT_SQL = Object.fromEntries(
  ['10k', '1m'].map((size) => {
    const table = `"bare_posts_${size}"`;
    return [
      size,
      {
        list: `SELECT ${ENTRY_COLUMNS} FROM ${table} WHERE "views" > $1 ORDER BY "views" DESC, "id" DESC LIMIT $2 OFFSET $3`,
        count: `SELECT count(*) AS "total" FROM ${table} WHERE "views" > $1`,
        get: `SELECT ${ENTRY_COLUMNS} FROM ${table} WHERE "id" = ANY($1) ORDER BY "id" ASC LIMIT $2 OFFSET $3`,
      },
    ];
  }),
);

/** The service's key order: id, the fields in definition order, createdAt, updatedAt. */
function postEntry(r) {
  return {
    id: r.id,
    title: r.title ?? null,
    views: r.views ?? null,
    body: r.body ?? null,
    author: r.author ?? null,
    editor: r.editor ?? null,
    reviewer: r.reviewer ?? null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

function badRequest(message) {
  return { status: 400, body: { statusCode: 400, message, error: 'Bad Request' } };
}

function notFound(message) {
  return { status: 404, body: { statusCode: 404, message, error: 'Not Found' } };
}

/** A positive integer query value, `fallback` when absent; null when not one. */
function positiveInt(raw, fallback) {
  if (raw === null) {
    return fallback;
  }
  return /^[1-9][0-9]{0,8}$/.test(raw) ? Number(raw) : null;
}

/**
 * The fixed list scenario only: `where[views][greater_than]` (a number), `sort=-views`, `limit`
 * (default 10, at most 500) and `page` (default 1); anything else is a 400.
 */
async function contentList(size, search) {
  const params = new URLSearchParams(search);
  const raw = params.get('where[views][greater_than]');
  const threshold = raw === null || raw.trim() === '' ? NaN : Number(raw);
  const limit = positiveInt(params.get('limit'), 10);
  const page = positiveInt(params.get('page'), 1);
  for (const key of params.keys()) {
    if (!['where[views][greater_than]', 'sort', 'limit', 'page'].includes(key)) {
      return badRequest(`the bare reference does not handle ${key}`);
    }
  }
  if (!Number.isFinite(threshold) || params.get('sort') !== '-views' || limit === null || page === null) {
    return badRequest(
      'the bare reference handles where[views][greater_than]=<n>&sort=-views[&limit][&page] only',
    );
  }
  const take = Math.min(limit, 500);
  const sql = CONTENT_SQL[size];
  // The page and its count on two pool connections at once, as the service runs them.
  const [found, counted] = await Promise.all([
    pool.query(sql.list, [threshold, take, (page - 1) * take]),
    pool.query(sql.count, [threshold]),
  ]);
  const total = Number(counted.rows[0].total);
  const totalPages = Math.ceil(total / take);
  return {
    status: 200,
    body: {
      items: found.rows.map(postEntry),
      meta: { total, page, limit: take, totalPages, hasNext: page < totalPages, hasPrev: page > 1 },
    },
  };
}

async function contentGet(size, id) {
  if (!UUID.test(id)) {
    return notFound('No such entry');
  }
  const found = await pool.query(CONTENT_SQL[size].get, [[id.toLowerCase()], 1, 0]);
  return found.rows.length ? { status: 200, body: postEntry(found.rows[0]) } : notFound('No such entry');
}

// ---------------------------------------------------------------------------------------------
// Writes reference (bench scenarios "bare insert" / "bare update"): what a developer writes by
// hand for `POST /entries` and `PATCH /entries/<id>` on the writes table (`bare_posts_writes`, a
// copy of the service's `c_posts_writes`): parse the JSON body, check every field's type and
// length, refuse unknown keys, one statement, answer `{ message, item }`.
// ---------------------------------------------------------------------------------------------
const WRITE_FIELDS = { title: 'text', views: 'number', body: 'text' };
const MAX_TEXT = 10_000;

/** The body's fields checked as the service checks these types: null for a bad body. */
function writeInput(body, partial) {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return null;
  }
  const out = {};
  for (const [key, value] of Object.entries(body)) {
    const type = WRITE_FIELDS[key];
    if (!type) {
      return null;
    }
    if (value === null) {
      out[key] = null;
    } else if (type === 'text' && typeof value === 'string' && value.length <= MAX_TEXT) {
      out[key] = value;
    } else if (type === 'number' && typeof value === 'number' && Number.isFinite(value)) {
      out[key] = value;
    } else {
      return null;
    }
  }
  return partial || Object.keys(out).length ? out : null;
}

async function insertEntry(ctx) {
  const input = writeInput(await ctx.readJson(), false);
  if (!input) {
    return badRequest('invalid body');
  }
  const found = await pool.query(
    `INSERT INTO "bare_posts_writes" ("title", "views", "body") VALUES ($1, $2, $3)
     RETURNING ${ENTRY_COLUMNS}`,
    [input.title ?? null, input.views ?? null, input.body ?? null],
  );
  return { status: 201, body: { message: 'Entry created', item: postEntry(found.rows[0]) } };
}

async function updateEntry(ctx, id) {
  const input = writeInput(await ctx.readJson(), true);
  if (!input || !UUID.test(id)) {
    return input ? notFound('No such entry') : badRequest('invalid body');
  }
  const keys = Object.keys(input);
  const sets = keys.map((k, i) => `"${k}" = $${i + 2}`).join(', ');
  const found = await pool.query(
    `UPDATE "bare_posts_writes" SET ${sets ? `${sets}, ` : ''}"updated_at" = now() WHERE "id" = $1
     RETURNING ${ENTRY_COLUMNS}`,
    [id.toLowerCase(), ...keys.map((k) => input[k])],
  );
  return found.rows.length
    ? { status: 200, body: { message: 'Entry updated', item: postEntry(found.rows[0]) } }
    : notFound('No such entry');
}

/**
 * Routes matched by pattern, tried after the exact `routes`: [method, RegExp on the pathname,
 * async (req, ctx, match, search) => ({ status, headers?, body })].
 */
const patternRoutes = [
  ['GET', /^\/bare\/posts-(10k|1m)\/entries$/, (_req, _ctx, m, search) => contentList(m[1], search)],
  ['GET', /^\/bare\/posts-(10k|1m)\/entries\/([^/]+)$/, (_req, _ctx, m) => contentGet(m[1], m[2])],
  ['POST', /^\/bare\/posts-writes\/entries$/, (_req, ctx) => insertEntry(ctx)],
  ['PATCH', /^\/bare\/posts-writes\/entries\/([^/]+)$/, (_req, ctx, m) => updateEntry(ctx, m[1])],
];

function findRoute(method, pathname) {
  const exact = routes[`${method} ${pathname}`];
  if (exact) {
    return (req, ctx) => exact(req, ctx);
  }
  for (const [m, pattern, handler] of patternRoutes) {
    const match = m === method ? pattern.exec(pathname) : null;
    if (match) {
      return (req, ctx, search) => handler(req, ctx, match, search);
    }
  }
  return undefined;
}

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

/** Streams `out.stream` (headers as given: the handler sets Content-Type and Content-Length). */
function sendStream(res, out) {
  res.writeHead(out.status ?? 200, { 'X-Request-Id': randomUUID(), ...(out.headers ?? {}) });
  pipeline(out.stream, res).catch(() => res.destroy());
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
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const pathname = q === -1 ? url : url.slice(0, q);
  const handler = findRoute(req.method, pathname);
  if (!handler) {
    send(res, 404, {}, { statusCode: 404, message: `Cannot ${req.method} ${pathname}`, error: 'Not Found' });
    return;
  }
  const ctx = {
    pool,
    readBody: () => readBody(req),
    readJson: async () => JSON.parse((await readBody(req)) || 'null'),
  };
  handler(req, ctx, q === -1 ? '' : url.slice(q + 1)).then(
    (out) =>
      out.stream ? sendStream(res, out) : send(res, out.status ?? 200, out.headers ?? {}, out.body ?? ''),
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
