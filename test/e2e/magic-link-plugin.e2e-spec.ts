import { createHash } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import type request from 'supertest';
import { magicLinkPlugin } from '../../src/plugins/magic-link';
import { totpPlugin } from '../../src/plugins/totp';
import { browser, cookieValue, createUser, CreatedUser, setCookies } from '../utils/auth';
import type { OpenApiDocument } from '../../src/modules/openapi/openapi-document';
import { validateOpenApi } from '../utils/openapi-check';
import { uncheckedServer } from '../utils/openapi-conformance';
import { addresses, extractLink, REJECT_DOMAIN, startSmtp, TestSmtp, useTestSmtp } from '../utils/smtp';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * The shipped magic-link plugin (`magicLinkPlugin(...)`, slug `magic-link`, CONTRACTS 14.5) end
 * to end, over HTTP on a real database with a real SMTP server: one answer for every address,
 * the emailed single-use link, `completeLogin` (next, audit, second factor, refused accounts),
 * the per-IP sign-in budget shared with `POST /auth/login`, and no token in clear anywhere.
 */

const BASE = '/admin/api/plugins/magic-link';
const VERIFY_ACTION = 'api/plugins/magic-link/verify';
const FAILED = '/admin/login?error=signin-failed';
const RESUME = '/admin/login?resume=1';
const PROBLEM = /^application\/problem\+json/;
const FLOOR_MS = 600;

type Res = request.Response;

let seq = 0;
const uniq = () => `${Date.now().toString(36)}${++seq}`;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

function expectProblem(res: Res, status: number, code: string): Record<string, unknown> | undefined {
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({
    status,
    body: { error: { code } },
  });
  expect(res.headers['content-type']).toMatch(PROBLEM);
  return (res.body as { error: { data?: Record<string, unknown> } }).error.data;
}

describe('magicLinkPlugin: options checked at definition time', () => {
  it('accepts good options and refuses ones that cannot work', () => {
    expect(() => magicLinkPlugin()).not.toThrow();
    expect(() => magicLinkPlugin({ ttlMinutes: 60 })).not.toThrow();
    for (const options of [
      { ttlMinutes: 0 },
      { ttlMinutes: 1.5 },
      { ttlMinutes: '15' },
      { ttlMinutes: 1441 },
      { unknown: true },
    ]) {
      expect(() => magicLinkPlugin(options as never)).toThrow(/^magicLinkPlugin: /);
    }
    expect(magicLinkPlugin().slug).toBe('magic-link');
    expect(magicLinkPlugin().capabilities).toEqual(['auth.login']);
  });
});

