import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { GUARDS_METADATA, HEADERS_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { DocumentBuilder } from '@nestjs/swagger';
import { DECORATORS } from '@nestjs/swagger/dist/constants';
import {
  COOKIE_ONLY,
  OPTIONAL_AUTH,
  REQUIRED_PERMISSIONS,
  SUPER_ADMIN_ONLY,
} from '../../common/access/auth.decorators';
import { IS_PUBLIC } from '../../common/access/public.decorator';
import {
  ENTRY_VERSION_METADATA,
  listOf,
  namedSchemas,
  sortableFieldsOf,
  whereSchemaOf,
} from '../../common/api-schema';
import { ERROR_STATUS } from '../../common/errors';
import { MAX_LIMIT } from '../../common/pagination';
import { SERVICE_VERSION } from '../../common/version';
import { CSRF_HEADER } from '../auth/csrf.service';
import type { ContentAction, Definition } from '../content/content.types';
import { SESSION_COOKIE } from '../identity/authentication.service';
import {
  contentInputSchemaName,
  contentSchemaName,
  contentUpdateSchemaName,
  definitionInputSchema,
  definitionSchema,
  LEXICAL_SCHEMAS,
  whereSchemaName,
} from './content-schema';
import { DtoSchemas, type JsonSchema } from './dto-schema';
import { describeOperation, pascalCase, uniqueOperationIds } from './operation-names';
import { TAG_DESCRIPTIONS } from './operations';
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
  servers?: Array<{ url: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, unknown>;
    headers?: Record<string, unknown>;
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

type ProblemCode = keyof typeof ERROR_STATUS;

/**
 * The Problem answers an operation may list: what each status means, its usual code and, where
 * a status has several, the others (each shown as an example of its own).
 */
const PROBLEM_RESPONSES: Record<
  string,
  { description: string; code: ProblemCode; message: string; more?: Array<[ProblemCode, string]> }
> = {
  '400': {
    description:
      'The body, the query or a path parameter is not valid: `error.data.errors` lists each problem',
    code: 'VALIDATION_ERROR',
    message: 'The request is not valid',
  },
  '401': {
    description:
      'Sign in first, or the credentials are wrong or expired (`AUTH_REQUIRED`, `AUTH_INVALID_CREDENTIALS`...)',
    code: 'AUTH_REQUIRED',
    message: 'Authentication required',
    more: [['AUTH_INVALID_CREDENTIALS', 'Invalid email or password']],
  },
  '403': {
    description:
      'Signed in, but not allowed (`FORBIDDEN`), or the CSRF header is missing or wrong (`CSRF_FAILED`)',
    code: 'FORBIDDEN',
    message: 'You do not have permission to do this',
    more: [['CSRF_FAILED', 'The CSRF token is missing or does not match']],
  },
  '404': {
    description: 'No such resource, or no such route (`NOT_FOUND`)',
    code: 'NOT_FOUND',
    message: 'Not found',
  },
  '409': {
    description: 'The change conflicts with the current state (`CONFLICT`, `DUPLICATE`)',
    code: 'CONFLICT',
    message: 'The change conflicts with the current state',
    more: [['DUPLICATE', 'A record with this value exists already']],
  },
  '412': {
    description: '`If-Match` names a version of the entry that is no longer current (`PRECONDITION_FAILED`)',
    code: 'PRECONDITION_FAILED',
    message: 'The entry changed since it was read',
  },
  '413': {
    description: 'The body is larger than the service accepts (`PAYLOAD_TOO_LARGE`)',
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The body is too large',
  },
  '415': {
    description:
      'The body is not in a content type the route takes (`UNSUPPORTED_MEDIA_TYPE`): send `Content-Type: application/json`',
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Send the body as application/json',
  },
  '422': {
    description: 'The body is well-formed but cannot be applied (`INVALID_INPUT`)',
    code: 'INVALID_INPUT',
    message: 'The input cannot be applied',
  },
  '429': {
    description: 'A rate limit was reached (`RATE_LIMITED`): retry after `Retry-After` seconds',
    code: 'RATE_LIMITED',
    message: 'Too many requests, retry later',
  },
  '500': {
    description:
      'The service failed (`INTERNAL_ERROR`, `DATABASE_ERROR`): retry, then report the `requestId`',
    code: 'INTERNAL_ERROR',
    message: 'Something went wrong',
  },
  '503': {
    description: 'A dependency is unavailable (`SERVICE_UNAVAILABLE`): retry after `Retry-After` seconds',
    code: 'SERVICE_UNAVAILABLE',
    message: 'The service is unavailable, retry later',
  },
};

/** A Problem answer with `code`, as the service sends it. */
function problemExample(code: ProblemCode, message: string): Record<string, unknown> {
  return {
    error: {
      code,
      message,
      requestId: '7f3c2a9e-5b1d-4c8e-9a2f-0d4e6b8c1a3f',
      ...(code === 'VALIDATION_ERROR'
        ? { data: { errors: [{ path: 'email', code: 'isEmail', message: 'email must be an email' }] } }
        : code === 'RATE_LIMITED'
          ? { data: { retryAfterSeconds: 60 } }
          : {}),
    },
  };
}

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Headers every answer carries, and those of the rate limits and caches. */
const HEADERS: Record<string, Record<string, unknown>> = {
  'X-Request-Id': {
    description:
      'The id of this request (also `error.requestId` of a failure): quote it when reporting a problem',
    required: true,
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: 'The requests the budget allows per window (on API key answers and the sign-in routes)',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Remaining': {
    description: 'The requests left in the current window',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the window restarts',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', minimum: 0 },
  },
  'Cache-Control': { description: 'How the answer may be cached', schema: { type: 'string' } },
  ETag: { description: 'The version of the answer, for `If-None-Match`', schema: { type: 'string' } },
};

/**
 * The headers a Problem answer of `status` carries: the request id, the budget of a rate-limited
 * caller (an API key, the sign-in routes: failures spend it too), `Retry-After` on 429 and 503.
 */
function problemHeaders(status: string): Record<string, unknown> {
  return {
    'X-Request-Id': headerRef('X-Request-Id'),
    ...(status === '429' || status === '503' ? { 'Retry-After': headerRef('Retry-After') } : {}),
    'X-RateLimit-Limit': headerRef('X-RateLimit-Limit'),
    'X-RateLimit-Remaining': headerRef('X-RateLimit-Remaining'),
    'X-RateLimit-Reset': headerRef('X-RateLimit-Reset'),
  };
}

/** Paths where a cookie write must carry the CSRF header (CONTRACTS 3.1: POST/PATCH under /auth/). */
const needsCsrfHeader = (r: RegisteredRoute): boolean =>
  (r.method === 'POST' || r.method === 'PATCH') && r.path.startsWith('/admin/api/auth/');

/**
 * The shared parts: info, security schemes, the Problem envelope and the list envelope. The
 * `openapi` field is set to 3.1.0 here; everything this module writes is 3.1 (type arrays, no
 * `nullable`), and `toOpenApi31` rewrites any 3.0 leftovers.
 */
function skeleton(serverUrl: string): OpenApiDocument {
  const base = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('svc')
    .setDescription(
      'Authentication and content REST API. Every failure answers `application/problem+json` with the ' +
        '`Problem` envelope (`error.code`, `error.message`, `error.requestId`). Each collection and ' +
        'single has operations of its own (`/admin/api/collections/<slug>/entries`...) typed with its ' +
        'schemas (`<Name>Entry`, `<Name>EntryInput`, `<Name>Where`); the `{slug}` operations serve ' +
        'every collection at once. Sign in with a browser session (cookie and CSRF header), a Bearer ' +
        'access token, or an API key.',
    )
    .setVersion(SERVICE_VERSION)
    .setLicense('MIT', 'https://opensource.org/license/mit')
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
        'POST and PATCH under `/admin/api/auth/`.',
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
      description: 'An API key (created under `/admin/api/api-keys`): `Authorization: Bearer svc_live_…`.',
    })
    .build();
  const codes = Object.keys(ERROR_STATUS);
  return {
    ...(base as unknown as Omit<OpenApiDocument, 'paths' | 'components'>),
    openapi: '3.1.0',
    servers: [{ url: serverUrl, description: 'This service (paths start with /admin/api or /api)' }],
    paths: {},
    components: {
      securitySchemes: base.components?.securitySchemes ?? {},
      schemas: {
        ErrorCode: {
          type: 'string',
          enum: codes,
          description:
            'What went wrong, with the HTTP status each code answers: ' +
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
          description: 'Every failure, content type `application/problem+json`.',
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
          description: 'A page of a list: the items, and where the page stands (`meta`).',
          properties: { items: { type: 'array', items: { type: 'object' } }, meta: schemaRef('ListMeta') },
          required: ['items', 'meta'],
        },
      },
      headers: HEADERS,
      responses: Object.fromEntries(
        Object.entries(PROBLEM_RESPONSES).map(([status, p]) => [
          `Problem${status}`,
          {
            description: p.description,
            headers: problemHeaders(status),
            content: {
              [PROBLEM_TYPE]: {
                schema: schemaRef('Problem'),
                examples: Object.fromEntries(
                  [[p.code, p.message] as [ProblemCode, string], ...(p.more ?? [])].map(([code, message]) => [
                    code,
                    { summary: code, value: problemExample(code, message) },
                  ]),
                ),
              },
            },
          },
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
  if (r.path === '/api/health' || rateLimited(r, securityOf(r))) {
    // A budget whose counter store (Redis) cannot be read answers 503 with `Retry-After`.
    statuses.add('503');
  }
  const out: Record<string, unknown> = {};
  for (const s of [...statuses].sort()) {
    out[s] = { $ref: `#/components/responses/Problem${s}` };
  }
  out.default = {
    description: 'Any other failure',
    headers: problemHeaders('503'),
    content: { [PROBLEM_TYPE]: { schema: schemaRef('Problem') } },
  };
  return out;
}

interface DeclaredAnswer {
  description?: string;
  schema?: JsonSchema;
  content?: Record<string, unknown>;
  headers?: Record<string, unknown>;
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
      ...(answer.headers ? { headers: answer.headers } : {}),
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

/** Tags: the path's first segment after `/admin/api` (`users`, `auth`, `collections`...). */
const tagOf = (path: string): string =>
  path === '/api/health'
    ? 'health'
    : path === '/api/metrics'
      ? 'metrics'
      : path.replace(/^\/admin\/api\/?/, '').split('/')[0] || 'service';

/**
 * Routes that are no API operations: the HTML pages and the docs (`@ApiExcludeController`,
 * `@ApiExcludeEndpoint`).
 */
function excluded(r: RegisteredRoute): boolean {
  const controller = (Reflect.getMetadata(DECORATORS.API_EXCLUDE_CONTROLLER, r.cls) ?? []) as boolean[];
  const endpoint = Reflect.getMetadata(DECORATORS.API_EXCLUDE_ENDPOINT, r.handler) as
    { disable?: boolean } | undefined;
  return controller[0] === true || endpoint?.disable === true;
}

/**
 * The query parameters the handler declares with `@ApiQuery` (the lists, the content reads), and
 * the request headers it declares with `@ApiHeader` (the preview token of the content reads).
 */
function declaredQuery(r: RegisteredRoute): Array<Record<string, unknown>> {
  const params = (Reflect.getMetadata(DECORATORS.API_PARAMETERS, r.handler) ?? []) as Array<
    Record<string, unknown>
  >;
  return params
    .filter((p) => p.in === 'query' || p.in === 'header')
    .map((p) => ({
      name: p.name,
      in: p.in,
      ...(p.required === true ? { required: true } : {}),
      ...(p.description ? { description: p.description } : {}),
      ...(p.content ? { content: p.content } : { schema: p.schema ?? { type: 'string' } }),
      ...(p.style ? { style: p.style, explode: p.explode } : {}),
    }));
}

/** Whether the route spends a rate-limit budget that sets `X-RateLimit-*` on its answers. */
function rateLimited(r: RegisteredRoute, security: Array<Record<string, string[]>>): boolean {
  const guards = [
    ...((Reflect.getMetadata(GUARDS_METADATA, r.handler) ?? []) as Array<{ name?: string }>),
    ...((Reflect.getMetadata(GUARDS_METADATA, r.cls) ?? []) as Array<{ name?: string }>),
  ];
  // An API key spends its budget on any route it is presented to, a public one included.
  const keyAccepted = security.length === 0 || security.some((s) => 'apiKey' in s || !Object.keys(s).length);
  return guards.some((g) => g?.name === 'AuthRateLimitGuard') || keyAccepted;
}

/** The headers of a success answer: the request id, and the rate limit and cache headers it sets. */
function successHeaders(
  r: RegisteredRoute,
  security: Array<Record<string, string[]>>,
): Record<string, unknown> {
  const set = ((Reflect.getMetadata(HEADERS_METADATA, r.handler) ?? []) as Array<{ name: string }>).map((h) =>
    h.name.toLowerCase(),
  );
  return {
    'X-Request-Id': headerRef('X-Request-Id'),
    ...(rateLimited(r, security)
      ? {
          'X-RateLimit-Limit': headerRef('X-RateLimit-Limit'),
          'X-RateLimit-Remaining': headerRef('X-RateLimit-Remaining'),
          'X-RateLimit-Reset': headerRef('X-RateLimit-Reset'),
        }
      : {}),
    ...(set.includes('cache-control') ? { 'Cache-Control': headerRef('Cache-Control') } : {}),
    ...(set.includes('etag') ? { ETag: headerRef('ETag') } : {}),
  };
}

/**
 * An entry's conditional requests (`ApiEntryVersion`): `ETag` on the success answer of a read or
 * write, `If-None-Match` and 304 on a read, `If-Match` and 412 on a write or delete.
 */
function addEntryVersion(op: Operation, kind: 'read' | 'write' | 'delete' | undefined): void {
  if (!kind) {
    return;
  }
  const read = kind === 'read';
  op.parameters = [
    ...(op.parameters ?? []),
    {
      name: read ? 'If-None-Match' : 'If-Match',
      in: 'header',
      description: read
        ? 'The `ETag` of the entry as the client holds it: 304 while it is still current'
        : 'The `ETag` of the entry the change was made to: 412 when the entry changed since',
      schema: { type: 'string' },
    },
  ];
  if (kind !== 'delete') {
    for (const [status, answer] of Object.entries(op.responses)) {
      if (/^2\d\d$/.test(status) && answer && typeof answer === 'object' && !('$ref' in answer)) {
        const a = answer as { headers?: Record<string, unknown> };
        a.headers = { ...a.headers, ETag: headerRef('ETag') };
      }
    }
  }
  if (read) {
    op.responses['304'] = {
      description: 'Not modified: `If-None-Match` named the current `ETag`',
      headers: { 'X-Request-Id': headerRef('X-Request-Id'), ETag: headerRef('ETag') },
    };
  } else {
    op.responses['412'] = { $ref: '#/components/responses/Problem412' };
  }
}

/** Adds `headers` to every success answer of `op` that does not list its own. */
export function addSuccessHeaders(op: Operation, headers: Record<string, unknown>): void {
  for (const [status, answer] of Object.entries(op.responses)) {
    if (/^[23]\d\d$/.test(status) && answer && typeof answer === 'object' && !('$ref' in answer)) {
      const a = answer as { headers?: Record<string, unknown> };
      a.headers = { ...headers, ...a.headers };
    }
  }
}

/**
 * The document of the routes, built once from the registered routes. Content entry schemas are
 * not part of it: `withContent` adds them from the current definitions. `serverUrl`: the public
 * address of the service (`NEXT_PUBLIC_APP_URL`).
 */
export function buildRoutesDocument(routes: RegisteredRoute[], serverUrl: string): OpenApiDocument {
  const doc = skeleton(serverUrl);
  const dtos = new DtoSchemas();
  const tags = new Set<string>();
  for (const r of routes) {
    if (excluded(r)) {
      continue;
    }
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
        parameters.push({ name: q.name, in: 'query', schema: { type: 'string' } });
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
    const declaredParams = declaredQuery(r);
    const tag = tagOf(r.path);
    tags.add(tag);
    const text = describeOperation(r, path);
    const security = securityOf(r);
    const op: Operation = {
      operationId: text.operationId,
      tags: [tag],
      summary: text.summary,
      description: text.description,
      ...(parameters.length ? { parameters } : {}),
      security,
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
    if (declaredParams.length) {
      op.parameters = [...parameters, ...declaredParams];
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
    addEntryVersion(op, META<'read' | 'write' | 'delete'>(ENTRY_VERSION_METADATA, r));
    addSuccessHeaders(op, successHeaders(r, security));
    doc.paths[path] ??= {};
    doc.paths[path][r.method.toLowerCase()] = op;
  }
  Object.assign(doc.components.schemas, dtos.schemas, namedSchemas());
  doc.tags = [...tags].sort().map((name) => ({
    name,
    ...(Object.prototype.hasOwnProperty.call(TAG_DESCRIPTIONS, name)
      ? { description: TAG_DESCRIPTIONS[name] }
      : {}),
  }));
  return toOpenApi31(doc);
}

/** The content parts of the document: one schema per collection, single, field group. */
export interface ContentDefinitions {
  collections: Definition[];
  singles: Definition[];
  fieldGroups: Definition[];
}

const anyOfRefs = (defs: Definition[], name: (d: Definition) => string): JsonSchema =>
  defs.length > 1
    ? { anyOf: defs.map((d) => schemaRef(name(d))) }
    : defs.length
      ? schemaRef(name(defs[0]))
      : { type: 'object', description: 'No definition exists yet', additionalProperties: false };

/**
 * The routes document with the content definitions: the schemas of each collection
 * (`<Name>Entry`, `<Name>EntryInput`, `<Name>EntryUpdate`, `<Name>Where`), single and field
 * group; the `{slug}` operations referring to all of them (the slug picks one); and operations
 * of each collection and single of its own, typed with its schemas.
 */
export function withContent(routesDoc: OpenApiDocument, defs: ContentDefinitions): OpenApiDocument {
  const doc = structuredClone(routesDoc);
  const schemas = doc.components.schemas;
  const known = new Set(defs.collections.map((d) => d.slug));
  for (const def of [...defs.collections, ...defs.singles, ...defs.fieldGroups]) {
    schemas[contentSchemaName(def.kind, def.slug)] = definitionSchema(def, known);
    schemas[contentInputSchemaName(def.kind, def.slug)] = definitionInputSchema(
      def,
      def.kind === 'collection',
    );
    if (def.kind === 'collection') {
      schemas[contentUpdateSchemaName(def.slug)] = definitionInputSchema(def);
      schemas[whereSchemaName(def.slug)] = whereSchemaOf(def, schemaRef(whereSchemaName(def.slug)));
    }
  }
  Object.assign(schemas, LEXICAL_SCHEMAS);
  const collections: ContentKind = {
    kind: 'collection',
    defs: defs.collections,
    entry: (d) => contentSchemaName('collection', d.slug),
    create: (d) => contentInputSchemaName('collection', d.slug),
    update: (d) => contentUpdateSchemaName(d.slug),
  };
  const singles: ContentKind = {
    kind: 'single',
    defs: defs.singles,
    entry: (d) => contentSchemaName('single', d.slug),
    create: (d) => contentInputSchemaName('single', d.slug),
    update: (d) => contentInputSchemaName('single', d.slug),
  };
  // The bulk bodies' `data`: an update of any collection (the path's).
  for (const name of ['BulkUpdateInput', 'UpdateWhereInput']) {
    const data = (schemas[name] as { properties?: Record<string, JsonSchema> } | undefined)?.properties;
    if (data?.data) {
      data.data = { ...anyOfRefs(defs.collections, collections.update), description: data.data.description };
    }
  }
  const generic = Object.entries(doc.paths);
  for (const [path, ops] of generic) {
    const kind = path.startsWith('/admin/api/collections/{slug}')
      ? collections
      : path.startsWith('/admin/api/singles/{slug}')
        ? singles
        : undefined;
    if (!kind) {
      continue;
    }
    for (const [method, op] of Object.entries(ops)) {
      const slug = op.parameters?.find((p) => p.name === 'slug' && p.in === 'path');
      if (slug && kind.defs.length) {
        slug.schema = { type: 'string', enum: kind.defs.map((d) => d.slug) };
        slug.description = `The ${kind.kind}'s slug`;
      }
      const route = CONTENT_OPERATIONS[path]?.[method];
      if (!route || !op['x-access-rule']) {
        continue;
      }
      typeContentOperation(op, route, {
        entry: anyOfRefs(kind.defs, kind.entry),
        create: anyOfRefs(kind.defs, kind.create),
        update: anyOfRefs(kind.defs, kind.update),
        media: known.has('media'),
      });
      for (const def of kind.defs) {
        const own = ownOperation(op, route, def, kind, schemas);
        const ownPath = path.replace('{slug}', def.slug);
        doc.paths[ownPath] ??= {};
        doc.paths[ownPath][method] = own;
      }
    }
  }
  doc.paths = Object.fromEntries(Object.entries(doc.paths).sort(([a], [b]) => a.localeCompare(b)));
  uniqueOperationIds(doc.paths);
  pruneComponents(doc);
  return doc;
}

interface ContentKind {
  kind: 'collection' | 'single';
  defs: Definition[];
  entry: (d: Definition) => string;
  create: (d: Definition) => string;
  update: (d: Definition) => string;
}

type ContentOperation =
  | 'list'
  | 'read'
  | 'create'
  | 'update'
  | 'delete'
  | 'duplicate'
  | 'count'
  | 'bulkDelete'
  | 'bulkUpdate'
  | 'updateWhere';

/**
 * The content routes that get an operation per collection (or single), by path and method, and
 * what each does. Answers of `read`...`duplicate` are typed here; the others declare theirs.
 */
const CONTENT_OPERATIONS: Record<string, Record<string, ContentOperation>> = {
  '/admin/api/collections/{slug}/entries': { get: 'list', post: 'create', patch: 'updateWhere' },
  '/admin/api/collections/{slug}/entries/count': { get: 'count' },
  '/admin/api/collections/{slug}/entries/bulk-delete': { post: 'bulkDelete' },
  '/admin/api/collections/{slug}/entries/bulk-update': { post: 'bulkUpdate' },
  '/admin/api/collections/{slug}/entries/{id}': { get: 'read', patch: 'update', delete: 'delete' },
  '/admin/api/collections/{slug}/entries/{id}/duplicate': { post: 'duplicate' },
  '/admin/api/singles/{slug}': { get: 'read', patch: 'update' },
};

/** Id and summary of a collection's (or single's) own operation. */
function ownText(route: ContentOperation, name: string, noun: string, single: boolean): [string, string] {
  if (single) {
    return route === 'read'
      ? [`get${name}Single`, `Get the ${noun} single`]
      : [`update${name}Single`, `Update the ${noun} single`];
  }
  const table: Record<ContentOperation, [string, string]> = {
    list: [`list${name}Entries`, `List ${noun} entries`],
    create: [`create${name}Entry`, `Create a ${noun} entry`],
    updateWhere: [`update${name}EntriesWhere`, `Update the ${noun} entries a filter matches`],
    count: [`count${name}Entries`, `Count ${noun} entries`],
    bulkDelete: [`delete${name}Entries`, `Delete ${noun} entries by id`],
    bulkUpdate: [`update${name}Entries`, `Update ${noun} entries by id`],
    read: [`get${name}Entry`, `Get a ${noun} entry`],
    update: [`update${name}Entry`, `Update a ${noun} entry`],
    delete: [`delete${name}Entry`, `Delete a ${noun} entry`],
    duplicate: [`duplicate${name}Entry`, `Duplicate a ${noun} entry`],
  };
  return table[route];
}

/** The `{slug}` operation, made the operation of one collection (or single). */
function ownOperation(
  generic: Operation,
  route: ContentOperation,
  def: Definition,
  kind: ContentKind,
  schemas: Record<string, JsonSchema>,
): Operation {
  const op = structuredClone(generic);
  const name = pascalCase(def.slug);
  const [operationId, summary] = ownText(route, name, def.slug, kind.kind === 'single');
  op.operationId = operationId;
  op.summary = summary;
  op.description =
    `${String(generic.description ?? '')} This operation serves the \`${def.slug}\` ${kind.kind} only, typed with its schemas.`.trim();
  if (typeof op['x-access-rule'] === 'string') {
    op['x-access-rule'] = op['x-access-rule'].replace('{slug}', def.slug);
  }
  op.parameters = (op.parameters ?? []).filter(
    (p) => !(p.in === 'path' && p.name === 'slug') && !(p.name === 'status' && !def.drafts),
  );
  const sortable = sortableFieldsOf(def);
  for (const p of op.parameters) {
    if (p.name === 'where' && p.content) {
      p.content = { 'application/json': { schema: schemaRef(whereSchemaName(def.slug)) } };
    } else if (p.name === 'sort' && p.in === 'query' && sortable.length) {
      // Field names are letters, digits and `_`: safe inside the pattern.
      const field = `\\s*-?(?:${sortable.join('|')})\\s*`;
      p.description = `${String(p.description)}. Sortable: ${sortable.map((f) => `\`${f}\``).join(', ')}`;
      p.schema = { ...(p.schema as JsonSchema), pattern: `^${field}(?:,${field})*$` };
    }
  }
  if (!op.parameters.length) {
    delete op.parameters;
  }
  const media = def.slug === 'media' && def.source === 'system';
  typeContentOperation(op, route, {
    entry: schemaRef(kind.entry(def)),
    create: schemaRef(kind.create(def)),
    update: schemaRef(kind.update(def)),
    media,
    mediaOnly: media,
  });
  if (route === 'bulkUpdate' || route === 'updateWhere') {
    const body = op.requestBody as { content: Record<string, { schema: JsonSchema }> };
    // The shared body with this collection's `data` (and `where`): one closed object.
    const base = schemas[route === 'bulkUpdate' ? 'BulkUpdateInput' : 'UpdateWhereInput'] as {
      properties: Record<string, JsonSchema>;
    };
    const properties: Record<string, JsonSchema> = {
      ...base.properties,
      data: { ...schemaRef(kind.update(def)), description: base.properties.data?.description },
    };
    if (route === 'updateWhere') {
      properties.where = {
        ...schemaRef(whereSchemaName(def.slug)),
        description: base.properties.where?.description,
      };
    }
    body.content = { 'application/json': { schema: { ...base, properties } } };
  }
  return op;
}

/** Types the body and the answer of an entry operation with the given schemas. */
function typeContentOperation(
  op: Operation,
  route: ContentOperation,
  s: { entry: JsonSchema; create: JsonSchema; update: JsonSchema; media: boolean; mediaOnly?: boolean },
): void {
  const status = Object.keys(op.responses).find((code) => /^2\d\d$/.test(code));
  if (!status) {
    return;
  }
  const headers = (op.responses[status] as { headers?: unknown }).headers;
  const answer = (schema: JsonSchema, description = 'Success') =>
    (op.responses[status] = {
      description,
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema } },
    });
  const body = op.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined;
  switch (route) {
    case 'read':
      answer(s.entry, 'The entry');
      break;
    case 'list':
      answer(listOf(s.entry), 'A page of entries');
      break;
    case 'create':
      if (body?.content) {
        body.content = s.mediaOnly
          ? { 'multipart/form-data': MEDIA_UPLOAD }
          : {
              'application/json': { schema: s.create },
              ...(s.media ? { 'multipart/form-data': MEDIA_UPLOAD } : {}),
            };
      }
      // Without read access the item echoes the fields sent, with `id` and the timestamps.
      answer(entryAnswer(s.entry), 'The entry made');
      break;
    case 'update':
      if (body?.content) {
        body.content = { 'application/json': { schema: s.update } };
      }
      answer(entryAnswer({ anyOf: [s.entry, WITHHELD_ENTRY] }), 'The entry as it is now');
      break;
    case 'delete':
      answer(entryAnswer({ anyOf: [s.entry, WITHHELD_ENTRY] }), 'The entry deleted');
      break;
    case 'duplicate':
      answer(entryAnswer({ anyOf: [s.entry, WITHHELD_ENTRY] }), 'The copy made');
      break;
    default:
      break;
  }
}

/**
 * Drops the component schemas, responses and headers nothing refers to (transitively from the
 * paths): a shape no route uses would only mislead a client generator.
 */
function pruneComponents(doc: OpenApiDocument): void {
  const sections = doc.components as unknown as Record<string, Record<string, unknown>>;
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
    } else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        const m = k === '$ref' && typeof v === 'string' ? /^#\/components\/(\w+)\/(.+)$/.exec(v) : null;
        if (m && !used.has(v as string) && sections[m[1]]?.[m[2]] !== undefined) {
          used.add(v as string);
          visit(sections[m[1]][m[2]]);
        } else if (!m) {
          visit(v);
        }
      }
    }
  };
  visit(doc.paths);
  for (const section of ['schemas', 'responses', 'headers']) {
    for (const name of Object.keys(sections[section] ?? {})) {
      if (!used.has(`#/components/${section}/${name}`)) {
        delete sections[section][name];
      }
    }
  }
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

/**
 * The upload that makes a media entry: `multipart/form-data` with the file and the media fields a
 * write may set (media/media.service.ts `receive`).
 */
const MEDIA_UPLOAD = {
  schema: {
    type: 'object',
    description: 'The built-in `media` collection only: its entries are made by uploading the file',
    properties: {
      file: { type: 'string', format: 'binary', description: 'The file' },
      alt: { type: 'string', description: 'Text describing the image, for screen readers' },
      caption: { type: 'string' },
    },
    required: ['file'],
  },
  encoding: { file: { contentType: 'application/octet-stream' } },
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
