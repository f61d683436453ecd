import type { FieldConfig } from '../../config/config.types';
import type { Definition } from '../content/content.types';
import type { JsonSchema } from './dto-schema';
import { pascalCase } from './operation-names';

/**
 * Component name of a collection's entry, a single's value, a field group's value: the slug in
 * PascalCase with the kind (`posts` → `PostsEntry`, `site-settings` → `SiteSettingsSingle`).
 */
export const contentSchemaName = (kind: Definition['kind'], slug: string): string =>
  `${pascalCase(slug)}${kind === 'collection' ? 'Entry' : kind === 'single' ? 'Single' : 'FieldGroup'}`;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** A Lexical editor state (the `LexicalNode` component describes its nodes). */
const LEXICAL: JsonSchema = ref('LexicalDocument');

/** A json field: any JSON value (an object, an array, a string, a number, a boolean or null). */
const JSON_VALUE: JsonSchema = ref('JsonValue');

/** The components rich text fields refer to: a Lexical document and its nodes. */
export const LEXICAL_SCHEMAS: Record<string, JsonSchema> = {
  LexicalDocument: {
    type: 'object',
    description: 'A Lexical editor state, as the editor serialises it (`editorState.toJSON()`)',
    properties: {
      root: {
        type: 'object',
        properties: {
          type: { const: 'root' },
          children: { type: 'array', items: ref('LexicalNode') },
          version: { type: 'integer' },
          direction: { type: ['string', 'null'], enum: ['ltr', 'rtl', null] },
          format: { type: ['string', 'integer'] },
          indent: { type: 'integer' },
        },
        required: ['type', 'children'],
        additionalProperties: true,
      },
    },
    required: ['root'],
    additionalProperties: false,
  },
  LexicalNode: {
    type: 'object',
    description:
      'A node of the document: `type` names it (`paragraph`, `heading`, `text`, `list`, `listitem`, `link`, `quote`...); element nodes hold `children`, text nodes `text`',
    properties: {
      type: { type: 'string' },
      version: { type: 'integer' },
      children: { type: 'array', items: ref('LexicalNode') },
      text: { type: 'string' },
      format: { type: ['string', 'integer'] },
      tag: { type: 'string' },
      url: { type: 'string' },
    },
    required: ['type'],
    additionalProperties: true,
  },
};
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
      return JSON_VALUE;
    case 'richText':
      return {
        anyOf: [
          { ...LEXICAL, description: 'Lexical JSON (the default `richTextFormat=json`)' },
          { type: 'string', description: 'HTML (`richTextFormat=html`)' },
          {
            type: 'object',
            properties: {
              json: LEXICAL,
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

/**
 * Component name of what a write takes: a create of a collection's entry (`PostsEntryInput`), an
 * update of a single (`SiteSettingsSingleInput`), a component value (`SeoFieldGroupInput`).
 */
export const contentInputSchemaName = (kind: Definition['kind'], slug: string): string =>
  `${contentSchemaName(kind, slug)}Input`;

/** Component name of an update of a collection's entry: any of its fields (`PostsEntryUpdate`). */
export const contentUpdateSchemaName = (slug: string): string =>
  `${contentSchemaName('collection', slug)}Update`;

/** Component name of a collection's filter (`PostsWhere`). */
export const whereSchemaName = (slug: string): string => `${pascalCase(slug)}Where`;

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
      return orNull({ ...LEXICAL, description: 'A Lexical editor state (JSON)' });
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

/** `s` without its null alternative (a type array's `'null'`, an `anyOf`'s `{ type: 'null' }`). */
function withoutNull(s: JsonSchema): JsonSchema {
  if (Array.isArray(s.type)) {
    const types = (s.type as string[]).filter((t) => t !== 'null');
    const out: JsonSchema = { ...s, type: types.length === 1 ? types[0] : types };
    if (Array.isArray(s.enum)) {
      out.enum = (s.enum as unknown[]).filter((v) => v !== null);
    }
    return out;
  }
  if (Array.isArray(s.anyOf)) {
    const rest = (s.anyOf as JsonSchema[]).filter((b) => b.type !== 'null');
    const { anyOf: _anyOf, ...others } = s;
    return rest.length === 1 ? { ...rest[0], ...others } : { ...others, anyOf: rest };
  }
  return s;
}

/**
 * What a write of a definition's entries takes: its fields (none required here: a create of a
 * draft may be incomplete and an update sends what changes; the service names a missing required
 * field), `status` on drafts collections; never `id` or the timestamps (set by the service).
 * Inside a component the group's required fields are always required.
 */
export function definitionInputSchema(def: Definition, create = false): JsonSchema {
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
  // Required: what a create must send (no default fills it); a draft may leave them out.
  const mandatory = fields
    .filter((f) => f.required && (f.defaultValue === undefined || f.defaultValue === null))
    .map((f) => f.name);
  const enforced = def.kind === 'field-group' || (create && !def.drafts) ? mandatory : [];
  for (const name of enforced) {
    // A required field is refused as null (the service answers `required`): not in its type.
    properties[name] = withoutNull(properties[name]);
  }
  const noun = def.labels?.singular ?? def.label ?? def.slug;
  const description =
    create && def.drafts && mandatory.length
      ? `A new ${noun}. A draft may leave fields out; publishing needs ${mandatory.map((n) => `\`${n}\``).join(', ')}`
      : create
        ? `A new ${noun}`
        : def.kind === 'field-group'
          ? `A ${noun} value`
          : `The fields of the ${noun} to change; the others keep their values`;
  return {
    type: 'object',
    title: `${noun} (${create ? 'create' : 'write'})`,
    description,
    properties,
    ...(enforced.length ? { required: enforced } : {}),
    additionalProperties: false,
  };
}
