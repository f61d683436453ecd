import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type request from 'supertest';
import { bearerFor, browser, createUser } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * Hostile bodies and URLs (issue 15): each used to answer 500. Now a 4xx in the problem+json
 * envelope, decided before authentication or CSRF, and nothing stored.
 */

function expectInvalid(res: request.Response, status: number, code: string, path?: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  if (path !== undefined) {
    expect(res.body.error.data.errors.map((e: { path: string }) => e.path)).toContain(path);
  }
}

/** `depth` levels of `{"a": ...}` around a string. */
function nested(depth: number): string {
  return '{"a":'.repeat(depth) + '"x"' + '}'.repeat(depth);
}

describe('hostile bodies and URLs (issue 15)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp({
      config: { collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text' }] }] },
    });
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
  });
  afterAll(() => t.close());

  /** A gzip body sent with node:http (supertest re-encodes a Buffer body under Content-Encoding). */
  async function gzipPost(path: string, body: Buffer, headers: Record<string, string>) {
    if (!t.app.getHttpServer().listening) {
      await t.app.listen(0, '127.0.0.1');
    }
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    return new Promise<{ status: number; body: { error?: { code: string } } }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          headers: {
            ...headers,
            'Content-Type': 'application/json',
            'Content-Encoding': 'gzip',
            'Content-Length': body.length,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  const raw = (
    method: 'post' | 'patch',
    path: string,
    body: string | Buffer,
    headers: Record<string, string> = {},
  ) =>
    t.http[method](`/admin/api${path}`)
      .set({ 'Content-Type': 'application/json', ...headers })
      .send(body);

  describe('Content-Encoding', () => {
    it('bytes that are not gzip under Content-Encoding: gzip: 400, before CSRF', async () => {
      const res = await raw('post', '/auth/login', 'not gzip at all', { 'Content-Encoding': 'gzip' });
      expectInvalid(res, 400, 'VALIDATION_ERROR');
      const entries = await raw('post', '/collections/posts/entries', 'garbage', {
        'Content-Encoding': 'deflate',
        ...admin,
      });
      expectInvalid(entries, 400, 'VALIDATION_ERROR');
    });

    it('an unknown encoding: 415', async () => {
      const res = await raw('post', '/auth/login', '{}', { 'Content-Encoding': 'x-unknown' });
      expectInvalid(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    it('real gzip is decoded (the request goes on to CSRF); decoded over 1 MiB is 413', async () => {
      const body = gzipSync(JSON.stringify({ email: 'a@example.com', password: 'x' }));
      const ok = await gzipPost('/admin/api/auth/login', body, {});
      expect({ status: ok.status, code: ok.body.error?.code }).toEqual({ status: 403, code: 'CSRF_FAILED' });
      const bomb = gzipSync(JSON.stringify({ title: 'x'.repeat(3 * 1024 * 1024) }));
      expect(bomb.length).toBeLessThan(64 * 1024);
      const res = await gzipPost('/admin/api/collections/posts/entries', bomb, admin);
      expect({ status: res.status, code: res.body.error?.code }).toEqual({
        status: 413,
        code: 'PAYLOAD_TOO_LARGE',
      });
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM c_posts`);
      expect(n).toBe(0);
    });
  });

  describe('nesting depth', () => {
    it.each([
      '/auth/login',
      '/auth/register',
      '/auth/forgot-password',
      '/auth/setup',
      '/auth/verify-email/resend',
    ])('2,000 levels on %s: 400 before anything walks it', async (path) => {
      const res = await raw('post', path, nested(2000));
      expectInvalid(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.data.errors[0].code).toBe('maxDepth');
    });

    it('an update by query whose where nests 5,000 deep: 400; 60 levels are still read', async () => {
      let where = '{"title":{"equals":"x"}}';
      for (let i = 0; i < 5000; i++) {
        where = `{"and":[${where}]}`;
      }
      const deep = await raw(
        'patch',
        '/collections/posts/entries',
        `{"where":${where},"data":{"title":"y"}}`,
        admin,
      );
      expectInvalid(deep, 400, 'VALIDATION_ERROR');
      // 64 levels is the limit: a body just within it gets past this check.
      const fine = await raw(
        'post',
        '/collections/posts/entries',
        JSON.stringify({ title: nested(0) }),
        admin,
      );
      expect(fine.status).toBe(201);
    });
  });

  describe('strings PostgreSQL cannot store', () => {
    const NUL = 'a\u0000b';
    const LONE = 'x\ud800@example.com';
    const cases: Array<[string, 'post' | 'patch', string, Record<string, unknown>, string, boolean]> = [
      ['login email', 'post', '/auth/login', { email: `${NUL}@example.com`, password: 'x' }, 'email', false],
      ['forgot-password', 'post', '/auth/forgot-password', { email: `${NUL}@example.com` }, 'email', false],
      ['resend', 'post', '/auth/verify-email/resend', { email: `${NUL}@example.com` }, 'email', false],
      [
        'register',
        'post',
        '/auth/register',
        { email: `${NUL}@x.com`, password: 'Aa-123456', name: 'n' },
        'email',
        false,
      ],
      [
        'register lone surrogate',
        'post',
        '/auth/register',
        { email: LONE, password: 'Aa-123456', name: 'n' },
        'email',
        false,
      ],
      ['PATCH /me name', 'patch', '/me', { name: NUL }, 'name', true],
      ['POST /roles', 'post', '/roles', { name: NUL }, 'name', true],
      ['POST /users', 'post', '/users', { email: 'ok@example.com', name: NUL }, 'name', true],
      ['POST /users lone surrogate', 'post', '/users', { email: LONE, name: 'n' }, 'email', true],
      [
        'POST /email-templates',
        'post',
        '/email-templates',
        { slug: 'x', name: NUL, subject: 's', html: 'h' },
        'name',
        true,
      ],
      ['POST /email/send', 'post', '/email/send', { to: LONE, subject: 's', html: 'h' }, 'to', true],
      [
        'POST /email/send-with-template',
        'post',
        '/email/send-with-template',
        { to: LONE, template: 'x', variables: {} },
        'to',
        true,
      ],
      [
        'POST /email-providers',
        'post',
        '/email-providers',
        { name: 'p', type: 'smtp', fromEmail: LONE, config: { host: 'h', port: 25 } },
        'fromEmail',
        true,
      ],
      ['a key', 'post', '/collections/posts/entries', { [`ti${NUL}tle`]: 'x' }, `ti${NUL}tle`, true],
    ];

    it.each(cases)('%s: 400 naming the field', async (_name, method, path, body, field, signedIn) => {
      const b = await browser(t);
      const req = signedIn
        ? t.http[method](`/admin/api${path}`).set(admin).send(body)
        : b[method](path, body);
      const res = await req;
      expectInvalid(res, 400, 'VALIDATION_ERROR');
      expect(res.body.error.data.errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ code: 'invalidString' })]),
      );
      expect(res.body.error.data.errors.map((e: { path: string }) => e.path)).toContain(
        field.replace('\u0000', '\\u0000'),
      );
    });

    it('a NUL in a path segment or a query value: 400 (the GET and the DELETE alike)', async () => {
      for (const req of [
        t.http.delete('/admin/api/collections/posts%00').set(admin),
        t.http.get('/admin/api/collections/posts%00').set(admin),
        t.http.get('/admin/api/users?search=a%00b').set(admin),
      ]) {
        expectInvalid(await req, 400, 'VALIDATION_ERROR', 'url');
      }
    });
  });

  it('a __proto__, constructor or prototype key anywhere in a body: 400 naming it (was a 500 on /users and /me)', async () => {
    for (const [method, path, body, at] of [
      ['patch', '/me', { name: { constructor: 1 } }, 'name.constructor'],
      ['post', '/users', { email: 'p@example.com', name: [{ constructor: 'x' }] }, 'name.0.constructor'],
      [
        'post',
        '/collections/posts/entries',
        JSON.parse('{"title":"t","__proto__":{"admin":true}}'),
        '__proto__',
      ],
      ['post', '/roles', { name: 'r', prototype: {} }, 'prototype'],
    ] as const) {
      const res = await t.http[method](`/admin/api${path}`).set(admin).send(body);
      expectInvalid(res, 400, 'VALIDATION_ERROR', at);
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('a body of 50,000 unknown keys gets at most 50 issues and the count of the rest', async () => {
    const body = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, 0]));
    const res = await t.http.post('/admin/api/roles').set(admin).send(body);
    expectInvalid(res, 400, 'VALIDATION_ERROR');
    expect(res.body.error.data.errors).toHaveLength(50);
    expect(res.body.error.data.omittedErrors).toBeGreaterThan(49_000);
    expect(res.text.length).toBeLessThan(64 * 1024);
  });

  it('error messages echo input only in a short, printable form', async () => {
    const hostile = `evil\u202e\r\n${'y'.repeat(5000)}`;
    const res = await t.http
      .get(`/admin/api/collections/posts/entries?where[${encodeURIComponent(hostile)}][equals]=1`)
      .set(admin);
    expectInvalid(res, 400, 'VALIDATION_ERROR');
    const texts = [
      res.body.error.message,
      ...res.body.error.data.errors.flatMap((e: { path: string; message: string }) => [e.path, e.message]),
    ];
    for (const text of texts) {
      expect(text.length).toBeLessThanOrEqual(300);
      expect(text).not.toMatch(/[\p{Cc}\u202e]/u);
    }
    expect(JSON.stringify(res.body)).toContain('\\\\u202e');
  });
});
