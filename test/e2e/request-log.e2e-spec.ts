import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cookieValue, createUser, setCookies, signIn } from '../utils/auth';
import { ProbeModule } from '../utils/probe.module';
import { createTestApp, TestApp } from '../utils/test-app';

/** A fresh value no log line can hold by chance. */
const secret = () => randomBytes(18).toString('base64url');

type Record_ = Record<string, unknown>;

const USER_AGENT = 'svc-e2e/1.0';
const LOOPBACK = expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$|^::1$/);

/**
 * The access log: one JSON line per request (`info`, `error` for a 5xx) with the fields listed
 * in src/common/request-logging.ts (`AccessLine`), never a header or a body, and no raw secret
 * from the URL, the credentials or the body anywhere in the output.
 */
describe('request log', () => {
  let t: TestApp;
  /** Every secret these requests carry: none may appear anywhere in the log output. */
  const secrets: string[] = [];
  let adminId: string;
  let cookies: string;
  let csrf: string;
  let bearer: string;
  let apiKey: { id: string; key: string };

  beforeAll(async () => {
    t = await createTestApp({
      imports: [ProbeModule],
      config: {
        collections: [{ slug: 'notices', fields: [{ name: 'text', type: 'text' }], access: { read: true } }],
      },
    });
    const admin = await createUser(t, { roles: ['super-admin'] });
    adminId = admin.id;
    // A password in a body: the login.
    const session = await signIn(t, admin);
    secrets.push(admin.password);
    const jar = setCookies(session.res);
    cookies = Object.values(jar)
      .map((c) => c.split(';')[0])
      .join('; ');
    secrets.push(...Object.values(jar).map(cookieValue));
    csrf = session.browser.csrf;
    bearer = session.body.token;
    const created = await session.browser.post('/api-keys', { name: 'log', type: 'read-only' }).expect(201);
    apiKey = { id: created.body.item.id, key: created.body.key };
    secrets.push(csrf, bearer, apiKey.key);
    expect(secrets.every((s) => typeof s === 'string' && s.length >= 8)).toBe(true);
  });
  afterAll(() => t.close());

  /** The access line of this request id ('close' may come a moment after the client has the answer). */
  async function accessLine(id: string): Promise<Record_> {
    const deadline = Date.now() + 2000;
    for (;;) {
      const found = t.logs.records().filter((r) => r.reqId === id && typeof r.path === 'string');
      if (found.length > 0 || Date.now() > deadline) {
        expect([id, found.length]).toEqual([id, 1]);
        return found[0];
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Exactly the access fields: no `req`, `res`, `headers` or anything else. */
  function expectLine(line: Record_, fields: Record_): void {
    expect(line).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: expect.any(String),
      msg: 'request completed',
      method: 'GET',
      status: 200,
      durationMs: expect.any(Number),
      ip: LOOPBACK,
      userAgent: USER_AGENT,
      contentLength: expect.any(Number),
      ...fields,
    });
    expect(line.durationMs as number).toBeGreaterThan(0);
    expect(line).not.toHaveProperty('headers');
  }

  const routes = {
    express: '/admin/api/me',
    lane: '/admin/api/collections/notices/entries?limit=1',
  };
  const credentials = () => ({
    anonymous: {} as Record<string, string>,
    cookie: { Cookie: cookies },
    bearer: { Authorization: `Bearer ${bearer}` },
    apiKey: { Authorization: `Bearer ${apiKey.key}` },
  });
  const principals = () => ({
    anonymous: undefined,
    cookie: { via: 'session', userId: adminId },
    bearer: { via: 'bearer', userId: adminId },
    apiKey: { via: 'api-key', userId: adminId, apiKeyId: apiKey.id },
  });

  for (const [lane, path] of Object.entries(routes)) {
    for (const who of ['anonymous', 'cookie', 'bearer', 'apiKey'] as const) {
      it(`${lane} route, ${who}: one line with the access fields and the principal`, async () => {
        const id = `log-${lane}-${who}`;
        const res = await t.http
          .get(path)
          .set(credentials()[who])
          .set('User-Agent', USER_AGENT)
          .set('X-Request-Id', id);
        // /me needs credentials; the notices are readable by anyone.
        const status = lane === 'express' && who === 'anonymous' ? 401 : 200;
        expect(res.status).toBe(status);
        const line = await accessLine(id);
        const principal = principals()[who];
        expectLine(line, {
          reqId: id,
          path,
          status,
          ...(principal ? { principal } : {}),
          // Problem answers set their Content-Length too.
          contentLength: Number(res.headers['content-length']),
        });
      });
    }
  }

  it('logs the parameter names of emailed links and callbacks, never their values', async () => {
    const token = secret();
    const repeated = [secret(), secret()];
    const encoded = secret();
    const code = secret();
    const state = secret();
    const fromReferer = secret();
    const onLane = secret();

    await t.http.get(`/admin/reset-password?token=${token}&x=1`).set('X-Request-Id', 'log-link');
    await t.http
      .get(`/admin/verify-email?token=${repeated[0]}&token=${repeated[1]}&%74oken=${encoded}`)
      .set('X-Request-Id', 'log-repeated');
    await t.http
      .get(`/admin/api/auth/session?code=${code}&state=${state}`)
      .set('X-Request-Id', 'log-callback');
    // The page opened from the link calls the API; the browser sends the page's URL as Referer,
    // which the access line does not log at all.
    await t.http
      .post('/admin/api/auth/reset-password')
      .set('Referer', `http://localhost:3000/admin/reset-password?token=${fromReferer}`)
      .set('X-Request-Id', 'log-referer')
      .send({});
    // Content reads are logged by the read lane, ahead of Express: the same line.
    await t.http
      .get(`/admin/api/collections/notices/entries?limit=1&token=${onLane}`)
      .set('X-Request-Id', 'log-lane');

    expect((await accessLine('log-link')).path).toBe('/admin/reset-password?token=[redacted]&x=1');
    expect((await accessLine('log-repeated')).path).toBe(
      '/admin/verify-email?token=[redacted]&token=[redacted]&%74oken=[redacted]',
    );
    expect((await accessLine('log-callback')).path).toBe(
      '/admin/api/auth/session?code=[redacted]&state=[redacted]',
    );
    expect((await accessLine('log-referer')).path).toBe('/admin/api/auth/reset-password');
    expect((await accessLine('log-lane')).path).toBe(
      '/admin/api/collections/notices/entries?limit=1&token=[redacted]',
    );

    const text = t.logs.text();
    for (const value of [token, ...repeated, encoded, code, state, fromReferer, onLane]) {
      expect(text).not.toContain(value);
    }
  });

  it('logs a 5xx at error, with the error it is about and the URL redacted', async () => {
    const token = secret();
    const code = secret();
    const res = await t.http
      .get(`/admin/api/__probe/boom?token=${token}&code=${code}&page=3`)
      .set('Authorization', `Bearer ${bearer}`)
      .set('User-Agent', USER_AGENT)
      .set('X-Request-Id', 'log-errored');
    expect(res.status).toBe(500);

    const line = await accessLine('log-errored');
    expectLine(line, {
      level: 50,
      msg: 'request errored',
      reqId: 'log-errored',
      path: '/admin/api/__probe/boom?token=[redacted]&code=[redacted]&page=3',
      status: 500,
      contentLength: Number(res.headers['content-length']),
      // A @Public() route still sees valid credentials.
      principal: { via: 'bearer', userId: adminId },
      error: { type: 'Error', message: 'secret internal detail: stack and all' },
    });
    // The request line and the filter's "<method> <url> failed" line (with the stack), at least.
    const lines = t.logs.forRequest('log-errored');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.join('\n')).toMatch(/"stack"/);
    for (const value of [token, code]) {
      expect(t.logs.text()).not.toContain(value);
    }
  });

  it('logs a request the client left before the answer as aborted, without a status', async () => {
    // The login waits out a 500 ms floor: the client hangs up well before it.
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const password = secret();
    secrets.push(password);
    await new Promise<void>((resolve) => {
      const body = JSON.stringify({ email: 'nobody@example.com', password });
      const req = httpRequest({
        port,
        method: 'POST',
        path: '/admin/api/auth/login',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          'X-CSRF-Token': csrf,
          Cookie: cookies,
          'User-Agent': USER_AGENT,
          'X-Request-Id': 'log-aborted',
        },
      });
      req.on('error', () => resolve());
      req.end(body);
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 150);
    });
    const line = await accessLine('log-aborted');
    expectLine(line, {
      msg: 'request aborted',
      method: 'POST',
      reqId: 'log-aborted',
      path: '/admin/api/auth/login',
      status: undefined,
      contentLength: undefined,
      // The login is open, but it sees the session the browser still sends.
      principal: { via: 'session', userId: adminId },
    });
  });

  it('leaves no password, cookie, token or API key anywhere in the log output', () => {
    const text = t.logs.text();
    expect(text).toContain('request completed');
    for (const value of secrets) {
      expect(text).not.toContain(value);
    }
    expect(text).not.toMatch(/"headers"|"(authorization|cookie|set-cookie|referer)"/i);
  });
});
