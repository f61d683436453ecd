import { containsPattern } from '../../../common/pagination';
import {
  Condition,
  ParsedQuery,
  QueryDefinition,
  QueryModel,
  ResolvedField,
  ScalarValue,
  SortItem,
  WhereNode,
  resolveDefinition,
} from './types';

/**
 * Compiles the AST of `parse.ts` to parameterised PostgreSQL. Identifiers come only from the
 * definition and are always double-quoted; values only ever travel as `$n` parameters (a test
 * checks that no value reaches the SQL text).
 *
 * Per operator, for a plain column `c` (`$n` the value):
 * - equals `c = $n`; not_equals `c IS DISTINCT FROM $n` (an entry whose value is NULL is "not equal");
 * - greater_than ... `c > $n`, `>=`, `<`, `<=` (NULL never matches);
 * - like `c LIKE $n ESCAPE '\'` (the pattern as given, case-sensitive);
 * - contains (and search) `c ILIKE $n ESCAPE '\'` with `%`, `_`, `\` escaped in the value and `%` around;
 * - in `c = ANY($n)` (`$n` an array), empty list `FALSE`;
 *   not_in `(c IS NULL OR c <> ALL($n))` (NULL counts as "not in", like not_equals), empty list `TRUE`;
 * - exists true `c IS NOT NULL`, false `c IS NULL` (also what `equals: null` / `not_equals: null` parse to).
 * A hasMany array column `a`: equals `$n = ANY(a)`, not_equals `NOT COALESCE($n = ANY(a), FALSE)`,
 * in `a && $n`, not_in `NOT COALESCE(a && $n, FALSE)`, exists `COALESCE(cardinality(a), 0) > 0`.
 * A hasMany join table `j(owner, value)`: `id IN (SELECT j.owner FROM j WHERE j.value = $n)`, the
 * negations as `id NOT IN (... WHERE j.owner IS NOT NULL AND ...)`; the subquery needs no outer
 * reference, so it is correct with or without a table alias (and in UPDATE / DELETE).
 * Groups: `(a AND b)`, `(a OR b)`; an empty `and` is `TRUE`, an empty `or` is `FALSE`.
 *
 * Sorting keeps PostgreSQL's NULL order (last ascending, first descending) so a plain btree index
 * serves both directions, and ends with `id` (in the direction of the last key) so pages are stable.
 * An indexed field's index is on (field, id) (ddl.ts), so `ORDER BY f DESC, id DESC LIMIT n` with a
 * filter on `f` is a (backward) index scan that stops after n rows, with no sort of the matches.
 */

/** `"name"`, with embedded quotes doubled. Identifiers come from definitions, never from requests. */
export function quoteIdent(name: string): string {
  if (name.length === 0 || name.includes('\u0000')) {
    throw new Error('An SQL identifier must be non-empty text without NUL');
  }
  return `"${name.replace(/"/g, '""')}"`;
}

export interface CompileWhereOptions {
  /** Qualifies every column (`"t"."title"`). Without it columns are unqualified. */
  alias?: string;
  /** Parameters are numbered from `$<paramOffset + 1>`. Default 0. */
  paramOffset?: number;
}

export interface CompiledSql {
  sql: string;
  params: unknown[];
}

/** The `where` of a parsed query as an SQL condition (`TRUE` when there is none). */
export function compileWhere(
  ast: WhereNode | null,
  def: QueryDefinition,
  opts: CompileWhereOptions = {},
): CompiledSql {
  const ctx = context(resolveDefinition(def), opts);
  return { sql: ast ? node(ast, ctx) : 'TRUE', params: ctx.params };
}

/**
 * `where` plus the drafts `status` filter (`"status" = $n`; nothing for `all`, for a collection
 * without drafts, or when `status` is null): what lists, counts and update/delete by query share.
 */
export function compileFilter(
  parsed: Pick<ParsedQuery, 'where' | 'status'>,
  def: QueryDefinition,
  opts: CompileWhereOptions = {},
): CompiledSql {
  const ctx = context(resolveDefinition(def), opts);
  return { sql: filter(parsed, def, ctx), params: ctx.params };
}

export interface CompiledListQuery {
  /** One page: the selected columns (API names), ORDER BY, `LIMIT $n OFFSET $m`. */
  listSql: string;
  listParams: unknown[];
  /**
   * `SELECT count(*) AS "total"` under the same filter. Its own parameter list: PostgreSQL refuses
   * a bind with more parameters than the statement uses. `total` is a bigint (node-pg: a string).
   */
  countSql: string;
  countParams: unknown[];
}

export interface CompileListOptions {
  table: string;
  /**
   * `LIMIT limit + 1`: the row after the page, when there is one, tells `hasNext` exactly without
   * counting (the caller drops it from the page).
   */
  nextRow?: boolean;
  /**
   * An SQL expression selected as `__version` beside the fields: the row's stored version
   * (`xmin`, the transaction that wrote it), which an entry's ETag names.
   */
  version?: string;
}

