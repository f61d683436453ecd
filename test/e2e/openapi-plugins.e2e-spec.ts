import type { OpenApiDocument } from '../../src/modules/openapi/openapi-document';
import { formBuilderPlugin } from '../../src/plugins/form-builder';
import { magicLinkPlugin } from '../../src/plugins/magic-link';
import { oidcPlugin } from '../../src/plugins/oidc';
import { passkeyPlugin } from '../../src/plugins/passkeys';
import { totpPlugin } from '../../src/plugins/totp';
import { validateOpenApi } from '../utils/openapi-check';
import { uncheckedServer } from '../utils/openapi-conformance';
import { createTestApp, type TestApp } from '../utils/test-app';

type Json = Record<string, unknown>;

/** The mount paths of the shipped plugins booted below (form-builder mounts at /admin/api/forms). */
const MOUNTS = [
  '/admin/api/plugins/totp/',
  '/admin/api/plugins/passkeys/',
  '/admin/api/plugins/oidc/',
  '/admin/api/plugins/corp/',
  '/admin/api/plugins/magic-link/',
  '/admin/api/forms',
];

/**
 * The plugins this repository ships describe their answers in the OpenAPI document (third-party
 * plugins may leave theirs out): every success status of every shipped plugin route has a schema,
 * a non-JSON content type, or is a redirect or a 204 (no content).
 */
describe('OpenAPI: the shipped plugins describe their answers', () => {
  let t: TestApp;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        plugins: [
          totpPlugin(),
          passkeyPlugin({ rpId: 'localhost', rpName: 'svc tests', origins: ['http://localhost:3000'] }),
          // The issuer is discovered at the first sign-in: none happens here.
          oidcPlugin({
            issuer: 'http://127.0.0.1:9/',
            clientId: 'svc',
            clientSecret: 'svc-secret-0123456789',
          }),
          oidcPlugin({ slug: 'corp', issuer: 'http://127.0.0.1:9/', clientId: 'corp' }),
          formBuilderPlugin(),
          magicLinkPlugin(),
        ],
      },
    });
    // What the document says is the subject here, not how its own route is described.
    uncheckedServer(t.app.getHttpServer() as object);
    doc = (await t.http.get('/admin/api/openapi.json').expect(200)).body as OpenApiDocument;
  });
  afterAll(async () => {
    await t?.close();
  });

  /** `METHOD path` of every plugin operation of the shipped plugins, with the operation. */
  const operations = (): Array<[string, Json]> =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops as Record<string, Json>)
        .filter(([, op]) => op['x-plugin'] === true && MOUNTS.some((m) => path.startsWith(m)))
        .map(([method, op]): [string, Json] => [`${method.toUpperCase()} ${path}`, op]),
    );

  it('lists the routes of every shipped plugin', () => {
    const routes = operations().map(([route]) => route);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /admin/api/plugins/totp/status',
        'POST /admin/api/plugins/totp/enroll',
        'POST /admin/api/plugins/totp/enroll/confirm',
        'POST /admin/api/plugins/totp/disable',
        'DELETE /admin/api/plugins/totp/users/{id}',
        'POST /admin/api/plugins/passkeys/register/options',
        'POST /admin/api/plugins/passkeys/register/verify',
        'GET /admin/api/plugins/passkeys/credentials',
        'DELETE /admin/api/plugins/passkeys/credentials/{id}',
        'POST /admin/api/plugins/passkeys/challenge/options',
        'POST /admin/api/plugins/passkeys/login/options',
        'POST /admin/api/plugins/passkeys/login/verify',
        'GET /admin/api/plugins/oidc/start',
        'GET /admin/api/plugins/oidc/callback',
        'GET /admin/api/plugins/corp/start',
        'GET /admin/api/plugins/corp/callback',
        'GET /admin/api/forms',
        'POST /admin/api/forms',
        'GET /admin/api/forms/{slug}',
        'PATCH /admin/api/forms/{slug}',
        'DELETE /admin/api/forms/{slug}',
        'POST /admin/api/forms/{slug}/submit',
        'GET /admin/api/forms/{slug}/submissions',
        'GET /admin/api/forms/{slug}/submissions/export',
        'POST /admin/api/plugins/magic-link/request',
        'GET /admin/api/plugins/magic-link/verify',
      ]),
    );
  });

  it('describes every success answer of every shipped plugin route', () => {
    const undescribed: string[] = [];
    for (const [route, op] of operations()) {
      const responses = op.responses as Record<string, Json>;
      const successes = Object.entries(responses).filter(([status]) => /^[23]\d\d$/.test(status));
      const described = (status: string, answer: Json): boolean => {
        const content = answer.content as Record<string, { schema?: Json }> | undefined;
        if (!content) {
          // No content: only a redirect or a 204 answers nothing.
          return /^3/.test(status) || status === '204';
        }
        return Object.entries(content).some(([type, media]) => !type.endsWith('json') || !!media.schema);
      };
      // At least one success is described, and none is left with an undescribed body.
      const ok =
        successes.length > 0 &&
        successes.every(
          ([status, answer]) =>
            described(status, answer) ||
            // The generic success entry of a route that only redirects (its 302 is declared).
            (successes.some(([s]) => /^3/.test(s)) && !answer.content),
        );
      if (!ok) {
        undescribed.push(`${route}: ${JSON.stringify(Object.fromEntries(successes))}`);
      }
    }
    expect(undescribed).toEqual([]);
  });

  it('registers the plugins’ named schemas, prefixed by the plugin', () => {
    const names = Object.keys(doc.components.schemas);
    for (const prefix of ['Totp_', 'Passkeys_', 'Forms_']) {
      expect(names.some((n) => n.startsWith(prefix))).toBe(true);
    }
  });

  it('is a valid OpenAPI 3.1 document with the plugins’ schemas', async () => {
    expect(await validateOpenApi(doc)).toBe('');
  });
});
