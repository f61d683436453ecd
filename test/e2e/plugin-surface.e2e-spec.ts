import type request from 'supertest';
import { ServiceError } from '../../src/common/errors/service-error';
import type {
  HookUser,
  PluginContext,
  PluginDefinition,
  PluginHooks,
} from '../../src/modules/plugins/plugin.types';
import {
  browser,
  Browser,
  cookieValue,
  createUser,
  CreatedUser,
  decodeJwt,
  heldSession,
  PASSWORD,
  refreshWithToken,
  setCookies,
} from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * The plugin sign-in surface through HTTP (SPEC 6, CONTRACTS 3.3 and 10): the hooks of every
 * sign-in path in plugin order with the error rules, challenges and their pending tokens, the
 * login-page UI, `customizeClaims`, app-level `auth.strategies` and the login floor. Two test
 * plugins record every hook call in `calls`; a test makes a hook act through `act`.
 */

type Res = request.Response;
type Fn = (...args: unknown[]) => unknown;

const PROBLEM = /^application\/problem\+json/;
const GENERIC_500 = 'The sign-in could not be completed; try again later';
const ALPHA_HINT = 'Enter the alpha code';
const ALL_HOOKS = [
  'beforeLogin',
  'afterAuthenticate',
  'afterLogin',
  'beforeRegister',
  'afterRegister',
  'beforeLogout',
  'afterLogout',
  'determineUser',
  'customizeClaims',
] as const;

/** Every hook and challenge call, as `<slug>.<hook>`, in order. */
const calls: string[] = [];
/** The arguments of each call, by `<slug>.<hook>`. */
const seen = new Map<string, unknown[][]>();
/** What a hook does besides being recorded (reset before each test). */
const act: Partial<Record<string, Fn>> = {};
/** What the app-level strategy `ldap` answers (reset before each test). */
let ldap: Fn | null = null;

function recorder(key: string): Fn {
  return (...args: unknown[]) => {
    calls.push(key);
    const list = seen.get(key) ?? [];
    list.push(args);
    seen.set(key, list);
    return act[key]?.(...args);
  };
}

function recordedHooks(slug: string, names: readonly (keyof PluginHooks)[]): PluginHooks {
  return Object.fromEntries(names.map((n) => [n, recorder(`${slug}.${n}`)])) as PluginHooks;
}

const argsOf = (key: string, call = 0): unknown[] => seen.get(key)?.[call] ?? [];

const alpha: PluginDefinition = {
  slug: 'alpha',
  version: '1.0.0',
  minServiceVersion: '0.1.0',
  hooks: recordedHooks('alpha', ALL_HOOKS),
  challenges: [
    {
      id: 'alpha-code',
      uiHint: ALPHA_HINT,
      resolve: (input, ctx) => {
        const answer = recorder('alpha.resolve')(input, ctx);
        if (answer !== undefined) {
          return answer as { ok: true };
        }
        return (input.response as { code?: unknown } | null)?.code === '123456'
          ? { ok: true }
          : { ok: false, reason: 'wrong code' };
      },
    },
  ],
  ui: {
    providers: [
      { strategy: 'alpha:sso', label: 'Alpha SSO', href: '/admin/api/plugins/alpha/start' },
      { strategy: 'alpha:widget', label: 'Alpha widget', component: 'AlphaButton' },
      { strategy: 'alpha:nolabel', label: '', href: '/x' } as never,
      { strategy: 'alpha:abs', label: 'Absolute', href: 'https://evil.example/x' },
      { strategy: 'alpha:proto', label: 'Protocol-relative', href: '//evil.example/x' },
      { strategy: 'alpha:backslash', label: 'Backslash', href: '/\\evil.example/x' },
      { strategy: 'alpha:js', label: 'Script', href: 'javascript:alert(1)' },
      { strategy: 'alpha:nothing', label: 'Nothing' },
      { label: 'No strategy', href: '/y' } as never,
    ],
    challengeViews: { 'alpha-code': { kind: 'code', digits: 6 } },
    slots: { 'login.footer': { text: 'alpha' }, 'login.header': { text: 'alpha header' } },
  },
};

const beta: PluginDefinition = {
  slug: 'beta',
  version: '2.0.0',
  minServiceVersion: '0.1.0',
  hooks: recordedHooks('beta', ['beforeLogin', 'afterAuthenticate', 'afterLogin', 'customizeClaims']),
  challenges: [
    {
      id: 'beta-code',
      resolve: ({ response }) => (response === 'beta-ok' ? { ok: true } : { ok: false }),
    },
  ],
  ui: {
    providers: [{ strategy: 'beta:sso', label: 'Beta SSO', href: '/admin/api/plugins/beta/start?x=1' }],
    challengeViews: { 'beta-code': { kind: 'text' } },
    slots: { 'login.footer': { text: 'beta' } },
  },
};

