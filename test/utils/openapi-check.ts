import Ajv from 'ajv';
import type { OpenApiDocument } from '../../src/modules/openapi/openapi-document';

/** What a supertest response offers the check. */
export interface CheckedResponse {
  status: number;
  headers: Record<string, unknown>;
  body: unknown;
  req?: { method?: string; path?: string };
}

type Json = Record<string, unknown>;

/** The operation of the document that `method path` (a real URL path, query allowed) reaches. */
export function operationFor(doc: OpenApiDocument, method: string, url: string): { path: string; op: Json } {
  const path = url.split('?')[0];
  // Literal segments win over templated ones, as Express registers them here.
  const candidates = Object.keys(doc.paths)
    .filter((template) => {
      const re = new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      return re.test(path) && doc.paths[template][method.toLowerCase()];
    })
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
  if (!candidates.length) {
    throw new Error(`the document has no operation for ${method} ${path}`);
  }
  return { path: candidates[0], op: doc.paths[candidates[0]][method.toLowerCase()] };
}

/**
 * Checks a response against the document: the operation exists, it lists the status (or a
 * `default`), the content type is the one listed, and the body validates against the schema.
 * Answers the list of problems (empty when it conforms); `expectConforms` throws them.
 */
export function checkResponse(
  doc: OpenApiDocument,
  method: string,
  url: string,
  res: CheckedResponse,
): string[] {
  const { path, op } = operationFor(doc, method, url);
  const responses = op.responses as Record<string, Json>;
  let response =
    responses[String(res.status)] ?? responses[`${String(res.status)[0]}XX`] ?? responses.default;
  if (!response) {
    return [`${method} ${path}: status ${res.status} is not listed (${Object.keys(responses).join(', ')})`];
  }
  if (typeof response.$ref === 'string') {
    response = doc.components.responses[response.$ref.replace('#/components/responses/', '')] as Json;
  }
  const content = response.content as Record<string, { schema?: Json }> | undefined;
  if (!content) {
    return [];
  }
  const type = String(res.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
  const media = content[type];
  if (!media) {
    return [
      `${method} ${path} ${res.status}: content type "${type}" is not listed (${Object.keys(content).join(', ')})`,
    ];
  }
  if (!media.schema) {
    return [];
  }
  // ajv 6 (draft-07) reads these schemas: 3.1's type arrays and keywords used here are draft-07's too.
  const schema = JSON.parse(
    JSON.stringify({ ...media.schema, definitions: doc.components.schemas }).replace(
      /#\/components\/schemas\//g,
      '#/definitions/',
    ),
  ) as Json;
  const ajv = new Ajv({ allErrors: true, unknownFormats: 'ignore' });
  const valid = ajv.validate(schema, res.body);
  return valid
    ? []
    : (ajv.errors ?? []).map(
        (e) =>
          `${method} ${path} ${res.status}: body${e.dataPath} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
      );
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
