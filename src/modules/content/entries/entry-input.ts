/**
 * The write body of an entry (create, update, and the `data` of bulk update / update-by-query)
 * checked against its collection's (or single's) fields and turned into what the service writes:
 * column values ready to be node-pg parameters, the rows of hasMany join tables, the status, and
 * every referenced id the caller must check exists. Pure: no Nest, no TypeORM, no database; the
 * caller passes the fields, the field groups and the rich-text check.
 *
 * Rules:
 * - The body is a plain JSON object (else one issue at path '' `isObject`). Every problem is
 *   found; the first 50 are listed, the others counted. `path` names the value: `title`, `tags.2`,
 *   `hero.title`, `blocks.1.caption`. A key whose value is `undefined` (in-process callers) counts as absent.
 * - Keys: a key that names no field is `unknown_field`; `id`, `createdAt`, `updatedAt` are
 *   `readonly` (set by the service); `status` is accepted on drafts collections only ('draft' or
 *   'published', else `isIn`), elsewhere it is `unknown_field`.
 * - null clears a value (column null); so does "" for text, textarea, email, select and date.
 *   hasMany: null or [] is the empty list (no join rows; a null text[] column).
 * - required: a required field must not end up empty (null, "", [], missing) when the resulting
 *   status is published or the collection has no drafts. Create: resulting status is
 *   `body.status ?? 'draft'` (a draft may be incomplete); a missing key is fine when the field has
 *   a defaultValue (the column DEFAULT fills it), an explicit null or "" is not. Update: resulting
 *   status is `body.status ?? existing.status`; every required field is checked on the merged
 *   values (body over `existing`); without `existing` (bulk data) only the keys of the body are
 *   checked, and a drafts entry whose status is then unknown is checked as if published.
 * - text (at most 10,000 characters) and textarea (1,000,000) are kept as given, no trimming.
 *   email: trimmed, a valid address of at most 320 characters (the user-field rule). Strings
 *   holding NUL or unpaired surrogates (not storable in PostgreSQL) are `isString`.
 * - number: a finite JSON number (numeric strings are `isNumber`; -0 is 0), within the field's
 *   `min` / `max` when given (codes `min` / `max`). checkbox: a boolean (`isBoolean`).
 * - date: `YYYY-MM-DD` (midnight UTC) or an ISO 8601 date-time with `Z` or an offset, a real
 *   calendar date (the user-field rule, `isDate`) -> a JS `Date`.
 * - select: an option value, exactly (`isIn`). hasMany: an array (at most 200, `arrayMaxSize`) of
 *   distinct option values (`isIn` / `duplicate` at `field.i`) -> string[] (null when empty).
 * - json: any JSON value of at most 1,000,000 characters serialised and 64 levels (`isJson`,
 *   `maxLength`). richText: a plain object (`isObject`) of JSON (at most 100 levels, `isJson`;
 *   1,000,000 characters serialised, `maxLength`) that `opts.richText` accepts (else `richText`
 *   with its message; a check that throws counts as a refusal). Both, and components, become
 *   their JSON text: node-pg would send a JS array as a PostgreSQL array, not as jsonb.
 * - relationship, upload: a uuid (any case, stored lower-case) or an object `{ id: <uuid>, ... }`
 *   (a populated document sent back) -> the id (`isUuid` otherwise). hasMany relationship: an
 *   array (at most 1,000; `isArray`, `arrayMaxSize`) of those, distinct (`duplicate` at `field.i`)
 *   -> `joins[field]` in order.
 * - component: the group's fields come from `opts.fieldGroup` (unknown group: `fieldGroup`). A
 *   plain object (`isObject`), or for repeatable an array of at most 100 of them, each checked with
 *   these same value rules, recursively, paths prefixed `field.` / `field.i.`; unknown keys are
 *   refused and `required` is always enforced inside (a component value is written as a whole, so
 *   even a draft's components are complete). Absent keys with a defaultValue get it (the group's
 *   defaults have no column DEFAULT to fill them); other absent keys stay absent. Components nest
 *   at most 5 deep (`depth`). Inside a component every value keeps its cleaned JSON form: dates
 *   as ISO strings, hasMany values as arrays ([] when empty), relationships as id strings.
 * - references: every relationship/upload id, top level and inside components, grouped by
 *   `relationTo` in first-seen order, ids in body order with their paths.
 */
