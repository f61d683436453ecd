import { createHash } from 'node:crypto';
import { accessTokenFor, createUser, sessionCookieFor, userWithPermissions } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * API key rotation with a grace period and scopes (issue 22, CONTRACTS 14.4), and the audit rows
 * of created, rotated and revoked keys (CONTRACTS 14.3).
 */
const API = '/admin/api';
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('API key rotation and scopes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A fresh browser session: creating and rotating keys need one (CONTRACTS 14.6). */
  const session = async (userId: string) => ({ Cookie: await sessionCookieFor(t, userId) });
  const withKey = (key: string) => ({ Authorization: `Bearer ${key}` });
  const permissionsOf = async (key: string) => {
    const res = await t.http.get(`${API}/me/permissions`).set(withKey(key));
    return { status: res.status, permissions: res.body.permissions as string[] | undefined };
  };

  async function newKey(userId: string, body: object = {}) {
    const res = await t.http
      .post(`${API}/api-keys`)
      .set(await session(userId))
      .send({ name: 'deploy', type: 'full-access', ...body });
    expect(res.status).toBe(201);
    return res.body as { item: { id: string; keyPrefix: string; scopes: string[] | null }; key: string };
  }

  describe('rotation', () => {
    it('gives the same record a new value; the old one works through the grace, then 401', async () => {
      const user = await createUser(t, { roles: ['super-admin'] });
      const { item, key: old } = await newKey(user.id);
      expect(item.scopes).toBeNull();
      const res = await t.http
        .post(`${API}/api-keys/${item.id}/rotate`)
        .set(await session(user.id))
        .send({ graceSeconds: 2 });
      expect(res.status).toBe(201);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        message: expect.any(String),
        item: expect.objectContaining({ id: item.id, status: 'active' }),
        key: expect.stringMatching(/^svc_live_/),
      });
      const fresh = res.body.key as string;
      expect(fresh).not.toBe(old);
      expect(res.body.item.keyPrefix).toBe(fresh.slice(0, 12));

      expect((await permissionsOf(fresh)).status).toBe(200);
      expect((await permissionsOf(old)).status).toBe(200); // within the grace
      await sleep(2200);
      const after = await t.http.get(`${API}/me/permissions`).set(withKey(old));
      expect(after.status).toBe(401);
      expect(after.body.error.code).toBe('AUTH_INVALID_CREDENTIALS');
      expect((await permissionsOf(fresh)).status).toBe(200);

      // Only hashes are stored, and the audit row holds the prefix, never the key.
      const [row] = await t.db.query(`SELECT key_hash, previous_key_hash FROM api_keys WHERE id = $1`, [
        item.id,
      ]);
      expect(row).toEqual({ key_hash: sha256(fresh), previous_key_hash: sha256(old) });
      const audit = await t.db.query(
        `SELECT event, actor_id, target, metadata FROM audit_log WHERE target = $1 ORDER BY id`,
        [`api-key:${item.id}`],
      );
      expect(audit.map((a: { event: string }) => a.event)).toEqual(['api-key-created', 'api-key-rotated']);
      expect(audit[1]).toMatchObject({ actor_id: user.id, metadata: { graceSeconds: 2 } });
      expect(JSON.stringify(audit)).not.toContain(old.slice(12));
      expect(JSON.stringify(audit)).not.toContain(fresh.slice(12));
    });

    it('without a grace the old value stops at once; a second rotation ends the first one’s grace', async () => {
      const user = await createUser(t, { roles: ['super-admin'] });
      const { item, key: first } = await newKey(user.id);
      expect((await permissionsOf(first)).status).toBe(200); // cached on this instance
      const headers = await session(user.id);
      const second = (await t.http.post(`${API}/api-keys/${item.id}/rotate`).set(headers).send({})).body
        .key as string;
      expect((await permissionsOf(first)).status).toBe(401);
      const third = (
        await t.http.post(`${API}/api-keys/${item.id}/rotate`).set(headers).send({ graceSeconds: 600 })
      ).body.key as string;
      expect((await permissionsOf(second)).status).toBe(200);
      const fourth = (await t.http.post(`${API}/api-keys/${item.id}/rotate`).set(headers).send({})).body
        .key as string;
      expect((await permissionsOf(second)).status).toBe(401);
      expect((await permissionsOf(third)).status).toBe(401);
      expect((await permissionsOf(fourth)).status).toBe(200);
    });

    it('refuses a revoked key (409), a bad grace (400), another user’s key (404), a Bearer caller (401)', async () => {
      const user = await createUser(t, { roles: ['super-admin'] });
      const { item, key } = await newKey(user.id);
      const headers = await session(user.id);
      for (const graceSeconds of [-1, 86_401, 1.5, '60']) {
        const res = await t.http
          .post(`${API}/api-keys/${item.id}/rotate`)
          .set(headers)
          .send({ graceSeconds });
        expect([graceSeconds, res.status, res.body.error?.code]).toEqual([
          graceSeconds,
          400,
          'VALIDATION_ERROR',
        ]);
      }
      const other = await createUser(t, { roles: ['super-admin'] });
      const foreign = await t.http
        .post(`${API}/api-keys/${item.id}/rotate`)
        .set(await session(other.id))
        .send({});
      expect(foreign.status).toBe(404);
      const bearer = await t.http
        .post(`${API}/api-keys/${item.id}/rotate`)
        .set('Authorization', `Bearer ${await accessTokenFor(t, user.id)}`)
        .send({});
      expect(bearer.status).toBe(401); // cookie only, as every /api-keys route
      // ...and the cookie of a real session: an access token minted without one is refused there too.
      const sessionless = await t.http
        .post(`${API}/api-keys/${item.id}/rotate`)
        .set('Cookie', `svc_session=${await accessTokenFor(t, user.id)}`)
        .send({});
      expect([sessionless.status, sessionless.body.error?.code]).toEqual([401, 'AUTH_REQUIRED']);
      expect((await t.http.post(`${API}/api-keys/${item.id}/rotate`).set(withKey(key)).send({})).status).toBe(
        401,
      );

      const revoked = await t.http.delete(`${API}/api-keys/${item.id}`).set(headers);
      expect(revoked.status).toBe(200);
      const rotate = await t.http.post(`${API}/api-keys/${item.id}/rotate`).set(headers).send({});
      expect(rotate.status).toBe(409);
      expect(rotate.body.error.code).toBe('CONFLICT');
      expect((await permissionsOf(key)).status).toBe(401);
      const events = await t.db.query(`SELECT event FROM audit_log WHERE target = $1 ORDER BY id`, [
        `api-key:${item.id}`,
      ]);
      expect(events.map((e: { event: string }) => e.event)).toEqual(['api-key-created', 'api-key-revoked']);
    });
  });

  describe('scopes', () => {
    it('narrow the key’s permissions to the listed slugs', async () => {
      const user = await userWithPermissions(t, ['read-users', 'update-users', 'read-roles']);
      const { item, key } = await newKey(user.id, { scopes: ['read-users', 'read-users'] });
      expect(item.scopes).toEqual(['read-users']);
      expect((await permissionsOf(key)).permissions).toEqual(['read-users']);
      expect((await t.http.get(`${API}/users`).set(withKey(key))).status).toBe(200);
      expect((await t.http.get(`${API}/roles`).set(withKey(key))).status).toBe(403);
      // A write that no permission names is outside every scope: 403 FORBIDDEN.
      const sent = await t.http
        .post(`${API}/email/send`)
        .set(withKey(key))
        .send({ to: 'someone@example.com', subject: 's', html: 'h' });
      expect([sent.status, sent.body.error?.code]).toEqual([403, 'FORBIDDEN']);
      const listed = await t.http.get(`${API}/api-keys/${item.id}`).set(await session(user.id));
      expect(listed.body.scopes).toEqual(['read-users']);
    });

    it('a scope the key’s type does not grant is 400 VALIDATION_ERROR', async () => {
      const user = await userWithPermissions(t, ['read-users', 'update-users']);
      const post = async (body: object) =>
        t.http
          .post(`${API}/api-keys`)
          .set(await session(user.id))
          .send({ name: 'k', ...body });
      const cases: Array<[object, string]> = [
        [{ type: 'full-access', scopes: ['read-users', 'delete-users'] }, 'scopes.1'],
        [{ type: 'read-only', scopes: ['update-users'] }, 'scopes.0'],
        [{ type: 'full-access', scopes: ['no-such-permission'] }, 'scopes.0'],
        [{ type: 'full-access', scopes: [] }, 'scopes'],
        [{ type: 'full-access', scopes: 'read-users' }, 'scopes'],
      ];
      for (const [body, path] of cases) {
        const res = await post(body);
        expect([body, res.status]).toEqual([body, 400]);
        expect(res.body.error.data.errors.map((e: { path: string }) => e.path)).toContain(path);
      }
      const count = await t.db.query(`SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1`, [user.id]);
      expect(count[0].n).toBe(0);
    });

    it('a scope the creator loses later grants nothing', async () => {
      const user = await userWithPermissions(t, ['read-users', 'read-roles']);
      const { key } = await newKey(user.id, { scopes: ['read-users', 'read-roles'] });
      await t.db.query(
        `DELETE FROM role_permissions WHERE role_id = $1
           AND permission_id = (SELECT id FROM permissions WHERE slug = 'read-roles')`,
        [user.roleId],
      );
      await sleep(5200);
      expect((await permissionsOf(key)).permissions).toEqual(['read-users']);
    });
  });
});
