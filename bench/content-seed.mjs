// Seeding of the content-engine benchmark (bench/run.mjs scenarios "content ..." and "bare content ...").
//
// The collections are declared in bench/bench.config.mjs; the service creates their tables at boot
// (c_people, c_posts_10k, c_posts_1m). Rows are written here with plain SQL (INSERT ... SELECT
// FROM generate_series), then copied into plain tables (bare_posts_10k, bare_posts_1m) that the
// bare reference server reads with the same SQL. Everything is deterministic: ids are md5-derived
// UUIDs and random() is seeded with setseed(), so two runs hold the very same rows.
//
// With BENCH_SKIP_SVC=1 no service creates the c_* tables: `ensureTables` then creates them from the
// same DDL the service would run (src/modules/content/schema/ddl.ts, createTablePlan).
import { createHash } from 'node:crypto';

export const PEOPLE = 1000;
export const POST_SIZES = { '10k': 10_000, '1m': 1_000_000 };

const RELATIONS = ['author', 'editor', 'reviewer'];

/** `posts-10k` → `c_posts_10k` (the service's collectionTable()). */
export const postsTable = (size) => `c_posts_${size}`;
export const bareTable = (size) => `bare_posts_${size}`;

// ---------------------------------------------------------------------------------------------
// DDL (only when the service did not create the tables: BENCH_SKIP_SVC=1)

function peopleDdl() {
  return [
    `CREATE TABLE "c_people" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  "name" text,
  CONSTRAINT "c_people-pkey" PRIMARY KEY ("id")
)`,
    `CREATE INDEX "c_people-created_at-idx" ON "c_people" ("created_at", "id")`,
  ];
}

function postsDdl(table) {
  return [
    `CREATE TABLE "${table}" (
  "id" uuid NOT NULL DEFAULT gen_random_uuid(),
  "created_at" timestamptz NOT NULL DEFAULT now(),
  "updated_at" timestamptz NOT NULL DEFAULT now(),
  "title" text,
  "views" double precision,
  "body" text,
  "author" uuid,
  "editor" uuid,
  "reviewer" uuid,
  CONSTRAINT "${table}-pkey" PRIMARY KEY ("id")
)`,
    `CREATE INDEX "${table}-created_at-idx" ON "${table}" ("created_at", "id")`,
    `CREATE INDEX "${table}-views-idx" ON "${table}" ("views", "id")`,
    ...RELATIONS.map((f) => `CREATE INDEX "${table}-${f}-idx" ON "${table}" ("${f}")`),
    ...RELATIONS.map(
      (f) =>
        `ALTER TABLE "${table}" ADD CONSTRAINT "${table}-${f}-fkey" FOREIGN KEY ("${f}") ` +
        `REFERENCES "c_people" ("id") ON DELETE SET NULL`,
    ),
  ];
}

async function exists(pool, table) {
  const { rows } = await pool.query(`SELECT to_regclass($1) IS NOT NULL AS "found"`, [`public."${table}"`]);
  return rows[0].found;
}

/**
 * Makes sure c_people and c_posts_<size> exist. With the service running they must already be there
 * (it creates them at boot from bench.config.mjs): a missing table is then an error, not something
 * to paper over. Without the service (`create: true`), they are created from the same DDL.
 */
