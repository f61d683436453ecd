/**
 * One value against its field's type: the value rules of user fields, which content applies too
 * (email and date entry values, the `defaultValue` of a content field).
 */
import { isEmail } from 'class-validator';
import { parseIsoDate } from './dates';
import { checkJson } from './json';
import { type FieldOption, optionValue } from './options';
import { isStorableString } from './strings';
import type { ValueFieldType } from './types';

/** Limits on values: user-field values live in the users row, which every session read loads. */
export const MAX_TEXT_LENGTH = 1000;
export const MAX_TEXTAREA_LENGTH = 10_000;
export const MAX_EMAIL_LENGTH = 320;
/** A `json` value, serialised. */
export const MAX_JSON_LENGTH = 16_384;
export const MAX_JSON_DEPTH = 32;

/** What the value rules need of a field. `options` matters for `select` only. */
export interface FieldRules {
  name: string;
  type: ValueFieldType;
  required: boolean;
  options?: FieldOption[];
}

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
    case 'number': {
      const n = parseDecimal(value);
      return n === undefined
        ? { ok: false, code: 'isNumber', message: `${field.name} must be a finite number` }
        : { ok: true, value: n };
    }
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
      // Any JSON value, at most 32 levels deep and 16 KiB serialised.
      return checkJson(field.name, value, { maxDepth: MAX_JSON_DEPTH, maxLength: MAX_JSON_LENGTH });
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

/**
 * A JSON number, or a string holding a plain decimal number (what a form input or a query string
 * sends), when finite; -0 is 0. Undefined for anything else.
 */
export function parseDecimal(value: unknown): number | undefined {
  let n: number | undefined;
  if (typeof value === 'number') {
    n = value;
  } else if (typeof value === 'string' && DECIMAL.test(value.trim())) {
    n = Number(value.trim());
  }
  if (n === undefined || !Number.isFinite(n)) {
    return undefined;
  }
  return Object.is(n, -0) ? 0 : n;
}

/**
 * `YYYY-MM-DD` stays a calendar date (no time zone to shift it); a date-time with a zone (`Z` or
 * an offset) becomes UTC `YYYY-MM-DDTHH:mm:ss.sssZ`. What parseIsoDate refuses is refused.
 */
function checkDate(name: string, value: unknown): ValueCheck {
  const parsed = typeof value === 'string' ? parseIsoDate(value.trim()) : null;
  if (parsed === null) {
    return {
      ok: false,
      code: 'isDate',
      message: `${name} must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone`,
    };
  }
  return { ok: true, value: parsed.dateOnly ? (value as string).trim() : parsed.date.toISOString() };
}
