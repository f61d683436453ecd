import { ServiceError, ValidationIssue } from '../../../common/errors';
import { type Definition, queryDefinitionOf, tableOf } from '../content.types';
import { rowVersion } from '../entry-tag';
import { compileListQuery, type CompiledListQuery, ParsedQuery, parseListQuery, WhereNode } from '../query';

/**
 * Parsed queries, and compiled ones for lists and counts, per definition object and query.
 * Clients repeat the same few queries, and parsing and compiling them measured 13% of a list's
 * CPU (mostly garbage). Entries are only ever read. Bounded per definition; a definition loaded
 * anew (after a change) is a new object and starts empty. Pure.
 */
const QUERY_CACHE_SIZE = 128;
const queryCache = new WeakMap<Definition, Map<string, CachedQuery>>();

export interface CachedQuery {
  parsed: ParsedQuery;
  compiled?: CompiledListQuery;
  /** The count cache key of `compiled` (see `countKey`). */
  countKey?: string;
  /** The read of entries by id (`byIdStatement`). */
  byId?: ByIdStatement;
}

/**
 * A read of entries by id: its SQL and parameters, the ids (an array) going in at `slot` and
 * their count at `limit`.
 */
export interface ByIdStatement {
  sql: string;
  params: readonly unknown[];
  slot: number;
  limit: number;
}

/** Stands for the id while a by-id read is compiled (never a real id: not a UUID). */
const ID_SLOT = 'svc:id';

/** A read's query, parsed (400 on anything wrong) and cached. */
export function cachedQuery(
  def: Definition,
  query: Record<string, unknown>,
  allowed: readonly string[] | null,
): CachedQuery {
  let cache = queryCache.get(def);
  if (!cache) {
    cache = new Map();
    queryCache.set(def, cache);
  }
  const key = `${allowed?.join(',') ?? '*'} ${JSON.stringify(query)}`;
  let hit = cache.get(key);
  if (!hit) {
    // Frozen: a cached query is shared by every request that sends it.
    hit = {
      parsed: Object.freeze(parseListQuery(allowed ? only(query, allowed) : query, queryDefinitionOf(def))),
    };
    if (cache.size >= QUERY_CACHE_SIZE) {
      cache.delete(cache.keys().next().value as string);
    }
    cache.set(key, hit);
  }
  return hit;
}

/** The statement reading entries by id under a cached query (as `readRows` builds it), compiled once. */
export function byIdStatement(def: Definition, q: CachedQuery): ByIdStatement {
  if (!q.byId) {
    const byId: WhereNode = { field: 'id', op: 'in', value: [ID_SLOT] };
    const c = compileListQuery(
      { ...q.parsed, where: byId, sort: [], page: 1, limit: 1, offset: 0 },
      queryDefinitionOf(def),
      { table: tableOf(def), version: rowVersion(tableOf(def)) },
    );
    const slot = c.listParams.findIndex((p) => Array.isArray(p) && p.length === 1 && p[0] === ID_SLOT);
    // LIMIT and OFFSET are the last two parameters (compileListQuery).
    const limit = c.listParams.length - 2;
    if (slot < 0 || c.listParams[limit] !== 1) {
      throw new Error('the by-id read has no id or limit parameter');
    }
    q.byId = { sql: c.listSql, params: Object.freeze(c.listParams), slot, limit };
  }
  return q.byId;
}

export function compiledQuery(
  def: Definition,
  q: CachedQuery,
): { parsed: ParsedQuery; c: CompiledListQuery } {
  q.compiled ??= Object.freeze(
    compileListQuery(q.parsed, queryDefinitionOf(def), { table: tableOf(def), nextRow: true }),
  );
  return { parsed: q.parsed, c: q.compiled };
}

/**
 * The count cache key of a compiled query: the definition's identity and version (the registry
 * makes new objects for unchanged definitions every few seconds; a change moves `updatedAt`),
 * then the exact count statement and its parameters, which hold everything that decides the
 * rows counted (where, drafts status). Made once per cached query.
 */
export function countKey(def: Definition, q: CachedQuery, c: CompiledListQuery): string {
  q.countKey ??= `${def.id}\u0000${def.updatedAt.valueOf()}\u0000${c.countSql}\u0000${JSON.stringify(c.countParams)}`;
  return q.countKey;
}

/** The query keeping only `allowed` parameters; any other is a 400 (never silently ignored). */
function only(query: Record<string, unknown>, allowed: readonly string[]): Record<string, unknown> {
  const issues: ValidationIssue[] = [];
  for (const k of Object.keys(query)) {
    const top = k.split('[')[0];
    if (!allowed.includes(top)) {
      issues.push({
        path: top,
        code: 'unknown_parameter',
        message: `${top} does not apply here (allowed: ${allowed.join(', ')})`,
      });
    }
  }
  if (issues.length) {
    throw ServiceError.validation(issues);
  }
  return query;
}
