import { createHash, randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import type request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { ApiKeysRepository } from '../../src/modules/api-keys/api-keys.repository';
import {
  createUser,
  CreatedUser,
  roleWithPermissions,
  sessionCookieFor,
  signIn,
  userWithPermissions,
} from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * API keys (SPEC 2.4, 3.5, 4.2 note 1, 5.3, 7, 8; CONTRACTS 5, 8, 9, 12; issue 6).
 * Keys are created over a browser session and used as `Authorization: Bearer svc_live_...`.
 */

const PROBLEM = /^application\/problem\+json/;
const JSON_TYPE = /^application\/json/;
const KEY = /^svc_live_[A-Za-z0-9_-]{40,}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const REDIS_URL = 'redis://127.0.0.1:6379';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const unique = () => randomBytes(4).toString('hex');

type Res = request.Response;

interface KeyRecord {
  id: string;
  name: string;
  description: string | null;
  type: 'read-only' | 'full-access' | 'role-based';
  roleId: string | null;
  keyPrefix: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
  status: 'active' | 'expired' | 'revoked';
  scopes: string[] | null;
  createdAt: string;
  updatedAt: string;
}

interface Problem {
  code: string;
  message: string;
  requestId: string;
  data?: Record<string, unknown>;
}

function expectProblem(res: Res, status: number, code: string): Problem {
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({
    status,
    body: { error: { code } },
  });
  expect(res.headers['content-type']).toMatch(PROBLEM);
  const error = (res.body as { error: Problem }).error;
  expect(typeof error.message).toBe('string');
  expect(error.requestId).toBe(res.headers['x-request-id']);
  return error;
}

/** 400 VALIDATION_ERROR naming (at least) this path. */
function expectInvalid(res: Res, path: string): void {
  const error = expectProblem(res, 400, 'VALIDATION_ERROR');
  const errors = error.data?.errors as Array<{ path: string; code: string; message: string }>;
  expect(Array.isArray(errors)).toBe(true);
  expect(errors.map((e) => e.path)).toContain(path);
  for (const e of errors) {
    expect(e).toEqual({ path: expect.any(String), code: expect.any(String), message: expect.any(String) });
  }
}

/** Requests under /admin/api with one way of authenticating. */
interface Client {
  get(path: string): request.Test;
  post(path: string, body?: object): request.Test;
  patch(path: string, body?: object): request.Test;
  delete(path: string): request.Test;
}

function viaAgent(agent: TestAgent, headers: Record<string, string> = {}): Client {
  return {
    get: (p) => agent.get(`/admin/api${p}`).set(headers),
    post: (p, body) =>
      agent
        .post(`/admin/api${p}`)
        .set(headers)
        .send(body ?? {}),
    patch: (p, body) =>
      agent
        .patch(`/admin/api${p}`)
        .set(headers)
        .send(body ?? {}),
    delete: (p) => agent.delete(`/admin/api${p}`).set(headers),
  };
}

const viaHeaders = (t: TestApp, headers: Record<string, string>) => viaAgent(t.http, headers);
const withKey = (t: TestApp, key: string) => viaHeaders(t, { Authorization: `Bearer ${key}` });

/**
 * A browser session (the `svc_session` cookie of a real session, signed in just now) for a user:
 * creating a key needs one (CONTRACTS 14.6), not a bare access token.
 */
async function sessionOf(t: TestApp, userId: string): Promise<Client> {
  return viaHeaders(t, { Cookie: await sessionCookieFor(t, userId) });
}

async function roleIdOf(t: TestApp, slug: string): Promise<string> {
  const [r] = await t.db.query(`SELECT id FROM roles WHERE slug = $1`, [slug]);
  return r.id as string;
}

async function permissionIds(t: TestApp, slugs: string[]): Promise<string[]> {
  const found: Array<{ id: string }> = await t.db.query(`SELECT id FROM permissions WHERE slug = ANY($1)`, [
    slugs,
  ]);
  expect(found).toHaveLength(slugs.length);
  return found.map((r) => r.id);
}

async function createKey(
  session: Client,
  body: {
    name?: string;
    description?: string | null;
    type: string;
    roleId?: string;
    expiresAt?: string | null;
  },
): Promise<{ item: KeyRecord; key: string }> {
  const res = await session.post('/api-keys', { name: `key-${unique()}`, ...body });
  if (res.status !== 201) {
    throw new Error(`key not created: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as { item: KeyRecord; key: string };
}

async function permissionsOf(
  t: TestApp,
  key: string,
): Promise<{ isSuperAdmin: boolean; permissions: string[] }> {
  const res = await withKey(t, key).get('/me/permissions');
  expect(res.status).toBe(200);
  return res.body as { isSuperAdmin: boolean; permissions: string[] };
}

/** Log records that contain this text (message and URL only, so a failure stays readable). */
function logsContaining(t: TestApp, text: string): Array<{ msg: unknown; url: unknown }> {
  return t.logs
    .records()
    .filter((r) => JSON.stringify(r).includes(text))
    .map((r) => ({ msg: r.msg, url: r.path ?? (r.req as { url?: string } | undefined)?.url }));
}

/** Polls until `probe` returns true, or fails after `ms`. Returns the time it took. */
async function eventually(probe: () => Promise<boolean>, ms: number, what: string): Promise<number> {
  const start = Date.now();
  while (!(await probe())) {
    if (Date.now() - start > ms) {
      throw new Error(`${what}: not within ${ms} ms`);
    }
    await sleep(200);
  }
  return Date.now() - start;
}

describe('API keys', () => {
  let t: TestApp;
  let superAdmin: CreatedUser;
  let admin: Client;
  /** Holds read-users and create-users, signed in through /auth/login. */
  let writer: CreatedUser & { roleId: string };
  let writerSession: Client;
  let writerAgent: TestAgent;
  let writerToken: string;

  beforeAll(async () => {
    t = await createTestApp();
    superAdmin = await createUser(t, { roles: ['super-admin'] });
    writer = await userWithPermissions(t, ['read-users', 'create-users']);
    const [sa, w] = await Promise.all([signIn(t, superAdmin), signIn(t, writer)]);
    admin = viaAgent(sa.browser.agent);
    writerAgent = w.browser.agent;
    writerSession = viaAgent(writerAgent);
    writerToken = w.body.token;
  });
  afterAll(() => t.close());

  describe('POST /api-keys and the key record (CONTRACTS 5)', () => {
    it('answers 201 { message, item, key } with the key once, then never again; only its SHA-256 and prefix are stored', async () => {
      const before = Date.now();
      const res = await writerSession.post('/api-keys', {
        name: 'CI deploy',
        description: 'used by the pipeline',
        type: 'read-only',
      });
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toMatch(JSON_TYPE);
      expect(Object.keys(res.body as object).sort()).toEqual(['item', 'key', 'message']);
      const { message, item, key } = res.body as { message: string; item: KeyRecord; key: string };
      expect(typeof message).toBe('string');
      expect(key).toMatch(KEY);
      expect(item).toEqual({
        id: expect.stringMatching(UUID),
        name: 'CI deploy',
        description: 'used by the pipeline',
        type: 'read-only',
        roleId: null,
        keyPrefix: key.slice(0, 12),
        expiresAt: null,
        revokedAt: null,
        lastUsedAt: null,
        status: 'active',
        scopes: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
      });
      expect(Object.keys(item)).toHaveLength(13);
      expect(Date.parse(item.createdAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(item.createdAt)).toBeLessThanOrEqual(Date.now() + 1000);

      // Every key is new random material.
      const other = await createKey(writerSession, { type: 'read-only' });
      expect(other.key).toMatch(KEY);
      expect(other.key).not.toBe(key);
      expect(other.item.keyPrefix).toBe(other.key.slice(0, 12));

      // The key works...
      expect((await withKey(t, key).get('/me')).status).toBe(200);

      // ...and no later answer contains it (nor its secret part, nor its hash).
      const secret = key.slice(12);
      const hash = sha256(key);
      const never = (r: Res) => {
        const text = JSON.stringify(r.body);
        expect(text).not.toContain(secret);
        expect(text).not.toContain(hash);
        expect(r.text).not.toContain(secret);
      };
      const list = await writerSession.get('/api-keys');
      expect(list.status).toBe(200);
      expect((list.body as { items: KeyRecord[] }).items.map((k) => k.id)).toContain(item.id);
      never(list);
      const one = await writerSession.get(`/api-keys/${item.id}`);
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ ...item, lastUsedAt: expect.anything(), updatedAt: expect.any(String) });
      never(one);
      const patched = await writerSession.patch(`/api-keys/${item.id}`, { name: 'CI deploy (renamed)' });
      expect(patched.status).toBe(200);
      never(patched);
      const revoked = await writerSession.delete(`/api-keys/${item.id}`);
      expect(revoked.status).toBe(200);
      never(revoked);

      // The row: the SHA-256 hex of the key and the 12-character prefix, nothing else of the key.
      const [row] = await t.db.query(`SELECT * FROM api_keys WHERE id = $1`, [item.id]);
      expect(row.key_hash).toBe(hash);
      expect(row.key_prefix).toBe(key.slice(0, 12));
      expect(row.user_id).toBe(writer.id);
      for (const [column, value] of Object.entries(row as Record<string, unknown>)) {
        const text = value instanceof Date ? value.toISOString() : String(value);
        expect({ column, hasKey: text.includes(secret) }).toEqual({ column, hasKey: false });
      }

      // No table of the database holds the key (or its secret part) anywhere.
      const tables: Array<{ name: string }> = await t.db.query(
        `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name
           FROM information_schema.tables
          WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
      );
      expect(tables.length).toBeGreaterThan(5);
      for (const { name } of tables) {
        const [hit] = await t.db.query(`SELECT count(*)::int AS n FROM ${name} x WHERE x::text LIKE $1`, [
          `%${secret}%`,
        ]);
        expect({ table: name, rows: hit.n }).toEqual({ table: name, rows: 0 });
      }
      // ...and no log line does either.
      expect(logsContaining(t, secret)).toEqual([]);
    });

    it('lists only the caller’s own keys as a List record', async () => {
      const other = await userWithPermissions(t, ['read-users']);
      const otherSession = await sessionOf(t, other.id);
      const mine = await createKey(otherSession, { type: 'read-only', name: 'mine-1' });
      await createKey(otherSession, { type: 'full-access', name: 'mine-2' });
      await createKey(writerSession, { type: 'read-only', name: 'not-theirs' });

      const res = await otherSession.get('/api-keys');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        items: expect.any(Array),
        meta: { total: 2, page: 1, limit: 10, totalPages: 1, hasNext: false, hasPrev: false },
      });
      const items = (res.body as { items: KeyRecord[] }).items;
      expect(items.map((k) => k.name).sort()).toEqual(['mine-1', 'mine-2']);
      expect(items.find((k) => k.id === mine.item.id)).toEqual(mine.item);
      expect(JSON.stringify(res.body)).not.toContain(mine.key.slice(12));
    });

    it('GET /api-keys takes page, limit, search and sort like every list', async () => {
      const owner = await userWithPermissions(t, ['read-users']);
      const session = await sessionOf(t, owner.id);
      for (const name of ['Beta deploy', 'alpha deploy', 'Gamma 100% report', 'delta_backup']) {
        await createKey(session, { type: 'read-only', name });
      }
      const names = async (query: string) => {
        const res = await session.get(`/api-keys${query}`);
        expect({ query, status: res.status }).toEqual({ query, status: 200 });
        return res.body as { items: KeyRecord[]; meta: Record<string, unknown> };
      };
      expect((await names('?sort=name')).items.map((k) => k.name)).toEqual([
        'alpha deploy',
        'Beta deploy',
        'delta_backup',
        'Gamma 100% report',
      ]);
      expect((await names('?sort=-name&limit=2&page=2')).items.map((k) => k.name)).toEqual([
        'Beta deploy',
        'alpha deploy',
      ]);
      expect((await names('?sort=-name&limit=2&page=2')).meta).toEqual({
        total: 4,
        page: 2,
        limit: 2,
        totalPages: 2,
        hasNext: false,
        hasPrev: true,
      });
      // Default order: newest first.
      expect((await names('')).items[0].name).toBe('delta_backup');
      // search: case-insensitive "contains"; %, _ and \ match themselves.
      expect((await names('?search=DEPLOY&sort=name')).items.map((k) => k.name)).toEqual([
        'alpha deploy',
        'Beta deploy',
      ]);
      expect((await names(`?search=${encodeURIComponent('100%')}`)).items.map((k) => k.name)).toEqual([
        'Gamma 100% report',
      ]);
      // 'a_d' would match "alpha deploy" if _ were a wildcard.
      expect((await names('?search=a_d')).items).toEqual([]);
      expect((await names('?search=delta_')).items.map((k) => k.name)).toEqual(['delta_backup']);
      expectInvalid(await session.get('/api-keys?sort=keyHash'), 'sort');
      expectInvalid(await session.get('/api-keys?page=0'), 'page');
    });

    it('accepts an expiry in the future or null', async () => {
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const dated = await createKey(writerSession, { type: 'full-access', expiresAt });
      expect(dated.item.expiresAt).toBe(expiresAt);
      expect(dated.item.status).toBe('active');
      expect((await withKey(t, dated.key).get('/me')).status).toBe(200);
      const open = await createKey(writerSession, { type: 'full-access', expiresAt: null });
      expect(open.item.expiresAt).toBeNull();
    });
  });

  describe('validation (CONTRACTS 9)', () => {
    it('refuses bad create bodies with 400 VALIDATION_ERROR naming the field, and creates nothing', async () => {
      const count = async () =>
        (await t.db.query(`SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1`, [writer.id]))[0]
          .n as number;
      const before = await count();
      const someRole = await roleWithPermissions(t, ['read-users']);
      const post = (body: object) => writerSession.post('/api-keys', body);

      expectInvalid(await post({ name: 'a', type: 'role-based' }), 'roleId');
      expectInvalid(await post({ name: 'a', type: 'role-based', roleId: null }), 'roleId');
      expectInvalid(await post({ name: 'a', type: 'role-based', roleId: 'not-a-uuid' }), 'roleId');
      expectInvalid(await post({ name: 'a', type: 'read-only', roleId: someRole }), 'roleId');
      expectInvalid(await post({ name: 'a', type: 'full-access', roleId: someRole }), 'roleId');
      expectInvalid(
        await post({
          name: 'a',
          type: 'full-access',
          expiresAt: new Date(Date.now() - 60_000).toISOString(),
        }),
        'expiresAt',
      );
      expectInvalid(await post({ name: 'a', type: 'read-only', expiresAt: 'next tuesday' }), 'expiresAt');
      expectInvalid(await post({ name: 'a', type: 'admin' }), 'type');
      expectInvalid(await post({ name: 'a' }), 'type');
      expectInvalid(await post({ type: 'read-only' }), 'name');
      expectInvalid(await post({ name: '   ', type: 'read-only' }), 'name');
      expectInvalid(await post({ name: 'a', type: 'read-only', keyPrefix: 'svc_live_abc' }), 'keyPrefix');
      // A role-based key for a role that does not exist.
      expectInvalid(
        await post({ name: 'a', type: 'role-based', roleId: '00000000-0000-4000-8000-000000000000' }),
        'roleId',
      );

      expect(await count()).toBe(before);
    });

    it('PATCH /api-keys/{id} changes name and description only; anything else is 400', async () => {
      const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
      const { item } = await createKey(writerSession, {
        name: 'before',
        description: 'old',
        type: 'read-only',
        expiresAt,
      });

      const res = await writerSession.patch(`/api-keys/${item.id}`, { name: 'after', description: 'new' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: { ...item, name: 'after', description: 'new', updatedAt: expect.stringMatching(ISO) },
      });
      const cleared = await writerSession.patch(`/api-keys/${item.id}`, { description: null });
      expect(cleared.status).toBe(200);
      expect((cleared.body as { item: KeyRecord }).item).toMatchObject({ name: 'after', description: null });

      const patch = (body: object) => writerSession.patch(`/api-keys/${item.id}`, body);
      expectInvalid(await patch({ type: 'full-access' }), 'type');
      expectInvalid(await patch({ expiresAt: new Date(Date.now() + 7_200_000).toISOString() }), 'expiresAt');
      expectInvalid(await patch({ expiresAt: null }), 'expiresAt');
      expectInvalid(await patch({ roleId: await roleWithPermissions(t, []) }), 'roleId');
      expectInvalid(await patch({ revokedAt: null }), 'revokedAt');
      expectInvalid(await patch({ status: 'active' }), 'status');
      expectInvalid(await patch({ name: 'x', type: 'role-based' }), 'type');
      expectInvalid(await patch({ name: '' }), 'name');
      expectInvalid(await patch({ name: null }), 'name');

      const now = await writerSession.get(`/api-keys/${item.id}`);
      expect(now.body).toMatchObject({ name: 'after', description: null, type: 'read-only', expiresAt });
    });

    it('answers 404 NOT_FOUND for a non-UUID id, an unknown id and another user’s key (which stays untouched)', async () => {
      const other = await userWithPermissions(t, ['read-users']);
      const theirs = await createKey(await sessionOf(t, other.id), { type: 'read-only', name: 'theirs' });
      for (const id of ['not-a-uuid', '123', '00000000-0000-4000-8000-000000000000', theirs.item.id]) {
        expectProblem(await writerSession.get(`/api-keys/${id}`), 404, 'NOT_FOUND');
        expectProblem(await writerSession.patch(`/api-keys/${id}`, { name: 'stolen' }), 404, 'NOT_FOUND');
        expectProblem(await writerSession.delete(`/api-keys/${id}`), 404, 'NOT_FOUND');
      }
      const [row] = await t.db.query(`SELECT name, revoked_at FROM api_keys WHERE id = $1`, [theirs.item.id]);
      expect(row).toEqual({ name: 'theirs', revoked_at: null });
      expect((await withKey(t, theirs.key).get('/users')).status).toBe(200);
    });
  });

  describe('/api-keys is for browser sessions only (SPEC 4.2 note 1, CONTRACTS 12)', () => {
    it('refuses Bearer with an API key or an access token, and no credentials, with 401 AUTH_REQUIRED on every route', async () => {
      const { item, key } = await createKey(writerSession, { type: 'full-access', name: 'stolen' });
      // Both credentials are valid elsewhere.
      expect((await withKey(t, key).get('/users')).status).toBe(200);
      expect((await viaHeaders(t, { Authorization: `Bearer ${writerToken}` }).get('/users')).status).toBe(
        200,
      );

      const callers: Array<[string, Client]> = [
        ['Bearer API key', withKey(t, key)],
        ['Bearer access token', viaHeaders(t, { Authorization: `Bearer ${writerToken}` })],
        ['no credentials', viaHeaders(t, {})],
        // A Bearer header wins over the session cookie that comes with it.
        ['session cookie plus Bearer API key', viaAgent(writerAgent, { Authorization: `Bearer ${key}` })],
      ];
      for (const [label, c] of callers) {
        const calls: Array<[string, () => request.Test]> = [
          ['GET /api-keys', () => c.get('/api-keys')],
          ['POST /api-keys', () => c.post('/api-keys', { name: 'minted', type: 'full-access' })],
          ['GET /api-keys/{id}', () => c.get(`/api-keys/${item.id}`)],
          ['PATCH /api-keys/{id}', () => c.patch(`/api-keys/${item.id}`, { name: 'hijacked' })],
          ['DELETE /api-keys/{id}', () => c.delete(`/api-keys/${item.id}`)],
        ];
        for (const [route, call] of calls) {
          const res = await call();
          expect({
            label,
            route,
            status: res.status,
            code: (res.body as { error?: Problem }).error?.code,
          }).toEqual({
            label,
            route,
            status: 401,
            code: 'AUTH_REQUIRED',
          });
          expect(res.headers['content-type']).toMatch(PROBLEM);
        }
      }

      // Nothing was minted, renamed or revoked.
      const [row] = await t.db.query(`SELECT name, revoked_at FROM api_keys WHERE id = $1`, [item.id]);
      expect(row).toEqual({ name: 'stolen', revoked_at: null });
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM api_keys WHERE name = 'minted'`);
      expect(n).toBe(0);
      expect((await withKey(t, key).get('/users')).status).toBe(200);
    });
  });

  describe('/api-keys refuses a Bearer credential of any kind (issue 6, CONTRACTS 12)', () => {
    it('answers 401 AUTH_REQUIRED for an unknown or revoked key there too', async () => {
      const revoked = await createKey(writerSession, { type: 'full-access' });
      expect((await writerSession.delete(`/api-keys/${revoked.item.id}`)).status).toBe(200);
      const unknown = `svc_live_${randomBytes(32).toString('base64url')}`;
      for (const key of [unknown, revoked.key]) {
        const k = withKey(t, key);
        for (const res of [
          await k.get('/api-keys'),
          await k.post('/api-keys', { name: 'minted', type: 'full-access' }),
          await k.get(`/api-keys/${revoked.item.id}`),
        ]) {
          expectProblem(res, 401, 'AUTH_REQUIRED');
        }
      }
    });
  });

  describe('types against a permission matrix (SPEC 2.4)', () => {
    const newUser = { email: () => `made-${unique()}@example.com`, name: 'Made by a key' };

    it('read-only: the creator’s read-* permissions only, even with a creator who can write', async () => {
      const { item, key } = await createKey(writerSession, { type: 'read-only' });
      expect(item.type).toBe('read-only');
      const k = withKey(t, key);
      expect((await k.get('/users')).status).toBe(200);
      expectProblem(await k.post('/users', { email: newUser.email(), name: newUser.name }), 403, 'FORBIDDEN');
      expectProblem(await k.get('/roles'), 403, 'FORBIDDEN');
      expect(await permissionsOf(t, key)).toEqual({ isSuperAdmin: false, permissions: ['read-users'] });
      // The key acts as its creator.
      const me = await k.get('/me');
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ id: writer.id, email: writer.email });
    });

    it('full-access: every permission of the creator’s roles, and no more', async () => {
      const { key } = await createKey(writerSession, { type: 'full-access' });
      const k = withKey(t, key);
      expect((await k.get('/users')).status).toBe(200);
      const created = await k.post('/users', { email: newUser.email(), name: newUser.name });
      expect(created.status).toBe(201);
      expectProblem(await k.get('/roles'), 403, 'FORBIDDEN');
      expectProblem(
        await k.post('/permissions', { action: 'read', resource: `x${unique()}` }),
        403,
        'FORBIDDEN',
      );
      expect(await permissionsOf(t, key)).toEqual({
        isSuperAdmin: false,
        permissions: ['create-users', 'read-users'],
      });
    });

    it('role-based: the chosen role’s permissions, not the creator’s, following the role as it changes', async () => {
      const creator = await userWithPermissions(t, ['read-users', 'read-roles']);
      const creatorSession = await sessionOf(t, creator.id);
      const chosen = await roleWithPermissions(t, ['read-roles']);
      const { item, key } = await createKey(creatorSession, { type: 'role-based', roleId: chosen });
      expect(item).toMatchObject({ type: 'role-based', roleId: chosen, status: 'active' });
      const k = withKey(t, key);
      expect((await k.get('/roles')).status).toBe(200);
      expectProblem(await k.get('/users'), 403, 'FORBIDDEN');
      expect(await permissionsOf(t, key)).toEqual({ isSuperAdmin: false, permissions: ['read-roles'] });

      // The role gains a permission (through the API): the key has it at once.
      const grant = await admin.patch(`/roles/${chosen}/permissions`, {
        permissionIds: await permissionIds(t, ['read-roles', 'read-users']),
      });
      expect(grant.status).toBe(200);
      expect((await k.get('/users')).status).toBe(200);

      // The creator loses every role: a role-based key does not depend on them.
      expect((await admin.delete(`/users/${creator.id}/roles/${creator.roleId}`)).status).toBe(200);
      expect((await k.get('/roles')).status).toBe(200);

      // The role is deleted: the key grants nothing (and never falls back to the creator's roles).
      await t.db.query(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [
        creator.id,
        creator.roleId,
      ]);
      expect((await admin.delete(`/roles/${chosen}`)).status).toBe(200);
      expectProblem(await k.get('/roles'), 403, 'FORBIDDEN');
      expectProblem(await k.get('/users'), 403, 'FORBIDDEN');
    });

    it('follows the creator’s roles: a role removed through the API applies to the key at once', async () => {
      const creator = await userWithPermissions(t, ['read-users']);
      const { key } = await createKey(await sessionOf(t, creator.id), { type: 'full-access' });
      const k = withKey(t, key);
      expect((await k.get('/users')).status).toBe(200);

      expect((await admin.delete(`/users/${creator.id}/roles/${creator.roleId}`)).status).toBe(200);
      expectProblem(await k.get('/users'), 403, 'FORBIDDEN');
      expect(await permissionsOf(t, key)).toEqual({ isSuperAdmin: false, permissions: [] });

      expect((await admin.post(`/users/${creator.id}/roles`, { roleId: creator.roleId })).status).toBe(200);
      expect((await k.get('/users')).status).toBe(200);

      // The creator's role itself loses the permission.
      const revoke = await admin.patch(`/roles/${creator.roleId}/permissions`, { permissionIds: [] });
      expect(revoke.status).toBe(200);
      expectProblem(await k.get('/users'), 403, 'FORBIDDEN');
    });

    it('a super-admin creator’s read-only key reads everything, permissions added later included, and writes nothing', async () => {
      const { key } = await createKey(admin, { type: 'read-only' });
      const k = withKey(t, key);
      for (const path of ['/users', '/roles', '/permissions', `/users/${writer.id}`]) {
        expect({ path, status: (await k.get(path)).status }).toEqual({ path, status: 200 });
      }
      expectProblem(
        await k.post('/permissions', { action: 'read', resource: `x${unique()}` }),
        403,
        'FORBIDDEN',
      );
      expectProblem(await k.post('/users', { email: newUser.email(), name: newUser.name }), 403, 'FORBIDDEN');
      expectProblem(await k.patch(`/users/${writer.id}`, { name: 'nope' }), 403, 'FORBIDDEN');
      expectProblem(await k.delete(`/users/${writer.id}`), 403, 'FORBIDDEN');

      const resource = `gizmos${unique()}`;
      for (const action of ['read', 'create']) {
        const res = await admin.post('/permissions', { action, resource });
        expect(res.status).toBe(201);
      }
      const after = await permissionsOf(t, key);
      expect(after.isSuperAdmin).toBe(false);
      expect(after.permissions).toContain(`read-${resource}`);
      expect(after.permissions).not.toContain(`create-${resource}`);
      expect(after.permissions.length).toBeGreaterThan(5);
      expect(after.permissions.filter((p) => !p.startsWith('read-'))).toEqual([]);
      const listed = await k.get(`/permissions?search=${resource}`);
      expect(listed.status).toBe(200);
      expect((listed.body as { items: Array<{ slug: string }> }).items.map((p) => p.slug).sort()).toEqual([
        `create-${resource}`,
        `read-${resource}`,
      ]);
      expectProblem(await k.post('/permissions', { action: 'update', resource }), 403, 'FORBIDDEN');

      // A full-access key of a super-admin copies the whole catalogue, writes included.
      const full = await createKey(admin, { type: 'full-access' });
      const fullPermissions = await permissionsOf(t, full.key);
      expect(fullPermissions.isSuperAdmin).toBe(false);
      expect(fullPermissions.permissions).toEqual(
        expect.arrayContaining([`read-${resource}`, `create-${resource}`, 'create-permissions']),
      );
      expect((await withKey(t, full.key).post('/permissions', { action: 'delete', resource })).status).toBe(
        201,
      );
    });

    it('a creator whose role inherits Super Admin counts the same', async () => {
      const deputy = await admin.post('/roles', { name: `Deputy ${unique()}` });
      expect(deputy.status).toBe(201);
      const deputyId = (deputy.body as { item: { id: string } }).item.id;
      const link = await admin.post(`/roles/${await roleIdOf(t, 'super-admin')}/children`, {
        childId: deputyId,
      });
      expect(link.status).toBe(200);
      const creator = await createUser(t);
      await t.db.query(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [creator.id, deputyId]);

      const { key } = await createKey(await sessionOf(t, creator.id), { type: 'read-only' });
      const k = withKey(t, key);
      expect((await k.get('/users')).status).toBe(200);
      expect((await k.get('/roles')).status).toBe(200);
      const resource = `widgets${unique()}`;
      expect((await admin.post('/permissions', { action: 'read', resource })).status).toBe(201);
      expect((await permissionsOf(t, key)).permissions).toContain(`read-${resource}`);
      expectProblem(await k.post('/permissions', { action: 'create', resource }), 403, 'FORBIDDEN');
    });

    it('a non-super-admin cannot create a role-based key for a role granting more than they hold, nor for Super Admin', async () => {
      const count = async () =>
        (await t.db.query(`SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1`, [writer.id]))[0]
          .n as number;
      const before = await count();
      const wider = await roleWithPermissions(t, ['read-users', 'read-roles']);
      const other = await roleWithPermissions(t, ['read-roles']);
      const superAdminRole = await roleIdOf(t, 'super-admin');
      const heir = await roleWithPermissions(t, []);
      expect((await admin.post(`/roles/${superAdminRole}/children`, { childId: heir })).status).toBe(200);

      for (const roleId of [wider, other, superAdminRole, heir]) {
        const res = await writerSession.post('/api-keys', { name: 'escalate', type: 'role-based', roleId });
        expectProblem(res, 403, 'FORBIDDEN');
      }
      expect(await count()).toBe(before);

      // A role within the creator's permissions is fine.
      const narrower = await roleWithPermissions(t, ['read-users']);
      const ok = await createKey(writerSession, { type: 'role-based', roleId: narrower });
      expect(ok.item.roleId).toBe(narrower);
      expect((await withKey(t, ok.key).get('/users')).status).toBe(200);
      expectProblem(
        await withKey(t, ok.key).post('/users', { email: newUser.email(), name: 'x' }),
        403,
        'FORBIDDEN',
      );

      // A super-admin may choose any role, Super Admin included.
      const bySuper = await createKey(admin, { type: 'role-based', roleId: wider });
      expect((await withKey(t, bySuper.key).get('/roles')).status).toBe(200);
      // ...and the key then holds that role's permissions, not the super-admin's.
      expectProblem(
        await withKey(t, bySuper.key).post('/users', { email: newUser.email(), name: 'x' }),
        403,
        'FORBIDDEN',
      );
      expect((await createKey(admin, { type: 'role-based', roleId: superAdminRole })).item.roleId).toBe(
        superAdminRole,
      );
    });
  });

  describe('refused keys: 401 AUTH_INVALID_CREDENTIALS (SPEC 3.5, CONTRACTS 5, 9)', () => {
    it('a revoked key: DELETE answers { message, item } with status "revoked"; the key is refused at once', async () => {
      const { item, key } = await createKey(writerSession, { type: 'full-access' });
      const k = withKey(t, key);
      expect((await k.get('/users')).status).toBe(200);

      const res = await writerSession.delete(`/api-keys/${item.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: {
          ...item,
          lastUsedAt: expect.anything(),
          revokedAt: expect.stringMatching(ISO),
          status: 'revoked',
          updatedAt: expect.stringMatching(ISO),
        },
      });

      expectProblem(await k.get('/users'), 401, 'AUTH_INVALID_CREDENTIALS');
      expectProblem(await k.get('/me'), 401, 'AUTH_INVALID_CREDENTIALS');
      const shown = await writerSession.get(`/api-keys/${item.id}`);
      expect(shown.body).toMatchObject({
        status: 'revoked',
        revokedAt: (res.body as { item: KeyRecord }).item.revokedAt,
      });
    });

    it('an expired key is refused once its expiry passes, and shows status "expired"', async () => {
      const expiresAt = new Date(Date.now() + 2500).toISOString();
      const { item, key } = await createKey(writerSession, { type: 'full-access', expiresAt });
      const k = withKey(t, key);
      expect((await k.get('/users')).status).toBe(200);
      // The one sleep of this file: time passing its expiry is what expires a key (SPEC 3.5), and
      // the key row is cached (5 s), so moving expires_at in the database would not stand for it.
      await sleep(Date.parse(expiresAt) - Date.now() + 100);
      expectProblem(await k.get('/users'), 401, 'AUTH_INVALID_CREDENTIALS');
      const shown = await writerSession.get(`/api-keys/${item.id}`);
      expect(shown.body).toMatchObject({ status: 'expired', expiresAt, revokedAt: null });
    });

    it('an unknown key, or a real key altered by one character', async () => {
      const { key } = await createKey(writerSession, { type: 'full-access' });
      const last = key.slice(-1) === 'A' ? 'B' : 'A';
      for (const bad of [
        `svc_live_${randomBytes(32).toString('base64url')}`,
        key.slice(0, -1) + last,
        'svc_live_',
      ]) {
        expectProblem(await withKey(t, bad).get('/users'), 401, 'AUTH_INVALID_CREDENTIALS');
      }
      expect((await withKey(t, key).get('/users')).status).toBe(200);
    });

    it('a deactivated creator’s key is refused; deleting the creator deletes the keys', async () => {
      const deactivated = await userWithPermissions(t, ['read-users']);
      const dKey = await createKey(await sessionOf(t, deactivated.id), { type: 'full-access' });
      expect((await withKey(t, dKey.key).get('/users')).status).toBe(200);
      expect((await admin.patch(`/users/${deactivated.id}`, { isActive: false })).status).toBe(200);
      expectProblem(await withKey(t, dKey.key).get('/users'), 401, 'AUTH_INVALID_CREDENTIALS');
      expectProblem(await withKey(t, dKey.key).get('/me'), 401, 'AUTH_INVALID_CREDENTIALS');

      const deleted = await userWithPermissions(t, ['read-users']);
      const deletedSession = await sessionOf(t, deleted.id);
      const keys = [
        await createKey(deletedSession, { type: 'full-access' }),
        await createKey(deletedSession, { type: 'read-only' }),
      ];
      expect((await withKey(t, keys[0].key).get('/users')).status).toBe(200);
      expect((await admin.delete(`/users/${deleted.id}`)).status).toBe(200);
      for (const { key } of keys) {
        expectProblem(await withKey(t, key).get('/users'), 401, 'AUTH_INVALID_CREDENTIALS');
      }
      const [{ n }] = await t.db.query(
        `SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1 OR id = ANY($2::uuid[])`,
        [deleted.id, keys.map((k) => k.item.id)],
      );
      expect(n).toBe(0);
    });

    it('changes made outside this instance (straight in the database) apply within the 10 s bound', async () => {
      const creator = await userWithPermissions(t, ['read-users']);
      const session = await sessionOf(t, creator.id);
      const revoked = await createKey(session, { type: 'full-access' });
      const expired = await createKey(session, { type: 'full-access' });
      const demotedCreator = await userWithPermissions(t, ['read-users']);
      const demotedKey = await createKey(await sessionOf(t, demotedCreator.id), { type: 'read-only' });
      // Warm every cache.
      for (const { key } of [revoked, expired, demotedKey]) {
        expect((await withKey(t, key).get('/users')).status).toBe(200);
      }
      await t.db.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1`, [revoked.item.id]);
      await t.db.query(`UPDATE api_keys SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
        expired.item.id,
      ]);
      await t.db.query(`DELETE FROM user_roles WHERE user_id = $1`, [demotedCreator.id]);

      const status = async (key: string) => (await withKey(t, key).get('/users')).status;
      await Promise.all([
        eventually(async () => (await status(revoked.key)) === 401, 10_000, 'revoked in the database'),
        eventually(async () => (await status(expired.key)) === 401, 10_000, 'expired in the database'),
        eventually(
          async () => (await status(demotedKey.key)) === 403,
          10_000,
          'role removed in the database',
        ),
      ]);
      expectProblem(await withKey(t, revoked.key).get('/users'), 401, 'AUTH_INVALID_CREDENTIALS');
      expectProblem(await withKey(t, expired.key).get('/users'), 401, 'AUTH_INVALID_CREDENTIALS');
    }, 20_000);
  });

  describe('only Authorization: Bearer carries a key (SPEC 5.3)', () => {
    it('ignores X-API-Key (401 AUTH_REQUIRED) and other schemes, and never logs the key sent that way', async () => {
      const { key } = await createKey(writerSession, { type: 'full-access' });
      for (const path of ['/me', '/users']) {
        expectProblem(await viaHeaders(t, { 'X-API-Key': key }).get(path), 401, 'AUTH_REQUIRED');
        expectProblem(await viaHeaders(t, { Authorization: key }).get(path), 401, 'AUTH_REQUIRED');
        expectProblem(
          await viaHeaders(t, { Authorization: `ApiKey ${key}` }).get(path),
          401,
          'AUTH_REQUIRED',
        );
      }
      expect((await withKey(t, key).get('/users')).status).toBe(200);
      // A client that sends the key in the wrong header must not find it in the server log.
      expect(logsContaining(t, key.slice(12))).toEqual([]);
    });
  });

  describe('lastUsedAt', () => {
    it('is set after the first use and not rewritten on every request', async () => {
      const { item, key } = await createKey(writerSession, { type: 'read-only' });
      expect(item.lastUsedAt).toBeNull();
      // Whether a request writes lastUsedAt is decided (and the write started) while it is being
      // answered: counting the writes once the answers are in needs no wait for "nothing more".
      const writes = jest.spyOn(t.app.get(ApiKeysRepository), 'touch');
      try {
        const used = Date.now();
        expect((await withKey(t, key).get('/users')).status).toBe(200);

        let first: string | null = null;
        await eventually(
          async () => {
            first = ((await writerSession.get(`/api-keys/${item.id}`)).body as KeyRecord).lastUsedAt;
            return first !== null;
          },
          3000,
          'lastUsedAt written',
        );
        expect(first).toMatch(ISO);
        expect(Date.parse(first!)).toBeGreaterThanOrEqual(used - 1000);
        expect(Date.parse(first!)).toBeLessThanOrEqual(Date.now() + 1000);

        expect((await withKey(t, key).get('/users')).status).toBe(200);
        expect((await withKey(t, key).get('/me')).status).toBe(200);
        expect(writes).toHaveBeenCalledTimes(1);
        const again = (await writerSession.get(`/api-keys/${item.id}`)).body as KeyRecord;
        expect(again.lastUsedAt).toBe(first);
      } finally {
        writes.mockRestore();
      }
    });
  });
});

