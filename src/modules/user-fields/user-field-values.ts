/**
 * User-field definitions and values: the rules, as pure functions (no Nest, no TypeORM), so they
 * are unit-tested in milliseconds and shared by the boot check of `users.fields`, the REST
 * definitions and the value validation the accounts module calls.
 */
import { isEmail } from 'class-validator';
import type { ValidationIssue } from '../../common/errors';

/** The field types a user field may have (CONTRACTS 6 minus the content-only ones). */
export const USER_FIELD_TYPES = [
  'text',
  'textarea',
  'email',
  'number',
  'checkbox',
  'date',
  'select',
  'json',
] as const;
export type UserFieldType = (typeof USER_FIELD_TYPES)[number];

export type UserFieldOption = string | { label: string; value: string };

/** The user-field definition record (CONTRACTS 12). `options` is present for `select` only. */
export interface UserFieldDefinition {
  id: string;
  name: string;
  type: UserFieldType;
  label: string;
  required: boolean;
  options?: UserFieldOption[];
  order: number;
  source: 'code' | 'ui';
}

/** What the rules need of a definition (a config entry has no id or order yet). */
export type FieldRules = Pick<UserFieldDefinition, 'name' | 'type' | 'required' | 'options'>;

export const USER_FIELD_NAME = /^[a-zA-Z][a-zA-Z0-9_]{0,62}$/;

/**
 * Names a user field may not take: the user record's and the session user's own keys, the keys
 * the user bodies accept beside custom values (`POST /users`, `PATCH /users/{id}`, `PATCH /me`),
 * the account's stored state under its code and column names (a custom `passwordHash` would be
 * echoed next to the record and read by anyone who merges the two), the access token's claim
 * names (custom fields of the config travel as claims), and the names of Object.prototype
 * members, which are traps for any client that reads a record as a plain object.
 *
 * Compared folded (`foldName`): case, `_` and `-` do not count, so `password_hash`,
 * `PasswordHash` and `passwordhash` are one name.
 */
export const RESERVED_USER_FIELD_NAMES: readonly string[] = [
  // user record and session user (CONTRACTS 4)
  'id',
  'email',
  'name',
  'image',
  'isActive',
  'emailVerified',
  'roles',
  'roleIds',
  'lastLoginAt',
  'createdAt',
  'updatedAt',
  // other keys of the user bodies
  'password',
  'requirePasswordChange',
  'sendInvite',
  // the account's stored state (users table and its row type; the columns fold to the same)
  'passwordHash',
  'emailVerifiedAt',
  'failedLoginCount',
  'lockedUntil',
  'mustChangePassword',
  'custom',
  'password_hash',
  'email_verified_at',
  'is_active',
  'failed_login_count',
  'locked_until',
  'must_change_password',
  'last_login_at',
  'created_at',
  'updated_at',
  // JWT claims (RFC 7519 registered ones, `ver`, `sid`, and `typ` of the header)
  'sub',
  'ver',
  'iat',
  'exp',
  'nbf',
  'iss',
  'aud',
  'typ',
  'jti',
  'sid',
  // Object.prototype
  'constructor',
  'prototype',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'toString',
  'valueOf',
];

/** A name as the reserved list is compared: lower case, without `_` and `-`. */
export function foldName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

const RESERVED = new Set(RESERVED_USER_FIELD_NAMES.map(foldName));

export function isReservedUserFieldName(name: string): boolean {
  return RESERVED.has(foldName(name));
}

/** Limits on definitions. */
export const MAX_LABEL_LENGTH = 200;
export const MAX_OPTIONS = 200;
export const MAX_OPTION_LENGTH = 200;

/** Limits on values: they live in the users row, which every session read loads. */
export const MAX_TEXT_LENGTH = 1000;
export const MAX_TEXTAREA_LENGTH = 10_000;
export const MAX_EMAIL_LENGTH = 320;
/** A `json` value, serialised. */
export const MAX_JSON_LENGTH = 16_384;
export const MAX_JSON_DEPTH = 32;

