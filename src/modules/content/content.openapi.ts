/**
 * Answer schemas of the content routes (src/common/api-schema.ts): the definition records of
 * collections, singles and field groups (definition.mapper.ts `toDefinitionRecord`, their fields
 * as stored: definition-body.ts `storedFrom`, checked by schema/validate.ts), the enriched schema
 * (`SchemaService.enriched`, schema/groups.ts `expandFields`), the schema changes (schema/plan.ts,
 * definition-checks.ts `planFull`), the journal (`SchemaService.journal`) and the bulk answers
 * (entries/bulk-input.ts). Entries themselves are described per definition by the OpenAPI module
 * (`Collection_<slug>`, `Single_<slug>`).
 *
 * Request bodies of the same routes, declared with `@ApiBody({ schema })` (the handlers validate
 * their bodies themselves): the definition bodies (definition-body.ts `readBody`, the fields
 * checked by schema/validate.ts `validateDefinition`) and the bulk bodies (entries/bulk-input.ts).
 */
import {
  ANY,
  ApiQueries,
  BOOLEAN,
  DATE_TIME,
  type JsonSchema,
  namedSchema,
  NULLABLE_STRING,
  objectSchema,
  provideContentQuery,
  type QueryParameter,
  schemaRef,
  type SchemaDefinition,
  STRING,
  UUID,
} from '../../common/api-schema';
import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_PAGE } from '../../common/pagination';
import type { FieldType } from '../../config/config.types';
import {
  FIELD_NAME_PATTERN,
  MAX_EMAIL_LENGTH,
  MAX_JSON_DEPTH,
  MAX_JSON_LENGTH,
  MAX_LABEL_LENGTH,
  MAX_OPTION_LENGTH,
  MAX_OPTIONS,
  MAX_TEXT_LENGTH,
  MAX_TEXTAREA_LENGTH,
  SLUG_PATTERN,
} from '../../fields';
import { DEFAULT_VERSIONS_MAX, MAX_VERSIONS_MAX, OPEN_ACTIONS } from './definition-body';
import { PREVIEW_PARAM, PREVIEW_READ } from './preview-grant';
import {
  COMPARED_ATTRIBUTES,
  CONTENT_FIELD_TYPES,
  EXPANSION_LIMITS,
  MAX_FIELD_ID_LENGTH,
  MAX_FIELDS,
  RESERVED_FIELD_NAMES,
  RESERVED_SLUGS,
} from './schema';
import {
  OPERATORS,
  type Operator,
  QUERY_LIMITS,
  QUERY_PARAMETERS,
  type QueryField,
  type ResolvedField,
  resolveDefinition,
  type ValueType,
} from './query';

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
  description: 'A field definition: one shape per field type (`type` tells which)',
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

/** One action's access in a definition record (definition.mapper.ts `accessRecord`). */
const ACCESS_VALUE: JsonSchema = namedSchema('AccessDecision', {
  anyOf: [BOOLEAN, { type: 'string', const: 'function' }],
  description:
    '`true`: open to anyone, visitors included (reads: published entries only); `"function"`: a rule ' +
    'function of the configuration file decides per request; `false`: not open (the `<action>-<slug>` ' +
    'permission decides, or a `false` rule of the configuration file closes it)',
});
const accessOf = (actions: string[]): JsonSchema => ({
  ...objectSchema(Object.fromEntries(actions.map((a) => [a, ACCESS_VALUE]))),
  description: 'Who may do each action besides the holders of its permission',
});

/** The versions range of `versions.max` (definition-body.ts `checkVersions`). */
const VERSIONS_MAX: JsonSchema = { type: 'integer', minimum: 1, maximum: MAX_VERSIONS_MAX };
const VERSIONS: JsonSchema = {
  anyOf: [{ type: 'boolean', const: false }, objectSchema({ max: VERSIONS_MAX })],
  description: '`false`: no versions are kept; `{ max }`: the newest `max` versions of each entry are kept',
};

