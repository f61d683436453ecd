/**
 * Checks a collection (or single, or field-group) definition before it is planned or stored: the
 * slug, the field list and every type-specific rule of CONTRACTS 6. Pure: the caller passes what
 * the database knows (collection and field-group slugs), and gets every problem at once, each
 * with a `path` relative to the definition (`slug`, `fields.2.relationTo`).
 *
 * Names checked here become SQL identifiers (table `c_<slug>`, one column per field), so these
 * rules are also what keeps the generated DDL well-formed: the DDL layer still quotes everything.
 */
import type { ValidationIssue } from '../../../common/errors';
import type { FieldConfig, FieldType } from '../../../config/config.types';
import {
  checkFieldName,
  checkLabel,
  checkNameRule,
  checkOptionsFor,
  checkValue,
  type FieldNameKind,
  type FieldOption,
  isPlainObject,
  type NameRule,
  OBJECT_MEMBER_NAMES,
  optionValue,
  SLUG_PATTERN,
  SLUG_SHAPE,
  VALUE_FIELD_TYPES,
  type ValueCheck,
} from '../../../fields';

/** Every field type of CONTRACTS 6, in its order: the value types, then the content-only ones. */
export const CONTENT_FIELD_TYPES = [
  ...VALUE_FIELD_TYPES,
  'richText',
  'relationship',
  'upload',
  'component',
] as const satisfies readonly FieldType[];

// Compile-time check that the list above names every FieldType (a new type must be added here).
type MissingFieldType = Exclude<FieldType, (typeof CONTENT_FIELD_TYPES)[number]>;
const _everyFieldTypeListed: MissingFieldType extends never ? true : never = true;
void _everyFieldTypeListed;

/** Bounds on a definition: PostgreSQL allows 1,600 columns, a readable schema far fewer. */
export const MAX_FIELDS = 200;
export const MAX_FIELD_ID_LENGTH = 100;

/**
 * Slugs a collection may not take, and why:
 * - `schema`: `/collections/schema/{slug}` would shadow `/collections/{slug}`;
 * - `media`: the built-in upload collection;
 * - `entries`, `count`, `bulk-delete`, `bulk-update`, `duplicate`: the entries sub-routes' words,
 *   kept out so a path never reads two ways;
 * - `users`, `roles`, `permissions`, `settings`, `api-keys`, `email-providers`, `email-templates`:
 *   a collection registers `<action>-<slug>` permissions, and these would be the core ones
 *   (`read-users`, `update-settings`, ...), granting a role far more than the collection;
 * - the resources of the shipped plugins and account security (CONTRACTS 13, 14): `audit`
 *   (`read-audit`), `forms` and `form-submissions` (the form builder's permissions and routes),
 *   `sessions`, `webhooks` (its permissions are the service's own), and the plugin slugs `totp`, `oidc`, `passkeys`, `magic-link`, for the same reason:
 *   a collection `forms` would take over (and on delete remove) `read-forms`;
 * - the other top-level resources of the API, so no collection is named like a built-in one.
 * A collection whose permissions exist already is refused by the applier as well; this list names
 * the ones that may not exist yet (a plugin installed later seeds them).
 */
export const RESERVED_SLUGS: readonly string[] = [
  'schema',
  'media',
  'entries',
  'count',
  'bulk-delete',
  'bulk-update',
  'duplicate',
  'users',
  'roles',
  'permissions',
  'settings',
  'api-keys',
  'email-providers',
  'email-templates',
  'collections',
  'singles',
  'field-groups',
  'user-fields',
  'image-sizes',
  'general-settings',
  'email',
  'auth',
  'me',
  'dashboard',
  'journal',
  'plugins',
  'health',
  'audit',
  'forms',
  'form-submissions',
  'sessions',
  'totp',
  'oidc',
  'passkeys',
  'magic-link',
  'webhooks',
];
const RESERVED_SLUG_SET = new Set(RESERVED_SLUGS);

export function isReservedSlug(slug: string): boolean {
  return RESERVED_SLUG_SET.has(slug);
}

/**
 * Field names a content field may not take (compared case-insensitively):
 * - the entry's system keys and their columns (`id`, `createdAt`, `updatedAt`, `status`,
 *   `created_at`, `updated_at`);
 * - `and`, `or`: the query language's combinators (`where[and][0][...]`), which a field of that
 *   name would make ambiguous;
 * - Object.prototype's members, traps for any client that reads an entry as a plain object.
 */
