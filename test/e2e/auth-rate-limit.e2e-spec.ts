import Redis from 'ioredis';
import request from 'supertest';
import type { SvcConfig } from '../../src/config/config.types';
import { browser, Browser, createUser, setCookies } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

const PROBLEM = /^application\/problem\+json/;
const REDIS_URL = 'redis://127.0.0.1:6379';

interface Problem {
  code: string;
  message: string;
  requestId: string;
  data?: Record<string, unknown>;
}

function expectProblem(
  res: { status: number; headers: Record<string, string>; body: unknown },
  status: number,
  code: string,
): Problem {
  expect({ status: res.status, body: res.body }).toMatchObject({ status, body: { error: { code } } });
  expect(res.headers['content-type']).toMatch(PROBLEM);
  const id = res.headers['x-request-id'];
  expect(id).toBeTruthy();
  const error = (res.body as { error: Problem }).error;
  expect(typeof error.message).toBe('string');
  expect(error.requestId).toBe(id);
  return error;
}

/** A 429 RATE_LIMITED with `Retry-After` equal to `error.data.retryAfterSeconds` (SPEC 7, CONTRACTS 8). */
function expectRateLimited(
  res: { status: number; headers: Record<string, string>; body: unknown },
  windowSeconds: number,
) {
  const error = expectProblem(res, 429, 'RATE_LIMITED');
  const retryAfter = res.headers['retry-after'];
  expect(retryAfter).toMatch(/^\d+$/);
  expect(retryAfter).toBe(String(error.data?.retryAfterSeconds));
  const seconds = Number(retryAfter);
  expect(seconds).toBeGreaterThanOrEqual(1);
  expect(seconds).toBeLessThanOrEqual(windowSeconds);
}

/**
 * CONTRACTS 9 on an answer of a budgeted route: the configured maximum, what is left after this
 * request, and the Unix second the window (or the block) ends.
 */
function expectBudget(
  res: { headers: Record<string, string> },
  max: number,
  remaining: number,
  windowSeconds: number,
) {
  const now = Math.floor(Date.now() / 1000);
  expect(res.headers['x-ratelimit-limit']).toBe(String(max));
  expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
  expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  const reset = Number(res.headers['x-ratelimit-reset']);
  expect(reset).toBeGreaterThanOrEqual(now);
  expect(reset).toBeLessThanOrEqual(now + windowSeconds);
}

/** Every route under the budget (SPEC 8). */
const BUDGETED_ROUTES = [
  'login',
  'register',
  'forgot-password',
  'verify-email',
  'verify-email/resend',
  'reset-password',
  'accept-invite',
  'set-initial-password',
  'setup',
];

const wrong = { email: 'nobody@example.com', password: 'Wrong-Password-1' };

/** `n` refused logins (401 each), drawing on the caller's budget. */
async function spend(b: Browser, n: number, xff?: string) {
  for (let i = 0; i < n; i++) {
    const req = b.post('/auth/login', wrong);
    const res = await (xff ? req.set('X-Forwarded-For', xff) : req);
    expectProblem(res, 401, 'AUTH_INVALID_CREDENTIALS');
  }
}

