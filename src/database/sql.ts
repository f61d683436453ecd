import type { EntityManager } from 'typeorm';

/**
 * Rows of any statement. TypeORM's PostgreSQL driver answers UPDATE and DELETE as
 * `[rows, affectedCount]` but SELECT and INSERT as `rows`; repositories read through this so
 * `... RETURNING` works the same everywhere. (Rows are objects, never arrays, so the shapes
 * cannot be confused.)
 */
export async function rows<T>(em: EntityManager, sql: string, params: unknown[] = []): Promise<T[]> {
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
