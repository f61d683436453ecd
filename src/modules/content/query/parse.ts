import { DEFAULT_LIMIT, MAX_LIMIT, MAX_PAGE } from '../../../common/pagination';
import { ServiceError, ValidationIssue } from '../../../common/errors';
import { inDateRange, isStorableString, parseDecimal, parseIsoDate } from '../../../fields';
import {
  ALWAYS_SELECTED,
  Condition,
  ComparisonOperator,
  OPERATORS,
  Operator,
  ParsedQuery,
  QUERY_LIMITS as L,
  QueryDefinition,
  QueryModel,
  ResolvedField,
  RichTextFormat,
  ScalarValue,
  SortItem,
  StatusFilter,
  WhereNode,
  resolveDefinition,
} from './types';

export interface ParseOptions {
  /** The status of a drafts collection when the query names none. Default `published` (HTTP). */
  defaultStatus?: StatusFilter;
}

/** Every parameter of a list query; the other reads take some of them (entries.service.ts). */
export const QUERY_PARAMETERS = [
  'where',
  'sort',
  'limit',
  'page',
  'select',
  'depth',
  'richTextFormat',
  'status',
] as const;
const PARAMETERS: ReadonlySet<string> = new Set(QUERY_PARAMETERS);
const OPERATOR_SET: ReadonlySet<string> = new Set<string>(OPERATORS);
const STATUSES: readonly StatusFilter[] = ['published', 'draft', 'all'];
const RICH_TEXT_FORMATS: readonly RichTextFormat[] = ['json', 'html', 'both'];

/**
 * Parses the query object of a list request (SPEC 4.3) into a validated AST.
 *
 * Accepted shapes, so the result does not depend on Express's `query parser` setting:
 * - qs ("extended") objects: `{ where: { title: { equals: 'x' } } }`, `and`/`or` as arrays or as
 *   objects with index keys (`{ and: { '0': {...}, '25': {...} } }`, qs's form above 20 items), and
 *   keys qs left unparsed past its depth limit (`{ title: { '[equals]': 'x' } }`);
 * - flat keys of the "simple" parser: `{ 'where[title][equals]': 'x' }`;
 * - `where=<JSON object>` (already URL-decoded);
 * - repeated keys as arrays (`in`/`not_in` items, `sort`, `select`).
 *
 * Decisions beyond the SPEC:
 * - Every top-level parameter other than where, sort, limit, page, select, depth, richTextFormat
 *   and status is refused (`unknown_parameter`).
 * - `status` on a collection without drafts is refused (`not_allowed`): it would mean nothing.
 *   On a drafts collection it defaults to `opts.defaultStatus` (`published`; trusted in-process
 *   callers may pass `all`).
 * - `where[status]` is refused (`not_filterable`): the `status` parameter decides.
 * - Several operators on one field, or several fields in one object, are ANDed.
 * - `equals: null` / `not_equals: null` (JSON `where` only) mean `exists: false` / `exists: true`,
 *   on every field that takes `exists` (json, richText and components included). In a query
 *   string `null` is just text (and not a number, date, ... for other types).
 * - `in`/`not_in`: a string is split on commas (no trimming for text; the empty string is the
 *   empty list); an array's items are taken whole, so a value holding a comma can be sent as a
 *   JSON array or as repeated keys.
 * - `like`: the pattern as given, with `\` escaping the next character; a pattern ending in a
 *   lone `\` is refused (PostgreSQL would fail on it).
 * - Dates: `YYYY-MM-DD` (midnight UTC) or an ISO 8601 date-time with `Z` or an offset; a
 *   date-time without a zone is ambiguous and refused (as for stored values).
 * - select values must be among the field's options (a filter on anything else is a typo).
 * - Text values may not hold NUL or unpaired surrogates (PostgreSQL cannot compare them).
 * - `sort`: comma-separated, `-` for descending, items trimmed; a field twice, an empty item or
 *   more than 10 fields is refused; default `-createdAt`.
 * - `select`: comma-separated (items trimmed), repeated keys, or a JSON object / qs object whose
 *   values are `true`; an empty item, a value other than true, an unknown field is refused.
 *
 * Every problem is collected (up to 50) and thrown once as `VALIDATION_ERROR` with `data.errors`
 * paths such as `where.title.equals`, `where.and.0.views.in.3`, `sort`, `limit`.
 */