export const RESERVED_FIELD_NAMES: readonly string[] = [
  'id',
  'createdAt',
  'updatedAt',
  'status',
  'created_at',
  'updated_at',
  'and',
  'or',
  ...OBJECT_MEMBER_NAMES,
];
const RESERVED_FIELD_SET = new Set(RESERVED_FIELD_NAMES.map((n) => n.toLowerCase()));

export function isReservedFieldName(name: string): boolean {
  return RESERVED_FIELD_SET.has(name.toLowerCase());
}

const CONTENT_FIELD_NAMES: FieldNameKind = {
  nullIsMissing: true,
  reserved: (name) =>
    isReservedFieldName(name) ? 'is reserved (a system column, a query keyword or an object built-in)' : null,
};

/**
 * The keys a field object may carry: CONTRACTS 6, `min` / `max` (its "number ranges if given") and
 * the stable `id` the planner pairs by.
 */
const FIELD_KEYS = new Set([
  'id',
  'name',
  'type',
  'label',
  'required',
  'unique',
  'index',
  'defaultValue',
  'options',
  'min',
  'max',
  'hasMany',
  'relationTo',
  'fieldGroup',
  'repeatable',
]);

/** Types whose values have no useful equality, so `unique` means nothing (CONTRACTS 6). */
const NO_UNIQUE: ReadonlySet<FieldType> = new Set(['json', 'richText', 'component']);
/** Types a plain index does not serve: documents that are read whole, never filtered on. */
const NO_INDEX: ReadonlySet<FieldType> = new Set(['richText', 'component']);
/**
 * Types without a `defaultValue`: an entry id as a default breaks when that entry goes, and a
 * component's defaults belong to its field group.
 */
const NO_DEFAULT: ReadonlySet<FieldType> = new Set(['relationship', 'upload', 'component']);

export interface DefinitionInput {
  slug?: unknown;
  fields?: unknown;
  drafts?: unknown;
}

export interface ValidationContext {
  /** Slugs `relationTo` may name (the definition's own slug counts too: self-references). */
  knownCollections: readonly string[];
  /** Slugs `fieldGroup` may name. */
  knownFieldGroups: readonly string[];
  /**
   * The slug is that of a stored definition (a change, not a create): reserved words are not
   * applied, so a definition whose slug was reserved after it was created can still be changed.
   */
  storedSlug?: boolean;
}

/**
 * Every problem of a definition, in a fixed order (slug, drafts, fields in order, each field's
 * keys in a fixed order); empty when it is valid. Uniqueness of the slug among existing
 * collections is the caller's (it knows whether this is a create or an update).
 */
export function validateDefinition(def: DefinitionInput, ctx: ValidationContext): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const slug = checkSlug(def.slug, ctx.storedSlug === true, issues);
  if (def.drafts !== undefined && typeof def.drafts !== 'boolean') {
    issues.push({ path: 'drafts', code: 'isBoolean', message: 'drafts must be a boolean' });
  }
  const collections = new Set(ctx.knownCollections);
  if (slug !== undefined) {
    collections.add(slug);
  }
  checkFields(def.fields, { collections, fieldGroups: new Set(ctx.knownFieldGroups) }, issues);
  return issues;
}

function checkSlug(value: unknown, stored: boolean, issues: ValidationIssue[]): string | undefined {
  const rule: NameRule = {
    key: 'slug',
    pattern: SLUG_PATTERN,
    shape: SLUG_SHAPE,
    nullIsMissing: true,
    refuse: (slug) => {
      // `a--b` would be table c_a__b, the join table of field `b` of collection `a`.
      if (slug.includes('--')) {
        return { code: 'matches', message: 'slug must not hold two hyphens in a row' };
      }
      return !stored && isReservedSlug(slug)
        ? { code: 'reserved', message: `slug "${slug}" is reserved by the API` }
        : null;
    },
  };
  return checkNameRule(value, 'slug', rule, issues);
}

interface Known {
  collections: ReadonlySet<string>;
  fieldGroups: ReadonlySet<string>;
}