describe('plugin: magic-link', () => {
  let t: TestApp;
  let smtp: TestSmtp;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      config: { plugins: [magicLinkPlugin({ ttlMinutes: 15 }), totpPlugin()] },
    });
    await useTestSmtp(t, smtp);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const ask = (body: object) => t.http.post(`${BASE}/request`).send(body);
  const verify = (link: string) => t.http.get(pathOf(link));
  const mailTo = (email: string) => (m: ParsedMail) => addresses(m).includes(email.toLowerCase());

  /** Asks a link for `user` and answers the link of the email it gets. */
  async function linkFor(user: { email: string }, next?: string): Promise<string> {
    smtp.clear();
    const res = await ask(next === undefined ? { email: user.email } : { email: user.email, next });
    expect(res.status).toBe(200);
    const mail = await smtp.waitFor(mailTo(user.email));
    const link = extractLink(mail, VERIFY_ACTION);
    expect(link).not.toBeNull();
    return link!;
  }

  function expectFailed(res: Res): void {
    expect({ status: res.status, location: res.headers.location as unknown }).toEqual({
      status: 302,
      location: FAILED,
    });
    const cookies = setCookies(res);
    expect(cookies.svc_session).toBeUndefined();
    expect(cookies.svc_refresh).toBeUndefined();
    expect(cookies.svc_pending).toBeUndefined();
  }

  async function expectSignedIn(res: Res, location: string, userId: string): Promise<void> {
    expect({ status: res.status, location: res.headers.location as unknown }).toEqual({
      status: 302,
      location,
    });
    const cookies = setCookies(res);
    expect(cookies.svc_session).toMatch(/; HttpOnly/i);
    expect(cookies.svc_refresh).toMatch(/; HttpOnly/i);
    const me = await t.http
      .get('/admin/api/me')
      .set('Cookie', `svc_session=${cookieValue(cookies.svc_session)}`);
    expect(me.status).toBe(200);
    expect(me.body.id ?? me.body.user?.id).toBe(userId);
  }

  const lastAuditId = async (): Promise<number> =>
    ((await t.db.query(`SELECT coalesce(max(id), 0)::int AS id FROM audit_log`)) as Array<{ id: number }>)[0]
      .id;
  const auditSince = (
    id: number,
  ): Promise<Array<{ event: string; actor_id: string | null; metadata: Record<string, unknown> }>> =>
    t.db.query(`SELECT event, actor_id, metadata FROM audit_log WHERE id > $1 ORDER BY id`, [id]);
  const tokenRows = (
    userId: string,
  ): Promise<Array<{ token_hash: string; used: boolean; next: string | null }>> =>
    t.db.query(
      `SELECT token_hash, used_at IS NOT NULL AS used, next FROM plugin_magic_link_tokens WHERE user_id = $1`,
      [userId],
    );

  /** Some time for an email that must not come to arrive if it were sent. */
  const settle = () => new Promise((r) => setTimeout(r, 300));

  describe('POST request', () => {
    it('answers the same body, after the same floor, for a known and an unknown address', async () => {
      const user = await createUser(t, { email: `known-${uniq()}@example.com` });
      const unknown = `nobody-${uniq()}@example.com`;
      const timed = async (email: string) => {
        const started = performance.now();
        const res = await ask({ email });
        return { res, ms: performance.now() - started };
      };
      // Alternate, to spread any drift of the machine over both.
      const known: number[] = [];
      const missing: number[] = [];
      let bodies: unknown[] = [];
      for (let i = 0; i < 3; i++) {
        const a = await timed(user.email);
        const b = await timed(unknown);
        expect(a.res.status).toBe(200);
        expect(b.res.status).toBe(200);
        expect(a.res.headers['content-type']).toBe(b.res.headers['content-type']);
        expect(a.res.headers['cache-control']).toBe('no-store');
        expect(b.res.headers['cache-control']).toBe('no-store');
        bodies = [a.res.body, b.res.body];
        expect(a.res.text).toBe(b.res.text);
        known.push(a.ms);
        missing.push(b.ms);
      }
      expect(bodies[0]).toEqual({ message: expect.any(String) });
      for (const ms of [...known, ...missing]) {
        expect(ms).toBeGreaterThanOrEqual(FLOOR_MS - 5);
      }
      const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[1];
      expect(Math.abs(median(known) - median(missing))).toBeLessThan(150);
      // The known address got its emails (after the answers); the unknown one nothing.
      await smtp.waitFor(mailTo(user.email));
      await settle();
      expect(smtp.messages.filter(mailTo(unknown))).toEqual([]);
    });

    it('emails a link that signs in: 302 to next with session cookies, audited as magic-link:email', async () => {
      const user = await createUser(t, { email: `ml-${uniq()}@example.com`, name: 'Ada Lovelace' });
      smtp.clear();
      const res = await ask({ email: user.email.toUpperCase(), next: '/admin/posts?x=1' });
      expect(res.status).toBe(200);
      const mail = await smtp.waitFor(mailTo(user.email));
      expect(mail.subject).toBe('Your sign-in link');
      expect(mail.text).toContain('Hello Ada Lovelace');
      expect(mail.text).toContain('15 minutes');
      const link = extractLink(mail, VERIFY_ACTION)!;
      expect(link).toMatch(
        /^http:\/\/localhost:3000\/admin\/api\/plugins\/magic-link\/verify\?token=[A-Za-z0-9_-]{43}$/,
      );
      expect(typeof mail.html === 'string' && mail.html.includes(link)).toBe(true);

      const since = await lastAuditId();
      const done = await verify(link);
      expect(done.headers['cache-control']).toBe('no-store');
      await expectSignedIn(done, '/admin/posts?x=1', user.id);
      expect(await auditSince(since)).toContainEqual({
        event: 'login-succeeded',
        actor_id: user.id,
        metadata: expect.objectContaining({ strategy: 'magic-link:email' }),
      });
    });

    it('refuses a body without an address (400) and draws on nothing else', async () => {
      expectProblem(await ask({}), 400, 'VALIDATION_ERROR');
      expectProblem(await ask({ email: '   ' }), 400, 'VALIDATION_ERROR');
      expectProblem(await ask({ email: 42 }), 400, 'VALIDATION_ERROR');
      expectProblem(await ask({ email: 'a@example.com', next: 5 }), 400, 'VALIDATION_ERROR');
      expectProblem(await ask({ email: `${'a'.repeat(321)}@x.io` }), 400, 'VALIDATION_ERROR');
      expectProblem(await ask({ email: 'a@example.com', extra: 1 }), 400, 'VALIDATION_ERROR');
    });

    it('sends nothing to a deactivated account, nor to an unverified one (verification required)', async () => {
      const inactive = await createUser(t, { email: `off-${uniq()}@example.com`, active: false });
      const unverified = await createUser(t, { email: `unv-${uniq()}@example.com`, verified: false });
      for (const u of [inactive, unverified]) {
        const res = await ask({ email: u.email });
        expect(res.status).toBe(200);
      }
      await settle();
      expect(smtp.messages.filter((m) => mailTo(inactive.email)(m) || mailTo(unverified.email)(m))).toEqual(
        [],
      );
      expect(await tokenRows(inactive.id)).toEqual([]);
      expect(await tokenRows(unverified.id)).toEqual([]);
    });

    it('answers the same when the mail server refuses the address; the failure is logged without the link', async () => {
      const user = await createUser(t, { email: `bounce-${uniq()}@${REJECT_DOMAIN}` });
      const res = await ask({ email: user.email });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.any(String) });
      for (let i = 0; i < 50 && !t.logs.text().includes('magic link email not sent'); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(t.logs.text()).toContain('magic link email not sent');
      expect(await tokenRows(user.id)).toHaveLength(1);
    });
  });

  describe('GET verify', () => {
    it('a link works once: the second use goes to signin-failed', async () => {
      const user = await createUser(t);
      const link = await linkFor(user);
      await expectSignedIn(await verify(link), '/admin', user.id);
      expectFailed(await verify(link));
    });

    it('two uses at once: exactly one signs in', async () => {
      const user = await createUser(t);
      const link = await linkFor(user);
      const [a, b] = await Promise.all([verify(link), verify(link)]);
      const locations = [a.headers.location, b.headers.location].sort();
      expect(locations).toEqual(['/admin', FAILED].sort());
      const signedIn = a.headers.location === '/admin' ? a : b;
      await expectSignedIn(signedIn, '/admin', user.id);
      expectFailed(signedIn === a ? b : a);
    });

    it('an expired link goes to signin-failed', async () => {
      const user = await createUser(t);
      const link = await linkFor(user);
      await t.db.query(
        `UPDATE plugin_magic_link_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
        [sha256(tokenOf(link))],
      );
      expectFailed(await verify(link));
    });

    it('a HEAD request (a link checker) does not use the link up', async () => {
      const user = await createUser(t);
      const link = await linkFor(user);
      const head = await t.http.head(pathOf(link));
      expect(head.status).toBe(204);
      expect(setCookies(head).svc_session).toBeUndefined();
      expect(await tokenRows(user.id)).toEqual([expect.objectContaining({ used: false })]);
      await expectSignedIn(await verify(link), '/admin', user.id);
    });

    it('rows expired more than a day ago are removed after a later request', async () => {
      const user = await createUser(t);
      const link = await linkFor(user);
      await t.db.query(
        `UPDATE plugin_magic_link_tokens SET expires_at = now() - interval '25 hours' WHERE token_hash = $1`,
        [sha256(tokenOf(link))],
      );
      expect((await ask({ email: `nobody-${uniq()}@example.com` })).status).toBe(200);
      let rows = await tokenRows(user.id);
      for (let i = 0; i < 20 && rows.length; i++) {
        await new Promise((r) => setTimeout(r, 50));
        rows = await tokenRows(user.id);
      }
      expect(rows).toEqual([]);
    });

    it('ttlMinutes sets the expiry', async () => {
      const user = await createUser(t);
      const link = await linkFor(user);
      const [row] = (await t.db.query(
        `SELECT extract(epoch FROM expires_at - created_at)::int AS seconds FROM plugin_magic_link_tokens WHERE token_hash = $1`,
        [sha256(tokenOf(link))],
      )) as Array<{ seconds: number }>;
      expect(row.seconds).toBeGreaterThanOrEqual(15 * 60 - 2);
      expect(row.seconds).toBeLessThanOrEqual(15 * 60 + 2);
    });

    it('unknown, malformed or missing tokens go to signin-failed', async () => {
      expectFailed(await t.http.get(`${BASE}/verify?token=${'A'.repeat(43)}`));
      expectFailed(await t.http.get(`${BASE}/verify?token=short`));
      expectFailed(await t.http.get(`${BASE}/verify`));
      expectFailed(await t.http.get(`${BASE}/verify?token=a&token=b`));
    });

    it('an account deactivated after the link was sent goes to signin-failed, audited', async () => {
      const user = await createUser(t);
      const link = await linkFor(user);
      await t.db.query(`UPDATE users SET is_active = false WHERE id = $1`, [user.id]);
      const since = await lastAuditId();
      expectFailed(await verify(link));
      expect(await auditSince(since)).toContainEqual({
        event: 'login-failed',
        actor_id: null,
        metadata: expect.objectContaining({ reason: 'deactivated', strategy: 'magic-link:email' }),
      });
    });

    it('next only leads to a same-origin path', async () => {
      for (const next of ['https://evil.example/x', '//evil.example/x', 'javascript:alert(1)']) {
        const user = await createUser(t);
        await expectSignedIn(await verify(await linkFor(user, next)), '/admin', user.id);
      }
    });

    it('next never leads into the API: a link with the attacker’s link as next signs in the victim, at /admin', async () => {
      // Login CSRF: the attacker asks a link for their own account and one for the victim whose
      // next is the attacker's link; following it would put the attacker's session in the victim's browser.
      const attacker = await createUser(t);
      const victim = await createUser(t);
      const attackerLink = await linkFor(attacker);
      const done = await verify(await linkFor(victim, pathOf(attackerLink)));
      await expectSignedIn(done, '/admin', victim.id);
      expect(await tokenRows(attacker.id)).toEqual([
        expect.objectContaining({ token_hash: sha256(tokenOf(attackerLink)), used: false }),
      ]);
    });

    it.each([
      '/admin/api',
      '/admin/api/',
      '/admin/api?x=1',
      '/admin/API/plugins/magic-link/verify?token=x',
      '/admin/%61pi/auth/session',
      '/admin/./api/auth/session',
      '/admin/x/../api/auth/session',
      '/admin/%2e%2e/admin/api/auth/session',
      '/admin/%2E/api/auth/session',
      '/admin//api/auth/session',
      '/admin/x%2f..%2fapi/auth/session',
      '/admin/%252e%252e/api',
      '/administrator',
      '/adminapi',
      '/posts',
    ])('next %s is replaced by /admin', async (next) => {
      const user = await createUser(t);
      await expectSignedIn(await verify(await linkFor(user, next)), '/admin', user.id);
    });

    it.each(['/admin', '/admin/', '/admin?tab=security', '/admin#keys', '/admin/posts/12?x=%2F'])(
      'next %s, an /admin page, is kept',
      async (next) => {
        const user = await createUser(t);
        await expectSignedIn(await verify(await linkFor(user, next)), next, user.id);
      },
    );

    it('a user with TOTP goes to the second factor: resume page, svc_pending, no session', async () => {
      const user = await createUser(t);
      await t.db.query(
        `INSERT INTO plugin_totp_factors (user_id, secret_sealed, confirmed_at) VALUES ($1, 'sealed', now())`,
        [user.id],
      );
      const done = await verify(await linkFor(user, '/admin/posts'));
      expect({ status: done.status, location: done.headers.location as unknown }).toEqual({
        status: 302,
        location: RESUME,
      });
      const cookies = setCookies(done);
      expect(cookies.svc_session).toBeUndefined();
      expect(cookies.svc_refresh).toBeUndefined();
      expect(cookies.svc_pending).toMatch(/; HttpOnly/i);
      const pending = await t.http
        .get('/admin/api/auth/pending')
        .set('Cookie', `svc_pending=${cookieValue(cookies.svc_pending)}`);
      expect(pending.body).toMatchObject({ challengeType: 'totp' });
    });
  });

  describe('secrets', () => {
    let user: CreatedUser;
    let link: string;

    beforeAll(async () => {
      user = await createUser(t);
      link = await linkFor(user, '/admin/secret-check');
    });

    it('stores only the SHA-256 of the token, never the token', async () => {
      const token = tokenOf(link);
      expect(await tokenRows(user.id)).toEqual([
        { token_hash: sha256(token), used: false, next: '/admin/secret-check' },
      ]);
      const [found] = (await t.db.query(
        `SELECT count(*)::int AS n FROM plugin_magic_link_tokens t WHERE row_to_json(t)::text LIKE '%' || $1 || '%'`,
        [token],
      )) as Array<{ n: number }>;
      expect(found.n).toBe(0);
    });

    it('never logs the token, not even the verify URL', async () => {
      const token = tokenOf(link);
      await expectSignedIn(await verify(link), '/admin/secret-check', user.id);
      expect(t.logs.text()).toContain('/admin/api/plugins/magic-link/verify');
      expect(t.logs.text()).not.toContain(token);
      expect(t.logs.text()).not.toContain(sha256(token));
    });
  });
});

describe('plugin: magic-link in the OpenAPI document', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ config: { plugins: [magicLinkPlugin()] } });
  });
  afterAll(() => t.close());

  it('describes both routes: the body and answer of request, the redirects of verify', async () => {
    uncheckedServer(t.app.getHttpServer() as object);
    const doc = (await t.http.get('/admin/api/openapi.json').expect(200)).body as OpenApiDocument;
    expect(await validateOpenApi(doc)).toBe('');
    const paths = doc.paths as Record<string, Record<string, Record<string, unknown>>>;
    const request = paths[`${BASE}/request`]?.post;
    const verify = paths[`${BASE}/verify`]?.get;
    expect(request?.['x-plugin']).toBe(true);
    expect(verify?.['x-plugin']).toBe(true);
    expect(request?.requestBody).toMatchObject({
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['email'],
            additionalProperties: false,
            properties: { email: { type: 'string' }, next: { type: 'string' } },
          },
        },
      },
    });
    const requestAnswers = request?.responses as Record<string, Record<string, unknown>>;
    expect(requestAnswers['200']).toMatchObject({
      content: { 'application/json': { schema: { properties: { message: { type: 'string' } } } } },
    });
    expect(requestAnswers['429']).toBeDefined();
    const verifyAnswers = verify?.responses as Record<string, Record<string, unknown>>;
    expect(Object.keys(verifyAnswers).filter((s) => /^[23]/.test(s))).toEqual(['302']);
    expect(verifyAnswers['302'].content).toBeUndefined();
  });
});

describe('plugin: magic-link and the per-IP sign-in budget', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  const MAX = 3;
  const WINDOW = 60;

  beforeEach(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      config: {
        plugins: [magicLinkPlugin()],
        security: { authRateLimit: { max: MAX, windowSeconds: WINDOW } },
      },
    });
    await useTestSmtp(t, smtp);
  });
  afterEach(async () => {
    await t.close();
    await smtp.close();
  });

  function expectRateLimited(res: Res): void {
    const data = expectProblem(res, 429, 'RATE_LIMITED');
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.headers['retry-after']).toBe(String(data?.retryAfterSeconds));
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(WINDOW);
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
  }

  it('magic-link requests spend the budget of /auth/login, with X-RateLimit-* headers', async () => {
    const user = await createUser(t);
    for (let i = 0; i < MAX; i++) {
      const res = await t.http.post(`${BASE}/request`).send({ email: `nobody-${uniq()}@example.com` });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe(String(MAX));
      expect(res.headers['x-ratelimit-remaining']).toBe(String(MAX - i - 1));
      expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
    }
    expectRateLimited(await t.http.post(`${BASE}/request`).send({ email: user.email }));
    const b = await browser(t);
    expectRateLimited(await b.post('/auth/login', { email: user.email, password: user.password }));
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.messages).toEqual([]);
  }, 20_000);

  it('logins spend the budget of magic-link requests', async () => {
    const user = await createUser(t);
    const b = await browser(t);
    for (let i = 0; i < MAX; i++) {
      const res = await b.post('/auth/login', { email: user.email, password: 'Wrong-Password-1' });
      expectProblem(res, 401, 'AUTH_INVALID_CREDENTIALS');
    }
    expectRateLimited(await t.http.post(`${BASE}/request`).send({ email: user.email }));
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.messages).toEqual([]);
    expect(await t.db.query(`SELECT 1 FROM plugin_magic_link_tokens WHERE user_id = $1`, [user.id])).toEqual(
      [],
    );
  }, 20_000);
});