/** `phoneNumber` / `phone_number` -> `Phone number`; the label of a field defined without one. */
export function humanizeName(name: string): string {
  const words = name
    .replace(/_+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .split(/\s+/)
    .map((w) => (w.length > 1 && w === w.toUpperCase() ? w : w.toLowerCase()));
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function optionValue(o: UserFieldOption): string {
  return typeof o === 'string' ? o : o.value;
}

// ---------------------------------------------------------------------------------------------
// Definitions

/** A definition as given (a config entry or a REST body), before it is trusted. */
export interface DefinitionInput {
  name?: unknown;
  type?: unknown;
  label?: unknown;
  required?: unknown;
  options?: unknown;
}

export interface CleanDefinition {
  name: string;
  type: UserFieldType;
  label: string;
  required: boolean;
  options: UserFieldOption[] | null;
}

/**
 * Checks a whole definition: name (pattern, not reserved), type (a user-field type), label,
 * required, options (select only, and required there). Options are trimmed; the label defaults to
 * the humanised name. Every problem is one issue, `path` relative to the definition.
 */
export function checkDefinition(input: DefinitionInput): {
  definition?: CleanDefinition;
  errors: ValidationIssue[];
} {
  const errors: ValidationIssue[] = [];
  const name = checkName(input.name, errors);
  const type = checkType(input.type, errors);
  let label: string | undefined;
  if (input.label !== undefined) {
    label = checkLabel(input.label, errors);
  }
  if (input.required !== undefined && typeof input.required !== 'boolean') {
    errors.push({ path: 'required', code: 'isBoolean', message: 'required must be a boolean' });
  }
  const options = type ? checkOptionsFor(type, input.options, errors) : null;
  if (errors.length || name === undefined || type === undefined) {
    return { errors };
  }
  return {
    definition: {
      name,
      type,
      label: label ?? humanizeName(name),
      required: input.required === true,
      options,
    },
    errors,
  };
}

export function checkName(value: unknown, errors: ValidationIssue[]): string | undefined {
  if (value === undefined) {
    errors.push({ path: 'name', code: 'required', message: 'name is required' });
    return undefined;
  }
  if (typeof value !== 'string') {
    errors.push({ path: 'name', code: 'isString', message: 'name must be a string' });
    return undefined;
  }
  if (!USER_FIELD_NAME.test(value)) {
    errors.push({
      path: 'name',
      code: 'matches',
      message: 'name must start with a letter and hold only letters, digits and _ (at most 63 characters)',
    });
    return undefined;
  }
  if (isReservedUserFieldName(value)) {
    errors.push({
      path: 'name',
      code: 'reserved',
      message: `name "${value}" is taken by a core user field or token claim`,
    });
    return undefined;
  }
  return value;
}

export function checkType(value: unknown, errors: ValidationIssue[]): UserFieldType | undefined {
  if (value === undefined) {
    errors.push({ path: 'type', code: 'required', message: 'type is required' });
    return undefined;
  }
  if (typeof value !== 'string' || !(USER_FIELD_TYPES as readonly string[]).includes(value)) {
    errors.push({
      path: 'type',
      code: 'isIn',
      message: `type must be one of ${USER_FIELD_TYPES.join(', ')} (user fields support no other type)`,
    });
    return undefined;
  }
  return value as UserFieldType;
}

export function checkLabel(value: unknown, errors: ValidationIssue[]): string | undefined {
  if (typeof value !== 'string') {
    errors.push({ path: 'label', code: 'isString', message: 'label must be a string' });
    return undefined;
  }
  const label = value.trim();
  if (!label) {
    errors.push({ path: 'label', code: 'isNotEmpty', message: 'label must not be empty' });
    return undefined;
  }
  if (label.length > MAX_LABEL_LENGTH || !isStorableString(label)) {
    errors.push({
      path: 'label',
      code: 'maxLength',
      message: `label must be at most ${MAX_LABEL_LENGTH} characters of text`,
    });
    return undefined;
  }
  return label;
}

/**
 * Options for a field of this type: a `select` needs 1 to 200 options (strings or
 * `{ label, value }`, values unique); any other type takes none (absent or null).
 */
export function checkOptionsFor(
  type: UserFieldType,
  value: unknown,
  errors: ValidationIssue[],
): UserFieldOption[] | null {
  if (type !== 'select') {
    if (value !== undefined && value !== null) {
      errors.push({ path: 'options', code: 'notAllowed', message: `options apply to select fields only` });
    }
    return null;
  }
  if (value === undefined || value === null) {
    errors.push({ path: 'options', code: 'required', message: 'a select field needs options' });
    return null;
  }
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_OPTIONS) {
    errors.push({
      path: 'options',
      code: 'isArray',
      message: `options must be an array of 1 to ${MAX_OPTIONS} strings or { label, value } objects`,
    });
    return null;
  }
  const out: UserFieldOption[] = [];
  const seen = new Set<string>();
  const before = errors.length;
  value.forEach((raw: unknown, i) => {
    const path = `options.${i}`;
    let option: UserFieldOption | undefined;
    if (typeof raw === 'string') {
      const v = optionText(raw, path, errors);
      option = v;
    } else if (isPlainObject(raw)) {
      const extra = Object.keys(raw).filter((k) => k !== 'label' && k !== 'value');
      for (const k of extra) {
        errors.push({
          path: `${path}.${k}`,
          code: 'unknown_field',
          message: `an option has only label and value`,
        });
      }
      const v = optionText(raw.value, `${path}.value`, errors);
      const l = optionText(raw.label, `${path}.label`, errors);
      option = v !== undefined && l !== undefined ? { label: l, value: v } : undefined;
    } else {
      errors.push({ path, code: 'isOption', message: 'an option must be a string or { label, value }' });
    }
    if (option !== undefined) {
      const v = optionValue(option);
      if (seen.has(v)) {
        errors.push({ path, code: 'duplicate', message: `the option value "${v}" is given twice` });
      }
      seen.add(v);
      out.push(option);
    }
  });
  return errors.length > before ? null : out;
}

function optionText(value: unknown, path: string, errors: ValidationIssue[]): string | undefined {
  if (typeof value !== 'string') {
    errors.push({ path, code: 'isString', message: `${path} must be a string` });
    return undefined;
  }
  const v = value.trim();
  if (!v || v.length > MAX_OPTION_LENGTH || !isStorableString(v)) {
    errors.push({
      path,
      code: 'length',
      message: `${path} must be 1 to ${MAX_OPTION_LENGTH} characters of text`,
    });
    return undefined;
  }
  return v;
}

/** Keys of a config field entry (CONTRACTS 6) that mean nothing for a user field. */
const CONTENT_ONLY_KEYS = [
  'unique',
  'index',
  'defaultValue',
  'hasMany',
  'relationTo',
  'fieldGroup',
  'repeatable',
];

/**
 * Checks `users.fields` of the config: each entry as a definition, no key a user field cannot
 * honour (`unique: true` silently ignored would be a lie), names unique (case-insensitively).
 * Answers the clean definitions in config order, or the problems, each naming its entry.
 */
export function checkConfigFields(fields: unknown): { definitions: CleanDefinition[]; problems: string[] } {
  const problems: string[] = [];
  const definitions: CleanDefinition[] = [];
  if (fields === undefined || fields === null) {
    return { definitions, problems };
  }
  if (!Array.isArray(fields)) {
    return { definitions, problems: ['users.fields must be an array'] };
  }
  const seen = new Map<string, string>();
  fields.forEach((entry: unknown, i) => {
    if (!isPlainObject(entry)) {
      problems.push(`users.fields[${i}] must be a field object`);
      return;
    }
    const where = `users.fields[${i}]${typeof entry.name === 'string' ? ` ("${entry.name}")` : ''}`;
    for (const key of CONTENT_ONLY_KEYS) {
      if (entry[key] !== undefined && entry[key] !== false) {
        problems.push(`${where}: "${key}" is not supported on user fields`);
      }
    }
    const { definition, errors } = checkDefinition(entry);
    for (const e of errors) {
      problems.push(`${where}: ${e.message}`);
    }
    if (definition) {
      const lower = definition.name.toLowerCase();
      const earlier = seen.get(lower);
      if (earlier !== undefined) {
        problems.push(`${where}: the name is already used by "${earlier}"`);
      } else {
        seen.set(lower, definition.name);
        definitions.push(definition);
      }
    }
  });
  return { definitions, problems };
}

// ---------------------------------------------------------------------------------------------
// Values

export type ValueCheck = { ok: true; value: unknown } | { ok: false; code: string; message: string };

/** Empty: null, or a string that is blank once trimmed. A required field may never become empty. */
function isEmpty(value: unknown): boolean {
  return value === null || (typeof value === 'string' && value.trim() === '');
}

/**
 * One value against its field: the cleaned value (trimmed strings, numbers as numbers, dates
 * normalised), or why it is refused. Empty values (null, blank strings) become null; whether
 * null is allowed is decided by the caller (required).
 */
export function checkValue(field: FieldRules, value: unknown): ValueCheck {
  if (isEmpty(value) && field.type !== 'json') {
    return { ok: true, value: null };
  }
  switch (field.type) {
    case 'text':
      return checkString(field.name, value, MAX_TEXT_LENGTH);
    case 'textarea':
      return checkString(field.name, value, MAX_TEXTAREA_LENGTH);
    case 'email': {
      const s = checkString(field.name, value, MAX_EMAIL_LENGTH);
      if (!s.ok) {
        return s;
      }
      return isEmail(s.value as string)
        ? s
        : { ok: false, code: 'isEmail', message: `${field.name} must be an email address` };
    }
    case 'number':
      return checkNumber(field.name, value);
    case 'checkbox':
      return typeof value === 'boolean'
        ? { ok: true, value }
        : { ok: false, code: 'isBoolean', message: `${field.name} must be true or false` };
    case 'date':
      return checkDate(field.name, value);
    case 'select': {
      const allowed = (field.options ?? []).map(optionValue);
      const v = typeof value === 'string' ? value.trim() : undefined;
      return v !== undefined && allowed.includes(v)
        ? { ok: true, value: v }
        : {
            ok: false,
            code: 'isIn',
            message: `${field.name} must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}`,
          };
    }
    case 'json':
      return checkJson(field.name, value);
    default:
      return { ok: false, code: 'type', message: `${field.name} has an unsupported type` };
  }
}

function checkString(name: string, value: unknown, max: number): ValueCheck {
  if (typeof value !== 'string') {
    return { ok: false, code: 'isString', message: `${name} must be a string` };
  }
  const v = value.trim();
  if (v.length > max) {
    return { ok: false, code: 'maxLength', message: `${name} must be at most ${max} characters` };
  }
  if (!isStorableString(v)) {
    return { ok: false, code: 'isString', message: `${name} holds characters that cannot be stored` };
  }
  return { ok: true, value: v };
}

const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A JSON number, or a string holding a plain decimal number (what a form input sends). */
function checkNumber(name: string, value: unknown): ValueCheck {
  let n: number | undefined;
  if (typeof value === 'number') {
    n = value;
  } else if (typeof value === 'string' && DECIMAL.test(value.trim())) {
    n = Number(value.trim());
  }
  if (n === undefined || !Number.isFinite(n)) {
    return { ok: false, code: 'isNumber', message: `${name} must be a finite number` };
  }
  return { ok: true, value: Object.is(n, -0) ? 0 : n };
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

/**
 * `YYYY-MM-DD` stays a calendar date (no time zone to shift it); a date-time with a zone (`Z` or
 * an offset) becomes UTC `YYYY-MM-DDTHH:mm:ss.sssZ`. A date-time without a zone is ambiguous and
 * refused, as are impossible dates (2023-02-30) and years outside 0000-9999.
 */
function checkDate(name: string, value: unknown): ValueCheck {
  const bad: ValueCheck = {
    ok: false,
    code: 'isDate',
    message: `${name} must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone`,
  };
  if (typeof value !== 'string') {
    return bad;
  }
  const s = value.trim();
  const d = DATE_ONLY.exec(s);
  if (d) {
    return validCalendarDate(+d[1], +d[2], +d[3]) ? { ok: true, value: s } : bad;
  }
  const t = DATE_TIME.exec(s);
  if (!t) {
    return bad;
  }
  const [y, mo, day, h, mi] = [+t[1], +t[2], +t[3], +t[4], +t[5]];
  const sec = t[6] === undefined ? 0 : +t[6];
  const ms = t[7] === undefined ? 0 : Math.floor(Number(`0.${t[7]}`) * 1000);
  if (!validCalendarDate(y, mo, day) || h > 23 || mi > 59 || sec > 59) {
    return bad;
  }
  let offsetMinutes = 0;
  if (!t[8]) {
    const oh = +t[10];
    const om = +t[11];
    if (oh > 23 || om > 59) {
      return bad;
    }
    offsetMinutes = (t[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, day);
  date.setUTCHours(h, mi, sec, ms);
  const utc = new Date(date.getTime() - offsetMinutes * 60_000);
  const year = utc.getUTCFullYear();
  if (year < 0 || year > 9999) {
    return bad;
  }
  return { ok: true, value: utc.toISOString() };
}

function validCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) {
    return false;
  }
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/**
 * Any JSON value (null, booleans, finite numbers, strings, arrays, plain objects), at most 32
 * levels deep and 16 KiB serialised. Strings (and keys) PostgreSQL's jsonb cannot hold (NUL,
 * unpaired surrogates) are refused here rather than failing in the database.
 */
function checkJson(name: string, value: unknown): ValueCheck {
  const problem = jsonProblem(value, 0);
  if (problem) {
    return { ok: false, code: 'isJson', message: `${name} ${problem}` };
  }
  const text = JSON.stringify(value);
  if (text.length > MAX_JSON_LENGTH) {
    return {
      ok: false,
      code: 'maxLength',
      message: `${name} must be at most ${MAX_JSON_LENGTH} characters as JSON`,
    };
  }
  // A copy: the caller's object can change after validation without changing what is stored.
  return { ok: true, value: JSON.parse(text) as unknown };
}

function jsonProblem(value: unknown, depth: number): string | null {
  if (depth > MAX_JSON_DEPTH) {
    return `must be at most ${MAX_JSON_DEPTH} levels deep`;
  }
  if (value === null || typeof value === 'boolean') {
    return null;
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? null : 'must hold finite numbers only';
  }
  if (typeof value === 'string') {
    return isStorableString(value) ? null : 'holds characters that cannot be stored';
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const p = jsonProblem(item, depth + 1);
      if (p) {
        return p;
      }
    }
    return null;
  }
  if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (!isStorableString(k)) {
        return 'holds a key that cannot be stored';
      }
      const p = jsonProblem(v, depth + 1);
      if (p) {
        return p;
      }
    }
    return null;
  }
  return 'must be a JSON value';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** PostgreSQL text and jsonb cannot hold NUL, and jsonb refuses unpaired UTF-16 surrogates. */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isStorableString(s: string): boolean {
  return !s.includes('\u0000') && !UNPAIRED_SURROGATE.test(s);
}

export interface ValuesResult {
  /** The cleaned values of the keys given (nothing for absent keys). */
  values: Record<string, unknown>;
  /** One entry per problem, `path` the field name; empty when the input is valid. */
  errors: ValidationIssue[];
}

/**
 * Validates custom field values against the definitions. Keys that name no field are
 * `unknown_field`; each value is checked by its field's type; a required field may never be set
 * to null or blank; and unless `partial`, every required field must be given. Problems are
 * reported in the input's key order, then missing required fields in definition order.
 */
export function validateValues(
  fields: readonly FieldRules[],
  input: unknown,
  opts: { partial: boolean },
): ValuesResult {
  const errors: ValidationIssue[] = [];
  const values: Record<string, unknown> = {};
  if (!isPlainObject(input)) {
    errors.push({ path: '', code: 'isObject', message: 'custom field values must be an object' });
    return { values, errors };
  }
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const [key, raw] of Object.entries(input)) {
    const field = byName.get(key);
    if (!field) {
      errors.push({ path: key, code: 'unknown_field', message: `${key} is not a user field` });
      continue;
    }
    if (raw === undefined) {
      continue;
    }
    const checked = checkValue(field, raw);
    if (!checked.ok) {
      errors.push({ path: key, code: checked.code, message: checked.message });
    } else if (checked.value === null && field.required) {
      errors.push({ path: key, code: 'required', message: `${key} is required and cannot be empty` });
    } else {
      values[key] = checked.value;
    }
  }
  if (!opts.partial) {
    for (const field of fields) {
      const given = Object.prototype.hasOwnProperty.call(input, field.name) ? input[field.name] : undefined;
      if (field.required && given === undefined) {
        errors.push({ path: field.name, code: 'required', message: `${field.name} is required` });
      }
    }
  }
  return { values, errors };
}

/**
 * The stored values of the given fields, every field present (null when it has no value, or when
 * the stored value does not fit the field as it is defined now: a changed type, a removed select
 * option). Keys of fields no longer defined are left out.
 */
export function presentValues(
  fields: readonly FieldRules[],
  custom: Record<string, unknown> | null | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const stored =
      custom && Object.prototype.hasOwnProperty.call(custom, field.name) ? custom[field.name] : null;
    if (stored === null || stored === undefined) {
      out[field.name] = null;
      continue;
    }
    if (field.type === 'json') {
      // Read from jsonb, so it is JSON already; no copy on this hot path.
      out[field.name] = stored;
      continue;
    }
    const checked = checkValue(field, stored);
    out[field.name] = checked.ok ? checked.value : null;
  }
  return out;
}
