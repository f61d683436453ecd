import type { components } from '../../../src/client';
import { ApiError } from '../api';

/** The schema builder's model: definitions as the form edits them, and the bodies the API takes. */

export type Kind = 'collection' | 'single' | 'field-group';
export type FieldType = components['schemas']['ContentField']['type'];
export type FieldInput = components['schemas']['ContentFieldInput'];
export type SchemaChange = components['schemas']['SchemaChange'];
export type FieldGroupDefinition = components['schemas']['FieldGroupDefinition'];

/** The path segment of each kind under `/schema` (and under the API's `/…/schema/{slug}`). */
export const SEGMENT: Record<Kind, 'collections' | 'singles' | 'field-groups'> = {
  collection: 'collections',
  single: 'singles',
  'field-group': 'field-groups',
};

export const NOUN: Record<Kind, string> = {
  collection: 'collection',
  single: 'single',
  'field-group': 'field group',
};

/** The field types, in the order the type select offers them, with words for each. */
export const TYPES: ReadonlyArray<{ value: FieldType; label: string }> = [
  { value: 'text', label: 'Text' },
  { value: 'textarea', label: 'Long text' },
  { value: 'richText', label: 'Rich text' },
  { value: 'email', label: 'Email' },
  { value: 'number', label: 'Number' },
  { value: 'checkbox', label: 'Checkbox' },
  { value: 'date', label: 'Date' },
  { value: 'select', label: 'Select (a list of options)' },
  { value: 'json', label: 'JSON' },
  { value: 'relationship', label: 'Relationship (entries of a collection)' },
  { value: 'upload', label: 'Upload (media)' },
  { value: 'component', label: 'Component (a field group)' },
];

/** What each type takes besides name, label and required (the API refuses the others). */
export const TAKES = {
  unique: (t: FieldType, hasMany: boolean) => !['json', 'richText', 'component'].includes(t) && !hasMany,
  index: (t: FieldType) => !['richText', 'component'].includes(t),
  defaultValue: (t: FieldType) => !['relationship', 'upload', 'component'].includes(t),
  options: (t: FieldType) => t === 'select',
  range: (t: FieldType) => t === 'number',
  hasMany: (t: FieldType) => t === 'select' || t === 'relationship',
  relationTo: (t: FieldType) => t === 'relationship' || t === 'upload',
  fieldGroup: (t: FieldType) => t === 'component',
  repeatable: (t: FieldType) => t === 'component',
};

/** One field as the form holds it: every value as its control shows it. */
export interface FieldDraft {
  /** The form's own key (React keys and element ids): stable while the field is edited. */
  key: string;
  /** The stored field's id: sent back, so a changed name is a rename, not a drop and an add. */
  id?: string;
  name: string;
  label: string;
  type: FieldType;
  required: boolean;
  unique: boolean;
  index: boolean;
  /** As typed; read by the type (a number, JSON, `true`/`false`, a comma list for many options). */
  defaultValue: string;
  /** One option a line: `value`, or `Label = value`. */
  options: string;
  min: string;
  max: string;
  hasMany: boolean;
  relationTo: string;
  fieldGroup: string;
  repeatable: boolean;
}

/** A definition as the form holds it. */
export interface Draft {
  slug: string;
  singular: string;
  plural: string;
  /** A single's or field group's label. */
  label: string;
  drafts: boolean;
  versions: boolean;
  versionsMax: string;
  openRead: boolean;
  openCreate: boolean;
  fields: FieldDraft[];
}

let counter = 0;
export const newKey = () => `f${++counter}`;

export function emptyField(): FieldDraft {
  return {
    key: newKey(),
    name: '',
    label: '',
    type: 'text',
    required: false,
    unique: false,
    index: false,
    defaultValue: '',
    options: '',
    min: '',
    max: '',
    hasMany: false,
    relationTo: '',
    fieldGroup: '',
    repeatable: false,
  };
}

export function emptyDraft(): Draft {
  return {
    slug: '',
    singular: '',
    plural: '',
    label: '',
    drafts: false,
    versions: false,
    versionsMax: '50',
    openRead: false,
    openCreate: false,
    fields: [],
  };
}

