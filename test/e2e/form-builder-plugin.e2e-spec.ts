import type request from 'supertest';
import { formBuilderPlugin } from '../../src/plugins/form-builder';
import { bearerFor, createUser, userWithPermissions } from '../utils/auth';
import { addresses, REJECT_DOMAIN, startSmtp, TestSmtp, useTestSmtp } from '../utils/smtp';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * The shipped form builder (`formBuilderPlugin()`, slug `form-builder`, CONTRACTS 13.2.2) end to
 * end: routes at `/admin/api/forms` only when installed, its seeded permissions, form definitions
 * and their validation, public submissions (validation, hostile bodies, honeypot, budgets), the
 * submissions list and CSV export, and the notification email.
 */

const BASE = '/admin/api/forms';
const PROBLEM = /^application\/problem\+json/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PERMISSIONS = ['create-forms', 'read-forms', 'update-forms', 'delete-forms', 'read-form-submissions'];
/** The budget the app is configured with: small, so the limit is reached quickly. */
const SUBMIT_MAX = 3;

type Res = request.Response;
type Headers = Record<string, string>;
interface Issue {
  path: string;
  code: string;
  message: string;
}

function expectProblem(res: Res, status: number, code: string): Record<string, unknown> | undefined {
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({
    status,
    body: { error: { code, message: expect.any(String), requestId: expect.any(String) } },
  });
  expect(res.headers['content-type']).toMatch(PROBLEM);
  return (res.body as { error: { data?: Record<string, unknown> } }).error.data;
}

/** A 400 VALIDATION_ERROR: its `data.errors`, each `{ path, code, message }`. */
function expectInvalid(res: Res): Issue[] {
  const data = expectProblem(res, 400, 'VALIDATION_ERROR');
  const errors = data?.errors as Issue[];
  expect(Array.isArray(errors)).toBe(true);
  for (const e of errors) {
    expect(e).toEqual({ path: expect.any(String), code: expect.any(String), message: expect.any(String) });
  }
  return errors;
}

const pathsOf = (errors: Issue[]) => errors.map((e) => e.path);

