/**
 * Answer schemas of the content routes (src/common/api-schema.ts): the definition records of
 * collections, singles and field groups (definition.mapper.ts `toDefinitionRecord`, their fields
 * as stored: definition-body.ts `storedFrom`, checked by schema/validate.ts), the enriched schema
 * (`SchemaService.enriched`, schema/groups.ts `expandFields`), the schema changes (schema/plan.ts,
 * definition-checks.ts `planFull`), the journal (`SchemaService.journal`) and the bulk answers
 * (entries/bulk-input.ts). Entries themselves are described per definition by the OpenAPI module
 * (`Collection_<slug>`, `Single_<slug>`).
 */
import {
  ANY,
  BOOLEAN,
  DATE_TIME,
  type JsonSchema,
  namedSchema,
  NULLABLE_STRING,
  objectSchema,
  schemaRef,
  STRING,
  UUID,
} from '../../common/api-schema';
import type { FieldType } from '../../config/config.types';
import {
  FIELD_NAME_PATTERN,
  MAX_LABEL_LENGTH,
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  SLUG_PATTERN,
} from '../../fields';
import { COMPARED_ATTRIBUTES, CONTENT_FIELD_TYPES, MAX_FIELD_ID_LENGTH, MAX_FIELDS } from './schema';

const NULL: JsonSchema = { type: 'null' };
const SLUG: JsonSchema = { type: 'string', pattern: SLUG_PATTERN.source };
const LABEL: JsonSchema = { type: 'string', minLength: 1, maxLength: MAX_LABEL_LENGTH };
const anyOf = (...schemas: JsonSchema[]): JsonSchema => ({ anyOf: schemas });

/**
 * An option of a select field: its value, or `{ label, value }`. Values are stored trimmed; a
 * label as given (its trimmed text is 1 to 200 characters).
 */
const OPTION_VALUE: JsonSchema = { type: 'string', minLength: 1, maxLength: MAX_OPTION_LENGTH };
const OPTION: JsonSchema = anyOf(
  OPTION_VALUE,
  objectSchema({ label: { type: 'string', minLength: 1 }, value: OPTION_VALUE }),
);

/** Types whose `unique` may not be true, and those that cannot be indexed (schema/validate.ts). */
const NO_UNIQUE: ReadonlySet<FieldType> = new Set(['json', 'richText', 'component']);
const NO_INDEX: ReadonlySet<FieldType> = new Set(['richText', 'component']);

/**
 * A field's `defaultValue` as stored (the value given, once validation accepted it): none for
 * relationship, upload and component fields; null stands for none everywhere.
 */
function defaultValueOf(type: FieldType): JsonSchema {
  switch (type) {
    case 'number':
      return { type: ['number', 'null'] };
    case 'checkbox':
      return { type: ['boolean', 'null'] };
    case 'select':
      // One option value, or (hasMany) an array of distinct option values.
      return anyOf({ type: ['string', 'null'] }, { type: 'array', items: STRING, uniqueItems: true });
    case 'json':
      return ANY;
    case 'richText':
      return { type: ['object', 'null'], description: 'A Lexical document' };
    case 'relationship':
    case 'upload':
    case 'component':
      return NULL;
    default:
      return NULLABLE_STRING;
  }
}

/**
 * A field of one type, as a definition stores it: every key but `id`, `name` and `type` only when
 * it was given. Keys that do not apply to the type may only be given empty (null, or false).
 */
