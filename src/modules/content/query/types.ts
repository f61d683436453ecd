import type { FieldConfig, FieldType } from '../../../config/config.types';

/**
 * The query language of SPEC 4.3 for collection entries: what a collection offers to queries, the
 * parsed query (an AST with typed values) and the limits that keep hostile input cheap.
 *
 * Operators per field type (✓ allowed; anything else is 400 `operator_not_allowed` with the path):
 *
 * | type                                   | equals, not_equals | greater_than(_equal), less_than(_equal) | like | contains, search | in, not_in | exists |
 * |----------------------------------------|:-:|:-:|:-:|:-:|:-:|:-:|
 * | text, textarea, email                  | ✓ | ✓ (collation order) | ✓ | ✓ | ✓ | ✓ |
 * | number                                 | ✓ | ✓ | – | – | ✓ | ✓ |
 * | date, createdAt, updatedAt             | ✓ | ✓ | – | – | ✓ | ✓ |
 * | checkbox                               | ✓ | – | – | – | – | ✓ |
 * | select                                 | ✓ | – | – | – | ✓ | ✓ |
 * | relationship, upload, id (uuid)        | ✓ | – | – | – | ✓ | ✓ |
 * | select / relationship / upload hasMany | ✓ (has the value) | – | – | – | ✓ (has any) | ✓ (has at least one) |
 * | json, richText, component              | – | – | – | – | – | ✓ |
 * | status (drafts)                        | not in `where`: the `status` parameter decides |
 *
 * Sortable: text, textarea, email, number, date, checkbox, single select, `id`, `createdAt`,
 * `updatedAt`, `status`. Not sortable: json, richText, component, relationship, upload, hasMany.
 * Every field (and `status` on drafts collections) may be named in `select`.
 */

/** Where the values of a `hasMany` relationship live when they are not an array column. */
export interface JoinTable {
  /** The join table, e.g. `c_posts__tags`. */
  table: string;
  /** Its column holding the owning entry's id. */
  ownerColumn: string;
  /** Its column holding one value (a related id, a select value). */
  valueColumn: string;
  /** Its column ordering an entry's values; with it, lists and reads return the values in a select-list subquery. */
  orderColumn?: string;
}

/** One field of a collection as queries see it (the column is named like the field). */
export interface QueryField {
  name: string;
  type: FieldType;
  /** select, relationship, upload: many values per entry. Ignored for other types. */
  hasMany?: boolean;
  /** select: the allowed values; a filter on a value outside them is refused. */
  options?: FieldConfig['options'];
  /**
   * hasMany only: the values are rows of this join table. Without it a hasMany field is an array
   * column (`text[]` for select, `uuid[]` for relationship and upload) named like the field.
   */
  join?: JoinTable;
}

/**
 * A collection as queries see it. Besides `fields` every collection has the system fields `id`
 * (uuid), `createdAt` and `updatedAt` (timestamps), and `status` when `drafts` is on; field names
 * must not reuse those names nor `and` / `or` (the definition layer reserves them).
 */
export interface QueryDefinition {
  fields: readonly QueryField[];
  drafts: boolean;
}

export const OPERATORS = [
  'equals',
  'not_equals',
  'greater_than',
  'greater_than_equal',
  'less_than',
  'less_than_equal',
  'like',
  'contains',
  'search',
  'in',
  'not_in',
  'exists',
] as const;

/** An operator as a client writes it. */
export type Operator = (typeof OPERATORS)[number];

export type ComparisonOperator =
  'equals' | 'not_equals' | 'greater_than' | 'greater_than_equal' | 'less_than' | 'less_than_equal';

/** A value converted to its field's type: text, number, checkbox, date (a `Date`), uuid (lower-case text). */
export type ScalarValue = string | number | boolean | Date;

/**
 * One condition of the AST. `search` is parsed as `contains`; `equals: null` as `exists: false`
 * and `not_equals: null` as `exists: true`; `in`/`not_in` always hold a list (possibly empty).
 */
export type Condition =
  | { field: string; op: ComparisonOperator; value: ScalarValue }
  | { field: string; op: 'like' | 'contains'; value: string }
  | { field: string; op: 'in' | 'not_in'; value: ScalarValue[] }
  | { field: string; op: 'exists'; value: boolean };

/** `{ and: [] }` matches everything, `{ or: [] }` nothing. */
export type WhereNode = { and: WhereNode[] } | { or: WhereNode[] } | Condition;

export interface SortItem {
  field: string;
  direction: 'asc' | 'desc';
}

export type RichTextFormat = 'json' | 'html' | 'both';
export type StatusFilter = 'published' | 'draft' | 'all';

export interface ParsedQuery {
  /** null: no filter. */
  where: WhereNode | null;
  /** As requested, or `-createdAt` by default; the compiler adds `id` as the final tie-breaker. */
  sort: SortItem[];
  page: number;
  limit: number;
  /** (page - 1) * limit. */
  offset: number;
  /** null: every field. Otherwise the field names to return, `id`, `createdAt` and `updatedAt` always among them. */
  select: string[] | null;
  depth: number;
  richTextFormat: RichTextFormat;
  /** null for a collection without drafts. */
  status: StatusFilter | null;
}

/** Limits against abuse; each one exceeded is a 400, never a slow loop or a stack overflow. */
export const QUERY_LIMITS = {
  /** and/or groups nested inside one another. */
  maxDepth: 5,
  /** Conditions (field + operator) in one `where`. */
  maxConditions: 50,
  /** Keys visited in one `where` (conditions, groups, empty groups); bounds the walk itself. */
  maxNodes: 200,
  /** Characters of one value (and of one item of an `in` list). */
  maxValueLength: 1000,
  /** Items of an `in` / `not_in` list. */
  maxListItems: 100,
  /** Characters of `where=<json>`. */
  maxWhereJsonLength: 65_536,
  /** Characters of `select` and of `sort`. */
  maxParamLength: 10_000,
  /** Bracket segments of one query key (`where[and][0][title][equals]` has 4). */
  maxKeySegments: 24,
  /** Fields in `sort`. */
  maxSortFields: 10,
  /** `depth` of relationship population. */
  maxPopulateDepth: 5,
  /** Problems reported at once; the rest are summed up in one last issue. */
  maxIssues: 50,
} as const;

