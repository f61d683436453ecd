import { JwtService } from '@nestjs/jwt';
import pg from 'pg';
import request from 'supertest';
import { TokensService } from '../../src/modules/identity/tokens.service';
import { AccountsService } from '../../src/modules/accounts/accounts.service';
import {
  browser,
  cookieValue,
  createUser,
  decodeJwt,
  pollUntilRefused,
  setCookies,
  signIn,
} from '../utils/auth';
import { isJobQueueStatement, statementText } from '../utils/statements';
import { withAdmin } from '../utils/test-db';
import { createTestApp, TestApp } from '../utils/test-app';

function refreshWith(t: TestApp, csrf: { token: string }, refreshToken: string) {
  return t.http
    .post('/admin/api/auth/refresh')
    .set('Cookie', [`svc_refresh=${refreshToken}`, `svc_csrf=${csrf.token}`])
    .set('X-CSRF-Token', csrf.token);
}

async function csrfPair(t: TestApp) {
  const res = await t.http.get('/admin/api/auth/csrf');
  return { token: res.body.csrfToken as string };
}

describe('sessions', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  describe('POST /auth/refresh', () => {
    it('rotates: new cookies and tokens; the old refresh token is then REFRESH_FAILED with a warning and no token in the log, and its replay ends the session', async () => {
      const user = await createUser(t);
      const { res: login } = await signIn(t, user);
      const oldRefresh = cookieValue(setCookies(login).svc_refresh);
      const csrf = await csrfPair(t);

      const res = await refreshWith(t, csrf, oldRefresh);
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        message: expect.any(String),
        user: expect.objectContaining({ id: user.id }),
        token: expect.any(String),
        exp: expect.any(Number),
      });
      const cookies = setCookies(res);
      expect(cookieValue(cookies.svc_session)).toBe(res.body.token);
      const newRefresh = cookieValue(cookies.svc_refresh);
      expect(newRefresh).not.toBe(oldRefresh);

      const replay = await refreshWith(t, csrf, oldRefresh).set('X-Request-Id', 'replay-old-refresh');
      expect(replay.status).toBe(401);
      expect(replay.body.error.code).toBe('REFRESH_FAILED');
      expect(replay.headers['set-cookie']).toBeUndefined();
      const lines = t.logs.forRequest('replay-old-refresh').join('\n');
      expect(lines).toContain('refresh-token-not-found');
      expect(lines).not.toContain(oldRefresh);
      // The replay is recorded for the owner (CONTRACTS 14.3), never with the token; a replay after
      // the rotation (not a race with it) ended the session it belonged to (CONTRACTS 14.6).
      const audit = await t.db.query(
        `SELECT actor_id, metadata FROM audit_log WHERE event = 'refresh-reused' AND target = $1`,
        [`user:${user.id}`],
      );
      expect(audit).toEqual([
        {
          actor_id: user.id,
          metadata: { sessionId: decodeJwt(login.body.token as string).payload.sid, sessionEnded: true },
        },
      ]);
      expect(JSON.stringify(audit)).not.toContain(oldRefresh);

      // Ended: the current refresh token is refused, and so are the access tokens of the session.
      const current = await refreshWith(t, csrf, newRefresh);
      expect(current.status).toBe(401);
      expect(current.body.error.code).toBe('REFRESH_FAILED');
      expect(current.headers['set-cookie']).toBeUndefined();
      for (const token of [res.body.token as string, login.body.token as string]) {
        const me = await t.http.get('/admin/api/me').set('Authorization', `Bearer ${token}`);
        expect(me.status).toBe(401);
        expect(me.body.error.code).toBe('AUTH_REQUIRED');
      }
    });

    it('answers REFRESH_FAILED without a cookie and for a token that was never issued', async () => {
      const csrf = await csrfPair(t);
      const none = await t.http
        .post('/admin/api/auth/refresh')
        .set('Cookie', `svc_csrf=${csrf.token}`)
        .set('X-CSRF-Token', csrf.token);
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('REFRESH_FAILED');
      const forged = await refreshWith(t, csrf, 'never-issued-token-value');
      expect(forged.status).toBe(401);
      expect(forged.body.error.code).toBe('REFRESH_FAILED');
      expect(forged.headers['set-cookie']).toBeUndefined();
    });

    it('lets exactly one of 5 parallel refreshes with one cookie win, round after round; the others are REFRESH_SUPERSEDED without cookies', async () => {
      const user = await createUser(t);
      const { res: login } = await signIn(t, user);
      let refresh = cookieValue(setCookies(login).svc_refresh);
      const csrf = await csrfPair(t);
      for (let round = 0; round < 10; round++) {
        const results = await Promise.all([0, 1, 2, 3, 4].map(() => refreshWith(t, csrf, refresh)));
        const winners = results.filter((r) => r.status === 200);
        expect(winners).toHaveLength(1);
        for (const loser of results.filter((r) => r.status !== 200)) {
          expect(loser.status).toBe(401);
          expect(loser.body.error.code).toBe('REFRESH_SUPERSEDED');
          expect(loser.headers['set-cookie']).toBeUndefined();
        }
        // Exactly one live token remains: the winner's, which the next round races on.
        const live = await t.db.query(
          `SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1 AND consumed_at IS NULL`,
          [user.id],
        );
        expect(live[0].n).toBe(1);
        refresh = cookieValue(setCookies(winners[0]).svc_refresh);
      }
      // Sequential reuse of a rotated token is not a race: REFRESH_FAILED.
      const next = await refreshWith(t, csrf, refresh);
      expect(next.status).toBe(200);
      expect((await refreshWith(t, csrf, refresh)).body.error.code).toBe('REFRESH_FAILED');
    });

    it('applies the account gate and re-reads roles', async () => {
      const user = await createUser(t);
      const csrf = await csrfPair(t);
      const first = cookieValue(setCookies((await signIn(t, user)).res).svc_refresh);

      await t.db.query(`INSERT INTO roles (name, slug) VALUES ('Editor', 'editor-gate')`);
      await t.db.query(
        `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE slug = 'editor-gate'`,
        [user.id],
      );
      const renewed = await refreshWith(t, csrf, first);
      expect(renewed.status).toBe(200);
      const [editor] = await t.db.query(`SELECT id FROM roles WHERE slug = 'editor-gate'`);
      expect(decodeJwt(renewed.body.token).payload.roleIds).toEqual([editor.id]);

      // A locked account cannot renew its session (refresh is not a password attempt: it does not lock).
      await t.db.query(`UPDATE users SET locked_until = now() + interval '5 minutes' WHERE id = $1`, [
        user.id,
      ]);
      const locked = await refreshWith(t, csrf, cookieValue(setCookies(renewed).svc_refresh));
      expect(locked.status).toBe(401);
      expect(locked.body.error.code).toBe('REFRESH_FAILED');
      const [counts] = await t.db.query(`SELECT failed_login_count FROM users WHERE id = $1`, [user.id]);
      expect(counts.failed_login_count).toBe(0);
    });

    it('is REFRESH_FAILED after deactivation (all refresh tokens deleted in the same transaction)', async () => {
      const user = await createUser(t);
      const refresh = cookieValue(setCookies((await signIn(t, user)).res).svc_refresh);
      await t.app.get(AccountsService).setActive(user.id, false);
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1`, [
        user.id,
      ]);
      expect(n).toBe(0);
      const res = await refreshWith(t, await csrfPair(t), refresh);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('REFRESH_FAILED');
    });
  });

  describe('POST /auth/logout', () => {
    it('deletes the refresh token row and clears both cookies', async () => {
      const user = await createUser(t);
      const { browser: b, res: login } = await signIn(t, user);
      const refresh = cookieValue(setCookies(login).svc_refresh);
      const res = await b.post('/auth/logout');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.any(String) });
      const cleared = setCookies(res);
      expect(cleared.svc_session).toMatch(/^svc_session=;.*Path=\/admin;.*Expires=Thu, 01 Jan 1970/);
      expect(cleared.svc_refresh).toMatch(
        /^svc_refresh=;.*Path=\/admin\/api\/auth;.*Expires=Thu, 01 Jan 1970/,
      );
      const rows = await t.db.query(`SELECT 1 FROM refresh_tokens WHERE user_id = $1`, [user.id]);
      expect(rows).toHaveLength(0);
      expect((await refreshWith(t, await csrfPair(t), refresh)).body.error.code).toBe('REFRESH_FAILED');
      const [audit] = await t.db.query(
        `SELECT count(*)::int AS n FROM audit_log WHERE event = 'logout' AND actor_id = $1`,
        [user.id],
      );
      expect(audit.n).toBe(1);
    });

    it('answers 200 without any session', async () => {
      const b = await browser(t);
      const res = await b.post('/auth/logout');
      expect(res.status).toBe(200);
    });

    it('needs the CSRF token', async () => {
      expect((await t.http.post('/admin/api/auth/logout')).body.error.code).toBe('CSRF_FAILED');
    });
  });

  describe('reading a session', () => {
    it('GET /auth/session answers { user, exp } for the cookie session and refuses Bearer or nothing', async () => {
      const user = await createUser(t);
      const { browser: b, body } = await signIn(t, user);
      const res = await b.agent.get('/admin/api/auth/session');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        user: { id: user.id, email: user.email, name: 'Test User', image: null, roleIds: [] },
        exp: body.exp,
      });
      for (const r of [
        await t.http.get('/admin/api/auth/session'),
        await t.http.get('/admin/api/auth/session').set('Authorization', `Bearer ${body.token}`),
      ]) {
        expect(r.status).toBe(401);
        expect(r.body.error.code).toBe('AUTH_REQUIRED');
      }
    });

    it('accepts the access token from the cookie and as Bearer on /me', async () => {
      const user = await createUser(t);
      const { browser: b, body } = await signIn(t, user);
      const viaCookie = await b.agent.get('/admin/api/me');
      const viaBearer = await t.http.get('/admin/api/me').set('Authorization', `Bearer ${body.token}`);
      for (const r of [viaCookie, viaBearer]) {
        expect(r.status).toBe(200);
        expect(r.body).toEqual({
          id: user.id,
          email: user.email,
          name: 'Test User',
          image: null,
          isActive: true,
          emailVerified: true,
          roles: [],
          lastLoginAt: expect.any(String),
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        });
      }
    });

    it('serves GET /me from the 5 s account cache: no database query once warm', async () => {
      const user = await createUser(t);
      const { body } = await signIn(t, user);
      const bearer = { Authorization: `Bearer ${body.token}` };
      expect((await t.http.get('/admin/api/me').set(bearer)).status).toBe(200); // warms the caches
      // Every statement reaches PostgreSQL through a pg client. The background work of the app
      // (the job queue, the webhook fan-out polled every 2 s) may run in the window on a busy
      // machine: its statements are not the requests'.
      const query = jest.spyOn(pg.Client.prototype, 'query');
      let statements: string[];
      try {
        for (let i = 0; i < 5; i++) {
          expect((await t.http.get('/admin/api/me').set(bearer)).status).toBe(200);
          expect((await t.http.get('/admin/api/me/permissions').set(bearer)).status).toBe(200);
        }
      } finally {
        statements = query.mock.calls
          .map((c) => statementText(c[0]))
          .filter((sql) => !isJobQueueStatement(sql) && !/\bwebhook_/.test(sql));
        query.mockRestore();
      }
      expect(statements).toEqual([]);
    });

    it('refuses missing, malformed, refresh and pending tokens with 401 AUTH_REQUIRED', async () => {
      const user = await createUser(t);
      const { res: login } = await signIn(t, user);
      const refresh = cookieValue(setCookies(login).svc_refresh);
      const tokens = t.app.get(TokensService);
      const jwt = new JwtService({});
      const pending = jwt.sign(
        { sub: user.id, ver: 1, roleIds: [] },
        {
          secret: tokens.pendingKey,
          header: { alg: 'HS256', typ: 'svc-pending+jwt' },
          audience: 'svc:pending',
          issuer: 'svc',
          expiresIn: 600,
        },
      );
      // Signed with the access key but carrying another purpose's typ: still not an access token.
      const accessKey = (tokens as unknown as { accessKey: Buffer }).accessKey;
      const wrongTyp = jwt.sign(
        { sub: user.id, ver: 1, roleIds: [], email: user.email, name: 'x' },
        {
          secret: accessKey,
          header: { alg: 'HS256', typ: 'svc-pending+jwt' },
          audience: 'svc:admin',
          issuer: 'svc',
          expiresIn: 600,
        },
      );
      const expired = jwt.sign(
        {
          sub: user.id,
          ver: 1,
          roleIds: [],
          email: user.email,
          name: 'x',
          exp: Math.floor(Date.now() / 1000) - 10,
        },
        { secret: accessKey, header: { alg: 'HS256', typ: 'at+jwt' }, audience: 'svc:admin', issuer: 'svc' },
      );
      const cases = [
        t.http.get('/admin/api/me'),
        t.http.get('/admin/api/me').set('Authorization', 'Bearer not-a-jwt'),
        t.http.get('/admin/api/me').set('Authorization', 'Basic dXNlcjpwYXNz'),
        t.http.get('/admin/api/me').set('Authorization', `Bearer ${refresh}`),
        t.http.get('/admin/api/me').set('Authorization', `Bearer ${pending}`),
        t.http.get('/admin/api/me').set('Authorization', `Bearer ${wrongTyp}`),
        t.http.get('/admin/api/me').set('Authorization', `Bearer ${expired}`),
        t.http.get('/admin/api/me').set('Cookie', `svc_session=${pending}`),
      ];
      for (const res of await Promise.all(cases)) {
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe('AUTH_REQUIRED');
      }
    });

    it('answers 401 AUTH_INVALID_CREDENTIALS for an unknown API key', async () => {
      const res = await t.http.get('/admin/api/me').set('Authorization', 'Bearer svc_live_' + 'x'.repeat(40));
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('AUTH_INVALID_CREDENTIALS');
    });
  });

  describe('cookie-authenticated writes outside /auth', () => {
    it('refuse a foreign Origin with 403 CSRF_FAILED; same-origin, allowed or absent origins pass', async () => {
      const user = await createUser(t);
      const { browser: b, body } = await signIn(t, user);
      const foreign = await b.agent
        .patch('/admin/api/me')
        .set('Origin', 'https://evil.example')
        .send({ name: 'X' });
      expect(foreign.status).toBe(403);
      expect(foreign.body.error.code).toBe('CSRF_FAILED');
      const referer = await b.agent
        .patch('/admin/api/me')
        .set('Referer', 'https://evil.example/page')
        .send({ name: 'X' });
      expect(referer.status).toBe(403);
      expect(
        (await b.agent.patch('/admin/api/me').set('Origin', 'http://localhost:3000').send({ name: 'Y' }))
          .status,
      ).toBe(200);
      expect((await b.agent.patch('/admin/api/me').send({ name: 'Z' })).status).toBe(200);
      // A Bearer token is not sent by a browser on its own: no origin check.
      const bearer = await t.http
        .patch('/admin/api/me')
        .set('Authorization', `Bearer ${body.token}`)
        .set('Origin', 'https://evil.example')
        .send({ name: 'W' });
      expect(bearer.status).toBe(200);
      // Reads are not writes.
      expect((await b.agent.get('/admin/api/me').set('Origin', 'https://evil.example')).status).toBe(200);
    });
  });

  describe('/me', () => {
    it('PATCH /me updates the own name and image, nothing else', async () => {
      const user = await createUser(t);
      const { body } = await signIn(t, user);
      const auth = { Authorization: `Bearer ${body.token}` };
      const res = await t.http
        .patch('/admin/api/me')
        .set(auth)
        .send({ name: 'New Name', image: 'https://cdn.example.com/a.png' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: expect.objectContaining({ name: 'New Name', image: 'https://cdn.example.com/a.png' }),
      });
      expect((await t.http.get('/admin/api/me').set(auth)).body.name).toBe('New Name');
      for (const forbidden of [{ email: 'x@example.com' }, { isActive: false }, { roles: [] }]) {
        const r = await t.http.patch('/admin/api/me').set(auth).send(forbidden);
        expect(r.status).toBe(400);
        expect(r.body.error.data.errors[0].code).toBe('unknown_field');
      }
    });

    it('GET /me/permissions resolves the roles (sorted slugs)', async () => {
      const user = await createUser(t);
      await t.db.query(`INSERT INTO roles (name, slug) VALUES ('Reader', 'reader-perm')`);
      await t.db.query(
        `INSERT INTO role_permissions (role_id, permission_id)
         SELECT r.id, p.id FROM roles r, permissions p WHERE r.slug = 'reader-perm' AND p.slug IN ('read-users', 'read-roles')`,
      );
      await t.db.query(
        `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE slug = 'reader-perm'`,
        [user.id],
      );
      const { body } = await signIn(t, user);
      const res = await t.http.get('/admin/api/me/permissions').set('Authorization', `Bearer ${body.token}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ isSuperAdmin: false, permissions: ['read-roles', 'read-users'] });
    });
  });
});