describe('per-IP auth rate limit (SPEC 8, CONTRACTS 8)', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    // Close every app a test opened, second instances (sharing a database) first.
    while (apps.length) {
      await apps.pop()!.close();
    }
  });

  async function app(max: number, windowSeconds: number, config: SvcConfig = {}) {
    const t = await createTestApp({
      config: { ...config, security: { authRateLimit: { max, windowSeconds } } },
    });
    apps.push(t);
    return t;
  }

  it('answers the attempt after the budget with 429 RATE_LIMITED and Retry-After, even for a correct password', async () => {
    const t = await app(3, 60);
    const user = await createUser(t);
    const b = await browser(t);

    await spend(b, 3);
    const refused = await b.post('/auth/login', wrong);
    expectRateLimited(refused, 60);
    // The message says when to come back and which setting raises the limit.
    expect(refused.body.error.message).toBe(
      `Too many sign-in and account requests from this address; try again in ${refused.headers['retry-after']} s ` +
        '(the limit, 3 per minute, is security.authRateLimit in the configuration)',
    );

    // A correct password does not get through while the address is limited, and no session is minted.
    const correct = await b.post('/auth/login', { email: user.email, password: user.password });
    expectRateLimited(correct, 60);
    expect(setCookies(correct)).not.toHaveProperty('svc_session');

    // The limit is on the address, not the client: a fresh cookie jar is refused too.
    const other = await browser(t);
    expectRateLimited(await other.post('/auth/login', { email: user.email, password: user.password }), 60);
  }, 20_000);

  it('sends X-RateLimit-Limit, -Remaining and -Reset on every answer of every budgeted route, from one shared count', async () => {
    const t = await app(12, 60);
    const user = await createUser(t);
    const b = await browser(t);

    // Each route, whatever it answers (here mostly 400 for the empty body), counts one down.
    for (const [i, route] of BUDGETED_ROUTES.entries()) {
      const res = await b.post(`/auth/${route}`, {});
      expect(res.status).not.toBe(429);
      expectBudget(res, 12, 12 - i - 1, 60);
    }
    const signedIn = await b.post('/auth/login', { email: user.email, password: user.password });
    expect(signedIn.status).toBe(200);
    expectBudget(signedIn, 12, 2, 60);
    await spend(b, 2);

    // Spent: the refusal carries the budget too, resetting when Retry-After says.
    const limited = await b.post('/auth/register', {});
    expectRateLimited(limited, 60);
    expectBudget(limited, 12, 0, 60);
    const now = Math.floor(Date.now() / 1000);
    const resetSecond = Number(limited.headers['x-ratelimit-reset']) - Number(limited.headers['retry-after']);
    expect(resetSecond).toBeGreaterThanOrEqual(now - 1);
    expect(resetSecond).toBeLessThanOrEqual(now);

    // Routes outside the budget carry no budget headers.
    const csrf = await b.agent.get('/admin/api/auth/csrf');
    expect(csrf.headers['x-ratelimit-limit']).toBeUndefined();
    expect((await t.http.get('/admin/api/auth/setup-status')).headers['x-ratelimit-limit']).toBeUndefined();
  }, 30_000);

  it('counts a sign-in refused for CSRF (403) like any other, with the budget headers', async () => {
    const t = await app(3, 60);
    const b = await browser(t);
    await spend(b, 1);

    const noToken = await b.agent.post('/admin/api/auth/login').send(wrong);
    expectProblem(noToken, 403, 'CSRF_FAILED');
    expectBudget(noToken, 3, 1, 60);
    const foreign = await b.post('/auth/login', wrong).set('Origin', 'https://evil.example');
    expectProblem(foreign, 403, 'CSRF_FAILED');
    expectBudget(foreign, 3, 0, 60);

    // The budget is spent: the next attempt is 429 whether or not its CSRF token is good.
    expectRateLimited(await b.agent.post('/admin/api/auth/login').send(wrong), 60);
    expectRateLimited(await b.post('/auth/login', wrong), 60);
  }, 20_000);

  it('limits only the SPEC 8 routes: csrf, setup-status and refresh still answer once the budget is spent', async () => {
    const t = await app(3, 60);
    const b = await browser(t);
    await spend(b, 3);
    expectRateLimited(await b.post('/auth/login', wrong), 60);

    for (let i = 0; i < 5; i++) {
      const csrf = await b.agent.get('/admin/api/auth/csrf');
      expect(csrf.status).toBe(200);
      expect(typeof csrf.body.csrfToken).toBe('string');

      const status = await t.http.get('/admin/api/auth/setup-status');
      expect(status.status).toBe(200);
      expect(status.body).toEqual({ ok: true, completed: expect.any(Boolean) });
    }
    // The csrf route set a new cookie; a fresh browser keeps token and cookie in step.
    const fresh = await browser(t);
    for (let i = 0; i < 5; i++) {
      // No refresh cookie: REFRESH_FAILED, not RATE_LIMITED.
      expectProblem(await fresh.post('/auth/refresh'), 401, 'REFRESH_FAILED');
    }
    // ...and those requests did not reset the login budget either.
    expectRateLimited(await fresh.post('/auth/login', wrong), 60);
  }, 20_000);

  it('with trustProxy on, each X-Forwarded-For client address has its own budget', async () => {
    const t = await app(2, 60, { trustProxy: true });
    const b = await browser(t);

    await spend(b, 2, '203.0.113.1');
    expectRateLimited(await b.post('/auth/login', wrong).set('X-Forwarded-For', '203.0.113.1'), 60);
    // Another client behind the same proxy still has its whole budget.
    await spend(b, 1, '203.0.113.2');
    // `trustProxy: true` trusts every hop, so the client is the leftmost address.
    expectRateLimited(await b.post('/auth/login', wrong).set('X-Forwarded-For', '203.0.113.1, 10.0.0.1'), 60);
  }, 20_000);

  it('with trustProxy off (the default), X-Forwarded-For is ignored and gives no fresh budget', async () => {
    const t = await app(2, 60);
    const b = await browser(t);

    await spend(b, 1, '198.51.100.1');
    await spend(b, 1, '198.51.100.2');
    expectRateLimited(await b.post('/auth/login', wrong).set('X-Forwarded-For', '198.51.100.3'), 60);
    expectRateLimited(await b.post('/auth/login', wrong), 60);
  }, 20_000);

  describe('with Redis (REDIS_URL)', () => {
    const prefix = `svc-test-${process.pid}-${Date.now()}:`;
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });

    async function ourKeys(): Promise<string[]> {
      const keys: string[] = [];
      let cursor = '0';
      do {
        const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
        cursor = next;
        keys.push(...batch);
      } while (cursor !== '0');
      return keys;
    }

    beforeAll(() => redis.connect());
    afterAll(async () => {
      const keys = await ourKeys();
      if (keys.length) {
        await redis.del(...keys);
      }
      expect(await ourKeys()).toEqual([]);
      await redis.quit();
    });

    it('two instances draw on one budget', async () => {
      const overrides = { redisUrl: REDIS_URL, redisPrefix: prefix };
      const config = { security: { authRateLimit: { max: 3, windowSeconds: 60 } } };
      const a = await createTestApp({ config, overrides });
      apps.push(a);
      const b2 = await createTestApp({ config, overrides, database: a.database });
      apps.push(b2);

      const onA = await browser(a);
      const onB = await browser(b2);
      await spend(onA, 2);
      // B's answer counts A's requests: the budget headers come from the shared count.
      const last = await onB.post('/auth/login', wrong);
      expectProblem(last, 401, 'AUTH_INVALID_CREDENTIALS');
      expectBudget(last, 3, 0, 60);
      expectRateLimited(await onA.post('/auth/login', wrong), 60);
      expectRateLimited(await onB.post('/auth/login', wrong), 60);

      // The counters are in Redis under the configured prefix.
      expect((await ourKeys()).length).toBeGreaterThan(0);
    }, 20_000);

    it('answers 503 SERVICE_UNAVAILABLE (a dependency outage, SPEC 7) when Redis cannot be reached', async () => {
      const t = await createTestApp({ overrides: { redisUrl: 'redis://127.0.0.1:1', redisPrefix: prefix } });
      apps.push(t);
      const b = await browser(t);
      const res = await b.post('/auth/login', wrong);
      const error = expectProblem(res, 503, 'SERVICE_UNAVAILABLE');
      // Fails closed, and says when to come back.
      expect(res.headers['retry-after']).toMatch(/^[1-9]\d*$/);
      expect(res.headers['retry-after']).toBe(String(error.data?.retryAfterSeconds));
      expect(res.headers['x-ratelimit-remaining']).toBeUndefined();
    }, 20_000);
  });
});

