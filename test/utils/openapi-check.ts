import { execFile } from 'node:child_process';
import Ajv, { type ValidateFunction } from 'ajv';
import type { OpenApiDocument } from '../../src/modules/openapi/openapi-document';

/** What a supertest response offers the check. */
export interface CheckedResponse {
  status: number;
  headers: Record<string, unknown>;
  body: unknown;
  text?: string;
  req?: { method?: string; path?: string };
}

type Json = Record<string, unknown>;

/**
 * Addresses that are no API operations, so the document leaves them out: the HTML pages under
 * /admin (not /admin/api), Swagger UI and the document itself.
 */
export const UNDOCUMENTED = /^\/admin(?:\/(?!api(?:\/|$))|$)|^\/admin\/api\/(?:docs(?:\/|$)|openapi\.json$)/;

/** Compiled regular expressions of the document's path templates, literal segments first. */
const templates = new WeakMap<OpenApiDocument, Array<{ path: string; re: RegExp }>>();

function templatesOf(doc: OpenApiDocument): Array<{ path: string; re: RegExp }> {
  let list = templates.get(doc);
  if (!list) {
    // Literal segments win over templated ones, as Express registers them here.
    list = Object.keys(doc.paths)
      .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
      .map((path) => ({
        path,
        re: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      }));
    templates.set(doc, list);
  }
  return list;
}

/** The operation of the document that `method path` (a real URL path, query allowed) reaches. */
export function operationFor(doc: OpenApiDocument, method: string, url: string): { path: string; op: Json } {
  const found = findOperation(doc, method, url);
  if (!found) {
    throw new Error(`the document has no operation for ${method} ${url.split('?')[0]}`);
  }
  return found;
}

function findOperation(doc: OpenApiDocument, method: string, url: string): { path: string; op: Json } | null {
  // Express routes `/x/` as `/x` (non-strict routing).
  const path = url.split('?')[0].replace(/(.)\/$/, '$1');
  const m = method.toLowerCase();
  const hit = templatesOf(doc).find((t) => t.re.test(path) && doc.paths[t.path][m]);
  return hit ? { path: hit.path, op: doc.paths[hit.path][m] } : null;
}

/** One ajv per document, holding its components; validators compiled once per schema. */
const validators = new WeakMap<OpenApiDocument, { ajv: Ajv; compiled: Map<object, ValidateFunction> }>();

function validatorFor(doc: OpenApiDocument, schema: Json): ValidateFunction {
  let v = validators.get(doc);
  if (!v) {
    // Ajv's draft-07 reads these schemas: 3.1's type arrays and the keywords used here are
    // draft-07's too (OpenAPI's own keywords, `example`, `x-*`, are left alone: not strict).
    // The components become one schema with `definitions`, referred to by id.
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
    ajv.addSchema(
      JSON.parse(
        JSON.stringify({ $id: 'svc-openapi', definitions: doc.components.schemas }).replace(
          /#\/components\/schemas\//g,
          'svc-openapi#/definitions/',
        ),
      ) as Json,
    );
    v = { ajv, compiled: new Map() };
    validators.set(doc, v);
  }
  let fn = v.compiled.get(schema);
  if (!fn) {
    fn = v.ajv.compile(
      JSON.parse(
        JSON.stringify(schema).replace(/#\/components\/schemas\//g, 'svc-openapi#/definitions/'),
      ) as Json,
    );
    v.compiled.set(schema, fn);
  }
  return fn;
}

/** The listed media type that answers `type`: exact, else a range (`image/*`, `*\/*`). */
function mediaFor<T>(content: Record<string, T>, type: string): T | undefined {
  return content[type] ?? content[`${type.split('/')[0]}/*`] ?? content['*/*'];
}

/** Whether the response carries a body (a JSON value, or text). */
function hasBody(res: CheckedResponse): boolean {
  if (res.status === 204 || res.status === 304) {
    return false;
  }
  const length = res.headers['content-length'];
  if (length !== undefined && Number(length) === 0) {
    return false;
  }
  return res.text === undefined ? res.body !== undefined && res.body !== '' : res.text !== '';
}

/**
 * Checks a response against the document: the operation exists (a path no operation has must
 * answer a Problem 404/405), it lists the status (or a `default`), the content type is the one
 * listed, a body is described by a schema (core routes: a JSON answer with no schema is a gap
 * of the document), and the body validates against it. Answers the problems, empty when it
 * conforms; `expectConforms` throws them.
 */
export function checkResponse(
  doc: OpenApiDocument,
  method: string,
  url: string,
  res: CheckedResponse,
): string[] {
  if (UNDOCUMENTED.test(url.split('?')[0])) {
    return [];
  }
  const found = findOperation(doc, method, url);
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  if (!found) {
    // Not a route of the service: the 404 of an unknown address (or a refusal before routing:
    // 429, 413...), always a Problem.
    if (res.status < 400) {
      return [`${method} ${url.split('?')[0]}: the document has no operation, yet it answered ${res.status}`];
    }
    return validate(
      doc,
      `${method} ${url.split('?')[0]} ${res.status}`,
      { $ref: '#/components/schemas/Problem' },
      bodyOf(res),
    );
  }
  const { path, op } = found;
  const where = `${method} ${path} ${res.status}`;
  const responses = op.responses as Record<string, Json>;
  const listed = responses[String(res.status)] ?? responses[`${String(res.status)[0]}XX`];
  if (!listed && res.status < 400 && op['x-plugin'] === true) {
    // A plugin's route that does not describe this answer (plugins may leave theirs out).
    return [];
  }
  let response = listed ?? responses.default;
  if (!response) {
    return [`${method} ${path}: status ${res.status} is not listed (${Object.keys(responses).join(', ')})`];
  }
  if (typeof response.$ref === 'string') {
    response = doc.components.responses[response.$ref.replace('#/components/responses/', '')] as Json;
  }
  return [...checkHeaders(doc, where, op, response, res), ...checkBody(doc, where, op, response, res, type)];
}

/** The body against the answer's content: its type listed, its JSON valid against the schema. */
function checkBody(
  doc: OpenApiDocument,
  where: string,
  op: Json,
  response: Json,
  res: CheckedResponse,
  type: string,
): string[] {
  const content = response.content as Record<string, { schema?: Json }> | undefined;
  if (res.status >= 300 && res.status < 400) {
    // A redirect's or a 304's body (Express's "Found. Redirecting to...") is not the answer.
    return [];
  }
  const body = hasBody(res);
  if (!content) {
    // A JSON answer the document does not describe. Plugin routes may leave theirs undescribed.
    return body && type.endsWith('json') && op['x-plugin'] !== true
      ? [`${where}: answers a ${type} body the document does not describe`]
      : [];
  }
  if (!body) {
    return res.status === 204
      ? []
      : [`${where}: answered no body, the document lists ${Object.keys(content).join(', ')}`];
  }
  const media = mediaFor(content, type);
  if (!media) {
    return [`${where}: content type "${type}" is not listed (${Object.keys(content).join(', ')})`];
  }
  return media.schema ? validate(doc, where, media.schema, bodyOf(res)) : [];
}

/** Headers whose presence the document states: checked both ways. */
const STATED_HEADERS = [
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'etag',
];

/**
 * The response's headers against the answer's: each declared `required` header is present, and
 * a rate-limit, `Retry-After` or `ETag` header the service sent is declared (plugins aside).
 */
function checkHeaders(
  doc: OpenApiDocument,
  where: string,
  op: Json,
  response: Json,
  res: CheckedResponse,
): string[] {
  const declared = new Map<string, Json>();
  for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
    const ref =
      typeof header.$ref === 'string' ? header.$ref.replace('#/components/headers/', '') : undefined;
    const resolved = ref ? ((doc.components.headers ?? {}) as Record<string, Json>)[ref] : header;
    declared.set(name.toLowerCase(), resolved ?? {});
  }
  const problems: string[] = [];
  for (const [name, header] of declared) {
    if (header.required === true && res.headers[name] === undefined) {
      problems.push(`${where}: the required header ${name} is missing`);
    }
  }
  if (op['x-plugin'] !== true) {
    for (const name of STATED_HEADERS) {
      if (res.headers[name] !== undefined && !declared.has(name)) {
        problems.push(`${where}: sent the header ${name}, which the answer does not declare`);
      }
    }
  }
  return problems;
}

