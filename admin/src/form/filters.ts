/**
 * The list's filter builder: which operators each field offers, and conditions to the `where` of
 * the API's query language. Pure: unit-tested.
 */
import { controlOf, type FieldDef, labelOf } from './fields';

export interface FilterField {
  name: string;
  label: string;
  kind: 'text' | 'number' | 'date' | 'boolean' | 'id';
}

export interface Condition {
  field: string;
  op: string;
  value: string;
}

export type Where = { and: Array<Record<string, unknown>> } | { or: Array<Record<string, unknown>> };

const OPS: Record<FilterField['kind'], string[]> = {
  text: ['equals', 'not_equals', 'contains', 'like', 'in', 'not_in', 'greater_than', 'less_than', 'exists'],
  number: [
    'equals',
    'not_equals',
    'greater_than',
    'greater_than_equal',
    'less_than',
    'less_than_equal',
    'in',
    'not_in',
    'exists',
  ],
  date: [
    'equals',
    'not_equals',
    'greater_than',
    'greater_than_equal',
    'less_than',
    'less_than_equal',
    'exists',
  ],
  boolean: ['equals', 'not_equals', 'exists'],
  id: ['equals', 'not_equals', 'in', 'not_in', 'exists'],
};

export const OPERATOR_LABELS: Record<string, string> = {
  equals: 'is',
  not_equals: 'is not',
  contains: 'contains',
  like: 'is like (% and _ as wildcards)',
  in: 'is one of (comma-separated)',
  not_in: 'is none of (comma-separated)',
  greater_than: 'is greater than',
  greater_than_equal: 'is at least',
  less_than: 'is less than',
  less_than_equal: 'is at most',
  exists: 'has a value',
};

/** The fields a list can be filtered by: the collection's scalar fields, its timestamps and status. */
export function filterFields(fields: readonly FieldDef[], drafts: boolean): FilterField[] {
  const out: FilterField[] = [];
  for (const f of fields) {
    const control = controlOf(f);
    const kind: FilterField['kind'] | undefined =
      control === 'number'
        ? 'number'
        : control === 'datetime'
          ? 'date'
          : control === 'checkbox'
            ? 'boolean'
            : control === 'relationship' || control === 'upload'
              ? 'id'
              : ['text', 'textarea', 'email', 'select'].includes(control)
                ? 'text'
                : undefined;
    if (kind) {
      out.push({ name: f.name, label: labelOf(f), kind });
    }
  }
  if (drafts) {
    out.push({ name: 'status', label: 'Status', kind: 'text' });
  }
  out.push(
    { name: 'createdAt', label: 'Created', kind: 'date' },
    { name: 'updatedAt', label: 'Updated', kind: 'date' },
  );
  return out;
}

export function operatorsOf(field: FilterField | undefined): string[] {
  return field ? OPS[field.kind] : [];
}

function typed(kind: FilterField['kind'], text: string): unknown {
  const value = text.trim();
  if (kind === 'number') {
    return Number(value);
  }
  if (kind === 'boolean') {
    return value === 'true';
  }
  if (kind === 'date') {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? value : d.toISOString();
  }
  return value;
}

/**
 * The `where` of the conditions joined by `mode` (`and`: all of them, `or`: any), or undefined when
 * there is none. Each value is converted to its field's type; `in` lists split at commas; `exists`
 * takes `true` or `false`.
 */
export function toWhere(
  fields: readonly FilterField[],
  conditions: readonly Condition[],
  mode: 'and' | 'or',
): Where | undefined {
  const parts = conditions
    .map((c) => {
      const field = fields.find((f) => f.name === c.field);
      if (!field || !operatorsOf(field).includes(c.op)) {
        return undefined;
      }
      let value: unknown;
      if (c.op === 'exists') {
        value = c.value !== 'false';
      } else if (c.op === 'in' || c.op === 'not_in') {
        value = c.value
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean)
          .map((v) => typed(field.kind, v));
      } else {
        value = typed(field.kind, c.value);
      }
      return { [c.field]: { [c.op]: value } };
    })
    .filter((p): p is Record<string, Record<string, unknown>> => p !== undefined);
  if (!parts.length) {
    return undefined;
  }
  return mode === 'and' ? { and: parts } : { or: parts };
}
