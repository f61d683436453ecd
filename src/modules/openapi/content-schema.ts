import type { FieldConfig } from '../../config/config.types';
import type { Definition } from '../content/content.types';
import type { JsonSchema } from './dto-schema';

/** Component name of a collection's entry, a single's value, a field group's value. */
export const contentSchemaName = (kind: Definition['kind'], slug: string): string =>
  `${kind === 'collection' ? 'Collection' : kind === 'single' ? 'Single' : 'FieldGroup'}_${slug}`;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (s: JsonSchema): JsonSchema =>
  typeof s.type === 'string' ? { ...s, type: [s.type, 'null'] } : { anyOf: [s, { type: 'null' }] };

/** What a relationship or upload holds: an id, or (read with `depth`) the populated entry. */
function relation(f: FieldConfig): JsonSchema {
  const target = f.relationTo ?? (f.type === 'upload' ? 'media' : undefined);
  return {
    anyOf: [
      { type: 'string', format: 'uuid' },
      { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'] },
    ],
    description: `id of ${target ? `a \`${target}\` entry` : 'an entry'} (the entry itself when read with depth)`,
  };
}

/**
 * A field's value as entries hold it (SPEC 4.1, entry-input.ts): read and written alike. Null is
 * allowed everywhere (a cleared value); a hasMany value is an array (never null when read).
 */
export function fieldSchema(f: FieldConfig): JsonSchema {
  let s: JsonSchema;
  switch (f.type) {
    case 'text':
      s = { type: 'string', maxLength: 10_000 };
      break;
    case 'textarea':
      s = { type: 'string', maxLength: 1_000_000 };
      break;
    case 'email':
      s = { type: 'string', format: 'email', maxLength: 320 };
      break;
    case 'select': {
      const values = (f.options ?? []).map((o) => (typeof o === 'string' ? o : o.value));
      s = { type: 'string', ...(values.length ? { enum: values } : {}) };
      if (f.hasMany) {
        return { type: ['array', 'null'], items: s, uniqueItems: true, maxItems: 200 };
      }
      break;
    }
    case 'number':
      s = {
        type: 'number',
        ...(typeof f.min === 'number' ? { minimum: f.min } : {}),
        ...(typeof f.max === 'number' ? { maximum: f.max } : {}),
      };
      break;
    case 'checkbox':
      s = { type: 'boolean' };
      break;
    case 'date':
      s = {
        type: 'string',
        format: 'date-time',
        description: 'ISO 8601 (read: UTC with milliseconds; written: also `YYYY-MM-DD`)',
      };
      break;
    case 'json':
      return { description: 'any JSON value' };
    case 'richText':
      return {
        anyOf: [
          { type: 'object', description: 'Lexical JSON (the default `richTextFormat=json`)' },
          { type: 'string', description: 'HTML (`richTextFormat=html`)' },
          { type: 'null' },
        ],
      };
    case 'relationship':
    case 'upload':
      s = relation(f);
      if (f.hasMany) {
        return { type: ['array', 'null'], items: s, maxItems: 1000 };
      }
      break;
    case 'component': {
      const group = f.fieldGroup ? ref(contentSchemaName('field-group', f.fieldGroup)) : { type: 'object' };
      return f.repeatable
        ? { type: ['array', 'null'], items: group, maxItems: 100 }
        : { anyOf: [group, { type: 'null' }] };
    }
    default:
      return { description: `a field of type ${String((f as { type: unknown }).type)}` };
  }
  return nullable(s);
}

/**
 * The schema of a definition's entries: its fields, plus `id`, `status` (drafts only),
 * `createdAt`, `updatedAt` for collections and singles. No field is listed as required: a
 * read may `select` fields, and what a write requires depends on the status (drafts).
 */
export function definitionSchema(def: Definition): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const managed = def.kind !== 'field-group';
  if (managed) {
    properties.id = { type: 'string', format: 'uuid', readOnly: true };
  }
  for (const f of def.fields) {
    properties[f.name] = { ...fieldSchema(f), ...(f.label ? { title: f.label } : {}) };
  }
  if (managed && def.drafts) {
    properties.status = { type: 'string', enum: ['draft', 'published'] };
  }
  if (managed) {
    properties.createdAt = { type: 'string', format: 'date-time', readOnly: true };
    properties.updatedAt = { type: 'string', format: 'date-time', readOnly: true };
  }
  return {
    type: 'object',
    title: def.labels?.singular ?? def.label ?? def.slug,
    'x-source': def.source,
    properties,
    additionalProperties: false,
  };
}
