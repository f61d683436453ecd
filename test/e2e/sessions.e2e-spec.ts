import {
  bearerFor,
  browser,
  createUser,
  CreatedUser,
  decodeJwt,
  heldSession,
  HeldSession,
  pollUntilRefused,
  refreshWithToken,
  userWithPermissions,
} from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * Sessions (issue 22, CONTRACTS 14.1): one sign-in each, with the `sid` claim in its access
 * tokens; the caller's and an administrator's routes; ended sessions refuse their refresh token
 * and their access tokens (at once on this instance, within 10 s on another); logout ends the
 * access token too; `auth.maxSessions`; a rotation racing the end of its session.
 */
const API = '/admin/api';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface SignedIn extends HeldSession {
  sid: string;
  auth: Record<string, string>;
}

async function login(t: TestApp, user: CreatedUser, userAgent = 'jest-browser/1.0'): Promise<SignedIn> {
  const b = await browser(t);
  const res = await b.agent
    .post(`${API}/auth/login`)
    .set('X-CSRF-Token', b.csrf)
    .set('User-Agent', userAgent)
    .send({ email: user.email, password: user.password });
  expect(res.status).toBe(200);
  const held = heldSession(res);
  const sid = decodeJwt(held.token).payload.sid as string;
  return { ...held, sid, auth: { Authorization: `Bearer ${held.token}` } };
}

const me = (t: TestApp, s: { token: string }) =>
  t.http.get(`${API}/me`).set('Authorization', `Bearer ${s.token}`);

