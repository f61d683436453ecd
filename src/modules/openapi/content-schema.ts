import type { FieldConfig } from '../../config/config.types';
import type { Definition } from '../content/content.types';
import type { JsonSchema } from './dto-schema';

/** Component name of a collection's entry, a single's value, a field group's value. */
export const contentSchemaName = (kind: Definition['kind'], slug: string): string =>
  `${kind === 'collection' ? 'Collection' : kind === 'single' ? 'Single' : 'FieldGroup'}_${slug}`;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (s: JsonSchema): JsonSchema =>
  typeof s.type === 'string' ? { ...s, type: [s.type, 'null'] } : { anyOf: [s, { type: 'null' }] };

/**
 * What a relationship or upload holds: an id, or (read with `depth`) the related entry, presented
 * as its own collection's entries are (`known`: the collections the document describes).
 */
function relation(f: FieldConfig, known?: ReadonlySet<string>): JsonSchema {
  const target = f.relationTo ?? (f.type === 'upload' ? 'media' : undefined);
  const populated =
    target && known?.has(target)
      ? ref(contentSchemaName('collection', target))
      : { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'] };
  return {
    anyOf: [{ type: 'string', format: 'uuid' }, populated],
    description: `id of ${target ? `a \`${target}\` entry` : 'an entry'} (the entry itself when read with depth)`,
  };
}

/**
 * A field's value as entries hold it (SPEC 4.1, entry-input.ts): read and written alike. Null is
 * allowed everywhere (a cleared value); a hasMany value is an array (never null when read).
 */
export function fieldSchema(f: FieldConfig, known?: ReadonlySet<string>): JsonSchema {
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
      // A cleared value is null: the enum lists it (an enum holds whatever the type allows).
      return values.length ? { type: ['string', 'null'], enum: [...values, null] } : nullable(s);
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
          {
            type: 'object',
            properties: { root: { type: 'object' } },
            required: ['root'],
            description: 'Lexical JSON (the default `richTextFormat=json`)',
          },
          { type: 'string', description: 'HTML (`richTextFormat=html`)' },
          {
            type: 'object',
            properties: {
              json: { type: 'object', properties: { root: { type: 'object' } }, required: ['root'] },
              html: { type: 'string' },
            },
            required: ['json', 'html'],
            additionalProperties: false,
            description: 'Both (`richTextFormat=both`)',
          },
          { type: 'null' },
        ],
      };
    case 'relationship':
    case 'upload':
      s = relation(f, known);
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

/** The built-in media collection (content/media.definition.ts; not one of content's exports). */
const isMedia = (def: Definition): boolean => def.source === 'system' && def.slug === 'media';

/**
 * What the media module answers of a media entry (media/media-presentation.ts `presentMedia`):
 * the file's description as the upload stored it, `url` (with `filename`), and `sizes` as
 * `{ [size name]: { url, width, height, mimeType, filesize } }`.
 */
function mediaProperties(properties: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const size: JsonSchema = {
    type: 'object',
    properties: {
      url: { type: 'string' },
      width: { type: 'number' },
      height: { type: 'number' },
      mimeType: { type: 'string' },
      filesize: { type: 'number' },
    },
    required: ['url', 'width', 'height', 'mimeType', 'filesize'],
    additionalProperties: false,
  };
  const out: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(properties)) {
    if (name === 'createdAt') {
      out.url = {
        type: 'string',
        readOnly: true,
        description: 'Where the file is served (`/admin/api/media/{id}/{filename}`)',
      };
    }
    if (name === 'sizes') {
      out.sizes = {
        type: 'object',
        additionalProperties: size,
        readOnly: true,
        description: 'The image variants, by image size name (none for a file that is no raster image)',
      };
    } else if (name === 'filename' || name === 'mimeType') {
      out[name] = { type: 'string', readOnly: true };
    } else if (name === 'filesize') {
      out[name] = { type: 'integer', minimum: 0, readOnly: true };
    } else if (name === 'width' || name === 'height') {
      out[name] = { type: ['integer', 'null'], readOnly: true };
    } else {
      out[name] = schema;
    }
  }
  return out;
}

/**
 * The schema of a definition's entries: its fields, plus `id`, `status` (drafts only),
 * `createdAt`, `updatedAt` for collections and singles (always answered, so required: they are
 * read-only, which OpenAPI requires of answers only). No field is listed as required: a read may
 * `select` fields, and what a write requires depends on the status (drafts). `known`: the
 * collections the document describes (a populated relationship refers to its target's schema).
 */
export function definitionSchema(def: Definition, known?: ReadonlySet<string>): JsonSchema {
  let properties: Record<string, JsonSchema> = {};
  const managed = def.kind !== 'field-group';
  if (managed) {
    properties.id = { type: 'string', format: 'uuid', readOnly: true };
  }
  for (const f of def.fields) {
    properties[f.name] = { ...fieldSchema(f, known), ...(f.label ? { title: f.label } : {}) };
  }
  if (managed && def.drafts) {
    properties.status = { type: 'string', enum: ['draft', 'published'] };
  }
  if (managed) {
    properties.createdAt = { type: 'string', format: 'date-time', readOnly: true };
    properties.updatedAt = { type: 'string', format: 'date-time', readOnly: true };
  }
  if (isMedia(def)) {
    properties = mediaProperties(properties);
  }
  return {
    type: 'object',
    title: def.labels?.singular ?? def.label ?? def.slug,
    'x-source': def.source,
    properties,
    ...(managed ? { required: ['id', 'createdAt', 'updatedAt'] } : {}),
    additionalProperties: false,
  };
}

/** Component name of what a write of a definition's entries (or a component value) takes. */
export const contentInputSchemaName = (kind: Definition['kind'], slug: string): string =>
  `${contentSchemaName(kind, slug)}_Input`;

const orNull = (...schemas: JsonSchema[]): JsonSchema => ({ anyOf: [...schemas, { type: 'null' }] });
const EMPTY: JsonSchema = { const: '' };
const UUID: JsonSchema = { type: 'string', format: 'uuid' };

/**
 * A field's value as a write takes it (content/entries/entry-input.ts): null clears it, and so
 * does "" for text, textarea, email, select and date; a date may be `YYYY-MM-DD`; a relationship
 * is an id or an object with one (a populated entry sent back); rich text is a Lexical document.
 */
export function fieldInputSchema(f: FieldConfig): JsonSchema {
  switch (f.type) {
    case 'email':
      return orNull({ type: 'string', format: 'email', maxLength: 320 }, EMPTY);
    case 'select': {
      const values = (f.options ?? []).map((o) => (typeof o === 'string' ? o : o.value));
      const one: JsonSchema = { type: 'string', ...(values.length ? { enum: values } : {}) };
      return f.hasMany
        ? { type: ['array', 'null'], items: one, uniqueItems: true, maxItems: 200 }
        : orNull(one, EMPTY);
    }
    case 'date':
      return orNull(
        { type: 'string', format: 'date', description: '`YYYY-MM-DD`: midnight UTC' },
        { type: 'string', format: 'date-time', description: 'with `Z` or an offset' },
        EMPTY,
      );
    case 'richText':
      return orNull({
        type: 'object',
        properties: { root: { type: 'object' } },
        required: ['root'],
        description: 'A Lexical editor state (JSON)',
      });
    case 'relationship':
    case 'upload': {
      const one: JsonSchema = {
        anyOf: [
          UUID,
          { type: 'object', properties: { id: UUID }, required: ['id'], description: 'an entry sent back' },
        ],
      };
      return f.hasMany ? { type: ['array', 'null'], items: one, maxItems: 1000 } : orNull(one);
    }
    case 'component': {
      const group = f.fieldGroup
        ? ref(contentInputSchemaName('field-group', f.fieldGroup))
        : { type: 'object' };
      return f.repeatable ? { type: ['array', 'null'], items: group, maxItems: 100 } : orNull(group);
    }
    default:
      // text, textarea, number, checkbox, json: written as they are read.
      return fieldSchema(f);
  }
}

/**
 * What a write of a definition's entries takes: its fields (none required here: a create of a
 * draft may be incomplete and an update sends what changes; the service names a missing required
 * field), `status` on drafts collections; never `id` or the timestamps (set by the service).
 * Inside a component the group's required fields are always required.
 */
export function definitionInputSchema(def: Definition): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  // A JSON write of a media entry sets these only (content's MEDIA_EDITABLE_FIELDS): the rest
  // describe the stored file, made by the upload.
  const fields = isMedia(def)
    ? def.fields.filter((f) => f.name === 'alt' || f.name === 'caption')
    : def.fields;
  for (const f of fields) {
    properties[f.name] = { ...fieldInputSchema(f), ...(f.label ? { title: f.label } : {}) };
  }
  if (def.kind !== 'field-group' && def.drafts) {
    properties.status = { type: 'string', enum: ['draft', 'published'] };
  }
  const required =
    def.kind === 'field-group'
      ? def.fields.filter((f) => f.required && (f.defaultValue === undefined || f.defaultValue === null))
      : [];
  return {
    type: 'object',
    title: `${def.labels?.singular ?? def.label ?? def.slug} (write)`,
    properties,
    ...(required.length ? { required: required.map((f) => f.name) } : {}),
    additionalProperties: false,
  };
}
