/**
 * Response schemas of the OpenAPI document (src/modules/openapi). A handler states its success
 * answer with @nestjs/swagger's `@ApiOkResponse({ schema })` (`@ApiCreatedResponse`...); shapes
 * used by more than one route are registered here by name and land in `components.schemas`, so
 * a module refers to another module's shape by name (`schemaRef('Role')`) without importing it.
 * The e2e suite checks every answer it sees against these schemas (test/utils/openapi-check.ts):
 * a field added to an answer without its schema fails the tests.
 */

import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiQuery, type ApiQueryOptions } from '@nestjs/swagger';
import { DEFAULT_LIMIT, MAX_LIMIT, MAX_PAGE, MAX_SEARCH_LENGTH } from './pagination';

/** A JSON Schema (2020-12, as OpenAPI 3.1 takes it). */
export type JsonSchema = Record<string, unknown>;

const named = new Map<string, JsonSchema>();

/** A `$ref` to the named schema. */
export const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** Registers `schema` under `name` (once per name) and answers a `$ref` to it. */
export function namedSchema(name: string, schema: JsonSchema): JsonSchema {
  const existing = named.get(name);
  if (existing && existing !== schema) {
    throw new Error(`the OpenAPI schema "${name}" is registered twice`);
  }
  named.set(name, schema);
  return schemaRef(name);
}

/** Every registered schema, for the document's components. */
export const namedSchemas = (): Record<string, JsonSchema> => Object.fromEntries(named);

/** An object with exactly these properties, all of them required unless listed in `optional`. */
export function objectSchema(properties: Record<string, JsonSchema>, optional: string[] = []): JsonSchema {
  const required = Object.keys(properties).filter((k) => !optional.includes(k));
  return {
    type: 'object',
    properties,
    ...(required.length ? { required } : {}),
    additionalProperties: false,
  };
}

export const STRING: JsonSchema = { type: 'string' };
export const NULLABLE_STRING: JsonSchema = { type: ['string', 'null'] };
export const BOOLEAN: JsonSchema = { type: 'boolean' };
export const INTEGER: JsonSchema = { type: 'integer' };
export const DATE_TIME: JsonSchema = { type: 'string', format: 'date-time' };
export const NULLABLE_DATE_TIME: JsonSchema = { type: ['string', 'null'], format: 'date-time' };
export const UUID: JsonSchema = { type: 'string', format: 'uuid' };
/** Any JSON value (a json field, settings values, metadata): null, a boolean, a number, a string, a list or an object of them. */
export const ANY: JsonSchema = namedSchema('JsonValue', {
  description: 'Any JSON value',
  anyOf: [
    { type: 'null' },
    { type: 'boolean' },
    { type: 'number' },
    { type: 'string' },
    // Not `items: JsonValue`: TypeScript generators turn that into a type alias that refers to
    // itself through an array, which TypeScript refuses; objects nest fine.
    { type: 'array', items: {} },
    { type: 'object', additionalProperties: schemaRef('JsonValue') },
  ],
});

/** `{ message }`: the answer of a write that returns nothing else (a delete, a reset...). */
export const MESSAGE_ANSWER: JsonSchema = objectSchema({ message: STRING });

/** `{ message, item }`: the answer of a create or an update (CONTRACTS 2). */
export const itemAnswer = (item: JsonSchema, extra: Record<string, JsonSchema> = {}): JsonSchema =>
  objectSchema({ message: STRING, item, ...extra });

/** The list envelope with its items described: a page of `item`s and `meta`. */
export const listOf = (item: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { items: { type: 'array', items: item }, meta: schemaRef('ListMeta') },
  required: ['items', 'meta'],
  additionalProperties: false,
});

/** The fields of a collection as a schema builder reads them. */
export interface SchemaDefinition {
  fields: ReadonlyArray<{ name: string; type: string; hasMany?: boolean; options?: unknown }>;
  drafts: boolean;
}

/**
 * What the query language says of one collection, registered by the content module (which owns
 * it) and read by the OpenAPI module for the per-collection operations: the `where` filter (its
 * fields, each with the operators it takes; `and`/`or` lists of `self`) and the sortable fields.
 */
export interface ContentQuerySchemas {
  where(def: SchemaDefinition, self: JsonSchema): JsonSchema;
  sortable(def: SchemaDefinition): string[];
}

let contentQuery: ContentQuerySchemas | undefined;

export function provideContentQuery(schemas: ContentQuerySchemas): void {
  contentQuery = schemas;
}

/** The collection's `where` schema, or the generic `Where` when none is registered. */
export const whereSchemaOf = (def: SchemaDefinition, self: JsonSchema): JsonSchema =>
  contentQuery ? contentQuery.where(def, self) : schemaRef('Where');

/** The fields `sort` may name on the collection's entries (none known: empty). */
export const sortableFieldsOf = (def: SchemaDefinition): string[] => contentQuery?.sortable(def) ?? [];

/** A query parameter as `@ApiQuery` takes it (optional unless said otherwise). */
export interface QueryParameter {
  name: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
  content?: Record<string, { schema: JsonSchema }>;
}

/**
 * `@ApiQuery` declarations of what a list of src/common/pagination.ts takes: `page`, `limit`,
 * `sort` (one of `sortable`, `-` first for descending), `search` when the list offers one, and
 * `extra` parameters of its own.
 */
export function listQueryParameters(opts: {
  sortable: readonly string[];
  search?: boolean;
  extra?: QueryParameter[];
}): QueryParameter[] {
  return [
    {
      name: 'page',
      description: 'The page to answer, from 1',
      schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
    },
    {
      name: 'limit',
      description: `Items per page; above ${MAX_LIMIT} it is clamped to ${MAX_LIMIT}`,
      schema: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT },
    },
    ...(opts.search
      ? [
          {
            name: 'search',
            description: 'Case-insensitive text the items contain',
            schema: { type: 'string', maxLength: MAX_SEARCH_LENGTH },
          },
        ]
      : []),
    ...(opts.sortable.length
      ? [
          {
            name: 'sort',
            description: 'The field to sort by, `-` first for descending',
            schema: { type: 'string', enum: opts.sortable.flatMap((f) => [f, `-${f}`]) },
          },
        ]
      : []),
    ...(opts.extra ?? []),
  ];
}

/** `@ApiQuery` for each parameter (optional unless `required`), as one decorator. */
export const ApiQueries = (params: QueryParameter[]): MethodDecorator =>
  applyDecorators(...params.map((p) => ApiQuery({ required: false, ...p } as ApiQueryOptions)));

/** `@ApiQueries(listQueryParameters(opts))`: the query of an admin list. */
export const ApiListQuery = (opts: Parameters<typeof listQueryParameters>[0]): MethodDecorator =>
  ApiQueries(listQueryParameters(opts));

/** Metadata of `ApiEntryVersion`, read by the document builder (src/modules/openapi). */
export const ENTRY_VERSION_METADATA = 'svc:openapi-entry-version';

/**
 * The route works with an entry's `ETag`: a `read` answers it and takes `If-None-Match` (304), a
 * `write` answers the new one and takes `If-Match` (412), a `delete` takes `If-Match` only.
 */
export const ApiEntryVersion = (kind: 'read' | 'write' | 'delete'): MethodDecorator =>
  SetMetadata(ENTRY_VERSION_METADATA, kind);
