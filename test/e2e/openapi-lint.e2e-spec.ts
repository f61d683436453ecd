import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ERROR_STATUS } from '../../src/common/errors';
import type { OpenApiDocument } from '../../src/modules/openapi/openapi-document';
import { formBuilderPlugin } from '../../src/plugins/form-builder';
import { totpPlugin } from '../../src/plugins/totp';
import { uncheckedServer } from '../utils/openapi-conformance';
import { createTestApp, type TestApp } from '../utils/test-app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

type Json = Record<string, unknown>;

/** Runs a linter; its JSON report (it exits non-zero when it finds errors). */
async function lint(cmd: string, args: string[]): Promise<string> {
  try {
    return (await run(cmd, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (e) {
    const out = (e as { stdout?: string }).stdout;
    if (out) {
      return out;
    }
    throw e;
  }
}

/**
 * The served document, with collections (drafts or not, a dashed slug), a single and two shipped
 * plugins, passes Redocly's `recommended` and Spectral's `spectral:oas` rules with no error
 * (.redocly.yaml and .spectral.yaml list the warnings kept), and reads as a client author needs:
 * ids, summaries, descriptions, tags, servers, examples, no internal references.
 */
describe('OpenAPI: lint and document-level text', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'posts',
            fields: [
              { name: 'title', type: 'text', required: true },
              { name: 'body', type: 'richText' },
              { name: 'meta', type: 'json' },
            ],
          },
          { slug: 'blog-notes', drafts: true, fields: [{ name: 'title', type: 'text', required: true }] },
        ],
        singles: [{ slug: 'site-settings', fields: [{ name: 'name', type: 'text' }] }],
        plugins: [totpPlugin(), formBuilderPlugin()],
      },
    });
    uncheckedServer(t.app.getHttpServer() as object);
    doc = (await t.http.get('/admin/api/openapi.json').expect(200)).body as OpenApiDocument;
    dir = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
    file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(doc));
    if (process.env.OPENAPI_DUMP) {
      // To read the linted document: OPENAPI_DUMP=<file> npx jest test/e2e/openapi-lint.e2e-spec.ts
      writeFileSync(process.env.OPENAPI_DUMP, JSON.stringify(doc, null, 2));
    }
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  const operations = (): Array<[string, Json]> =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops as Record<string, Json>).map(([m, op]): [string, Json] => [
        `${m.toUpperCase()} ${path}`,
        op,
      ]),
    );

  it('has no Redocly error (recommended)', async () => {
    const out = await lint(bin('redocly'), ['lint', file, '--config', '.redocly.yaml', '--format', 'json']);
    const report = JSON.parse(out) as {
      totals: { errors: number };
      problems: Array<{ severity: string; message: string; ruleId: string }>;
    };
    expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 60_000);

  it('has no Spectral error (spectral:oas)', async () => {
    const out = await lint(bin('spectral'), [
      'lint',
      file,
      '--ruleset',
      '.spectral.yaml',
      '--format',
      'json',
      '--quiet',
    ]);
    const results = JSON.parse(out || '[]') as Array<{
      severity: number;
      code: string;
      message: string;
      path: string[];
    }>;
    // Severity 0 is an error.
    expect(results.filter((r) => r.severity === 0)).toEqual([]);
  }, 60_000);

  it('gives every operation a verb-like unique id, a summary in words and a description', () => {
    const ids = new Map<string, string>();
    const problems: string[] = [];
    const VERB =
      /^(bulkDelete|bulkUpdate|get|list|create|update|delete|post|put|patch|count|duplicate|add|remove|replace|set|send|preview|apply|check|sign|log|refresh|reset|change|verify|resend|accept|rotate|revoke|reorder|regenerate|export|download|render|test|register|resolve|complete|confirm|disable|enroll|end|start|request|submit|upload|find|reauthenticate|login|logout|forgot|restore|schedule|cancel)[A-Z0-9]?/;
    for (const [route, op] of operations()) {
      const id = String(op.operationId);
      if (!/^[a-z][A-Za-z0-9]*$/.test(id) || !VERB.test(id)) {
        problems.push(`${route}: operationId ${id} is not a lowerCamelCase verb phrase`);
      }
      if (ids.has(id)) {
        problems.push(`${route}: operationId ${id} is also ${ids.get(id)}'s`);
      }
      ids.set(id, route);
      const summary = String(op.summary ?? '');
      if (!summary || /[/{}]/.test(summary) || /^(GET|POST|PATCH|PUT|DELETE) /.test(summary)) {
        problems.push(`${route}: summary "${summary}" is not in words`);
      }
      if (String(op.description ?? '').length < 10) {
        problems.push(`${route}: no description`);
      }
    }
    expect(problems).toEqual([]);
    expect(doc.paths['/admin/api/auth/login'].post.operationId).toBe('login');
    expect(doc.paths['/admin/api/collections/posts/entries'].get.operationId).toBe('listPostsEntries');
    expect(doc.paths['/admin/api/collections/blog-notes/entries'].post.operationId).toBe(
      'createBlogNotesEntry',
    );
    expect(doc.paths['/admin/api/singles/site-settings'].get.operationId).toBe('getSiteSettingsSingle');
  });

  it('describes every tag, names the server, and cites no internal document', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://localhost:3000' })]);
    const used = new Set(operations().flatMap(([, op]) => op.tags as string[]));
    const tags = doc.tags as Array<{ name: string; description?: string }>;
    expect(tags.map((tag) => tag.name).sort()).toEqual([...used].sort());
    expect(tags.filter((tag) => !tag.description).map((tag) => tag.name)).toEqual([]);
    const cited = JSON.stringify(doc).match(
      /.{0,60}(\bSPEC\b|\bCONTRACTS\b|\bDESIGN \d|\bissue \d+).{0,20}/gi,
    );
    expect(cited).toBeNull();
  });

  it('types every property the service knows the type of', () => {
    const open: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (Array.isArray(node)) {
        node.forEach((n, i) => walk(n, `${path}[${i}]`));
      } else if (node && typeof node === 'object') {
        const properties = (node as Json).properties;
        if (properties && typeof properties === 'object') {
          for (const [name, schema] of Object.entries(properties as Record<string, Json>)) {
            if (!['type', '$ref', 'anyOf', 'oneOf', 'allOf', 'enum', 'const'].some((k) => k in schema)) {
              open.push(`${path}.${name}`);
            }
          }
        }
        for (const [k, v] of Object.entries(node)) {
          walk(v, `${path}.${k}`);
        }
      }
    };
    walk(doc.components.schemas, 'schemas');
    walk(doc.paths, 'paths');
    // The answer to a sign-in step is the step's own (a code, a passkey assertion...): open.
    expect(open).toEqual(['schemas.ResolveChallengeDto.response']);
  });

  it('declares CSRF as a security scheme only, never as a required header parameter', () => {
    const csrfHeaders = operations().filter(([, op]) =>
      ((op.parameters ?? []) as Json[]).some((p) => p.in === 'header' && /csrf/i.test(String(p.name))),
    );
    expect(csrfHeaders).toEqual([]);
    expect(doc.paths['/admin/api/auth/login'].post.security).toContainEqual({ csrf: [] });
  });

  it('shows each Problem answer with an example code of its own status, and the headers', () => {
    const responses = doc.components.responses as Record<string, Json>;
    expect(Object.keys(responses).length).toBeGreaterThan(5);
    type Examples = Record<string, { value: { error: { code: keyof typeof ERROR_STATUS } } }>;
    const codesOf = (response: Json) =>
      Object.values(
        (response.content as Record<string, { examples: Examples }>)['application/problem+json'].examples,
      ).map((e) => e.value.error.code);
    expect(codesOf(responses.Problem403)).toEqual(['FORBIDDEN', 'CSRF_FAILED']);
    expect(codesOf(responses.Problem401)).toEqual(['AUTH_REQUIRED', 'AUTH_INVALID_CREDENTIALS']);
    for (const [name, response] of Object.entries(responses)) {
      const status = Number(name.replace('Problem', ''));
      const codes = codesOf(response);
      expect(codes.length).toBeGreaterThan(0);
      expect([name, codes.map((code) => ERROR_STATUS[code])]).toEqual([name, codes.map(() => status)]);
      expect(Object.keys(response.headers as Json)).toContain('X-Request-Id');
      if (status === 429 || status === 503) {
        expect(Object.keys(response.headers as Json)).toContain('Retry-After');
      }
    }
    // A success: the request id; an API key's budget on routes API keys may call.
    const users = doc.paths['/admin/api/users'].get.responses['200'] as { headers: Json };
    expect(Object.keys(users.headers)).toEqual(
      expect.arrayContaining([
        'X-Request-Id',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
        'X-RateLimit-Reset',
      ]),
    );
  });

  it('types each collection’s own operations with its schemas, and the media upload as multipart', () => {
    const posts = doc.components.schemas.PostsEntryInput as { required?: string[] };
    expect(posts.required).toEqual(['title']);
    const create = doc.paths['/admin/api/collections/posts/entries'].post.requestBody as { content: Json };
    expect(Object.keys(create.content)).toEqual(['application/json']);
    const upload = doc.paths['/admin/api/collections/media/entries'].post.requestBody as {
      content: Record<string, { schema: { properties: Json; required: string[] } }>;
    };
    expect(Object.keys(upload.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(upload.content['multipart/form-data'].schema.properties)).toEqual([
      'file',
      'alt',
      'caption',
    ]);
    const body = (doc.components.schemas.PostsEntry as { properties: Record<string, Json> }).properties.body;
    expect(JSON.stringify(body)).toContain('#/components/schemas/LexicalDocument');
    // No component is left unused.
    const text = JSON.stringify({ paths: doc.paths, components: { ...doc.components, schemas: {} } });
    const schemasText = JSON.stringify(doc.components.schemas);
    const unused = Object.keys(doc.components.schemas).filter(
      (name) =>
        !text.includes(`"#/components/schemas/${name}"`) &&
        !schemasText.includes(`"#/components/schemas/${name}"`),
    );
    expect(unused).toEqual([]);
  });
});