describe('per-key rate limit (SPEC 8, CONTRACTS 5, 9)', () => {
  const config = { apiKeys: { rateLimit: { max: 3, windowSeconds: 60 } } };

  function expectBudget(res: Res, remaining: number): void {
    const now = Math.floor(Date.now() / 1000);
    expect(res.headers['x-ratelimit-limit']).toBe('3');
    expect(res.headers['x-ratelimit-remaining']).toBe(String(remaining));
    const reset = Number(res.headers['x-ratelimit-reset']);
    expect(res.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
    expect(reset).toBeGreaterThanOrEqual(now);
    expect(reset).toBeLessThanOrEqual(now + 60);
  }

  function expectRateLimited(res: Res): void {
    const error = expectProblem(res, 429, 'RATE_LIMITED');
    const retryAfter = res.headers['retry-after'];
    expect(retryAfter).toMatch(/^\d+$/);
    expect(retryAfter).toBe(String(error.data?.retryAfterSeconds));
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
  }

  // The same budget answered from memory (no REDIS_URL) and from Redis: the same headers.
  describe.each([
    ['in memory', false],
    ['in Redis', true],
  ])('counters %s', (_where, redis) => {
    const prefix = `svc-test-apikeys-one-${process.pid}-${Date.now()}:`;
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        config,
        overrides: redis ? { redisUrl: REDIS_URL, redisPrefix: prefix } : {},
      });
    });
    afterAll(async () => {
      await t.close();
      if (redis) {
        const client = new Redis(REDIS_URL);
        const keys = await client.keys(`${prefix}*`);
        if (keys.length) {
          await client.del(...keys);
        }
        await client.quit();
      }
    });

    it('counts down X-RateLimit-Remaining, then 429 RATE_LIMITED with Retry-After; each key has its own budget', async () => {
      const user = await userWithPermissions(t, ['read-users']);
      const session = await sessionOf(t, user.id);
      const one = await createKey(session, { type: 'full-access' });
      const two = await createKey(session, { type: 'full-access' });

      for (const remaining of [2, 1, 0]) {
        const res = await withKey(t, one.key).get('/users');
        expect(res.status).toBe(200);
        expectBudget(res, remaining);
      }
      const limited = await withKey(t, one.key).get('/users');
      expectRateLimited(limited);
      expectBudget(limited, 0);
      expectRateLimited(await withKey(t, one.key).get('/me'));

      // The second key of the same user: its own budget; a refused (403) key request counts too.
      const first = await withKey(t, two.key).get('/me');
      expect(first.status).toBe(200);
      expectBudget(first, 2);
      const forbidden = await withKey(t, two.key).get('/roles');
      expectProblem(forbidden, 403, 'FORBIDDEN');
      expectBudget(forbidden, 1);

      // Session requests are not counted against keys and carry no key budget.
      const bySession = await session.get('/users');
      expect(bySession.status).toBe(200);
      expect(bySession.headers['x-ratelimit-limit']).toBeUndefined();
      expect((await session.get(`/api-keys/${one.item.id}`)).status).toBe(200);
    });
  });

  describe('with Redis (REDIS_URL): two instances share one budget per key', () => {
    const prefix = `svc-test-apikeys-${process.pid}-${Date.now()}:`;
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 2 });
    const apps: TestApp[] = [];

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
      // The second instance first: the first owns the database.
      for (const a of apps.reverse()) {
        await a.close();
      }
      const keys = await ourKeys();
      if (keys.length) {
        await redis.del(...keys);
      }
      expect(await ourKeys()).toEqual([]);
      await redis.quit();
    });

    it('2 requests on A and 1 on B spend the budget; the next on either is 429', async () => {
      const overrides = { redisUrl: REDIS_URL, redisPrefix: prefix };
      const a = await createTestApp({ config, overrides });
      apps.push(a);
      const b = await createTestApp({ config, overrides, database: a.database });
      apps.push(b);

      const user = await userWithPermissions(a, ['read-users']);
      const { key } = await createKey(await sessionOf(a, user.id), { type: 'read-only' });

      const r1 = await withKey(a, key).get('/users');
      expect(r1.status).toBe(200);
      expectBudget(r1, 2);
      const r2 = await withKey(a, key).get('/users');
      expect(r2.status).toBe(200);
      expectBudget(r2, 1);
      const r3 = await withKey(b, key).get('/users');
      expect(r3.status).toBe(200);
      expectBudget(r3, 0);
      expectRateLimited(await withKey(a, key).get('/users'));
      expectRateLimited(await withKey(b, key).get('/users'));

      // Another key still has its budget, on both instances.
      const other = await createKey(await sessionOf(b, user.id), { type: 'read-only' });
      expectBudget(await withKey(b, other.key).get('/users'), 2);
      expectBudget(await withKey(a, other.key).get('/users'), 1);

      expect((await ourKeys()).length).toBeGreaterThan(0);
    }, 30_000);

    it('answers 503 SERVICE_UNAVAILABLE (SPEC 7: dependency outage) when the counter store cannot be reached', async () => {
      const t = await createTestApp({
        config,
        overrides: { redisUrl: 'redis://127.0.0.1:1', redisPrefix: prefix },
      });
      apps.push(t);
      const user = await userWithPermissions(t, ['read-users']);
      const { key } = await createKey(await sessionOf(t, user.id), { type: 'read-only' });
      expectProblem(await withKey(t, key).get('/users'), 503, 'SERVICE_UNAVAILABLE');
    }, 30_000);
  });
});