export function compileListQuery(
  parsed: ParsedQuery,
  def: QueryDefinition,
  opts: CompileListOptions,
): CompiledListQuery {
  const model = resolveDefinition(def);
  const ctx = context(model, {});
  const from = quoteIdent(opts.table);
  const cond = filter(parsed, def, ctx);
  const where = cond === 'TRUE' ? '' : ` WHERE ${cond}`;
  const countParams = [...ctx.params];
  const limit = ctx.param(opts.nextRow === true ? parsed.limit + 1 : parsed.limit);
  const offset = ctx.param(parsed.offset);
  return {
    listSql:
      `SELECT ${columns(parsed.select, model, from)}${opts.version ? `, ${opts.version} AS "__version"` : ''} FROM ${from}${where}` +
      ` ORDER BY ${orderBy(parsed.sort, model)} LIMIT ${limit} OFFSET ${offset}`,
    listParams: ctx.params,
    countSql: `SELECT count(*) AS "total" FROM ${from}${where}`,
    countParams,
  };
}

// ---------------------------------------------------------------------------------------------

interface Ctx {
  model: QueryModel;
  params: unknown[];
  param(value: unknown): string;
  column(name: string): string;
}

function context(model: QueryModel, opts: CompileWhereOptions): Ctx {
  const offset = opts.paramOffset ?? 0;
  const prefix = opts.alias ? `${quoteIdent(opts.alias)}.` : '';
  const params: unknown[] = [];
  return {
    model,
    params,
    param(value) {
      params.push(asParam(value));
      return `$${offset + params.length}`;
    },
    column: (name) => prefix + quoteIdent(name),
  };
}

function filter(parsed: Pick<ParsedQuery, 'where' | 'status'>, def: QueryDefinition, ctx: Ctx): string {
  const parts: string[] = [];
  if (def.drafts && parsed.status && parsed.status !== 'all') {
    parts.push(`${ctx.column('status')} = ${ctx.param(parsed.status)}`);
  }
  if (parsed.where) {
    const sql = node(parsed.where, ctx);
    if (sql !== 'TRUE') {
      parts.push(sql);
    }
  }
  return parts.length === 0 ? 'TRUE' : parts.join(' AND ');
}

function node(n: WhereNode, ctx: Ctx): string {
  if ('and' in n) {
    return group(n.and, 'AND', 'TRUE', ctx);
  }
  if ('or' in n) {
    return group(n.or, 'OR', 'FALSE', ctx);
  }
  return condition(n, ctx);
}

function group(children: WhereNode[], joiner: 'AND' | 'OR', empty: string, ctx: Ctx): string {
  const parts = children.map((c) => node(c, ctx));
  if (parts.length === 0) {
    return empty;
  }
  return parts.length === 1 ? parts[0] : `(${parts.join(` ${joiner} `)})`;
}

const COMPARE = {
  equals: '=',
  greater_than: '>',
  greater_than_equal: '>=',
  less_than: '<',
  less_than_equal: '<=',
} as const;

function condition(c: Condition, ctx: Ctx): string {
  const field = ctx.model.get(c.field);
  if (!field || !field.operators.has(c.op)) {
    // The parser never produces this; an AST built elsewhere must name what the definition offers.
    throw new Error(`The condition ${c.op} on "${c.field}" does not fit the collection definition`);
  }
  switch (field.storage) {
    case 'scalar':
      return scalarCondition(ctx.column(field.column as string), c, ctx);
    case 'array':
      return arrayCondition(ctx.column(field.column as string), c, ctx);
    case 'join':
      return joinCondition(field, c, ctx);
  }
}

function scalarCondition(col: string, c: Condition, ctx: Ctx): string {
  switch (c.op) {
    case 'equals':
    case 'greater_than':
    case 'greater_than_equal':
    case 'less_than':
    case 'less_than_equal':
      return `${col} ${COMPARE[c.op]} ${ctx.param(c.value)}`;
    case 'not_equals':
      return `${col} IS DISTINCT FROM ${ctx.param(c.value)}`;
    case 'like':
      return `${col} LIKE ${ctx.param(c.value)} ESCAPE '\\'`;
    case 'contains':
      return `${col} ILIKE ${ctx.param(containsPattern(c.value))} ESCAPE '\\'`;
    case 'in':
      return c.value.length === 0 ? 'FALSE' : `${col} = ANY(${ctx.param(list(c.value))})`;
    case 'not_in':
      return c.value.length === 0 ? 'TRUE' : `(${col} IS NULL OR ${col} <> ALL(${ctx.param(list(c.value))}))`;
    case 'exists':
      return c.value ? `${col} IS NOT NULL` : `${col} IS NULL`;
  }
}