import type { ValidationIssue } from '../../../common/errors';
import type { FieldConfig } from '../../../config/config.types';
import {
  checkJson,
  checkValue,
  isPlainObject,
  isStorableString,
  type JsonLimits,
  MAX_EMAIL_LENGTH,
  optionValue,
} from '../../../fields';
import { cleanDefault } from '../schema/validate';

export type EntryStatus = 'draft' | 'published';

export interface EntryInputOptions {
  fields: readonly FieldConfig[];
  /** The collection/single uses Draft/Published: a `status` key is accepted. */
  drafts: boolean;
  mode: 'create' | 'update';
  /** The fields of a field group by slug (component fields); undefined when unknown. */
  fieldGroup: (slug: string) => readonly FieldConfig[] | undefined;
  /** Checks a richText value; returns null when it is a valid Lexical document, else a message. */
  richText: (value: unknown) => string | null;
  /**
   * update mode: the stored entry as the API shows it (field name -> value, `status` included),
   * used to decide `required` on the merged result. Absent in create mode.
   */
  existing?: Readonly<Record<string, unknown>>;
}

export interface EntryWrite {
  /** Column field name -> value ready to pass as a node-pg parameter. Only keys present in the body. */
  columns: Record<string, unknown>;
  /** hasMany relationship field name -> ordered distinct target ids (the join table rows). Only keys present. */
  joins: Record<string, string[]>;
  /** Present only when the body set it (drafts collections only). */
  status?: EntryStatus;
  /**
   * Every referenced id the caller must check exists, grouped by target collection slug
   * (relationship/upload fields at top level AND inside components), with the body path of each id,
   * e.g. { relationTo: 'authors', ids: [{ id, path: 'author' }, { id, path: 'blocks.2.link' }] }.
   */
  references: Array<{ relationTo: string; ids: Array<{ id: string; path: string }> }>;
}

/** `issues`: at most ENTRY_INPUT_LIMITS.issues; `omitted`: how many more problems the body has. */
export type EntryInputResult =
  { ok: true; value: EntryWrite } | { ok: false; issues: ValidationIssue[]; omitted: number };

/** The bounds of the rules above. */
export const ENTRY_INPUT_LIMITS = {
  issues: 50,
  text: 10_000,
  textarea: 1_000_000,
  email: MAX_EMAIL_LENGTH,
  selectMany: 200,
  relationships: 1_000,
  componentItems: 100,
  componentDepth: 5,
  richTextLength: 1_000_000,
  richTextDepth: 100,
  /** json fields: content documents, not the 16 KiB of a user field (the body cap is 1 MiB). */
  jsonLength: 1_000_000,
  jsonDepth: 64,
} as const;