async function ensureTables(pool, size, create) {
  const wanted = [
    ['c_people', peopleDdl],
    [postsTable(size), () => postsDdl(postsTable(size))],
  ];
  for (const [table, ddl] of wanted) {
    if (await exists(pool, table)) {
      continue;
    }
    if (!create) {
      throw new Error(
        `table ${table} does not exist: the service did not create the collections of bench/bench.config.mjs`,
      );
    }
    for (const sql of ddl()) {
      await pool.query(sql);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Rows

/** Deterministic UUID (md5 of a label, shaped as a UUID); the same on every run. */
const personId = (nSql) => `md5('bench-person-' || (${nSql}))::uuid`;

/** Runs `fn(client)` on one connection (setseed() only holds within its session). */
async function onClient(pool, fn) {
  const client = await pool.connect();
  try {
    return await fn(client);
  } finally {
    client.release();
  }
}

/** Runs the statements on up to `width` connections of the pool at once. */
async function runConcurrently(pool, statements, width = 2) {
  const queue = [...statements];
  const worker = () =>
    onClient(pool, async (client) => {
      await client.query(`SET maintenance_work_mem = '256MB'`);
      try {
        for (let sql = queue.shift(); sql !== undefined; sql = queue.shift()) {
          await client.query(sql);
        }
      } finally {
        await client.query(`RESET maintenance_work_mem`);
      }
    });
  await Promise.all(Array.from({ length: Math.min(width, queue.length) }, worker));
}

async function seedPeople(client) {
  const { rows } = await client.query(`SELECT count(*)::int AS n FROM "c_people"`);
  if (rows[0].n >= PEOPLE) {
    return;
  }
  await client.query(`SELECT setseed(0.1)`);
  await client.query(
    `INSERT INTO "c_people" ("id", "name", "created_at", "updated_at")
     SELECT ${personId('n')}, 'Person ' || n, t, t
       FROM generate_series(1, ${PEOPLE}) AS n,
            LATERAL (SELECT timestamptz '2024-01-01 00:00:00+00' + random() * interval '365 days' AS t) AS d`,
  );
  await client.query(`VACUUM ANALYZE "c_people"`);
}

/**
 * Posts: title `Post <n>`, a 200-character body, views = floor(1000 * random()^4) (heavy-tailed:
 * most posts have few views, P(views > 500) = 1 - 0.501^(1/4) ≈ 15.9%), author/editor/reviewer
 * among the people, created_at spread over 2024.
 *
 * Bulk load, the way pg_restore does it: the table's secondary indexes are dropped (their exact
 * definitions kept from pg_get_indexdef) and rebuilt after the INSERT, and foreign-key triggers
 * are off during it (`session_replication_role = replica`; superuser only, otherwise they simply
 * run): every reference is one of the people's ids. The primary key is dropped and re-added too
 * (same name and definition) unless a foreign key points at it. Resolves to the
 * statements that rebuild the indexes (run them with runConcurrently).
 */
async function seedPostRows(client, size, count) {
  const table = postsTable(size);
  const { rows: indexes } = await client.query(
    `SELECT c.relname AS "name", pg_get_indexdef(i.indexrelid) AS "def"
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = $1::regclass AND NOT i.indisprimary AND NOT i.indisunique
      ORDER BY c.relname`,
    [`public."${table}"`],
  );
  // The primary key too, unless a foreign key points at it (none in bench.config.mjs).
  const { rows: pkey } = await client.query(
    `SELECT con.conname AS "name", pg_get_constraintdef(con.oid) AS "def"
       FROM pg_constraint con
      WHERE con.conrelid = $1::regclass AND con.contype = 'p'
        AND NOT EXISTS (SELECT 1 FROM pg_constraint r WHERE r.confrelid = con.conrelid AND r.contype = 'f')`,
    [`public."${table}"`],
  );
  const quoted = (name) => `"${name.replace(/"/g, '""')}"`;
  let replica = false;
  try {
    await client.query(`SET session_replication_role = replica`);
    replica = true;
  } catch {
    // not a superuser: the foreign keys are checked, which is only slower
  }
  try {
    for (const ix of indexes) {
      await client.query(`DROP INDEX ${quoted(ix.name)}`);
    }
    for (const pk of pkey) {
      await client.query(`ALTER TABLE "${table}" DROP CONSTRAINT ${quoted(pk.name)}`);
    }
    await client.query(`SELECT setseed(0.5)`);
    await client.query(
      `INSERT INTO "${table}" ("id", "created_at", "updated_at", "title", "views", "body", "author", "editor", "reviewer")
       SELECT d.h::uuid, d.t, d.t,
              'Post ' || n,
              floor(1000 * power(random(), 4)),
              left('Post ' || n || ': ' || repeat(d.h || ' ', 7), 200),
              p.a[1 + floor(random() * ${PEOPLE})::int],
              p.a[1 + floor(random() * ${PEOPLE})::int],
              p.a[1 + floor(random() * ${PEOPLE})::int]
         FROM (SELECT array_agg(${personId('k')} ORDER BY k) AS a FROM generate_series(1, ${PEOPLE}) AS k) AS p,
              generate_series(1, ${count}) AS n,
              LATERAL (SELECT md5('bench-post-${size}-' || n) AS h,
                              timestamptz '2024-01-01 00:00:00+00' + random() * interval '365 days' AS t) AS d`,
    );
  } finally {
    if (replica) {
      await client.query(`RESET session_replication_role`);
    }
  }
  // The primary key first (the rebuild runs these in order on two connections).
  return [
    ...pkey.map((pk) => `ALTER TABLE "${table}" ADD CONSTRAINT ${quoted(pk.name)} ${pk.def}`),
    ...indexes.map((ix) => ix.def),
  ];
}

/**
 * The bare server's copy: the same rows (same physical order) and the same indexes (primary key on
 * id, btree on created_at, views, author, editor, reviewer), no foreign keys (they cost nothing on
 * reads). Resolves to the index statements (run them with runConcurrently).
 */
async function copyToBare(client, size) {
  const from = postsTable(size);
  const to = bareTable(size);
  await client.query(`DROP TABLE IF EXISTS "${to}"`);
  await client.query(`CREATE TABLE "${to}" AS SELECT * FROM "${from}"`);
  return [
    `ALTER TABLE "${to}" ADD CONSTRAINT "${to}-pkey" PRIMARY KEY ("id")`,
    ...['created_at', 'views', ...RELATIONS].map(
      (col) => `CREATE INDEX "${to}-${col}-idx" ON "${to}" ("${col}")`,
    ),
  ];
}

// ---------------------------------------------------------------------------------------------
// Entry point

const seeded = new Map();
const reports = [];

/** What was seeded so far in this run, with timings (for the results JSON). */
export function seedReports() {
  return [...reports];
}

/**
 * Seeds people and posts of `size` ('10k' | '1m') once per run (memoised), copies them to the bare
 * table, VACUUM ANALYZEs everything (index-only scans of the count need the visibility map).
 * Resolves to { table, bare, count, matching, ids, ms }: `ids` are a few post ids for get scenarios
 * (the same ones for the service and the bare server), `matching` the rows with views > 500.
 */
export function seedContent(ctx, size, log = (msg) => console.error(msg)) {
  if (!(size in POST_SIZES)) {
    throw new Error(`unknown content size ${size}`);
  }
  let p = seeded.get(size);
  if (!p) {
    p = seed(ctx, size, log);
    seeded.set(size, p);
  }
  return p;
}

async function seed(ctx, size, log) {
  const pool = ctx.dbPool;
  const count = POST_SIZES[size];
  const table = postsTable(size);
  const bare = bareTable(size);
  const started = Date.now();
  await ensureTables(pool, size, !ctx.svcUrl);
  const timings = {};
  const step = async (name, fn) => {
    const t = Date.now();
    const out = await fn();
    timings[name] = Date.now() - t;
    return out;
  };
  await onClient(pool, (client) => step('people', () => seedPeople(client)));
  const { rows } = await pool.query(`SELECT count(*)::int AS n FROM "${table}"`);
  if (rows[0].n !== 0) {
    throw new Error(`${table} already holds ${rows[0].n} rows: expected a fresh table`);
  }
  const rebuild = await onClient(pool, (client) => step('insert', () => seedPostRows(client, size, count)));
  await step('indexes', () => runConcurrently(pool, rebuild));
  await step('vacuum', () => pool.query(`VACUUM ANALYZE "${table}"`));
  const bareIndexes = await onClient(pool, (client) => step('bareCopy', () => copyToBare(client, size)));
  await step('bareIndexes', () => runConcurrently(pool, bareIndexes));
  await step('bareVacuum', () => pool.query(`VACUUM ANALYZE "${bare}"`));
  // The load wrote ~1 GB of WAL at 1M rows: flush now rather than during the measured runs.
  await step('checkpoint', () => pool.query('CHECKPOINT').catch(() => {}));
  const { rows: stats } = await pool.query(
    `SELECT count(*)::int AS "matching" FROM "${table}" WHERE "views" > 500`,
  );
  // A few ids spread over the table, for the get scenarios (deterministic: n = 1, 1 + step, ...).
  const idStep = Math.floor(count / 8);
  const { rows: idRows } = await pool.query(
    `SELECT "id" FROM "${table}" WHERE "id" = ANY($1::uuid[]) ORDER BY "id"`,
    [Array.from({ length: 8 }, (_, i) => md5Uuid(`bench-post-${size}-${1 + i * idStep}`))],
  );
  // The get scenarios' requests: 1,000 ids spread over the table, so reads asked for at once
  // name different entries (as a site's visitors do), not the same few.
  const getStep = Math.max(1, Math.floor(count / 1000));
  const { rows: getRows } = await pool.query(
    `SELECT "id" FROM "${table}" WHERE "id" = ANY($1::uuid[]) ORDER BY "id"`,
    [
      Array.from({ length: Math.min(1000, count) }, (_, i) =>
        md5Uuid(`bench-post-${size}-${1 + i * getStep}`),
      ),
    ],
  );
  // The first page of the list scenario, as both servers must answer it.
  const { rows: top } = await pool.query(
    `SELECT "id" FROM "${table}" WHERE "views" > 500 ORDER BY "views" DESC, "id" DESC LIMIT 20`,
  );
  const ms = Date.now() - started;
  const result = {
    table,
    bare,
    count,
    matching: stats[0].matching,
    ids: idRows.map((r) => r.id),
    getIds: getRows.map((r) => r.id),
    top20: top.map((r) => r.id),
    ms,
    timings,
  };
  reports.push({ size, table, bare, count, matching: result.matching, ms, timings });
  log(
    `seeded ${table} + ${bare}: ${count} posts (${result.matching} with views > 500, ` +
      `${((100 * result.matching) / count).toFixed(1)}%) in ${(ms / 1000).toFixed(1)} s ` +
      `(${Object.entries(timings)
        .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`)
        .join(', ')})`,
  );
  if (result.getIds.length !== Math.min(1000, count)) {
    throw new Error(`expected ${Math.min(1000, count)} get ids in ${table}, found ${result.getIds.length}`);
  }
  if (result.ids.length !== 8) {
    throw new Error(`expected 8 get ids in ${table}, found ${result.ids.length}`);
  }
  return result;
}

/** The same UUID as `md5(label)::uuid` in PostgreSQL. */
function md5Uuid(label) {
  const h = createHash('md5').update(label).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
