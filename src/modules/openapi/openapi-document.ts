import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { DocumentBuilder } from '@nestjs/swagger';
import { DECORATORS } from '@nestjs/swagger/dist/constants';
import {
  COOKIE_ONLY,
  OPTIONAL_AUTH,
  REQUIRED_PERMISSIONS,
  SUPER_ADMIN_ONLY,
} from '../../common/access/auth.decorators';
import { IS_PUBLIC } from '../../common/access/public.decorator';
import { namedSchemas } from '../../common/api-schema';
import { ERROR_STATUS } from '../../common/errors';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../../common/pagination';
import { SERVICE_VERSION } from '../../common/version';
import { CSRF_HEADER } from '../auth/csrf.service';
import type { ContentAction, Definition } from '../content/content.types';
import { SESSION_COOKIE } from '../identity/authentication.service';
import {
  contentInputSchemaName,
  contentSchemaName,
  definitionInputSchema,
  definitionSchema,
} from './content-schema';
import { DtoSchemas, type JsonSchema } from './dto-schema';
import { type RegisteredRoute, templated } from './service-routes';

/**
 * The key ContentRoute (src/modules/content/content-route.ts) stores `{ kind, action }` under.
 * Read by its value: that file is the content module's own (not one of its exports).
 */
const CONTENT_ROUTE = 'svc:content-route';
interface ContentRouteMeta {
  kind: 'collection' | 'single';
  action: ContentAction;
}

/** An OpenAPI 3.1 document, as plain JSON. */
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
  tags?: Array<Record<string, unknown>>;
  [extension: `x-${string}`]: unknown;
}

export type Operation = Record<string, unknown> & {
  responses: Record<string, unknown>;
  parameters?: Array<Record<string, unknown>>;
  security?: Array<Record<string, string[]>>;
};

const META = <T>(key: string, route: RegisteredRoute): T | undefined =>
  (Reflect.getMetadata(key, route.handler) as T | undefined) ??
  (Reflect.getMetadata(key, route.cls) as T | undefined);

const schemaRef = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const PROBLEM_TYPE = 'application/problem+json';

/** A problem answer (SPEC 7) as every operation lists it. */
const PROBLEM_RESPONSES: Record<string, string> = {
  '400': 'The body, query or a parameter failed validation (`VALIDATION_ERROR`)',
  '401': 'No, or bad, credentials (`AUTH_REQUIRED`, `AUTH_INVALID_CREDENTIALS`...)',
  '403': 'Not allowed (`FORBIDDEN`, `CSRF_FAILED`...)',
  '404': 'No such resource, or no such route (`NOT_FOUND`)',
  '409': 'Conflict with the current state (`CONFLICT`, `DUPLICATE`)',
  '413': 'The body is too large (`PAYLOAD_TOO_LARGE`)',
  '415': 'The body is not JSON (`UNSUPPORTED_MEDIA_TYPE`)',
  '422': 'Semantic validation failed (`INVALID_INPUT`)',
  '429': 'A rate limit was reached (`RATE_LIMITED`; `Retry-After` set)',
  '500': 'Server failure (`INTERNAL_ERROR`, `DATABASE_ERROR`)',
  '503': 'A dependency is unavailable (`SERVICE_UNAVAILABLE`; `Retry-After` may be set)',
};

/** Paths where a cookie write must carry the CSRF header (CONTRACTS 3.1: POST/PATCH under /auth/). */
const needsCsrfHeader = (r: RegisteredRoute): boolean =>
  (r.method === 'POST' || r.method === 'PATCH') && r.path.startsWith('/admin/api/auth/');

/**
 * The shared parts: info, security schemes, the Problem envelope and the list envelope. The
 * `openapi` field is set to 3.1.0 here; everything this module writes is 3.1 (type arrays, no
 * `nullable`), and `toOpenApi31` rewrites any 3.0 leftovers.
 */