describe('sessions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a sign-in is a session: the access token carries its sid, the list shows it as current', async () => {
    const user = await createUser(t);
    const s = await login(t, user, 'Firefox/140 test');
    expect(s.sid).toMatch(UUID);
    const res = await t.http.get(`${API}/auth/sessions`).set(s.auth);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      {
        id: s.sid,
        current: true,
        strategy: 'password',
        ip: expect.any(String),
        userAgent: 'Firefox/140 test',
        createdAt: expect.any(String),
        lastUsedAt: expect.any(String),
        expiresAt: expect.any(String),
      },
    ]);
    expect(res.body.meta).toMatchObject({ total: 1 });
    expect(JSON.stringify(res.body)).not.toContain(s.refresh);
  });

  it('a refresh keeps the session (same sid, newer lastUsedAt), and the list is newest first', async () => {
    const user = await createUser(t);
    const first = await login(t, user);
    const second = await login(t, user);
    const before = (await t.http.get(`${API}/auth/sessions`).set(second.auth)).body.items;
    expect(before.map((s: { id: string }) => s.id)).toEqual([second.sid, first.sid]);
    expect(before.map((s: { current: boolean }) => s.current)).toEqual([true, false]);

    const refreshed = await refreshWithToken(t, first.refresh);
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.body.token as string).payload.sid).toBe(first.sid);
    const after = (await t.http.get(`${API}/auth/sessions`).set(second.auth)).body.items;
    expect(after.map((s: { id: string }) => s.id)).toEqual([first.sid, second.sid]);
    const was = before.find((s: { id: string }) => s.id === first.sid);
    const now = after.find((s: { id: string }) => s.id === first.sid);
    expect(now.createdAt).toBe(was.createdAt);
    expect(Date.parse(now.lastUsedAt)).toBeGreaterThan(Date.parse(was.lastUsedAt));
  });

  it('ending a session from another browser refuses its access token on the next request and its refresh token', async () => {
    const user = await createUser(t);
    const victim = await login(t, user);
    const other = await login(t, user);
    expect((await me(t, victim)).status).toBe(200); // warm: the account row is cached

    const ended = await t.http.delete(`${API}/auth/sessions/${victim.sid}`).set(other.auth);
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ message: expect.any(String) });

    const refused = await me(t, victim);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('AUTH_REQUIRED');
    const refresh = await refreshWithToken(t, victim.refresh);
    expect(refresh.status).toBe(401);
    expect(refresh.body.error.code).toBe('REFRESH_FAILED');
    // The other session goes on, and the list no longer shows the ended one.
    expect((await me(t, other)).status).toBe(200);
    const list = (await t.http.get(`${API}/auth/sessions`).set(other.auth)).body.items;
    expect(list.map((s: { id: string }) => s.id)).toEqual([other.sid]);

    const audit = await t.db.query(
      `SELECT actor_id, metadata FROM audit_log WHERE event = 'session-ended' AND target = $1`,
      [`user:${user.id}`],
    );
    expect(audit).toEqual([
      { actor_id: user.id, metadata: { sessionId: victim.sid, reason: 'ended-by-owner' } },
    ]);
    expect(JSON.stringify(audit)).not.toContain(victim.refresh);
  });

  it('another user’s session, an ended one or a malformed id is 404', async () => {
    const a = await login(t, await createUser(t));
    const b = await login(t, await createUser(t));
    for (const id of [b.sid, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await t.http.delete(`${API}/auth/sessions/${id}`).set(a.auth);
      expect([id, res.status, res.body.error?.code]).toEqual([id, 404, 'NOT_FOUND']);
    }
    expect((await me(t, b)).status).toBe(200);
    // A session of the caller's own that has ended already.
    const user = await createUser(t);
    const [gone, here] = [await login(t, user), await login(t, user)];
    expect((await t.http.delete(`${API}/auth/sessions/${gone.sid}`).set(here.auth)).status).toBe(200);
    const again = await t.http.delete(`${API}/auth/sessions/${gone.sid}`).set(here.auth);
    expect([again.status, again.body.error?.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('DELETE /auth/sessions ends every session but the current one (over the browser session: a Bearer token is refused)', async () => {
    const user = await createUser(t);
    const others = [await login(t, user), await login(t, user)];
    const current = await login(t, user);
    // A sensitive change (CONTRACTS 14.6): the current session's Bearer access token may not make it.
    const byBearer = await t.http.delete(`${API}/auth/sessions`).set(current.auth);
    expect([byBearer.status, byBearer.body.error?.code]).toEqual([401, 'AUTH_REQUIRED']);
    for (const s of others) {
      expect((await me(t, s)).status).toBe(200);
    }
    // The same session's cookie, signed in just now, may.
    const res = await t.http.delete(`${API}/auth/sessions`).set('Cookie', `svc_session=${current.token}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String), ended: 2 });
    for (const s of others) {
      expect((await me(t, s)).status).toBe(401);
    }
    expect((await me(t, current)).status).toBe(200);
  });

  it('logout ends the access token at once (cookie session), and a Bearer client can log out with its token alone', async () => {
    const user = await createUser(t);
    const b = await browser(t);
    const res = await b.post('/auth/login', { email: user.email, password: user.password });
    const token = res.body.token as string;
    expect((await b.agent.get(`${API}/me`)).status).toBe(200);
    expect((await b.post('/auth/logout')).status).toBe(200);
    const after = await t.http.get(`${API}/me`).set('Cookie', `svc_session=${token}`);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('AUTH_REQUIRED');

    const bearerOnly = await login(t, user);
    const out = await t.http.post(`${API}/auth/logout`).set(bearerOnly.auth);
    expect(out.status).toBe(200);
    expect((await me(t, bearerOnly)).status).toBe(401);
    expect((await refreshWithToken(t, bearerOnly.refresh)).status).toBe(401);
  });

  it('API keys never reach the session routes', async () => {
    const user = await createUser(t, { roles: ['super-admin'] });
    const s = await login(t, user);
    const created = await t.http
      .post(`${API}/api-keys`)
      .set('Cookie', `svc_session=${s.token}`)
      .send({ name: 'k', type: 'full-access' });
    expect(created.status).toBe(201);
    const key = { Authorization: `Bearer ${created.body.key as string}` };
    for (const res of [
      await t.http.get(`${API}/auth/sessions`).set(key),
      await t.http.delete(`${API}/auth/sessions`).set(key),
      await t.http.delete(`${API}/auth/sessions/${s.sid}`).set(key),
      await t.http.get(`${API}/auth/sessions`),
    ]) {
      expect([res.status, res.body.error?.code]).toEqual([401, 'AUTH_REQUIRED']);
    }
    // The key ended nothing.
    expect((await me(t, s)).status).toBe(200);
  });

  describe('administrators', () => {
    it('list a user’s sessions (read-users, current always false) and end them all (update-users)', async () => {
      const user = await createUser(t);
      const s1 = await login(t, user);
      const s2 = await login(t, user);
      const reader = await userWithPermissions(t, ['read-users']);
      const list = await t.http.get(`${API}/users/${user.id}/sessions`).set(await bearerFor(t, reader.id));
      expect(list.status).toBe(200);
      expect(list.body.items.map((s: { id: string }) => s.id).sort()).toEqual([s1.sid, s2.sid].sort());
      expect(list.body.items.every((s: { current: boolean }) => s.current === false)).toBe(true);
      expect(
        (await t.http.delete(`${API}/users/${user.id}/sessions`).set(await bearerFor(t, reader.id))).status,
      ).toBe(403);

      const admin = await userWithPermissions(t, ['update-users']);
      const res = await t.http.delete(`${API}/users/${user.id}/sessions`).set(await bearerFor(t, admin.id));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.any(String), ended: 2 });
      expect((await me(t, s1)).status).toBe(401);
      expect((await me(t, s2)).status).toBe(401);
      const audit = await t.db.query(
        `SELECT actor_id, metadata->>'reason' AS reason FROM audit_log
          WHERE event = 'session-ended' AND target = $1`,
        [`user:${user.id}`],
      );
      expect(audit).toHaveLength(2);
      expect(audit.every((r: { actor_id: string }) => r.actor_id === admin.id)).toBe(true);
    });

    it('a super-admin’s sessions are ended only by a super-admin; an unknown user is 404', async () => {
      const root = await createUser(t, { roles: ['super-admin'] });
      const s = await login(t, root);
      const admin = await userWithPermissions(t, ['update-users', 'read-users']);
      const headers = await bearerFor(t, admin.id);
      const refused = await t.http.delete(`${API}/users/${root.id}/sessions`).set(headers);
      expect(refused.status).toBe(403);
      expect((await me(t, s)).status).toBe(200);
      for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
        expect((await t.http.get(`${API}/users/${id}/sessions`).set(headers)).status).toBe(404);
        expect((await t.http.delete(`${API}/users/${id}/sessions`).set(headers)).status).toBe(404);
      }
    });
  });

  it('a rotation racing the end of its session never leaves it alive (real parallel requests)', async () => {
    const user = await createUser(t);
    const other = await login(t, user);
    for (let round = 0; round < 15; round++) {
      const s = await login(t, user);
      const [rotated, ended] = await Promise.all([
        refreshWithToken(t, s.refresh),
        t.http.delete(`${API}/auth/sessions/${s.sid}`).set(other.auth),
      ]);
      expect([round, ended.status]).toEqual([round, 200]);
      if (rotated.status === 200) {
        const next = heldSession(rotated);
        expect([round, (await me(t, next)).status]).toEqual([round, 401]);
        expect([round, (await refreshWithToken(t, next.refresh)).status]).toEqual([round, 401]);
      } else {
        expect([round, rotated.status]).toEqual([round, 401]);
      }
      const live = await t.db.query(
        `SELECT count(*)::int AS n FROM refresh_tokens WHERE session_id = $1 AND consumed_at IS NULL`,
        [s.sid],
      );
      expect([round, live[0].n]).toEqual([round, 0]);
    }
  });
});

describe('sessions on two instances', () => {
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

  it('a session opened on one instance is accepted by the other at once', async () => {
    const user = await createUser(a);
    const first = await login(a, user);
    expect((await me(b, first)).status).toBe(200); // b caches the account with one session
    const second = await login(a, user);
    expect((await me(b, second)).status).toBe(200);
  });

  it('a session ended on one instance is refused by the other within 10 s', async () => {
    const user = await createUser(a);
    const victim = await login(a, user);
    const other = await login(a, user);
    expect((await me(b, victim)).status).toBe(200); // b holds the account row
    const since = Date.now();
    expect((await a.http.delete(`${API}/auth/sessions/${victim.sid}`).set(other.auth)).status).toBe(200);
    expect((await me(a, victim)).status).toBe(401);
    const seen = await pollUntilRefused(b, victim.token, since, 10_000);
    expect(seen).toMatchObject({ status: 401, code: 'AUTH_REQUIRED' });
    expect(seen.afterMs).toBeLessThanOrEqual(10_000);
    expect((await me(b, other)).status).toBe(200);
  });
});

describe('auth.maxSessions', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ config: { auth: { maxSessions: 2 } } });
  });
  afterAll(() => t.close());

  it('a sign-in beyond the cap ends the least recently used session', async () => {
    const user = await createUser(t);
    const oldest = await login(t, user);
    const middle = await login(t, user);
    // The oldest is used (refreshed) after the middle one: the middle one is now the least recent.
    const refreshed = await refreshWithToken(t, oldest.refresh);
    expect(refreshed.status).toBe(200);
    const kept = heldSession(refreshed);
    const newest = await login(t, user);

    expect((await me(t, middle)).status).toBe(401);
    expect((await refreshWithToken(t, middle.refresh)).status).toBe(401);
    expect((await me(t, kept)).status).toBe(200);
    expect((await me(t, newest)).status).toBe(200);
    const list = (await t.http.get(`${API}/auth/sessions`).set(newest.auth)).body.items;
    expect(list.map((s: { id: string }) => s.id)).toEqual([newest.sid, oldest.sid]);
    const audit = await t.db.query(
      `SELECT metadata FROM audit_log WHERE event = 'session-ended' AND target = $1`,
      [`user:${user.id}`],
    );
    expect(audit).toEqual([{ metadata: { sessionId: middle.sid, reason: 'max-sessions' } }]);
  });

  it('refuses a cap that is not a positive integer at boot', async () => {
    await expect(createTestApp({ config: { auth: { maxSessions: 0 } } })).rejects.toThrow(
      /auth\.maxSessions/,
    );
  });
});
