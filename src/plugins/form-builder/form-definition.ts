import { isEmail } from 'class-validator';
import {
  checkLabel,
  checkNameRule,
  FIELD_NAME_PATTERN,
  FIELD_NAME_SHAPE,
  humanizeName,
  isStorableString,
  type NameRule,
  OBJECT_MEMBER_NAMES,
  ServiceError,
  SLUG_PATTERN,
  SLUG_SHAPE,
  type ValidationIssue,
} from '../api';

/**
 * Form definitions (CONTRACTS 13.2.2): the rules a `POST /forms` or `PATCH /forms/{slug}` body
 * must meet, as pure functions. Every problem is one `{ path, code, message }` issue and all of
 * them are answered at once as 400 VALIDATION_ERROR, the way the service's own bodies are. Slugs,
 * field names, labels and stored text follow the service's own rules (from the plugin API).
 */

export type Issue = ValidationIssue;

export const FIELD_TYPES = ['text', 'email', 'number', 'select', 'checkbox', 'textarea'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const FORM_STATUSES = ['open', 'closed'] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

export interface FormField {
  name: string;
  type: FieldType;
  label: string;
  required: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  pattern?: string;
  options?: string[];
}

/** What a form is, without its id and timestamps. */
export interface FormDefinition {
  slug: string;
  name: string;
  description: string | null;
  status: FormStatus;
  fields: FormField[];
  honeypot: string | null;
  notifyEmail: string | null;
}

/** A form's slug: the service's definition slug. */
const SLUG_RULE: NameRule = { key: 'slug', pattern: SLUG_PATTERN, shape: SLUG_SHAPE, nullIsMissing: true };
/**
 * Names of Object.prototype members: traps for any client (or this plugin) that reads submitted
 * data as a plain object, so no field or honeypot takes them (compared ignoring case).
 */
const OBJECT_MEMBERS = new Set(OBJECT_MEMBER_NAMES.map((n) => n.toLowerCase()));

export const MAX_FIELDS = 100;
export const MAX_OPTIONS = 100;
export const MAX_NAME_LENGTH = 200;
export const MAX_OPTION_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 2000;
/** The longest text value any field takes, `maxLength` or not (CONTRACTS 13.2.2 bodies are JSON of 1 MiB at most). */
export const MAX_TEXT_LENGTH = 10_000;
/** An address (RFC 5321: a path is at most 256 octets with its brackets). */
export const MAX_EMAIL_LENGTH = 254;
/** A `pattern`: bounded, so what it costs to compile and run stays bounded too. */
export const MAX_PATTERN_LENGTH = 200;

const BODY_KEYS = ['slug', 'name', 'description', 'status', 'fields', 'honeypot', 'notifyEmail'] as const;
const FIELD_KEYS = [
  'name',
  'type',
  'label',
  'required',
  'minLength',
  'maxLength',
  'min',
  'max',
  'pattern',
  'options',
] as const;
const LENGTH_TYPES: readonly FieldType[] = ['text', 'textarea', 'email'];

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function has(o: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

/** An address as the service checks one (class-validator's isEmail), at most 254 characters. */
export function isEmailAddress(s: string): boolean {
  return s.length <= MAX_EMAIL_LENGTH && isEmail(s);
}

/** A pattern as the submission check runs it: the whole (trimmed) value must match, as HTML's `pattern`. */
export function compilePattern(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`, 'u');
}

/**
 * A trimmed, non-empty text of at most `max` characters, or undefined with one issue at `path`.
 * `key` is how the message names it.
 */
function text(value: unknown, path: string, key: string, max: number, issues: Issue[]): string | undefined {
  if (typeof value !== 'string') {
    issues.push({ path, code: 'isString', message: `${key} must be a string` });
    return undefined;
  }
  const s = value.trim();
  if (!s) {
    issues.push({ path, code: 'isNotEmpty', message: `${key} must not be empty` });
    return undefined;
  }
  if (s.length > max || !isStorableString(s)) {
    issues.push({ path, code: 'maxLength', message: `${key} must be at most ${max} characters of text` });
    return undefined;
  }
  return s;
}

/** A field or honeypot name (`key`): the service's field-name rule, no Object.prototype member. */
function fieldName(value: unknown, path: string, key: string, issues: Issue[]): string | undefined {
  return checkNameRule(
    value,
    path,
    {
      key,
      pattern: FIELD_NAME_PATTERN,
      shape: FIELD_NAME_SHAPE,
      nullIsMissing: true,
      refuse: (name) =>
        OBJECT_MEMBERS.has(name.toLowerCase())
          ? {
              code: 'reserved',
              message: `${key} "${name}" is reserved (a member of every JavaScript object)`,
            }
          : null,
    },
    issues,
  );
}

function nonNegativeInt(value: unknown, path: string, key: string, issues: Issue[]): number | undefined {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    issues.push({ path, code: 'isInt', message: `${key} must be a whole number` });
    return undefined;
  }
  if (value < 0 || value > MAX_TEXT_LENGTH) {
    issues.push({ path, code: 'max', message: `${key} must be from 0 to ${MAX_TEXT_LENGTH}` });
    return undefined;
  }
  return value;
}

function finiteNumber(value: unknown, path: string, key: string, issues: Issue[]): number | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    issues.push({ path, code: 'isNumber', message: `${key} must be a finite number` });
    return undefined;
  }
  return Object.is(value, -0) ? 0 : value;
}

/** One entry of `fields`: the clean field, or undefined with its issues (paths under `at`). */
function checkField(raw: unknown, at: string, issues: Issue[]): FormField | undefined {
  if (!isPlainObject(raw)) {
    issues.push({ path: at, code: 'isObject', message: `${at} must be a field object` });
    return undefined;
  }
  const before = issues.length;
  for (const key of Object.keys(raw)) {
    if (!(FIELD_KEYS as readonly string[]).includes(key)) {
      issues.push({
        path: `${at}.${key}`,
        code: 'unknown_field',
        message: `a field has no "${key}" key (known: ${FIELD_KEYS.join(', ')})`,
      });
    }
  }
  const name = fieldName(raw.name, `${at}.name`, 'name', issues);
  let type: FieldType | undefined;
  if (raw.type === undefined || raw.type === null) {
    issues.push({ path: `${at}.type`, code: 'required', message: 'type is required' });
  } else if (typeof raw.type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(raw.type)) {
    issues.push({
      path: `${at}.type`,
      code: 'isIn',
      message: `type must be one of ${FIELD_TYPES.join(', ')}`,
    });
  } else {
    type = raw.type as FieldType;
  }
  const field: Partial<FormField> = {};
  if (raw.label !== undefined) {
    // The service's label rule; its issues are at `label`, here under the field's path.
    const found: Issue[] = [];
    field.label = checkLabel(raw.label, found);
    issues.push(...found.map((i) => ({ ...i, path: `${at}.${i.path}` })));
  }
  if (raw.required !== undefined && typeof raw.required !== 'boolean') {
    issues.push({ path: `${at}.required`, code: 'isBoolean', message: 'required must be true or false' });
  }

  /** A key that only some types take: refused on the others (when the type is known). */
  const onlyFor = (key: string, types: readonly FieldType[]): boolean => {
    if (raw[key] === undefined) {
      return false;
    }
    if (type !== undefined && !types.includes(type)) {
      issues.push({
        path: `${at}.${key}`,
        code: 'notAllowed',
        message: `${key} applies to ${types.join(', ')} fields only, not to a ${type} field`,
      });
      return false;
    }
    return true;
  };

  if (onlyFor('minLength', LENGTH_TYPES)) {
    field.minLength = nonNegativeInt(raw.minLength, `${at}.minLength`, 'minLength', issues);
  }
  if (onlyFor('maxLength', LENGTH_TYPES)) {
    field.maxLength = nonNegativeInt(raw.maxLength, `${at}.maxLength`, 'maxLength', issues);
    if (field.maxLength === 0) {
      issues.push({ path: `${at}.maxLength`, code: 'min', message: 'maxLength must be at least 1' });
      field.maxLength = undefined;
    } else if (field.maxLength !== undefined && type === 'email' && field.maxLength > MAX_EMAIL_LENGTH) {
      issues.push({
        path: `${at}.maxLength`,
        code: 'max',
        message: `maxLength of an email field must be at most ${MAX_EMAIL_LENGTH}`,
      });
      field.maxLength = undefined;
    }
  }
  if (field.minLength !== undefined && field.maxLength !== undefined && field.minLength > field.maxLength) {
    issues.push({
      path: `${at}.minLength`,
      code: 'max',
      message: 'minLength must not be greater than maxLength',
    });
  }
  if (onlyFor('min', ['number'])) {
    field.min = finiteNumber(raw.min, `${at}.min`, 'min', issues);
  }
  if (onlyFor('max', ['number'])) {
    field.max = finiteNumber(raw.max, `${at}.max`, 'max', issues);
  }
  if (field.min !== undefined && field.max !== undefined && field.min > field.max) {
    issues.push({ path: `${at}.min`, code: 'max', message: 'min must not be greater than max' });
  }
  if (onlyFor('pattern', LENGTH_TYPES)) {
    const p = raw.pattern;
    if (typeof p !== 'string' || p === '') {
      issues.push({ path: `${at}.pattern`, code: 'isString', message: 'pattern must be a non-empty string' });
    } else if (p.length > MAX_PATTERN_LENGTH || !isStorableString(p)) {
      issues.push({
        path: `${at}.pattern`,
        code: 'maxLength',
        message: `pattern must be at most ${MAX_PATTERN_LENGTH} characters`,
      });
    } else {
      try {
        // Compiled alone first: a pattern that is not balanced on its own must not be repaired
        // by the anchoring group around it.
        new RegExp(p, 'u');
        compilePattern(p);
        field.pattern = p;
      } catch (e) {
        issues.push({
          path: `${at}.pattern`,
          code: 'invalidPattern',
          message: `pattern is not a valid regular expression (${(e as Error).message})`,
        });
      }
    }
  }
  if (type === 'select' && raw.options === undefined) {
    issues.push({
      path: `${at}.options`,
      code: 'required',
      message: 'options is required for a select field',
    });
  } else if (onlyFor('options', ['select'])) {
    field.options = checkOptions(raw.options, `${at}.options`, issues);
  }
  if (issues.length > before || name === undefined || type === undefined) {
    return undefined;
  }
  const out: FormField = {
    name,
    type,
    label: field.label ?? humanizeName(name),
    required: raw.required === true,
  };
  for (const key of ['minLength', 'maxLength', 'min', 'max', 'pattern', 'options'] as const) {
    if (field[key] !== undefined) {
      (out as unknown as Record<string, unknown>)[key] = field[key];
    }
  }
  return out;
}

function checkOptions(value: unknown, path: string, issues: Issue[]): string[] | undefined {
  if (!Array.isArray(value)) {
    issues.push({ path, code: 'isArray', message: 'options must be an array of strings' });
    return undefined;
  }
  if (value.length === 0) {
    issues.push({ path, code: 'arrayMinSize', message: 'options must hold at least one option' });
    return undefined;
  }
  if (value.length > MAX_OPTIONS) {
    issues.push({ path, code: 'arrayMaxSize', message: `options must hold at most ${MAX_OPTIONS} options` });
    return undefined;
  }
  const out: string[] = [];
  const seen = new Map<string, number>();
  let ok = true;
  value.forEach((v: unknown, i) => {
    const option = text(v, `${path}.${i}`, `${path}.${i}`, MAX_OPTION_LENGTH, issues);
    if (option === undefined) {
      ok = false;
      return;
    }
    const first = seen.get(option);
    if (first !== undefined) {
      issues.push({
        path: `${path}.${i}`,
        code: 'duplicate',
        message: `the option "${option}" is already ${path}.${first}`,
      });
      ok = false;
      return;
    }
    seen.set(option, i);
    out.push(option);
  });
  return ok ? out : undefined;
}

function checkFields(value: unknown, issues: Issue[]): FormField[] | undefined {
  if (!Array.isArray(value)) {
    issues.push({ path: 'fields', code: 'isArray', message: 'fields must be an array of field objects' });
    return undefined;
  }
  if (value.length === 0) {
    issues.push({ path: 'fields', code: 'arrayMinSize', message: 'fields must hold at least one field' });
    return undefined;
  }
  if (value.length > MAX_FIELDS) {
    issues.push({
      path: 'fields',
      code: 'arrayMaxSize',
      message: `fields must hold at most ${MAX_FIELDS} fields`,
    });
    return undefined;
  }
  const out: FormField[] = [];
  const names = new Map<string, number>();
  let ok = true;
  value.forEach((raw: unknown, i) => {
    const field = checkField(raw, `fields.${i}`, issues);
    if (!field) {
      ok = false;
      return;
    }
    const lower = field.name.toLowerCase();
    const first = names.get(lower);
    if (first !== undefined) {
      issues.push({
        path: `fields.${i}.name`,
        code: 'duplicate',
        message: `the name "${field.name}" is already used by fields.${first} (names are compared ignoring case)`,
      });
      ok = false;
      return;
    }
    names.set(lower, i);
    out.push(field);
  });
  return ok ? out : undefined;
}

/** An optional text that null (or blank) clears. */
function nullableText(value: unknown, path: string, max: number, issues: Issue[]): string | null | undefined {
  if (value === null || (typeof value === 'string' && value.trim() === '')) {
    return null;
  }
  return text(value, path, path, max, issues);
}

/**
 * Checks a definition body and answers the definition it asks for: all of it for `create`; for
 * `update`, the keys given over `current` (`fields` replaced as a whole; null or "" clears
 * `description`, `honeypot` and `notifyEmail`). Throws 400 VALIDATION_ERROR with every issue.
 */
export function readDefinition(body: unknown, current?: FormDefinition): FormDefinition {
  if (!isPlainObject(body)) {
    throw ServiceError.validation([
      { path: '', code: 'isObject', message: 'the body must be a JSON object' },
    ]);
  }
  const issues: Issue[] = [];
  for (const key of Object.keys(body)) {
    if (!(BODY_KEYS as readonly string[]).includes(key)) {
      issues.push({
        path: key,
        code: 'unknown_field',
        message: `"${key.length > 100 ? `${key.slice(0, 100)}…` : key}" is not accepted here (allowed: ${BODY_KEYS.join(', ')})`,
      });
    }
  }
  const creating = current === undefined;
  const given = (key: string) => has(body, key) && body[key] !== undefined;
  const out: Partial<FormDefinition> = { ...current };

  if (given('slug') || creating) {
    const slug = typeof body.slug === 'string' ? body.slug.trim() : body.slug;
    out.slug = checkNameRule(slug, 'slug', SLUG_RULE, issues);
  }
  if (given('name') || creating) {
    if (body.name === undefined || body.name === null) {
      issues.push({ path: 'name', code: 'required', message: 'name is required' });
    } else {
      out.name = text(body.name, 'name', 'name', MAX_NAME_LENGTH, issues);
    }
  }
  if (given('description')) {
    out.description = nullableText(body.description, 'description', MAX_DESCRIPTION_LENGTH, issues);
  } else if (creating) {
    out.description = null;
  }
  if (given('status')) {
    if (typeof body.status !== 'string' || !(FORM_STATUSES as readonly string[]).includes(body.status)) {
      issues.push({
        path: 'status',
        code: 'isIn',
        message: `status must be one of ${FORM_STATUSES.join(', ')}`,
      });
    } else {
      out.status = body.status as FormStatus;
    }
  } else if (creating) {
    out.status = 'open';
  }
  let fieldsOk = true;
  if (given('fields') || creating) {
    if (body.fields === undefined || body.fields === null) {
      issues.push({ path: 'fields', code: 'required', message: 'fields is required' });
      fieldsOk = false;
    } else {
      out.fields = checkFields(body.fields, issues);
      fieldsOk = out.fields !== undefined;
    }
  }
  if (given('honeypot')) {
    const h = body.honeypot;
    out.honeypot =
      h === null || (typeof h === 'string' && h.trim() === '')
        ? null
        : fieldName(typeof h === 'string' ? h.trim() : h, 'honeypot', 'honeypot', issues);
  } else if (creating) {
    out.honeypot = null;
  }
  // Checked against the fields the form ends up with (a PATCH may change either).
  if (fieldsOk && out.honeypot && out.fields) {
    const lower = out.honeypot.toLowerCase();
    const i = out.fields.findIndex((f) => f.name.toLowerCase() === lower);
    if (i !== -1) {
      issues.push({
        path: 'honeypot',
        code: 'duplicate',
        message: `honeypot must not be the name of a field (it is fields.${i}); name a field no person fills`,
      });
    }
  }
  if (given('notifyEmail')) {
    const e = body.notifyEmail;
    if (e === null || (typeof e === 'string' && e.trim() === '')) {
      out.notifyEmail = null;
    } else if (typeof e !== 'string') {
      issues.push({ path: 'notifyEmail', code: 'isString', message: 'notifyEmail must be a string' });
    } else if (!isEmailAddress(e.trim())) {
      issues.push({ path: 'notifyEmail', code: 'isEmail', message: 'notifyEmail must be an email address' });
    } else {
      out.notifyEmail = e.trim();
    }
  } else if (creating) {
    out.notifyEmail = null;
  }
  if (issues.length) {
    throw ServiceError.validation(issues);
  }
  return out as FormDefinition;
}
