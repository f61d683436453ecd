/**
 * The schema planner: old fields + new fields -> the changes between them (CONTRACTS 6 preview),
 * each marked destructive or not. Pure and deterministic; the DDL for the changes is `ddlFor`
 * (ddl.ts), which follows the same rules (what the planner calls safe, the DDL does without losing
 * a value).
 *
 * Pairing. A field may carry a stable `id`: an old and a new field with the same id are the same
 * field, so a different name is a `rename`. Fields not paired by id pair by exact name, unless both
 * carry ids and the ids differ (then they are two fields: the old one is dropped, the new one
 * added). What stays unpaired is a `drop` (old) or an `add` (new).
 *
 * Output order (also the order the DDL runs in): drops in old-field order, then renames, alters
 * and adds in new-field order. Drops first free names a rename or add may take; renames before
 * alters so an alter names the column by its final name.
 *
 * What a change says:
 * - add:    `field` the new name, `to` the new field;               never destructive.
 * - drop:   `field` the old name, `from` the old field;             always destructive.
 * - rename: `field` the new name, `from` old name, `to` new name;   never destructive.
 * - alter:  `field` the (new) name, `from` / `to` only the attributes that changed (booleans as
 *           true/false, absent values as null); destructive by the table below. A renamed field
 *           whose attributes also changed gets a rename and an alter.
 *
 * Destructive means: applying may delete or null stored values, or leave stored values that no
 * longer read as the new type. Only such changes need `confirmDestructive`.
 *
 * Type changes ("T[]" is hasMany; every change not listed is destructive):
 *
 * | from                                          | to                   | destructive | what happens to stored values              |
 * |-----------------------------------------------|----------------------|-------------|--------------------------------------------|
 * | text, textarea                                | text, textarea       | no          | kept (same column type)                    |
 * | email                                         | text, textarea       | no          | kept                                       |
 * | number, checkbox, date, select, relationship, | text, textarea       | no          | their text form (`1.5`, `true`, ISO date,  |
 * | upload                                        |                      |             | option value, uuid)                        |
 * | checkbox                                      | number               | no          | true 1, false 0                            |
 * | any but relationship[] and json               | json                 | no          | as JSON (strings, numbers, booleans, ISO   |
 * |                                               |                      |             | dates, arrays; documents as they are)      |
 * | select                                        | select[]             | no*         | [value]                                    |
 * | relationship, upload                          | upload, relationship | no*         | kept                                       |
 * | relationship, upload                          | relationship[]       | no*         | one join row per entry                     |
 * | anything                                      | email                | yes         | kept, but may not be email addresses       |
 * | text family, number, ...                      | select, select[]     | yes         | values that are not options become null    |
 * | text family, json                             | number               | yes         | parsed when numeric (finite), else null    |
 * | text family, json, number                     | checkbox             | yes         | true/false/yes/no/on/off/1/0, number != 0  |
 * | text family, json                             | date                 | yes         | parsed when ISO 8601 and valid, else null  |
 * | text family, json                             | relationship, upload | yes         | kept when a uuid of an existing target     |
 * | json, richText, component                     | richText, component  | yes         | kept as is, may not fit the new shape      |
 * | json, select[], richText, component           | text, textarea       | yes         | their text (JSON text, `a, b`)             |
 * | select[]                                      | select               | yes         | the first value that is still an option    |
 * | relationship[]                                | relationship, upload | yes         | the first related entry                    |
 * | relationship[]                                | anything else        | yes         | removed                                    |
 * | anything else                                 | anything else        | yes         | null                                       |
 *
 * (*) unless another attribute makes it destructive, as below. Attribute changes on the same type:
 *
 * | change                                        | destructive | why                                                  |
 * |-----------------------------------------------|-------------|------------------------------------------------------|
 * | select loses an option value                  | yes         | entries holding it lose it (null / dropped from [])  |
 * | select gains options, relabels options        | no          | the CHECK widens                                     |
 * | relationTo changes                            | yes         | references to entries absent from the new target go  |
 * | fieldGroup changes                            | yes         | stored components are shaped by the old group        |
 * | repeatable off -> on                          | no          | each value becomes a one-item list                   |
 * | repeatable on -> off                          | yes         | only the first item is kept                          |
 * | required on / off                             | no          | no DDL: required is enforced by entry validation,    |
 * |                                               |             | not NOT NULL (see ddl.ts), so nothing is rewritten   |
 * | unique on                                     | no          | a unique index; the apply fails (and changes         |
 * |                                               |             | nothing) if stored values repeat                     |
 * | unique off, index on / off                    | no          | index only                                           |
 * | defaultValue changes                          | no          | the column DEFAULT; stored rows untouched            |
 * | min / max changes (number)                    | no          | no DDL: ranges are enforced by entry validation      |
 * | label changes                                 | no          | metadata only                                        |
 */