let ipCounter = 0;
/** A client address of its own (trustProxy is on): a fresh submit budget. */
const freshIp = () => `198.51.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

describe('plugin: form-builder', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let admin: Headers;
  let slugCounter = 0;
  const newSlug = (prefix = 'form') => `${prefix}-${++slugCounter}`;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      config: {
        trustProxy: true,
        plugins: [formBuilderPlugin({ submitRateLimit: { max: SUBMIT_MAX, windowSeconds: 60 } })],
      },
    });
    await useTestSmtp(t, smtp);
    const root = await createUser(t, { roles: ['super-admin'] });
    admin = await bearerFor(t, root.id);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const as = (headers: Headers = {}) => ({
    get: (p = '') => t.http.get(`${BASE}${p}`).set(headers),
    post: (p: string, body?: unknown) =>
      t.http
        .post(`${BASE}${p}`)
        .set(headers)
        .send(body as object),
    patch: (p: string, body?: unknown) =>
      t.http
        .patch(`${BASE}${p}`)
        .set(headers)
        .send(body as object),
    delete: (p: string) => t.http.delete(`${BASE}${p}`).set(headers),
  });

  async function headersWith(permissions: string[]): Promise<Headers> {
    const user = await userWithPermissions(t, permissions);
    return bearerFor(t, user.id);
  }

  /** Creates a form as the super-admin; answers the item. */
  async function createForm(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const res = await as(admin).post('', body);
    expect(res.status).toBe(201);
    return res.body.item as Record<string, unknown>;
  }

  const submit = (slug: string, body: unknown, ip = freshIp()) =>
    t.http
      .post(`${BASE}/${slug}/submit`)
      .set('X-Forwarded-For', ip)
      .send(body as object);

  const storedFor = async (slug: string) =>
    (await t.db.query(
      `SELECT s.id, s.data, s.ip FROM plugin_form_submissions s JOIN plugin_forms f ON f.id = s.form_id
        WHERE f.slug = $1 ORDER BY s.created_at, s.id`,
      [slug],
    )) as Array<{ id: string; data: Record<string, unknown>; ip: string | null }>;

  /** A form with one field of each type and every kind of rule. */
  const contactFields = [
    { name: 'name', type: 'text', label: 'Your name', required: true, minLength: 2, maxLength: 40 },
    { name: 'email', type: 'email', required: true },
    { name: 'zip', type: 'text', pattern: '[0-9]{5}' },
    { name: 'age', type: 'number', min: 18, max: 120 },
    { name: 'topic', type: 'select', options: ['sales', 'support'], required: true },
    { name: 'consent', type: 'checkbox', required: true },
    { name: 'newsletter', type: 'checkbox' },
    { name: 'message', type: 'textarea', maxLength: 500 },
  ];
  const goodData = {
    name: 'Ada',
    email: 'ada@example.com',
    topic: 'support',
    consent: true,
  };

  describe('without the plugin', () => {
    it('every route answers 404 NOT_FOUND, even with the tables in the database', async () => {
      const bare = await createTestApp({ database: t.database });
      try {
        const root = await createUser(bare, { roles: ['super-admin'] });
        const headers = await bearerFor(bare, root.id);
        await createForm({ slug: 'exists-elsewhere', name: 'Exists', fields: [{ name: 'a', type: 'text' }] });
        const calls: Array<() => request.Test> = [
          () => bare.http.get(BASE).set(headers),
          () => bare.http.post(BASE).set(headers).send({ slug: 'x', name: 'X', fields: [] }),
          () => bare.http.get(`${BASE}/exists-elsewhere`).set(headers),
          () => bare.http.patch(`${BASE}/exists-elsewhere`).set(headers).send({ name: 'Y' }),
          () => bare.http.delete(`${BASE}/exists-elsewhere`).set(headers),
          () => bare.http.post(`${BASE}/exists-elsewhere/submit`).send({ data: { a: 'x' } }),
          () => bare.http.get(`${BASE}/exists-elsewhere/submissions`).set(headers),
          () => bare.http.get(`${BASE}/exists-elsewhere/submissions/export?format=csv`).set(headers),
        ];
        for (const call of calls) {
          expectProblem(await call(), 404, 'NOT_FOUND');
        }
      } finally {
        await bare.app.close();
      }
    });
  });

  describe('installation', () => {
    it('seeds its permissions, its notification template and records its migrations', async () => {
      const perms = await t.db.query(
        `SELECT slug, action, resource FROM permissions WHERE slug = ANY($1) ORDER BY slug`,
        [PERMISSIONS],
      );
      expect(perms).toEqual([
        { slug: 'create-forms', action: 'create', resource: 'forms' },
        { slug: 'delete-forms', action: 'delete', resource: 'forms' },
        { slug: 'read-form-submissions', action: 'read', resource: 'form-submissions' },
        { slug: 'read-forms', action: 'read', resource: 'forms' },
        { slug: 'update-forms', action: 'update', resource: 'forms' },
      ]);
      const [template] = await t.db.query(`SELECT subject, html, text FROM email_templates WHERE slug = $1`, [
        'form-submission',
      ]);
      expect(template.subject).toContain('{{formName}}');
      for (const v of ['formName', 'formSlug', 'submissionId', 'fields']) {
        expect(template.html).toContain(`{{${v}}}`);
        expect(template.text).toContain(`{{${v}}}`);
      }
      const applied = await t.db.query(
        `SELECT name FROM svc_plugin_migrations WHERE plugin = 'form-builder' ORDER BY name`,
      );
      expect(applied.map((r: { name: string }) => r.name)).toEqual([
        '001-forms',
        '002-submissions',
        '003-submissions-by-form',
        '004-permissions',
        '005-notification-template',
      ]);
    });

    it('a second boot on the same database applies nothing again and keeps the seeds', async () => {
      const again = await createTestApp({ database: t.database, config: { plugins: [formBuilderPlugin()] } });
      try {
        const [{ n }] = await again.db.query(
          `SELECT count(*)::int AS n FROM permissions WHERE slug = ANY($1)`,
          [PERMISSIONS],
        );
        expect(n).toBe(PERMISSIONS.length);
      } finally {
        await again.app.close();
      }
    });

    it('refuses options that cannot work, at definition time', () => {
      const bad: unknown[] = [
        { submitRateLimit: { max: 0, windowSeconds: 60 } },
        { submitRateLimit: { max: 1.5, windowSeconds: 60 } },
        { submitRateLimit: { max: 5, windowSeconds: 0 } },
        { submitRateLimit: { max: 5 } },
        { submitRateLimit: 'lots' },
        { submitRateLimt: { max: 5, windowSeconds: 60 } },
      ];
      for (const options of bad) {
        expect(() => formBuilderPlugin(options as never)).toThrow(/^formBuilderPlugin: /);
      }
      expect(formBuilderPlugin().mountPath).toBe('admin/api/forms');
      expect(formBuilderPlugin().slug).toBe('form-builder');
    });
  });

  describe('permissions', () => {
    let slug: string;
    let closed: string;

    beforeAll(async () => {
      slug = newSlug('perm');
      closed = newSlug('perm-closed');
      await createForm({ slug, name: 'Perm', fields: [{ name: 'a', type: 'text' }] });
      await createForm({
        slug: closed,
        name: 'Closed',
        status: 'closed',
        fields: [{ name: 'a', type: 'text' }],
      });
    });

    const routes: Array<{
      what: string;
      permission: string;
      call: (h: Headers) => request.Test;
      ok: number;
    }> = [
      { what: 'GET /forms', permission: 'read-forms', call: (h) => as(h).get(), ok: 200 },
      {
        what: 'POST /forms',
        permission: 'create-forms',
        call: (h) =>
          as(h).post('', { slug: newSlug('made'), name: 'Made', fields: [{ name: 'a', type: 'text' }] }),
        ok: 201,
      },
      {
        what: 'GET /forms/{closed}',
        permission: 'read-forms',
        call: (h) => as(h).get(`/${closed}`),
        ok: 200,
      },
      {
        what: 'PATCH /forms/{slug}',
        permission: 'update-forms',
        call: (h) => as(h).patch(`/${slug}`, { description: 'changed' }),
        ok: 200,
      },
      {
        what: 'GET /forms/{slug}/submissions',
        permission: 'read-form-submissions',
        call: (h) => as(h).get(`/${slug}/submissions`),
        ok: 200,
      },
      {
        what: 'GET /forms/{slug}/submissions/export',
        permission: 'read-form-submissions',
        call: (h) => as(h).get(`/${slug}/submissions/export?format=csv`),
        ok: 200,
      },
      {
        what: 'DELETE /forms/{slug}',
        permission: 'delete-forms',
        call: (h) => as(h).delete(`/${newSlug('gone')}`),
        ok: 404, // the permission lets the caller through; the form is unknown
      },
    ];

    it.each(routes)('$what: 401 without credentials, 403 without $permission, through with it', async (r) => {
      expectProblem(await r.call({}), 401, 'AUTH_REQUIRED');
      const others = await headersWith(PERMISSIONS.filter((p) => p !== r.permission));
      const refused = await r.call(others);
      expectProblem(refused, 403, 'FORBIDDEN');
      expect(refused.body.error.message).toContain(r.permission);
      expect((await r.call(await headersWith([r.permission]))).status).toBe(r.ok);
      expect((await r.call(admin)).status).toBe(r.ok);
    });

    it('DELETE /forms/{slug} with delete-forms deletes', async () => {
      const gone = newSlug('gone');
      await createForm({ slug: gone, name: 'Gone', fields: [{ name: 'a', type: 'text' }] });
      expectProblem(await as(await headersWith(['read-forms'])).delete(`/${gone}`), 403, 'FORBIDDEN');
      expect((await as(await headersWith(['delete-forms'])).delete(`/${gone}`)).status).toBe(200);
    });

    it('an invalid credential on a public route is treated as a visitor, never a 500', async () => {
      const res = await as({ Authorization: 'Bearer not-a-token' }).get(`/${slug}`);
      expect(res.status).toBe(200);
      expectProblem(
        await as({ Authorization: 'Bearer not-a-token' }).get(`/${closed}`),
        401,
        'AUTH_REQUIRED',
      );
    });
  });

  describe('form definitions', () => {
    it('POST /forms: 201 { message, item } with the whole form', async () => {
      const slug = newSlug('contact');
      const res = await as(admin).post('', {
        slug,
        name: '  Contact us ',
        description: 'Write to us',
        fields: contactFields,
        honeypot: 'website',
        notifyEmail: 'owner@example.com',
      });
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: {
          id: expect.stringMatching(UUID),
          slug,
          name: 'Contact us',
          description: 'Write to us',
          status: 'open',
          fields: [
            { name: 'name', type: 'text', label: 'Your name', required: true, minLength: 2, maxLength: 40 },
            { name: 'email', type: 'email', label: 'Email', required: true },
            { name: 'zip', type: 'text', label: 'Zip', required: false, pattern: '[0-9]{5}' },
            { name: 'age', type: 'number', label: 'Age', required: false, min: 18, max: 120 },
            { name: 'topic', type: 'select', label: 'Topic', required: true, options: ['sales', 'support'] },
            { name: 'consent', type: 'checkbox', label: 'Consent', required: true },
            { name: 'newsletter', type: 'checkbox', label: 'Newsletter', required: false },
            { name: 'message', type: 'textarea', label: 'Message', required: false, maxLength: 500 },
          ],
          honeypot: 'website',
          notifyEmail: 'owner@example.com',
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
        },
      });
      // Read back the same.
      const read = await as(admin).get(`/${slug}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual(res.body.item);
    });

    it('optional values absent are null; status defaults to open', async () => {
      const item = await createForm({
        slug: newSlug('minimal'),
        name: 'Minimal',
        fields: [{ name: 'a', type: 'text' }],
      });
      expect(item).toMatchObject({ description: null, status: 'open', honeypot: null, notifyEmail: null });
    });

    const field = (extra: Record<string, unknown>) => ({ name: 'f', type: 'text', ...extra });
    const badDefinitions: Array<[string, unknown, string[]]> = [
      ['a body that is not an object', [1, 2], ['']],
      ['nothing', {}, ['slug', 'name', 'fields']],
      ['an unknown key', { slug: 'ok-slug', name: 'N', fields: [field({})], access: true }, ['access']],
      ['a bad slug', { slug: 'Bad_Slug', name: 'N', fields: [field({})] }, ['slug']],
      ['a slug that is not a string', { slug: 12, name: 'N', fields: [field({})] }, ['slug']],
      ['a blank name', { slug: 'ok-slug', name: '  ', fields: [field({})] }, ['name']],
      ['an unknown status', { slug: 'ok-slug', name: 'N', status: 'draft', fields: [field({})] }, ['status']],
      ['fields not an array', { slug: 'ok-slug', name: 'N', fields: { f: 'text' } }, ['fields']],
      ['no fields', { slug: 'ok-slug', name: 'N', fields: [] }, ['fields']],
      ['a field that is not an object', { slug: 'ok-slug', name: 'N', fields: ['text'] }, ['fields.0']],
      [
        'field names: bad, reserved, missing, duplicate ignoring case',
        {
          slug: 'ok-slug',
          name: 'N',
          fields: [
            field({ name: '1abc' }),
            field({ name: 'constructor' }),
            { type: 'text' },
            field({ name: 'Email' }),
            field({ name: 'email' }),
            field({ name: 'a-b' }),
          ],
        },
        ['fields.0.name', 'fields.1.name', 'fields.2.name', 'fields.4.name', 'fields.5.name'],
      ],
      [
        'an unknown type and a missing type',
        { slug: 'ok-slug', name: 'N', fields: [field({ type: 'date' }), { name: 'g' }] },
        ['fields.0.type', 'fields.1.type'],
      ],
      [
        'an unknown key of a field',
        { slug: 'ok-slug', name: 'N', fields: [field({ placeholder: 'x' })] },
        ['fields.0.placeholder'],
      ],
      [
        'a label that is not text, required that is not a boolean',
        { slug: 'ok-slug', name: 'N', fields: [field({ label: 5, required: 'yes' })] },
        ['fields.0.label', 'fields.0.required'],
      ],
      [
        'select options: missing, empty, duplicate, blank, not strings; options on a text field',
        {
          slug: 'ok-slug',
          name: 'N',
          fields: [
            { name: 'a', type: 'select' },
            { name: 'b', type: 'select', options: [] },
            { name: 'c', type: 'select', options: ['x', 'y', 'x'] },
            { name: 'd', type: 'select', options: ['x', ' '] },
            { name: 'e', type: 'select', options: [1] },
            { name: 'f', type: 'text', options: ['x'] },
          ],
        },
        [
          'fields.0.options',
          'fields.1.options',
          'fields.2.options.2',
          'fields.3.options.1',
          'fields.4.options.0',
          'fields.5.options',
        ],
      ],
      [
        'ranges: min > max, minLength > maxLength, keys on the wrong type, bad numbers',
        {
          slug: 'ok-slug',
          name: 'N',
          fields: [
            { name: 'a', type: 'number', min: 10, max: 1 },
            { name: 'b', type: 'text', minLength: 10, maxLength: 5 },
            { name: 'c', type: 'text', min: 1 },
            { name: 'd', type: 'number', maxLength: 5 },
            { name: 'e', type: 'text', maxLength: 1.5 },
            { name: 'f', type: 'text', minLength: -1 },
            { name: 'g', type: 'number', max: '10' },
            { name: 'h', type: 'text', maxLength: 10_001 },
            { name: 'i', type: 'checkbox', pattern: 'x' },
            { name: 'j', type: 'text', maxLength: 0 },
          ],
        },
        [
          'fields.0.min',
          'fields.1.minLength',
          'fields.2.min',
          'fields.3.maxLength',
          'fields.4.maxLength',
          'fields.5.minLength',
          'fields.6.max',
          'fields.7.maxLength',
          'fields.8.pattern',
          'fields.9.maxLength',
        ],
      ],
      [
        'patterns: invalid, too long, empty, unbalanced',
        {
          slug: 'ok-slug',
          name: 'N',
          fields: [
            field({ name: 'a', pattern: '(' }),
            field({ name: 'b', pattern: 'a'.repeat(201) }),
            field({ name: 'c', pattern: '' }),
            field({ name: 'd', pattern: 'a)|(b' }),
            field({ name: 'e', pattern: '[z-a]' }),
          ],
        },
        ['fields.0.pattern', 'fields.1.pattern', 'fields.2.pattern', 'fields.3.pattern', 'fields.4.pattern'],
      ],
      [
        'a honeypot named like a field (ignoring case)',
        { slug: 'ok-slug', name: 'N', fields: [field({ name: 'Website' })], honeypot: 'website' },
        ['honeypot'],
      ],
      [
        'a honeypot that is no field name',
        { slug: 'ok-slug', name: 'N', fields: [field({})], honeypot: 'my website!' },
        ['honeypot'],
      ],
      [
        'a notifyEmail that is no address',
        { slug: 'ok-slug', name: 'N', fields: [field({})], notifyEmail: 'not an address' },
        ['notifyEmail'],
      ],
      [
        'too many fields',
        {
          slug: 'ok-slug',
          name: 'N',
          fields: Array.from({ length: 101 }, (_, i) => field({ name: `f${i}` })),
        },
        ['fields'],
      ],
    ];

    it.each(badDefinitions)('%s: 400 VALIDATION_ERROR naming each path', async (_what, body, paths) => {
      const res = await as(admin).post('', body);
      const errors = expectInvalid(res);
      expect(pathsOf(errors).sort()).toEqual([...paths].sort());
      expect(await t.db.query(`SELECT 1 FROM plugin_forms WHERE slug = 'ok-slug'`)).toEqual([]);
    });

    it('a JSON body that is not JSON, or not JSON at all, is refused as the service refuses it', async () => {
      const malformed = await t.http
        .post(BASE)
        .set(admin)
        .set('Content-Type', 'application/json')
        .send('{"slug": ');
      expectProblem(malformed, 400, 'VALIDATION_ERROR');
      const text = await t.http.post(BASE).set(admin).set('Content-Type', 'text/plain').send('slug=x');
      expectProblem(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
      const none = await t.http.post(BASE).set(admin);
      expect(pathsOf(expectInvalid(none))).toEqual(['']);
    });

    it('a taken slug is 409 DUPLICATE naming the slug, on create and on rename', async () => {
      const slug = newSlug('dup');
      const other = newSlug('dup-other');
      await createForm({ slug, name: 'One', fields: [{ name: 'a', type: 'text' }] });
      await createForm({ slug: other, name: 'Two', fields: [{ name: 'a', type: 'text' }] });
      const again = await as(admin).post('', { slug, name: 'Again', fields: [{ name: 'b', type: 'text' }] });
      const data = expectProblem(again, 409, 'DUPLICATE');
      expect(data?.errors).toEqual([{ path: 'slug', code: 'duplicate', message: expect.any(String) }]);
      const renamed = await as(admin).patch(`/${other}`, { slug });
      expectProblem(renamed, 409, 'DUPLICATE');
      expect((await as(admin).get(`/${other}`)).body.name).toBe('Two');
    });

    it('GET /forms: the List record, paged, searchable and sortable', async () => {
      const prefix = `list-${Date.now().toString(36)}`;
      for (const n of ['c', 'a', 'b']) {
        await createForm({
          slug: `${prefix}-${n}`,
          name: `Listed ${n}`,
          fields: [{ name: 'x', type: 'text' }],
        });
      }
      const page1 = await as(admin).get(`?search=${prefix}&limit=2`);
      expect(page1.status).toBe(200);
      expect(page1.body.meta).toEqual({
        total: 3,
        page: 1,
        limit: 2,
        totalPages: 2,
        hasNext: true,
        hasPrev: false,
      });
      expect(page1.body.items.map((f: { slug: string }) => f.slug)).toEqual([`${prefix}-a`, `${prefix}-b`]);
      expect(page1.body.items[0]).toEqual(
        expect.objectContaining({
          id: expect.stringMatching(UUID),
          notifyEmail: null,
          fields: expect.any(Array),
        }),
      );
      const page2 = await as(admin).get(`?search=${prefix}&limit=2&page=2`);
      expect(page2.body.items.map((f: { slug: string }) => f.slug)).toEqual([`${prefix}-c`]);
      expect(page2.body.meta).toMatchObject({ hasNext: false, hasPrev: true });
      const desc = await as(admin).get(`?search=${prefix}&sort=-name`);
      expect(desc.body.items.map((f: { name: string }) => f.name)).toEqual([
        'Listed c',
        'Listed b',
        'Listed a',
      ]);
      const past = await as(admin).get(`?search=${prefix}&page=9`);
      expect(past.body).toEqual({
        items: [],
        meta: { total: 3, page: 9, limit: 10, totalPages: 1, hasNext: false, hasPrev: true },
      });
      expect(pathsOf(expectInvalid(await as(admin).get('?page=0&limit=x&sort=secret')))).toEqual([
        'page',
        'limit',
        'sort',
      ]);
      expect((await as(admin).get('?limit=100000')).body.meta.limit).toBe(500);
    });

    it('GET /forms/{slug}: an open form for anyone (without notifyEmail), a closed one for read-forms only', async () => {
      const open = newSlug('open');
      const closed = newSlug('closed');
      await createForm({
        slug: open,
        name: 'Open',
        fields: [{ name: 'a', type: 'text' }],
        honeypot: 'trap',
        notifyEmail: 'o@example.com',
      });
      await createForm({
        slug: closed,
        name: 'Closed',
        status: 'closed',
        fields: [{ name: 'a', type: 'text' }],
      });

      const visitor = await as().get(`/${open}`);
      expect(visitor.status).toBe(200);
      expect(visitor.body).toMatchObject({ slug: open, status: 'open', honeypot: 'trap' });
      expect(visitor.body).not.toHaveProperty('notifyEmail');
      const reader = await as(await headersWith(['read-forms'])).get(`/${open}`);
      expect(reader.body.notifyEmail).toBe('o@example.com');

      expectProblem(await as().get(`/${closed}`), 401, 'AUTH_REQUIRED');
      expectProblem(
        await as(await headersWith(['read-form-submissions'])).get(`/${closed}`),
        403,
        'FORBIDDEN',
      );
      expect((await as(await headersWith(['read-forms'])).get(`/${closed}`)).body.status).toBe('closed');

      expectProblem(await as().get('/no-such-form'), 404, 'NOT_FOUND');
      expectProblem(await as().get('/NOT_A_SLUG'), 404, 'NOT_FOUND');
    });

    it('PATCH /forms/{slug}: partial, fields replaced whole, null clears, the same rules', async () => {
      const slug = newSlug('patch');
      const created = await createForm({
        slug,
        name: 'Before',
        description: 'd',
        fields: [{ name: 'a', type: 'text' }],
        honeypot: 'trap',
        notifyEmail: 'p@example.com',
      });
      const res = await as(admin).patch(`/${slug}`, {
        name: 'After',
        status: 'closed',
        notifyEmail: null,
        fields: [{ name: 'b', type: 'number', min: 1 }],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: {
          ...created,
          name: 'After',
          status: 'closed',
          notifyEmail: null,
          fields: [{ name: 'b', type: 'number', label: 'B', required: false, min: 1 }],
          updatedAt: expect.stringMatching(ISO),
        },
      });
      // The honeypot is checked against the fields the form ends up with.
      expect(
        pathsOf(
          expectInvalid(await as(admin).patch(`/${slug}`, { fields: [{ name: 'trap', type: 'text' }] })),
        ),
      ).toEqual(['honeypot']);
      expect(pathsOf(expectInvalid(await as(admin).patch(`/${slug}`, { honeypot: 'B' })))).toEqual([
        'honeypot',
      ]);
      expect(
        pathsOf(expectInvalid(await as(admin).patch(`/${slug}`, { status: 'gone', id: 'x' })).sort()),
      ).toEqual(['id', 'status']);
      expect(pathsOf(expectInvalid(await as(admin).patch(`/${slug}`, { name: null })))).toEqual(['name']);
      // Renamed: the old slug is gone.
      const renamed = newSlug('patched');
      expect((await as(admin).patch(`/${slug}`, { slug: renamed })).body.item.slug).toBe(renamed);
      expectProblem(await as(admin).get(`/${slug}`), 404, 'NOT_FOUND');
      expectProblem(await as(admin).patch('/no-such-form', { name: 'x' }), 404, 'NOT_FOUND');
    });

    it('DELETE /forms/{slug}: 200 { message, item }, its submissions go with it', async () => {
      const slug = newSlug('delete');
      const created = await createForm({ slug, name: 'Delete me', fields: [{ name: 'a', type: 'text' }] });
      expect((await submit(slug, { data: { a: 'x' } })).status).toBe(201);
      const res = await as(admin).delete(`/${slug}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.any(String), item: created });
      expect(
        await t.db.query(`SELECT 1 FROM plugin_form_submissions WHERE form_id = $1`, [created.id]),
      ).toEqual([]);
      expectProblem(await as(admin).delete(`/${slug}`), 404, 'NOT_FOUND');
      expectProblem(await submit(slug, { data: { a: 'x' } }), 404, 'NOT_FOUND');
    });
  });

  describe('submissions', () => {
    let slug: string;

    beforeAll(async () => {
      slug = newSlug('contact');
      await createForm({ slug, name: 'Contact', fields: contactFields, honeypot: 'website' });
    });

    it('a valid submission: 201 { message, id }, stored trimmed, empty values left out, the address kept', async () => {
      const ip = freshIp();
      const res = await submit(
        slug,
        {
          data: {
            name: '  Ada Lovelace ',
            email: ' ada@example.com ',
            zip: '12345',
            age: 36,
            topic: 'support',
            consent: true,
            newsletter: false,
            message: '',
          },
        },
        ip,
      );
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ message: expect.any(String), id: expect.stringMatching(UUID) });
      const [row] = (await storedFor(slug)).filter((r) => r.id === res.body.id);
      expect(row.data).toEqual({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        zip: '12345',
        age: 36,
        topic: 'support',
        consent: true,
        newsletter: false,
      });
      expect(row.ip).toBe(ip);
    });

    const badValues: Array<[string, Record<string, unknown>, Record<string, string>]> = [
      [
        'required fields missing',
        { name: undefined, email: undefined, topic: undefined, consent: undefined },
        {
          'data.name': 'required',
          'data.email': 'required',
          'data.topic': 'required',
          'data.consent': 'required',
        },
      ],
      [
        'required fields blank or null',
        { name: '   ', email: null, topic: '' },
        {
          'data.name': 'required',
          'data.email': 'required',
          'data.topic': 'required',
        },
      ],
      ['a required checkbox unchecked', { consent: false }, { 'data.consent': 'required' }],
      [
        'text too short and too long',
        { name: 'A', message: 'x'.repeat(501) },
        {
          'data.name': 'minLength',
          'data.message': 'maxLength',
        },
      ],
      ['a pattern not matched (the whole value must match)', { zip: '1234' }, { 'data.zip': 'matches' }],
      ['a pattern matched only in part', { zip: '123456' }, { 'data.zip': 'matches' }],
      ['a malformed address', { email: 'ada@' }, { 'data.email': 'isEmail' }],
      [
        'an address over 254 characters',
        { email: `${'a'.repeat(64)}@${'b'.repeat(200)}.com` },
        { 'data.email': 'maxLength' },
      ],
      ['a number out of range', { age: 17 }, { 'data.age': 'min' }],
      ['a number over the maximum', { age: 121 }, { 'data.age': 'max' }],
      ['a number sent as a string', { age: '30' }, { 'data.age': 'isNumber' }],
      ['a select value outside its options', { topic: 'billing' }, { 'data.topic': 'isIn' }],
      ['a select value of the wrong case', { topic: 'Support' }, { 'data.topic': 'isIn' }],
      [
        'a checkbox that is not a boolean',
        { consent: 'true', newsletter: 1 },
        {
          'data.consent': 'isBoolean',
          'data.newsletter': 'isBoolean',
        },
      ],
      [
        'unknown fields, one entry each',
        { phone: '123', Name: 'x' },
        {
          'data.phone': 'unknown_field',
          'data.Name': 'unknown_field',
        },
      ],
      [
        'wrong types where strings are expected',
        { name: ['Ada'], email: { a: 1 }, message: 42, zip: true },
        {
          'data.name': 'isString',
          'data.email': 'isString',
          'data.message': 'isString',
          'data.zip': 'isString',
        },
      ],
      [
        'objects and arrays where a number or a choice is expected',
        { age: [1], topic: { v: 'sales' } },
        {
          'data.age': 'isNumber',
          'data.topic': 'isIn',
        },
      ],
      ['deeply nested junk', { name: nest(50) }, { 'data.name': 'isString' }],
      [
        'a huge value',
        { message: 'x'.repeat(200_000), name: 'y'.repeat(20_000) },
        {
          'data.message': 'maxLength',
          'data.name': 'maxLength',
        },
      ],
    ];

    function nest(depth: number): unknown {
      let v: unknown = 'x';
      for (let i = 0; i < depth; i++) {
        v = { v };
      }
      return v;
    }

    it.each(badValues)('%s: 400 with one entry per bad field', async (_what, change, expected) => {
      const data: Record<string, unknown> = { ...goodData, ...change };
      for (const [k, v] of Object.entries(change)) {
        if (v === undefined) {
          delete data[k];
        }
      }
      const before = (await storedFor(slug)).length;
      const errors = expectInvalid(await submit(slug, { data }));
      expect(Object.fromEntries(errors.map((e) => [e.path, e.code]))).toEqual(expected);
      expect(errors).toHaveLength(Object.keys(expected).length);
      expect((await storedFor(slug)).length).toBe(before);
    });

    it('a body or data that is not the right shape: 400 naming it, never a 500', async () => {
      const cases: Array<[unknown, string[]]> = [
        [{}, ['data']],
        [{ data: null }, ['data']],
        [{ data: 'name=Ada' }, ['data']],
        [{ data: [goodData] }, ['data']],
        [{ data: 5 }, ['data']],
        [{ data: goodData, extra: 1 }, ['extra']],
        [[goodData], ['']],
      ];
      for (const [body, paths] of cases) {
        expect(pathsOf(expectInvalid(await submit(slug, body)))).toEqual(paths);
      }
      const raw = await t.http
        .post(`${BASE}/${slug}/submit`)
        .set('X-Forwarded-For', freshIp())
        .set('Content-Type', 'application/json')
        .send('"just a string"');
      // A top-level JSON value that is no object or array: the service's strict body parser refuses it.
      expectProblem(raw, 400, 'VALIDATION_ERROR');
    });

    it('prototype keys and nesting past the body limit are refused, and nothing is polluted', async () => {
      for (const key of ['__proto__', 'constructor', 'prototype']) {
        const body = `{"data": {"name": "Ada", "email": "a@example.com", "topic": "sales", "consent": true, "${key}": {"polluted": true}}}`;
        const res = await t.http
          .post(`${BASE}/${slug}/submit`)
          .set('X-Forwarded-For', freshIp())
          .set('Content-Type', 'application/json')
          .send(body);
        expect(pathsOf(expectInvalid(res))).toEqual([`data.${key}`]);
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      const deep = expectInvalid(await submit(slug, { data: { ...goodData, name: nest(100) } }));
      expect(deep).toHaveLength(1);
    });

    it('many keys: one entry at data, whatever their number', async () => {
      const data: Record<string, unknown> = { ...goodData };
      for (let i = 0; i < 5000; i++) {
        data[`k${i}`] = i;
      }
      const errors = expectInvalid(await submit(slug, { data }));
      expect(errors).toEqual([{ path: 'data', code: 'maxKeys', message: expect.any(String) }]);
    });

    it('a catastrophic pattern against a long value is cut short: 400, quickly', async () => {
      const redos = newSlug('redos');
      await createForm({
        slug: redos,
        name: 'ReDoS',
        fields: [{ name: 'v', type: 'text', pattern: '(a+)+b' }],
      });
      const started = Date.now();
      const errors = expectInvalid(await submit(redos, { data: { v: `${'a'.repeat(5000)}c` } }));
      expect(Date.now() - started).toBeLessThan(3000);
      expect(errors).toEqual([{ path: 'data.v', code: 'matches', message: expect.any(String) }]);
      expect((await submit(redos, { data: { v: 'aaab' } })).status).toBe(201);
    });

    it('a filled honeypot: 201 with an id, nothing stored; an empty one is no unknown field', async () => {
      const before = await storedFor(slug);
      const bot = await submit(slug, { data: { ...goodData, website: 'http://spam.example', junk: [1] } });
      expect(bot.status).toBe(201);
      expect(bot.body).toEqual({ message: expect.any(String), id: expect.stringMatching(UUID) });
      expect(await storedFor(slug)).toEqual(before);

      const person = await submit(slug, { data: { ...goodData, website: '' } });
      expect(person.status).toBe(201);
      const after = await storedFor(slug);
      expect(after).toHaveLength(before.length + 1);
      expect(after.find((r) => r.id === person.body.id)?.data).not.toHaveProperty('website');
    });

    it('a closed form is 409 CONFLICT, an unknown one 404', async () => {
      const closed = newSlug('closed');
      await createForm({
        slug: closed,
        name: 'Closed',
        status: 'closed',
        fields: [{ name: 'a', type: 'text' }],
      });
      expectProblem(await submit(closed, { data: { a: 'x' } }), 409, 'CONFLICT');
      expectProblem(await submit('no-such-form', { data: { a: 'x' } }), 404, 'NOT_FOUND');
      expectProblem(await submit('Not_A_Slug', { data: { a: 'x' } }), 404, 'NOT_FOUND');
      expect(await storedFor(closed)).toEqual([]);
    });

    it('the budget: max submits per address and form, then 429 with Retry-After; others unaffected', async () => {
      const limited = newSlug('limited');
      const other = newSlug('limited-other');
      await createForm({ slug: limited, name: 'Limited', fields: [{ name: 'a', type: 'text' }] });
      await createForm({ slug: other, name: 'Other', fields: [{ name: 'a', type: 'text' }] });
      const ip = freshIp();
      for (let i = 0; i < SUBMIT_MAX; i++) {
        // Invalid submissions count too.
        const res = await submit(limited, i === 0 ? { data: { nope: 1 } } : { data: { a: `n${i}` } }, ip);
        expect(res.status).toBe(i === 0 ? 400 : 201);
        expect(res.headers['x-ratelimit-limit']).toBe(String(SUBMIT_MAX));
        expect(res.headers['x-ratelimit-remaining']).toBe(String(SUBMIT_MAX - i - 1));
        expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
      }
      const refused = await submit(limited, { data: { a: 'more' } }, ip);
      const data = expectProblem(refused, 429, 'RATE_LIMITED');
      expect(refused.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect(refused.headers['retry-after']).toBe(String(data?.retryAfterSeconds));
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.headers['x-ratelimit-remaining']).toBe('0');
      expect((await storedFor(limited)).map((r) => r.data.a)).toEqual(['n1', 'n2']);

      expect((await submit(other, { data: { a: 'x' } }, ip)).status).toBe(201);
      expect((await submit(limited, { data: { a: 'y' } }, freshIp())).status).toBe(201);
    });
  });

  describe('reading submissions', () => {
    let slug: string;
    const ids: string[] = [];

    beforeAll(async () => {
      slug = newSlug('survey');
      await createForm({
        slug,
        name: 'Survey',
        fields: [
          { name: 'comment', type: 'textarea' },
          { name: 'score', type: 'number' },
          { name: 'ok', type: 'checkbox' },
          { name: 'who', type: 'email' },
        ],
      });
      const rows = [
        { comment: 'plain', score: 5, ok: true, who: 'a@example.com' },
        { comment: 'has "quotes", and commas', score: -3, ok: false },
        { comment: 'two\nlines\r\nhere', score: 1.5 },
        { comment: '=HYPERLINK("http://evil.example")' },
        { comment: '+1+1' },
        { comment: '-2' },
        { comment: '@SUM(A1)' },
        { comment: 'tab\tinside' },
        {},
      ];
      for (const data of rows) {
        const res = await submit(slug, { data });
        expect(res.status).toBe(201);
        ids.push(res.body.id as string);
        // Distinct creation times, so the order is certain.
        await new Promise((r) => setTimeout(r, 5));
      }
    });

    it('GET /forms/{slug}/submissions: the List record of { id, data, createdAt }, newest first', async () => {
      const res = await as(admin).get(`/${slug}/submissions?limit=4`);
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({
        total: 9,
        page: 1,
        limit: 4,
        totalPages: 3,
        hasNext: true,
        hasPrev: false,
      });
      expect(res.body.items.map((s: { id: string }) => s.id)).toEqual([...ids].reverse().slice(0, 4));
      expect(res.body.items[3]).toEqual({
        id: ids[5],
        data: { comment: '-2' },
        createdAt: expect.stringMatching(ISO),
      });
      const last = await as(admin).get(`/${slug}/submissions?limit=4&page=3`);
      expect(last.body.items.map((s: { id: string }) => s.id)).toEqual([ids[0]]);
      expect(last.body.items[0].data).toEqual({ comment: 'plain', score: 5, ok: true, who: 'a@example.com' });
      const oldest = await as(admin).get(`/${slug}/submissions?sort=createdAt&limit=1`);
      expect(oldest.body.items[0].id).toBe(ids[0]);
      expect(pathsOf(expectInvalid(await as(admin).get(`/${slug}/submissions?page=-1`)))).toEqual(['page']);
      expectProblem(await as(admin).get('/no-such-form/submissions'), 404, 'NOT_FOUND');
    });

    it('export: text/csv, an attachment, the field names then one row per submission, exact bytes', async () => {
      const res = await as(admin).get(`/${slug}/submissions/export?format=csv`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="${slug}-submissions.csv"`);
      expect(res.text).toBe(
        [
          'comment,score,ok,who',
          'plain,5,true,a@example.com',
          '"has ""quotes"", and commas",-3,false,',
          '"two\nlines\r\nhere",1.5,,',
          '"\'=HYPERLINK(""http://evil.example"")",,,',
          "'+1+1,,,",
          "'-2,,,",
          "'@SUM(A1),,,",
          'tab\tinside,,,',
          ',,,',
          '',
        ].join('\r\n'),
      );
      // Without format: CSV too; another format is refused.
      expect((await as(admin).get(`/${slug}/submissions/export`)).text).toBe(res.text);
      expect(pathsOf(expectInvalid(await as(admin).get(`/${slug}/submissions/export?format=xlsx`)))).toEqual([
        'format',
      ]);
      expectProblem(await as(admin).get('/no-such-form/submissions/export?format=csv'), 404, 'NOT_FOUND');
    });

    it('export: numbers stay numbers, text is formula-safe, a cell with ; is quoted', async () => {
      const safe = newSlug('csv-safe');
      await createForm({
        slug: safe,
        name: 'Formula-safe',
        fields: [
          { name: 'name', type: 'text' },
          { name: 'n', type: 'number' },
          { name: 'note', type: 'textarea' },
        ],
      });
      for (const data of [
        { name: '-2', n: -5, note: "x;=cmd|' /C calc'!A0" },
        { name: '=1+1', n: -0.25, note: 'a;b' },
        { name: '-', n: 1e21, note: '@x;"y"' },
      ]) {
        expect((await submit(safe, { data })).status).toBe(201);
        await new Promise((r) => setTimeout(r, 5));
      }
      const res = await as(admin).get(`/${safe}/submissions/export?format=csv`);
      expect(res.status).toBe(200);
      expect(res.text).toBe(
        [
          'name,n,note',
          `'-2,-5,"x;=cmd|' /C calc'!A0"`,
          `'=1+1,-0.25,"a;b"`,
          `'-,1e+21,"'@x;""y"""`,
          '',
        ].join('\r\n'),
      );
    });

    it('export of many submissions: every row once, oldest first, across batches', async () => {
      const big = newSlug('big');
      const form = await createForm({ slug: big, name: 'Big', fields: [{ name: 'n', type: 'number' }] });
      await t.db.query(
        `INSERT INTO plugin_form_submissions (form_id, data, created_at)
         SELECT $1, jsonb_build_object('n', i), now() - make_interval(secs => 5000 - i)
           FROM generate_series(1, 1234) AS i`,
        [form.id],
      );
      // Rows with one creation time are kept apart by id.
      await t.db.query(
        `INSERT INTO plugin_form_submissions (form_id, data, created_at)
         SELECT $1, jsonb_build_object('n', 2000 + i), '2030-01-01T00:00:00Z' FROM generate_series(1, 600) AS i`,
        [form.id],
      );
      const res = await as(admin).get(`/${big}/submissions/export?format=csv`);
      expect(res.status).toBe(200);
      const lines = res.text.split('\r\n');
      expect(lines[0]).toBe('n');
      expect(lines[lines.length - 1]).toBe('');
      const values = lines.slice(1, -1).map(Number);
      expect(values).toHaveLength(1834);
      expect(values.slice(0, 1234)).toEqual(Array.from({ length: 1234 }, (_, i) => i + 1));
      expect([...values.slice(1234)].sort((a, b) => a - b)).toEqual(
        Array.from({ length: 600 }, (_, i) => 2001 + i),
      );
    });
  });

  describe('notification email', () => {
    it('is sent to notifyEmail after the submission is stored, with the fields in plain text', async () => {
      const slug = newSlug('notify');
      await createForm({
        slug,
        name: 'Feedback <b>form</b>',
        fields: [
          { name: 'name', type: 'text', label: 'Your name' },
          { name: 'note', type: 'textarea' },
          { name: 'ok', type: 'checkbox' },
        ],
        notifyEmail: 'Owner@Example.test',
      });
      const res = await submit(slug, { data: { name: 'Grace <script>', note: 'line 1\nline 2', ok: true } });
      expect(res.status).toBe(201);
      const mail = await smtp.waitFor(
        (m) => addresses(m).includes('owner@example.test') && m.text?.includes(res.body.id) === true,
      );
      expect(mail.subject).toBe('New submission to Feedback <b>form</b>');
      expect(mail.text).toContain(`The form Feedback <b>form</b> (${slug}) received a new submission.`);
      expect(mail.text).toContain('Your name: Grace <script>');
      expect(mail.text).toContain('Note: \n  line 1\n  line 2');
      expect(mail.text).toContain('Ok: yes');
      expect(mail.text).toContain(`Submission id: ${res.body.id}`);
      // The HTML part escapes the values.
      expect(mail.html).toContain('Grace &lt;script&gt;');
      expect(mail.html).not.toContain('<script>');
    });

    it('a failed send is logged and the submission still answers 201 and is stored', async () => {
      const slug = newSlug('notify-fail');
      await createForm({
        slug,
        name: 'Failing',
        fields: [{ name: 'a', type: 'text' }],
        notifyEmail: `owner@${REJECT_DOMAIN}`,
      });
      const res = await submit(slug, { data: { a: 'kept' } });
      expect(res.status).toBe(201);
      expect((await storedFor(slug)).map((r) => r.id)).toEqual([res.body.id]);
      const deadline = Date.now() + 5000;
      let line: string | undefined;
      while (!line && Date.now() < deadline) {
        line = t.logs.lines.find(
          (l) => l.includes('form submission notification not sent') && l.includes(res.body.id as string),
        );
        if (!line) {
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      expect(line).toBeDefined();
      expect(line).not.toContain('kept');
    });

    it('a honeypot submission sends nothing', async () => {
      const slug = newSlug('notify-bot');
      await createForm({
        slug,
        name: 'Bot',
        fields: [{ name: 'a', type: 'text' }],
        honeypot: 'url',
        notifyEmail: 'bot-owner@example.test',
      });
      expect((await submit(slug, { data: { a: 'x', url: 'spam' } })).status).toBe(201);
      await new Promise((r) => setTimeout(r, 500));
      expect(smtp.messages.filter((m) => addresses(m).includes('bot-owner@example.test'))).toEqual([]);
    });
  });
});