describe('revocation (SPEC 3.2)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({ database: a.database });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('deactivation refuses the token at once on the instance that made it and within 10 s on another', async () => {
    const user = await createUser(a);
    const { body } = await signIn(a, user);
    const bearer = { Authorization: `Bearer ${body.token}` };
    expect((await a.http.get('/admin/api/me').set(bearer)).status).toBe(200);
    expect((await b.http.get('/admin/api/me').set(bearer)).status).toBe(200); // B has the account cached now

    await a.app.get(AccountsService).setActive(user.id, false);
    const deactivatedAt = Date.now();
    const onA = await a.http.get('/admin/api/me').set(bearer);
    expect(onA.status).toBe(401);
    expect(onA.body.error.code).toBe('AUTH_REQUIRED');

    // Bounded poll (every 100 ms, 10 s deadline from the write): B's cached account must expire.
    const seen = await pollUntilRefused(b, body.token, deactivatedAt, 10_000);
    expect({ status: seen.status, code: seen.code }).toEqual({ status: 401, code: 'AUTH_REQUIRED' });
    expect(seen.afterMs).toBeLessThanOrEqual(10_000);
  }, 20_000);

  it('a password write (counter raised) ends every access token and refresh token', async () => {
    const user = await createUser(a);
    const { body, res } = await signIn(a, user);
    await a.db.transaction((em) => a.app.get(AccountsService).revokeSessions(em, user.id));
    const me = await a.http.get('/admin/api/me').set('Authorization', `Bearer ${body.token}`);
    expect(me.status).toBe(401);
    const csrf = await csrfPair(a);
    expect((await refreshWith(a, csrf, cookieValue(setCookies(res).svc_refresh))).body.error.code).toBe(
      'REFRESH_FAILED',
    );
  });
});

describe('an unreadable account row', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('fails the request with 500 DATABASE_ERROR, never as signed in or signed out', async () => {
    const user = await createUser(t);
    const { body } = await signIn(t, user);
    t.app.get(AccountsService).invalidate(user.id);
    const name = t.database.name;
    await withAdmin(async (c) => {
      await c.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
      await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
    });
    try {
      const res = await request(t.app.getHttpServer())
        .get('/admin/api/me')
        .set('Authorization', `Bearer ${body.token}`);
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('DATABASE_ERROR');
    } finally {
      await withAdmin((c) => c.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`));
    }
    expect((await t.http.get('/admin/api/me').set('Authorization', `Bearer ${body.token}`)).status).toBe(200);
  });
});