/** A stored definition of any kind, as the list and the schema routes answer it. */
export interface Stored {
  slug: string;
  source: 'code' | 'ui' | 'system';
  labels?: { singular: string; plural: string };
  label?: string;
  drafts?: boolean;
  versions?: false | { max: number };
  access?: { read?: boolean | 'function'; create?: boolean | 'function' };
  fields: ReadonlyArray<Record<string, unknown>>;
}

function defaultText(value: unknown): string {
  if (value === undefined || value === null) {
    return '';
  }
  if (typeof value === 'string') {
    return value;
  }
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) {
    return value.join(', ');
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function optionsText(options: unknown): string {
  if (!Array.isArray(options)) {
    return '';
  }
  return options
    .map((o: unknown) => {
      if (typeof o === 'string') {
        return o;
      }
      const { label, value } = o as { label: string; value: string };
      return label === value ? value : `${label} = ${value}`;
    })
    .join('\n');
}

export function draftOf(def: Stored): Draft {
  return {
    slug: def.slug,
    singular: def.labels?.singular ?? '',
    plural: def.labels?.plural ?? '',
    label: def.label ?? '',
    drafts: def.drafts === true,
    versions: !!def.versions,
    versionsMax: def.versions ? String(def.versions.max) : '50',
    openRead: def.access?.read === true,
    openCreate: def.access?.create === true,
    fields: def.fields.map((f) => ({
      key: newKey(),
      id: typeof f.id === 'string' ? f.id : undefined,
      name: String(f.name ?? ''),
      label: typeof f.label === 'string' ? f.label : '',
      type: f.type as FieldType,
      required: f.required === true,
      unique: f.unique === true,
      index: f.index === true,
      defaultValue: defaultText(f.defaultValue),
      options: optionsText(f.options),
      min: typeof f.min === 'number' ? String(f.min) : '',
      max: typeof f.max === 'number' ? String(f.max) : '',
      hasMany: f.hasMany === true,
      relationTo: typeof f.relationTo === 'string' ? f.relationTo : '',
      fieldGroup: typeof f.fieldGroup === 'string' ? f.fieldGroup : '',
      repeatable: f.repeatable === true,
    })),
  };
}

/** Lines of `text` as options: `value`, or `Label = value` (split at the last ` = `). */
function optionsOf(text: string): Array<string | { label: string; value: string }> {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const at = line.lastIndexOf(' = ');
      return at < 0 ? line : { label: line.slice(0, at).trim(), value: line.slice(at + 3).trim() };
    });
}

/**
 * The default as its type takes it. What cannot be read (a number that is not one, JSON that does
 * not parse) is sent as typed: the API's answer names the problem on the field.
 */
function defaultOf(f: FieldDraft): unknown {
  const raw = f.defaultValue.trim();
  if (raw === '') {
    return undefined;
  }
  switch (f.type) {
    case 'number':
      return Number.isFinite(Number(raw)) ? Number(raw) : raw;
    case 'checkbox':
      return raw === 'true' ? true : raw === 'false' ? false : raw;
    case 'json':
    case 'richText':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return raw;
      }
    case 'select':
      return f.hasMany
        ? raw
            .split(',')
            .map((v) => v.trim())
            .filter(Boolean)
        : raw;
    default:
      return f.defaultValue;
  }
}

function numberOf(raw: string): number | string | undefined {
  const t = raw.trim();
  if (t === '') {
    return undefined;
  }
  return Number.isFinite(Number(t)) ? Number(t) : t;
}

