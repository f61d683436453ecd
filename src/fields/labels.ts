import type { ValidationIssue } from '../common/errors';
import { isStorableString } from './strings';

/** A label (of a field, a definition, a definition's singular and plural). */
export const MAX_LABEL_LENGTH = 200;

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

/** A label: a string, trimmed, not empty, at most 200 characters of text (issues at path `label`). */
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