export function parseListQuery(
  query: Record<string, unknown> | null | undefined,
  def: QueryDefinition,
  opts: ParseOptions = {},
): ParsedQuery {
  const issues = new Issues();
  const model = resolveDefinition(def);
  const params = collectParameters(query, issues);

  const where = params.has('where') ? parseWhere(params.get('where'), model, issues) : null;
  const sort = parseSort(params.get('sort'), model, issues);
  const page = parsePositiveInt(params.get('page'), 'page', 1, issues);
  if (page > MAX_PAGE) {
    issues.add('page', 'max', `page must be at most ${MAX_PAGE}`);
  }
  const limit = Math.min(parsePositiveInt(params.get('limit'), 'limit', DEFAULT_LIMIT, issues), MAX_LIMIT);
  const select = parseSelect(params, model, issues);
  const depth = parseDepth(params.get('depth'), issues);
  const richTextFormat = parseEnum(params.get('richTextFormat'), 'richTextFormat', RICH_TEXT_FORMATS, issues);

  let status: StatusFilter | null = null;
  if (def.drafts) {
    status = parseEnum(params.get('status'), 'status', STATUSES, issues, opts.defaultStatus) ?? 'published';
  } else if (params.has('status')) {
    issues.add('status', 'not_allowed', 'status applies only to collections with drafts');
  }

  issues.throwIfAny();
  return {
    where,
    sort,
    page,
    limit,
    offset: (page - 1) * limit,
    select,
    depth,
    richTextFormat: richTextFormat ?? 'json',
    status,
  };
}

// ---------------------------------------------------------------------------------------------
// Problems

class Issues {
  readonly list: ValidationIssue[] = [];
  private dropped = 0;

  add(path: string, code: string, message: string): void {
    if (this.list.length < L.maxIssues) {
      this.list.push({ path, code, message });
    } else {
      this.dropped++;
    }
  }

  get count(): number {
    return this.list.length + this.dropped;
  }

  throwIfAny(): void {
    if (this.count === 0) {
      return;
    }
    const errors = [...this.list];
    if (this.dropped > 0) {
      errors.push({
        path: 'query',
        code: 'too_many_errors',
        message: `${this.dropped} more problems were not listed`,
      });
    }
    throw ServiceError.validation(errors, 'The list query is not valid');
  }
}

/** A key as it may appear in a path or a message: bounded, so an error never echoes a megabyte. */
function show(key: string): string {
  return key.length > 64 ? `${key.slice(0, 64)}…` : key;
}

/**
 * A parameter sent as JSON text, parsed; undefined (reported) when longer than `max` characters
 * or not JSON (`<name> must be <shape>`).
 */