/** A field as the API takes it: only the keys its type takes, and only those set. */
export function fieldInput(f: FieldDraft): FieldInput {
  const out: Record<string, unknown> = { name: f.name.trim(), type: f.type };
  if (f.id) {
    out.id = f.id;
  }
  if (f.label.trim()) {
    out.label = f.label.trim();
  }
  if (f.required) {
    out.required = true;
  }
  if (f.unique && TAKES.unique(f.type, f.hasMany && TAKES.hasMany(f.type))) {
    out.unique = true;
  }
  if (f.index && TAKES.index(f.type)) {
    out.index = true;
  }
  if (TAKES.hasMany(f.type) && f.hasMany) {
    out.hasMany = true;
  }
  if (TAKES.options(f.type)) {
    out.options = optionsOf(f.options);
  }
  if (TAKES.range(f.type)) {
    const min = numberOf(f.min);
    const max = numberOf(f.max);
    if (min !== undefined) {
      out.min = min;
    }
    if (max !== undefined) {
      out.max = max;
    }
  }
  if (TAKES.defaultValue(f.type)) {
    const value = defaultOf(f);
    if (value !== undefined) {
      out.defaultValue = value;
    }
  }
  if (TAKES.relationTo(f.type)) {
    out.relationTo = f.relationTo;
  }
  if (TAKES.fieldGroup(f.type)) {
    out.fieldGroup = f.fieldGroup;
    if (f.repeatable) {
      out.repeatable = true;
    }
  }
  return out as unknown as FieldInput;
}

/** `versions` as the API takes it: false, or `{ max }` (as typed: the API checks it). */
export function versionsInput(d: Draft): false | { max: number } {
  return d.versions ? { max: Number(d.versionsMax.trim() || '50') } : false;
}

/** The body that creates `d` (`POST /collections`, `/singles`, `/field-groups`). */
export function createBody(kind: Kind, d: Draft): Record<string, unknown> {
  const fields = d.fields.map(fieldInput);
  const slug = d.slug.trim();
  if (kind === 'field-group') {
    return { slug, ...(d.label.trim() ? { label: d.label.trim() } : {}), fields };
  }
  const common = { slug, fields, drafts: d.drafts, versions: versionsInput(d) };
  if (kind === 'single') {
    return {
      ...common,
      ...(d.label.trim() ? { label: d.label.trim() } : {}),
      access: { read: d.openRead },
    };
  }
  // Both labels or neither: the API takes them as a pair.
  const labels =
    d.singular.trim() || d.plural.trim()
      ? { labels: { singular: d.singular.trim(), plural: d.plural.trim() } }
      : {};
  return { ...common, ...labels, access: { read: d.openRead, create: d.openCreate } };
}

/** The body of a preview or an apply: the fields, and drafts and versions where the kind has them. */
export function schemaBody(
  kind: Kind,
  d: Draft,
): { fields: FieldInput[]; drafts?: boolean; versions?: false | { max: number } } {
  const fields = d.fields.map(fieldInput);
  return kind === 'field-group' ? { fields } : { fields, drafts: d.drafts, versions: versionsInput(d) };
}

/**
 * What an apply also stores besides the planned changes, as lines for the preview: labels, open
 * access and versions change no table, so the API's preview does not list them.
 */
export function settingChanges(kind: Kind, was: Draft, now: Draft): string[] {
  const lines: string[] = [];
  const yes = (b: boolean) => (b ? 'yes' : 'no');
  if (kind === 'collection') {
    if (was.singular !== now.singular.trim()) {
      lines.push(`Singular label: “${was.singular}” to “${now.singular.trim()}”`);
    }
    if (was.plural !== now.plural.trim()) {
      lines.push(`Plural label: “${was.plural}” to “${now.plural.trim()}”`);
    }
  } else if (was.label !== now.label.trim()) {
    lines.push(`Label: “${was.label}” to “${now.label.trim()}”`);
  }
  if (kind !== 'field-group') {
    const keep = (d: Draft) => (d.versions ? `keep the newest ${d.versionsMax.trim() || '50'}` : 'none kept');
    if (keep(was) !== keep(now)) {
      lines.push(`Versions: ${keep(was)} to ${keep(now)}`);
    }
    if (was.openRead !== now.openRead) {
      lines.push(`Anyone may read: ${yes(was.openRead)} to ${yes(now.openRead)}`);
    }
  }
  if (kind === 'collection' && was.openCreate !== now.openCreate) {
    lines.push(`Anyone may create: ${yes(was.openCreate)} to ${yes(now.openCreate)}`);
  }
  // The order of the fields is stored too (the editors follow it) but changes no column.
  const stored = new Set(was.fields.map((f) => f.id));
  const kept = new Set(now.fields.map((f) => f.id));
  const order = now.fields.map((f) => (f.id && stored.has(f.id) ? f.id : '+'));
  const plain = [
    ...was.fields.filter((f) => kept.has(f.id)).map((f) => f.id),
    ...now.fields.filter((f) => !f.id || !stored.has(f.id)).map(() => '+'),
  ];
  if (order.join(' ') !== plain.join(' ')) {
    lines.push(`Field order: ${now.fields.map((f) => f.name.trim()).join(', ')}`);
  }
  return lines;
}

