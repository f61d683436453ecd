/**
 * Form generation for the entry editor: which control each field type gets, and the conversion of
 * a stored entry's values to the form's and back to the JSON the API takes. Pure: unit-tested.
 */

/** What the editor needs of a field definition (the API's `ContentField`). */
export interface FieldDef {
  name: string;
  type: string;
  label?: string;
  required?: boolean;
  hasMany?: boolean;
  relationTo?: string | null;
  fieldGroup?: string | null;
  repeatable?: boolean;
  options?: ReadonlyArray<string | { label: string; value: string }> | null;
  min?: number | null;
  max?: number | null;
}

export type Control =
  | 'text'
  | 'textarea'
  | 'email'
  | 'number'
  | 'checkbox'
  | 'datetime'
  | 'select'
  | 'multiselect'
  | 'relationship'
  | 'relationships'
  | 'upload'
  | 'richtext'
  | 'component'
  | 'json';

/** The control of a field. */
export function controlOf(field: FieldDef): Control {
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'email':
    case 'number':
    case 'checkbox':
      return field.type;
    case 'date':
      return 'datetime';
    case 'select':
      return field.hasMany ? 'multiselect' : 'select';
    case 'relationship':
      return field.hasMany ? 'relationships' : 'relationship';
    case 'upload':
      return 'upload';
    case 'richText':
      return 'richtext';
    case 'component':
      return 'component';
    default:
      return 'json';
  }
}

/** The field's label as people read it: its label, else its name. */
export function labelOf(field: FieldDef): string {
  return field.label?.trim() || field.name;
}

export function optionsOf(field: FieldDef): Array<{ label: string; value: string }> {
  return (field.options ?? []).map((o) => (typeof o === 'string' ? { label: o, value: o } : o));
}

/** A form value: text for inputs, a boolean for a checkbox, ids for the many-valued controls. */
export type FormValue = string | boolean | string[];
export type FormValues = Record<string, FormValue>;

/** `YYYY-MM-DDTHH:mm:ss` in the browser's time zone, for `input type="datetime-local"`. */
export function toLocalInput(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) {
    return '';
  }
  const pad = (n: number) => String(n).padStart(2, '0');
  return (
    `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
    `T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
  );
}

/** An id, or the id of a populated relation (`{ id, ... }`). */
function idOf(value: unknown): string {
  return value && typeof value === 'object'
    ? String((value as { id?: unknown }).id ?? '')
    : String(value ?? '');
}

/** A stored value as its control shows it (an empty form for a new entry: `value` undefined). */
export function toForm(field: FieldDef, value: unknown): FormValue {
  const control = controlOf(field);
  switch (control) {
    case 'checkbox':
      return value === true;
    case 'multiselect':
      return Array.isArray(value) ? value.map(String) : [];
    case 'relationships':
      return Array.isArray(value) ? value.map(idOf) : [];
    case 'relationship':
    case 'upload':
      return value === null || value === undefined ? '' : idOf(value);
    case 'datetime':
      return typeof value === 'string' ? toLocalInput(value) : '';
    case 'number':
      return typeof value === 'number' ? String(value) : '';
    case 'json':
      return value === null || value === undefined ? '' : JSON.stringify(value, null, 2);
    case 'richtext':
    case 'component':
      // The document (a Lexical state, a group's values) as JSON text: its control reads it and
      // writes it back the same way.
      return value === null || value === undefined ? '' : JSON.stringify(value);
    default:
      return typeof value === 'string' ? value : '';
  }
}

export interface FormIssue {
  path: string;
  message: string;
}

/**
 * The JSON body for the API from the form: every field's value (an empty input is `null`, which
 * clears it), or the issues the browser can tell before sending (a number or JSON that does not
 * parse). The API checks everything else and its issues are shown on their fields as well.
 */
export function toBody(
  fields: readonly FieldDef[],
  values: FormValues,
): { body: Record<string, unknown>; issues: FormIssue[] } {
  const body: Record<string, unknown> = {};
  const issues: FormIssue[] = [];
  for (const field of fields) {
    const value = values[field.name];
    const control = controlOf(field);
    if (control === 'checkbox') {
      body[field.name] = value === true;
      continue;
    }
    if (Array.isArray(value)) {
      body[field.name] = value;
      continue;
    }
    const text = typeof value === 'string' ? value : '';
    if (text.trim() === '') {
      body[field.name] = control === 'multiselect' || control === 'relationships' ? [] : null;
      continue;
    }
    switch (control) {
      case 'number': {
        const n = Number(text);
        if (!Number.isFinite(n)) {
          issues.push({ path: field.name, message: `${labelOf(field)} must be a number` });
        }
        body[field.name] = n;
        break;
      }
      case 'datetime': {
        const d = new Date(text);
        if (Number.isNaN(d.getTime())) {
          issues.push({ path: field.name, message: `${labelOf(field)} must be a date and time` });
        }
        body[field.name] = Number.isNaN(d.getTime()) ? text : d.toISOString();
        break;
      }
      case 'json':
      case 'richtext':
      case 'component':
        try {
          body[field.name] = JSON.parse(text);
        } catch {
          issues.push({ path: field.name, message: `${labelOf(field)} must be valid JSON` });
        }
        break;
      default:
        body[field.name] = text;
    }
  }
  return { body, issues };
}

/** The field an API issue is about: the first segment of its path (`tags.2` is `tags`). */
export function fieldOfIssue(path: string): string {
  return path.split('.')[0];
}
