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

/** A list page of the admin routes: what `pagedRows` counts and pages. */
export interface PageQuery {
  /** A `WITH ...` both statements start with. */
  with?: string;
  columns: string;
  /** Table (with alias) or join the rows come from. */
  from: string;
  /** The filter, without `WHERE`; empty for every row. Its values are `params`. */
  where: string;
  params: unknown[];
  /** ORDER BY items from allow-listed columns only, ending in a unique tiebreak. */
  orderBy: string;
  limit: number;
  offset: number;
}

/**
 * One page of rows and the count of every row under the same filter (`{ rows, total }`), as two
 * statements on `em`: the shape of every paged admin list.
 */
export async function pagedRows<T>(em: EntityManager, q: PageQuery): Promise<{ rows: T[]; total: number }> {
  const start = q.with ? `${q.with} ` : '';
  const where = q.where ? ` WHERE ${q.where}` : '';
  const [{ total }] = await rows<{ total: number }>(
    em,
    `${start}SELECT count(*)::int AS total FROM ${q.from}${where}`,
    q.params,
  );
  const n = q.params.length;
  const found = await rows<T>(
    em,
    `${start}SELECT ${q.columns} FROM ${q.from}${where} ORDER BY ${q.orderBy} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...q.params, q.limit, q.offset],
  );
  return { rows: found, total };
}

/** TypeORM's own pg pool, when `em` is not inside a transaction. */
function poolOutsideTransaction(em: EntityManager): Pool | undefined {
  return em.queryRunner ? undefined : (em.connection.driver as { master?: Pool }).master;
}

/** Statement names by text, process-wide and bounded (see `preparedRows`). */
const statementNames = new Map<string, string>();
const MAX_PREPARED_STATEMENTS = 256;

/**
 * `rows()` for the reads clients repeat (content lists, counts, gets). Outside a transaction the
 * statement is prepared by name on each pool connection, so PostgreSQL parses it once per
 * connection and can reuse its plan: the database's share of a short read drops by about a third
 * (bench). The name is a hash of the text, and a definition change changes the text, so it gets
 * a new statement. Past 256 distinct texts (a client inventing query shapes) statements run
 * unnamed, so no connection's plan cache grows without bound. `pool.query` discards the
 * connection of a failed statement, taking its prepared statements along; a plan whose result
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
): Promise<T[]> {
  const pool = prepare ? poolOutsideTransaction(em) : undefined;
  const name = pool ? statementName(sql) : undefined;
  if (!pool || !name) {
    return rows<T>(em, sql, params);
  }
  try {
    // Without `types`, a Query made from text and named after: a config object is copied
    // property by property (node-pg's cloneQueryConfig), 2% of a list's CPU. pool.query of a
    // Query answers a promise.
    const query = types
      ? new Query({ name, text: sql, values: params, types })
      : Object.assign(new Query(sql, params), { name });
    return (await (pool.query(query) as unknown as Promise<{ rows: unknown[] }>)).rows as T[];
  } catch (e) {
    // pool.query has discarded the connection, and its prepared statements with it.
    if ((e as { code?: unknown }).code === '0A000') {
      return rows<T>(em, sql, params);
    }
    throw new QueryFailedError(sql, params, e as Error);
  }
}

function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_PREPARED_STATEMENTS) {
    name = `svc_${createHash('sha256').update(sql).digest('hex').slice(0, 40)}`;
    statementNames.set(sql, name);
  }
  return name;
}
