import { GUARDS_METADATA } from '@nestjs/common/constants';
import type { Response } from 'supertest';
import { IS_PUBLIC } from '../../src/common/access/public.decorator';
import { AuthRateLimitGuard } from '../../src/modules/auth/guards/auth-rate-limit.guard';
import { browser, Browser, createUser, signIn } from '../utils/auth';
import { serviceRoutes } from '../utils/routes';
import { createTestApp, TestApp } from '../utils/test-app';

interface Route {
  method: string;
  path: string;
  guards: unknown[];
  isPublic: boolean;
}

/** Every route the app registered, with its guards (class and handler) and whether it is public. */
function routesOf(t: TestApp): Route[] {
  return serviceRoutes(t.app).map(({ method, path, handler, cls }) => ({
    method,
    path,
    guards: [
      ...((Reflect.getMetadata(GUARDS_METADATA, cls) as unknown[] | undefined) ?? []),
      ...((Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? []),
    ],
    isPublic: !!(Reflect.getMetadata(IS_PUBLIC, handler) ?? Reflect.getMetadata(IS_PUBLIC, cls)),
  }));
}

const label = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/** A problem answer's code (undefined for a success). */
const codeOf = (res: Response): string | undefined =>
  (res.body as { error?: { code?: string } })?.error?.code;

/** 429 RATE_LIMITED with `Retry-After` equal to `error.data.retryAfterSeconds`, within the window. */
function expectRateLimited(what: string, res: Response, windowSeconds: number) {
  expect([what, res.status, codeOf(res)]).toEqual([what, 429, 'RATE_LIMITED']);
  const retryAfter = res.headers['retry-after'];
  expect([what, retryAfter]).toEqual([what, expect.stringMatching(/^\d+$/)]);
  expect([what, retryAfter]).toEqual([what, String(res.body.error.data?.retryAfterSeconds)]);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(windowSeconds);
}

const AUTH = '/admin/api/auth/';

/**
 * SPEC 8's per-IP auth budget: one budget per client address, shared by these routes. POST
 * /auth/setup is not in SPEC 8's list; it carries the budget on purpose (an unauthenticated
 * one-shot write that creates the first super-admin).
 */
const BUDGET_ROUTES: Array<{ path: string; pending?: true }> = [
  { path: '/admin/api/auth/login' },
  { path: '/admin/api/auth/register' },
  { path: '/admin/api/auth/forgot-password' },
  { path: '/admin/api/auth/verify-email/resend' },
  { path: '/admin/api/auth/verify-email' },
  { path: '/admin/api/auth/reset-password' },
  { path: '/admin/api/auth/accept-invite' },
  { path: '/admin/api/auth/challenge/resolve' },
  { path: '/admin/api/auth/set-initial-password' },
  { path: '/admin/api/auth/setup' },
];
const BUDGET_LIVE = BUDGET_ROUTES.filter((r) => !r.pending).map((r) => r.path);

describe('auth routes: one per-IP budget (SPEC 8)', () => {
  const MAX = 3;
  const WINDOW = 3600;
  let t: TestApp;
  let b: Browser;
  // Each case draws on the budget of its own client address (trustProxy: the X-Forwarded-For).
  let nextAddress = 1;
  const address = () => `203.0.113.${nextAddress++}`;

  beforeAll(async () => {
    t = await createTestApp({
      config: { trustProxy: true, security: { authRateLimit: { max: MAX, windowSeconds: WINDOW } } },
    });
    b = await browser(t);
  });
  afterAll(() => t.close());

  /** A POST with a valid CSRF token from `ip`; `{}` never changes anything (400 at worst). */
  const post = (path: string, ip: string) =>
    b.agent.post(path).set('X-CSRF-Token', b.csrf).set('X-Forwarded-For', ip).send({});

  /** `n` requests that the budget lets through (it counts them; CSRF passes, so it is reached). */
  async function spend(path: string, ip: string, n: number) {
    for (let i = 0; i < n; i++) {
      const res = await post(path, ip);
      expect([path, i, res.status === 429, codeOf(res) === 'CSRF_FAILED']).toEqual([path, i, false, false]);
    }
  }

  it('the routes carrying the budget are exactly the list (POST), pending ones aside', () => {
    const guarded = routesOf(t)
      .filter((r) => r.guards.includes(AuthRateLimitGuard))
      .map(label)
      .sort();
    expect(guarded).toEqual(BUDGET_LIVE.map((path) => `POST ${path}`).sort());
  });

  it('pending routes do not exist yet (404): once one does, drop its mark so the table covers it', async () => {
    const registered = new Set(routesOf(t).map(label));
    for (const { path } of BUDGET_ROUTES.filter((r) => r.pending)) {
      expect([path, registered.has(`POST ${path}`)]).toEqual([path, false]);
      const res = await post(path, address());
      expect([path, res.status, codeOf(res)]).toEqual([path, 404, 'NOT_FOUND']);
    }
  });

  it.each(BUDGET_LIVE)(
    'spending the budget on %s makes every listed route answer 429 RATE_LIMITED',
    async (spender) => {
      const ip = address();
      await spend(spender, ip, MAX);
      for (const path of [spender, ...BUDGET_LIVE.filter((p) => p !== spender)]) {
        expectRateLimited(`${spender} -> ${path}`, await post(path, ip), WINDOW);
      }
      // The budget is the address's: another client behind the proxy still has its own.
      const other = await post(
        BUDGET_LIVE.find((p) => p !== spender)!,
        address(),
      );
      expect(other.status).not.toBe(429);
    },
  );

  it('does not count the other auth routes (refresh, logout, csrf, session, ...)', async () => {
    const others = routesOf(t).filter((r) => r.path.startsWith(AUTH) && !BUDGET_LIVE.includes(r.path));
    // POST /auth/refresh, /auth/logout, PATCH /auth/change-password, GET /auth/csrf, ... at least.
    expect(others.map(label)).toEqual(
      expect.arrayContaining([
        'POST /admin/api/auth/refresh',
        'POST /admin/api/auth/logout',
        'GET /admin/api/auth/csrf',
      ]),
    );
    const ip = address();
    for (const route of others) {
      for (let i = 0; i < MAX + 2; i++) {
        // GETs go without the browser's cookies: GET /auth/csrf would replace its CSRF cookie.
        const res =
          route.method === 'GET'
            ? await t.http.get(route.path).set('X-Forwarded-For', ip)
            : await b.agent[route.method === 'PATCH' ? 'patch' : 'post'](route.path)
                .set('X-CSRF-Token', b.csrf)
                .set('X-Forwarded-For', ip)
                .send({});
        expect([label(route), i, res.status === 429, codeOf(res) === 'CSRF_FAILED']).toEqual([
          label(route),
          i,
          false,
          false,
        ]);
      }
    }
    // The address still has its whole budget: exactly MAX requests, then 429.
    await spend(BUDGET_LIVE[0], ip, MAX);
    expectRateLimited('after the others', await post(BUDGET_LIVE[0], ip), WINDOW);
  });
});

describe('auth routes: CSRF on every POST and PATCH under /auth/ (CONTRACTS 3.1)', () => {
  const LISTED_ORIGIN = 'https://admin.example.test';
  const PUBLIC_URL_ORIGIN = 'http://localhost:3000';
  let t: TestApp;
  let routes: Route[];
  let user: { email: string; password: string };

  beforeAll(async () => {
    t = await createTestApp({ overrides: { allowedOrigins: [LISTED_ORIGIN] } });
    // Built from the registered routes, so a new auth route is covered without editing this file.
    routes = routesOf(t).filter(
      (r) => r.path.startsWith(AUTH) && (r.method === 'POST' || r.method === 'PATCH'),
    );
    user = await createUser(t);
  });
  afterAll(() => t.close());

  /**
   * A browser for the route: signed in when the route needs a session (the authentication guard
   * runs first and would answer 401 before any CSRF check), else a visitor.
   */
  async function clientFor(route: Route): Promise<Browser> {
    return route.isPublic ? browser(t) : (await signIn(t, user)).browser;
  }

  const send = (c: Browser, route: Route, headers: Record<string, string>) => {
    const req = route.method === 'PATCH' ? c.agent.patch(route.path) : c.agent.post(route.path);
    return req.set(headers).send({});
  };

  it('covers a non-trivial list of routes', () => {
    expect(routes.length).toBeGreaterThanOrEqual(12);
    expect(routes.map(label)).toEqual(
      expect.arrayContaining([
        'POST /admin/api/auth/login',
        'POST /admin/api/auth/logout',
        'POST /admin/api/auth/refresh',
        'POST /admin/api/auth/setup',
        'PATCH /admin/api/auth/change-password',
      ]),
    );
  });

  it('refuses each without X-CSRF-Token, and with a valid token from a foreign Origin: 403 CSRF_FAILED', async () => {
    for (const route of routes) {
      const c = await clientFor(route);
      const missing = await send(c, route, {});
      expect([label(route), 'no token', missing.status, codeOf(missing)]).toEqual([
        label(route),
        'no token',
        403,
        'CSRF_FAILED',
      ]);
      const foreign = await send(c, route, { 'X-CSRF-Token': c.csrf, Origin: 'https://evil.example' });
      expect([label(route), 'foreign origin', foreign.status, codeOf(foreign)]).toEqual([
        label(route),
        'foreign origin',
        403,
        'CSRF_FAILED',
      ]);
    }
  });

  it('lets each through the CSRF check with a valid token from an allowed Origin (whatever it answers then)', async () => {
    for (const route of routes) {
      const c = await clientFor(route);
      for (const origin of [LISTED_ORIGIN, PUBLIC_URL_ORIGIN]) {
        const res = await send(c, route, { 'X-CSRF-Token': c.csrf, Origin: origin });
        expect([label(route), origin, res.status === 403 && codeOf(res) === 'CSRF_FAILED']).toEqual([
          label(route),
          origin,
          false,
        ]);
      }
    }
  });
});