describe('CSRF on POST /auth/login (SPEC 5.5, CONTRACTS 3.1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const login = '/admin/api/auth/login';

  it('refuses a request without the X-CSRF-Token header', async () => {
    const b = await browser(t);
    expectProblem(await b.agent.post(login).send(wrong), 403, 'CSRF_FAILED');
  });

  it('refuses a token that does not match the cookie', async () => {
    const b = await browser(t);
    const other = await browser(t);
    expectProblem(await b.agent.post(login).set('X-CSRF-Token', other.csrf).send(wrong), 403, 'CSRF_FAILED');
    expectProblem(await b.agent.post(login).set('X-CSRF-Token', '').send(wrong), 403, 'CSRF_FAILED');
  });

  it('refuses a token without the cookie', async () => {
    const b = await browser(t);
    expectProblem(await t.http.post(login).set('X-CSRF-Token', b.csrf).send(wrong), 403, 'CSRF_FAILED');
  });

  it('refuses a foreign Origin (or, without Origin, a foreign Referer) even with a valid token', async () => {
    const b = await browser(t);
    expectProblem(
      await b.post('/auth/login', wrong).set('Origin', 'https://evil.example'),
      403,
      'CSRF_FAILED',
    );
    expectProblem(
      await b.post('/auth/login', wrong).set('Referer', 'https://evil.example/admin/login'),
      403,
      'CSRF_FAILED',
    );
    // Same host, other scheme or port: another origin.
    expectProblem(
      await b.post('/auth/login', wrong).set('Origin', 'https://localhost:3000'),
      403,
      'CSRF_FAILED',
    );
  });

  it('lets the public URL origin with a valid token through to the credential check', async () => {
    const b = await browser(t);
    expectProblem(
      await b.post('/auth/login', wrong).set('Origin', 'http://localhost:3000'),
      401,
      'AUTH_INVALID_CREDENTIALS',
    );
    expectProblem(
      await b.post('/auth/login', wrong).set('Referer', 'http://localhost:3000/admin/login'),
      401,
      'AUTH_INVALID_CREDENTIALS',
    );
  });

  it('skips the CSRF check for a request carrying Authorization: Bearer', async () => {
    const res = await request(t.app.getHttpServer()).post(login).set('Authorization', 'Bearer x').send(wrong);
    expectProblem(res, 401, 'AUTH_INVALID_CREDENTIALS');
  });
});
