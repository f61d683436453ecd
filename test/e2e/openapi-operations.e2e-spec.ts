import { ModulesContainer } from '@nestjs/core';
import { OpenApiController } from '../../src/modules/openapi/openapi.controller';
import { OPERATIONS, operationOf, TAG_DESCRIPTIONS } from '../../src/modules/openapi/operations';
import { AdminAppController } from '../../src/modules/pages/admin-app.controller';
import { formBuilderPlugin } from '../../src/plugins/form-builder';
import { magicLinkPlugin } from '../../src/plugins/magic-link';
import { oidcPlugin } from '../../src/plugins/oidc';
import { passkeyPlugin } from '../../src/plugins/passkeys';
import { totpPlugin } from '../../src/plugins/totp';
import { registeredRoutes, type RegisteredRoute } from '../../src/modules/openapi/service-routes';
import { createTestApp, type TestApp } from '../utils/test-app';

/** The HTML pages and the docs' own routes (Swagger UI, its assets, the document): not API operations. */
const NOT_OPERATIONS: unknown[] = [AdminAppController, OpenApiController];

/** The class names a route's handler answers to: its controller's, then the classes it extends. */
function classNames(cls: unknown): string[] {
  const names: string[] = [];
  for (let c = cls; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    names.push((c as { name: string }).name);
  }
  return names;
}

/** The document's tag of a route: the first segment after /admin/api; `health` for /api/health. */
const tagOf = (path: string): string =>
  path === '/api/health'
    ? 'health'
    : path === '/api/metrics'
      ? 'metrics'
      : (/^\/admin\/api\/([^/]+)/.exec(path)?.[1] ?? '');

/**
 * The operations table covers exactly the API routes the service registers, with every shipped
 * plugin installed (OIDC twice: an instance mounts a subclass of the shared controller).
 */
describe('OpenAPI: the operations table matches the routes', () => {
  let t: TestApp;
  let routes: RegisteredRoute[];

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
    // As the document enumerates them: plugin modules with their mount paths.
    routes = registeredRoutes(t.app.get(ModulesContainer)).filter((r) => !NOT_OPERATIONS.includes(r.cls));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('boots the service and every shipped plugin', () => {
    const paths = routes.map((r) => `${r.method} ${r.path}`);
    expect(paths).toEqual(
      expect.arrayContaining([
        'POST /admin/api/auth/login',
        'GET /api/health',
        'GET /admin/api/forms',
        'GET /admin/api/plugins/totp/status',
        'POST /admin/api/plugins/passkeys/login/verify',
        'GET /admin/api/plugins/oidc/start',
        'GET /admin/api/plugins/corp/callback',
        'GET /admin/api/plugins/magic-link/verify',
      ]),
    );
    expect(routes.length).toBeGreaterThan(150);
  });

  it('has an entry for every API route', () => {
    const missing = routes
      .filter((r) => !operationOf(r.cls, r.name))
      .map((r) => `${r.method} ${r.path} (${classNames(r.cls).join(' < ')}.${r.name})`);
    expect(missing).toEqual([]);
  });

  it('has no entry for a route that does not exist, nor for the pages and the docs', () => {
    const known = new Set(routes.flatMap((r) => classNames(r.cls).map((name) => `${name}.${r.name}`)));
    expect(Object.keys(OPERATIONS).filter((key) => !known.has(key))).toEqual([]);
    const excluded = registeredRoutes(t.app.get(ModulesContainer)).filter((r) =>
      NOT_OPERATIONS.includes(r.cls),
    );
    expect(excluded.length).toBeGreaterThan(0);
    expect(excluded.filter((r) => operationOf(r.cls, r.name)).map((r) => r.path)).toEqual([]);
  });

  it('gives one operation id per route but the instances of one plugin', () => {
    const byId = new Map<string, Set<string>>();
    for (const r of routes) {
      const { operationId } = operationOf(r.cls, r.name)!;
      const classes = byId.get(operationId) ?? new Set<string>();
      // Instances of one plugin share their handlers' entries, from the class they extend.
      classes.add(`${classNames(r.cls).at(-1)}.${r.name}`);
      byId.set(operationId, classes);
    }
    expect([...byId].filter(([, classes]) => classes.size > 1).map(([id]) => id)).toEqual([]);
  });

  it('describes every tag the routes use, and no other', () => {
    const used = new Set(routes.map((r) => tagOf(r.path)));
    expect([...used].filter((tag) => !TAG_DESCRIPTIONS[tag]).sort()).toEqual([]);
    expect(Object.keys(TAG_DESCRIPTIONS).filter((tag) => !used.has(tag))).toEqual([]);
  });
});
