import { isStorableString, ServiceError } from '../api';
import {
  type FormDefinition,
  type FormField,
  type Issue,
  isEmailAddress,
  MAX_EMAIL_LENGTH,
  MAX_FIELDS,
  MAX_TEXT_LENGTH,
} from './form-definition';
import type { PatternBudget } from './pattern-tester';

/**
 * A submission body (`POST /forms/{slug}/submit`): `{ data: { <field>: value } }` checked against
 * the form's fields. Strings are trimmed; null, a missing key and a blank string are all "empty",
 * and an empty value is stored as absent. Every bad field is one issue at `data.<field>`.
 */

/** More keys than any form can have (its fields and the honeypot): refused as a whole. */
export const MAX_DATA_KEYS = MAX_FIELDS + 1;

export type SubmissionCheck = { spam: true } | { spam: false; data: Record<string, unknown> };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function own(o: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(o, key) ? o[key] : undefined;
}

/** A key as it may be echoed in a path (a hostile one can be long). */
function shown(key: string): string {
  return key.length > 100 ? `${key.slice(0, 100)}…` : key;
}

/** Whether a honeypot value counts as filled: anything but absent, null, false or a blank string. */
function filled(value: unknown): boolean {
  return !(
    value === undefined ||
    value === null ||
    value === false ||
    (typeof value === 'string' && value.trim() === '')
  );
}

/**
 * Checks a submission body against `form`: `{ spam: true }` when the honeypot is filled (nothing
 * else is looked at), else the data to store (only the form's fields, clean values). Throws 400
 * VALIDATION_ERROR with every issue.
 */
export function readSubmission(
  body: unknown,
  form: FormDefinition,
  patterns: PatternBudget,
): SubmissionCheck {
  if (!isPlainObject(body)) {
    throw ServiceError.validation([
      { path: '', code: 'isObject', message: 'the body must be a JSON object' },
    ]);
  }
  const issues: Issue[] = [];
  for (const key of Object.keys(body)) {
    if (key !== 'data') {
      issues.push({
        path: shown(key),
        code: 'unknown_field',
        message: `"${shown(key)}" is not accepted here (allowed: data)`,
      });
    }
  }
  const data = own(body, 'data');
  if (data === undefined || data === null) {
    issues.push({
      path: 'data',
      code: 'required',
      message: "data is required: an object of the form's fields",
    });
    throw ServiceError.validation(issues, 'The submission is not valid');
  }
  if (!isPlainObject(data)) {
    issues.push({ path: 'data', code: 'isObject', message: "data must be an object of the form's fields" });
    throw ServiceError.validation(issues, 'The submission is not valid');
  }
  // The honeypot first: a bot that filled it is answered as if all went well, whatever else it sent.
  if (form.honeypot && filled(own(data, form.honeypot))) {
    return { spam: true };
  }
  const keys = Object.keys(data);
  if (keys.length > MAX_DATA_KEYS) {
    issues.push({
      path: 'data',
      code: 'maxKeys',
      message: `data holds ${keys.length} keys; this form has ${form.fields.length} fields`,
    });
    throw ServiceError.validation(issues, 'The submission is not valid');
  }
  const byName = new Map(form.fields.map((f) => [f.name, f]));
  for (const key of keys) {
    if (!byName.has(key) && key !== form.honeypot) {
      issues.push({
        path: `data.${shown(key)}`,
        code: 'unknown_field',
        message: `"${shown(key)}" is not a field of this form`,
      });
    }
  }
  const out: Record<string, unknown> = {};
  for (const field of form.fields) {
    const check = checkValue(field, own(data, field.name), patterns);
    if ('issue' in check) {
      issues.push({ path: `data.${field.name}`, ...check.issue });
    } else if (check.value !== undefined) {
      out[field.name] = check.value;
    }
  }
  if (issues.length) {
    throw ServiceError.validation(issues, 'The submission is not valid');
  }
  return { spam: false, data: out };
}

type ValueCheck = { value: unknown } | { issue: { code: string; message: string } };