function fieldOfType(type: FieldType, enriched: boolean): JsonSchema {
  const has = (...types: FieldType[]): boolean => types.includes(type);
  const properties: Record<string, JsonSchema> = {
    id: { type: 'string', minLength: 1, maxLength: MAX_FIELD_ID_LENGTH },
    name: { type: 'string', pattern: FIELD_NAME_PATTERN.source },
    type: { const: type },
    label: LABEL,
    required: BOOLEAN,
    unique: NO_UNIQUE.has(type) ? { const: false } : BOOLEAN,
    index: NO_INDEX.has(type) ? { const: false } : BOOLEAN,
    defaultValue: defaultValueOf(type),
    options: has('select') ? { type: 'array', items: OPTION, minItems: 1, maxItems: MAX_OPTIONS } : NULL,
    min: has('number') ? { type: ['number', 'null'] } : NULL,
    max: has('number') ? { type: ['number', 'null'] } : NULL,
    hasMany: has('select', 'relationship') ? BOOLEAN : { const: false },
    relationTo: has('relationship', 'upload') ? SLUG : NULL,
    fieldGroup: has('component') ? SLUG : NULL,
    repeatable: has('component') ? BOOLEAN : { const: false },
  };
  if (enriched && type === 'component') {
    // The group's fields, nested (`fields: []` past the expansion limits).
    properties.fields = { type: 'array', items: schemaRef('EnrichedContentField') };
  }
  // Always there: id, name, type, what the type needs (options, relationTo, fieldGroup), and
  // in an enriched schema a component's fields.
  const needed = ['id', 'name', 'type', 'fields', ...(REFERENCE_KEY[type] ? [REFERENCE_KEY[type]] : [])];
  return objectSchema(
    properties,
    Object.keys(properties).filter((k) => !needed.includes(k)),
  );
}

/** The key a field of the type cannot do without (schema/validate.ts). */
const REFERENCE_KEY: Partial<Record<FieldType, string>> = {
  select: 'options',
  relationship: 'relationTo',
  upload: 'relationTo',
  component: 'fieldGroup',
};

const fieldUnion = (enriched: boolean): JsonSchema => ({
  description: 'A field definition (CONTRACTS 6), one shape per type',
  oneOf: CONTENT_FIELD_TYPES.map((t) => fieldOfType(t, enriched)),
});

/** A field of a definition, as stored and answered (with its stable `id`). */
export const CONTENT_FIELD = namedSchema('ContentField', fieldUnion(false));

/** A field of an enriched schema: a component field carries its group's fields, nested. */
export const ENRICHED_CONTENT_FIELD = namedSchema('EnrichedContentField', fieldUnion(true));

const SOURCE: JsonSchema = {
  type: 'string',
  enum: ['code', 'ui', 'system'],
  description: 'code: the configuration file; ui: created over REST; system: built in (media)',
};

const fieldsOf = (field: JsonSchema): JsonSchema => ({ type: 'array', items: field, maxItems: MAX_FIELDS });

const collectionRecord = (field: JsonSchema): JsonSchema =>
  objectSchema({
    id: UUID,
    slug: SLUG,
    labels: objectSchema({ singular: STRING, plural: STRING }),
    fields: fieldsOf(field),
    drafts: BOOLEAN,
    source: SOURCE,
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
  });

const singleRecord = (field: JsonSchema): JsonSchema =>
  objectSchema({
    id: UUID,
    slug: SLUG,
    label: STRING,
    fields: fieldsOf(field),
    drafts: BOOLEAN,
    source: SOURCE,
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
  });

/** A collection definition (`toDefinitionRecord`). */
export const COLLECTION_DEFINITION = namedSchema('CollectionDefinition', collectionRecord(CONTENT_FIELD));

/** A single definition (`toDefinitionRecord`). */
export const SINGLE_DEFINITION = namedSchema('SingleDefinition', singleRecord(CONTENT_FIELD));

/** A field group definition (`toDefinitionRecord`). */
export const FIELD_GROUP_DEFINITION = namedSchema(
  'FieldGroupDefinition',
  objectSchema({
    id: UUID,
    slug: SLUG,
    label: STRING,
    fields: fieldsOf(CONTENT_FIELD),
    source: SOURCE,
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
  }),
);

/** `GET /collections/schema/{slug}`: the definition with component fields expanded. */
export const ENRICHED_COLLECTION = namedSchema(
  'EnrichedCollectionDefinition',
  collectionRecord(ENRICHED_CONTENT_FIELD),
);