function skeleton(): OpenApiDocument {
  const base = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('svc')
    .setDescription(
      'Authentication and content REST API. Failures answer `application/problem+json` with the ' +
        '`Problem` envelope (SPEC 7). Entries of every collection are described under ' +
        '`components.schemas.Collection_<slug>`; the templated `{slug}` routes refer to all of them.',
    )
    .setVersion(SERVICE_VERSION)
    .addSecurity('session', {
      type: 'apiKey',
      in: 'cookie',
      name: SESSION_COOKIE,
      description: 'The session cookie (an access token JWT) set by login, setup and refresh.',
    })
    .addSecurity('csrf', {
      type: 'apiKey',
      in: 'header',
      name: CSRF_HEADER,
      description:
        'Equal to the `svc_csrf` cookie (from `GET /admin/api/auth/csrf`); needed with cookies on ' +
        'POST and PATCH under `/admin/api/auth/` (CONTRACTS 3.1).',
    })
    .addSecurity('bearer', {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'An access token (the `token` of a login or refresh answer).',
    })
    .addSecurity('apiKey', {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'svc_live_…',
      description: 'An API key: `Authorization: Bearer svc_live_…` (CONTRACTS 7).',
    })
    .build();
  const codes = Object.keys(ERROR_STATUS);
  return {
    ...(base as unknown as Omit<OpenApiDocument, 'paths' | 'components'>),
    openapi: '3.1.0',
    paths: {},
    components: {
      securitySchemes: base.components?.securitySchemes ?? {},
      schemas: {
        ErrorCode: {
          type: 'string',
          enum: codes,
          description:
            'SPEC 7: ' +
            codes.map((c) => `${c} (${ERROR_STATUS[c as keyof typeof ERROR_STATUS]})`).join(', '),
        },
        ValidationIssue: {
          type: 'object',
          properties: { path: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } },
          required: ['path', 'code', 'message'],
          additionalProperties: false,
        },
        Problem: {
          type: 'object',
          description: 'Every failure (SPEC 7), content type `application/problem+json`.',
          properties: {
            error: {
              type: 'object',
              properties: {
                code: schemaRef('ErrorCode'),
                message: { type: 'string', maxLength: 300 },
                requestId: { type: 'string' },
                data: {
                  type: 'object',
                  description:
                    'Details: validation issues (`errors`, at most 50, the rest counted in ' +
                    '`omittedErrors`), `retryAfterSeconds`, or what the code documents.',
                  properties: {
                    errors: { type: 'array', items: schemaRef('ValidationIssue') },
                    omittedErrors: { type: 'integer', minimum: 1 },
                    retryAfterSeconds: { type: 'number' },
                  },
                },
              },
              required: ['code', 'message', 'requestId'],
              additionalProperties: false,
            },
          },
          required: ['error'],
          additionalProperties: false,
        },
        ListMeta: {
          type: 'object',
          properties: {
            total: { type: 'integer', minimum: 0 },
            page: { type: 'integer', minimum: 1 },
            limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT },
            totalPages: { type: 'integer', minimum: 0 },
            hasNext: { type: 'boolean' },
            hasPrev: { type: 'boolean' },
          },
          required: ['total', 'page', 'limit', 'totalPages', 'hasNext', 'hasPrev'],
        },
        List: {
          type: 'object',
          description: 'The list envelope (SPEC 2.5); `items` as the route describes them.',
          properties: { items: { type: 'array' }, meta: schemaRef('ListMeta') },
          required: ['items', 'meta'],
        },
      },
      responses: Object.fromEntries(
        Object.entries(PROBLEM_RESPONSES).map(([status, description]) => [
          `Problem${status}`,
          { description, content: { [PROBLEM_TYPE]: { schema: schemaRef('Problem') } } },
        ]),
      ),
    },
    'x-problem-content-type': PROBLEM_TYPE,
  };
}

/** Who may call the route, as OpenAPI security requirements (alternatives; `{}` = anyone). */
function securityOf(r: RegisteredRoute): Array<Record<string, string[]>> {
  const cookie: Record<string, string[]> = needsCsrfHeader(r) ? { session: [], csrf: [] } : { session: [] };
  if (META<boolean>(IS_PUBLIC, r)) {
    // Open to visitors; the auth writes still need the CSRF header (with the csrf cookie).
    return needsCsrfHeader(r) ? [{ csrf: [] }, { bearer: [] }] : [];
  }
  const credentials: Array<Record<string, string[]>> = META<boolean>(COOKIE_ONLY, r)
    ? [cookie]
    : [cookie, { bearer: [] }, { apiKey: [] }];
  // Optional: visitors reach it (content access rules, media, the session read, plugin routes).
  return META<boolean>(OPTIONAL_AUTH, r) || r.plugin ? [{}, ...credentials] : credentials;
}