import type { FieldConfig } from '../../../config/config.types';
import { optionValue, SCALAR_FIELD_TYPES } from '../../../fields';

/** A field as the planner sees it: the config plus an optional stable id. */
export type FieldWithId = FieldConfig & { id?: string };

/** The attributes compared, in the order `from` / `to` list them. */
export const COMPARED_ATTRIBUTES = [
  'type',
  'hasMany',
  'options',
  'min',
  'max',
  'relationTo',
  'fieldGroup',
  'repeatable',
  'required',
  'unique',
  'index',
  'defaultValue',
  'label',
] as const;
export type ComparedAttribute = (typeof COMPARED_ATTRIBUTES)[number];
export type AttributeValues = Partial<Record<ComparedAttribute, unknown>>;

export interface AddChange {
  kind: 'add';
  field: string;
  to: FieldWithId;
  destructive: false;
}
export interface DropChange {
  kind: 'drop';
  field: string;
  from: FieldWithId;
  destructive: true;
}
export interface RenameChange {
  kind: 'rename';
  field: string;
  from: string;
  to: string;
  destructive: false;
}
export interface AlterChange {
  kind: 'alter';
  field: string;
  from: AttributeValues;
  to: AttributeValues;
  destructive: boolean;
}
export type Change = AddChange | DropChange | RenameChange | AlterChange;

/** The preview body of CONTRACTS 6: the changes and whether any is destructive. */
export function summarize(changes: readonly Change[]): { changes: Change[]; destructive: boolean } {
  return { changes: [...changes], destructive: changes.some((c) => c.destructive) };
}

export function planSchemaChange(
  oldFields: readonly FieldWithId[],
  newFields: readonly FieldWithId[],
): Change[] {
  const pairs = pairFields(oldFields, newFields);
  const pairedOld = new Set(pairs.map(([o]) => o));
  const pairedNew = new Map(pairs.map(([o, n]) => [n, o]));

  const drops: Change[] = oldFields
    .filter((o) => !pairedOld.has(o))
    .map((o) => ({ kind: 'drop', field: o.name, from: snapshot(o), destructive: true }));
  const renames: Change[] = [];
  const alters: Change[] = [];
  const adds: Change[] = [];
  for (const n of newFields) {
    const o = pairedNew.get(n);
    if (o === undefined) {
      adds.push({ kind: 'add', field: n.name, to: snapshot(n), destructive: false });
      continue;
    }
    if (o.name !== n.name) {
      renames.push({ kind: 'rename', field: n.name, from: o.name, to: n.name, destructive: false });
    }
    const diff = diffAttributes(o, n);
    if (diff) {
      alters.push({ kind: 'alter', field: n.name, ...diff, destructive: isDestructiveAlter(o, n) });
    }
  }
  return [...drops, ...renames, ...alters, ...adds];
}

/** [old, new] pairs: by id first, then by name (unless both have ids and they differ). */
function pairFields(
  oldFields: readonly FieldWithId[],
  newFields: readonly FieldWithId[],
): Array<[FieldWithId, FieldWithId]> {
  const pairs: Array<[FieldWithId, FieldWithId]> = [];
  const taken = new Set<FieldWithId>();
  const oldById = new Map<string, FieldWithId>();
  for (const o of oldFields) {
    if (hasId(o) && !oldById.has(o.id)) {
      oldById.set(o.id, o);
    }
  }
  const unpairedNew: FieldWithId[] = [];
  for (const n of newFields) {
    const o = hasId(n) ? oldById.get(n.id) : undefined;
    if (o !== undefined && !taken.has(o)) {
      taken.add(o);
      pairs.push([o, n]);
    } else {
      unpairedNew.push(n);
    }
  }
  for (const n of unpairedNew) {
    const o = oldFields.find(
      (c) => !taken.has(c) && c.name === n.name && !(hasId(c) && hasId(n) && c.id !== n.id),
    );
    if (o !== undefined) {
      taken.add(o);
      pairs.push([o, n]);
    }
  }
  return pairs;
}

function hasId(f: FieldWithId): f is FieldWithId & { id: string } {
  return typeof f.id === 'string' && f.id !== '';
}

/** The field with its keys in a fixed order and nothing undefined (what the journal stores). */
function snapshot(f: FieldWithId): FieldWithId {
  const out: Record<string, unknown> = {};
  for (const key of ['id', 'name', ...COMPARED_ATTRIBUTES]) {
    const value = (f as unknown as Record<string, unknown>)[key];
    if (value !== undefined) {
      out[key] = value;
    }
  }
  return out as unknown as FieldWithId;
}