// ---------------------------------------------------------------------------------------------
// The definition resolved for queries (shared by the parser and the compiler)

export type ValueType = 'string' | 'number' | 'boolean' | 'date' | 'uuid' | 'json';

/**
 * scalar: one column, one value. array: a PostgreSQL array column. join: rows of a join table.
 */
export type Storage = 'scalar' | 'array' | 'join';

export interface ResolvedField {
  name: string;
  /** The column in the collection's table; null for a field stored in a join table. */
  column: string | null;
  valueType: ValueType;
  storage: Storage;
  join?: JoinTable;
  /** select: the allowed values. */
  options?: readonly string[];
  operators: ReadonlySet<Operator>;
  sortable: boolean;
  system: boolean;
}

const EQ: Operator[] = ['equals', 'not_equals'];
const CMP: Operator[] = ['greater_than', 'greater_than_equal', 'less_than', 'less_than_equal'];
const TEXT: Operator[] = ['like', 'contains', 'search'];
const SET: Operator[] = ['in', 'not_in'];
const EX: Operator[] = ['exists'];

const TEXT_OPS = new Set<Operator>([...EQ, ...CMP, ...TEXT, ...SET, ...EX]);
const ORDERED_OPS = new Set<Operator>([...EQ, ...CMP, ...SET, ...EX]);
const BOOLEAN_OPS = new Set<Operator>([...EQ, ...EX]);
const DISCRETE_OPS = new Set<Operator>([...EQ, ...SET, ...EX]);
const EXISTS_OPS = new Set<Operator>(EX);
const NO_OPS = new Set<Operator>();

export const SYSTEM_COLUMNS: Readonly<Record<string, string>> = {
  id: 'id',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  status: 'status',
};

/** The order system fields are returned in, before the collection's own fields. */
export const ALWAYS_SELECTED = ['id', 'createdAt', 'updatedAt'] as const;

export type QueryModel = ReadonlyMap<string, ResolvedField>;

const resolved = new WeakMap<QueryDefinition, QueryModel>();

/**
 * System fields first, then the collection's fields in definition order. Memoised per definition
 * object (definitions are not mutated once built), so every request on a collection shares one.
 */
export function resolveDefinition(def: QueryDefinition): QueryModel {
  let model = resolved.get(def);
  if (!model) {
    model = buildModel(def);
    resolved.set(def, model);
  }
  return model;
}

function buildModel(def: QueryDefinition): QueryModel {
  const model = new Map<string, ResolvedField>();
  const system = (name: string, valueType: ValueType, operators: ReadonlySet<Operator>): void => {
    model.set(name, {
      name,
      column: SYSTEM_COLUMNS[name],
      valueType,
      storage: 'scalar',
      operators,
      sortable: true,
      system: true,
    });
  };
  system('id', 'uuid', DISCRETE_OPS);
  system('createdAt', 'date', ORDERED_OPS);
  system('updatedAt', 'date', ORDERED_OPS);
  if (def.drafts) {
    system('status', 'string', NO_OPS);
  }
  for (const f of def.fields) {
    if (model.has(f.name)) {
      continue; // a reserved name: the system field wins (the definition layer refuses such names)
    }
    model.set(f.name, resolveField(f));
  }
  return model;
}

function resolveField(f: QueryField): ResolvedField {
  const many =
    f.hasMany === true && (f.type === 'select' || f.type === 'relationship' || f.type === 'upload');
  const base = { name: f.name, system: false };
  if (many) {
    return {
      ...base,
      column: f.join ? null : f.name,
      valueType: f.type === 'select' ? 'string' : 'uuid',
      storage: f.join ? 'join' : 'array',
      join: f.join,
      options: f.type === 'select' ? optionValues(f.options) : undefined,
      operators: DISCRETE_OPS,
      sortable: false,
    };
  }
  const scalar = { ...base, column: f.name, storage: 'scalar' as const };
  switch (f.type) {
    case 'text':
    case 'textarea':
    case 'email':
      return { ...scalar, valueType: 'string', operators: TEXT_OPS, sortable: true };
    case 'number':
      return { ...scalar, valueType: 'number', operators: ORDERED_OPS, sortable: true };
    case 'date':
      return { ...scalar, valueType: 'date', operators: ORDERED_OPS, sortable: true };
    case 'checkbox':
      return { ...scalar, valueType: 'boolean', operators: BOOLEAN_OPS, sortable: true };
    case 'select':
      return {
        ...scalar,
        valueType: 'string',
        options: optionValues(f.options),
        operators: DISCRETE_OPS,
        sortable: true,
      };
    case 'relationship':
    case 'upload':
      return { ...scalar, valueType: 'uuid', operators: DISCRETE_OPS, sortable: false };
    case 'json':
    case 'richText':
    case 'component':
      return { ...scalar, valueType: 'json', operators: EXISTS_OPS, sortable: false };
    default:
      // An unknown type from an unchecked definition: readable in `select`, nothing else.
      return { ...scalar, valueType: 'json', operators: NO_OPS, sortable: false };
  }
}

function optionValues(options: QueryField['options']): string[] | undefined {
  if (!options || options.length === 0) {
    return undefined;
  }
  return options.map((o) => (typeof o === 'string' ? o : o.value));
}