function checkFields(value: unknown, known: Known, issues: ValidationIssue[]): void {
  if (value === undefined || value === null) {
    issues.push({ path: 'fields', code: 'required', message: 'fields is required' });
    return;
  }
  if (!Array.isArray(value)) {
    issues.push({ path: 'fields', code: 'isArray', message: 'fields must be an array' });
    return;
  }
  if (value.length > MAX_FIELDS) {
    issues.push({
      path: 'fields',
      code: 'arrayMaxSize',
      message: `a definition holds at most ${MAX_FIELDS} fields`,
    });
    return;
  }
  const names = new Map<string, number>();
  const ids = new Map<string, number>();
  value.forEach((raw: unknown, i) => {
    const at = `fields.${i}`;
    if (!isPlainObject(raw)) {
      issues.push({ path: at, code: 'isObject', message: `${at} must be a field object` });
      return;
    }
    const name = checkField(raw, at, known, issues);
    if (name !== undefined) {
      const lower = name.toLowerCase();
      const first = names.get(lower);
      if (first !== undefined) {
        issues.push({
          path: `${at}.name`,
          code: 'duplicate',
          message: `the name "${name}" is already used by fields.${first} (names are compared ignoring case)`,
        });
      } else {
        names.set(lower, i);
      }
    }
    if (typeof raw.id === 'string') {
      const first = ids.get(raw.id);
      if (first !== undefined) {
        issues.push({
          path: `${at}.id`,
          code: 'duplicate',
          message: `the id "${raw.id}" is already used by fields.${first}`,
        });
      } else {
        ids.set(raw.id, i);
      }
    }
  });
}

/** Checks one field object; answers its name when the name itself is valid. */
function checkField(
  field: Record<string, unknown>,
  at: string,
  known: Known,
  issues: ValidationIssue[],
): string | undefined {
  for (const key of Object.keys(field)) {
    if (!FIELD_KEYS.has(key)) {
      issues.push({ path: `${at}.${key}`, code: 'unknown_field', message: `a field has no "${key}" key` });
    }
  }
  if (field.id !== undefined && !isFieldId(field.id)) {
    issues.push({
      path: `${at}.id`,
      code: 'isString',
      message: `id must be a non-empty string of at most ${MAX_FIELD_ID_LENGTH} characters`,
    });
  }
  const name = checkFieldName(field.name, `${at}.name`, CONTENT_FIELD_NAMES, issues);
  const type = checkFieldType(field.type, `${at}.type`, issues);
  if (field.label !== undefined) {
    prefixed(`${at}.`, issues, (sink) => checkLabel(field.label, sink));
  }
  for (const key of ['required', 'unique', 'index', 'hasMany', 'repeatable'] as const) {
    if (field[key] !== undefined && typeof field[key] !== 'boolean') {
      issues.push({ path: `${at}.${key}`, code: 'isBoolean', message: `${key} must be a boolean` });
    }
  }
  if (type === undefined) {
    return name;
  }

  let optionsOk = true;
  if (type === 'select') {
    // The user-field rules: 1 to 200 options, strings or { label, value }, values unique.
    const before = issues.length;
    prefixed(`${at}.`, issues, (sink) => checkOptionsFor('select', field.options, sink));
    checkOptionValuesTrimmed(field.options, `${at}.options`, issues);
    optionsOk = issues.length === before;
  } else if (field.options !== undefined && field.options !== null) {
    issues.push({
      path: `${at}.options`,
      code: 'notAllowed',
      message: 'options apply to select fields only',
    });
  }

  const range = checkRange(field, type, at, issues);

  if (field.hasMany === true && type !== 'select' && type !== 'relationship') {
    issues.push({
      path: `${at}.hasMany`,
      code: 'notAllowed',
      message: 'hasMany applies to select and relationship fields only',
    });
  }
  if (field.repeatable === true && type !== 'component') {
    issues.push({
      path: `${at}.repeatable`,
      code: 'notAllowed',
      message: 'repeatable applies to component fields only',
    });
  }

  const needsTarget = type === 'relationship' || type === 'upload';
  checkReference(field.relationTo, `${at}.relationTo`, needsTarget, known.collections, 'collection', issues);
  checkReference(
    field.fieldGroup,
    `${at}.fieldGroup`,
    type === 'component',
    known.fieldGroups,
    'field group',
    issues,
  );

  if (field.unique === true && (NO_UNIQUE.has(type) || field.hasMany === true)) {
    issues.push({
      path: `${at}.unique`,
      code: 'notAllowed',
      message:
        field.hasMany === true
          ? 'unique does not apply to hasMany fields'
          : `unique does not apply to ${type} fields`,
    });
  }
  if (field.index === true && NO_INDEX.has(type)) {
    issues.push({ path: `${at}.index`, code: 'notAllowed', message: `${type} fields cannot be indexed` });
  }

  if (field.defaultValue !== undefined && field.defaultValue !== null && optionsOk) {
    if (NO_DEFAULT.has(type)) {
      issues.push({
        path: `${at}.defaultValue`,
        code: 'notAllowed',
        message: `${type} fields take no defaultValue`,
      });
    } else {
      const options = Array.isArray(field.options) ? (field.options as FieldOption[]) : [];
      const checked = cleanDefault({
        name: name ?? 'defaultValue',
        type,
        hasMany: field.hasMany === true,
        options,
        defaultValue: field.defaultValue,
      });
      if (!checked.ok) {
        issues.push({ path: `${at}.defaultValue`, code: checked.code, message: checked.message });
      } else if (typeof checked.value === 'number') {
        checkDefaultInRange(checked.value, range, `${at}.defaultValue`, issues);
      }
    }
  }
  return name;
}

