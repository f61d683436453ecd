import { randomUUID } from 'node:crypto';
import { ServiceError, ValidationIssue } from '../../common/errors';
import { checkLabel } from '../../fields';
import type { ContentAction, Definition, DefinitionKind, StoredDefinition } from './content.types';
import type { FieldWithId } from './schema';

/**
 * The definition body reader: the envelope of a definition sent over REST (or written in the
 * configuration file), and the stored definition it asks for. Field rules are
 * validateDefinition's (schema/validate.ts). Pure.
 */

export interface DefinitionInput {
  slug?: unknown;
  labels?: unknown;
  label?: unknown;
  drafts?: unknown;
  fields?: unknown;
  access?: unknown;
  versions?: unknown;
  confirmDestructive?: unknown;
}

export type BodyMode = 'create' | 'update' | 'schema';

const BODY_KEYS: Record<DefinitionKind, Record<BodyMode, readonly string[]>> = {
  collection: {
    create: ['slug', 'labels', 'fields', 'drafts', 'access', 'versions'],
    update: ['labels', 'fields', 'drafts', 'access', 'versions', 'confirmDestructive'],
    schema: ['fields', 'drafts', 'versions', 'confirmDestructive'],
  },
  single: {
    create: ['slug', 'label', 'fields', 'drafts', 'access', 'versions'],
    update: ['label', 'fields', 'drafts', 'access', 'versions', 'confirmDestructive'],
    schema: ['fields', 'drafts', 'versions', 'confirmDestructive'],
  },
  'field-group': {
    create: ['slug', 'label', 'fields'],
    update: ['label', 'fields', 'confirmDestructive'],
    schema: ['fields', 'confirmDestructive'],
  },
};

/** Checks the envelope of a definition body; field rules are validateDefinition's. */
export function readBody(body: unknown, kind: DefinitionKind, mode: BodyMode): DefinitionInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ServiceError.validation([
      { path: '', code: 'isObject', message: 'the body must be a JSON object' },
    ]);
  }
  const input = body as Record<string, unknown>;
  const allowed = BODY_KEYS[kind][mode];
  const issues: ValidationIssue[] = [];
  for (const k of Object.keys(input)) {
    if (!allowed.includes(k)) {
      issues.push({
        path: k,
        code: 'unknown_field',
        message: `"${k}" is not accepted here (allowed: ${allowed.join(', ')})`,
      });
    }
  }
  if (input.access !== undefined && allowed.includes('access') && kind !== 'field-group') {
    issues.push(...checkAccess(input.access, kind));
  }
  if (input.versions !== undefined && allowed.includes('versions')) {
    issues.push(...checkVersions(input.versions));
  }
  if (mode === 'schema' && input.fields === undefined) {
    issues.push({ path: 'fields', code: 'required', message: 'fields is required' });
  }
  if (input.labels !== undefined) {
    const l = input.labels as Record<string, unknown> | null;
    if (typeof l !== 'object' || l === null || Array.isArray(l)) {
      issues.push({ path: 'labels', code: 'isObject', message: 'labels must be { singular, plural }' });
    } else {
      for (const k of Object.keys(l)) {
        if (k !== 'singular' && k !== 'plural') {
          issues.push({
            path: `labels.${k}`,
            code: 'unknown_field',
            message: 'labels holds singular and plural only',
          });
        }
      }
      for (const k of ['singular', 'plural'] as const) {
        const sink: ValidationIssue[] = [];
        if (typeof l[k] !== 'string' || (l[k] as string).trim() === '') {
          sink.push({ path: 'label', code: 'isString', message: `${k} must be a non-empty string` });
        } else {
          checkLabel(l[k], sink);
        }
        issues.push(...sink.map((i) => ({ ...i, path: `labels.${k}` })));
      }
    }
  }
  if (input.label !== undefined) {
    const sink: ValidationIssue[] = [];
    checkLabel(input.label, sink);
    issues.push(...sink);
  }
  if (input.confirmDestructive !== undefined && typeof input.confirmDestructive !== 'boolean') {
    issues.push({
      path: 'confirmDestructive',
      code: 'isBoolean',
      message: 'confirmDestructive must be a boolean',
    });
  }
  if (issues.length) {
    throw ServiceError.validation(issues);
  }
  return input;
}

/** The actions a definition made over REST may open to anyone; the others stay permission-only. */
export const OPEN_ACTIONS: Record<'collection' | 'single', readonly ContentAction[]> = {
  collection: ['read', 'create'],
  single: ['read'],
};
const RULE_ACTIONS: Record<'collection' | 'single', readonly ContentAction[]> = {
  collection: ['read', 'create', 'update', 'delete'],
  single: ['read', 'update'],
};

/**
 * `access` of a REST body: booleans for the actions in OPEN_ACTIONS only. Opening update or
 * delete to anyone, and rule functions, stay with the configuration file.
 */
function checkAccess(value: unknown, kind: 'collection' | 'single'): ValidationIssue[] {
  const open = OPEN_ACTIONS[kind];
  if (!isObject(value)) {
    return [
      {
        path: 'access',
        code: 'isObject',
        message: `access must be an object of booleans (${open.join(', ')})`,
      },
    ];
  }
  const issues: ValidationIssue[] = [];
  for (const [k, v] of Object.entries(value)) {
    const path = `access.${k}`;
    if (open.includes(k as ContentAction)) {
      if (typeof v !== 'boolean') {
        issues.push({ path, code: 'isBoolean', message: `${path} must be true or false` });
      }
    } else if (RULE_ACTIONS[kind].includes(k as ContentAction)) {
      issues.push({
        path,
        code: 'notAllowed',
        message:
          `${k} cannot be opened over REST: the ${k}-<slug> permission decides it (a rule for it ` +
          'can only be set in the configuration file)',
      });
    } else {
      issues.push({
        path,
        code: 'unknown_field',
        message: `access holds ${open.join(' and ')} only`,
      });
    }
  }
  return issues;
}