/** The JSON body, also when the test read it raw (a Buffer, with its own parser). */
function bodyOf(res: CheckedResponse): unknown {
  if (Buffer.isBuffer(res.body)) {
    try {
      return JSON.parse(res.body.toString('utf8')) as unknown;
    } catch {
      return res.body.toString('utf8');
    }
  }
  return res.body;
}

function validate(doc: OpenApiDocument, where: string, schema: Json, body: unknown): string[] {
  const fn = validatorFor(doc, schema);
  return fn(body)
    ? []
    : (fn.errors ?? []).map(
        (e) => `${where}: body${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
      );
}

/**
 * Checks a request body the service accepted (a 2xx answer) against the operation's JSON request
 * body schema: a document that refuses what the service takes would mislead every client
 * generator. Answers the problems, empty when it conforms or there is nothing to check.
 */
export function checkRequestBody(
  doc: OpenApiDocument,
  method: string,
  url: string,
  body: unknown,
  contentType: string | undefined,
): string[] {
  const found = findOperation(doc, method, url);
  if (!found || body === undefined || !/json/i.test(contentType ?? 'application/json')) {
    return [];
  }
  const requestBody = found.op.requestBody as { content?: Record<string, { schema?: Json }> } | undefined;
  const schema = requestBody?.content?.['application/json']?.schema;
  const empty = body === null || (typeof body === 'object' && Object.keys(body).length === 0);
  if (!schema) {
    // An empty `{}` (what a helper sends by default) on a route that takes no body is no body.
    return empty || found.op['x-plugin'] === true
      ? []
      : [`${method} ${found.path}: accepted a JSON body the document does not describe`];
  }
  let value: unknown = body;
  if (typeof body === 'string') {
    try {
      value = JSON.parse(body) as unknown;
    } catch {
      return [];
    }
  }
  return validate(doc, `${method} ${found.path} request`, schema, value);
}

/** Throws when the response does not conform to the document. */
export function expectConforms(
  doc: OpenApiDocument,
  method: string,
  url: string,
  res: CheckedResponse,
): void {
  const problems = checkResponse(doc, method, url, res);
  if (problems.length) {
    throw new Error(`response does not conform to the OpenAPI document:\n  ${problems.join('\n  ')}`);
  }
}

/**
 * `SwaggerParser.validate(doc)` (a real OpenAPI 3.1 validator) in a child Node: its ref parser is
 * an ES module, which Jest (on this Node) cannot require. Resolves with the validator's message,
 * '' when the document is valid.
 */
export function validateOpenApi(doc: unknown): Promise<string> {
  const script = `
    const SwaggerParser = require('@apidevtools/swagger-parser');
    let text = '';
    process.stdin.on('data', (d) => (text += d)).on('end', () =>
      SwaggerParser.validate(JSON.parse(text)).then(
        () => process.stdout.write(''),
        (e) => process.stdout.write(String(e && e.message)),
      ),
    );`;
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['-e', script], { cwd: process.cwd() }, (err, stdout) =>
      err ? reject(err) : resolve(stdout),
    );
    child.stdin!.end(JSON.stringify(doc));
  });
}
