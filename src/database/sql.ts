import { createHash } from 'node:crypto';
import { type CustomTypesConfig, type Pool, Query } from 'pg';
import { type EntityManager, QueryFailedError } from 'typeorm';

/**
 * Rows of any statement. TypeORM's PostgreSQL driver answers UPDATE and DELETE as
 * `[rows, affectedCount]` but SELECT and INSERT as `rows`; repositories read through this so
 * `... RETURNING` works the same everywhere. (Rows are objects, never arrays, so the shapes
 * cannot be confused.)
 */
export async function rows<T>(em: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
  // Outside a transaction, straight to TypeORM's pool: its query runner (a runner object, a
  // broadcaster and a release per statement) costs more CPU than a short read. Failures are
  // wrapped the way TypeORM wraps them, so callers see one error type either way.
  const pool = poolOutsideTransaction(em);
  if (pool) {
    try {
      return (await pool.query(sql, params)).rows as T[];
    } catch (e) {
      throw new QueryFailedError(sql, params, e as Error);
    }
  }
  const result: unknown = await em.query(sql, params);
  if (
    Array.isArray(result) &&
    result.length === 2 &&
    Array.isArray(result[0]) &&
    typeof result[1] === 'number'
  ) {
    return result[0] as T[];
  }
  return result as T[];
}

/** A list page of the admin routes: what `pagedRows` pages and counts. */
export interface PageQuery {
  /** A `WITH ...` whose CTEs the statement's come after. */
  with?: string;
  /** The listed table and its alias (`users u`). */
  from: string;
  /** `from`'s alias: the page's rows go by it too, so `orderBy`, `columns` and `join` read them by it. */
  alias: string;
  /** The filter, without `WHERE`; empty for every row. Its values are `params`. */
  where: string;
  params: unknown[];
  /** ORDER BY items from allow-listed columns only, ending in a unique tiebreak. */
  orderBy: string;
  limit: number;
  offset: number;
  /** What each row answers, read from the page's rows (`alias`) and `join`; `id` among them. */
  columns: string;
  /**
   * Joins over the page's rows, which may read the CTE `page` (the page's rows): what a
   * correlated subquery would compute row by row, computed for the whole page at once.
   */
  join?: string;
  /**
   * For a sub-list (the children of a role...): a boolean SQL expression on `params` saying
   * whether its owner exists; answered as `exists` (true without it).
   */
  exists?: string;
}

/** The page, the count of every row under the filter, and whether the owner exists (`PageQuery.exists`). */
export interface Page<T> {
  rows: T[];
  total: number;
  exists: boolean;
}

type PageRow = { id: unknown; page_total?: number; page_exists?: boolean };

/**
 * One page of rows and the count of every row under the same filter, in one statement whatever
 * the page size: the page and the count are CTEs, the count LEFT JOINed to the page, so a page
 * past the end still answers one row (its `id` NULL) carrying the true count.
 */
export async function pagedRows<T extends { id: unknown }>(
  em: EntityManager,
  q: PageQuery,
): Promise<Page<T>> {
  // Why: one round trip instead of a count and a page, and each scan keeps its own best plan
  // (a window count(*) OVER () made the page read every row in full: 3x slower at 20k rows).
  const where = q.where ? ` WHERE ${q.where}` : '';
  const n = q.params.length;
  const owner = q.exists ? `, ${q.exists} AS page_exists` : '';
  const found = await rows<T & PageRow>(
    em,
    `${q.with ? `${q.with},` : 'WITH'}
       page AS (SELECT ${q.alias}.* FROM ${q.from}${where} ORDER BY ${q.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}),
       page_total AS (SELECT count(*)::int AS page_total${owner} FROM ${q.from}${where})
     SELECT ${q.columns}, page_total.* FROM page_total LEFT JOIN page ${q.alias} ON true ${q.join ?? ''}
     ORDER BY ${q.orderBy}`,
    [...q.params, q.limit, q.offset],
  );
  // Always one row at least: the count's.
  const total = found[0].page_total!;
  const exists = found[0].page_exists ?? true;
  if (found[0].id === null) {
    return { rows: [], total, exists };
  }
  for (const row of found) {
    // The last columns first: deleting an object's last property keeps it a fast object.
    delete row.page_exists;
    delete row.page_total;
  }
  return { rows: found, total, exists };
}

/** TypeORM's own pg pool, when `em` is not inside a transaction. */
function poolOutsideTransaction(em: EntityManager): Pool | undefined {
  return em.queryRunner ? undefined : (em.connection.driver as { master?: Pool }).master;
}

/**
 * Reads clients repeat, or writes (whose texts vary with the fields a body sets): each kind has
 * its own bound, so write shapes never take the names kept for reads.
 */