const L = ENTRY_INPUT_LIMITS;
const READONLY_KEYS: ReadonlySet<string> = new Set(['id', 'createdAt', 'updatedAt']);
const STATUSES: readonly string[] = ['draft', 'published'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A value that failed (its issues are filed); never a cleaned value. */
const FAIL = Symbol('fail');
type Cleaned = unknown;

/** The first L.issues problems, and how many more there were (the answer's `omittedErrors`). */
class Issues {
  readonly list: ValidationIssue[] = [];
  omitted = 0;

  add(path: string, code: string, message: string): typeof FAIL {
    if (this.list.length < L.issues) {
      this.list.push({ path, code, message });
    } else {
      this.omitted++;
    }
    return FAIL;
  }
}

interface Ctx {
  opts: EntryInputOptions;
  issues: Issues;
  /** relationTo -> ids with paths, in first-seen order. */
  refs: Map<string, Array<{ id: string; path: string }>>;
}

/**
 * Checks an entry write body and answers what to write, or every problem. Create and update
 * (`existing` given) bodies, and the whole `data` object of bulk update / update-by-query (mode
 * 'update', no `existing`) follow the same rules (see the header).
 */
export function cleanEntryInput(body: unknown, opts: EntryInputOptions): EntryInputResult {
  if (!isPlainObject(body)) {
    return {
      ok: false,
      issues: [{ path: '', code: 'isObject', message: 'the entry must be a JSON object' }],
      omitted: 0,
    };
  }
  const ctx: Ctx = { opts, issues: new Issues(), refs: new Map() };
  const { issues } = ctx;
  const byName = fieldsByName(opts.fields);
  const write: EntryWrite = { columns: {}, joins: {}, references: [] };
  const enforce = requiredApplies(body, opts);

  for (const [key, raw] of Object.entries(body)) {
    if (raw === undefined) {
      continue;
    }
    if (READONLY_KEYS.has(key)) {
      issues.add(key, 'readonly', `${key} is set by the service`);
      continue;
    }
    if (key === 'status' && opts.drafts) {
      if (typeof raw === 'string' && STATUSES.includes(raw)) {
        write.status = raw as EntryStatus;
      } else {
        issues.add(key, 'isIn', 'status must be "draft" or "published"');
      }
      continue;
    }
    const field = byName.get(key);
    if (field === undefined) {
      issues.add(
        key,
        'unknown_field',
        key === 'status' ? 'status applies to collections with drafts only' : `${key} is not a field`,
      );
      continue;
    }
    const value = cleanValue(field, raw, key, 0, ctx);
    if (value === FAIL) {
      continue;
    }
    if (enforce && field.required === true && isEmptyValue(value)) {
      issues.add(key, 'required', requiredMessage(key, opts));
      continue;
    }
    store(write, field, value);
  }

  if (enforce) {
    checkMissingRequired(body, opts, issues);
  }
  if (issues.list.length > 0) {
    return { ok: false, issues: issues.list, omitted: issues.omitted };
  }
  write.references = [...ctx.refs].map(([relationTo, ids]) => ({ relationTo, ids }));
  return { ok: true, value: write };
}

// ---------------------------------------------------------------------------------------------
// required

function requiredApplies(body: Record<string, unknown>, opts: EntryInputOptions): boolean {
  if (!opts.drafts) {
    return true;
  }
  const given = ownValue(body, 'status');
  const bodyStatus = typeof given === 'string' && STATUSES.includes(given) ? given : undefined;
  if (opts.mode === 'create') {
    return (bodyStatus ?? 'draft') === 'published';
  }
  const stored = opts.existing === undefined ? undefined : ownValue(opts.existing, 'status');
  const status = bodyStatus ?? (typeof stored === 'string' && STATUSES.includes(stored) ? stored : undefined);
  // Unknown (bulk data without status): the entries may be published, so the rule holds.
  return status !== 'draft';
}

/** Required fields the body leaves out: create (no default), or update with `existing`. */
function checkMissingRequired(body: Record<string, unknown>, opts: EntryInputOptions, issues: Issues): void {
  if (opts.mode === 'update' && opts.existing === undefined) {
    return;
  }
  for (const field of opts.fields) {
    if (field.required !== true || ownValue(body, field.name) !== undefined) {
      continue;
    }
    const missing =
      opts.mode === 'create'
        ? !hasDefault(field)
        : isEmptyValue(ownValue(opts.existing as Record<string, unknown>, field.name));
    if (missing) {
      issues.add(field.name, 'required', requiredMessage(field.name, opts));
    }
  }
}

function requiredMessage(path: string, opts: EntryInputOptions): string {
  return opts.drafts ? `${path} is required to publish` : `${path} is required`;
}

/** null, undefined, "" and [] are empty; so a required field may not end up as any of them. */
function isEmptyValue(value: unknown): boolean {
  return (
    value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)
  );
}

function hasDefault(field: FieldConfig): boolean {
  const d = cleanDefault(field);
  return d.ok && d.value !== undefined;
}

// ---------------------------------------------------------------------------------------------
// Storage