/** Versions kept per entry when `versions: true`. */
export const DEFAULT_VERSIONS_MAX = 50;
/** The largest `versions.max`. */
export const MAX_VERSIONS_MAX = 1000;

/** `versions`: `true`, `false` or `{ max }` (an integer from 1 to MAX_VERSIONS_MAX); `path` names it. */
export function checkVersions(value: unknown, path = 'versions'): ValidationIssue[] {
  if (typeof value === 'boolean') {
    return [];
  }
  if (!isObject(value)) {
    return [
      {
        path,
        code: 'invalid',
        message: `versions must be true, false or { max } (max: an integer from 1 to ${MAX_VERSIONS_MAX})`,
      },
    ];
  }
  const issues: ValidationIssue[] = [];
  for (const k of Object.keys(value)) {
    if (k !== 'max') {
      issues.push({ path: `${path}.${k}`, code: 'unknown_field', message: 'versions holds max only' });
    }
  }
  const max = value.max;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > MAX_VERSIONS_MAX) {
    issues.push({
      path: `${path}.max`,
      code: max === undefined ? 'required' : 'range',
      message: `max must be an integer from 1 to ${MAX_VERSIONS_MAX}`,
    });
  }
  return issues;
}

/** The stored form of `versions`: `true` keeps DEFAULT_VERSIONS_MAX, `false` (or anything else) none. */
function versionsOf(value: unknown): StoredDefinition['versions'] {
  if (value === true) {
    return { max: DEFAULT_VERSIONS_MAX };
  }
  return isObject(value) && typeof value.max === 'number' ? { max: value.max } : undefined;
}

/**
 * The stored form of open access: the actions set to `true`, in a fixed order; none: undefined.
 * `false` is not kept: it means "not open", the permission decides (a stored `false` would be a
 * rule that shuts everyone out, super-admins included).
 */
export function openAccessOf(value: unknown): StoredDefinition['access'] {
  if (!isObject(value)) {
    return undefined;
  }
  const out: NonNullable<StoredDefinition['access']> = {};
  for (const a of ['read', 'create'] as const) {
    if (value[a] === true) {
      out[a] = true;
    }
  }
  return Object.keys(out).length ? out : undefined;
}

/**
 * The stored definition a body asks for: absent keys keep `current`'s, each field keeps the id of
 * the field it is paired with (its own id, else the stored field of the same name), new fields
 * get a new id.
 */
export function storedFrom(
  input: DefinitionInput,
  currentFields: readonly FieldWithId[],
  current?: StoredDefinition,
): StoredDefinition {
  const out: StoredDefinition = { fields: currentFields.map((f) => ({ ...f })) };
  const labels = input.labels ?? current?.labels;
  if (labels) {
    out.labels = labels as StoredDefinition['labels'];
  }
  const label = input.label ?? current?.label;
  if (label !== undefined) {
    out.label = String(label).trim();
  }
  out.drafts = input.drafts !== undefined ? (input.drafts as boolean) : current?.drafts === true;
  // Absent keys of `access` keep their stored value.
  const access =
    input.access !== undefined
      ? openAccessOf({ ...current?.access, ...(isObject(input.access) ? input.access : {}) })
      : openAccessOf(current?.access);
  if (access) {
    out.access = access;
  }
  const versions = input.versions !== undefined ? versionsOf(input.versions) : current?.versions;
  if (versions) {
    out.versions = { max: versions.max };
  }
  if (input.fields !== undefined && !Array.isArray(input.fields)) {
    out.fields = input.fields as FieldWithId[]; // validateDefinition reports it
  } else if (input.fields !== undefined) {
    const given = input.fields as unknown[];
    const byName = new Map(currentFields.map((f) => [f.name, f]));
    const claimed = new Set(
      given.map((f) => (isObject(f) ? f.id : undefined)).filter((id) => typeof id === 'string'),
    );
    out.fields = given.map((f) => {
      if (!isObject(f)) {
        return f as FieldWithId; // validateDefinition reports it
      }
      const clean = cleanField(f as unknown as FieldWithId);
      if (clean.id === undefined && typeof clean.name === 'string') {
        const same = byName.get(clean.name)?.id;
        clean.id = same !== undefined && !claimed.has(same) ? same : randomUUID();
        claimed.add(clean.id);
      }
      return clean;
    });
  }
  return out;
}

/** A field as stored: the keys given, undefined ones left out, label trimmed. */
function cleanField(f: FieldWithId): FieldWithId {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) {
    if (v !== undefined) {
      out[k] = k === 'label' && typeof v === 'string' ? v.trim() : v;
    }
  }
  return out as unknown as FieldWithId;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The stored definition behind `def` (open access: the `true` booleans of a REST-made one). */
export function storedOf(def: Definition): StoredDefinition {
  const access = def.source === 'ui' ? openAccessOf(def.access) : undefined;
  return {
    labels: def.labels,
    label: def.label,
    drafts: def.drafts,
    ...(access ? { access } : {}),
    ...(def.versions ? { versions: def.versions } : {}),
    fields: def.fields,
  };
}
