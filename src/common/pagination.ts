import { ServiceError, ValidationIssue } from './errors';

/** SPEC 8 / CONTRACTS 8: `limit` defaults to 10 and is clamped to 500; `page` defaults to 1. */
export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 500;
/** Above this a page number is refused (keeps the OFFSET an exact integer). */
export const MAX_PAGE = 2_147_483_647;
export const MAX_SEARCH_LENGTH = 200;

export interface SortSpec<F extends string = string> {
  field: F;
  direction: 'asc' | 'desc';
}

/** A parsed, validated list query: what repositories need for LIMIT/OFFSET, search and ORDER BY. */
export interface ListQuery<F extends string = string> {
  page: number;
  limit: number;
  offset: number;
  /** Trimmed; undefined when absent or blank. */
  search?: string;
  sort: SortSpec<F>;
}

export interface ListMeta {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
  hasNext: boolean;
  hasPrev: boolean;
}

/** The List record of SPEC 2.5. */
export interface ListRecord<T> {
  items: T[];
  meta: ListMeta;
}

export interface ListQueryOptions<F extends string> {
  /** Fields `sort` may name (`field` or `-field`); anything else is a 400. */
  sortable: readonly F[];
  /** Used when `sort` is absent. */
  defaultSort: SortSpec<NoInfer<F>>;
}

/**
 * Reads `page`, `limit`, `search` and `sort` from a raw query object (Express: strings, arrays of
 * strings or nested objects). Every problem is reported at once as `VALIDATION_ERROR` with one
 * `data.errors` entry per parameter. Other parameters are left to the caller.
 */
export function parseListQuery<F extends string>(
  query: Record<string, unknown> | undefined,
  opts: ListQueryOptions<F>,
): ListQuery<F> {
  const q = query ?? {};
  const issues: ValidationIssue[] = [];

  const page = parsePositiveInt(q.page, 'page', issues) ?? 1;
  if (page > MAX_PAGE) {
    issues.push({ path: 'page', code: 'max', message: `page must be at most ${MAX_PAGE}` });
  }
  const limit = Math.min(parsePositiveInt(q.limit, 'limit', issues) ?? DEFAULT_LIMIT, MAX_LIMIT);

  let search: string | undefined;
  if (q.search !== undefined) {
    if (typeof q.search !== 'string') {
      issues.push({ path: 'search', code: 'isString', message: 'search must be a single string' });
    } else if (q.search.length > MAX_SEARCH_LENGTH) {
      issues.push({
        path: 'search',
        code: 'maxLength',
        message: `search must be at most ${MAX_SEARCH_LENGTH} characters`,
      });
    } else {
      search = q.search.trim() || undefined;
    }
  }

  let sort: SortSpec<F> = opts.defaultSort;
  if (q.sort !== undefined) {
    const parsed = typeof q.sort === 'string' ? parseSort(q.sort, opts.sortable) : null;
    if (parsed) {
      sort = parsed;
    } else {
      issues.push({
        path: 'sort',
        code: 'isIn',
        message: `sort must be one of ${opts.sortable.map((f) => `${f}, -${f}`).join(', ')}`,
      });
    }
  }

  if (issues.length) {
    throw ServiceError.validation(issues, 'The list query is not valid');
  }
  return { page, limit, offset: (page - 1) * limit, search, sort };
}

/** The issues of query keys a list does not take (each one `unknown_parameter`). */
export function unknownParameters(
  query: Record<string, unknown>,
  allowed: readonly string[],
): ValidationIssue[] {
  return Object.keys(query)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({ path: k, code: 'unknown_parameter', message: `${k} is not a parameter of this list` }));
}

/** 400 VALIDATION_ERROR naming every query key the list does not take. */
export function refuseUnknownParameters(query: Record<string, unknown>, allowed: readonly string[]): void {
  const issues = unknownParameters(query, allowed);
  if (issues.length) {
    throw ServiceError.validation(issues);
  }
}

/** Builds the List record; a page past the end gives `items: []` with the true meta. */
export function listRecord<T>(items: T[], total: number, q: { page: number; limit: number }): ListRecord<T> {
  const totalPages = Math.ceil(total / q.limit);
  return {
    items,
    meta: {
      total,
      page: q.page,
      limit: q.limit,
      totalPages,
      hasNext: q.page < totalPages,
      hasPrev: q.page > 1,
    },
  };
}

/**
 * The List record of a page read with one row more than `limit` (the extra row dropped): `hasNext`
 * is what the page showed, exact even when `total` is a cached count that may trail writes made
 * elsewhere (SPEC 4.3: `hasNext` drives paging, `totalPages` may change between requests).
 */
export function pageRecord<T>(
  items: T[],
  page: { total: number; hasNext: boolean },
  q: { page: number; limit: number },
): ListRecord<T> {
  return {
    items,
    meta: {
      total: page.total,
      page: q.page,
      limit: q.limit,
      totalPages: Math.ceil(page.total / q.limit),
      hasNext: page.hasNext,
      hasPrev: q.page > 1,
    },
  };
}

/**
 * A case-insensitive "contains" pattern for `ILIKE ... ESCAPE '\'`: the user's `%`, `_` and `\`
 * match themselves (CONTRACTS 9, `contains`).
 */
export function containsPattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function parsePositiveInt(value: unknown, path: string, issues: ValidationIssue[]): number | undefined {
  if (value === undefined) {
    return undefined;
  }
  if (typeof value !== 'string' || !/^[0-9]+$/.test(value)) {
    issues.push({ path, code: 'isInt', message: `${path} must be a positive integer` });
    return undefined;
  }
  const n = Number(value);
  if (n < 1) {
    issues.push({ path, code: 'min', message: `${path} must be at least 1` });
    return undefined;
  }
  return n;
}

function parseSort<F extends string>(raw: string, sortable: readonly F[]): SortSpec<F> | null {
  const desc = raw.startsWith('-');
  const field = (desc ? raw.slice(1) : raw) as F;
  return sortable.includes(field) ? { field, direction: desc ? 'desc' : 'asc' } : null;
}
