import { randomUUID } from 'node:crypto';
import { ServiceError, ValidationIssue } from '../../common/errors';
import { checkLabel } from '../../fields';
import type { Definition, DefinitionKind, StoredDefinition } from './content.types';
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
  confirmDestructive?: unknown;
}

export type BodyMode = 'create' | 'update' | 'schema';

const BODY_KEYS: Record<DefinitionKind, Record<BodyMode, readonly string[]>> = {
  collection: {
    create: ['slug', 'labels', 'fields', 'drafts'],
    update: ['labels', 'fields', 'drafts', 'confirmDestructive'],
    schema: ['fields', 'drafts', 'confirmDestructive'],
  },
  single: {
    create: ['slug', 'label', 'fields', 'drafts'],
    update: ['label', 'fields', 'drafts', 'confirmDestructive'],
    schema: ['fields', 'drafts', 'confirmDestructive'],
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
        message:
          k === 'access'
            ? 'access rules are functions and can only be defined in the configuration file'
            : `"${k}" is not accepted here (allowed: ${allowed.join(', ')})`,
      });
    }
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

export function storedOf(def: Definition): StoredDefinition {
  return { labels: def.labels, label: def.label, drafts: def.drafts, fields: def.fields };
}