const BOOLEAN_ATTRIBUTES: ReadonlySet<ComparedAttribute> = new Set([
  'hasMany',
  'repeatable',
  'required',
  'unique',
  'index',
]);

/** One attribute, as compared and as shown: booleans true/false, absent values null. */
function shown(f: FieldWithId, key: ComparedAttribute): unknown {
  const value = f[key];
  if (BOOLEAN_ATTRIBUTES.has(key)) {
    return value === true;
  }
  if (value === undefined || value === null || (key === 'label' && value === '')) {
    return null;
  }
  return value;
}

/** Options compare by value and label: `'a'` and `{ label: 'a', value: 'a' }` are the same option. */
function comparable(f: FieldWithId, key: ComparedAttribute): string {
  if (key === 'options') {
    return stableJson((f.options ?? []).map((o) => (typeof o === 'string' ? [o, o] : [o.value, o.label])));
  }
  return stableJson(shown(f, key));
}

function diffAttributes(
  o: FieldWithId,
  n: FieldWithId,
): { from: AttributeValues; to: AttributeValues } | null {
  const from: AttributeValues = {};
  const to: AttributeValues = {};
  let changed = false;
  for (const key of COMPARED_ATTRIBUTES) {
    if (comparable(o, key) !== comparable(n, key)) {
      from[key] = shown(o, key);
      to[key] = shown(n, key);
      changed = true;
    }
  }
  return changed ? { from, to } : null;
}

/** JSON with object keys sorted, so `{ a, b }` and `{ b, a }` compare equal. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(v).sort()) {
        sorted[k] = (v as Record<string, unknown>)[k];
      }
      return sorted;
    }
    return v;
  });
}

// ---------------------------------------------------------------------------------------------
// Destructive rules (the tables above)

/** A field's type with its storage-relevant shape: `select[]` and `relationship[]` for hasMany. */
export type TypeKey = FieldConfig['type'] | 'select[]' | 'relationship[]';

export function typeKey(f: Pick<FieldConfig, 'type' | 'hasMany'>): TypeKey {
  if (f.hasMany === true && (f.type === 'select' || f.type === 'relationship')) {
    return `${f.type}[]`;
  }
  return f.type;
}

const TEXTUAL: ReadonlySet<TypeKey> = new Set(['text', 'textarea']);
/** Types whose text form is their value: they become text/textarea without loss. */
const TO_TEXT_SAFE: ReadonlySet<TypeKey> = new Set<TypeKey>([
  ...SCALAR_FIELD_TYPES,
  'relationship',
  'upload',
]);
/** Types `json` holds as they are (everything stored in a column; relationship[] is a join table). */
const TO_JSON_SAFE: ReadonlySet<TypeKey> = new Set<TypeKey>([
  ...SCALAR_FIELD_TYPES,
  'select[]',
  'json',
  'richText',
  'component',
  'relationship',
  'upload',
]);
const REFERENCE: ReadonlySet<TypeKey> = new Set(['relationship', 'upload']);

export function optionValues(f: Pick<FieldConfig, 'options'>): string[] {
  return (f.options ?? []).map(optionValue);
}

/** Every option value of `a` is still one of `b`. */
function keepsOptions(a: FieldConfig, b: FieldConfig): boolean {
  const kept = new Set(optionValues(b));
  return optionValues(a).every((v) => kept.has(v));
}

/** Whether changing `a` into `b` (the same field) may lose or invalidate stored values. */
export function isDestructiveAlter(a: FieldConfig, b: FieldConfig): boolean {
  const from = typeKey(a);
  const to = typeKey(b);
  if (from === to) {
    switch (to) {
      case 'select':
      case 'select[]':
        return !keepsOptions(a, b);
      case 'relationship':
      case 'relationship[]':
      case 'upload':
        return a.relationTo !== b.relationTo;
      case 'component':
        return a.fieldGroup !== b.fieldGroup || (a.repeatable === true && b.repeatable !== true);
      default:
        return false;
    }
  }
  if (TEXTUAL.has(to)) {
    return !TO_TEXT_SAFE.has(from);
  }
  if (to === 'json') {
    return !TO_JSON_SAFE.has(from);
  }
  if (from === 'checkbox' && to === 'number') {
    return false;
  }
  if (from === 'select' && to === 'select[]') {
    return !keepsOptions(a, b);
  }
  if (REFERENCE.has(from) && (REFERENCE.has(to) || to === 'relationship[]')) {
    return a.relationTo !== b.relationTo;
  }
  return true;
}