interface Range {
  min?: number;
  max?: number;
}

/**
 * `min` / `max` (CONTRACTS 6 "number ranges if given"): number fields only, finite numbers, min <=
 * max. Absent or null means no bound. Answers the valid bounds (for the defaultValue check).
 */
function checkRange(
  field: Record<string, unknown>,
  type: FieldType,
  at: string,
  issues: ValidationIssue[],
): Range {
  const range: Range = {};
  for (const key of ['min', 'max'] as const) {
    const value = field[key];
    if (value === undefined || value === null) {
      continue;
    }
    if (type !== 'number') {
      issues.push({
        path: `${at}.${key}`,
        code: 'notAllowed',
        message: `${key} applies to number fields only`,
      });
    } else if (typeof value !== 'number' || !Number.isFinite(value)) {
      issues.push({ path: `${at}.${key}`, code: 'isNumber', message: `${key} must be a finite number` });
    } else {
      range[key] = value;
    }
  }
  if (range.min !== undefined && range.max !== undefined && range.min > range.max) {
    issues.push({ path: `${at}.min`, code: 'min', message: 'min must not be greater than max' });
    return {};
  }
  return range;
}

/** A number defaultValue lies within the field's own range (else issue `min` / `max`). */
function checkDefaultInRange(value: number, range: Range, path: string, issues: ValidationIssue[]): void {
  if (range.min !== undefined && value < range.min) {
    issues.push({ path, code: 'min', message: `defaultValue must be at least min (${range.min})` });
  } else if (range.max !== undefined && value > range.max) {
    issues.push({ path, code: 'max', message: `defaultValue must be at most max (${range.max})` });
  }
}

function checkFieldType(value: unknown, path: string, issues: ValidationIssue[]): FieldType | undefined {
  if (value === undefined || value === null) {
    issues.push({ path, code: 'required', message: 'type is required' });
    return undefined;
  }
  if (typeof value !== 'string' || !(CONTENT_FIELD_TYPES as readonly string[]).includes(value)) {
    issues.push({ path, code: 'isIn', message: `type must be one of ${CONTENT_FIELD_TYPES.join(', ')}` });
    return undefined;
  }
  return value as FieldType;
}

/** `relationTo` / `fieldGroup`: required by some types, refused by the others, always a known slug. */
function checkReference(
  value: unknown,
  path: string,
  needed: boolean,
  known: ReadonlySet<string>,
  what: 'collection' | 'field group',
  issues: ValidationIssue[],
): void {
  const key = path.slice(path.lastIndexOf('.') + 1);
  const absent = value === undefined || value === null;
  if (!needed) {
    if (!absent) {
      const types = what === 'collection' ? 'relationship and upload fields' : 'component fields';
      issues.push({ path, code: 'notAllowed', message: `${key} applies to ${types} only` });
    }
    return;
  }
  if (absent) {
    issues.push({ path, code: 'required', message: `${key} is required (a ${what} slug)` });
    return;
  }
  if (typeof value !== 'string') {
    issues.push({ path, code: 'isString', message: `${key} must be a ${what} slug` });
    return;
  }
  if (!known.has(value)) {
    issues.push({
      path,
      code: what === 'collection' ? 'unknown_collection' : 'unknown_field_group',
      message: `${key} names no known ${what}: "${value}"`,
    });
  }
}

