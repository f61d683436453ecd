import { Body, Controller, Get, Inject, Module, Post, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import type request from 'supertest';
import type { AuthContext } from '../../src/common/access/auth-context';
import { CurrentAuth } from '../../src/common/access/auth.decorators';
import { ServiceError } from '../../src/common/errors/service-error';
import { SERVICE_VERSION } from '../../src/common/version';
import type {
  HookUser,
  PluginContext,
  PluginDefinition,
  PluginHooks,
} from '../../src/modules/plugins/plugin.types';
import { SvcModule } from '../../src/svc.module';
import { bearerFor, browser, cookieValue, createUser, CreatedUser, setCookies } from '../utils/auth';
import { createTestApp, TEST_SECRET, TestApp } from '../utils/test-app';

/**
 * The plugin surface a plugin's own routes reach (SPEC 5.7, 6; CONTRACTS 10): routes mounted
 * under `/admin/api/plugins/<slug>/` that see the caller but are never refused by the core, and
 * `ctx.auth.completeLogin` (capability, strategy name, every 302 outcome, what is thrown to the
 * route); and the boot refusals of bad plugin definitions.
 */

type Res = request.Response;
type Fn = (...args: unknown[]) => unknown;

const PROBLEM = /^application\/problem\+json/;
const REFUSED = '/admin/login?error=signin-failed';
const RESUME = '/admin/login?resume=1';
const SSO_CTX = 'SSO_CTX';
const NOCAP_CTX = 'NOCAP_CTX';

const calls: string[] = [];
const seen = new Map<string, unknown[][]>();
const act: Partial<Record<string, Fn>> = {};

function recorder(key: string): Fn {
  return (...args: unknown[]) => {
    calls.push(key);
    const list = seen.get(key) ?? [];
    list.push(args);
    seen.set(key, list);
    return act[key]?.(...args);
  };
}

/** The sign-in a plugin's callback route finishes: the user, strategy and next come from the query (a test only). */
async function finish(
  ctx: PluginContext,
  q: Record<string, string | undefined>,
  req: Request,
  res: Response,
) {
  await ctx.auth.completeLogin(q.user ?? '', {
    request: req,
    response: res,
    strategy: q.strategy ?? `${ctx.slug}:oidc`,
    ...(q.next !== undefined && { next: q.next }),
  });
}

@Controller()
class SsoController {
  constructor(@Inject(SSO_CTX) private readonly ctx: PluginContext) {}

  @Get('callback')
  async callback(@Query() q: Record<string, string>, @Req() req: Request, @Res() res: Response) {
    await finish(this.ctx, q, req, res);
  }

  @Get('whoami')
  whoami(@CurrentAuth() auth: AuthContext | undefined) {
    return { userId: auth?.user.id ?? null, method: auth?.method ?? null };
  }

  @Post('echo')
  echo(@Body() body: unknown, @CurrentAuth() auth: AuthContext | undefined) {
    return { body, userId: auth?.user.id ?? null };
  }
}

@Module({})
class SsoModule {}

@Controller()
class NoCapController {
  constructor(@Inject(NOCAP_CTX) private readonly ctx: PluginContext) {}

  @Get('callback')
  async callback(@Query() q: Record<string, string>, @Req() req: Request, @Res() res: Response) {
    await finish(this.ctx, q, req, res);
  }
}

@Module({})
class NoCapModule {}

const sso: PluginDefinition = {
  slug: 'sso',
  version: '1.0.0',
  minServiceVersion: '0.1.0',
  capabilities: ['auth.login'],
  hooks: Object.fromEntries(
    (['beforeLogin', 'afterAuthenticate', 'afterLogin', 'customizeClaims'] as const).map((n) => [
      n,
      recorder(`sso.${n}`),
    ]),
  ) as PluginHooks,
  challenges: [
    {
      id: 'sso-otp',
      uiHint: 'Enter the SSO code',
      resolve: ({ response }) => (response === 'otp-ok' ? { ok: true } : { ok: false }),
    },
  ],
  module: (ctx) => ({
    module: SsoModule,
    controllers: [SsoController],
    providers: [{ provide: SSO_CTX, useValue: ctx }],
  }),
};

const nocap: PluginDefinition = {
  slug: 'nocap',
  version: '1.0.0',
  minServiceVersion: '0.1.0',
  hooks: { beforeLogin: recorder('nocap.beforeLogin') },
  module: (ctx) => ({
    module: NoCapModule,
    controllers: [NoCapController],
    providers: [{ provide: NOCAP_CTX, useValue: ctx }],
  }),
};

describe('plugin surface: plugin routes and completeLogin', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ config: { plugins: [sso, nocap] } });
  });
  afterAll(() => t.close());

  beforeEach(() => {
    calls.length = 0;
    seen.clear();
    for (const key of Object.keys(act)) {
      delete act[key];
    }
  });

  const callback = (query: Record<string, string>, slug = 'sso') =>
    t.http.get(`/admin/api/plugins/${slug}/callback`).query(query);

  function expectProblem(res: Res, status: number, code: string): void {
    expect({ status: res.status, body: res.body as unknown }).toMatchObject({
      status,
      body: { error: { code } },
    });
    expect(res.headers['content-type']).toMatch(PROBLEM);
  }

  function expectRefused(res: Res): void {
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(REFUSED);
    const cookies = setCookies(res);
    expect(cookies.svc_session).toBeUndefined();
    expect(cookies.svc_refresh).toBeUndefined();
    expect(cookies.svc_pending).toBeUndefined();
  }

  /** A 302 to the resume page: the pending token in the HttpOnly cookie, never in the URL. */
  function expectResume(res: Res): string {
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(RESUME);
    const cookies = setCookies(res);
    expect(cookies.svc_session).toBeUndefined();
    expect(cookies.svc_refresh).toBeUndefined();
    // The same cookie on the auth routes and on the plugin routes (a passkey challenge's options).
    const pendings = ((res.headers['set-cookie'] as unknown as string[]) ?? []).filter((c) =>
      c.startsWith('svc_pending='),
    );
    expect(pendings.map((c) => /; Path=([^;]+)/i.exec(c)?.[1]).sort()).toEqual([
      '/admin/api/auth',
      '/admin/api/plugins',
    ]);
    for (const pending of pendings) {
      expect(pending).toMatch(/; HttpOnly/i);
      expect(cookieValue(pending)).toBe(cookieValue(cookies.svc_pending));
    }
    const token = cookieValue(cookies.svc_pending);
    expect(token.split('.')).toHaveLength(3);
    expect(res.headers.location).not.toContain(token);
    return token;
  }

  /** A 302 to `location` with the session cookies of a working session. */
  async function expectSignedIn(res: Res, location: string, user: CreatedUser): Promise<void> {
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(location);
    const cookies = setCookies(res);
    expect(cookies.svc_session).toMatch(/; HttpOnly/i);
    expect(cookies.svc_refresh).toMatch(/; HttpOnly/i);
    const me = await t.http
      .get('/admin/api/me')
      .set('Cookie', `svc_session=${cookieValue(cookies.svc_session)}`);
    expect(me.status).toBe(200);
    expect(me.body.id ?? me.body.user?.id).toBe(user.id);
  }

  /** `POST /admin/api/auth<path>` as the resumed login page sends it: the pending token in its cookie only. */
  async function withPendingCookie(path: string, token: string, body: object): Promise<Res> {
    const csrf = (await t.http.get('/admin/api/auth/csrf')).body.csrfToken as string;
    return t.http
      .post(`/admin/api/auth${path}`)
      .set('X-CSRF-Token', csrf)
      .set('Cookie', `svc_csrf=${csrf}; svc_pending=${token}`)
      .send(body);
  }

  const refreshRows = async (userId: string): Promise<number> =>
    (
      (await t.db.query(`SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1`, [
        userId,
      ])) as Array<{ n: number }>
    )[0].n;

  const lastAuditId = async (): Promise<number> =>
    ((await t.db.query(`SELECT coalesce(max(id), 0)::int AS id FROM audit_log`)) as Array<{ id: number }>)[0]
      .id;

  const auditSince = (
    id: number,
  ): Promise<Array<{ event: string; actor_id: string | null; metadata: object }>> =>
    t.db.query(`SELECT event, actor_id, metadata FROM audit_log WHERE id > $1 ORDER BY id`, [id]);

  describe('plugin routes', () => {
    it('are mounted under /admin/api/plugins/<slug>/ and reached by a visitor', async () => {
      const res = await t.http.get('/admin/api/plugins/sso/whoami');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ userId: null, method: null });
      expect((await t.http.get('/whoami')).status).toBe(404);
      const posted = await t.http.post('/admin/api/plugins/sso/echo').send({ a: 1 });
      expect(posted.status).toBe(201);
      expect(posted.body).toEqual({ body: { a: 1 }, userId: null });
    });

    it('see the AuthContext when credentials come along', async () => {
      const user = await createUser(t);
      const bearer = await t.http.get('/admin/api/plugins/sso/whoami').set(await bearerFor(t, user.id));
      expect(bearer.body).toEqual({ userId: user.id, method: 'bearer' });
      const b = await browser(t);
      await b.post('/auth/login', { email: user.email, password: user.password }).expect(200);
      const cookie = await b.agent.get('/admin/api/plugins/sso/whoami');
      expect(cookie.body).toEqual({ userId: user.id, method: 'session' });
    });

    it('credentials the core refuses make the caller a visitor there, not a 401', async () => {
      const garbage = await t.http
        .get('/admin/api/plugins/sso/whoami')
        .set('Authorization', 'Bearer not-a-token');
      expect(garbage.status).toBe(200);
      expect(garbage.body).toEqual({ userId: null, method: null });
      const gone = await createUser(t);
      const headers = await bearerFor(t, gone.id);
      await t.db.query(`UPDATE users SET is_active = false, ver = ver + 1 WHERE id = $1`, [gone.id]);
      const deactivated = await t.http.get('/admin/api/plugins/sso/whoami').set(headers);
      expect(deactivated.status).toBe(200);
      expect(deactivated.body).toEqual({ userId: null, method: null });
    });

    it("writes keep the core's rules: a session from a foreign page is a visitor, a read-only key is refused", async () => {
      const user = await createUser(t);
      const b = await browser(t);
      await b.post('/auth/login', { email: user.email, password: user.password }).expect(200);
      const own = await b.agent.post('/admin/api/plugins/sso/echo').send({ a: 1 });
      expect(own.body).toEqual({ body: { a: 1 }, userId: user.id });
      const foreign = await b.agent
        .post('/admin/api/plugins/sso/echo')
        .set('Origin', 'https://evil.example')
        .send({ a: 2 });
      expect(foreign.status).toBe(201);
      expect(foreign.body).toEqual({ body: { a: 2 }, userId: null });
      // Reads are not writes: the session stays.
      const read = await b.agent.get('/admin/api/plugins/sso/whoami').set('Origin', 'https://evil.example');
      expect(read.body).toEqual({ userId: user.id, method: 'session' });

      const admin = await createUser(t, { roles: ['super-admin'] });
      const adminBrowser = await browser(t);
      await adminBrowser.post('/auth/login', { email: admin.email, password: admin.password }).expect(200);
      const keys: Record<string, string> = {};
      for (const type of ['read-only', 'full-access']) {
        const made = await adminBrowser.post('/api-keys', { name: `plugin ${type}`, type });
        expect(made.status).toBe(201);
        keys[type] = made.body.key as string;
      }
      const readOnly = await t.http
        .post('/admin/api/plugins/sso/echo')
        .set('Authorization', `Bearer ${keys['read-only']}`)
        .send({ a: 3 });
      expect(readOnly.status).toBe(403);
      expect(readOnly.headers['content-type']).toMatch(PROBLEM);
      const readOnlyGet = await t.http
        .get('/admin/api/plugins/sso/whoami')
        .set('Authorization', `Bearer ${keys['read-only']}`);
      expect(readOnlyGet.body).toEqual({ userId: admin.id, method: 'api-key' });
      const full = await t.http
        .post('/admin/api/plugins/sso/echo')
        .set('Authorization', `Bearer ${keys['full-access']}`)
        .send({ a: 4 });
      expect(full.body).toEqual({ body: { a: 4 }, userId: admin.id });
    });

    it('a pending token never passes for a session there either', async () => {
      const user = await createUser(t);
      act['sso.afterAuthenticate'] = (u) => ({ challenge: { id: 'sso-otp', userId: (u as HookUser).id } });
      const b = await browser(t);
      const res = await b.post('/auth/login', { email: user.email, password: user.password });
      const token = res.body.pendingToken as string;
      expect(token).toEqual(expect.any(String));
      const asBearer = await t.http
        .get('/admin/api/plugins/sso/whoami')
        .set('Authorization', `Bearer ${token}`);
      expect(asBearer.body).toEqual({ userId: null, method: null });
      const asCookie = await t.http
        .get('/admin/api/plugins/sso/whoami')
        .set('Cookie', `svc_session=${token}`);
      expect(asCookie.body).toEqual({ userId: null, method: null });
    });
  });

  describe('completeLogin', () => {
    it('signs in: beforeLogin after the account check, afterAuthenticate, afterLogin; a 302 to next; the strategy audited', async () => {
      const user = await createUser(t);
      const since = await lastAuditId();
      const res = await callback({ user: user.id, next: '/admin/posts?x=1#top' });
      await expectSignedIn(res, '/admin/posts?x=1#top', user);
      expect(calls).toEqual([
        'sso.beforeLogin',
        'nocap.beforeLogin',
        'sso.afterAuthenticate',
        'sso.customizeClaims',
        'sso.afterLogin',
      ]);
      const [input, ctx] = seen.get('sso.beforeLogin')![0] as [Record<string, unknown>, PluginContext];
      expect(input).toMatchObject({ email: user.email, strategy: 'sso:oidc', request: expect.any(Object) });
      expect(ctx.slug).toBe('sso');
      expect(seen.get('sso.afterAuthenticate')![0][0]).toMatchObject({
        id: user.id,
        isActive: true,
        emailVerified: true,
      });
      expect(await auditSince(since)).toEqual([
        { event: 'login-succeeded', actor_id: user.id, metadata: { strategy: 'sso:oidc' } },
      ]);
      expect(await refreshRows(user.id)).toBe(1);
    });

    it.each([
      ['an absolute URL', 'https://evil.example/'],
      ['a protocol-relative URL', '//evil.example/'],
      ['a backslash path', '/\\evil.example/'],
      ['javascript:', 'javascript:alert(1)'],
      ['a relative path', 'admin/posts'],
      ['a path with a control character', '/admin\n/x'],
      ['nothing', undefined],
    ])('a next that is %s goes to /admin', async (_what, next) => {
      const user = await createUser(t);
      const res = await callback({ user: user.id, ...(next !== undefined && { next }) });
      await expectSignedIn(res, '/admin', user);
    });

    it.each([
      ['deactivated', { active: false }, 'deactivated'],
      ['unverified', { verified: false }, 'unverified'],
    ] as const)('a %s account is refused (302), audited, reaching no hook', async (_what, o, reason) => {
      const user = await createUser(t, o);
      const since = await lastAuditId();
      expectRefused(await callback({ user: user.id }));
      expect(calls).toEqual([]);
      expect(await auditSince(since)).toEqual([
        { event: 'login-failed', actor_id: null, metadata: { reason, strategy: 'sso:oidc' } },
      ]);
      expect(await refreshRows(user.id)).toBe(0);
    });

    it('a locked account, an unknown id and a non-uuid id are refused, reaching no hook', async () => {
      const user = await createUser(t);
      await t.db.query(`UPDATE users SET locked_until = now() + interval '10 minutes' WHERE id = $1`, [
        user.id,
      ]);
      const since = await lastAuditId();
      expectRefused(await callback({ user: user.id }));
      expectRefused(await callback({ user: '00000000-0000-4000-8000-000000000000' }));
      expectRefused(await callback({ user: 'not-a-uuid' }));
      expect(calls).toEqual([]);
      expect((await auditSince(since)).map((r) => r.metadata)).toEqual([
        { reason: 'locked', strategy: 'sso:oidc' },
        { reason: 'unknown-user', strategy: 'sso:oidc' },
        { reason: 'unknown-user', strategy: 'sso:oidc' },
      ]);
    });

    it.each([
      ['beforeLogin', 'sso.beforeLogin'],
      ['afterAuthenticate', 'sso.afterAuthenticate'],
      ['afterLogin', 'sso.afterLogin'],
    ])('a typed 4xx error from %s refuses (302) and leaves no session', async (_hook, key) => {
      const user = await createUser(t);
      act[key] = () => {
        throw new ServiceError('FORBIDDEN', 'Not from here');
      };
      const since = await lastAuditId();
      expectRefused(await callback({ user: user.id }));
      expect(calls[calls.length - 1]).toBe(key);
      expect(await auditSince(since)).toEqual([
        { event: 'login-failed', actor_id: null, metadata: { reason: 'blocked', strategy: 'sso:oidc' } },
      ]);
      expect(await refreshRows(user.id)).toBe(0);
    });

    it.each([
      ['a plain Error from beforeLogin', 'sso.beforeLogin', () => new Error('cl-cause-1')],
      [
        'a 5xx ServiceError from afterAuthenticate',
        'sso.afterAuthenticate',
        () => new ServiceError('SERVICE_UNAVAILABLE', 'cl-cause-2'),
      ],
      ['a plain Error from afterLogin', 'sso.afterLogin', () => new Error('cl-cause-3')],
    ])('%s is thrown to the route (500), no session', async (_what, key, make) => {
      const user = await createUser(t);
      const error = make();
      act[key] = () => {
        throw error;
      };
      const res = await callback({ user: user.id });
      expectProblem(res, 500, 'INTERNAL_ERROR');
      expect(JSON.stringify(res.body)).not.toContain(error.message);
      expect(t.logs.text()).toContain(error.message);
      expect(setCookies(res).svc_session).toBeUndefined();
      expect(await refreshRows(user.id)).toBe(0);
    });

    it('afterAuthenticate returning another account is thrown to the route (500)', async () => {
      const user = await createUser(t);
      const other = await createUser(t);
      act['sso.afterAuthenticate'] = (u) => ({ ...(u as HookUser), id: other.id });
      expectProblem(await callback({ user: user.id }), 500, 'INTERNAL_ERROR');
      expect(await refreshRows(user.id)).toBe(0);
      expect(await refreshRows(other.id)).toBe(0);
    });

    it('a challenge goes to /admin/login?resume=1 with the svc_pending cookie; the login resumes there', async () => {
      const user = await createUser(t);
      act['sso.afterAuthenticate'] = (u) => ({ challenge: { id: 'sso-otp', userId: (u as HookUser).id } });
      const res = await callback({ user: user.id, next: '/admin/posts' });
      const token = expectResume(res);
      expect(calls).toEqual(['sso.beforeLogin', 'nocap.beforeLogin', 'sso.afterAuthenticate']);
      const pending = await t.http.get('/admin/api/auth/pending').set('Cookie', `svc_pending=${token}`);
      expect(pending.status).toBe(200);
      expect(pending.body).toMatchObject({
        challengeType: 'sso-otp',
        uiHint: 'Enter the SSO code',
        attemptsRemaining: 5,
      });
      // The resumed page answers with the cookie alone.
      const since = await lastAuditId();
      const done = await withPendingCookie('/challenge/resolve', token, { response: 'otp-ok' });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ ok: true, user: { id: user.id }, token: expect.any(String) });
      expect(await auditSince(since)).toEqual([
        { event: 'login-succeeded', actor_id: user.id, metadata: { strategy: 'sso:oidc' } },
      ]);
    });

    it('a password that must be replaced goes to the resume page too, as set-initial-password', async () => {
      const user = await createUser(t);
      await t.db.query(`UPDATE users SET must_change_password = true WHERE id = $1`, [user.id]);
      const token = expectResume(await callback({ user: user.id }));
      const pending = await t.http.get('/admin/api/auth/pending').set('Cookie', `svc_pending=${token}`);
      expect(pending.body).toMatchObject({ challengeType: 'set-initial-password', uiHint: null });
      const set = await withPendingCookie('/set-initial-password', token, {
        newPassword: 'Another-Horse-77',
      });
      expect(set.status).toBe(200);
      expect(set.body.user.id).toBe(user.id);
      expect(await refreshRows(user.id)).toBe(1);
    });

    it('needs the auth.login capability (thrown to the route: 500)', async () => {
      const user = await createUser(t);
      const since = await lastAuditId();
      const res = await callback({ user: user.id, strategy: 'nocap:oidc' }, 'nocap');
      expectProblem(res, 500, 'INTERNAL_ERROR');
      expect(t.logs.text()).toContain('without the capability auth.login');
      expect(calls).toEqual([]);
      expect(await auditSince(since)).toEqual([]);
      expect(await refreshRows(user.id)).toBe(0);
    });

    it.each([['oidc'], ['sso:'], ['nocap:oidc'], ['ssox:oidc'], ['password'], ['']])(
      'a strategy named %j is thrown to the route (500)',
      async (strategy) => {
        const user = await createUser(t);
        const since = await lastAuditId();
        const res = await callback({ user: user.id, strategy });
        expectProblem(res, 500, 'INTERNAL_ERROR');
        expect(calls).toEqual([]);
        expect(await auditSince(since)).toEqual([]);
        expect(await refreshRows(user.id)).toBe(0);
      },
    );
  });

  describe('boot refusals', () => {
    const plugin = (o: Record<string, unknown>) => ({
      slug: 'good',
      version: '1.0.0',
      minServiceVersion: '0.1.0',
      ...o,
    });
    const forRoot = (plugins: unknown[]) => () =>
      SvcModule.forRoot({
        secret: TEST_SECRET,
        database: { url: 'postgres://nobody@127.0.0.1:1/nothing', autoMigrate: false },
        config: { plugins },
        publicUrl: 'http://localhost:3000',
        standalone: true,
        production: false,
      });

    it('names every problem in one message', () => {
      const problems = [
        plugin({ slug: 'Bad_Slug' }),
        plugin({ slug: 'twin' }),
        plugin({ slug: 'twin' }),
        plugin({ slug: 'badver', version: 'one' }),
        plugin({ slug: 'future', minServiceVersion: '99.0.0' }),
        plugin({ slug: 'caps', capabilities: ['auth.login', 'root'] }),
        plugin({ slug: 'hooky', hooks: { beforeLogin: 'nope' } }),
        plugin({ slug: 'ch-one', challenges: [{ id: 'otp', resolve: () => ({ ok: true }) }] }),
        plugin({ slug: 'ch-two', challenges: [{ id: 'otp', resolve: () => ({ ok: true }) }] }),
      ];
      let message = '';
      try {
        forRoot(problems)();
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(/^config\.plugins is not valid/);
      expect(message).toContain('plugin "Bad_Slug": slug must match');
      expect(message).toContain('plugin "twin": slug is used by another plugin');
      expect(message).toContain('plugin "badver": version must be a semantic version');
      expect(message).toContain(`plugin "future": needs svc 99.0.0 or later; this is ${SERVICE_VERSION}`);
      expect(message).toContain('plugin "caps": unknown capability "root"');
      expect(message).toContain('plugin "hooky": hook "beforeLogin" must be a function');
      expect(message).toContain('plugin "ch-two": challenge id "otp" is used already');
      expect(message.split('\n- ')).toHaveLength(8);
    });

    it.each([
      ['a bad slug', plugin({ slug: 'x' }), /slug must match/],
      ['a bad version', plugin({ version: '1.0' }), /version must be a semantic version/],
      [
        'a newer minServiceVersion',
        plugin({ minServiceVersion: '0.2.0' }),
        /plugin "good": needs svc 0\.2\.0 or later/,
      ],
      ['an unknown capability', plugin({ capabilities: ['auth.admin'] }), /unknown capability "auth.admin"/],
      [
        'a hook that is not a function',
        plugin({ hooks: { afterLogin: 42 } }),
        /hook "afterLogin" must be a function/,
      ],
      [
        'a challenge id used twice',
        plugin({
          challenges: [
            { id: 'a', resolve: () => ({ ok: true }) },
            { id: 'a', resolve: () => ({ ok: true }) },
          ],
        }),
        /challenge id "a" is used already/,
      ],
      [
        'the core challenge id',
        plugin({ challenges: [{ id: 'set-initial-password', resolve: () => ({ ok: true }) }] }),
        /is used already/,
      ],
    ])('refuses %s', (_what, p, message) => {
      expect(forRoot([p])).toThrow(message);
    });

    it('createTestApp (the whole boot) is refused too, naming the plugin', async () => {
      await expect(
        createTestApp({
          database: t.database,
          config: { plugins: [plugin({ slug: 'later', minServiceVersion: '1.0.0' })] },
        }),
      ).rejects.toThrow(/plugin "later": needs svc 1\.0\.0 or later/);
    });

    it("the service version is package.json's", () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      expect(SERVICE_VERSION).toBe((require('../../package.json') as { version: string }).version);
    });
  });
});