/** A cleaned (JSON form) top-level value into the write: columns or join rows. */
function store(write: EntryWrite, field: FieldConfig, value: Cleaned): void {
  const name = field.name;
  if (isRelationMany(field)) {
    setOwn(write.joins, name, value as string[]);
    return;
  }
  let column: unknown = value;
  if (value !== null) {
    switch (field.type) {
      case 'select':
        column = field.hasMany === true && (value as string[]).length === 0 ? null : value;
        break;
      case 'date':
        column = new Date(value as string);
        break;
      case 'json':
      case 'richText':
      case 'component':
        column = JSON.stringify(value);
        break;
      default:
        break;
    }
  }
  setOwn(write.columns, name, column);
}

// ---------------------------------------------------------------------------------------------
// Values

/**
 * One value (not undefined) against its field: its cleaned JSON form (dates as ISO strings,
 * hasMany values as arrays, documents as copies), or FAIL with the issues filed. `depth` is the
 * component nesting of the object holding the value (0 at top level).
 */
function cleanValue(field: FieldConfig, value: unknown, path: string, depth: number, ctx: Ctx): Cleaned {
  const { issues } = ctx;
  const many = field.hasMany === true && (field.type === 'select' || field.type === 'relationship');
  if (value === null) {
    return many ? [] : null;
  }
  switch (field.type) {
    case 'text':
      return cleanText(value, path, L.text, issues);
    case 'textarea':
      return cleanText(value, path, L.textarea, issues);
    case 'email':
    case 'date': {
      const checked = checkValue({ name: path, type: field.type, required: false }, value);
      if (!checked.ok) {
        return issues.add(path, checked.code, checked.message);
      }
      if (field.type === 'date' && checked.value !== null) {
        const s = checked.value as string;
        return new Date(s.length === 10 ? `${s}T00:00:00.000Z` : s).toISOString();
      }
      return checked.value;
    }
    case 'number':
      return cleanNumber(field, value, path, issues);
    case 'checkbox':
      return typeof value === 'boolean'
        ? value
        : issues.add(path, 'isBoolean', `${path} must be true or false`);
    case 'select':
      return many ? cleanSelectMany(field, value, path, issues) : cleanSelect(field, value, path, issues);
    case 'json':
      return cleanJson(value, path, issues);
    case 'richText':
      return cleanRichText(value, path, ctx);
    case 'relationship':
    case 'upload':
      return many ? cleanRelationMany(field, value, path, ctx) : cleanRelation(field, value, path, ctx);
    case 'component':
      return cleanComponent(field, value, path, depth + 1, ctx);
    default:
      return issues.add(path, 'type', `${path} has an unsupported type`);
  }
}

function cleanText(value: unknown, path: string, max: number, issues: Issues): Cleaned {
  if (typeof value !== 'string') {
    return issues.add(path, 'isString', `${path} must be a string`);
  }
  if (value === '') {
    return null;
  }
  if (value.length > max) {
    return issues.add(path, 'maxLength', `${path} must be at most ${max} characters`);
  }
  if (!isStorableString(value)) {
    return issues.add(path, 'isString', `${path} holds characters that cannot be stored`);
  }
  return value;
}

function cleanNumber(field: FieldConfig, value: unknown, path: string, issues: Issues): Cleaned {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return issues.add(path, 'isNumber', `${path} must be a finite number`);
  }
  if (typeof field.min === 'number' && value < field.min) {
    return issues.add(path, 'min', `${path} must be at least ${field.min}`);
  }
  if (typeof field.max === 'number' && value > field.max) {
    return issues.add(path, 'max', `${path} must be at most ${field.max}`);
  }
  return Object.is(value, -0) ? 0 : value;
}

function optionSet(field: FieldConfig): Set<string> {
  return new Set((field.options ?? []).map(optionValue));
}

function optionsText(allowed: ReadonlySet<string>): string {
  return [...allowed].map((a) => JSON.stringify(a)).join(', ');
}

function cleanSelect(field: FieldConfig, value: unknown, path: string, issues: Issues): Cleaned {
  if (value === '') {
    return null;
  }
  const allowed = optionSet(field);
  if (typeof value === 'string' && allowed.has(value)) {
    return value;
  }
  return issues.add(path, 'isIn', `${path} must be one of ${optionsText(allowed)}`);
}