/** The Problem responses an operation can answer. */
function problemsOf(r: RegisteredRoute, hasInput: boolean, params: string[]): Record<string, unknown> {
  const statuses = new Set<string>(['429', '500']);
  const open = META<boolean>(IS_PUBLIC, r) === true;
  if (hasInput || params.length) {
    statuses.add('400');
  }
  if (!open || META<boolean>(OPTIONAL_AUTH, r)) {
    statuses.add('401').add('403');
  }
  if (needsCsrfHeader(r)) {
    // The public auth writes: wrong credentials, a failed refresh (401), a failed CSRF check (403).
    statuses.add('401').add('403');
  }
  if (params.length || r.plugin) {
    statuses.add('404');
  }
  if (r.method === 'POST' || r.method === 'PATCH' || r.method === 'PUT') {
    statuses.add('409').add('413').add('415').add('422');
  }
  if (r.path === '/api/health') {
    statuses.add('503');
  }
  const out: Record<string, unknown> = {};
  for (const s of [...statuses].sort()) {
    out[s] = { $ref: `#/components/responses/Problem${s}` };
  }
  out.default = {
    description: 'Any other failure',
    content: { [PROBLEM_TYPE]: { schema: schemaRef('Problem') } },
  };
  return out;
}

interface DeclaredAnswer {
  description?: string;
  schema?: JsonSchema;
  content?: Record<string, unknown>;
}

/**
 * The answers the handler declares with @nestjs/swagger's `@ApiOkResponse({ schema })` family
 * (`{ content }` for what is not JSON): they replace the generic success entry.
 */
function declaredAnswers(r: RegisteredRoute): Record<string, unknown> {
  const declared = (Reflect.getMetadata(DECORATORS.API_RESPONSE, r.handler) ?? {}) as Record<
    string,
    DeclaredAnswer
  >;
  const out: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(declared)) {
    out[status] = {
      description: answer.description || 'Success',
      ...(answer.content
        ? { content: answer.content }
        : answer.schema
          ? { content: { 'application/json': { schema: answer.schema } } }
          : {}),
    };
  }
  return out;
}

/**
 * The body a handler that validates it itself declares with @nestjs/swagger's `@ApiBody({ schema })`
 * (a body whose shape depends on the definitions or the user fields).
 */
function declaredBody(
  r: RegisteredRoute,
): { schema?: JsonSchema; type?: unknown; description?: string } | undefined {
  const params = (Reflect.getMetadata(DECORATORS.API_PARAMETERS, r.handler) ?? []) as Array<{
    in?: string;
    schema?: JsonSchema;
    type?: unknown;
    description?: string;
  }>;
  return params.find((p) => p.in === 'body');
}

/**
 * `@ApiBody({ type: Dto, description })` on a handler that checks the DTO's keys and takes other
 * keys besides (the custom user fields): the DTO's schema, open to more properties.
 */
function openDto(
  dtos: DtoSchemas,
  type: Parameters<DtoSchemas['refOf']>[0],
  description?: string,
): JsonSchema {
  const name = String(dtos.refOf(type).$ref).replace('#/components/schemas/', '');
  return {
    ...dtos.schemas[name],
    additionalProperties: true,
    ...(description ? { description } : {}),
  };
}

interface Args {
  body?: { type: unknown };
  query: Array<{ name?: string; type: unknown }>;
}

/** What the handler takes from the request (`@Body()`, `@Query()`), with the declared types. */
function argsOf(r: RegisteredRoute): Args {
  const meta = (Reflect.getMetadata(ROUTE_ARGS_METADATA, r.cls, r.name) ?? {}) as Record<
    string,
    { index: number; data?: unknown }
  >;
  const types = (Reflect.getMetadata('design:paramtypes', r.cls.prototype, r.name) ?? []) as unknown[];
  const out: Args = { query: [] };
  for (const [key, arg] of Object.entries(meta)) {
    const kind = Number(key.split(':')[0]);
    if (kind === (RouteParamtypes.BODY as number)) {
      out.body = { type: types[arg.index] };
    } else if (kind === (RouteParamtypes.QUERY as number)) {
      out.query.push({ name: typeof arg.data === 'string' ? arg.data : undefined, type: types[arg.index] });
    }
  }
  return out;
}

/**
 * The GET routes that answer the list envelope (SPEC 2.5), besides the entry lists `withContent`
 * describes. Kept by hand: a handler's return type is not in its metadata. test/e2e/openapi
 * checks the answers of these routes against the document.
 */