describe('API keys: writes of a read-only key and caching of the key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a read-only key changes nothing, not even through a route that needs no permission; no key edits its creator’s profile', async () => {
    const creator = await userWithPermissions(t, ['read-users']);
    const session = await sessionOf(t, creator.id);
    const created = await session.post('/api-keys', { name: 'ro', type: 'read-only' });
    expect(created.status).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const key = created.body.key as string;
    const patch = await withKey(t, key).patch('/me', { name: 'Changed by a read-only key' });
    expectProblem(patch, 403, 'FORBIDDEN');
    expect((await withKey(t, key).get('/me')).body.name).not.toBe('Changed by a read-only key');
    // A write no permission names (sending email) is refused to a read-only key too.
    expectProblem(
      await withKey(t, key).post('/email/send', { to: 'x@example.com', subject: 's', html: 'h' }),
      403,
      'FORBIDDEN',
    );
    // No key edits its creator's profile, not even a full-access one: 401 AUTH_REQUIRED, and the
    // profile stays as it was; the creator's own session still can.
    const full = (await session.post('/api-keys', { name: 'rw', type: 'full-access' })).body.key as string;
    expectProblem(
      await withKey(t, full).patch('/me', { name: 'Changed by a full-access key' }),
      401,
      'AUTH_REQUIRED',
    );
    expect((await withKey(t, full).get('/me')).body.name).not.toBe('Changed by a full-access key');
    const bySession = await session.patch('/me', { name: 'Changed by the session' });
    expect(bySession.status).toBe(200);
    expect((await withKey(t, full).get('/me')).body.name).toBe('Changed by the session');
  });
});
