import type { SvcConfig } from '../../src/config/config.types';
import type { OpenApiDocument } from '../../src/modules/openapi/openapi-document';
import { bearerFor, createUser, signIn } from '../utils/auth';
import {
  checkResponse,
  expectConforms,
  operationFor,
  UNDOCUMENTED,
  validateOpenApi,
} from '../utils/openapi-check';
import { serviceRoutes } from '../utils/routes';
import { createTestApp, TestApp } from '../utils/test-app';

const API = '/admin/api';

const CONFIG: SvcConfig = {
  collections: [
    {
      slug: 'books',
      drafts: true,
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'pages', type: 'number', min: 1 },
        { name: 'genre', type: 'select', options: ['sf', 'crime'] },
        { name: 'tags', type: 'select', hasMany: true, options: ['new', 'classic'] },
        { name: 'sequel', type: 'relationship', relationTo: 'books' },
        { name: 'published', type: 'date' },
      ],
    },
  ],
};

/**
 * Issue 21: the OpenAPI 3.1 document at /admin/api/openapi.json covers every route with its
 * security, and real answers conform to it; Swagger UI at /admin/api/docs outside production.
 */
describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let auth: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp({ config: CONFIG });
    const res = await t.http.get(`${API}/openapi.json`).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.body as OpenApiDocument;
    const admin = await createUser(t, { roles: ['super-admin'] });
    auth = await bearerFor(t, admin.id);
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(await validateOpenApi(doc)).toBe('');
    // 3.1: no 3.0 `nullable` anywhere.
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
  });

  it('lists every registered API route, with {param} templates; not the pages and the docs', () => {
    const all = serviceRoutes(t.app).map(({ method, path }) => ({
      method: method.toLowerCase(),
      path: path.replace(/:(\w+)/g, '{$1}'),
    }));
    const routes = all.filter(({ path }) => !UNDOCUMENTED.test(path));
    expect(routes.length).toBeGreaterThan(100);
    const missing = routes
      .filter(({ method, path }) => !doc.paths[path]?.[method])
      .map(({ method, path }) => `${method} ${path}`);
    expect(missing).toEqual([]);
    // The admin app's screens and files, Swagger UI and the document itself are no operations.
    expect(all.filter(({ path }) => UNDOCUMENTED.test(path)).map(({ path }) => path)).toEqual(
      expect.arrayContaining([
        '/admin',
        '/admin/login',
        '/admin/app/{file}',
        `${API}/docs`,
        `${API}/openapi.json`,
      ]),
    );
    expect(Object.keys(doc.paths).filter((p) => UNDOCUMENTED.test(p))).toEqual([]);
    // Besides the routes: the operations of each collection and single of its own.
    const own = Object.keys(doc.paths).filter(
      (p) => !/\{slug\}/.test(p) && /\/(collections|singles)\//.test(p),
    );
    const operations = Object.values(doc.paths).reduce((n, ops) => n + Object.keys(ops).length, 0);
    const ownOperations = own.reduce(
      (n, p) =>
        n +
        (doc.paths[p.replace(/\/(collections|singles)\/[^/]+/, '/$1/{slug}')]
          ? Object.keys(doc.paths[p]).length
          : 0),
      0,
    );
    expect(operations).toBe(routes.length + ownOperations);
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const op of Object.values(ops)) {
        const params = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
        expect(params.sort()).toEqual([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort());
        expect(op.responses.default).toBeDefined();
      }
    }
  });

  it('declares the four security schemes', () => {
    expect(doc.components.securitySchemes).toEqual({
      session: expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'svc_session' }),
      csrf: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'x-csrf-token' }),
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
      apiKey: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
  });

  it('gives each operation the security of its route', () => {
    const op = (method: string, path: string) => doc.paths[`${API}${path}`][method];
    // Public.
    expect(op('get', '/auth/setup-status').security).toEqual([]);
    expect(doc.paths['/api/health'].get.security).toEqual([]);
    // Public auth writes: the CSRF header (with its cookie), or a Bearer credential.
    expect(op('post', '/auth/login').security).toEqual([{ csrf: [] }, { bearer: [] }]);
    // Cookie only.
    expect(op('get', '/api-keys').security).toEqual([{ session: [] }]);
    expect(op('patch', '/auth/change-password').security).toEqual([{ session: [], csrf: [] }]);
    expect(op('get', '/schema/journal')['x-super-admin']).toBe(true);
    // Any credential, with the permissions the route requires.
    expect(op('get', '/users').security).toEqual([{ session: [] }, { bearer: [] }, { apiKey: [] }]);
    expect(op('get', '/users')['x-permissions']).toEqual({ anyOf: ['read-users'] });
    expect(op('get', '/permissions')['x-permissions']).toEqual({ anyOf: ['read-permissions', 'read-roles'] });
    expect(op('get', '/me')['x-permissions']).toBeUndefined();
    // Content routes: visitors too, as the access rules decide.
    const entries = op('get', '/collections/{slug}/entries');
    expect(entries.security).toEqual([{}, { session: [] }, { bearer: [] }, { apiKey: [] }]);
    expect(entries['x-access-rule']).toMatch(/^collection read/);
  });

  it('describes request bodies from the DTOs', () => {
    const login = doc.paths[`${API}/auth/login`].post.requestBody as {
      content: { 'application/json': { schema: { $ref: string } } };
    };
    const ref = login.content['application/json'].schema.$ref;
    expect(ref).toBe('#/components/schemas/LoginDto');
    expect(doc.components.schemas.LoginDto).toEqual({
      type: 'object',
      properties: {
        email: { type: 'string', minLength: 1, maxLength: 320 },
        password: { type: 'string', minLength: 1, maxLength: 1024 },
      },
      required: ['email', 'password'],
      additionalProperties: false,
    });
  });

  it('describes every request body (no "Not described yet" placeholder)', () => {
    const placeholders: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const body = op.requestBody as
          { content?: Record<string, { schema?: { description?: unknown } }> } | undefined;
        const described = Object.values(body?.content ?? {}).every(
          (media) => !String(media.schema?.description ?? '').startsWith('Not described yet'),
        );
        if (!described) {
          placeholders.push(`${method} ${path}`);
        }
      }
    }
    expect(placeholders).toEqual([]);
    // A user body: the DTO's keys, open to the custom user fields.
    const users = (
      doc.paths[`${API}/users`].post.requestBody as {
        content: Record<string, { schema: Record<string, unknown> }>;
      }
    ).content['application/json'].schema;
    expect(users).toMatchObject({
      type: 'object',
      additionalProperties: true,
      required: expect.arrayContaining(['email', 'name']),
    });
  });

  it('describes the query parameters of the lists and the entry reads', () => {
    const names = (path: string) =>
      (doc.paths[`${API}${path}`].get.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(names('/users')).toEqual(expect.arrayContaining(['page', 'limit', 'search', 'sort']));
    // Each list declares the sort fields it takes.
    const sort = doc.paths[`${API}/users`].get.parameters!.find((p) => p.name === 'sort')!;
    expect((sort.schema as { enum: string[] }).enum).toEqual(expect.arrayContaining(['email', '-createdAt']));
    expect(names('/dashboard/activity')).toEqual(['page', 'limit']);
    expect(names('/schema/journal')).toEqual(['page', 'limit', 'sort']);
    expect(names('/audit')).toEqual(expect.arrayContaining(['event', 'actorId', 'from', 'to']));
    const content = ['where', 'sort', 'select', 'depth', 'richTextFormat', 'status'];
    expect(names('/collections/{slug}/entries').sort()).toEqual([...content, 'page', 'limit'].sort());
    expect(names('/collections/{slug}/entries/{id}').sort()).toEqual(
      ['select', 'depth', 'richTextFormat', 'status', 'preview'].sort(),
    );
    // The reads a preview token may be presented to declare its header beside the query parameter.
    for (const path of [
      '/collections/{slug}/entries/{id}',
      '/singles/{slug}',
      '/collections/books/entries/{id}',
    ]) {
      const header = doc.paths[`${API}${path}`].get.parameters!.filter((p) => p.in === 'header');
      expect([path, header.map((p) => p.name)]).toEqual([path, expect.arrayContaining(['X-Preview-Token'])]);
    }
    expect(names('/collections/{slug}/entries')).not.toContain('preview');
    expect(names('/collections/{slug}/entries/count').sort()).toEqual(['status', 'where']);
    const where = doc.paths[`${API}/collections/{slug}/entries`].get.parameters!.find(
      (p) => p.name === 'where',
    )!;
    expect(where.content).toEqual({ 'application/json': { schema: { $ref: '#/components/schemas/Where' } } });
    const own = doc.paths[`${API}/collections/books/entries`].get.parameters!.find(
      (p) => p.name === 'where',
    )!;
    expect(own.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/BooksWhere' } },
    });
    const books = doc.components.schemas.BooksWhere as {
      properties: Record<string, { properties?: object }>;
    };
    expect(Object.keys(books.properties)).toEqual(
      expect.arrayContaining(['id', 'createdAt', 'title', 'pages', 'genre', 'and', 'or']),
    );
    expect(Object.keys(books.properties.title.properties!)).toEqual(
      expect.arrayContaining(['like', 'contains']),
    );
    expect(Object.keys(books.properties.pages.properties!)).not.toContain('like');
    // The collection's own `sort` names its sortable fields (not a many-valued select).
    const ownSort = doc.paths[`${API}/collections/books/entries`].get.parameters!.find(
      (p) => p.name === 'sort',
    )!;
    const pattern = new RegExp(String((ownSort.schema as { pattern: string }).pattern));
    expect(['-createdAt', 'title, -pages', 'genre'].filter((v) => !pattern.test(v))).toEqual([]);
    expect(['tags', 'nope', 'title,'].filter((v) => pattern.test(v))).toEqual([]);
    expect(books.properties.and).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/BooksWhere' },
    });
  });

  it('gives a configured collection its schema, referenced by its entry routes', () => {
    const books = doc.components.schemas.BooksEntry as { properties: Record<string, unknown> };
    expect(books.properties).toMatchObject({
      id: { type: 'string', format: 'uuid' },
      title: { type: ['string', 'null'] },
      pages: { type: ['number', 'null'], minimum: 1 },
      genre: { type: ['string', 'null'], enum: ['sf', 'crime', null] },
      tags: { type: ['array', 'null'], items: { enum: ['new', 'classic'] } },
      status: { enum: ['draft', 'published'] },
      createdAt: { format: 'date-time' },
    });
    const list = doc.paths[`${API}/collections/{slug}/entries`].get;
    const slug = list.parameters!.find((p) => p.name === 'slug')!;
    expect((slug.schema as { enum: string[] }).enum).toContain('books');
    expect(JSON.stringify(list.responses['200'])).toContain('#/components/schemas/BooksEntry');
    expect(JSON.stringify(doc.paths[`${API}/collections/{slug}/entries`].post.requestBody)).toContain(
      '#/components/schemas/BooksEntryInput',
    );
    // The collection's own operations, typed with its schemas.
    const own = doc.paths[`${API}/collections/books/entries`];
    expect(own.get.operationId).toBe('listBooksEntries');
    expect(own.post.operationId).toBe('createBooksEntry');
    expect(own.get.parameters!.some((p) => p.name === 'slug')).toBe(false);
    expect(own.post.requestBody).toEqual({
      required: true,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/BooksEntryInput' } } },
    });
    expect(doc.paths[`${API}/collections/books/entries/{id}`].get.operationId).toBe('getBooksEntry');
    // Drafts: a draft may leave a required field out, so the description names it instead.
    const input = doc.components.schemas.BooksEntryInput as { required?: string[]; description: string };
    expect(input.required).toBeUndefined();
    expect(input.description).toContain('`title`');
  });

  it('describes the answers the service really gives', async () => {
    const check = async (method: 'get' | 'post', url: string, body?: object, headers: object = {}) => {
      const req = t.http[method](url).set(headers as Record<string, string>);
      const res = await (body ? req.send(body) : req);
      expectConforms(doc, method.toUpperCase(), url, res);
      return res;
    };
    // Failures: problem+json in the Problem envelope.
    expect((await check('get', `${API}/users`)).status).toBe(401);
    expect(
      (await check('get', `${API}/users/00000000-0000-4000-8000-000000000000`, undefined, auth)).status,
    ).toBe(404);
    const b = await t.http.get(`${API}/auth/csrf`);
    const cookie = (b.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
    const invalid = await check(
      'post',
      `${API}/auth/login`,
      { email: 'x@example.com', password: 'p', extra: 1 },
      { Cookie: cookie, 'X-CSRF-Token': b.body.csrfToken as string },
    );
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.data.errors.length).toBeGreaterThan(0);
    expect((await check('post', `${API}/auth/login`, { email: 'x@example.com', password: 'p' })).status).toBe(
      403,
    );
    // Successes with schemas: an entry written and listed.
    const created = await check(
      'post',
      `${API}/collections/books/entries`,
      { title: 'Dune', pages: 412, genre: 'sf', tags: ['classic'], published: '1965-08-01' },
      auth,
    );
    expect(created.status).toBe(201);
    const listed = await check('get', `${API}/collections/books/entries?status=all`, undefined, auth);
    expect(listed.body.items).toHaveLength(1);
    await check('get', `${API}/collections/books/entries/${created.body.item.id as string}`, undefined, auth);
    // Routes without a success schema still list their status.
    await check('get', `${API}/me`, undefined, auth);
    await check('get', '/api/health');
  });

  it('describes the list envelope of the list routes as they answer it', async () => {
    const admin = await createUser(t, { roles: ['super-admin'] });
    const { browser } = await signIn(t, admin);
    const lists = Object.entries(doc.paths)
      .filter(
        ([path, ops]) =>
          !path.includes('{') && String(JSON.stringify(ops.get?.responses['200'])).includes('/List'),
      )
      .map(([path]) => path);
    expect(lists.length).toBeGreaterThan(10);
    for (const path of lists) {
      // Cookie-only routes too: the session cookie of a browser.
      const res = await browser.agent.get(path);
      expect([path, res.status]).toEqual([path, 200]);
      expectConforms(doc, 'GET', path, res);
    }
  });

  it('the check refuses answers that do not conform', () => {
    const problem = { 'content-type': 'application/problem+json; charset=utf-8', 'x-request-id': 'r1' };
    expect(
      checkResponse(doc, 'GET', `${API}/users`, {
        status: 401,
        headers: problem,
        body: { error: { code: 'NOPE', message: 'x' } },
      }).join('\n'),
    ).toMatch(/requestId[\s\S]*allowed values/);
    expect(
      checkResponse(doc, 'GET', `${API}/users`, {
        status: 401,
        headers: { 'content-type': 'application/json', 'x-request-id': 'r1' },
        body: {},
      }),
    ).toEqual([expect.stringContaining('content type "application/json" is not listed')]);
    // The headers the answer declares: the request id always; a rate limit only where declared.
    // (Sign-out takes the session cookie only: no API key budget answers there.)
    expect(
      checkResponse(doc, 'POST', `${API}/auth/logout`, {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-ratelimit-limit': '10' },
        body: { message: 'Signed out' },
      }),
    ).toEqual([
      expect.stringContaining('the required header x-request-id is missing'),
      expect.stringContaining('sent the header x-ratelimit-limit, which the answer does not declare'),
    ]);
    expect(
      checkResponse(doc, 'GET', `${API}/users`, {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-request-id': 'r1' },
        body: { items: [] },
      }).join('\n'),
    ).toContain('meta');
    expect(() => operationFor(doc, 'PUT', `${API}/users`)).toThrow(/no operation/);
  });

  it('matches literal segments before templates', () => {
    expect(operationFor(doc, 'GET', `${API}/collections/books/entries/count`).path).toBe(
      `${API}/collections/books/entries/count`,
    );
    expect(operationFor(doc, 'GET', `${API}/collections/unknown/entries/count`).path).toBe(
      `${API}/collections/{slug}/entries/count`,
    );
  });

  it('picks up a collection created after the boot', async () => {
    await t.http
      .post(`${API}/collections`)
      .set(auth)
      .send({ slug: 'late', fields: [{ name: 'note', type: 'textarea' }] })
      .expect(201);
    const res = await t.http.get(`${API}/openapi.json`).expect(200);
    const late = res.body as OpenApiDocument;
    expect(late.components.schemas.LateEntry).toBeDefined();
    expect(late.paths[`${API}/collections/late/entries`].get.operationId).toBe('listLateEntries');
  });

  it('serves Swagger UI from local assets, scripts from this origin only', async () => {
    const page = await t.http.get(`${API}/docs`).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.text).not.toMatch(/<script>|https?:\/\//);
    const init = await t.http.get(`${API}/docs/init.js`).expect(200);
    expect(init.text).toContain(`${API}/openapi.json`);
    await t.http
      .get(`${API}/docs/swagger-ui-bundle.js`)
      .expect(200)
      .expect('content-type', /javascript/);
    await t.http.get(`${API}/docs/swagger-ui.css`).expect(200).expect('content-type', /css/);
    const unknown = await t.http.get(`${API}/docs/package.json`).expect(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
  });
});

describe('Swagger UI in production', () => {
  const withDocsEnv = async (value: string | undefined, run: (t: TestApp) => Promise<void>) => {
    const before = process.env.SVC_API_DOCS;
    if (value === undefined) {
      delete process.env.SVC_API_DOCS;
    } else {
      process.env.SVC_API_DOCS = value;
    }
    let t: TestApp | undefined;
    try {
      t = await createTestApp({ overrides: { production: true } });
      await run(t);
    } finally {
      if (before === undefined) {
        delete process.env.SVC_API_DOCS;
      } else {
        process.env.SVC_API_DOCS = before;
      }
      await t?.close();
    }
  };

  it('is off by default (the document stays available)', () =>
    withDocsEnv(undefined, async (t) => {
      const res = await t.http.get(`${API}/docs`).expect(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      await t.http.get(`${API}/docs/swagger-ui-bundle.js`).expect(404);
      await t.http.get(`${API}/openapi.json`).expect(200);
    }));

  it('is on with SVC_API_DOCS=true', () =>
    withDocsEnv('true', async (t) => {
      await t.http.get(`${API}/docs`).expect(200);
    }));
});