describe('plugin surface: hooks, challenges, claims, strategies', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        plugins: [alpha, beta],
        users: {
          fields: [
            { name: 'department', type: 'text' },
            { name: 'team', type: 'text' },
          ],
        },
        auth: {
          strategies: [
            {
              name: 'ldap',
              authenticate: (input) => (ldap ? (ldap(input) as { userId: string } | null) : null),
            },
          ],
        },
      },
    });
  });
  afterAll(() => t.close());

  beforeEach(() => {
    calls.length = 0;
    seen.clear();
    for (const key of Object.keys(act)) {
      delete act[key];
    }
    ldap = null;
  });

  const pauseAtAlpha = () => {
    act['alpha.afterAuthenticate'] = (u) => ({ challenge: { id: 'alpha-code', userId: (u as HookUser).id } });
  };

  async function login(
    user: { email: string; password: string },
    b?: Browser,
  ): Promise<{ b: Browser; res: Res }> {
    const br = b ?? (await browser(t));
    const res = await br.post('/auth/login', { email: user.email, password: user.password });
    return { b: br, res };
  }

  function expectProblem(res: Res, status: number, code: string): Record<string, unknown> | undefined {
    expect({ status: res.status, body: res.body as unknown }).toMatchObject({
      status,
      body: { error: { code } },
    });
    expect(res.headers['content-type']).toMatch(PROBLEM);
    return (res.body as { error: { data?: Record<string, unknown> } }).error.data;
  }

  function expectGeneric500(res: Res, cause: string): void {
    expectProblem(res, 500, 'INTERNAL_ERROR');
    expect(res.body.error.message).toBe(GENERIC_500);
    expect(JSON.stringify(res.body)).not.toContain(cause);
    expect(t.logs.text()).toContain(cause);
  }

  function expectSignedIn(res: Res, user: CreatedUser): void {
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      message: expect.any(String),
      user: { id: user.id, email: user.email },
      token: expect.any(String),
      exp: expect.any(Number),
    });
    const cookies = setCookies(res);
    expect(cookieValue(cookies.svc_session)).toBe(res.body.token);
    expect(cookieValue(cookies.svc_refresh)).toEqual(expect.any(String));
  }

  /** A paused login: the exact challenge body, the `svc_pending` cookie, and no session at all. */
  function expectPaused(res: Res, challengeType: string, uiHint: string | null): string {
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'challenge',
      challengeType,
      pendingToken: expect.any(String),
      uiHint,
    });
    const cookies = setCookies(res);
    expect(cookies.svc_session).toBeUndefined();
    expect(cookies.svc_refresh).toBeUndefined();
    const pending = cookies.svc_pending;
    expect(cookieValue(pending)).toBe(res.body.pendingToken);
    expect(pending).toMatch(/; HttpOnly/i);
    // Set for the auth routes and again for the plugin routes (same value, CONTRACTS 3.2 + 13.2.3).
    expect(
      ((res.headers['set-cookie'] as unknown as string[]) ?? [])
        .filter((c) => c.startsWith('svc_pending='))
        .map((c) => /; Path=([^;]+)/i.exec(c)?.[1]),
    ).toEqual(['/admin/api/auth', '/admin/api/plugins']);
    return res.body.pendingToken as string;
  }

  const refreshRows = async (userId: string): Promise<number> =>
    (
      (await t.db.query(`SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1`, [
        userId,
      ])) as Array<{
        n: number;
      }>
    )[0].n;

  const auditRows = (
    event: string,
    userId?: string,
  ): Promise<Array<{ metadata: Record<string, unknown> }>> =>
    userId
      ? t.db.query(`SELECT metadata FROM audit_log WHERE event = $1 AND actor_id = $2 ORDER BY id`, [
          event,
          userId,
        ])
      : t.db.query(`SELECT metadata FROM audit_log WHERE event = $1 ORDER BY id`, [event]);

  const lastAuditId = async (): Promise<number> =>
    ((await t.db.query(`SELECT coalesce(max(id), 0)::int AS id FROM audit_log`)) as Array<{ id: number }>)[0]
      .id;

  const failedSince = (id: number): Promise<Array<{ metadata: Record<string, unknown> }>> =>
    t.db.query(`SELECT metadata FROM audit_log WHERE event = 'login-failed' AND id > $1 ORDER BY id`, [id]);

  const resolve = (b: Browser, body: object) => b.post('/auth/challenge/resolve', body);

  describe('the login hooks', () => {
    it('a password login runs beforeLogin, afterAuthenticate, customizeClaims and afterLogin in plugin order', async () => {
      const user = await createUser(t, { name: 'Order Test' });
      const { res } = await login(user);
      expectSignedIn(res, user);
      expect(calls).toEqual([
        'alpha.beforeLogin',
        'beta.beforeLogin',
        'alpha.afterAuthenticate',
        'beta.afterAuthenticate',
        'alpha.customizeClaims',
        'beta.customizeClaims',
        'alpha.afterLogin',
        'beta.afterLogin',
      ]);
      const [input, ctx] = argsOf('alpha.beforeLogin') as [Record<string, unknown>, PluginContext];
      expect(input).toMatchObject({ email: user.email, strategy: 'password' });
      expect((input.request as { headers?: unknown }).headers).toEqual(expect.any(Object));
      expect(ctx.slug).toBe('alpha');
      expect((argsOf('beta.beforeLogin')[1] as PluginContext).slug).toBe('beta');
      const hookUser = argsOf('alpha.afterAuthenticate')[0] as HookUser;
      expect(hookUser).toMatchObject({
        id: user.id,
        email: user.email,
        name: 'Order Test',
        roleIds: [],
        isActive: true,
        emailVerified: true,
      });
      expect(JSON.stringify(hookUser)).not.toMatch(/password|hash/i);
      expect(argsOf('alpha.afterLogin')[0]).toMatchObject({
        id: user.id,
        isActive: true,
        emailVerified: true,
      });
      expect(await auditRows('login-succeeded', user.id)).toEqual([{ metadata: { strategy: 'password' } }]);
    });

    it('a wrong password reaches beforeLogin only', async () => {
      const user = await createUser(t);
      const { res } = await login({ email: user.email, password: 'Wrong-Password-1' });
      expectProblem(res, 401, 'AUTH_INVALID_CREDENTIALS');
      expect(calls).toEqual(['alpha.beforeLogin', 'beta.beforeLogin']);
    });

    it('beforeLogin blocks with a typed 4xx error, which keeps its code, before any strategy', async () => {
      const user = await createUser(t);
      act['alpha.beforeLogin'] = () => {
        throw new ServiceError('FORBIDDEN', 'Sign-in is closed on weekends');
      };
      ldap = () => {
        throw new Error('the strategy must not run');
      };
      const { res } = await login({ email: user.email, password: 'Wrong-Password-1' });
      expectProblem(res, 403, 'FORBIDDEN');
      expect(res.body.error.message).toBe('Sign-in is closed on weekends');
      expect(calls).toEqual(['alpha.beforeLogin']);
      // The password strategy never ran: the wrong password was not counted.
      const [row] = await t.db.query(`SELECT failed_login_count FROM users WHERE id = $1`, [user.id]);
      expect(row.failed_login_count).toBe(0);
    });

    it.each([
      [
        'a plain Error',
        'alpha-plain-cause-1',
        (cause: string) => {
          throw new Error(cause);
        },
      ],
      [
        'a 5xx ServiceError',
        'alpha-5xx-cause-2',
        (cause: string) => {
          throw new ServiceError('SERVICE_UNAVAILABLE', cause);
        },
      ],
      ['a rejected promise', 'alpha-rejected-cause-3', (cause: string) => Promise.reject(new Error(cause))],
    ])(
      'beforeLogin throwing %s answers 500 INTERNAL_ERROR, the cause only in the log',
      async (_what, cause, fail) => {
        const user = await createUser(t);
        act['beta.beforeLogin'] = () => fail(cause);
        const { res } = await login(user);
        expectGeneric500(res, cause);
        expect(setCookies(res).svc_session).toBeUndefined();
        expect(calls).toEqual(['alpha.beforeLogin', 'beta.beforeLogin']);
        expect(await refreshRows(user.id)).toBe(0);
      },
    );

    it('afterAuthenticate: a user with the same id replaces it for later hooks', async () => {
      const user = await createUser(t, { name: 'Original' });
      act['alpha.afterAuthenticate'] = (u) => ({ ...(u as HookUser), name: 'Replaced', extra: 'x' });
      const { res } = await login(user);
      expectSignedIn(res, user);
      expect(argsOf('beta.afterAuthenticate')[0]).toMatchObject({
        id: user.id,
        name: 'Replaced',
        extra: 'x',
      });
    });

    it('afterAuthenticate: a user with another id fails the login (500) and leaves no session', async () => {
      const user = await createUser(t);
      const other = await createUser(t);
      act['alpha.afterAuthenticate'] = (u) => ({ ...(u as HookUser), id: other.id });
      const { res } = await login(user);
      expectProblem(res, 500, 'INTERNAL_ERROR');
      expect(res.body.error.message).toBe(GENERIC_500);
      expect(setCookies(res).svc_session).toBeUndefined();
      expect(calls).toEqual(['alpha.beforeLogin', 'beta.beforeLogin', 'alpha.afterAuthenticate']);
      expect(await refreshRows(user.id)).toBe(0);
      expect(await refreshRows(other.id)).toBe(0);
    });

    it('afterAuthenticate: a challenge that no plugin defines, or for another user, fails the login (500)', async () => {
      const user = await createUser(t);
      const other = await createUser(t);
      act['alpha.afterAuthenticate'] = () => ({ challenge: { id: 'no-such-challenge', userId: user.id } });
      expectProblem((await login(user)).res, 500, 'INTERNAL_ERROR');
      act['alpha.afterAuthenticate'] = () => ({ challenge: { id: 'alpha-code', userId: other.id } });
      expectProblem((await login(user)).res, 500, 'INTERNAL_ERROR');
      const [{ n }] = await t.db.query(
        `SELECT count(*)::int AS n FROM pending_logins WHERE user_id = ANY($1)`,
        [[user.id, other.id]],
      );
      expect(n).toBe(0);
    });

    it('afterAuthenticate: a typed 4xx error keeps its code', async () => {
      const user = await createUser(t);
      act['beta.afterAuthenticate'] = () => {
        throw new ServiceError('RATE_LIMITED', 'Slow down');
      };
      const { res } = await login(user);
      expectProblem(res, 429, 'RATE_LIMITED');
      expect(await refreshRows(user.id)).toBe(0);
    });

    it('the first challenge pauses the login: later afterAuthenticate hooks and afterLogin do not run', async () => {
      const user = await createUser(t);
      pauseAtAlpha();
      act['beta.afterAuthenticate'] = (u) => ({ challenge: { id: 'beta-code', userId: (u as HookUser).id } });
      const { res } = await login(user);
      expectPaused(res, 'alpha-code', ALPHA_HINT);
      expect(calls).toEqual(['alpha.beforeLogin', 'beta.beforeLogin', 'alpha.afterAuthenticate']);
      expect(await refreshRows(user.id)).toBe(0);
      expect(await auditRows('login-succeeded', user.id)).toEqual([]);
    });

    it('a challenge without a uiHint pauses with uiHint null', async () => {
      const user = await createUser(t);
      act['beta.afterAuthenticate'] = (u) => ({ challenge: { id: 'beta-code', userId: (u as HookUser).id } });
      const { b, res } = await login(user);
      const token = expectPaused(res, 'beta-code', null);
      const pending = await b.agent.get('/admin/api/auth/pending');
      expect(pending.body).toMatchObject({ challengeType: 'beta-code', uiHint: null });
      const ok = await resolve(b, { pendingToken: token, response: 'beta-ok' });
      expectSignedIn(ok, user);
      expect(ok.body.ok).toBe(true);
    });

    it.each([
      ['a plain Error', () => new Error('after-login-cause-4'), 500, 'INTERNAL_ERROR'],
      ['a typed 4xx error', () => new ServiceError('FORBIDDEN', 'after-login-refusal'), 403, 'FORBIDDEN'],
    ] as const)(
      'afterLogin throwing %s fails the login: no session, no refresh row, no success audit row',
      async (_what, make, status, code) => {
        const user = await createUser(t);
        act['beta.afterLogin'] = () => {
          throw make();
        };
        const { res } = await login(user);
        expectProblem(res, status, code);
        const cookies = setCookies(res);
        expect(cookies.svc_session).toBeUndefined();
        expect(cookies.svc_refresh).toBeUndefined();
        expect(calls.slice(-2)).toEqual(['alpha.afterLogin', 'beta.afterLogin']);
        expect(await refreshRows(user.id)).toBe(0);
        expect(await auditRows('login-succeeded', user.id)).toEqual([]);
        const [row] = await t.db.query(`SELECT last_login_at FROM users WHERE id = $1`, [user.id]);
        expect(row.last_login_at).toBeNull();
      },
    );

    it('afterLogin runs after the session is minted (its claims built) and before the answer', async () => {
      const user = await createUser(t);
      let refreshAtAfterLogin: number | null = null;
      act['alpha.afterLogin'] = async (_u, ctx) => {
        // Another connection: the minting transaction has not committed yet.
        const [{ n }] = await (ctx as PluginContext).db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1`,
          [user.id],
        );
        refreshAtAfterLogin = n;
      };
      const { res } = await login(user);
      expectSignedIn(res, user);
      expect(calls.indexOf('beta.customizeClaims')).toBeLessThan(calls.indexOf('alpha.afterLogin'));
      expect(refreshAtAfterLogin).toBe(0);
      expect(await refreshRows(user.id)).toBe(1);
    });
  });

  describe('challenges', () => {
    it('a right answer (token in the body) signs in; the token is then used up', async () => {
      const user = await createUser(t);
      pauseAtAlpha();
      const { b, res } = await login(user);
      const token = expectPaused(res, 'alpha-code', ALPHA_HINT);
      calls.length = 0;
      const ok = await resolve(b, { pendingToken: token, response: { code: '123456', extra: [1] } });
      expectSignedIn(ok, user);
      expect(ok.body).toEqual({
        ok: true,
        message: expect.any(String),
        user: expect.objectContaining({ id: user.id }),
        token: expect.any(String),
        exp: expect.any(Number),
      });
      expect(setCookies(ok).svc_pending).toMatch(/^svc_pending=;/);
      expect(argsOf('alpha.resolve')[0]).toEqual({
        userId: user.id,
        response: { code: '123456', extra: [1] },
      });
      expect((argsOf('alpha.resolve')[1] as PluginContext).slug).toBe('alpha');
      // The login resumes with what follows the challenge: the session and afterLogin, no new afterAuthenticate.
      expect(calls).toEqual([
        'alpha.resolve',
        'alpha.customizeClaims',
        'beta.customizeClaims',
        'alpha.afterLogin',
        'beta.afterLogin',
      ]);
      expect(await auditRows('login-succeeded', user.id)).toEqual([{ metadata: { strategy: 'password' } }]);
      const again = await resolve(b, { pendingToken: token, response: { code: '123456' } });
      const data = expectProblem(again, 401, 'AUTH_INVALID_CREDENTIALS');
      expect(data?.pendingToken).toBeUndefined();
      expect(await refreshRows(user.id)).toBe(1);
    });

    it('the token comes from the svc_pending cookie when the body has none', async () => {
      const user = await createUser(t);
      pauseAtAlpha();
      const { b, res } = await login(user);
      expectPaused(res, 'alpha-code', ALPHA_HINT);
      const ok = await resolve(b, { response: { code: '123456' } });
      expectSignedIn(ok, user);
    });

    it('GET /auth/pending describes the step from the cookie, or answers 204', async () => {
      const user = await createUser(t);
      pauseAtAlpha();
      const { b, res } = await login(user);
      expectPaused(res, 'alpha-code', ALPHA_HINT);
      const before = Date.now();
      const described = await b.agent.get('/admin/api/auth/pending');
      expect(described.status).toBe(200);
      expect(described.body).toEqual({
        challengeType: 'alpha-code',
        uiHint: ALPHA_HINT,
        attemptsRemaining: 5,
        expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      });
      const expires = Date.parse(described.body.expiresAt as string);
      expect(expires - before).toBeGreaterThan(9 * 60 * 1000);
      expect(expires - before).toBeLessThanOrEqual(10 * 60 * 1000 + 1000);
      expect(JSON.stringify(described.body)).not.toContain(res.body.pendingToken as string);
      // A wrong answer: the agent keeps the new token from the cookie.
      await resolve(b, { response: { code: '000000' } });
      expect((await b.agent.get('/admin/api/auth/pending')).body.attemptsRemaining).toBe(4);
      expect((await t.http.get('/admin/api/auth/pending')).status).toBe(204);
      const garbage = await t.http.get('/admin/api/auth/pending').set('Cookie', 'svc_pending=not-a-token');
      expect(garbage.status).toBe(204);
    });

    it('wrong answers: a new token each time, the old one spent; the fifth ends the flow without locking the account', async () => {
      const user = await createUser(t);
      pauseAtAlpha();
      const { b, res } = await login(user);
      let token = expectPaused(res, 'alpha-code', ALPHA_HINT);
      const spent: string[] = [];
      for (const remaining of [4, 3, 2, 1]) {
        const wrong = await resolve(b, { pendingToken: token, response: { code: '999999' } });
        const data = expectProblem(wrong, 401, 'AUTH_INVALID_CREDENTIALS');
        expect(data).toEqual({ pendingToken: expect.any(String), attemptsRemaining: remaining });
        expect(data!.pendingToken).not.toBe(token);
        // The new token replaces the spent one in the cookie too.
        expect(cookieValue(setCookies(wrong).svc_pending)).toBe(data!.pendingToken);
        spent.push(token);
        token = data!.pendingToken as string;
        // The spent token is refused without a new one, even with the right answer.
        const replay = await resolve(b, {
          pendingToken: spent[spent.length - 1],
          response: { code: '123456' },
        });
        expect(expectProblem(replay, 401, 'AUTH_INVALID_CREDENTIALS')?.pendingToken).toBeUndefined();
      }
      const fifth = await resolve(b, { pendingToken: token, response: { code: '999999' } });
      expect(expectProblem(fifth, 401, 'AUTH_INVALID_CREDENTIALS')).toEqual({ attemptsRemaining: 0 });
      expect(setCookies(fifth).svc_pending).toMatch(/^svc_pending=;/);
      // The flow is over: the last token is spent too, and nothing is pending.
      const after = await resolve(b, { pendingToken: token, response: { code: '123456' } });
      expect(expectProblem(after, 401, 'AUTH_INVALID_CREDENTIALS')?.pendingToken).toBeUndefined();
      expect((await t.http.get('/admin/api/auth/pending').set('Cookie', `svc_pending=${token}`)).status).toBe(
        204,
      );
      expect(await refreshRows(user.id)).toBe(0);
      expect(await auditRows('login-failed')).toEqual(
        expect.arrayContaining([
          { metadata: { reason: 'challenge-failed', strategy: 'password', challenge: 'alpha-code' } },
        ]),
      );
      // The account is not locked: a fresh password login pauses again and a right answer signs in.
      const [row] = await t.db.query(`SELECT locked_until, failed_login_count FROM users WHERE id = $1`, [
        user.id,
      ]);
      expect(row).toEqual({ locked_until: null, failed_login_count: 0 });
      const fresh = await login(user);
      const freshToken = expectPaused(fresh.res, 'alpha-code', ALPHA_HINT);
      expectSignedIn(
        await resolve(fresh.b, { pendingToken: freshToken, response: { code: '123456' } }),
        user,
      );
    });

    it('an expired token is refused without a new one', async () => {
      const user = await createUser(t);
      pauseAtAlpha();
      const { b, res } = await login(user);
      const token = expectPaused(res, 'alpha-code', ALPHA_HINT);
      await t.db.query(
        `UPDATE pending_logins SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
        [user.id],
      );
      expect((await b.agent.get('/admin/api/auth/pending')).status).toBe(204);
      const late = await resolve(b, { pendingToken: token, response: { code: '123456' } });
      expect(expectProblem(late, 401, 'AUTH_INVALID_CREDENTIALS')?.pendingToken).toBeUndefined();
      const wrong = await resolve(b, { pendingToken: token, response: { code: '000000' } });
      expect(expectProblem(wrong, 401, 'AUTH_INVALID_CREDENTIALS')?.pendingToken).toBeUndefined();
      expect(await refreshRows(user.id)).toBe(0);
    });

    it('two answers racing with one token: exactly one counts (3 rounds)', async () => {
      for (let round = 1; round <= 3; round++) {
        const user = await createUser(t);
        pauseAtAlpha();
        const { b, res } = await login(user);
        const token = expectPaused(res, 'alpha-code', ALPHA_HINT);
        const right = await Promise.all(
          [1, 2, 3].map(() => resolve(b, { pendingToken: token, response: { code: '123456' } })),
        );
        expect({ round, statuses: right.map((r) => r.status).sort() }).toEqual({
          round,
          statuses: [200, 401, 401],
        });
        expect({ round, rows: await refreshRows(user.id) }).toEqual({ round, rows: 1 });
        // Wrong answers racing: one new token between them.
        const again = await login(user);
        const second = expectPaused(again.res, 'alpha-code', ALPHA_HINT);
        const wrong = await Promise.all(
          [1, 2, 3].map(() => resolve(again.b, { pendingToken: second, response: { code: '000000' } })),
        );
        const renewed = wrong.filter((r) => typeof r.body.error?.data?.pendingToken === 'string');
        expect({ round, statuses: wrong.map((r) => r.status), renewed: renewed.length }).toEqual({
          round,
          statuses: [401, 401, 401],
          renewed: 1,
        });
        expect({ round, remaining: renewed[0].body.error.data.attemptsRemaining }).toEqual({
          round,
          remaining: 4,
        });
      }
    });

    it.each([
      ['deactivated', `UPDATE users SET is_active = false WHERE id = $1`],
      ['given a new password (its counter moved)', `UPDATE users SET ver = ver + 1 WHERE id = $1`],
    ])('an account %s while the login is paused is refused at the right answer', async (_what, sql) => {
      const user = await createUser(t);
      pauseAtAlpha();
      const { b, res } = await login(user);
      const token = expectPaused(res, 'alpha-code', ALPHA_HINT);
      await t.db.query(sql, [user.id]);
      calls.length = 0;
      const late = await resolve(b, { pendingToken: token, response: { code: '123456' } });
      expect(expectProblem(late, 401, 'AUTH_INVALID_CREDENTIALS')?.pendingToken).toBeUndefined();
      expect(setCookies(late).svc_session).toBeUndefined();
      expect(calls).not.toContain('alpha.afterLogin');
      expect(await refreshRows(user.id)).toBe(0);
    });

    it('an account deactivated while afterAuthenticate runs is refused (the gate is checked again)', async () => {
      const user = await createUser(t);
      act['alpha.afterAuthenticate'] = async () => {
        await t.db.query(`UPDATE users SET is_active = false WHERE id = $1`, [user.id]);
      };
      const { res } = await login(user);
      expectProblem(res, 401, 'AUTH_INVALID_CREDENTIALS');
      expect(calls).not.toContain('alpha.afterLogin');
      expect(await refreshRows(user.id)).toBe(0);
    });

    it('a garbage or missing token is refused (401) without reaching resolve', async () => {
      const b = await browser(t);
      expectProblem(
        await resolve(b, { pendingToken: 'nope', response: {} }),
        401,
        'AUTH_INVALID_CREDENTIALS',
      );
      expectProblem(await resolve(b, { response: {} }), 401, 'AUTH_INVALID_CREDENTIALS');
      expect(calls).toEqual([]);
    });

    it('a resolve that throws follows the error rules', async () => {
      const user = await createUser(t);
      pauseAtAlpha();
      act['alpha.resolve'] = () => {
        throw new Error('resolve-cause-5');
      };
      let { b, res } = await login(user);
      expectGeneric500(
        await resolve(b, { pendingToken: expectPaused(res, 'alpha-code', ALPHA_HINT), response: {} }),
        'resolve-cause-5',
      );
      act['alpha.resolve'] = () => {
        throw new ServiceError('INVALID_INPUT', 'That is not a code');
      };
      ({ b, res } = await login(user));
      const typed = await resolve(b, {
        pendingToken: expectPaused(res, 'alpha-code', ALPHA_HINT),
        response: {},
      });
      expectProblem(typed, 422, 'INVALID_INPUT');
      expect(await refreshRows(user.id)).toBe(0);
    });

    it('a pending token is never a session', async () => {
      const user = await createUser(t);
      pauseAtAlpha();
      const { b, res } = await login(user);
      const token = expectPaused(res, 'alpha-code', ALPHA_HINT);
      expectProblem(
        await t.http.get('/admin/api/me').set('Authorization', `Bearer ${token}`),
        401,
        'AUTH_REQUIRED',
      );
      expectProblem(
        await t.http.get('/admin/api/me').set('Cookie', `svc_session=${token}`),
        401,
        'AUTH_REQUIRED',
      );
      expectProblem(
        await t.http.get('/admin/api/auth/session').set('Cookie', `svc_session=${token}`),
        401,
        'AUTH_REQUIRED',
      );
      // The forced-password-change route refuses a plugin challenge's token, and does not use it up.
      const set = await b.post('/auth/set-initial-password', {
        pendingToken: token,
        newPassword: 'Another-Horse-77',
      });
      expectProblem(set, 401, 'AUTH_INVALID_CREDENTIALS');
      const [row] = await t.db.query(`SELECT ver FROM users WHERE id = $1`, [user.id]);
      expect(row.ver).toBe(1);
      const ok = await resolve(b, { pendingToken: token, response: { code: '123456' } });
      expectSignedIn(ok, user);
      expect((await login(user)).res.status).toBe(200); // the password is still the old one
    });

    it('a forced password change follows a right answer; its token is refused by the challenge route', async () => {
      const user = await createUser(t);
      await t.db.query(`UPDATE users SET must_change_password = true WHERE id = $1`, [user.id]);
      pauseAtAlpha();
      const { b, res } = await login(user);
      const token = expectPaused(res, 'alpha-code', ALPHA_HINT);
      calls.length = 0;
      const right = await resolve(b, { pendingToken: token, response: { code: '123456' } });
      expect(right.status).toBe(200);
      expect(right.body).toEqual({
        ok: true,
        continues: true,
        status: 'challenge',
        challengeType: 'set-initial-password',
        pendingToken: expect.any(String),
        uiHint: null,
      });
      expect(setCookies(right).svc_session).toBeUndefined();
      expect(cookieValue(setCookies(right).svc_pending)).toBe(right.body.pendingToken);
      expect(calls).toEqual(['alpha.resolve']);
      const next = right.body.pendingToken as string;
      expectProblem(
        await t.http.get('/admin/api/me').set('Authorization', `Bearer ${next}`),
        401,
        'AUTH_REQUIRED',
      );
      // Not a plugin challenge: refused by the resolve route, and not used up by it.
      const wrongRoute = await resolve(b, { pendingToken: next, response: { code: '123456' } });
      expect(expectProblem(wrongRoute, 401, 'AUTH_INVALID_CREDENTIALS')?.pendingToken).toBeUndefined();
      const described = await t.http.get('/admin/api/auth/pending').set('Cookie', `svc_pending=${next}`);
      expect(described.body).toMatchObject({
        challengeType: 'set-initial-password',
        uiHint: null,
        attemptsRemaining: 5,
      });
      const set = await b.post('/auth/set-initial-password', {
        pendingToken: next,
        newPassword: 'Another-Horse-77',
      });
      expectSignedIn(set, user);
      expect(calls).toContain('alpha.afterLogin');
      expect(await auditRows('login-succeeded', user.id)).toEqual([{ metadata: { strategy: 'password' } }]);
    });

    it('without a plugin challenge, a forced password change pauses the login itself', async () => {
      const user = await createUser(t);
      await t.db.query(`UPDATE users SET must_change_password = true WHERE id = $1`, [user.id]);
      const { res } = await login(user);
      expectPaused(res, 'set-initial-password', null);
      expect(calls).toEqual([
        'alpha.beforeLogin',
        'beta.beforeLogin',
        'alpha.afterAuthenticate',
        'beta.afterAuthenticate',
      ]);
    });
  });

  describe('app-level strategies (auth.strategies)', () => {
    it('a strategy that names a user signs it in through the hooks, its name audited', async () => {
      const user = await createUser(t);
      ldap = (input) => {
        const { email, password, request } = input as { email: string; password: string; request: unknown };
        return email === user.email && password === 'ldap-secret' && request ? { userId: user.id } : null;
      };
      const { res } = await login({ email: user.email, password: 'ldap-secret' });
      expectSignedIn(res, user);
      expect(calls).toEqual([
        'alpha.beforeLogin',
        'beta.beforeLogin',
        'alpha.afterAuthenticate',
        'beta.afterAuthenticate',
        'alpha.customizeClaims',
        'beta.customizeClaims',
        'alpha.afterLogin',
        'beta.afterLogin',
      ]);
      expect(await auditRows('login-succeeded', user.id)).toEqual([{ metadata: { strategy: 'ldap' } }]);
      // null passes to the password strategy.
      const { res: byPassword } = await login(user);
      expectSignedIn(byPassword, user);
      expect(await auditRows('login-succeeded', user.id)).toEqual([
        { metadata: { strategy: 'ldap' } },
        { metadata: { strategy: 'password' } },
      ]);
    });

    it('a strategy login can pause at a challenge; the session then names the strategy', async () => {
      const user = await createUser(t);
      ldap = () => ({ userId: user.id });
      pauseAtAlpha();
      const { b, res } = await login({ email: 'anything@example.com', password: 'whatever' });
      const token = expectPaused(res, 'alpha-code', ALPHA_HINT);
      expectSignedIn(await resolve(b, { pendingToken: token, response: { code: '123456' } }), user);
      expect(await auditRows('login-succeeded', user.id)).toEqual([{ metadata: { strategy: 'ldap' } }]);
    });

    it('a named account still passes the gate: a deactivated or unknown one is refused, reaching no later hook', async () => {
      const gone = await createUser(t, { active: false });
      const since = await lastAuditId();
      ldap = () => ({ userId: gone.id });
      expectProblem((await login({ email: gone.email, password: 'x' })).res, 401, 'AUTH_INVALID_CREDENTIALS');
      ldap = () => ({ userId: 'not-a-uuid' });
      expectProblem((await login({ email: gone.email, password: 'x' })).res, 401, 'AUTH_INVALID_CREDENTIALS');
      ldap = () => ({ userId: '00000000-0000-4000-8000-000000000000' });
      expectProblem((await login({ email: gone.email, password: 'x' })).res, 401, 'AUTH_INVALID_CREDENTIALS');
      expect(calls.filter((c) => !c.endsWith('.beforeLogin'))).toEqual([]);
      expect(await failedSince(since)).toEqual([
        { metadata: { reason: 'deactivated', strategy: 'ldap' } },
        { metadata: { reason: 'unknown-user', strategy: 'ldap' } },
        { metadata: { reason: 'unknown-user', strategy: 'ldap' } },
      ]);
    });

    it('a strategy that throws follows the error rules', async () => {
      const user = await createUser(t);
      ldap = () => {
        throw new Error('ldap-cause-6');
      };
      expectGeneric500((await login(user)).res, 'ldap-cause-6');
      ldap = () => {
        throw new ServiceError('FORBIDDEN', 'The directory refused');
      };
      const res = (await login(user)).res;
      expectProblem(res, 403, 'FORBIDDEN');
      expect(res.body.error.message).toBe('The directory refused');
      expect(await refreshRows(user.id)).toBe(0);
    });
  });

  describe('register, logout, session', () => {
    const register = async (body: object) => (await browser(t)).post('/auth/register', body);

    it('beforeRegister may change the payload and never sees the password; afterRegister sees the account', async () => {
      const email = `reg-${Date.now()}@example.com`;
      act['alpha.beforeRegister'] = (data) => ({ ...(data as object), name: 'Changed By Alpha' });
      const res = await register({ email, name: 'Given Name', password: PASSWORD });
      expect(res.status).toBe(200);
      expect(argsOf('alpha.beforeRegister')[0]).toEqual({ email, name: 'Given Name' });
      expect(JSON.stringify(argsOf('alpha.beforeRegister')[0])).not.toContain(PASSWORD);
      const [row] = await t.db.query(`SELECT id, name FROM users WHERE email = $1`, [email]);
      expect(row.name).toBe('Changed By Alpha');
      expect(calls).toEqual(['alpha.beforeRegister', 'alpha.afterRegister']);
      expect(argsOf('alpha.afterRegister')[0]).toMatchObject({ id: row.id, email, name: 'Changed By Alpha' });
      // The address is taken now: the same answer, and no afterRegister.
      calls.length = 0;
      const again = await register({ email, name: 'Someone Else', password: PASSWORD });
      expect(again.status).toBe(200);
      expect(calls).toEqual(['alpha.beforeRegister']);
    });

    it('beforeRegister blocks with its typed 4xx error, or 500; no account is created', async () => {
      const email = `blocked-${Date.now()}@example.com`;
      act['alpha.beforeRegister'] = () => {
        throw new ServiceError('FORBIDDEN', 'Registration is closed');
      };
      expectProblem(await register({ email, name: 'N', password: PASSWORD }), 403, 'FORBIDDEN');
      act['alpha.beforeRegister'] = () => {
        throw new Error('register-cause-7');
      };
      expectGeneric500(await register({ email, name: 'N', password: PASSWORD }), 'register-cause-7');
      expect(await t.db.query(`SELECT id FROM users WHERE email = $1`, [email])).toEqual([]);
      expect(calls).not.toContain('alpha.afterRegister');
    });

    it('logout runs beforeLogout before the session ends and afterLogout after, with the user id', async () => {
      const user = await createUser(t);
      const { b, res } = await login(user);
      expectSignedIn(res, user);
      calls.length = 0;
      const rowsSeen: number[] = [];
      const count = async (ctx: unknown) => {
        const [{ n }] = await (ctx as PluginContext).db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1`,
          [user.id],
        );
        rowsSeen.push(n);
      };
      act['alpha.beforeLogout'] = (_input, ctx) => count(ctx);
      act['alpha.afterLogout'] = (_input, ctx) => count(ctx);
      const out = await b.post('/auth/logout');
      expect(out.status).toBe(200);
      expect(calls).toEqual(['alpha.beforeLogout', 'alpha.afterLogout']);
      expect(rowsSeen).toEqual([1, 0]);
      expect(Object.keys(argsOf('alpha.beforeLogout')[0] as object)).toEqual(['request']);
      expect(argsOf('alpha.afterLogout')[0]).toMatchObject({ userId: user.id, request: expect.any(Object) });
      // No session: afterLogout with null.
      calls.length = 0;
      seen.clear();
      const anonymous = await (await browser(t)).post('/auth/logout');
      expect(anonymous.status).toBe(200);
      expect(calls).toEqual(['alpha.beforeLogout', 'alpha.afterLogout']);
      expect((argsOf('alpha.afterLogout')[0] as { userId: unknown }).userId).toBeNull();
    });

    it('determineUser names the session user on GET /auth/session only, through the account gate', async () => {
      const user = await createUser(t, { name: 'Determined' });
      const gone = await createUser(t, { active: false });
      const cookieUser = await createUser(t);
      act['alpha.determineUser'] = (req) => {
        const id = (req as { headers: Record<string, string | undefined> }).headers['x-plugin-user'];
        return id ? { id, email: 'forged@example.com', name: 'Forged', roleIds: ['forged'] } : null;
      };
      const named = await t.http.get('/admin/api/auth/session').set('X-Plugin-User', user.id);
      expect(named.status).toBe(200);
      // The user as core builds it from the account, not the hook's object.
      expect(named.body.user).toMatchObject({
        id: user.id,
        email: user.email,
        name: 'Determined',
        roleIds: [],
      });
      expect(calls).toEqual(['alpha.determineUser']);
      expectProblem(
        await t.http.get('/admin/api/auth/session').set('X-Plugin-User', gone.id),
        401,
        'AUTH_REQUIRED',
      );
      expectProblem(
        await t.http.get('/admin/api/auth/session').set('X-Plugin-User', 'not-a-uuid'),
        401,
        'AUTH_REQUIRED',
      );
      // null: the cookie decides.
      expectProblem(await t.http.get('/admin/api/auth/session'), 401, 'AUTH_REQUIRED');
      const { b } = await login(cookieUser);
      const own = await b.agent.get('/admin/api/auth/session');
      expect(own.status).toBe(200);
      expect(own.body.user.id).toBe(cookieUser.id);
      // Only GET /auth/session asks it.
      calls.length = 0;
      expect((await b.agent.get('/admin/api/me')).status).toBe(200);
      expect(calls).toEqual([]);
      act['alpha.determineUser'] = () => {
        throw new Error('determine-cause-8');
      };
      expectGeneric500(await b.agent.get('/admin/api/auth/session'), 'determine-cause-8');
    });
  });

  describe('customizeClaims', () => {
    it('adds claims at login and refresh; core claims, frame claims and user fields cannot be changed', async () => {
      const user = await createUser(t);
      await t.db.query(`UPDATE users SET custom = '{"department": "sales"}' WHERE id = $1`, [user.id]);
      act['alpha.customizeClaims'] = (claims) => {
        const out: Record<string, unknown> = {
          ...(claims as object),
          sub: '00000000-0000-4000-8000-000000000000',
          email: 'evil@example.com',
          name: 'Evil',
          roleIds: ['evil-role'],
          ver: 99,
          iat: 1,
          exp: 4102444800,
          nbf: 4102444800,
          aud: 'evil',
          iss: 'evil',
          typ: 'evil',
          department: 'evil-department',
          team: 'evil-team',
          tenant: 't-1',
          nested: { a: [1, 'b', null] },
          fn: () => 1,
          big: BigInt(1),
          undef: undefined,
          sym: Symbol('s'),
          nan: Number.NaN,
        };
        // Names every object inherits are left out (the token library cannot sign them), not a 500.
        Object.assign(out, JSON.parse('{"toString": "ts", "constructor": "ctor", "hasOwnProperty": "hop"}'));
        Object.defineProperty(out, 'boom', {
          enumerable: true,
          get() {
            throw new Error('getter');
          },
        });
        return out;
      };
      act['beta.customizeClaims'] = (claims) => {
        (claims as Record<string, unknown>).betaAdded = 2;
        (claims as Record<string, unknown>).email = 'beta-evil@example.com';
      };
      const { res } = await login(user);
      expectSignedIn(res, user);
      const check = (token: string) => {
        const { payload, header } = decodeJwt(token);
        expect(header.typ).not.toBe('evil');
        expect(payload).toMatchObject({
          sub: user.id,
          email: user.email,
          name: 'Test User',
          roleIds: [],
          ver: 1,
          department: 'sales',
          tenant: 't-1',
          nested: { a: [1, 'b', null] },
          betaAdded: 2,
        });
        expect(payload.aud).not.toBe('evil');
        expect(payload.iss).not.toBe('evil');
        expect(payload.exp as number).toBeLessThan(Date.now() / 1000 + 24 * 3600);
        expect(payload.iat as number).toBeGreaterThan(Date.now() / 1000 - 120);
        // A configured user field without a value is the core's null, never the hook's value.
        expect(payload.team).toBeNull();
        const leftOut = [
          'nbf',
          'typ',
          'fn',
          'big',
          'undef',
          'sym',
          'boom',
          'nan',
          'toString',
          'constructor',
          'hasOwnProperty',
        ];
        expect(leftOut.filter((key) => Object.prototype.hasOwnProperty.call(payload, key))).toEqual([]);
      };
      check(res.body.token as string);
      // beta saw alpha's addition.
      expect(argsOf('beta.customizeClaims')[0]).toMatchObject({ tenant: 't-1' });
      expect((argsOf('alpha.customizeClaims')[1] as { id: string }).id).toBe(user.id);
      // The token works.
      expect(
        (await t.http.get('/admin/api/me').set('Authorization', `Bearer ${res.body.token}`)).status,
      ).toBe(200);
      // What was left out is logged by name, never by value.
      expect(t.logs.text()).toContain('customizeClaims: claims left out');
      expect(t.logs.text()).not.toContain('evil-department');
      // Refresh builds the token through the hooks too.
      calls.length = 0;
      const refreshed = await refreshWithToken(t, heldSession(res).refresh);
      expect(refreshed.status).toBe(200);
      expect(calls).toEqual(['alpha.customizeClaims', 'beta.customizeClaims']);
      check(refreshed.body.token as string);
    });

    it('a customizeClaims that throws fails the login (500) and leaves no session', async () => {
      const user = await createUser(t);
      act['beta.customizeClaims'] = () => {
        throw new Error('claims-cause-9');
      };
      const { res } = await login(user);
      expectGeneric500(res, 'claims-cause-9');
      expect(await refreshRows(user.id)).toBe(0);
      expect(calls).not.toContain('alpha.afterLogin');
    });
  });

  describe('login-page UI', () => {
    it('GET /auth/ui merges every plugin in order; unusable buttons are dropped and logged at boot', async () => {
      const res = await t.http.get('/admin/api/auth/ui');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        providers: [
          { strategy: 'alpha:sso', label: 'Alpha SSO', href: '/admin/api/plugins/alpha/start' },
          { strategy: 'alpha:widget', label: 'Alpha widget', component: 'AlphaButton' },
          { strategy: 'beta:sso', label: 'Beta SSO', href: '/admin/api/plugins/beta/start?x=1' },
        ],
        challengeViews: { 'alpha-code': { kind: 'code', digits: 6 }, 'beta-code': { kind: 'text' } },
        slots: { 'login.footer': { text: 'beta' }, 'login.header': { text: 'alpha header' } },
      });
      const warnings = t.logs
        .records()
        .filter((r) => typeof r.msg === 'string' && r.msg.includes('left off the login page'))
        .map((r) => r.msg as string);
      expect(warnings).toHaveLength(7);
      for (const i of [2, 3, 4, 5, 6, 7, 8]) {
        expect(warnings.some((w) => w.includes(`plugin "alpha": ui.providers[${i}]`))).toBe(true);
      }
      const levels = t.logs
        .records()
        .filter((r) => typeof r.msg === 'string' && r.msg.includes('left off the login page'))
        .map((r) => r.level);
      expect(new Set(levels)).toEqual(new Set([40]));
    });
  });

  describe('the 500 ms login floor (SPEC 5.2.1)', () => {
    it.each([
      ['a challenged login', 'challenge'],
      ['a wrong password', 'wrong'],
      ['a login a hook refuses', 'blocked'],
    ])('holds for %s', async (_what, kind) => {
      const user = await createUser(t);
      if (kind === 'challenge') {
        pauseAtAlpha();
      }
      if (kind === 'blocked') {
        act['alpha.beforeLogin'] = () => {
          throw new ServiceError('FORBIDDEN', 'no');
        };
      }
      const b = await browser(t);
      const started = Date.now();
      const res = await b.post('/auth/login', {
        email: user.email,
        password: kind === 'wrong' ? 'Wrong-Password-1' : user.password,
      });
      const elapsed = Date.now() - started;
      expect(res.status).toBe(kind === 'challenge' ? 200 : kind === 'wrong' ? 401 : 403);
      expect(elapsed).toBeGreaterThanOrEqual(490);
    });
  });
});