export const LIST_ROUTES: ReadonlySet<string> = new Set([
  '/admin/api/api-keys',
  '/admin/api/collections',
  '/admin/api/dashboard/activity',
  '/admin/api/dashboard/recent-entries',
  '/admin/api/email-providers',
  '/admin/api/email-templates',
  '/admin/api/field-groups',
  '/admin/api/image-sizes',
  '/admin/api/permissions',
  '/admin/api/roles',
  '/admin/api/roles/{id}/children',
  '/admin/api/roles/{id}/parents',
  '/admin/api/roles/{id}/permissions',
  '/admin/api/schema/journal',
  '/admin/api/singles',
  '/admin/api/user-fields',
  '/admin/api/users',
  '/admin/api/users/{id}/roles',
]);

const LIST_PARAMETERS = [
  { name: 'page', in: 'query', schema: { type: 'integer', minimum: 1, default: 1 } },
  {
    name: 'limit',
    in: 'query',
    schema: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT },
    description: `Items per page; above ${MAX_LIMIT} it is clamped to ${MAX_LIMIT}`,
  },
];

/** What the admin lists take besides the page (src/common/pagination.ts). */
const ADMIN_LIST_PARAMETERS = [
  {
    name: 'search',
    in: 'query',
    schema: { type: 'string', maxLength: 200 },
    description: 'Case-insensitive text search, where the list offers one',
  },
  {
    name: 'sort',
    in: 'query',
    schema: { type: 'string', pattern: '^-?[A-Za-z]+$' },
    description: 'One sortable field of the list, `-` first for descending; another field is `400`',
  },
];

/** The content query (SPEC 4.3, docs/api.md "Queries") of the entry reads. */
const CONTENT_QUERY_PARAMETERS = [
  {
    name: 'where',
    in: 'query',
    style: 'deepObject',
    explode: true,
    schema: { type: 'object' },
    description:
      '`where[<field>][<operator>]=<value>`, with `and`/`or` nesting (`where[or][0][title][equals]=a`), ' +
      'or `where=<URL-encoded JSON>`. Operators: equals, not_equals, greater_than, ' +
      'greater_than_equal, less_than, less_than_equal, like (case-sensitive pattern), contains and ' +
      'search (case-insensitive substring), in and not_in (comma-separated), exists (true/false)',
  },
  {
    name: 'sort',
    in: 'query',
    schema: { type: 'string' },
    description: 'Comma-separated sortable fields (at most 10), `-` for descending; default `-createdAt`',
  },
  {
    name: 'select',
    in: 'query',
    schema: { type: 'string' },
    description: 'Comma-separated fields to answer (`id` and the timestamps always come)',
  },
  { name: 'depth', in: 'query', schema: { type: 'integer', minimum: 0, maximum: 5, default: 0 } },
  {
    name: 'richTextFormat',
    in: 'query',
    schema: { type: 'string', enum: ['json', 'html', 'both'], default: 'json' },
  },
  {
    name: 'status',
    in: 'query',
    schema: { type: 'string', enum: ['published', 'draft', 'all'], default: 'published' },
    description: 'Collections with drafts only; drafts need the update access',
  },
];

/** Tags: the path's first segment after `/admin/api` (`users`, `auth`, `collections`...). */
const tagOf = (path: string): string =>
  path === '/api/health' ? 'health' : path.replace(/^\/admin\/api\/?/, '').split('/')[0] || 'service';

/**
 * The document of the routes, built once from the registered routes. Content entry schemas are
 * not part of it: `withContent` adds them from the current definitions.
 */
