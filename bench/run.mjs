// Benchmark harness: runs autocannon scenarios against the real service (dist/src/main.js) and a
// bare node:http + pg reference server (bench/bare-server.mjs), on a fresh PostgreSQL database.
//
//   npm run bench                      # build, then run every scenario
//   BENCH_FILTER=health node bench/run.mjs
//   BENCH_SKIP_SVC=1 node bench/run.mjs # bare scenarios only, no service needed
//
// See bench/README.md for the knobs and how to add a scenario.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { seedContent, seedReports } from './content-seed.mjs';
import {
  assertAlive,
  BENCH_DIR,
  freePort,
  isInterrupted,
  coreProbes,
  machineSampler,
  markInterrupted,
  nodeArgs,
  processCpuMs,
  processWaits,
  processRssMb,
  request,
  ROOT,
  round,
  roundOrder,
  rssSampler,
  startChild,
  stopChild,
  SVC_ENTRY,
  waitForHealthy,
} from './lib.mjs';
import {
  JPEG_HEIGHT,
  JPEG_WIDTH,
  jpegFixture,
  multipartBody,
  TEXT_FILENAME,
  textFixture,
} from './media-fixtures.mjs';

const BARE_ENTRY = path.join(BENCH_DIR, 'bare-server.mjs');
const RESULTS_DIR = path.join(BENCH_DIR, 'results');
const BASELINE = 'bare health';

let currentInstance = null; // the running autocannon instance, stopped on SIGINT/SIGTERM

// ---------------------------------------------------------------------------------------------
// Scenarios. Append new ones here.
//   name:    unique label (BENCH_FILTER matches a substring of it)
//   target:  'svc' (the real service) or 'bare' (bench/bare-server.mjs)
//   method, path, headers?, body? (object → JSON with Content-Type set; string → sent as is)
//   setup?:  async (ctx) => ({ headers?, body?, path? }) runs once before the warm-up; it may seed
//            data (ctx.request to the service, or SQL on ctx.dbPool) and return extra headers
//            (e.g. an Authorization header) or override body/path.
//            ctx = { svcUrl, bareUrl, adminPool, dbPool, request }
//   autocannon?: extra autocannon options merged last (e.g. `requests` for per-request bodies);
//            setup may return `autocannon` too (merged after the scenario's).
//   targets?: goals checked and printed after the table, e.g.
//            { vs: 'bare content list 10k', min: 0.8 } (req/s ratio to another scenario of the run)
//            { p99Under: 50 } (p99 latency in ms)
// ---------------------------------------------------------------------------------------------
/**
 * Signs in once per run through `POST /admin/api/auth/setup` (the fresh database has no user yet),
 * the way an admin UI would: CSRF token first. Memoised: scenarios share the session.
 */