function arrayCondition(col: string, c: Condition, ctx: Ctx): string {
  switch (c.op) {
    case 'equals':
      return `${ctx.param(c.value)} = ANY(${col})`;
    case 'not_equals':
      return `NOT COALESCE(${ctx.param(c.value)} = ANY(${col}), FALSE)`;
    case 'in':
      return c.value.length === 0 ? 'FALSE' : `${col} && ${ctx.param(list(c.value))}`;
    case 'not_in':
      return c.value.length === 0 ? 'TRUE' : `NOT COALESCE(${col} && ${ctx.param(list(c.value))}, FALSE)`;
    case 'exists':
      return `COALESCE(cardinality(${col}), 0) ${c.value ? '>' : '='} 0`;
    default:
      throw new Error(`${c.op} does not apply to a hasMany field`);
  }
}

function joinCondition(field: ResolvedField, c: Condition, ctx: Ctx): string {
  const j = field.join;
  if (!j) {
    throw new Error(`"${field.name}" has no join table`);
  }
  const table = quoteIdent(j.table);
  const owner = `${table}.${quoteIdent(j.ownerColumn)}`;
  const value = `${table}.${quoteIdent(j.valueColumn)}`;
  const id = ctx.column('id');
  const has = (cond: string | null): string =>
    `${id} IN (SELECT ${owner} FROM ${table}${cond ? ` WHERE ${cond}` : ''})`;
  // NOT IN over a subquery that may yield NULL is never true: the owner column is kept non-null.
  const hasNot = (cond: string | null): string =>
    `${id} NOT IN (SELECT ${owner} FROM ${table} WHERE ${owner} IS NOT NULL${cond ? ` AND ${cond}` : ''})`;
  switch (c.op) {
    case 'equals':
      return has(`${value} = ${ctx.param(c.value)}`);
    case 'not_equals':
      return hasNot(`${value} = ${ctx.param(c.value)}`);
    case 'in':
      return c.value.length === 0 ? 'FALSE' : has(`${value} = ANY(${ctx.param(list(c.value))})`);
    case 'not_in':
      return c.value.length === 0 ? 'TRUE' : hasNot(`${value} = ANY(${ctx.param(list(c.value))})`);
    case 'exists':
      return c.value ? has(null) : hasNot(null);
    default:
      throw new Error(`${c.op} does not apply to a hasMany field`);
  }
}

/**
 * Dates travel as ISO 8601 text: node-pg would write a Date in the server's local zone, rounding
 * historical offsets that hold seconds (a date in year 100 in Europe/Berlin would move 28 s).
 */
function asParam(value: unknown): unknown {
  if (value instanceof Date) {
    return pgTimestamp(value);
  }
  return Array.isArray(value) ? value.map((v: unknown) => (v instanceof Date ? pgTimestamp(v) : v)) : value;
}

/**
 * A Date as PostgreSQL timestamptz text in UTC. Years before 1 are written the PostgreSQL way
 * (`0001-... BC` is year 0), which ISO 8601's `0000` / `-000001` would not be read as.
 */
export function pgTimestamp(d: Date): string {
  const iso = d.toISOString();
  const year = d.getUTCFullYear();
  if (year > 0) {
    return iso;
  }
  const rest = iso.slice(iso.indexOf('-', 1)).replace('Z', '+00:00');
  return `${String(1 - year).padStart(4, '0')}${rest} BC`;
}

/** A copy, so the parameters never alias the AST. */
function list(values: ScalarValue[]): ScalarValue[] {
  return [...values];
}

/**
 * The selected columns under their API names. A field kept in a join table with an order column
 * is read by a correlated subquery (`ARRAY(SELECT value ... ORDER BY position)`), so a page and its
 * hasMany values are one query; without an order column it is not selected here.
 */
function columns(select: string[] | null, model: QueryModel, from: string): string {
  const names = select ?? [...model.keys()];
  const out: string[] = [];
  for (const name of names) {
    const f = model.get(name);
    if (!f) {
      throw new Error(`select names "${name}", which the collection does not have`);
    }
    if (f.column === null) {
      const j = f.join;
      if (j?.orderColumn) {
        const jt = quoteIdent(j.table);
        out.push(
          `ARRAY(SELECT ${jt}.${quoteIdent(j.valueColumn)} FROM ${jt} WHERE ${jt}.${quoteIdent(j.ownerColumn)} = ` +
            `${from}.${quoteIdent('id')} ORDER BY ${jt}.${quoteIdent(j.orderColumn)}) AS ${quoteIdent(name)}`,
        );
      }
      continue;
    }
    out.push(f.column === name ? quoteIdent(name) : `${quoteIdent(f.column)} AS ${quoteIdent(name)}`);
  }
  return out.join(', ');
}

function orderBy(sort: SortItem[], model: QueryModel): string {
  const out: string[] = [];
  let last: 'ASC' | 'DESC' = 'ASC';
  let hasId = false;
  for (const s of sort) {
    const f = model.get(s.field);
    if (!f || !f.sortable || f.column === null) {
      throw new Error(`cannot sort by "${s.field}"`);
    }
    last = s.direction === 'desc' ? 'DESC' : 'ASC';
    hasId ||= s.field === 'id';
    out.push(`${quoteIdent(f.column)} ${last}`);
  }
  if (!hasId) {
    out.push(`${quoteIdent('id')} ${last}`);
  }
  return out.join(', ');
}
