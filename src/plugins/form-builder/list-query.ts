import { ServiceError } from '../api';
import type { Issue } from './form-definition';

/**
 * The service's list query (CONTRACTS 8, src/common/pagination.ts, which is not on the plugin
 * surface), the same rules and messages: `limit` default 10, clamped to 500; `page` default 1;
 * non-numeric or below 1 is 400 VALIDATION_ERROR; `search` at most 200 characters; `sort` a
 * listed field, `-` for descending.
 */

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 500;
const MAX_PAGE = 2_147_483_647;
const MAX_SEARCH_LENGTH = 200;

export interface ListQuery<F extends string> {
  page: number;
  limit: number;
  offset: number;
  search?: string;
  sort: { field: F; direction: 'asc' | 'desc' };
}

export interface ListRecord<T> {
  items: T[];
  meta: {
    total: number;
    page: number;
    limit: number;
    totalPages: number;
    hasNext: boolean;
    hasPrev: boolean;
  };
}

function positiveInt(value: unknown, path: string, issues: Issue[]): number | undefined {
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

export function parseListQuery<F extends string>(
  query: Record<string, unknown> | undefined,
  opts: { sortable: readonly F[]; defaultSort: { field: F; direction: 'asc' | 'desc' }; search: boolean },
): ListQuery<F> {
  const q = query ?? {};
  const issues: Issue[] = [];
  const page = positiveInt(q.page, 'page', issues) ?? 1;
  if (page > MAX_PAGE) {
    issues.push({ path: 'page', code: 'max', message: `page must be at most ${MAX_PAGE}` });
  }
  const limit = Math.min(positiveInt(q.limit, 'limit', issues) ?? DEFAULT_LIMIT, MAX_LIMIT);
  let search: string | undefined;
  if (opts.search && q.search !== undefined) {
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
  let sort = opts.defaultSort;
  if (q.sort !== undefined) {
    const raw = typeof q.sort === 'string' ? q.sort : '';
    const desc = raw.startsWith('-');
    const field = (desc ? raw.slice(1) : raw) as F;
    if (opts.sortable.includes(field)) {
      sort = { field, direction: desc ? 'desc' : 'asc' };
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

/** The List record of SPEC 2.5; a page past the end gives `items: []` with the true meta. */
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