export function buildRoutesDocument(routes: RegisteredRoute[]): OpenApiDocument {
  const doc = skeleton();
  const dtos = new DtoSchemas();
  const tags = new Set<string>();
  for (const r of routes) {
    const { path, params } = templated(r.path);
    const args = argsOf(r);
    const content = META<ContentRouteMeta>(CONTENT_ROUTE, r);
    const parameters: Array<Record<string, unknown>> = params.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    for (const q of args.query) {
      if (q.name) {
        parameters.push({ name: q.name, in: 'query', schema: {} });
      } else if (DtoSchemas.isDto(q.type)) {
        const ref = dtos.refOf(q.type);
        parameters.push({
          name: 'query',
          in: 'query',
          style: 'form',
          explode: true,
          schema: ref,
          description: 'The query parameters, as the schema lists them',
        });
      }
    }
    const tag = tagOf(r.path);
    tags.add(tag);
    const op: Operation = {
      operationId: `${r.cls.name}_${r.name}`,
      tags: [tag],
      summary: `${r.method} ${path}`,
      ...(parameters.length ? { parameters } : {}),
      security: securityOf(r),
      responses: {},
    };
    const permissions = META<string[]>(REQUIRED_PERMISSIONS, r);
    if (permissions?.length) {
      op['x-permissions'] = { anyOf: permissions };
    }
    if (META<boolean>(SUPER_ADMIN_ONLY, r)) {
      op['x-super-admin'] = true;
    }
    if (content) {
      op['x-access-rule'] =
        `${content.kind} ${content.action} (else the ${content.action}-{slug} permission)`;
    }
    if (r.plugin) {
      op['x-plugin'] = true;
    }
    if (args.body) {
      const declared = declaredBody(r);
      op.requestBody = {
        required: true,
        ...(declared?.description ? { description: declared.description } : {}),
        content: {
          'application/json': {
            schema: declared?.schema
              ? declared.schema
              : DtoSchemas.isDto(declared?.type)
                ? openDto(dtos, declared.type, declared.description)
                : DtoSchemas.isDto(args.body.type)
                  ? dtos.refOf(args.body.type)
                  : { description: 'Not described yet (the handler validates the body itself)' },
          },
        },
      };
    }
    const list = r.method === 'GET' && LIST_ROUTES.has(path);
    if (list) {
      op.parameters = [...parameters, ...LIST_PARAMETERS, ...ADMIN_LIST_PARAMETERS];
    } else if (content?.action === 'read' && r.method === 'GET' && args.query.some((q) => !q.name)) {
      op.parameters = [...parameters, ...CONTENT_QUERY_PARAMETERS];
    }
    const declared = declaredAnswers(r);
    op.responses = {
      [String(r.status)]: list
        ? {
            description: 'A page of the list',
            content: { 'application/json': { schema: schemaRef('List') } },
          }
        : { description: 'Success' },
      ...problemsOf(r, !!args.body || args.query.length > 0, params),
      ...declared,
    };
    if (!declared[String(r.status)] && Object.keys(declared).some((s) => /^[23]\d\d$/.test(s))) {
      // The handler answers its success under another status (a redirect, a 204): not this one.
      delete op.responses[String(r.status)];
    }
    doc.paths[path] ??= {};
    doc.paths[path][r.method.toLowerCase()] = op;
  }
  Object.assign(doc.components.schemas, dtos.schemas, namedSchemas());
  doc.tags = [...tags].sort().map((name) => ({ name }));
  return toOpenApi31(doc);
}

/** The content parts of the document (SPEC 4): one schema per collection, single, field group. */
export interface ContentDefinitions {
  collections: Definition[];
  singles: Definition[];
  fieldGroups: Definition[];
}

const anyOfRefs = (defs: Definition[], name = contentSchemaName): JsonSchema =>
  defs.length
    ? { anyOf: defs.map((d) => schemaRef(name(d.kind, d.slug))) }
    : { type: 'object', description: 'No definition exists yet' };

/**
 * The routes document with the content definitions: `Collection_<slug>`, `Single_<slug>` and
 * `FieldGroup_<slug>` schemas, the `{slug}` parameter of content routes listing the slugs, and
 * the bodies and answers of the entry routes referring to the schemas (`anyOf` over the
 * definitions: the path is one template for every collection; the slug picks the schema).
 */