function cleanSelectMany(field: FieldConfig, value: unknown, path: string, issues: Issues): Cleaned {
  if (!Array.isArray(value)) {
    return issues.add(path, 'isArray', `${path} must be an array of option values`);
  }
  if (value.length > L.selectMany) {
    return issues.add(path, 'arrayMaxSize', `${path} holds at most ${L.selectMany} values`);
  }
  const allowed = optionSet(field);
  const out: string[] = [];
  const seen = new Set<string>();
  let failed = false;
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    const at = `${path}.${i}`;
    if (typeof item !== 'string' || !allowed.has(item)) {
      failed = true;
      issues.add(at, 'isIn', `${at} must be one of ${optionsText(allowed)}`);
    } else if (seen.has(item)) {
      failed = true;
      issues.add(at, 'duplicate', `${at}: "${item}" is given twice`);
    } else {
      seen.add(item);
      out.push(item);
    }
  }
  return failed ? FAIL : out;
}

const JSON_LIMITS: JsonLimits = { maxDepth: L.jsonDepth, maxLength: L.jsonLength };
const RICH_TEXT_LIMITS: JsonLimits = { maxDepth: L.richTextDepth, maxLength: L.richTextLength };

function cleanJson(value: unknown, path: string, issues: Issues): Cleaned {
  // A copy: what is checked is what is stored.
  const checked = checkJson(path, value, JSON_LIMITS);
  return checked.ok ? checked.value : issues.add(path, checked.code, checked.message);
}

function cleanRichText(value: unknown, path: string, ctx: Ctx): Cleaned {
  const { issues } = ctx;
  if (!isPlainObject(value)) {
    return issues.add(path, 'isObject', `${path} must be a rich text (Lexical JSON) object`);
  }
  // A copy: what is checked is what is stored, whatever the caller does with its object.
  const checked = checkJson(path, value, RICH_TEXT_LIMITS);
  if (!checked.ok) {
    return issues.add(path, checked.code, checked.message);
  }
  const copy = checked.value;
  let message: string | null;
  try {
    message = ctx.opts.richText(copy);
  } catch {
    message = `${path} is not a valid rich text document`;
  }
  return message === null ? copy : issues.add(path, 'richText', message);
}

/** The lower-case id of a uuid string or of an object `{ id: <uuid> }`; undefined otherwise. */
function idOf(value: unknown): string | undefined {
  const id = isPlainObject(value) ? ownValue(value, 'id') : value;
  return typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : undefined;
}

function addReference(field: FieldConfig, id: string, path: string, ctx: Ctx): void {
  const target = field.relationTo ?? '';
  let ids = ctx.refs.get(target);
  if (ids === undefined) {
    ids = [];
    ctx.refs.set(target, ids);
  }
  ids.push({ id, path });
}

function cleanRelation(field: FieldConfig, value: unknown, path: string, ctx: Ctx): Cleaned {
  const id = idOf(value);
  if (id === undefined) {
    return ctx.issues.add(path, 'isUuid', `${path} must be an entry id (a UUID) or an object with one`);
  }
  addReference(field, id, path, ctx);
  return id;
}

function cleanRelationMany(field: FieldConfig, value: unknown, path: string, ctx: Ctx): Cleaned {
  const { issues } = ctx;
  if (!Array.isArray(value)) {
    return issues.add(path, 'isArray', `${path} must be an array of entry ids`);
  }
  if (value.length > L.relationships) {
    return issues.add(path, 'arrayMaxSize', `${path} holds at most ${L.relationships} entries`);
  }
  const out: string[] = [];
  const seen = new Set<string>();
  let failed = false;
  for (let i = 0; i < value.length; i++) {
    const at = `${path}.${i}`;
    const id = idOf(value[i]);
    if (id === undefined) {
      failed = true;
      issues.add(at, 'isUuid', `${at} must be an entry id (a UUID) or an object with one`);
    } else if (seen.has(id)) {
      failed = true;
      issues.add(at, 'duplicate', `${at}: ${id} is given twice`);
    } else {
      seen.add(id);
      out.push(id);
      addReference(field, id, at, ctx);
    }
  }
  return failed ? FAIL : out;
}