const collectionRecord = (field: JsonSchema): JsonSchema =>
  objectSchema({
    id: UUID,
    slug: SLUG,
    labels: objectSchema({ singular: STRING, plural: STRING }),
    fields: fieldsOf(field),
    drafts: BOOLEAN,
    access: accessOf(['read', 'create', 'update', 'delete']),
    versions: VERSIONS,
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
    access: accessOf(['read', 'update']),
    versions: VERSIONS,
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

// ---------------------------------------------------------------------------------------------
// Request bodies

/**
 * The pattern of a string the service trims before it checks it (String#trim and `\s` strip the
 * same characters): once trimmed, 1 to `max` characters, or (`blank`) nothing at all.
 */
function trimmedPattern(max: number, blank: boolean): string {
  const text = `\\S(?:[\\s\\S]{0,${max - 2}}\\S)?`;
  return `^\\s*${blank ? `(?:${text})?` : text}\\s*$`;
}

/** A label as checkLabel (src/fields/labels.ts) reads it: trimmed, 1 to 200 characters. */
const LABEL_INPUT: JsonSchema = {
  type: 'string',
  pattern: trimmedPattern(MAX_LABEL_LENGTH, false),
  description: `1 to ${MAX_LABEL_LENGTH} characters once trimmed`,
};

/** `[iI][dD]`: the word in any letter case (JSON Schema patterns have no case-insensitive flag). */
const anyCase = (word: string): string =>
  [...word].map((c) => (/[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c)).join('');

/** A definition's slug (validate.ts `checkSlug`). */
const SLUG_INPUT: JsonSchema = {
  type: 'string',
  pattern: SLUG_PATTERN.source,
  not: { anyOf: [{ pattern: '--' }, { enum: [...RESERVED_SLUGS] }] },
  description:
    'Lowercase letters, digits and `-` (no `--`), not a word the API reserves; collections and ' +
    'singles share one slug space, field groups have their own (a taken slug is `409`)',
};

/** A content field's name (validate.ts, `checkFieldName` with the reserved content names). */
const FIELD_NAME_INPUT: JsonSchema = {
  type: 'string',
  pattern: FIELD_NAME_PATTERN.source,
  not: { pattern: `^(?:${RESERVED_FIELD_NAMES.map(anyCase).join('|')})$` },
  description: `Not one of ${RESERVED_FIELD_NAMES.join(', ')} (in any letter case)`,
};

/**
 * An option value as a definition takes it (options.ts `checkOptionsFor`, validate.ts
 * `checkOptionValuesTrimmed`): already trimmed, 1 to 200 characters.
 */
const OPTION_VALUE_INPUT: JsonSchema = {
  type: 'string',
  pattern: `^\\S(?:[\\s\\S]{0,${MAX_OPTION_LENGTH - 2}}\\S)?$`,
  description: `1 to ${MAX_OPTION_LENGTH} characters, no leading or trailing whitespace`,
};
const OPTION_INPUT: JsonSchema = anyOf(
  OPTION_VALUE_INPUT,
  objectSchema({
    label: {
      type: 'string',
      pattern: trimmedPattern(MAX_OPTION_LENGTH, false),
      description: `1 to ${MAX_OPTION_LENGTH} characters once trimmed`,
    },
    value: OPTION_VALUE_INPUT,
  }),
);

/** A blank string: "no default" for the types whose values are checked by `checkValue`. */
const BLANK: JsonSchema = { type: 'string', pattern: '^\\s*$' };

/** What parseIsoDate (src/fields/dates.ts) reads, around a trimmed value. */
const ISO_DATE =
  '\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])' +
  '(?:[Tt ](?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?(?:[Zz]|[+-](?:[01]\\d|2[0-3]):?[0-5]\\d))?';

const trimmedText = (max: number): JsonSchema => ({
  type: ['string', 'null'],
  pattern: trimmedPattern(max, true),
  description: `At most ${max} characters once trimmed; blank or null: no default`,
});

/**
 * A field's `defaultValue` as a definition body may give it (validate.ts `cleanDefault`): null
 * (or absent) is no default everywhere; a select's depends on `hasMany` (see the field).
 */
function defaultInputOf(type: FieldType, many = false): JsonSchema {
  switch (type) {
    case 'text':
      return trimmedText(MAX_TEXT_LENGTH);
    case 'textarea':
      return trimmedText(MAX_TEXTAREA_LENGTH);
    case 'email':
      return {
        type: ['string', 'null'],
        allOf: [{ pattern: trimmedPattern(MAX_EMAIL_LENGTH, true) }, { pattern: '^\\s*$|@' }],
        description: `An email address once trimmed (at most ${MAX_EMAIL_LENGTH} characters); blank or null: no default`,
      };
    case 'number':
      return { type: ['number', 'null'], description: "Within the field's `min` and `max` when given" };
    case 'checkbox':
      return anyOf({ type: ['boolean', 'null'] }, { ...BLANK, description: 'No default' });
    case 'date':
      return {
        type: ['string', 'null'],
        pattern: `^\\s*(?:${ISO_DATE})?\\s*$`,
        description:
          '`YYYY-MM-DD`, or an ISO 8601 date-time with `Z` or an offset, a real calendar date; ' +
          'blank or null: no default',
      };
    case 'select':
      return many
        ? {
            type: ['array', 'null'],
            items: STRING,
            uniqueItems: true,
            description: 'Distinct option values (exactly as listed in `options`)',
          }
        : {
            type: ['string', 'null'],
            description: 'One option value (once trimmed); blank or null: no default',
          };
    case 'json':
      return {
        ...ANY,
        description: `Any JSON value, at most ${MAX_JSON_DEPTH} levels deep and ${MAX_JSON_LENGTH} characters serialised`,
      };
    case 'richText':
      return {
        type: ['object', 'null'],
        description: `A Lexical document (a JSON object), at most ${MAX_JSON_DEPTH} levels deep and ${MAX_JSON_LENGTH} characters serialised`,
      };
    default:
      // relationship, upload, component: no default.
      return NULL;
  }
}

/**
 * A field of one type as a definition body gives it (validate.ts `checkField`): `name` and `type`
 * always, `options` (select), `relationTo` (relationship, upload) or `fieldGroup` (component) as the
 * type needs; keys that do not apply to the type only empty (null, or false).
 */
function fieldInputOfType(type: FieldType): JsonSchema {
  const has = (...types: FieldType[]): boolean => types.includes(type);
  const properties: Record<string, JsonSchema> = {
    id: {
      type: 'string',
      minLength: 1,
      maxLength: MAX_FIELD_ID_LENGTH,
      description:
        "The field's stable id, as answered: keeps a renamed field's column and values. Without it " +
        'a field is paired with the stored field of the same name, else it is new',
    },
    name: FIELD_NAME_INPUT,
    type: { const: type },
    label: LABEL_INPUT,
    required: BOOLEAN,
    unique: NO_UNIQUE.has(type) ? { const: false } : BOOLEAN,
    index: NO_INDEX.has(type) ? { const: false } : BOOLEAN,
    // A select's: one value, or (hasMany) a list, as the `if` below picks.
    defaultValue: has('select')
      ? anyOf(defaultInputOf(type, false), defaultInputOf(type, true))
      : defaultInputOf(type),
    options: has('select')
      ? { type: 'array', items: OPTION_INPUT, minItems: 1, maxItems: MAX_OPTIONS }
      : NULL,
    min: has('number') ? { type: ['number', 'null'] } : NULL,
    max: has('number') ? { type: ['number', 'null'] } : NULL,
    hasMany: has('select', 'relationship') ? BOOLEAN : { const: false },
    relationTo: has('relationship', 'upload')
      ? { ...SLUG, description: 'An existing collection (a collection may name itself)' }
      : NULL,
    fieldGroup: has('component')
      ? { ...SLUG, description: 'An existing field group (not the group itself)' }
      : NULL,
    repeatable: has('component') ? BOOLEAN : { const: false },
  };
  const needed = ['name', 'type', ...(REFERENCE_KEY[type] ? [REFERENCE_KEY[type]] : [])];
  const schema = objectSchema(
    properties,
    Object.keys(properties).filter((k) => !needed.includes(k)),
  );
  if (!has('select', 'relationship')) {
    return schema;
  }
  // hasMany: true takes no `unique`, and a select's default is then a list of option values.
  const many = { properties: { hasMany: { const: true } }, required: ['hasMany'] };
  return has('select')
    ? {
        ...schema,
        if: many,
        then: { properties: { unique: { const: false }, defaultValue: defaultInputOf(type, true) } },
        else: { properties: { defaultValue: defaultInputOf(type, false) } },
      }
    : { ...schema, if: many, then: { properties: { unique: { const: false } } } };
}

/** A field of a definition body (CONTRACTS 6): one shape per type. */
export const CONTENT_FIELD_INPUT = namedSchema('ContentFieldInput', {
  description:
    "A field definition: one shape per field type (`type` tells which). Besides the schema: a number field's " +
    "`min` is at most its `max`, and its `defaultValue` lies between them; a select's option " +
    'values are distinct, and its `defaultValue` is among them',
  oneOf: CONTENT_FIELD_TYPES.map((t) => fieldInputOfType(t)),
});

/** The fields of a definition body: the whole list, in order (fields left out are dropped). */
const FIELDS_INPUT: JsonSchema = {
  type: 'array',
  items: CONTENT_FIELD_INPUT,
  maxItems: MAX_FIELDS,
  description:
    'Every field of the definition, in order: a stored field left out is dropped. Names are ' +
    'unique ignoring case, ids unique. Field groups embedded by component fields may not form a ' +
    `cycle, and the definition may expand to at most ${EXPANSION_LIMITS.depth} levels, ` +
    `${EXPANSION_LIMITS.fields} fields and ${EXPANSION_LIMITS.chars} characters of field definitions ` +
    '(else `409`)',
};

const DRAFTS_INPUT: JsonSchema = {
  type: 'boolean',
  description: 'Draft/Published for the entries; turning it off publishes every draft (destructive)',
};
const CONFIRM_INPUT: JsonSchema = {
  type: 'boolean',
  description:
    'true to apply changes that may delete stored values; without it they are refused (`409`, ' +
    'with the planned changes)',
};
const LABELS_INPUT: JsonSchema = objectSchema({ singular: LABEL_INPUT, plural: LABEL_INPUT });

/** `access` of a definition body (definition-body.ts `checkAccess`): booleans of OPEN_ACTIONS only. */
const accessInput = (kind: 'collection' | 'single'): JsonSchema => {
  const open = [...OPEN_ACTIONS[kind]];
  return {
    ...objectSchema(Object.fromEntries(open.map((a) => [a, BOOLEAN])), open),
    description:
      `Open ${open.map((a) => `\`${a}\``).join(' or ')} to anyone, visitors included (\`read\`: ` +
      'published entries only, never drafts); `false` leaves it to the permission. Other actions ' +
      'stay with their permissions (sending one is `400`). On `PATCH`, keys left out keep their value',
  };
};
const VERSIONS_INPUT: JsonSchema = {
  anyOf: [BOOLEAN, objectSchema({ max: VERSIONS_MAX })],
  description:
    `Keep a version of an entry at every write that changes it: \`true\` keeps the newest ${DEFAULT_VERSIONS_MAX}, ` +
    '`{ max }` the newest `max`; `false` (the default) keeps none. Changes no table',
};

/** `POST /collections`. */
export const COLLECTION_INPUT = namedSchema(
  'CollectionInput',
  objectSchema(
    {
      slug: SLUG_INPUT,
      labels: LABELS_INPUT,
      fields: FIELDS_INPUT,
      drafts: DRAFTS_INPUT,
      access: accessInput('collection'),
      versions: VERSIONS_INPUT,
    },
    ['labels', 'fields', 'drafts', 'access', 'versions'],
  ),
);

/** `PATCH /collections/{slug}`: the keys given change; a fields or drafts change is applied. */
export const COLLECTION_UPDATE = namedSchema(
  'CollectionUpdate',
  objectSchema(
    {
      labels: LABELS_INPUT,
      fields: FIELDS_INPUT,
      drafts: DRAFTS_INPUT,
      access: accessInput('collection'),
      versions: VERSIONS_INPUT,
      confirmDestructive: CONFIRM_INPUT,
    },
    ['labels', 'fields', 'drafts', 'access', 'versions', 'confirmDestructive'],
  ),
);

/** `POST /singles`. */
export const SINGLE_INPUT = namedSchema(
  'SingleInput',
  objectSchema(
    {
      slug: SLUG_INPUT,
      label: LABEL_INPUT,
      fields: FIELDS_INPUT,
      drafts: DRAFTS_INPUT,
      access: accessInput('single'),
      versions: VERSIONS_INPUT,
    },
    ['label', 'fields', 'drafts', 'access', 'versions'],
  ),
);

/** `PATCH /singles/{slug}/schema`. */
export const SINGLE_UPDATE = namedSchema(
  'SingleUpdate',
  objectSchema(
    {
      label: LABEL_INPUT,
      fields: FIELDS_INPUT,
      drafts: DRAFTS_INPUT,
      access: accessInput('single'),
      versions: VERSIONS_INPUT,
      confirmDestructive: CONFIRM_INPUT,
    },
    ['label', 'fields', 'drafts', 'access', 'versions', 'confirmDestructive'],
  ),
);

/** `POST /field-groups`. */
export const FIELD_GROUP_INPUT = namedSchema(
  'FieldGroupInput',
  objectSchema({ slug: SLUG_INPUT, label: LABEL_INPUT, fields: FIELDS_INPUT }, ['label', 'fields']),
);

/** `PATCH /field-groups/{slug}`. */
export const FIELD_GROUP_UPDATE = namedSchema(
  'FieldGroupUpdate',
  objectSchema({ label: LABEL_INPUT, fields: FIELDS_INPUT, confirmDestructive: CONFIRM_INPUT }, [
    'label',
    'fields',
    'confirmDestructive',
  ]),
);

/** `POST /collections/schema/{slug}/preview` and `/apply`, and the singles' (`confirmDestructive`: apply). */
export const SCHEMA_INPUT = namedSchema(
  'SchemaInput',
  objectSchema(
    {
      fields: FIELDS_INPUT,
      drafts: DRAFTS_INPUT,
      versions: VERSIONS_INPUT,
      confirmDestructive: CONFIRM_INPUT,
    },
    ['drafts', 'versions', 'confirmDestructive'],
  ),
);

/** `POST /field-groups/schema/{slug}/preview` and `/apply`. */
export const FIELD_GROUP_SCHEMA_INPUT = namedSchema(
  'FieldGroupSchemaInput',
  objectSchema({ fields: FIELDS_INPUT, confirmDestructive: CONFIRM_INPUT }, ['confirmDestructive']),
);

/** Ids one bulk request may name (entries/bulk-input.ts `MAX_BULK_IDS`). */
const MAX_BULK_IDS = 1000;

const ENTRY_IDS: JsonSchema = {
  type: 'array',
  minItems: 1,
  maxItems: MAX_BULK_IDS,
  items: STRING,
  description: 'Entry ids; one that names no entry (or is no id) is reported in `errors` as `NOT_FOUND`',
};

/** The `data` of the bulk update and the update by query: an entry update, checked once. */
const ENTRY_DATA: JsonSchema = {
  type: 'object',
  description:
    'The fields to set, as the body of `PATCH /collections/{slug}/entries/{id}` (the ' +
    "`Collection_<slug>` of the path's collection, any of its keys); checked once. An entry that " +
    'would then break a required field is left unchanged and reported in `errors`',
};

/** `POST /collections/{slug}/entries/bulk-delete`. */
export const BULK_DELETE_INPUT = namedSchema('BulkDeleteInput', objectSchema({ ids: ENTRY_IDS }));

/** `POST /collections/{slug}/entries/bulk-update`. */
export const BULK_UPDATE_INPUT = namedSchema(
  'BulkUpdateInput',
  objectSchema({ ids: ENTRY_IDS, data: ENTRY_DATA }),
);

/** `PATCH /collections/{slug}/entries`: every entry `where` matches. */
export const UPDATE_WHERE_INPUT = namedSchema(
  'UpdateWhereInput',
  objectSchema(
    {
      where: {
        ...schemaRef('Where'),
        description: 'The entries to update, as the `where` of the entry list; `{}` for every entry',
      },
      data: ENTRY_DATA,
      status: {
        type: 'string',
        enum: ['published', 'draft', 'all'],
        description:
          'Collections with drafts only (else `400`): the entries `where` reaches. Default `all` ' +
          'for a caller who may read drafts, else `published`; `draft` and `all` need that permission',
      },
    },
    ['status'],
  ),
);

// ---------------------------------------------------------------------------------------------
// The query of the entry reads (query/parse.ts, query/types.ts)

const L = QUERY_LIMITS;
const DATE_VALUE: JsonSchema = {
  type: 'string',
  maxLength: 64,
  description: '`YYYY-MM-DD` (midnight UTC) or an ISO 8601 date-time with `Z` or an offset',
};
const VALUE_OF: Record<ValueType, JsonSchema> = {
  string: { type: 'string', maxLength: L.maxValueLength },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  date: DATE_VALUE,
  uuid: { type: 'string', format: 'uuid' },
  json: {},
};
const COMPARISONS: ReadonlySet<Operator> = new Set([
  'greater_than',
  'greater_than_equal',
  'less_than',
  'less_than_equal',
]);
const TEXT_OPERATORS: ReadonlySet<Operator> = new Set(['like', 'contains', 'search']);
const orNullValue = (value: JsonSchema): JsonSchema =>
  typeof value.type === 'string' ? { ...value, type: [value.type, 'null'] } : anyOf(value, NULL);
const listValue = (value: JsonSchema): JsonSchema =>
  anyOf(
    { type: 'array', items: value, maxItems: L.maxListItems },
    { type: 'string', description: 'The values separated by commas' },
  );

const OPERATOR_TEXT: Record<Operator, string> = {
  equals: 'Equal to the value (for a many-valued field: holds it); `null`: the field is empty',
  not_equals: 'Not equal to the value; `null`: the field is set',
  greater_than: 'Greater than the value',
  greater_than_equal: 'Greater than or equal to the value',
  less_than: 'Less than the value',
  less_than_equal: 'Less than or equal to the value',
  like: 'Matches the case-sensitive pattern (`%` any text, `_` one character, `\\` escapes)',
  contains: 'Contains the text, ignoring case',
  search: 'Contains the text, ignoring case (same as `contains`)',
  in: 'One of the values (a list, or the values separated by commas)',
  not_in: 'None of the values (a list, or the values separated by commas)',
  exists: '`true`: the field is set; `false`: it is empty',
};

/** The operators one field takes, with their value types. */
function operatorsSchema(field: ResolvedField): JsonSchema {
  const value: JsonSchema = field.options
    ? { type: 'string', enum: [...field.options] }
    : VALUE_OF[field.valueType];
  const properties: Record<string, JsonSchema> = {};
  for (const op of OPERATORS) {
    const nullForm = (op === 'equals' || op === 'not_equals') && field.operators.has('exists');
    if (!field.operators.has(op) && !nullForm) {
      continue;
    }
    let schema: JsonSchema;
    if (op === 'exists') {
      schema = BOOLEAN;
    } else if (op === 'in' || op === 'not_in') {
      schema = listValue(value);
    } else if (TEXT_OPERATORS.has(op)) {
      schema = { type: 'string', maxLength: L.maxValueLength };
    } else if (COMPARISONS.has(op)) {
      schema = value;
    } else {
      schema = field.operators.has(op) ? orNullValue(value) : NULL;
    }
    properties[op] = { ...schema, description: OPERATOR_TEXT[op] };
  }
  return { type: 'object', properties, minProperties: 1, additionalProperties: false };
}

const groupOf = (self: JsonSchema, word: string): JsonSchema => ({
  type: 'array',
  items: self,
  maxItems: L.maxNodes,
  description: `Conditions of which ${word} must hold (groups nest at most ${L.maxDepth} levels)`,
});

const WHERE_DESCRIPTION =
  `A filter: each field names its operators (\`{ "title": { "contains": "news" } }\`); several ` +
  'fields or operators must all hold; `and` / `or` group conditions. At most ' +
  `${L.maxConditions} conditions. Sent as JSON (\`where=<URL-encoded JSON>\`) or in brackets ` +
  '(`where[title][contains]=news`).';

/** The `where` of one collection: its filterable fields, each with the operators it takes. */
const modelOf = (def: SchemaDefinition) =>
  resolveDefinition({ fields: def.fields as readonly QueryField[], drafts: def.drafts });

export function whereSchema(def: SchemaDefinition, self: JsonSchema): JsonSchema {
  const model = modelOf(def);
  const properties: Record<string, JsonSchema> = {};
  for (const field of model.values()) {
    if (field.operators.size > 0) {
      properties[field.name] = operatorsSchema(field);
    }
  }
  return {
    type: 'object',
    description: WHERE_DESCRIPTION,
    properties: { ...properties, and: groupOf(self, 'all'), or: groupOf(self, 'at least one') },
    additionalProperties: false,
  };
}

provideContentQuery({
  where: whereSchema,
  sortable: (def) => [...modelOf(def).values()].filter((f) => f.sortable).map((f) => f.name),
});

/** The generic filter of the `{slug}` routes: any field name, with the operators of any type. */
export const WHERE = namedSchema('Where', {
  type: 'object',
  description: `${WHERE_DESCRIPTION} Which operators a field takes depends on its type: see the collection's own \`<Name>Where\`.`,
  properties: { and: groupOf(schemaRef('Where'), 'all'), or: groupOf(schemaRef('Where'), 'at least one') },
  additionalProperties: namedSchema('WhereOperators', {
    type: 'object',
    properties: Object.fromEntries(
      OPERATORS.map((op) => {
        const value: JsonSchema = { type: ['string', 'number', 'boolean'] };
        const schema =
          op === 'exists'
            ? BOOLEAN
            : op === 'in' || op === 'not_in'
              ? listValue(value)
              : op === 'equals' || op === 'not_equals'
                ? { type: ['string', 'number', 'boolean', 'null'] }
                : TEXT_OPERATORS.has(op)
                  ? { type: 'string' }
                  : value;
        return [op, { ...schema, description: OPERATOR_TEXT[op] }];
      }),
    ),
    minProperties: 1,
    additionalProperties: false,
  }),
});

/** Each parameter of the content query, as the entry reads declare it. */
const CONTENT_QUERY: Record<(typeof QUERY_PARAMETERS)[number], QueryParameter> = {
  where: {
    name: 'where',
    description: WHERE_DESCRIPTION,
    content: { 'application/json': { schema: WHERE } },
  },
  sort: {
    name: 'sort',
    description: `Fields to sort by, separated by commas (at most ${L.maxSortFields}), \`-\` first for descending; default \`-createdAt\``,
    schema: { type: 'string', maxLength: L.maxParamLength, default: '-createdAt' },
  },
  page: {
    name: 'page',
    description: 'The page to answer, from 1',
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
  },
  limit: {
    name: 'limit',
    description: `Entries per page; above ${MAX_LIMIT} it is clamped to ${MAX_LIMIT}`,
    schema: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT },
  },
  select: {
    name: 'select',
    description: 'Fields to answer, separated by commas (`id` and the timestamps always come)',
    schema: { type: 'string', maxLength: L.maxParamLength },
  },
  depth: {
    name: 'depth',
    description: 'How many levels of related entries to include in place of their ids',
    schema: { type: 'integer', minimum: 0, maximum: L.maxPopulateDepth, default: 0 },
  },
  richTextFormat: {
    name: 'richTextFormat',
    description: 'Rich text as Lexical JSON, as HTML, or both',
    schema: { type: 'string', enum: ['json', 'html', 'both'], default: 'json' },
  },
  status: {
    name: 'status',
    description:
      'Collections with drafts only (elsewhere a 400): published entries, drafts, or both; drafts need the update access',
    schema: { type: 'string', enum: ['published', 'draft', 'all'], default: 'published' },
  },
};

/** A preview token: the query parameter of the reads that take one (the header is declared beside it). */
const PREVIEW_QUERY: QueryParameter = {
  name: PREVIEW_PARAM,
  description:
    'A preview token (as the `X-Preview-Token` header): reads the entry it names, drafts included, with no other credentials',
  schema: { type: 'string' },
};

/** A parameter of a content read: the query language's, and `preview` where a token may be presented. */
export type ContentReadParameter = (typeof QUERY_PARAMETERS)[number] | typeof PREVIEW_PARAM;

/**
 * `@ApiQuery` of each content query parameter a read takes (the names its service accepts). A
 * read that takes `preview` also declares the `X-Preview-Token` header and is marked
 * `PREVIEW_READ`: the content access guard admits preview tokens on exactly these reads.
 */
export const ApiContentQuery = (names: ReadonlyArray<ContentReadParameter>): MethodDecorator => {
  const query = ApiQueries(names.map((n) => (n === PREVIEW_PARAM ? PREVIEW_QUERY : CONTENT_QUERY[n])));
  return names.includes(PREVIEW_PARAM)
    ? applyDecorators(
        query,
        ApiHeader({
          name: 'X-Preview-Token',
          required: false,
          description:
            'A preview token: reads the entry it names, drafts included, with no other credentials (as the query parameter `preview`)',
        }),
        SetMetadata(PREVIEW_READ, true),
      )
    : query;
};

/** Every parameter of the entry list. */
export const LIST_QUERY = QUERY_PARAMETERS;
