import type { Pool } from 'pg';
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
  const pool = em.queryRunner ? undefined : (em.connection.driver as { master?: Pool }).master;
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
