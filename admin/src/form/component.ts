/**
 * A component field's values in the editor: one group of fields, or a list of them (repeatable),
 * held as form values per item and written back as the JSON text of the field. Pure: unit-tested.
 */
import { type FieldDef, type FormValues, toBody, toForm } from './fields';

/** The items of a component's JSON text: [] for none; a single group is a one-item list. */
export function itemsOf(fields: readonly FieldDef[], text: string, repeatable: boolean): FormValues[] {
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  const raw = repeatable
    ? Array.isArray(parsed)
      ? parsed
      : []
    : parsed && typeof parsed === 'object'
      ? [parsed]
      : [];
  return raw.map((item) =>
    Object.fromEntries(fields.map((f) => [f.name, toForm(f, (item as Record<string, unknown>)[f.name])])),
  );
}

/** An empty item: every field's empty form value. */
export function emptyItem(fields: readonly FieldDef[]): FormValues {
  return Object.fromEntries(fields.map((f) => [f.name, toForm(f, undefined)]));
}

/** The field's JSON text for these items ('' clears a single group that has none). */
export function textOf(
  fields: readonly FieldDef[],
  items: readonly FormValues[],
  repeatable: boolean,
): string {
  const bodies = items.map((item) => toBody(fields, item).body);
  if (repeatable) {
    return JSON.stringify(bodies);
  }
  return bodies.length ? JSON.stringify(bodies[0]) : '';
}

/** The list with item `i` moved by `by` (-1 up, +1 down); unchanged at the ends. */
export function moved<T>(list: readonly T[], i: number, by: -1 | 1): T[] {
  const j = i + by;
  if (j < 0 || j >= list.length) {
    return [...list];
  }
  const next = [...list];
  [next[i], next[j]] = [next[j], next[i]];
  return next;
}