let benchSession;
function benchAdmin(ctx) {
  benchSession ??= (async () => {
    const csrf = await ctx.request({ url: `${ctx.apiUrl}/admin/api/auth/csrf` });
    const token = csrf.json?.csrfToken;
    const res = await ctx.request({
      method: 'POST',
      url: `${ctx.apiUrl}/admin/api/auth/setup`,
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
        url: `${ctx.apiUrl}/admin/api/roles`,
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
      ctx.request({ method: 'POST', url: `${ctx.apiUrl}/admin/api${url}`, headers: auth, body });
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
    const csrf = await ctx.request({ url: `${ctx.apiUrl}/admin/api/auth/csrf` });
    const login = await ctx.request({
      method: 'POST',
      url: `${ctx.apiUrl}/admin/api/auth/login`,
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

/**
 * Mints an API key with a browser session (keys are minted with the session cookie only, never a
 * Bearer credential) and answers its secret.
 */
async function mintApiKey(ctx, sessionToken, body) {
  const mint = () =>
    ctx.request({
      method: 'POST',
      url: `${ctx.apiUrl}/admin/api/api-keys`,
      headers: { Cookie: `svc_session=${sessionToken}` },
      body,
    });
  let res = await mint();
  if (res.status === 403 && res.json?.error?.code === 'REAUTH_REQUIRED') {
    // Minting a key needs a sign-in of the last 10 minutes: a long run proves the password again.
    const csrf = await ctx.request({ url: `${ctx.apiUrl}/admin/api/auth/csrf` });
    const token = csrf.json?.csrfToken;
    const proved = await ctx.request({
      method: 'POST',
      url: `${ctx.apiUrl}/admin/api/auth/reauthenticate`,
      headers: { 'X-CSRF-Token': token, Cookie: `svc_session=${sessionToken}; svc_csrf=${token}` },
      body: { password: 'Bench-Password-1' },
    });
    if (proved.status !== 200) {
      throw new Error(`bench reauthenticate: ${proved.status} ${proved.body}`);
    }
    res = await mint();
  }
  if (res.status !== 201) {
    throw new Error(`bench API key: ${res.status} ${res.body}`);
  }
  return res.json.key;
}

/** A read-only key of the bench super-admin (it reads every collection). Memoised. */
let contentKeyPromise;
function contentKey(ctx) {
  contentKeyPromise ??= (async () =>
    mintApiKey(ctx, (await benchAdmin(ctx)).token, { name: 'bench content', type: 'read-only' }))();
  return contentKeyPromise;
}

// ---------------------------------------------------------------------------------------------
// Content engine (bench/content-seed.mjs seeds people + posts, 10k or 1M rows, once per run, and
// copies them into bare_posts_<size> for the bare server). Every setup checks one answer first,
// so a scenario never measures error pages, and the service and the bare server agree.
// ---------------------------------------------------------------------------------------------
const CONTENT_LIST_QUERY = 'where[views][greater_than]=500&sort=-views&limit=20';
const ENTRY_KEYS = ['id', 'title', 'views', 'body', 'author', 'editor', 'reviewer', 'createdAt', 'updatedAt'];
const PERSON_KEYS = ['id', 'name', 'createdAt', 'updatedAt'];

function sameKeys(obj, keys) {
  return obj !== null && typeof obj === 'object' && JSON.stringify(Object.keys(obj)) === JSON.stringify(keys);
}

function sameKeySet(obj, keys) {
  return (
    obj !== null &&
    typeof obj === 'object' &&
    JSON.stringify(Object.keys(obj).sort()) === JSON.stringify([...keys].sort())
  );
}

/**
 * GETs `url` once and throws unless it answers 200 and `check(json, warn)` returns nothing (else a
 * complaint); `warn(text)` notes a difference that does not stop the run (key order), printed and
 * kept in the results JSON under `shapeWarnings`.
 */
const shapeWarnings = [];
async function checkAnswer(ctx, name, url, headers, check) {
  const res = await ctx.request({ url, headers });
  const warn = (text) => {
    if (!shapeWarnings.some((w) => w.scenario === name && w.text === text)) {
      shapeWarnings.push({ scenario: name, text });
      console.error(`warning: "${name}": ${text}`);
    }
  };
  const problem = res.status !== 200 ? `HTTP ${res.status}` : check(res.json, warn);
  if (problem) {
    throw new Error(`scenario "${name}": ${problem}\nGET ${url}\n→ ${res.status} ${res.body.slice(0, 2000)}`);
  }
  return res.json;
}

/** An entry of posts-<size>: its keys (in the service's order, else a warning). */
function entryProblem(entry, warn, what = 'item') {
  if (!sameKeySet(entry, ENTRY_KEYS)) {
    return `${what} keys ${JSON.stringify(Object.keys(entry ?? {}))}, expected ${JSON.stringify(ENTRY_KEYS)}`;
  }
  if (!sameKeys(entry, ENTRY_KEYS)) {
    warn(`${what} key order ${JSON.stringify(Object.keys(entry))}, expected ${JSON.stringify(ENTRY_KEYS)}`);
  }
  return null;
}

/**
 * The service's answer next to the bare server's for the same request (when both run): they should
 * be the same JSON; a difference is a warning (first differing path).
 */
async function compareWithBare(ctx, name, svcJson, barePath) {
  if (!ctx.bareUrl) {
    return;
  }
  const bare = await ctx.request({ url: ctx.bareUrl + barePath });
  const diff = firstDifference(svcJson, bare.json, '');
  if (bare.status !== 200 || diff) {
    const text =
      bare.status !== 200 ? `bare server answered ${bare.status}` : `differs from the bare server at ${diff}`;
    if (!shapeWarnings.some((w) => w.scenario === name && w.text === text)) {
      shapeWarnings.push({ scenario: name, text });
      console.error(`warning: "${name}": ${text}`);
    }
  }
}

function firstDifference(a, b, at) {
  if (a === b) {
    return null;
  }
  if (
    a === null ||
    b === null ||
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    Array.isArray(a) !== Array.isArray(b)
  ) {
    return `${at || '(root)'}: ${JSON.stringify(a)?.slice(0, 200)} vs ${JSON.stringify(b)?.slice(0, 200)}`;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (JSON.stringify(ka) !== JSON.stringify(kb)) {
    return `${at || '(root)'} keys ${JSON.stringify(ka)} vs ${JSON.stringify(kb)}`;
  }
  for (const k of ka) {
    const d = firstDifference(a[k], b[k], at ? `${at}.${k}` : k);
    if (d) {
      return d;
    }
  }
  return null;
}

/** The list answer of a seeded size: 20 items sorted by views desc, total = rows with views > 500. */
function checkList(seed) {
  return (json, warn) => {
    const items = json?.items;
    if (!Array.isArray(items) || items.length !== 20) {
      return `expected 20 items, got ${Array.isArray(items) ? items.length : typeof items}`;
    }
    for (const it of items) {
      const problem = entryProblem(it, warn);
      if (problem) {
        return problem;
      }
    }
    if (!items.every((it, k) => it.views > 500 && (k === 0 || items[k - 1].views >= it.views))) {
      return 'items are not views > 500 sorted by views descending';
    }
    if (seed.top20 && JSON.stringify(items.map((i) => i.id)) !== JSON.stringify(seed.top20)) {
      return `item ids ${JSON.stringify(items.map((i) => i.id))}, expected ${JSON.stringify(seed.top20)}`;
    }
    const meta = json.meta ?? {};
    const want = {
      total: seed.matching,
      page: 1,
      limit: 20,
      totalPages: Math.ceil(seed.matching / 20),
      hasNext: true,
      hasPrev: false,
    };
    if (!sameKeySet(meta, Object.keys(want)) || Object.keys(want).some((k) => meta[k] !== want[k])) {
      return `meta ${JSON.stringify(meta)}, expected ${JSON.stringify(want)}`;
    }
    if (!sameKeys(meta, Object.keys(want))) {
      warn(
        `meta key order ${JSON.stringify(Object.keys(meta))}, expected ${JSON.stringify(Object.keys(want))}`,
      );
    }
    return null;
  };
}

function checkEntry(id) {
  return (json, warn) =>
    entryProblem(json, warn, 'entry') ?? (json.id !== id ? `id ${json.id}, expected ${id}` : null);
}

function checkDepth1(json, warn) {
  const items = json?.items;
  if (!Array.isArray(items) || items.length !== 20) {
    return `expected 20 items, got ${Array.isArray(items) ? items.length : typeof items}`;
  }
  for (const it of items) {
    const problem = entryProblem(it, warn);
    if (problem) {
      return problem;
    }
    for (const f of ['author', 'editor', 'reviewer']) {
      if (!sameKeySet(it[f], PERSON_KEYS)) {
        return `${f} of ${it.id} is ${JSON.stringify(it[f])}, expected an object with keys ${JSON.stringify(PERSON_KEYS)}`;
      }
      if (!sameKeys(it[f], PERSON_KEYS)) {
        warn(`${f} key order ${JSON.stringify(Object.keys(it[f]))}, expected ${JSON.stringify(PERSON_KEYS)}`);
      }
    }
  }
  return null;
}

/** The base URL of a scenario's target: 'svc' (tuned), 'svc-default' (default deployment) or 'bare'. */
function baseUrlOf(ctx, target) {
  return { svc: ctx.svcUrl, 'svc-default': ctx.defaultUrl, bare: ctx.bareUrl }[target];
}

/** A full-access key of the bench super-admin (writes entries). Memoised. */
let writeKeyPromise;
function writeKey(ctx) {
  writeKeyPromise ??= (async () =>
    mintApiKey(ctx, (await benchAdmin(ctx)).token, { name: 'bench writer', type: 'full-access' }))();
  return writeKeyPromise;
}

/**
 * "A list right after a write is exact on the instance that wrote": with the list's count cached
 * (listed once before), creates a matching entry on `base`, lists again there (total + 1),
 * deletes it and lists again (total back). Throws on a wrong total.
 */
async function checkListAfterWrite(ctx, name, base, size, seed) {
  const url = `${base}/admin/api/collections/posts-${size}/entries?${CONTENT_LIST_QUERY}`;
  const reader = { Authorization: `Bearer ${await contentKey(ctx)}` };
  const writer = { Authorization: `Bearer ${await writeKey(ctx)}` };
  const total = async () => (await ctx.request({ url, headers: reader })).json?.meta?.total;
  const before = await total();
  const created = await ctx.request({
    method: 'POST',
    url: `${base}/admin/api/collections/posts-${size}/entries`,
    headers: writer,
    body: { title: 'bench write', views: 999, body: 'written by the bench' },
  });
  if (created.status !== 201) {
    throw new Error(`scenario "${name}": create answered ${created.status} ${created.body.slice(0, 500)}`);
  }
  const afterCreate = await total();
  const id = created.json?.item?.id ?? created.json?.id;
  const deleted = await ctx.request({
    method: 'DELETE',
    url: `${base}/admin/api/collections/posts-${size}/entries/${id}`,
    headers: writer,
  });
  if (deleted.status >= 300) {
    throw new Error(`scenario "${name}": delete answered ${deleted.status} ${deleted.body.slice(0, 500)}`);
  }
  const afterDelete = await total();
  const want = [seed.matching, seed.matching + 1, seed.matching];
  if (JSON.stringify([before, afterCreate, afterDelete]) !== JSON.stringify(want)) {
    throw new Error(
      `scenario "${name}": totals before / after a create / after its delete ${JSON.stringify([before, afterCreate, afterDelete])}, expected ${JSON.stringify(want)}`,
    );
  }
  console.error(`"${name}": list totals exact right after a write (${want.join(' -> ')})`);
}

/**
 * "content list <size> (key)" on a service target (`label` prefixes the name, e.g. "default: ")
 * or "bare content list <size>": the same query string.
 */
function contentListScenario(size, target, { label = '', targets, autocannon, afterWrite = false } = {}) {
  const bare = target === 'bare';
  const path = bare
    ? `/bare/posts-${size}/entries?${CONTENT_LIST_QUERY}`
    : `/admin/api/collections/posts-${size}/entries?${CONTENT_LIST_QUERY}`;
  const name = bare ? `bare content list ${size}` : `${label}content list ${size} (key)`;
  return {
    name,
    target,
    method: 'GET',
    path,
    targets,
    autocannon,
    setup: async (ctx) => {
      const seed = await seedContent(ctx, size);
      const base = baseUrlOf(ctx, target);
      const headers = bare ? {} : { Authorization: `Bearer ${await contentKey(ctx)}` };
      const json = await checkAnswer(ctx, name, base + path, headers, checkList(seed));
      if (!bare) {
        await compareWithBare(ctx, name, json, `/bare/posts-${size}/entries?${CONTENT_LIST_QUERY}`);
        if (afterWrite) {
          await checkListAfterWrite(ctx, name, base, size, seed);
        }
      }
      return { headers };
    },
  };
}

/**
 * Get by id: 1,000 seeded ids (deterministic, the same for both) in turn, through autocannon
 * `requests`; the answers for 8 of them are checked first.
 */
function contentGetScenario(size, target, { label = '', targets } = {}) {
  const bare = target === 'bare';
  const prefix = bare ? `/bare/posts-${size}/entries` : `/admin/api/collections/posts-${size}/entries`;
  const name = bare ? `bare content get ${size}` : `${label}content get ${size} (key)`;
  return {
    name,
    target,
    method: 'GET',
    path: `${prefix}/:id`,
    targets,
    setup: async (ctx) => {
      const seed = await seedContent(ctx, size);
      const headers = bare ? {} : { Authorization: `Bearer ${await contentKey(ctx)}` };
      const base = baseUrlOf(ctx, target);
      for (const id of seed.ids) {
        const json = await checkAnswer(ctx, name, `${base}${prefix}/${id}`, headers, checkEntry(id));
        if (!bare) {
          await compareWithBare(ctx, name, json, `/bare/posts-${size}/entries/${id}`);
        }
      }
      return {
        headers,
        path: `${prefix}/${seed.ids[0]}`,
        autocannon: { requests: seed.getIds.map((id) => ({ method: 'GET', path: `${prefix}/${id}` })) },
      };
    },
  };
}

/**
 * The write scenarios' tables: the service made `c_posts_writes` at boot (bench.config.mjs);
 * the bare server writes a plain copy (same columns and indexes). Memoised.
 */
let writesTablesPromise;
function ensureWritesTables(ctx) {
  writesTablesPromise ??= ctx.dbPool.query(
    'CREATE TABLE IF NOT EXISTS "bare_posts_writes" (LIKE "c_posts_writes" INCLUDING DEFAULTS INCLUDING INDEXES)',
  );
  return writesTablesPromise;
}

const WRITE_BODY = { title: 'bench write', views: 42, body: 'written by the bench' };

/**
 * Writes over REST (issue 30): "insert" creates an entry per request, "update" changes `views` of
 * 8 seeded entries in turn, 16 requests in flight; through a full-access API key on the service,
 * the hand-written JSON check and one statement on the bare server. Each answer is checked once.
 */
function writeScenario(kind, target, { label = '', targets } = {}) {
  const bare = target === 'bare';
  const prefix = bare ? '/bare/posts-writes/entries' : '/admin/api/collections/posts-writes/entries';
  const name = bare ? `bare ${kind}` : `${label}${kind} (key)`;
  return {
    name,
    target,
    method: kind === 'insert' ? 'POST' : 'PATCH',
    path: prefix,
    targets,
    autocannon: { connections: 16 },
    setup: async (ctx) => {
      await ensureWritesTables(ctx);
      const headers = {
        'content-type': 'application/json',
        ...(bare ? {} : { Authorization: `Bearer ${await writeKey(ctx)}` }),
      };
      const base = baseUrlOf(ctx, target);
      if (kind === 'insert') {
        const res = await ctx.request({ method: 'POST', url: base + prefix, headers, body: WRITE_BODY });
        if (res.status !== 201 || res.json?.item?.views !== 42) {
          throw new Error(`scenario "${name}": ${res.status} ${res.body.slice(0, 500)}`);
        }
        return { headers, body: WRITE_BODY };
      }
      const table = bare ? 'bare_posts_writes' : 'c_posts_writes';
      const { rows } = await ctx.dbPool.query(
        `INSERT INTO "${table}" ("title", "views", "body") SELECT 'bench update', n, 'seeded'
           FROM generate_series(1, 8) AS n RETURNING "id"`,
      );
      const ids = rows.map((r) => r.id);
      const res = await ctx.request({
        method: 'PATCH',
        url: `${base}${prefix}/${ids[0]}`,
        headers,
        body: { views: 7 },
      });
      if (res.status !== 200 || res.json?.item?.views !== 7) {
        throw new Error(`scenario "${name}": ${res.status} ${res.body.slice(0, 500)}`);
      }
      return {
        headers,
        path: `${prefix}/${ids[0]}`,
        autocannon: {
          requests: ids.map((id, i) => ({
            method: 'PATCH',
            path: `${prefix}/${id}`,
            body: JSON.stringify({ views: i }),
          })),
        },
      };
    },
  };
}

/**
 * The default deployment held at a fixed rate for BENCH_STEADY_SECONDS (default 600): list and
 * get by id in turn, reported per 30-second window (req/s, p50, p99, server RSS). Opt-in: only
 * with a BENCH_FILTER naming it (`npm run bench:steady`).
 */
const steadyScenario = {
  name: 'default: steady list+get',
  target: 'svc-default',
  optIn: true,
  steady: true,
  method: 'GET',
  path: '/admin/api/collections/posts-10k/entries',
  setup: async (ctx) => {
    const seed = await seedContent(ctx, '10k');
    const headers = { Authorization: `Bearer ${await contentKey(ctx)}` };
    const prefix = '/admin/api/collections/posts-10k/entries';
    const requests = seed.ids.flatMap((id) => [
      { method: 'GET', path: `${prefix}?${CONTENT_LIST_QUERY}` },
      { method: 'GET', path: `${prefix}/${id}` },
    ]);
    await checkAnswer(
      ctx,
      'default: steady list+get',
      `${ctx.defaultUrl}${requests[0].path}`,
      headers,
      checkList(seed),
    );
    return { headers, autocannon: { requests } };
  },
};

// ---------------------------------------------------------------------------------------------
// Media (issue 19): uploads of a 2 MB JPEG made in two image sizes by sharp, and a 1 MiB file
// served from local storage next to the bare server's static file. The services store files in
// the run's own folder (SVC_MEDIA_DIR, removed at the end with the database); the uploaded rows
// and files are left until then.
// ---------------------------------------------------------------------------------------------
const IMAGE_SIZES = [
  { name: 'thumb', width: 320, fit: 'cover', format: 'webp' },
  { name: 'large', width: 1280, fit: 'inside', format: 'webp' },
];
/** What each preset makes of the 2400x1800 JPEG (never enlarged; the height follows the ratio). */
const EXPECTED_SIZES = {
  thumb: { width: 320, height: 240, mimeType: 'image/webp' },
  large: { width: 1280, height: 960, mimeType: 'image/webp' },
};
const UPLOAD_PATH = '/admin/api/collections/media/entries';

/** The two image sizes, created once per run by the bench super-admin (`manage-settings`). Memoised. */
let imageSizesPromise;
function imageSizes(ctx) {
  imageSizesPromise ??= (async () => {
    const { token } = await benchAdmin(ctx);
    for (const size of IMAGE_SIZES) {
      const res = await ctx.request({
        method: 'POST',
        url: `${ctx.apiUrl}/admin/api/image-sizes`,
        headers: { Authorization: `Bearer ${token}` },
        body: size,
      });
      if (res.status !== 201) {
        throw new Error(`bench image size ${size.name}: ${res.status} ${res.body.slice(0, 500)}`);
      }
    }
  })();
  return imageSizesPromise;
}

/** The upload body (2 MB JPEG under `file`), built once with a fixed boundary. Memoised. */
let uploadBodyPromise;
function uploadBody(ctx) {
  uploadBodyPromise ??= (async () => {
    const jpeg = await jpegFixture(ctx.fixturesDir);
    console.error(`media: ${jpeg.filename} ${JPEG_WIDTH}x${JPEG_HEIGHT}, ${jpeg.bytes.length} bytes`);
    return { jpeg, ...multipartBody(jpeg.filename, 'image/jpeg', jpeg.bytes) };
  })();
  return uploadBodyPromise;
}

/** POSTs a multipart body to `base`'s media entries with the bench writer key; answers the item. */
async function uploadOnce(ctx, name, base, form) {
  const res = await ctx.request({
    method: 'POST',
    url: base + UPLOAD_PATH,
    headers: { Authorization: `Bearer ${await writeKey(ctx)}`, 'Content-Type': form.contentType },
    body: form.body,
    timeoutMs: 60_000,
  });
  if (res.status !== 201 || !res.json?.item?.id) {
    throw new Error(`scenario "${name}": upload answered ${res.status} ${res.body.slice(0, 1000)}`);
  }
  return res.json.item;
}

/**
 * "media upload 2MB jpeg (key)": the 2 MB JPEG uploaded again and again (full-access key of the
 * super-admin, which holds `create-media`), each made in both image sizes before it is stored.
 * Few connections: sharp works on at most 2 images at once per process; more would only queue.
 */
function mediaUploadScenario(target, { label = '', targets } = {}) {
  const name = `${label}media upload 2MB jpeg (key)`;
  return {
    name,
    target,
    method: 'POST',
    path: UPLOAD_PATH,
    targets: [{ everyStatus: 201 }, ...(targets ?? [])],
    autocannon: { connections: 4, timeout: 60 },
    setup: async (ctx) => {
      await imageSizes(ctx);
      const form = await uploadBody(ctx);
      const base = baseUrlOf(ctx, target);
      // One checked upload first: the original's type and size, and both image sizes made.
      const item = await uploadOnce(ctx, name, base, form);
      const problems = [];
      if (item.mimeType !== 'image/jpeg' || item.filesize !== form.jpeg.bytes.length) {
        problems.push(`original ${item.mimeType}, ${item.filesize} bytes`);
      }
      if (item.width !== JPEG_WIDTH || item.height !== JPEG_HEIGHT) {
        problems.push(`original ${item.width}x${item.height}`);
      }
      if (JSON.stringify(Object.keys(item.sizes ?? {}).sort()) !== JSON.stringify(['large', 'thumb'])) {
        problems.push(`sizes ${JSON.stringify(Object.keys(item.sizes ?? {}))}`);
      }
      for (const [size, want] of Object.entries(EXPECTED_SIZES)) {
        const got = item.sizes?.[size];
        if (got && Object.entries(want).some(([k, v]) => got[k] !== v)) {
          problems.push(`${size} ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
        }
      }
      if (problems.length) {
        throw new Error(`scenario "${name}": ${problems.join('; ')}\n${JSON.stringify(item).slice(0, 2000)}`);
      }
      return {
        headers: { Authorization: `Bearer ${await writeKey(ctx)}`, 'content-type': form.contentType },
        body: form.body,
      };
    },
  };
}

/** The 1 MiB text file, uploaded once per run (no image work): answers { id, filename, bytes }. */
let servedFilePromise;
function servedFile(ctx) {
  servedFilePromise ??= (async () => {
    const text = await textFixture(ctx.fixturesDir);
    const item = await uploadOnce(
      ctx,
      'media file 1MB (key)',
      ctx.apiUrl,
      multipartBody(text.filename, 'text/plain', text.bytes),
    );
    if (item.mimeType !== 'text/plain' || item.filesize !== text.bytes.length) {
      throw new Error(`media file 1MB: stored as ${item.mimeType}, ${item.filesize} bytes`);
    }
    return { id: item.id, filename: item.filename, bytes: text.bytes };
  })();
  return servedFilePromise;
}

/** GETs `url` once and throws unless it answers 200 with exactly `bytes` as text/plain. */
async function checkFileAnswer(ctx, name, url, headers, bytes) {
  const res = await ctx.request({ url, headers });
  const type = res.headers['content-type'];
  if (res.status !== 200 || !res.buffer.equals(bytes) || type !== 'text/plain; charset=utf-8') {
    throw new Error(
      `scenario "${name}": GET ${url} → ${res.status} ${type}, ${res.buffer.length} bytes ` +
        `(expected 200 text/plain; charset=utf-8, the ${bytes.length} bytes uploaded)`,
    );
  }
}

/**
 * "media file 1MB (key)": `GET /admin/api/media/{id}/{filename}` of the 1 MiB text (read-only key
 * of the super-admin), and "bare media file 1MB": the same file from disk by the bare server.
 */
function mediaFileScenario(target, { label = '', targets } = {}) {
  const bare = target === 'bare';
  const name = bare ? 'bare media file 1MB' : `${label}media file 1MB (key)`;
  return {
    name,
    target,
    method: 'GET',
    path: bare ? '/static-file' : '/admin/api/media/:id/:filename',
    targets,
    setup: async (ctx) => {
      const base = baseUrlOf(ctx, target);
      if (bare) {
        const text = await textFixture(ctx.fixturesDir);
        await checkFileAnswer(ctx, name, `${base}/static-file`, {}, text.bytes);
        return {};
      }
      const file = await servedFile(ctx);
      const headers = { Authorization: `Bearer ${await contentKey(ctx)}` };
      const filePath = `/admin/api/media/${file.id}/${encodeURIComponent(file.filename)}`;
      await checkFileAnswer(ctx, name, base + filePath, headers, file.bytes);
      return { headers, path: filePath };
    },
  };
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
      const key = await mintApiKey(ctx, token, { name: 'bench', type: 'full-access' });
      return { headers: { Authorization: `Bearer ${key}` } };
    },
  },
  // The Nest path of the default deployment: health, /me and an admin list through Express and
  // Nest. They were compared with the content read lane's get by id, which did the same work
  // per request (one statement, one entry); the lane's reads by id now share statements when
  // asked for at once, so that comparison is made with the sharing off (docs/performance.md).
  {
    name: 'default: health',
    target: 'svc-default',
    method: 'GET',
    path: '/api/health',
    targets: [{ roundsWithin: 0.1 }, { rssUnderMb: 250 }],
  },
  {
    name: 'default: me (bearer)',
    target: 'svc-default',
    method: 'GET',
    path: '/admin/api/me',
    setup: async (ctx) => ({ headers: { Authorization: `Bearer ${(await benchAdmin(ctx)).token}` } }),
    targets: [{ roundsWithin: 0.1 }, { rssUnderMb: 250 }],
  },
  {
    name: 'default: users?limit=20 (super-admin)',
    target: 'svc-default',
    method: 'GET',
    path: '/admin/api/users?limit=20',
    setup: async (ctx) => {
      const { token } = await benchAdmin(ctx);
      await chainUser(ctx); // the 200 users it seeds
      return { headers: { Authorization: `Bearer ${token}` } };
    },
    targets: [{ rssUnderMb: 250 }],
  },
  { name: 'bare health', target: 'bare', method: 'GET', path: '/api/health' },
  { name: 'bare static', target: 'bare', method: 'GET', path: '/static' },
  // The default deployment (issue 16): NODE_ENV=production, log level info, no REDIS_URL; the
  // same bare scenarios are the reference. Rounds are printed one by one: a drift is a finding.
  // The goals of issue 30: list 1.2x and get by id 0.8x the bare server, writes 0.5x.
  contentListScenario('10k', 'svc-default', {
    label: 'default: ',
    targets: [{ vs: 'bare content list 10k', min: 1.2 }, { roundsWithin: 0.1 }, { rssUnderMb: 250 }],
  }),
  contentGetScenario('10k', 'svc-default', {
    label: 'default: ',
    targets: [{ vs: 'bare content get 10k', min: 0.8 }, { roundsWithin: 0.1 }, { rssUnderMb: 250 }],
  }),
  // Writes over REST (issue 30), default deployment against the hand-written bare handlers.
  writeScenario('insert', 'svc-default', {
    label: 'default: ',
    targets: [{ vs: 'bare insert', min: 0.5 }, { roundsWithin: 0.1 }, { rssUnderMb: 250 }],
  }),
  writeScenario('insert', 'bare'),
  writeScenario('update', 'svc-default', {
    label: 'default: ',
    targets: [{ vs: 'bare update', min: 0.5 }, { roundsWithin: 0.1 }, { rssUnderMb: 250 }],
  }),
  writeScenario('update', 'bare'),
  // Content engine (issue 7), tuned (log level warn, counters in Redis): ratios to the bare server.
  contentListScenario('10k', 'svc', { targets: [{ vs: 'bare content list 10k', min: 0.8 }] }),
  contentListScenario('10k', 'bare'),
  contentGetScenario('10k', 'svc', { targets: [{ vs: 'bare content get 10k', min: 0.6 }] }),
  contentGetScenario('10k', 'bare'),
  {
    name: 'content depth=1 10k (key)',
    target: 'svc',
    method: 'GET',
    path: '/admin/api/collections/posts-10k/entries?limit=20&depth=1',
    setup: async (ctx) => {
      await seedContent(ctx, '10k');
      const headers = { Authorization: `Bearer ${await contentKey(ctx)}` };
      await checkAnswer(
        ctx,
        'content depth=1 10k (key)',
        `${ctx.svcUrl}/admin/api/collections/posts-10k/entries?limit=20&depth=1`,
        headers,
        checkDepth1,
      );
      return { headers };
    },
  },
  // 1,000,000 rows (seeded by SQL), 10 connections: the repeated list against the naive bare
  // server, which counts the ~160k matching rows on every request; checked exact after a write.
  contentListScenario('1m', 'svc', {
    targets: [{ vs: 'bare content list 1m', min: 1.5 }, { p99Under: 50 }],
    autocannon: { connections: 10 },
    afterWrite: true,
  }),
  contentListScenario('1m', 'bare', { autocannon: { connections: 10 } }),
  // Media (issue 19): uploads at 4 connections (tuned and default deployment), and a 1 MiB file
  // served at 50 connections next to the bare server's static file (ratio reported, no goal).
  mediaUploadScenario('svc'),
  mediaUploadScenario('svc-default', { label: 'default: ' }),
  mediaFileScenario('svc', { targets: [{ vs: 'bare media file 1MB' }] }),
  mediaFileScenario('bare'),
  steadyScenario,
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
    connections: intEnv('BENCH_CONNECTIONS', 50, 1),
    warmup: intEnv('BENCH_WARMUP', 3, 0),
    duration: intEnv('BENCH_DURATION', 10, 1),
    pipelining: intEnv('BENCH_PIPELINING', 1, 1),
    rounds: intEnv('BENCH_ROUNDS', 2, 1),
    steadySeconds: intEnv('BENCH_STEADY_SECONDS', 600, 60),
    steadyRate: intEnv('BENCH_STEADY_RATE', 300, 1),
    skipSvc: process.env.BENCH_SKIP_SVC === '1' || process.env.BENCH_SKIP_SVC === 'true',
  };
}

/** BENCH_FILTER: substring of the scenario name; several alternatives may be given comma-separated. */
function selectScenarios(settings) {
  const needles = settings.filter
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  // An opt-in scenario (the 10-minute steady run) runs only when the filter names it.
  return scenarios.filter(
    (s) =>
      (needles.length === 0 ? !s.optIn : needles.some((n) => s.name.includes(n))) &&
      !(settings.skipSvc && s.target !== 'bare'),
  );
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------
/** Files and bytes under a folder (recursively); zero when it does not exist. */
async function folderUsage(dir) {
  let files = 0;
  let bytes = 0;
  try {
    for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (e.isFile()) {
        files++;
        bytes += (await stat(path.join(e.parentPath ?? e.path, e.name))).size;
      }
    }
  } catch {
    // nothing there
  }
  return { files, bytes };
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
  if (isInterrupted()) {
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

function childOf(ctx, target) {
  return { svc: ctx.svc, 'svc-default': ctx.svcDefault, bare: ctx.bare }[target];
}

/** Scenario settings shared by a measured run and a steady run. */
async function prepare(scenario, ctx, settings) {
  const baseUrl = baseUrlOf(ctx, scenario.target);
  if (!baseUrl) {
    throw new Error(`scenario "${scenario.name}": target "${scenario.target}" is not running`);
  }
  const extra = scenario.setup ? ((await scenario.setup(ctx)) ?? {}) : {};
  const headers = { ...(scenario.headers ?? {}), ...(extra.headers ?? {}) };
  let body = extra.body !== undefined ? extra.body : scenario.body;
  if (body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body)) {
    body = JSON.stringify(body);
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
  }
  const url = baseUrl + (extra.path ?? scenario.path);
  return {
    extra,
    base: {
      url,
      method: scenario.method ?? 'GET',
      headers,
      body,
      connections: settings.connections,
      pipelining: settings.pipelining,
      timeout: 10,
      ...(scenario.autocannon ?? {}),
      ...(extra.autocannon ?? {}),
    },
  };
}

async function runScenario(scenario, ctx, settings) {
  const { extra, base } = await prepare(scenario, ctx, settings);
  // The server's RSS before this scenario's warm-up (what the measured run's samples grew from).
  const rssBeforeMb = processRssMb(childOf(ctx, scenario.target)?.child.pid);
  if (settings.warmup > 0) {
    await cannon({ ...base, duration: settings.warmup });
  }
  const sampler = latencySampler();
  const pid = childOf(ctx, scenario.target)?.child.pid;
  const cpuBefore = processCpuMs(pid);
  const waitsBefore = [processWaits(pid), processWaits(process.pid)];
  const rss = rssSampler(pid);
  const machine = machineSampler();
  const from = Date.now();
  const r = await cannon({ ...base, duration: settings.duration }, sampler.record);
  const cores = ctx.probes?.window(from, Date.now()) ?? null;
  const rssMb = rss.stop();
  const cpuAfter = processCpuMs(pid);
  const waits = [processWaits(pid), processWaits(process.pid)].map((n, i) =>
    n !== null && waitsBefore[i] !== null && r.requests.total > 0
      ? round((n - waitsBefore[i]) / r.requests.total, 3)
      : null,
  );
  const elsewhere = machine.stop(r.requests.total);
  if (isInterrupted()) {
    throw new Error('interrupted');
  }
  const precise = sampler.percentiles();
  return {
    name: scenario.name,
    target: scenario.target,
    method: base.method,
    path: extra.path ?? scenario.path,
    ...(base.requests ? { requestPaths: base.requests.map((r) => r.path) } : {}),
    requestsPerSec: round(r.requests.average),
    // Percentiles of 2xx responses in ms with sub-ms precision (autocannon's own are in raw.latency).
    latencyP50: round(precise.p50),
    latencyP90: round(precise.p90),
    latencyP99: round(precise.p99),
    latencyP999: round(precise.p999),
    latencyAvg: round(r.latency.average),
    // CPU time (user + system) the server process spent per request: steadier than req/s on a
    // shared machine, and it shows where a gap comes from (the server or the database).
    cpuMsPerRequest:
      cpuBefore !== null && cpuAfter !== null && r.requests.total > 0
        ? round((cpuAfter - cpuBefore) / r.requests.total, 3)
        : null,
    // The database's and the load generator's CPU per request, how busy the machine was.
    ...elsewhere,
    // Each core's speed on fixed work during the run (bench/core-probe.mjs).
    cores,
    // How often the server's and the load generator's event loops slept, per request.
    serverWaitsPerRequest: waits[0],
    loadWaitsPerRequest: waits[1],
    latencyMax: round(r.latency.max),
    // The server's resident memory during the measured run (largest 250 ms sample, and at its end).
    rssBeforeMb,
    rssMaxMb: rssMb.max,
    rssEndMb: rssMb.last,
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

/**
 * A steady run: the scenario at a fixed total rate (BENCH_STEADY_RATE req/s) for
 * BENCH_STEADY_SECONDS, measured in back-to-back 30-second windows, each with its own req/s,
 * latency percentiles and the server's RSS at its end. The first minute is the warm-up: RSS growth
 * and the p99 drift are taken from the end of it to the end of the run.
 */
async function runSteady(scenario, ctx, settings) {
  const { base } = await prepare(scenario, ctx, settings);
  const pid = childOf(ctx, scenario.target)?.child.pid;
  const windowSeconds = 30;
  const windows = [];
  const started = Date.now();
  for (let i = 0; (i + 1) * windowSeconds <= settings.steadySeconds; i++) {
    const sampler = latencySampler();
    const cpuBefore = processCpuMs(pid);
    const r = await cannon(
      { ...base, connections: 10, overallRate: settings.steadyRate, duration: windowSeconds },
      sampler.record,
    );
    const cpuAfter = processCpuMs(pid);
    const p = sampler.percentiles();
    const w = {
      window: i + 1,
      endSecond: Math.round((Date.now() - started) / 1000),
      requestsPerSec: round(r.requests.average),
      latencyP50: round(p.p50),
      latencyP99: round(p.p99),
      cpuMsPerRequest: r.requests.total ? round((cpuAfter - cpuBefore) / r.requests.total, 3) : null,
      rssMb: processRssMb(pid),
      non2xx: r.non2xx,
      errors: r.errors,
    };
    windows.push(w);
    console.error(
      `  window ${w.window} (${w.endSecond} s): ${fmt(w.requestsPerSec, 1)} req/s, p50 ${fmt(w.latencyP50, 2)} ms, ` +
        `p99 ${fmt(w.latencyP99, 2)} ms, RSS ${fmt(w.rssMb, 1)} MB, non-2xx ${w.non2xx}`,
    );
  }
  const warm = windows[Math.min(1, windows.length - 1)];
  const last = windows[windows.length - 1];
  return {
    name: scenario.name,
    target: scenario.target,
    steady: true,
    rate: settings.steadyRate,
    seconds: windows.length * windowSeconds,
    windows,
    rssAfterWarmupMb: warm.rssMb,
    rssEndMb: last.rssMb,
    rssMaxMb: Math.max(...windows.map((w) => w.rssMb ?? 0)),
    rssGrowth: warm.rssMb ? round((last.rssMb - warm.rssMb) / warm.rssMb, 3) : null,
    p99AfterWarmup: warm.latencyP99,
    p99End: last.latencyP99,
    non2xx: windows.reduce((n, w) => n + w.non2xx, 0),
    errors: windows.reduce((n, w) => n + w.errors, 0),
  };
}

function steadyTable(r) {
  const rows = [
    `steady run "${r.name}": ${r.rate} req/s for ${r.seconds} s, 30-second windows`,
    '',
    '| window | end s | req/s | p50 ms | p99 ms | server CPU ms/req | server RSS MB | non-2xx |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const w of r.windows) {
    rows.push(
      `| ${w.window} | ${w.endSecond} | ${fmt(w.requestsPerSec, 1)} | ${fmt(w.latencyP50, 2)} | ${fmt(w.latencyP99, 2)} | ${fmt(w.cpuMsPerRequest, 3)} | ${fmt(w.rssMb, 1)} | ${w.non2xx} |`,
    );
  }
  rows.push(
    '',
    `RSS after the 1-minute warm-up ${fmt(r.rssAfterWarmupMb, 1)} MB, at the end ${fmt(r.rssEndMb, 1)} MB ` +
      `(growth ${fmt((r.rssGrowth ?? NaN) * 100, 1)}%, target < 10%); p99 ${fmt(r.p99AfterWarmup, 2)} ms -> ${fmt(r.p99End, 2)} ms`,
  );
  return rows.join('\n');
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
    (settings.rounds > 1 ? ` rounds=${settings.rounds} (req/s: the median round; each round listed)` : '') +
    (settings.skipSvc ? ' skip-svc' : '')
  );
}

function fmt(n, digits) {
  return typeof n === 'number' && Number.isFinite(n) ? n.toFixed(digits) : 'n/a';
}

function markdownTable(results) {
  const baseline = results.find((r) => r.name === BASELINE)?.requestsPerSec;
  const rows = [
    '| scenario | req/s | req/s by round | p50 ms | p99 ms | server CPU ms/req | server RSS MB (max) | non-2xx | vs bare health |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    const ratio = baseline ? `${((r.requestsPerSec ?? 0) / baseline).toFixed(2)}x` : 'n/a';
    const cells = [
      r.name,
      fmt(r.requestsPerSec, 1),
      (r.rounds ?? [r.requestsPerSec]).map((v) => fmt(v, 0)).join(' / '),
      fmt(r.latencyP50, 2),
      fmt(r.latencyP99, 2),
      fmt(r.cpuMsPerRequest, 3),
      fmt(r.rssMaxMb, 1),
      r.non2xx,
      ratio,
    ];
    rows.push(`| ${cells.join(' | ')} |`);
  }
  return rows.join('\n');
}

/**
 * Each round's CPU per request of the server, the database and the load generator, and how busy
 * the machine was: a round slower for the machine shows the load generator's CPU per request up
 * with the server's (the load generator measures only the core it runs on; bench/README.md).
 */
function roundsTable(results) {
  const rows = [
    '| scenario | round | req/s | server CPU ms/req | database CPU ms/req | load generator CPU ms/req | machine busy % | steal % | cores: compute µs | cores: memory µs | server waits/req | load generator waits/req |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    (r.cpuByRound ?? []).forEach((c, i) => {
      const cells = [
        r.name,
        i + 1,
        fmt(c.requestsPerSec, 0),
        fmt(c.server, 3),
        fmt(c.db, 3),
        fmt(c.load, 3),
        fmt(c.machineBusyPct, 1),
        fmt(c.stealPct, 1),
        c.cores ? c.cores.map((k) => fmt(k.computeUs, 0)).join(' / ') : '',
        c.cores ? c.cores.map((k) => fmt(k.memoryUs, 0)).join(' / ') : '',
        fmt(c.serverWaits, 3),
        fmt(c.loadWaits, 3),
      ];
      rows.push(`| ${cells.join(' | ')} |`);
    });
  }
  return rows.join('\n');
}

/**
 * The scenarios' `targets` against this run's results: one line each, with `ok` / `MISSED`, or
 * `n/a` when the scenario compared with was not run (BENCH_FILTER).
 */
function evaluateTargets(results, selected) {
  const byName = new Map(results.map((r) => [r.name, r]));
  const out = [];
  for (const s of selected) {
    const r = byName.get(s.name);
    for (const t of s.targets ?? []) {
      if (!r) {
        continue;
      }
      if (t.vs !== undefined) {
        // Without `min` the ratio is reported only (no goal).
        const other = byName.get(t.vs);
        const ratio = other?.requestsPerSec ? (r.requestsPerSec ?? 0) / other.requestsPerSec : null;
        out.push({
          scenario: s.name,
          goal: t.min === undefined ? `req/s vs "${t.vs}"` : `req/s >= ${t.min}x "${t.vs}"`,
          value: ratio === null ? null : round(ratio, 3),
          text:
            ratio === null
              ? `n/a (run "${t.vs}" too)`
              : `${ratio.toFixed(2)}x (${fmt(r.requestsPerSec, 1)} / ${fmt(other.requestsPerSec, 1)} req/s)`,
          met: ratio === null || t.min === undefined ? null : ratio >= t.min,
          ...(t.min === undefined ? { info: true } : {}),
        });
      }
      if (t.everyStatus !== undefined) {
        // Every measured response of every round had this status, and no error or timeout.
        const all = r.allRounds ?? { requests: 0, statusCodes: {}, errors: 0, timeouts: 0 };
        const codes = Object.entries(all.statusCodes)
          .map(([code, n]) => `${code}: ${n}`)
          .join(', ');
        const good = all.statusCodes[String(t.everyStatus)] ?? 0;
        out.push({
          scenario: s.name,
          goal: `every answer ${t.everyStatus}, no error (all rounds)`,
          value: good,
          text: `${good} of ${all.requests} answers (${codes || 'none'}), ${all.errors} errors, ${all.timeouts} timeouts`,
          met: all.requests > 0 && good === all.requests && all.errors === 0,
        });
      }
      if (t.roundsWithin !== undefined) {
        // Every round within the bound of the first: the service does not slow down as it runs.
        const rounds = r.rounds ?? [];
        const spread = (values) =>
          values.length > 1 && values.every((v) => Number.isFinite(v))
            ? Math.max(...values.map((v) => Math.abs(v - values[0]) / values[0]))
            : null;
        const worst = spread(rounds);
        // The same spread of the cores' memory probe (fixed work, bench/core-probe.mjs): how much
        // the machine itself moved between those rounds.
        const machine = spread(
          (r.cpuByRound ?? []).map((c) =>
            c.cores?.length ? c.cores.reduce((n, k) => n + (k.memoryUs ?? NaN), 0) / c.cores.length : null,
          ),
        );
        out.push({
          scenario: s.name,
          goal: `every round within ${t.roundsWithin * 100}% of round 1`,
          value: worst === null ? null : round(worst, 3),
          text:
            worst === null
              ? 'n/a (BENCH_ROUNDS >= 2)'
              : `${rounds.map((v) => fmt(v, 0)).join(' / ')} req/s (${(worst * 100).toFixed(1)}%)` +
                (machine === null ? '' : `; the cores' memory probe moved ${(machine * 100).toFixed(1)}%`),
          met: worst === null ? null : worst <= t.roundsWithin,
        });
      }
      if (t.rssUnderMb !== undefined) {
        out.push({
          scenario: s.name,
          goal: `server RSS < ${t.rssUnderMb} MB`,
          value: r.rssMaxMb,
          text: `max ${fmt(r.rssMaxMb, 1)} MB`,
          met: typeof r.rssMaxMb === 'number' ? r.rssMaxMb < t.rssUnderMb : null,
        });
      }
      if (t.p99Under !== undefined) {
        const p99 = r.latencyP99;
        out.push({
          scenario: s.name,
          goal: `p99 < ${t.p99Under} ms`,
          value: p99,
          text: `p99 ${fmt(p99, 2)} ms`,
          met: typeof p99 === 'number' ? p99 < t.p99Under : null,
        });
      }
    }
  }
  return out;
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
  const needDefault = selected.some((s) => s.target === 'svc-default');
  const needBare = selected.some((s) => s.target === 'bare');
  if ((needSvc || needDefault) && !existsSync(SVC_ENTRY)) {
    throw new Error(
      `${path.relative(ROOT, SVC_ENTRY)} not found: run "npm run build" (or use BENCH_SKIP_SVC=1)`,
    );
  }

  const startedAt = new Date();
  const dbName = `svc_bench_${startedAt.getTime()}`;
  const dbUrl = new URL(settings.adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const databaseUrl = dbUrl.toString();
  // The run's own folder, removed at the end: the services' SVC_MEDIA_DIR (both share it, as they
  // share the database) and the files of the media scenarios (bench/media-fixtures.mjs).
  const workDir = path.join(os.tmpdir(), dbName);
  const mediaDir = path.join(workDir, 'media');
  const fixturesDir = path.join(workDir, 'fixtures');

  const adminPool = new pg.Pool({ connectionString: settings.adminUrl, max: 2 });
  // An idle client dropped by the server must not crash the harness before its cleanup runs.
  const onIdleError = (err) => console.error(`pg idle client error: ${err.message}`);
  adminPool.on('error', onIdleError);
  let dbPool = null;
  let dbCreated = false;
  let svc = null;
  let svcDefault = null;
  let bare = null;
  let probes = null;
  const results = [];
  let targets = [];
  let failure = null;

  try {
    await mkdir(mediaDir, { recursive: true });
    await adminPool.query(`CREATE DATABASE "${dbName}"`);
    dbCreated = true;
    dbPool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    dbPool.on('error', onIdleError);

    let svcUrl = null;
    let defaultUrl = null;
    let bareUrl = null;
    // Both services share the secret (a session or key made on one works on the other) and the
    // database; the second boots after the first has run the migrations.
    const secret = randomBytes(32).toString('hex');
    const startService = async (label, nodeArgsVar, env) => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const child = startChild(label, [...nodeArgs(nodeArgsVar), SVC_ENTRY], {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        SVC_SECRET: secret,
        SVC_MEDIA_DIR: mediaDir,
        NEXT_PUBLIC_APP_URL: url,
        ...env,
      });
      return { url, child };
    };
    if (needSvc) {
      // Tuned: log level warn, rate-limit counters in Redis as several instances would run them
      // (BENCH_REDIS_URL='' for memory), every limit far above what a run sends.
      ({ url: svcUrl, child: svc } = await startService('service', 'BENCH_SVC_NODE_ARGS', {
        SVC_LOG_LEVEL: process.env.BENCH_SVC_LOG_LEVEL || 'warn',
        SVC_CONFIG: path.join(BENCH_DIR, 'bench.config.mjs'),
        REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
      }));
      await waitForHealthy(svc, svcUrl);
    }
    if (needDefault) {
      // The default deployment: production, the default log level (info), no Redis, the default
      // limits but the per-key budget a busy server-to-server key is given.
      ({ url: defaultUrl, child: svcDefault } = await startService(
        'default service',
        'BENCH_DEFAULT_NODE_ARGS',
        {
          SVC_CONFIG: path.join(BENCH_DIR, 'default.config.mjs'),
          // BENCH_DEFAULT_REDIS_URL: the same deployment with its counters in Redis.
          REDIS_URL: process.env.BENCH_DEFAULT_REDIS_URL ?? '',
          SVC_LOG_LEVEL: '',
        },
      ));
    }
    if (needBare) {
      const port = await freePort();
      bareUrl = `http://127.0.0.1:${port}`;
      bare = startChild('bare server', [...nodeArgs('BENCH_BARE_NODE_ARGS'), BARE_ENTRY], {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        BENCH_STATIC_FILE: path.join(fixturesDir, TEXT_FILENAME),
      });
    }
    await Promise.all([
      svcDefault && waitForHealthy(svcDefault, defaultUrl),
      bare && waitForHealthy(bare, bareUrl),
    ]);

    const ctx = {
      svcUrl,
      defaultUrl,
      apiUrl: svcUrl ?? defaultUrl,
      bareUrl,
      adminPool,
      dbPool,
      request,
      svc,
      svcDefault,
      bare,
      mediaDir,
      fixturesDir,
      probes: (probes = coreProbes()),
    };
    console.error(envLine(settings));
    // BENCH_ROUNDS > 1 interleaves the scenarios round after round and keeps each one's median
    // round, so the machine's drift over a run weighs on every scenario alike.
    const runs = [];
    const steadyRuns = [];
    for (const scenario of selected.filter((s) => s.steady)) {
      console.error(
        `running "${scenario.name}" at ${settings.steadyRate} req/s for ${settings.steadySeconds} s ...`,
      );
      steadyRuns.push(await runSteady(scenario, ctx, settings));
      assertAlive(childOf(ctx, scenario.target));
    }
    for (let round = 1; round <= settings.rounds; round++) {
      for (const scenario of roundOrder(
        selected.filter((s) => !s.steady),
        round,
      )) {
        console.error(
          `running "${scenario.name}" (${scenario.target} ${scenario.method} ${scenario.path}) round ${round}/${settings.rounds} ...`,
        );
        const result = await runScenario(scenario, ctx, settings);
        assertAlive(childOf(ctx, scenario.target));
        runs.push(result);
      }
    }
    for (const scenario of selected.filter((s) => !s.steady)) {
      const mine = runs.filter((r) => r.name === scenario.name);
      const sorted = [...mine].sort((a, b) => (a.requestsPerSec ?? 0) - (b.requestsPerSec ?? 0));
      const median = sorted[Math.floor((sorted.length - 1) / 2)];
      // Every measured response of every round (the table's non-2xx is the median round's).
      const statusCodes = {};
      for (const r of mine) {
        for (const [code, v] of Object.entries(r.statusCodeStats ?? {})) {
          statusCodes[code] = (statusCodes[code] ?? 0) + v.count;
        }
      }
      const allRounds = {
        requests: mine.reduce((n, r) => n + (r.totalRequests ?? 0), 0),
        statusCodes,
        non2xx: mine.reduce((n, r) => n + (r.non2xx ?? 0), 0),
        errors: mine.reduce((n, r) => n + (r.errors ?? 0), 0),
        timeouts: mine.reduce((n, r) => n + (r.timeouts ?? 0), 0),
      };
      results.push(
        settings.rounds > 1
          ? {
              ...median,
              rounds: mine.map((r) => r.requestsPerSec),
              rssMaxMb: Math.max(...mine.map((r) => r.rssMaxMb ?? 0)),
              rssByRound: mine.map((r) => ({ before: r.rssBeforeMb, max: r.rssMaxMb, end: r.rssEndMb })),
              cpuByRound: mine.map((r) => ({
                requestsPerSec: r.requestsPerSec,
                server: r.cpuMsPerRequest,
                db: r.dbCpuMsPerRequest,
                load: r.loadCpuMsPerRequest,
                machineBusyPct: r.machineBusyPct,
                stealPct: r.stealPct,
                cores: r.cores,
                serverWaits: r.serverWaitsPerRequest,
                loadWaits: r.loadWaitsPerRequest,
              })),
              allRounds,
            }
          : { ...median, allRounds },
      );
    }

    console.log(envLine(settings));
    if (results.length) {
      console.log('');
      console.log(markdownTable(results));
    }
    if (results.some((r) => r.cpuByRound)) {
      console.log('');
      console.log(roundsTable(results));
    }
    for (const r of steadyRuns) {
      console.log('');
      console.log(steadyTable(r));
    }
    results.push(...steadyRuns);
    targets = evaluateTargets(results, selected);
    if (targets.length) {
      console.log('\ntargets:');
      for (const t of targets) {
        const verdict = t.info ? 'reported' : t.met === null ? 'n/a' : t.met ? 'ok' : 'MISSED';
        console.log(`- ${t.scenario}: ${t.goal}: ${t.text} → ${verdict}`);
      }
    }
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
    probes?.stop();
    await Promise.all([stopChild(svc), stopChild(svcDefault), stopChild(bare)]);
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
    const stored = await folderUsage(mediaDir);
    if (stored.files > 0) {
      console.error(
        `removing the run's media folder ${mediaDir}: ${stored.files} files, ${fmt(stored.bytes / 1e6, 1)} MB`,
      );
    }
    await rm(workDir, { recursive: true, force: true }).catch((err) =>
      console.error(`could not remove ${workDir}: ${err.message}`),
    );
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
      targets,
      contentSeeds: seedReports(),
      shapeWarnings,
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
    console.error(`bench failed: ${err.stack ?? err}`);
    process.exit(1);
  },
);
