import { QueryFailedError } from 'typeorm';

/** The SQLSTATE codes the service tells apart (PostgreSQL manual, appendix A). */
export const PG_ERROR = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  checkViolation: '23514',
  undefinedColumn: '42703',
  undefinedTable: '42P01',
  duplicateTable: '42P07',
  duplicateObject: '42710',
} as const;

/** What callers read of a PostgreSQL error. */
export interface PgError {
  code: string;
  /** The constraint a violation names (unique, foreign key, check). */
  constraint?: string;
  message?: string;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * The PostgreSQL error behind `err`, whichever shape it comes in: TypeORM's QueryFailedError
 * (the driver's error as `driverError`; `rows()` wraps pool errors the same way), or node-pg's
 * own error. Undefined for anything else.
 */
export function pgError(err: unknown): PgError | undefined {
  const d: unknown = err instanceof QueryFailedError ? err.driverError : err;
  if (typeof d !== 'object' || d === null) {
    return undefined;
  }
  const { code, constraint, message } = d as { code?: unknown; constraint?: unknown; message?: unknown };
  if (typeof code !== 'string' || !SQLSTATE.test(code)) {
    return undefined;
  }
  return {
    code,
    ...(typeof constraint === 'string' && { constraint }),
    ...(typeof message === 'string' && { message }),
  };
}

/** A unique violation (23505), of the named constraint when one is given. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const pg = pgError(err);
  return pg?.code === PG_ERROR.uniqueViolation && (constraint === undefined || pg.constraint === constraint);
}