export function withContent(routesDoc: OpenApiDocument, defs: ContentDefinitions): OpenApiDocument {
  const doc = structuredClone(routesDoc);
  const known = new Set(defs.collections.map((d) => d.slug));
  for (const def of [...defs.collections, ...defs.singles, ...defs.fieldGroups]) {
    doc.components.schemas[contentSchemaName(def.kind, def.slug)] = definitionSchema(def, known);
    doc.components.schemas[contentInputSchemaName(def.kind, def.slug)] = definitionInputSchema(def);
  }
  for (const [path, ops] of Object.entries(doc.paths)) {
    const kind = path.startsWith('/admin/api/collections/{slug}')
      ? 'collection'
      : path.startsWith('/admin/api/singles/{slug}')
        ? 'single'
        : undefined;
    if (!kind) {
      continue;
    }
    const list = kind === 'collection' ? defs.collections : defs.singles;
    const entry = anyOfRefs(list);
    const input = anyOfRefs(list, contentInputSchemaName);
    for (const [method, op] of Object.entries(ops)) {
      const slug = op.parameters?.find((p) => p.name === 'slug' && p.in === 'path');
      if (slug && list.length) {
        slug.schema = { type: 'string', enum: list.map((d) => d.slug) };
        slug.description = `The ${kind}; its entries are described by \`${contentSchemaName(kind, '<slug>')}\``;
      }
      if (!op['x-access-rule']) {
        continue;
      }
      const route = ENTRY_ROUTES[path]?.[method];
      if (!route) {
        continue;
      }
      const status = Object.keys(op.responses).find((s) => /^2\d\d$/.test(s))!;
      const answer = (schema: JsonSchema) =>
        (op.responses[status] = { description: 'Success', content: { 'application/json': { schema } } });
      const writes = (op.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)
        ?.content?.['application/json'];
      switch (route) {
        case 'read':
          answer(entry);
          break;
        case 'list':
          answer({ allOf: [schemaRef('List'), { properties: { items: { type: 'array', items: entry } } }] });
          op.parameters = [...(op.parameters ?? []), ...LIST_PARAMETERS];
          break;
        case 'create':
          if (writes) {
            writes.schema = input;
            if (known.has('media')) {
              (op.requestBody as { content: Record<string, unknown> }).content['multipart/form-data'] =
                MEDIA_UPLOAD;
            }
          }
          // Without read access the item echoes the fields sent, with `id` and the timestamps.
          answer(entryAnswer(entry));
          break;
        case 'update':
          if (writes) {
            writes.schema = input;
          }
          answer(entryAnswer({ anyOf: [entry, WITHHELD_ENTRY] }));
          break;
        case 'delete':
        case 'duplicate':
          answer(entryAnswer({ anyOf: [entry, WITHHELD_ENTRY] }));
          break;
      }
    }
  }
  return doc;
}

/**
 * The item of a write answered to a caller who may not see the entry (no read access, or a
 * draft without the draft permission: entries.service.ts `answer`): its id only.
 */
const WITHHELD_ENTRY: JsonSchema = {
  type: 'object',
  description: 'The entry is not shown to this caller (no read access, or a draft): its id only',
  properties: { id: { type: 'string', format: 'uuid' } },
  required: ['id'],
  additionalProperties: false,
};

/** `{ message, item }`: the answer of an entry write. */
const entryAnswer = (item: JsonSchema): JsonSchema => ({
  type: 'object',
  properties: { message: { type: 'string' }, item },
  required: ['message', 'item'],
  additionalProperties: false,
});

type EntryRoute = 'list' | 'read' | 'create' | 'update' | 'delete' | 'duplicate';

/**
 * The routes of `withContent` that answer entries (EntriesController, the singles' content), by
 * path and method. The other routes under the same paths (definitions, schemas, counts, bulk
 * writes) declare their fixed answers on their handlers.
 */
const ENTRY_ROUTES: Record<string, Record<string, EntryRoute>> = {
  '/admin/api/collections/{slug}/entries': { get: 'list', post: 'create' },
  '/admin/api/collections/{slug}/entries/{id}': { get: 'read', patch: 'update', delete: 'delete' },
  '/admin/api/collections/{slug}/entries/{id}/duplicate': { post: 'duplicate' },
  '/admin/api/singles/{slug}': { get: 'read', patch: 'update' },
};

/**
 * The upload that makes a media entry (CONTRACTS 11): `multipart/form-data` with the file and the
 * media fields a write may set (media/media.service.ts `receive`).
 */
const MEDIA_UPLOAD = {
  schema: {
    type: 'object',
    description: 'The built-in `media` collection only: its entries are made by uploading the file',
    properties: {
      file: { type: 'string', format: 'binary' },
      alt: { type: 'string' },
      caption: { type: 'string' },
    },
    required: ['file'],
  },
};

/**
 * Rewrites what OpenAPI 3.0 says differently in 3.1 (JSON Schema 2020-12): `nullable: true`
 * becomes a type array (or `anyOf` with null), `exclusiveMinimum: true` the number form.
 */
export function toOpenApi31<T>(node: T): T {
  if (Array.isArray(node)) {
    return node.map((n) => toOpenApi31(n)) as T;
  }
  if (!node || typeof node !== 'object') {
    return node;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    out[k] = toOpenApi31(v);
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') {
      out.type = [out.type, 'null'];
    } else if (Array.isArray(out.type)) {
      out.type = [...new Set([...(out.type as string[]), 'null'])];
    } else {
      return { anyOf: [out, { type: 'null' }] } as T;
    }
  } else if (out.nullable === false) {
    delete out.nullable;
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] === 'boolean') {
      if (out[flag] && typeof out[bound] === 'number') {
        out[flag] = out[bound];
        delete out[bound];
      } else {
        delete out[flag];
      }
    }
  }
  return out as T;
}