/** Whether labels or open access changed: those are stored through the definition's PATCH. */
export function needsPatch(kind: Kind, was: Draft, now: Draft): boolean {
  if (kind === 'collection') {
    return (
      was.singular !== now.singular.trim() ||
      was.plural !== now.plural.trim() ||
      was.openRead !== now.openRead ||
      was.openCreate !== now.openCreate
    );
  }
  return was.label !== now.label.trim() || (kind === 'single' && was.openRead !== now.openRead);
}

/** The control an issue's path belongs to: `fields.2.options.0` is `fields.2.options`. */
export function controlOf(path: string): string {
  const parts = String(path).split('.');
  return parts[0] === 'fields' ? parts.slice(0, 3).join('.') : parts.slice(0, 2).join('.');
}

/** An API refusal's issues, by the control each belongs to. */
export function issuesByControl(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (error instanceof ApiError) {
    for (const issue of error.issues) {
      const key = controlOf(issue.path);
      out[key] = [out[key], issue.message].filter(Boolean).join(' ');
    }
  }
  return out;
}

const WORDS: Record<string, string> = {
  type: 'type',
  hasMany: 'many values',
  options: 'options',
  min: 'min',
  max: 'max',
  relationTo: 'related collection',
  fieldGroup: 'field group',
  repeatable: 'repeatable',
  required: 'required',
  unique: 'unique',
  index: 'index',
  defaultValue: 'default',
  label: 'label',
  drafts: 'drafts',
};

function shown(value: unknown): string {
  if (value === undefined || value === null || value === '') {
    return 'none';
  }
  if (typeof value === 'boolean') {
    return value ? 'yes' : 'no';
  }
  if (Array.isArray(value)) {
    return value.map((v) => (typeof v === 'string' ? v : ((v as { value?: string }).value ?? ''))).join(', ');
  }
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A field's description in a preview row: its type and what it takes. */
function described(field: Record<string, unknown>): string {
  const parts = [String(field.type)];
  for (const k of ['required', 'unique', 'index', 'hasMany', 'repeatable'] as const) {
    if (field[k] === true) {
      parts.push(WORDS[k]);
    }
  }
  if (field.relationTo) {
    parts.push(`to ${String(field.relationTo)}`);
  }
  if (field.fieldGroup) {
    parts.push(`group ${String(field.fieldGroup)}`);
  }
  return parts.join(', ');
}

/** The words of one planned change: what it does, and the field it names. */
export function changeWords(change: SchemaChange): { kind: string; details: string } {
  switch (change.kind) {
    case 'add':
      return { kind: 'Add', details: described(change.to as Record<string, unknown>) };
    case 'drop':
      return { kind: 'Remove', details: 'the field and its stored values are deleted' };
    case 'rename':
      return { kind: 'Rename', details: `${change.from} to ${change.to}` };
    case 'alter': {
      const from = change.from as Record<string, unknown>;
      const to = change.to as Record<string, unknown>;
      const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])];
      return {
        kind: 'Change',
        details: keys.map((k) => `${WORDS[k] ?? k}: ${shown(from[k])} to ${shown(to[k])}`).join('; '),
      };
    }
    default:
      return { kind: 'Change', details: '' };
  }
}

/** The changes creating `d` makes: every field added (nothing exists to change yet). */
export function creationChanges(d: Draft): SchemaChange[] {
  return d.fields.map(
    (f) =>
      ({
        kind: 'add',
        field: f.name.trim(),
        to: fieldInput(f),
        destructive: false,
      }) as SchemaChange,
  );
}
