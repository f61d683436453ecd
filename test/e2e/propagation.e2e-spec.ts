import type { DataSource } from 'typeorm';
import { LISTENER_NAME } from '../../src/modules/cluster/change-bus.service';
import {
  bearerFor,
  createUser,
  type CreatedUser,
  roleWithPermissions,
  sessionWithoutPassword,
  signIn,
} from '../utils/auth';
import { createTestApp, type TestApp } from '../utils/test-app';

/**
 * Two instances on one database: what one changes and the other caches (permissions, an
 * account's state and sessions, API keys, settings, content definitions, user fields) is seen by
 * the other within 1 s of the changing request's answer, well inside the caches' 5 s expiry. A
 * lost listening connection is logged, reconnected, and followed by a flush of every shared cache,
 * so a change it missed is seen too.
 */

const API = '/admin/api';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Milliseconds until `probe()` is true; fails past `ms`. */
async function until(what: string, probe: () => Promise<boolean>, ms = 5000): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await probe()) {
      return Date.now() - start;
    }
    if (Date.now() - start > ms) {
      throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    }
    await sleep(20);
  }
}

describe('propagation between instances (LISTEN/NOTIFY)', () => {
  jest.setTimeout(120_000);
  let a: TestApp;
  let b: TestApp;
  let admin: Record<string, string>;
  let adminUser: CreatedUser;

  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({ database: a.database });
    adminUser = await createUser(a, { roles: ['super-admin'] });
    admin = await bearerFor(a, adminUser.id);
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const permissionId = async (slug: string) =>
    ((await a.db.query(`SELECT id FROM permissions WHERE slug = $1`, [slug])) as Array<{ id: string }>)[0].id;

  it('a lost listening connection is logged and reconnected, then every shared cache is flushed', async () => {
    const roleId = await roleWithPermissions(a, ['read-users']);
    const user = await createUser(a);
    await a.db.query(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [user.id, roleId]);
    const token = await bearerFor(a, user.id);
    expect((await b.http.get(`${API}/users?limit=1`).set(token)).status).toBe(200);

    // A change no instance announces (made in the database directly): B's cache still has the grant.
    await a.db.query(`DELETE FROM role_permissions WHERE role_id = $1`, [roleId]);
    expect((await b.http.get(`${API}/users?limit=1`).set(token)).status).toBe(200);

    // Every listener is cut (A's and B's); B reconnects and forgets what it cached.
    const cut = await terminateListeners(a.db);
    expect(cut).toBe(2);
    const flushed = await until(
      'the flush on B',
      async () => (await b.http.get(`${API}/users?limit=1`).set(token)).status === 403,
      3000,
    );
    expect(flushed).toBeLessThan(3000);
    // Both apps of this process log through Nest's one static logger: read both captures.
    const logged = () => a.logs.text() + b.logs.text();
    await until('the reconnection log', async () =>
      /listening for other instances’ changes again/.test(logged()),
    );
    expect(logged()).toMatch(/lost the connection that hears other instances’ changes/);

    // And it hears changes again.
    const readUsers = await permissionId('read-users');
    await a.http.post(`${API}/roles/${roleId}/permissions`).set(admin).send({ permissionId: readUsers });
    await until(
      'the grant on B',
      async () => (await b.http.get(`${API}/users?limit=1`).set(token)).status === 200,
      1000,
    );
  });

  it('a permission removed on A is refused on B within 1 s, 20 times in a row', async () => {
    const roleId = await roleWithPermissions(a, ['read-users']);
    const user = await createUser(a);
    await a.db.query(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [user.id, roleId]);
    const token = await bearerFor(a, user.id);
    const readUsers = await permissionId('read-users');
    const onB = async () => (await b.http.get(`${API}/users?limit=1`).set(token)).status;
    const seen: number[] = [];
    for (let i = 0; i < 20; i++) {
      const granted = await a.http
        .patch(`${API}/roles/${roleId}/permissions`)
        .set(admin)
        .send({ permissionIds: [readUsers] });
      expect(granted.status).toBe(200);
      // B holds the grant in its cache.
      await until('the grant on B', async () => (await onB()) === 200);
      expect(await onB()).toBe(200);
      const removed = await a.http.delete(`${API}/roles/${roleId}/permissions/${readUsers}`).set(admin);
      expect(removed.status).toBe(200);
      seen.push(await until('the refusal on B', async () => (await onB()) === 403, 1000));
    }
    expect(Math.max(...seen)).toBeLessThan(1000);
  });

  it('a deactivation, ended sessions, a password write and a revoked key on A are refused on B within 1 s', async () => {
    // Deactivated.
    const gone = await createUser(a, { roles: ['staff'] });
    const goneToken = await bearerFor(a, gone.id);
    expect((await b.http.get(`${API}/me`).set(goneToken)).status).toBe(200);
    expect((await a.http.patch(`${API}/users/${gone.id}`).set(admin).send({ isActive: false })).status).toBe(
      200,
    );
    await until(
      'the deactivation on B',
      async () => (await b.http.get(`${API}/me`).set(goneToken)).status === 401,
      1000,
    );

    // Every session ended by an administrator.
    const ended = await createUser(a, { roles: ['staff'] });
    // A real session (its token names it), ended by an administrator on A.
    const endedToken = { Authorization: `Bearer ${(await sessionWithoutPassword(a, ended.id)).token}` };
    expect((await b.http.get(`${API}/me`).set(endedToken)).status).toBe(200);
    expect((await a.http.delete(`${API}/users/${ended.id}/sessions`).set(admin)).status).toBe(200);
    await until(
      'the ended sessions on B',
      async () => (await b.http.get(`${API}/me`).set(endedToken)).status === 401,
      1000,
    );

    // A password set by an administrator on A: the sessions made before it end on B too.
    const reset = await createUser(a, { roles: ['staff'] });
    const resetToken = { Authorization: `Bearer ${(await sessionWithoutPassword(a, reset.id)).token}` };
    expect((await b.http.get(`${API}/me`).set(resetToken)).status).toBe(200);
    const changed = await a.http
      .patch(`${API}/users/${reset.id}/password`)
      .set(admin)
      .send({ password: 'Another-Horse-7' });
    expect([200, 204]).toContain(changed.status);
    await until(
      'the password write on B',
      async () => (await b.http.get(`${API}/me`).set(resetToken)).status === 401,
      1000,
    );

    // A revoked API key (keys are made and revoked in a signed-in browser session).
    const { browser: owner } = await signIn(a, adminUser);
    const made = await owner.post('/api-keys', { name: 'shared', type: 'read-only' });
    expect(made.status).toBe(201);
    const key = { Authorization: `Bearer ${made.body.key as string}` };
    expect((await b.http.get(`${API}/me/permissions`).set(key)).status).toBe(200);
    const revoked = await owner.agent
      .delete(`${API}/api-keys/${made.body.item.id as string}`)
      .set('X-CSRF-Token', owner.csrf);
    expect(revoked.status).toBe(200);
    await until(
      'the revoked key on B',
      async () => (await b.http.get(`${API}/me/permissions`).set(key)).status === 401,
      1000,
    );
  });

  it('settings, a new collection and a new user field changed on A are used on B within 1 s', async () => {
    expect((await b.http.get(`${API}/general-settings`).set(admin)).status).toBe(200);
    const changed = await a.http
      .patch(`${API}/general-settings`)
      .set(admin)
      .send({ custom: { propagated: 'yes' } });
    expect(changed.status).toBe(200);
    await until(
      'the settings on B',
      async () => (await b.http.get(`${API}/general-settings`).set(admin)).body.custom?.propagated === 'yes',
      1000,
    );

    // B has loaded its definitions (no such collection) before A creates it.
    expect((await b.http.get(`${API}/collections/gadgets/entries`).set(admin)).status).toBe(404);
    const collection = await a.http
      .post(`${API}/collections`)
      .set(admin)
      .send({
        slug: 'gadgets',
        labels: { singular: 'Gadget', plural: 'Gadgets' },
        fields: [{ name: 'title', type: 'text' }],
      });
    expect(collection.status).toBe(201);
    await until(
      'the collection on B',
      async () => (await b.http.get(`${API}/collections/gadgets/entries`).set(admin)).status === 200,
      1000,
    );

    const user = await createUser(a);
    const set = () => b.http.patch(`${API}/users/${user.id}`).set(admin).send({ nickname: 'Bee' });
    expect((await set()).status).toBe(400);
    const field = await a.http.post(`${API}/user-fields`).set(admin).send({ name: 'nickname', type: 'text' });
    expect(field.status).toBe(201);
    await until('the user field on B', async () => (await set()).status === 200, 1000);
  });
});

/** Ends the listening connections of every instance on the database; how many there were. */
async function terminateListeners(db: DataSource): Promise<number> {
  const rows: Array<{ ok: boolean }> = await db.query(
    `SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity
      WHERE application_name = $1 AND datname = current_database()`,
    [LISTENER_NAME],
  );
  return rows.filter((r) => r.ok).length;
}
