/**
 * Response schemas of the OpenAPI document (src/modules/openapi). A handler states its success
 * answer with @nestjs/swagger's `@ApiOkResponse({ schema })` (`@ApiCreatedResponse`...); shapes
 * used by more than one route are registered here by name and land in `components.schemas`, so
 * a module refers to another module's shape by name (`schemaRef('Role')`) without importing it.
 * The e2e suite checks every answer it sees against these schemas (test/utils/openapi-check.ts):
 * a field added to an answer without its schema fails the tests.
 */

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
/** Any JSON value (settings values, metadata). */
export const ANY: JsonSchema = {};

/** `{ message }`: the answer of a write that returns nothing else (a delete, a reset...). */
export const MESSAGE_ANSWER: JsonSchema = objectSchema({ message: STRING });

/** `{ message, item }`: the answer of a create or an update (CONTRACTS 2). */
export const itemAnswer = (item: JsonSchema, extra: Record<string, JsonSchema> = {}): JsonSchema =>
  objectSchema({ message: STRING, item, ...extra });

/** The list envelope (SPEC 2.5) with its items described. */
export const listOf = (item: JsonSchema): JsonSchema => ({
  allOf: [schemaRef('List'), { type: 'object', properties: { items: { type: 'array', items: item } } }],
});