const bad = (code: string, message: string): ValueCheck => ({ issue: { code, message } });

/** One value against its field: the value to store (undefined: nothing), or the issue. */
function checkValue(field: FormField, raw: unknown, patterns: PatternBudget): ValueCheck {
  const name = field.name;
  const empty = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
  if (field.type === 'checkbox') {
    if (raw === undefined || raw === null) {
      return field.required ? bad('required', `${name} must be checked`) : { value: undefined };
    }
    if (typeof raw !== 'boolean') {
      return bad('isBoolean', `${name} must be true or false`);
    }
    if (field.required && !raw) {
      return bad('required', `${name} must be checked`);
    }
    return { value: raw };
  }
  if (empty) {
    return field.required ? bad('required', `${name} is required`) : { value: undefined };
  }
  switch (field.type) {
    case 'number': {
      if (typeof raw !== 'number' || !Number.isFinite(raw)) {
        return bad('isNumber', `${name} must be a number`);
      }
      const n = Object.is(raw, -0) ? 0 : raw;
      if (field.min !== undefined && n < field.min) {
        return bad('min', `${name} must be at least ${field.min}`);
      }
      if (field.max !== undefined && n > field.max) {
        return bad('max', `${name} must be at most ${field.max}`);
      }
      return { value: n };
    }
    case 'select': {
      const options = field.options ?? [];
      if (typeof raw !== 'string' || !options.includes(raw.trim())) {
        return bad('isIn', `${name} must be one of ${options.map((o) => JSON.stringify(o)).join(', ')}`);
      }
      return { value: raw.trim() };
    }
    default:
      return checkText(field, raw, patterns);
  }
}

/** text, textarea and email: a string, trimmed, within its lengths, matching its pattern. */
function checkText(field: FormField, raw: unknown, patterns: PatternBudget): ValueCheck {
  const name = field.name;
  if (typeof raw !== 'string') {
    return bad('isString', `${name} must be a string`);
  }
  const cap = field.type === 'email' ? MAX_EMAIL_LENGTH : MAX_TEXT_LENGTH;
  const max = Math.min(field.maxLength ?? cap, cap);
  // Compared before trimming too, so a huge value costs nothing more than this.
  if (raw.length > max + 1000) {
    return bad('maxLength', `${name} must be at most ${max} characters`);
  }
  const value = raw.trim();
  if (value.length > max) {
    return bad('maxLength', `${name} must be at most ${max} characters`);
  }
  if (field.minLength !== undefined && value.length < field.minLength) {
    return bad('minLength', `${name} must be at least ${field.minLength} characters`);
  }
  if (!isStorableString(value)) {
    return bad('isString', `${name} holds characters that cannot be stored`);
  }
  if (field.type === 'email' && !isEmailAddress(value)) {
    return bad('isEmail', `${name} must be an email address`);
  }
  if (field.pattern !== undefined) {
    const result = patterns.test(field.pattern, value);
    if (result !== 'match') {
      return bad(
        'matches',
        result === 'timeout'
          ? `${name} could not be checked against its pattern in time`
          : `${name} does not have the required format`,
      );
    }
  }
  return { value };
}

/** A plain-text rendering of stored data for the notification email: one `Label: value` per field. */
export function renderFields(form: FormDefinition, data: Record<string, unknown>): string {
  const MAX_VALUE = 2000;
  const lines = form.fields.map((f) => {
    const v = own(data, f.name);
    let s: string;
    if (v === undefined || v === null) {
      s = '(empty)';
    } else if (typeof v === 'boolean') {
      s = v ? 'yes' : 'no';
    } else {
      s = String(v);
    }
    if (s.length > MAX_VALUE) {
      s = `${s.slice(0, MAX_VALUE)}… (${s.length} characters; see the submission)`;
    }
    return `${f.label}: ${s.includes('\n') ? `\n  ${s.replace(/\r?\n/g, '\n  ')}` : s}`;
  });
  return lines.join('\n');
}
