import type { ValidationIssue } from '../common/errors';
import { isPlainObject } from './json';
import { isStorableString } from './strings';

/** An option of a `select` field: its value, or a value with a label of its own. */
export type FieldOption = string | { label: string; value: string };

export const MAX_OPTIONS = 200;
export const MAX_OPTION_LENGTH = 200;

export function optionValue(o: FieldOption): string {
  return typeof o === 'string' ? o : o.value;
}

/**
 * Options for a field of this type: a `select` needs 1 to 200 options (strings or
 * `{ label, value }`, values unique); any other type takes none (absent or null). Option texts are
 * trimmed; issues have paths relative to the field (`options`, `options.2.value`).
 */
export function checkOptionsFor(
  type: string,
  value: unknown,
  errors: ValidationIssue[],
): FieldOption[] | null {
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
  const out: FieldOption[] = [];
  const seen = new Set<string>();
  const before = errors.length;
  value.forEach((raw: unknown, i) => {
    const path = `options.${i}`;
    let option: FieldOption | undefined;
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