/**
 * The user-field check trims option values as it reads them; a definition is stored as given, so
 * here a value must already be trimmed: the select CHECK, the stored values and the options the
 * entry validator compares against are then one and the same string.
 */
function checkOptionValuesTrimmed(options: unknown, path: string, issues: ValidationIssue[]): void {
  if (!Array.isArray(options)) {
    return;
  }
  options.forEach((o: unknown, i) => {
    const value = typeof o === 'string' ? o : isPlainObject(o) ? o.value : undefined;
    if (typeof value === 'string' && value.trim() !== value && value.trim() !== '') {
      issues.push({
        path: typeof o === 'string' ? `${path}.${i}` : `${path}.${i}.value`,
        code: 'trimmed',
        message: 'an option value must not start or end with whitespace',
      });
    }
  });
}

function isFieldId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_FIELD_ID_LENGTH;
}

/** Runs a user-field check (paths relative to the field) and files its issues under `prefix`. */
function prefixed(
  prefix: string,
  issues: ValidationIssue[],
  check: (sink: ValidationIssue[]) => unknown,
): void {
  const sink: ValidationIssue[] = [];
  check(sink);
  for (const issue of sink) {
    issues.push({ ...issue, path: `${prefix}${issue.path}` });
  }
}

// ---------------------------------------------------------------------------------------------
// Default values

export type DefaultCheck = ValueCheck;

/**
 * A field's `defaultValue`, checked against its type and cleaned the way an entry value of that
 * type is (strings trimmed, dates normalised). `value: undefined` when there is no default (absent,
 * null, a blank string, JSON null). Shared by validation and the DDL, so the column DEFAULT is
 * exactly the value validation accepted:
 * - text, textarea, email, number, checkbox, date, single select, json: the entry value rules of
 *   the user fields (a number must be a JSON number here, not a numeric string);
 * - hasMany select: an array of distinct option values;
 * - richText: a JSON object (a Lexical document);
 * - relationship, upload, component: no default.
 */
export function cleanDefault(
  field: Pick<FieldConfig, 'name' | 'type' | 'hasMany' | 'options' | 'defaultValue'>,
): DefaultCheck {
  const value = field.defaultValue;
  if (value === undefined || value === null) {
    return { ok: true, value: undefined };
  }
  const name = 'defaultValue';
  switch (field.type) {
    case 'relationship':
    case 'upload':
    case 'component':
      return { ok: false, code: 'notAllowed', message: `${field.type} fields take no defaultValue` };
    case 'number':
      if (typeof value !== 'number') {
        return { ok: false, code: 'isNumber', message: `${name} must be a finite number` };
      }
      break;
    case 'select':
      if (field.hasMany === true) {
        return cleanManyDefault(value, (field.options ?? []).map(optionValue));
      }
      break;
    case 'richText':
      if (!isPlainObject(value)) {
        return { ok: false, code: 'isObject', message: `${name} must be a rich text (Lexical JSON) object` };
      }
      return cleanJson(value);
    case 'json':
      return cleanJson(value);
    default:
      break;
  }
  const checked = checkValue({ name, type: field.type, required: false, options: field.options }, value);
  if (!checked.ok) {
    return checked;
  }
  return { ok: true, value: checked.value === null ? undefined : checked.value };
}

function cleanJson(value: unknown): DefaultCheck {
  const checked = checkValue({ name: 'defaultValue', type: 'json', required: false }, value);
  if (!checked.ok) {
    return checked;
  }
  return { ok: true, value: checked.value === null ? undefined : checked.value };
}

function cleanManyDefault(value: unknown, allowed: string[]): DefaultCheck {
  const message = `defaultValue must be an array of distinct values among ${allowed
    .map((a) => JSON.stringify(a))
    .join(', ')}`;
  if (!Array.isArray(value)) {
    return { ok: false, code: 'isArray', message };
  }
  const seen = new Set<string>();
  for (const item of value) {
    if (typeof item !== 'string' || !allowed.includes(item) || seen.has(item)) {
      return { ok: false, code: 'isIn', message };
    }
    seen.add(item);
  }
  return { ok: true, value: [...value] as string[] };
}