function parseJsonParameter(
  raw: string,
  name: string,
  max: number,
  shape: string,
  issues: Issues,
): { value: unknown } | undefined {
  if (raw.length > max) {
    issues.add(name, 'maxLength', `${name} must be at most ${max} characters`);
    return undefined;
  }
  try {
    return { value: JSON.parse(raw) as unknown };
  } catch {
    issues.add(name, 'isJson', `${name} must be ${shape}`);
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Shapes

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

const INDEX = /^(0|[1-9][0-9]{0,8})$/;
const BRACKET_KEY = /^([^[\]]+)((?:\[[^[\]]*\])+)$/;
const BRACKETS_ONLY = /^(?:\[[^[\]]*\])+$/;

/** `[a][b][]` → `['a', 'b', '']`. */
function segmentsOf(brackets: string): string[] {
  return brackets.slice(1, -1).split('][');
}

/**
 * Objects and arrays this parser built (or copied): only these are ever changed. The caller's
 * objects are copied the first time something must be merged into them.
 */
const owned = new WeakSet<object>();

function ownedObject(): Obj {
  const o = Object.create(null) as Obj;
  owned.add(o);
  return o;
}

/** The value a bracket path stands for: `['a', '']` and `v` → `{ a: [v] }` (null-prototype objects). */
function wrap(segments: readonly string[], value: unknown): unknown {
  let v = value;
  for (let i = segments.length - 1; i >= 0; i--) {
    if (segments[i] === '') {
      if (!Array.isArray(v)) {
        v = [v];
        owned.add(v as unknown[]);
      }
    } else {
      const o = ownedObject();
      o[segments[i]] = v;
      v = o;
    }
  }
  return v;
}

/**
 * Two values meeting at one key: objects merge, arrays concatenate (repeated keys), anything else
 * is a conflict. Linear in the size of `b`, so folding n flat keys costs O(n × segments).
 */
function merge(a: unknown, b: unknown, depth: number): { ok: true; value: unknown } | { ok: false } {
  if (Array.isArray(a) && Array.isArray(b)) {
    const out: unknown[] = owned.has(a) ? a : [...(a as unknown[])];
    owned.add(out);
    for (const item of b as unknown[]) {
      out.push(item);
    }
    return { ok: true, value: out };
  }
  if (!isObject(a) || !isObject(b) || depth > L.maxKeySegments) {
    return { ok: false };
  }
  let out = a;
  if (!owned.has(a)) {
    out = ownedObject();
    for (const k of Object.keys(a)) {
      out[k] = a[k];
    }
  }
  for (const k of Object.keys(b)) {
    if (Object.prototype.hasOwnProperty.call(out, k)) {
      const m = merge(out[k], b[k], depth + 1);
      if (!m.ok) {
        return m;
      }
      out[k] = m.value;
    } else {
      out[k] = b[k];
    }
  }
  return { ok: true, value: out };
}

/** Sets `key` to `value`, merged with what it holds already (a repeated key); false on a conflict. */
function putMerged(map: Map<string, unknown>, key: string, value: unknown): boolean {
  if (!map.has(key)) {
    map.set(key, value);
    return true;
  }
  const m = merge(map.get(key), value, 0);
  if (m.ok) {
    map.set(key, m.value);
  }
  return m.ok;
}

/**
 * The top-level parameters, with flat bracket keys (`where[title][equals]`) folded into nested
 * values. Unknown names are reported once each.
 */
function collectParameters(query: unknown, issues: Issues): Map<string, unknown> {
  const params = new Map<string, unknown>();
  if (query === undefined || query === null) {
    return params;
  }
  if (!isObject(query)) {
    issues.add('query', 'isObject', 'the query must be an object of parameters');
    return params;
  }
  const reported = new Set<string>();
  const unknown = (name: string): void => {
    if (!reported.has(name)) {
      reported.add(name);
      issues.add(show(name), 'unknown_parameter', `unknown query parameter "${show(name)}"`);
    }
  };
  for (const key of Object.keys(query)) {
    const value = query[key];
    if (value === undefined) {
      continue; // in-process callers spread optional values: undefined is "not given"
    }
    let name = key;
    let segments: string[] = [];
    if (key.includes('[') || key.includes(']')) {
      const m = key.length <= 2000 ? BRACKET_KEY.exec(key) : null;
      if (!m) {
        unknown(key);
        continue;
      }
      name = m[1];
      segments = segmentsOf(m[2]);
    }
    if (!PARAMETERS.has(name)) {
      unknown(name);
      continue;
    }
    if (segments.length > L.maxKeySegments) {
      issues.add(name, 'too_deep', `${name} is nested more than ${L.maxKeySegments} levels`);
      continue;
    }
    if (!putMerged(params, name, wrap(segments, value))) {
      issues.add(name, 'conflict', `${name} is given more than once in different forms`);
    }
  }
  return params;
}

// ---------------------------------------------------------------------------------------------
// where

interface WhereContext {
  model: QueryModel;
  issues: Issues;
  nodes: number;
  conditions: number;
  aborted: boolean;
}

function parseWhere(raw: unknown, model: QueryModel, issues: Issues): WhereNode | null {
  let tree = raw;
  if (typeof raw === 'string') {
    const shape = 'a JSON object or use bracket notation';
    const parsed = parseJsonParameter(raw, 'where', L.maxWhereJsonLength, shape, issues);
    if (!parsed) {
      return null;
    }
    tree = parsed.value;
  }
  if (!isObject(tree)) {
    issues.add('where', 'isObject', 'where must be an object of conditions');
    return null;
  }
  const ctx: WhereContext = { model, issues, nodes: 0, conditions: 0, aborted: false };
  const node = parseNode(tree, 'where', 0, ctx);
  return ctx.aborted ? null : node;
}

/** Counts one visited key; false (and one report) once the walk has seen too much. */
function tick(ctx: WhereContext): boolean {
  if (ctx.aborted) {
    return false;
  }
  ctx.nodes++;
  if (ctx.nodes > L.maxNodes) {
    ctx.aborted = true;
    ctx.issues.add(
      'where',
      'too_many_conditions',
      `where may hold at most ${L.maxConditions} conditions and ${L.maxNodes} entries`,
    );
    return false;
  }
  return true;
}

/**
 * The entries of an object, with keys qs left unparsed past its depth (`[equals]`, `[0][title]`)
 * folded in as nested values. Null when the object is too big to walk (reported).
 */
function entriesOf(obj: Obj, path: string, ctx: WhereContext): Array<[string, unknown]> | null {
  const keys = Object.keys(obj);
  if (keys.length > L.maxNodes) {
    ctx.aborted = true;
    ctx.issues.add(path, 'too_many_conditions', `${path} has more than ${L.maxNodes} entries`);
    return null;
  }
  const out = new Map<string, unknown>();
  for (const key of keys) {
    let name = key;
    let value = obj[key];
    if (key.startsWith('[') && BRACKETS_ONLY.test(key)) {
      const segments = segmentsOf(key);
      if (segments.length > L.maxKeySegments || segments[0] === '') {
        ctx.issues.add(`${path}.${show(key)}`, 'too_deep', `${show(key)} is not a usable key`);
        continue;
      }
      name = segments[0];
      value = wrap(segments.slice(1), value);
    }
    if (!putMerged(out, name, value)) {
      ctx.issues.add(`${path}.${show(name)}`, 'conflict', `${show(name)} is given more than once`);
    }
  }
  return [...out];
}

/** An and/or list: an array, or an object whose keys are indexes (qs above 20 items, `and[0]=`). */
function listOf(value: unknown, path: string, ctx: WhereContext): Array<[string, unknown]> | null {
  if (Array.isArray(value)) {
    if (value.length > L.maxNodes) {
      ctx.aborted = true;
      ctx.issues.add(path, 'too_many_conditions', `${path} has more than ${L.maxNodes} entries`);
      return null;
    }
    return value.map((v, i) => [String(i), v]);
  }
  if (isObject(value)) {
    const entries = entriesOf(value, path, ctx);
    if (!entries) {
      return null;
    }
    const bad = entries.find(([k]) => !INDEX.test(k));
    if (bad) {
      ctx.issues.add(
        `${path}.${show(bad[0])}`,
        'isArray',
        `${path} must be a list: use ${path.split('.').pop() ?? ''}[0], [1], ...`,
      );
      return null;
    }
    return entries.sort((a, b) => Number(a[0]) - Number(b[0]));
  }
  ctx.issues.add(path, 'isArray', `${path} must be a list of conditions`);
  return null;
}

function parseNode(raw: unknown, path: string, depth: number, ctx: WhereContext): WhereNode | null {
  if (!isObject(raw)) {
    ctx.issues.add(path, 'isObject', `${path} must be an object of conditions`);
    return null;
  }
  const entries = entriesOf(raw, path, ctx);
  if (!entries) {
    return null;
  }
  const parts: WhereNode[] = [];
  for (const [key, value] of entries) {
    if (!tick(ctx)) {
      return null;
    }
    const here = `${path}.${show(key)}`;
    if (key === 'and' || key === 'or') {
      if (depth >= L.maxDepth) {
        ctx.issues.add(here, 'too_deep', `and/or may be nested at most ${L.maxDepth} levels`);
        continue;
      }
      const items = listOf(value, here, ctx);
      if (!items) {
        continue;
      }
      const children: WhereNode[] = [];
      for (const [i, child] of items) {
        if (!tick(ctx)) {
          return null;
        }
        const node = parseNode(child, `${here}.${i}`, depth + 1, ctx);
        if (node) {
          children.push(node);
        }
      }
      parts.push(key === 'and' ? { and: children } : { or: children });
    } else {
      parseField(key, value, here, ctx, parts);
    }
    if (ctx.aborted) {
      return null;
    }
  }
  return parts.length === 1 ? parts[0] : { and: parts };
}

function parseField(name: string, raw: unknown, path: string, ctx: WhereContext, out: WhereNode[]): void {
  const field = ctx.model.get(name);
  if (!field) {
    ctx.issues.add(path, 'unknown_field', `unknown field "${show(name)}"`);
    return;
  }
  if (field.operators.size === 0) {
    ctx.issues.add(
      path,
      'not_filterable',
      name === 'status' ? 'filter by status with the status parameter' : `${name} cannot be filtered`,
    );
    return;
  }
  if (!isObject(raw)) {
    ctx.issues.add(path, 'isObject', `${path} needs an operator, e.g. where[${name}][equals]=...`);
    return;
  }
  const entries = entriesOf(raw, path, ctx);
  if (!entries) {
    return;
  }
  if (entries.length === 0) {
    ctx.issues.add(path, 'empty', `${path} needs at least one operator`);
    return;
  }
  for (const [opKey, value] of entries) {
    if (!tick(ctx)) {
      return;
    }
    const here = `${path}.${show(opKey)}`;
    if (!OPERATOR_SET.has(opKey)) {
      ctx.issues.add(
        here,
        'unknown_operator',
        `unknown operator "${show(opKey)}"; ${name} takes ${operatorsOf(field).join(', ')}`,
      );
      continue;
    }
    const op = opKey as Operator;
    // `equals: null` / `not_equals: null` is `exists`, so it serves every field `exists` serves
    // (json, richText and components take no other operator).
    const nullForm =
      (op === 'equals' || op === 'not_equals') && value === null && field.operators.has('exists');
    if (!field.operators.has(op) && !nullForm) {
      ctx.issues.add(
        here,
        'operator_not_allowed',
        `${op} cannot be used on ${name}; it takes ${operatorsOf(field).join(', ')}`,
      );
      continue;
    }
    ctx.conditions++;
    if (ctx.conditions > L.maxConditions) {
      ctx.aborted = true;
      ctx.issues.add('where', 'too_many_conditions', `where may hold at most ${L.maxConditions} conditions`);
      return;
    }
    const condition = parseCondition(field, op, value, here, ctx.issues);
    if (condition) {
      out.push(condition);
    }
  }
}

/** The operators a field takes, in the order of `OPERATORS` (the order the documentation lists them). */
function operatorsOf(field: ResolvedField): Operator[] {
  return OPERATORS.filter((op) => field.operators.has(op));
}

function parseCondition(
  field: ResolvedField,
  op: Operator,
  raw: unknown,
  path: string,
  issues: Issues,
): Condition | null {
  const name = field.name;
  switch (op) {
    case 'exists': {
      const v = toBoolean(raw, path, issues);
      return v === null ? null : { field: name, op, value: v };
    }
    case 'in':
    case 'not_in': {
      const v = toList(field, raw, path, issues);
      return v === null ? null : { field: name, op, value: v };
    }
    case 'like':
    case 'contains':
    case 'search': {
      const v = toScalar(field, raw, path, issues);
      if (typeof v !== 'string') {
        return null;
      }
      if (op === 'like' && endsWithLoneBackslash(v)) {
        issues.add(
          path,
          'invalid_pattern',
          `${path} must not end with a lone \\ (write \\\\ for a backslash)`,
        );
        return null;
      }
      return { field: name, op: op === 'like' ? 'like' : 'contains', value: v };
    }
    case 'equals':
    case 'not_equals':
      if (raw === null) {
        return { field: name, op: 'exists', value: op === 'not_equals' };
      }
      return comparison(field, op, raw, path, issues);
    default:
      return comparison(field, op, raw, path, issues);
  }
}

/** An odd number of trailing backslashes: the last one escapes nothing. */
function endsWithLoneBackslash(s: string): boolean {
  let n = 0;
  while (n < s.length && s[s.length - 1 - n] === '\\') {
    n++;
  }
  return n % 2 === 1;
}

function comparison(
  field: ResolvedField,
  op: ComparisonOperator,
  raw: unknown,
  path: string,
  issues: Issues,
): Condition | null {
  const v = toScalar(field, raw, path, issues);
  return v === null ? null : { field: field.name, op, value: v };
}

// ---------------------------------------------------------------------------------------------
// Values

function toBoolean(raw: unknown, path: string, issues: Issues): boolean | null {
  if (raw === true || raw === 'true') {
    return true;
  }
  if (raw === false || raw === 'false') {
    return false;
  }
  issues.add(path, 'isBoolean', `${path} must be true or false`);
  return null;
}

function toList(field: ResolvedField, raw: unknown, path: string, issues: Issues): ScalarValue[] | null {
  const tooMany = (): null => {
    issues.add(path, 'arrayMaxSize', `${path} may hold at most ${L.maxListItems} values`);
    return null;
  };
  let items: Array<[string, unknown]>;
  if (typeof raw === 'string') {
    if (raw.length > L.maxListItems * (L.maxValueLength + 1)) {
      issues.add(path, 'maxLength', `${path} is too long`);
      return null;
    }
    // The limit keeps a hostile string from becoming a huge array; one extra item tells "too many".
    const parts = raw === '' ? [] : raw.split(',', L.maxListItems + 1);
    items = parts.map((p, i) => [`${path}.${i}`, p]);
  } else if (Array.isArray(raw)) {
    if (raw.length > L.maxListItems) {
      return tooMany();
    }
    items = raw.map((p, i) => [`${path}.${i}`, p]);
  } else if (isObject(raw)) {
    // qs: `in[0]=a&in[1]=b`, an object once there are more than 20 indexes.
    const keys = Object.keys(raw);
    if (keys.length > L.maxListItems) {
      return tooMany();
    }
    if (!keys.every((k) => INDEX.test(k))) {
      issues.add(path, 'isArray', `${path} must be a comma-separated list or an array`);
      return null;
    }
    keys.sort((a, b) => Number(a) - Number(b));
    items = keys.map((k) => [`${path}.${k}`, raw[k]]);
  } else if (typeof raw === 'number' || typeof raw === 'boolean') {
    items = [[`${path}.0`, raw]];
  } else {
    issues.add(path, 'isArray', `${path} must be a comma-separated list or an array`);
    return null;
  }
  if (items.length > L.maxListItems) {
    return tooMany();
  }
  const out: ScalarValue[] = [];
  let ok = true;
  for (const [itemPath, item] of items) {
    const v = toScalar(field, item, itemPath, issues);
    if (v === null) {
      ok = false;
    } else {
      out.push(v);
    }
  }
  return ok ? out : null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One value converted to the field's type, or null (reported). */
function toScalar(field: ResolvedField, raw: unknown, path: string, issues: Issues): ScalarValue | null {
  if (raw === null || raw === undefined) {
    issues.add(path, 'required', `${path} needs a value (null is only meaningful for equals / not_equals)`);
    return null;
  }
  if (Array.isArray(raw) || isObject(raw)) {
    issues.add(path, 'isSingle', `${path} must be a single value`);
    return null;
  }
  if (typeof raw === 'string') {
    if (raw.length > L.maxValueLength) {
      issues.add(path, 'maxLength', `${path} must be at most ${L.maxValueLength} characters`);
      return null;
    }
    // Unpaired UTF-16 surrogates are not text (and PostgreSQL text cannot hold NUL either).
    if (!isStorableString(raw)) {
      issues.add(path, 'isString', `${path} holds characters that cannot be compared`);
      return null;
    }
  }
  switch (field.valueType) {
    case 'string': {
      if (typeof raw !== 'string') {
        issues.add(path, 'isString', `${path} must be text`);
        return null;
      }
      if (field.options && !field.options.includes(raw)) {
        issues.add(
          path,
          'isIn',
          `${path} must be one of ${field.options
            .slice(0, 20)
            .map((o) => JSON.stringify(o))
            .join(', ')}`,
        );
        return null;
      }
      return raw;
    }
    case 'number': {
      const n = parseDecimal(raw);
      if (n === undefined) {
        issues.add(path, 'isNumber', `${path} must be a finite number`);
        return null;
      }
      return n;
    }
    case 'boolean':
      return toBoolean(raw, path, issues);
    case 'date': {
      const d =
        raw instanceof Date ? raw : typeof raw === 'string' ? parseIsoDate(raw.trim())?.date : undefined;
      if (!d || !inDateRange(d)) {
        issues.add(
          path,
          'isDate',
          `${path} must be a date (YYYY-MM-DD) or an ISO 8601 date-time with a time zone`,
        );
        return null;
      }
      return d;
    }
    case 'uuid': {
      const s = typeof raw === 'string' ? raw.trim() : '';
      if (!UUID.test(s)) {
        issues.add(path, 'isUUID', `${path} must be a UUID`);
        return null;
      }
      return s.toLowerCase();
    }
    default:
      issues.add(path, 'operator_not_allowed', `${path} cannot be compared with a value`);
      return null;
  }
}

// ---------------------------------------------------------------------------------------------
// sort, select, page/limit, depth, enums

/** Strings of a parameter that may be repeated; null (reported) for anything else. */
function stringsOf(raw: unknown, name: string, issues: Issues): string[] | null {
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length > L.maxParamLength || !list.every((s): s is string => typeof s === 'string')) {
    issues.add(name, 'isString', `${name} must be a comma-separated list`);
    return null;
  }
  if (list.reduce((n, s) => n + s.length, 0) > L.maxParamLength) {
    issues.add(name, 'maxLength', `${name} must be at most ${L.maxParamLength} characters`);
    return null;
  }
  return list;
}

function parseSort(raw: unknown, model: QueryModel, issues: Issues): SortItem[] {
  if (raw === undefined) {
    return [{ field: 'createdAt', direction: 'desc' }];
  }
  const list = stringsOf(raw, 'sort', issues);
  if (!list) {
    return [];
  }
  const items = list.flatMap((s) => s.split(',')).map((s) => s.trim());
  if (items.length > L.maxSortFields) {
    issues.add('sort', 'arrayMaxSize', `sort may name at most ${L.maxSortFields} fields`);
    return [];
  }
  const out: SortItem[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const desc = item.startsWith('-');
    const name = desc ? item.slice(1) : item;
    const field = model.get(name);
    if (name === '') {
      issues.add('sort', 'empty', 'sort has an empty item');
    } else if (!field) {
      issues.add('sort', 'unknown_field', `cannot sort by unknown field "${show(name)}"`);
    } else if (!field.sortable) {
      issues.add('sort', 'not_sortable', `cannot sort by ${name}`);
    } else if (seen.has(name)) {
      issues.add('sort', 'duplicate', `sort names ${name} twice`);
    } else {
      seen.add(name);
      out.push({ field: name, direction: desc ? 'desc' : 'asc' });
    }
  }
  return out;
}

function parseSelect(params: Map<string, unknown>, model: QueryModel, issues: Issues): string[] | null {
  if (!params.has('select')) {
    return null;
  }
  const raw = params.get('select');
  let names: string[] = [];
  let object: unknown = raw;
  if (typeof raw === 'string' && raw.trimStart().startsWith('{')) {
    const shape = 'a comma-separated list or a JSON object';
    const parsed = parseJsonParameter(raw, 'select', L.maxParamLength, shape, issues);
    if (!parsed) {
      return null;
    }
    object = parsed.value;
  }
  if (isObject(object)) {
    const keys = Object.keys(object);
    if (keys.length > model.size) {
      issues.add('select', 'arrayMaxSize', 'select names more fields than the collection has');
      return null;
    }
    for (const k of keys) {
      if (object[k] !== true && object[k] !== 'true') {
        issues.add(`select.${show(k)}`, 'isIn', `select.${show(k)} must be true`);
      }
    }
    names = keys;
  } else {
    const list = stringsOf(raw, 'select', issues);
    if (!list) {
      return null;
    }
    names = list.flatMap((s) => s.split(',')).map((s) => s.trim());
  }
  if (names.length === 0 || names.every((n) => n === '')) {
    issues.add('select', 'empty', 'select must name at least one field');
    return null;
  }
  const chosen = new Set<string>();
  let ok = true;
  for (const name of names) {
    if (name === '') {
      issues.add('select', 'empty', 'select has an empty item');
      ok = false;
    } else if (!model.has(name)) {
      issues.add('select', 'unknown_field', `cannot select unknown field "${show(name)}"`);
      ok = false;
    } else {
      chosen.add(name);
    }
  }
  if (!ok) {
    return null;
  }
  for (const name of ALWAYS_SELECTED) {
    chosen.add(name);
  }
  return [...model.keys()].filter((n) => chosen.has(n));
}

function parsePositiveInt(raw: unknown, path: string, fallback: number, issues: Issues): number {
  if (raw === undefined) {
    return fallback;
  }
  let n: number | undefined;
  if (typeof raw === 'string' && /^[0-9]{1,30}$/.test(raw)) {
    n = Number(raw);
  } else if (typeof raw === 'number' && Number.isSafeInteger(raw)) {
    n = raw;
  }
  if (n === undefined) {
    issues.add(path, 'isInt', `${path} must be a positive integer`);
    return fallback;
  }
  if (n < 1) {
    issues.add(path, 'min', `${path} must be at least 1`);
    return fallback;
  }
  return n;
}

function parseDepth(raw: unknown, issues: Issues): number {
  if (raw === undefined) {
    return 0;
  }
  let n: number | undefined;
  if (typeof raw === 'string' && /^[0-9]{1,30}$/.test(raw)) {
    n = Number(raw);
  } else if (typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0) {
    n = raw;
  }
  if (n === undefined) {
    issues.add('depth', 'isInt', 'depth must be an integer from 0 to 5');
    return 0;
  }
  if (n > L.maxPopulateDepth) {
    issues.add('depth', 'max', `depth must be at most ${L.maxPopulateDepth}`);
    return 0;
  }
  return n;
}

function parseEnum<T extends string>(
  raw: unknown,
  path: string,
  allowed: readonly T[],
  issues: Issues,
  fallback?: T,
): T | undefined {
  if (raw === undefined) {
    return fallback;
  }
  if (typeof raw === 'string' && (allowed as readonly string[]).includes(raw)) {
    return raw as T;
  }
  issues.add(path, 'isIn', `${path} must be one of ${allowed.join(', ')}`);
  return fallback;
}