type StatementKind = 'read' | 'write';
/** Statement names by text, process-wide and bounded per kind (see `preparedRows`). */
const statementNames: Record<StatementKind, Map<string, string>> = { read: new Map(), write: new Map() };
const MAX_PREPARED_STATEMENTS: Record<StatementKind, number> = { read: 256, write: 128 };

/**
 * `rows()` for the reads clients repeat (content lists, counts, gets). Outside a transaction the
 * statement is prepared by name on each pool connection, so PostgreSQL parses it once per
 * connection and can reuse its plan: the database's share of a short read drops by about a third
 * (bench). The name is a hash of the text, and a definition change changes the text, so it gets
 * a new statement. Past 256 distinct texts (a client inventing query shapes) statements run
 * unnamed, so no connection's plan cache grows without bound (writes have their own bound:
 * `preparedWriteRows`). `pool.query` discards the connection of a failed statement, taking its
 * prepared statements along; a plan whose result
 * type an ALTER changed (SQLSTATE 0A000) is then retried unnamed. `prepare: false` (behind a
 * transaction-mode pooler, `SVC_DB_PREPARED_STATEMENTS=false`) is plain `rows()`. `types` (node-pg
 * readers) applies to prepared reads only: callers get the default readers' values elsewhere.
 */
export async function preparedRows<T>(
  em: EntityManager,
  sql: string,
  params: unknown[],
  prepare: boolean,
  types?: CustomTypesConfig,
  kind: StatementKind = 'read',
): Promise<T[]> {
  const pool = prepare ? poolOutsideTransaction(em) : undefined;
  const name = pool ? statementName(sql, kind) : undefined;
  if (!pool || !name) {
    return rows<T>(em, sql, params);
  }
  try {
    // A Query made from text, then named and given its readers: made from a config object, node-pg
    // copies it property by property (cloneQueryConfig), 2% of a read's CPU. The readers go where
    // node-pg's Result keeps them (`_types`; a client fills it only when empty); the config's
    // `types` would also reach the Parse message as parameter types. pool.query of a Query
    // answers a promise.
    const query = Object.assign(new Query(sql, params), { name });
    if (types) {
      (query as unknown as { _result: { _types?: CustomTypesConfig } })._result._types = types;
    }
    return (await (pool.query(query) as unknown as Promise<{ rows: unknown[] }>)).rows as T[];
  } catch (e) {
    // pool.query has discarded the connection, and its prepared statements with it.
    if ((e as { code?: unknown }).code === '0A000') {
      return rows<T>(em, sql, params);
    }
    throw new QueryFailedError(sql, params, e as Error);
  }
}

/**
 * `preparedRows` for a write outside a transaction that answers rows: PostgreSQL would plan its
 * statement (an insert or update with the read of its row, and maybe its webhook event's CTEs)
 * at every call, which cost more than running it (bench). A failed write runs nowhere else: the
 * only retry is of a plan an ALTER made stale (0A000), refused before anything was written.
 * Bounded apart from reads: 128 texts.
 */
export function preparedWriteRows<T>(
  em: EntityManager,
  sql: string,
  params: unknown[],
  prepare: boolean,
): Promise<T[]> {
  return preparedRows<T>(em, sql, params, prepare, undefined, 'write');
}

/**
 * `rows()` of a statement whose text never changes (the webhook outbox's), prepared by name on
 * the connection that runs it, inside a transaction too: PostgreSQL plans it once per connection.
 * Outside a transaction it is `preparedRows`. Inside one a failure aborts the transaction
 * anyway, so there is no unnamed retry.
 */
export async function fixedRows<T>(
  em: EntityManager,
  sql: string,
  params: unknown[],
  prepare: boolean,
): Promise<T[]> {
  const client = prepare
    ? (
        em.queryRunner as
          { databaseConnection?: { query: (q: object) => Promise<{ rows: unknown[] }> } } | undefined
      )?.databaseConnection
    : undefined;
  const name = client ? statementName(sql) : undefined;
  if (!client || !name) {
    return preparedRows<T>(em, sql, params, prepare);
  }
  try {
    return (await client.query({ name, text: sql, values: params })).rows as T[];
  } catch (e) {
    throw new QueryFailedError(sql, params, e as Error);
  }
}

function statementName(sql: string, kind: StatementKind = 'read'): string | undefined {
  const names = statementNames[kind];
  let name = names.get(sql);
  if (name === undefined && names.size < MAX_PREPARED_STATEMENTS[kind]) {
    name = `svc_${createHash('sha256').update(sql).digest('hex').slice(0, 40)}`;
    names.set(sql, name);
  }
  return name;
}