/** `level`: this component's nesting (1 for a top-level field). */
function cleanComponent(field: FieldConfig, value: unknown, path: string, level: number, ctx: Ctx): Cleaned {
  const { issues } = ctx;
  if (level > L.componentDepth) {
    return issues.add(path, 'depth', `${path}: components nest at most ${L.componentDepth} levels deep`);
  }
  const group = typeof field.fieldGroup === 'string' ? ctx.opts.fieldGroup(field.fieldGroup) : undefined;
  if (group === undefined) {
    return issues.add(
      path,
      'fieldGroup',
      `${path} names an unknown field group: ${String(field.fieldGroup)}`,
    );
  }
  if (field.repeatable !== true) {
    return cleanGroupObject(group, value, path, level, ctx);
  }
  if (!Array.isArray(value)) {
    return issues.add(path, 'isArray', `${path} must be an array of objects`);
  }
  if (value.length > L.componentItems) {
    return issues.add(path, 'arrayMaxSize', `${path} holds at most ${L.componentItems} items`);
  }
  const out: unknown[] = [];
  let failed = false;
  for (let i = 0; i < value.length; i++) {
    const item = cleanGroupObject(group, value[i], `${path}.${i}`, level, ctx);
    if (item === FAIL) {
      failed = true;
    } else {
      out.push(item);
    }
  }
  return failed ? FAIL : out;
}

/** One component object against its group's fields (`level`: the component's nesting). */
function cleanGroupObject(
  group: readonly FieldConfig[],
  value: unknown,
  path: string,
  level: number,
  ctx: Ctx,
): Cleaned {
  const { issues } = ctx;
  if (!isPlainObject(value)) {
    return issues.add(path, 'isObject', `${path} must be an object`);
  }
  const byName = fieldsByName(group);
  const out: Record<string, unknown> = {};
  let failed = false;
  for (const [key, raw] of Object.entries(value)) {
    const at = `${path}.${key}`;
    const field = byName.get(key);
    if (field === undefined) {
      failed = true;
      issues.add(at, 'unknown_field', `${at} is not a field of the component`);
      continue;
    }
    if (raw === undefined) {
      continue;
    }
    const cleaned = cleanValue(field, raw, at, level, ctx);
    if (cleaned === FAIL) {
      failed = true;
    } else if (field.required === true && isEmptyValue(cleaned)) {
      failed = true;
      issues.add(at, 'required', `${at} is required`);
    } else {
      setOwn(out, key, cleaned);
    }
  }
  for (const field of group) {
    if (ownValue(value, field.name) !== undefined) {
      continue;
    }
    const fallback = defaultJson(field);
    if (fallback !== undefined) {
      setOwn(out, field.name, fallback);
    } else if (field.required === true) {
      failed = true;
      issues.add(`${path}.${field.name}`, 'required', `${path}.${field.name} is required`);
    }
  }
  return failed ? FAIL : out;
}

/** A group field's defaultValue in its cleaned JSON form, or undefined when it has none. */
function defaultJson(field: FieldConfig): unknown {
  const d = cleanDefault(field);
  if (!d.ok || d.value === undefined) {
    return undefined;
  }
  const scratch: Ctx = {
    opts: { fields: [], drafts: false, mode: 'create', fieldGroup: () => undefined, richText: () => null },
    issues: new Issues(),
    refs: new Map(),
  };
  const cleaned = cleanValue(field, d.value, field.name, 0, scratch);
  return cleaned === FAIL || isEmptyValue(cleaned) ? undefined : cleaned;
}

// ---------------------------------------------------------------------------------------------
// Helpers

function isRelationMany(field: FieldConfig): boolean {
  return field.type === 'relationship' && field.hasMany === true;
}

function fieldsByName(fields: readonly FieldConfig[]): Map<string, FieldConfig> {
  const map = new Map<string, FieldConfig>();
  for (const f of fields) {
    if (!map.has(f.name)) {
      map.set(f.name, f);
    }
  }
  return map;
}

/** An own property's value (never an inherited one such as `constructor`), else undefined. */
function ownValue(obj: Readonly<Record<string, unknown>>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

/** Sets an own data property, even for a key like `__proto__` (names are validated; belt and braces). */
function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