/** `GET /singles/{slug}/schema`: the definition with component fields expanded. */
export const ENRICHED_SINGLE = namedSchema('EnrichedSingleDefinition', singleRecord(ENRICHED_CONTENT_FIELD));

/**
 * The attributes an alter changed (schema/plan.ts `diffAttributes`): booleans true/false, an
 * absent value null.
 */
const ATTRIBUTE: Record<(typeof COMPARED_ATTRIBUTES)[number], JsonSchema> = {
  type: { type: 'string', enum: [...CONTENT_FIELD_TYPES] },
  hasMany: BOOLEAN,
  options: anyOf({ type: 'array', items: OPTION }, NULL),
  min: { type: ['number', 'null'] },
  max: { type: ['number', 'null'] },
  relationTo: NULLABLE_STRING,
  fieldGroup: NULLABLE_STRING,
  repeatable: BOOLEAN,
  required: BOOLEAN,
  unique: BOOLEAN,
  index: BOOLEAN,
  defaultValue: ANY,
  label: NULLABLE_STRING,
};
const ATTRIBUTES = objectSchema(ATTRIBUTE, [...COMPARED_ATTRIBUTES]);

/** One planned change of a definition (schema/plan.ts `Change`, definition-checks.ts `ChangeRecord`). */
export const SCHEMA_CHANGE = namedSchema('SchemaChange', {
  oneOf: [
    objectSchema({ kind: { const: 'add' }, field: STRING, to: CONTENT_FIELD, destructive: { const: false } }),
    objectSchema({
      kind: { const: 'drop' },
      field: STRING,
      from: CONTENT_FIELD,
      destructive: { const: true },
    }),
    objectSchema({
      kind: { const: 'rename' },
      field: STRING,
      from: STRING,
      to: STRING,
      destructive: { const: false },
    }),
    objectSchema({
      kind: { const: 'alter' },
      field: { type: 'string', not: { const: 'status' } },
      from: ATTRIBUTES,
      to: ATTRIBUTES,
      destructive: BOOLEAN,
    }),
    objectSchema({
      kind: { const: 'alter' },
      field: { const: 'status' },
      from: objectSchema({ drafts: BOOLEAN }),
      to: objectSchema({ drafts: BOOLEAN }),
      destructive: BOOLEAN,
    }),
  ],
  description:
    'A field added, dropped, renamed or altered; drafts switched on or off as an alter of `status`',
});

const CHANGES: JsonSchema = { type: 'array', items: SCHEMA_CHANGE };

/** `POST .../schema/{slug}/preview` of collections, singles and field groups. */
export const SCHEMA_PREVIEW = namedSchema(
  'SchemaPreview',
  objectSchema({ changes: CHANGES, destructive: BOOLEAN }),
);

/** `POST .../schema/{slug}/apply`: the definition after the change, and what changed. */
export const schemaApplied = (definition: JsonSchema): JsonSchema =>
  objectSchema({ message: STRING, item: definition, changes: CHANGES });

/** An applied schema change (`GET /schema/journal`). */
export const JOURNAL_RECORD = objectSchema({
  id: UUID,
  target: { type: 'string', enum: ['collection', 'single', 'field-group'] },
  slug: SLUG,
  changes: CHANGES,
  appliedBy: { ...UUID, type: ['string', 'null'] },
  appliedAt: DATE_TIME,
});

/** The answer of the bulk routes and the update by query (entries/bulk-input.ts `BulkResult`). */
export const BULK_RESULT = namedSchema(
  'BulkResult',
  objectSchema({
    message: STRING,
    items: { type: 'array', items: objectSchema({ id: UUID }) },
    errors: {
      type: 'array',
      items: objectSchema({
        id: { type: 'string', description: 'The id as sent (it may be no id at all)' },
        code: { type: 'string', enum: ['NOT_FOUND', 'VALIDATION_ERROR'] },
        message: STRING,
      }),
    },
  }),
);

/** `GET /collections/{slug}/entries/count`. */
export const ENTRY_COUNT = objectSchema({ total: { type: 'integer', minimum: 0 } });
