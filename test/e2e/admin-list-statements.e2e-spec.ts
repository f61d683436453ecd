import pg from 'pg';
import type request from 'supertest';
import { containsPattern } from '../../src/common/pagination';
import type { FieldConfig } from '../../src/config/config.types';
import { DefinitionRegistry } from '../../src/modules/content/definition-registry';
import { RbacService } from '../../src/modules/rbac/rbac.service';
import { toRoleRecord, type RoleRecord } from '../../src/modules/rbac/role.mapper';
import type { RoleRow } from '../../src/modules/rbac/roles.repository';
import { UserFieldsService } from '../../src/modules/user-fields/user-fields.service';
import { AccountsService } from '../../src/modules/accounts/accounts.service';
import { toUserRecord } from '../../src/modules/accounts/user.mapper';
import type { AccountRow } from '../../src/modules/accounts/users.repository';
import { createUser, signIn } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';
import { isJobQueueStatement, statementText } from '../utils/statements';

/**
 * Issue 16: every admin list is at most two SQL statements whatever the page size (one, as built:
 * the count rides in the page's statement), and answers what the former statements (a count, then
 * a page whose every row ran correlated subqueries) answered. Statements are counted where they
 * reach PostgreSQL (node-pg's Client.query). SVC_PRINT_LIST_STATEMENTS=1 prints the counts.
 */

const LIMITS = [1, 20, 100];
const FIELDS: FieldConfig[] = [{ name: 'nickname', type: 'text' }];

/** What a request's authentication reads when its caches are cold: the account, its permissions. */
const AUTH_STATEMENTS = [/FROM users u WHERE u\.id = \$1\s*$/, /WITH RECURSIVE lineage/];

/** The users page as it was read before issue 16 (the oracle). */
const OLD_USER_COLUMNS = `u.*, COALESCE(
    (SELECT json_agg(json_build_object('id', r.id, 'name', r.name, 'slug', r.slug) ORDER BY r.level DESC, r.name)
       FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = u.id),
    '[]'::json) AS roles`;
const OLD_USER_SORT: Record<string, string> = {
  email: 'lower(u.email)',
  name: 'lower(u.name)',
  createdAt: 'u.created_at',
  lastLoginAt: 'u.last_login_at',
};

/** The roles page as it was read before issue 16 (the oracle). */
const OLD_ROLE_COLUMNS = `r.id, r.name, r.slug, r.level, r.description, r.is_system, r.created_at, r.updated_at,
  COALESCE(
    (SELECT json_agg(json_build_object('id', p.id, 'slug', p.slug) ORDER BY p.slug)
       FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
      WHERE rp.role_id = r.id),
    '[]'::json) AS permissions`;
const OLD_ROLE_SORT: Record<string, string> = {
  name: 'r.name',
  slug: 'r.slug',
  level: 'r.level',
  createdAt: 'r.created_at',
};

interface Meta {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
  hasNext: boolean;
  hasPrev: boolean;
}

interface Measured {
  status: number;
  body: { items: Array<{ id: string } & Record<string, unknown>>; meta: Meta; error: { code: string } };
  auth: number;
  list: string[];
}

function sqlText(call: unknown[]): string {
  return statementText(call[0]);
}

function expectedMeta(total: number, page: number, limit: number): Meta {
  const totalPages = Math.ceil(total / limit);
  return { total, page, limit, totalPages, hasNext: page < totalPages, hasPrev: page > 1 };
}

function direction(sort: string | undefined, fallback: string): { field: string; desc: boolean } {
  const s = sort ?? fallback;
  return { field: s.replace(/^-/, ''), desc: s.startsWith('-') };
}

describe('admin lists: statements per request and answers (issue 16)', () => {
  let t: TestApp;
  let adminId: string;
  let token: string;
  let cookieAgent: ReturnType<typeof request.agent>;
  let parentRole: string;
  let childRole: string;
  let manyPermissionsRole: string;
  let emptyRole: string;
  /** Statements per route and page, printed with SVC_PRINT_LIST_STATEMENTS=1. */
  const counts: Record<string, Record<string, string>> = {};

  beforeAll(async () => {
    t = await createTestApp({ config: { users: { fields: FIELDS } } });
    const admin = await createUser(t, { roles: ['super-admin'], email: 'admin@example.com', name: 'Admin' });
    adminId = admin.id;
    const session = await signIn(t, admin);
    token = session.body.token;
    cookieAgent = session.browser.agent;
    await seed();
  });
  afterAll(async () => {
    if (process.env.SVC_PRINT_LIST_STATEMENTS) {
      const lines = Object.entries(counts).map(([route, c]) => `${route}: ${JSON.stringify(c)}`);
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    await t.close();
  });

  /** More rows than the largest page in every list; ties in every sort key; NULLs; `_` and `%`. */
  async function seed(): Promise<void> {
    const q = (sql: string, params: unknown[] = []) => t.db.query(sql, params);
    // 110 roles: levels and creation times repeat (ties broken by slug); unique names so the
    // order of a user's roles (level DESC, name) is fully determined.
    await q(
      `INSERT INTO roles (name, slug, level, description, created_at)
       SELECT 'Role ' || lpad(i::text, 3, '0'), 'list-role-' || lpad(i::text, 3, '0'), i % 5,
              CASE WHEN i % 4 = 0 THEN NULL ELSE 'd' || i END, now() - (i % 7) * interval '1 hour'
         FROM generate_series(1, 110) i`,
    );
    // 110 more permissions; the first role holds all of them, the next 29 a few each.
    await q(
      `INSERT INTO permissions (slug, action, resource, name)
       SELECT 'list-perm-' || lpad(i::text, 3, '0'), 'act' || (i % 3), 'res' || (i % 11), 'Permission ' || i
         FROM generate_series(1, 110) i`,
    );
    await q(
      `INSERT INTO role_permissions (role_id, permission_id)
       SELECT r.id, p.id FROM roles r JOIN permissions p ON p.slug LIKE 'list-perm-%'
        WHERE r.slug = 'list-role-001'
           OR (r.slug BETWEEN 'list-role-002' AND 'list-role-030'
               AND (substr(p.slug, 11)::int + substr(r.slug, 11)::int) % 13 = 0)`,
    );
    // Inheritance: role 001 is the parent of 002..110; role 110 the child of 001..109 (no cycle).
    await q(
      `INSERT INTO role_inherits (parent_id, child_id)
       SELECT p.id, c.id FROM roles p JOIN roles c ON c.slug LIKE 'list-role-%' AND c.slug > p.slug
        WHERE p.slug LIKE 'list-role-%' AND (p.slug = 'list-role-001' OR c.slug = 'list-role-110')`,
    );
    // 120 users with 1-3 of the first 30 roles; names, creation times and sign-ins repeat or are
    // NULL; some addresses hold `_` or `%`.
    await q(
      `INSERT INTO users (email, name, password_hash, email_verified_at, last_login_at, created_at, custom)
       SELECT CASE WHEN i % 10 = 0 THEN 'under_score' || i || '@example.com'
                   WHEN i % 25 = 0 THEN 'per%cent' || i || '@example.com'
                   ELSE 'person' || i || '@Example.com' END,
              'Name ' || (i % 17), 'x', CASE WHEN i % 2 = 0 THEN now() END,
              CASE WHEN i % 3 = 0 THEN NULL ELSE now() - (i % 9) * interval '1 minute' END,
              now() - (i % 10) * interval '1 minute',
              CASE WHEN i % 4 = 0 THEN jsonb_build_object('nickname', 'nick' || i)
                   WHEN i % 4 = 1 THEN '{"removed": true}'::jsonb ELSE '{}'::jsonb END
         FROM generate_series(1, 120) i`,
    );
    await q(
      `INSERT INTO user_roles (user_id, role_id)
       SELECT u.id, r.id
         FROM (SELECT id, row_number() OVER (ORDER BY email) AS n FROM users WHERE email LIKE '%@%xample.com' AND email <> 'admin@example.com') u
         JOIN generate_series(1, 3) AS k(m) ON k.m <= (u.n % 3) + 1
         JOIN roles r ON r.slug = 'list-role-' || lpad((((u.n * k.m) % 30) + 1)::text, 3, '0')
       ON CONFLICT DO NOTHING`,
    );
    // The admin's own 110 API keys.
    await q(
      `INSERT INTO api_keys (user_id, name, type, key_hash, key_prefix, expires_at, last_used_at, created_at)
       SELECT $1, 'Key ' || (i % 13), 'read-only', md5('k' || i) || md5('j' || i), 'svc_live_' || i,
              CASE WHEN i % 2 = 0 THEN now() + interval '1 day' END,
              CASE WHEN i % 3 = 0 THEN now() - i * interval '1 second' END,
              now() - (i % 8) * interval '1 minute'
         FROM generate_series(1, 110) i`,
      [adminId],
    );
    await q(
      `INSERT INTO email_providers (name, type, from_email, config, created_at)
       SELECT 'Provider ' || (i % 40), 'smtp', 'p' || i || '@example.com',
              '{"host": "smtp.example.com", "port": 25, "secure": false, "user": null}'::jsonb,
              now() - (i % 6) * interval '1 minute'
         FROM generate_series(1, 105) i`,
    );
    await q(
      `INSERT INTO email_templates (slug, name, subject, html)
       SELECT 'list-tpl-' || lpad(i::text, 3, '0'), 'Template ' || (i % 30), 'S', '<p>x</p>'
         FROM generate_series(1, 105) i`,
    );
    await q(
      `INSERT INTO schema_journal (target, slug, changes, applied_by, applied_at)
       SELECT 'collection', 'j' || i, '[]'::jsonb, $1, now() - (i % 20) * interval '1 second'
         FROM generate_series(1, 105) i`,
      [adminId],
    );
    const role = async (slug: string) =>
      ((await q(`SELECT id FROM roles WHERE slug = $1`, [slug])) as Array<{ id: string }>)[0].id;
    parentRole = await role('list-role-001');
    childRole = await role('list-role-110');
    manyPermissionsRole = parentRole;
    // No permission, no parent, no child.
    emptyRole = (
      (await q(`INSERT INTO roles (name, slug) VALUES ('Lonely', 'lonely') RETURNING id`)) as Array<{
        id: string;
      }>
    )[0].id;
  }

  /**
   * One request, with the statements it sent. The authentication caches are emptied first, so its
   * reads are there to count on every request; definition caches are made fresh, so no reload of
   * theirs lands in the measured request.
   */
  async function measure(
    path: string,
    query: Record<string, string | number>,
    via: 'bearer' | 'cookie',
  ): Promise<Measured> {
    t.app.get(AccountsService).invalidate(adminId);
    t.app.get(RbacService).invalidate();
    // Fresh snapshots, not merely loaded ones: a snapshot about to expire would reload (in the
    // background, or for the request) inside the measured window on a slow run.
    (t.app.get(UserFieldsService) as unknown as { invalidate(): void }).invalidate();
    await t.app.get(UserFieldsService).definitions();
    await t.app.get(DefinitionRegistry).refresh();
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    let texts: string[] = [];
    let res: request.Response;
    try {
      const url = `/admin/api${path}`;
      res = await (via === 'cookie'
        ? cookieAgent.get(url).query(query)
        : t.http.get(url).set('Authorization', `Bearer ${token}`).query(query));
    } finally {
      texts = spy.mock.calls.map(sqlText).filter((sql) => !isJobQueueStatement(sql));
      spy.mockRestore();
    }
    const isAuth = (s: string) => AUTH_STATEMENTS.some((re) => re.test(s));
    return {
      status: res.status,
      body: res.body as Measured['body'],
      auth: texts.filter(isAuth).length,
      list: texts.filter((s) => !isAuth(s)),
    };
  }

  interface Route {
    name: string;
    path: () => string;
    via?: 'cookie';
    /** List statements of a page with rows, and of a page past the end. */
    statements: { page: number; past: number };
  }

  /** Paged in SQL: one statement, the count in it (past the end too). */
  const SQL = { page: 1, past: 1 };
  /** Paged in memory from a cached registry: no statement once warm. */
  const CACHED = { page: 0, past: 0 };
  const routes: Route[] = [
    { name: 'GET /users', path: () => '/users', statements: SQL },
    { name: 'GET /roles', path: () => '/roles', statements: SQL },
    {
      name: 'GET /roles/{id}/permissions',
      path: () => `/roles/${manyPermissionsRole}/permissions`,
      statements: SQL,
    },
    { name: 'GET /roles/{id}/children', path: () => `/roles/${parentRole}/children`, statements: SQL },
    { name: 'GET /roles/{id}/parents', path: () => `/roles/${childRole}/parents`, statements: SQL },
    { name: 'GET /permissions', path: () => '/permissions', statements: SQL },
    { name: 'GET /api-keys', path: () => '/api-keys', via: 'cookie', statements: SQL },
    { name: 'GET /email-providers', path: () => '/email-providers', statements: SQL },
    { name: 'GET /email-templates', path: () => '/email-templates', statements: SQL },
    { name: 'GET /schema/journal', path: () => '/schema/journal', via: 'cookie', statements: SQL },
    { name: 'GET /user-fields', path: () => '/user-fields', statements: CACHED },
    { name: 'GET /collections', path: () => '/collections', statements: CACHED },
    { name: 'GET /singles', path: () => '/singles', statements: CACHED },
    { name: 'GET /field-groups', path: () => '/field-groups', statements: CACHED },
  ];

  describe.each(routes)('$name', (route) => {
    it('sends the same statements for limit=1, 20 and 100 (at most 2 for the list), and authentication the same', async () => {
      const via = route.via ?? 'bearer';
      const seen: Record<string, string> = {};
      const pages: Measured[] = [];
      for (const limit of LIMITS) {
        const m = await measure(route.path(), { limit }, via);
        expect(m.status).toBe(200);
        expect(m.body.items).toHaveLength(Math.min(limit, m.body.meta.total));
        seen[`limit=${limit}`] = `auth ${m.auth}, list ${m.list.length}`;
        pages.push(m);
      }
      const total = pages[0].body.meta.total;
      const pastPage = Math.ceil(total / 20) + 1;
      const past = await measure(route.path(), { limit: 20, page: pastPage }, via);
      expect(past.status).toBe(200);
      expect(past.body).toEqual({ items: [], meta: expectedMeta(total, pastPage, 20) });
      seen['past the end'] = `auth ${past.auth}, list ${past.list.length}`;
      counts[route.name] = seen;

      expect(new Set(pages.map((m) => m.list.length)).size).toBe(1);
      expect(new Set(pages.map((m) => m.auth)).size).toBe(1);
      expect(pages[0].list.length).toBeLessThanOrEqual(2);
      expect(past.list.length).toBeLessThanOrEqual(2);
      expect({ page: pages[0].list.length, past: past.list.length }).toEqual(route.statements);
      // Cold caches: the account and the permission set, one read each, whatever the list.
      expect(pages[0].auth).toBe(2);
      expect(past.auth).toBe(2);
    });
  });

  it('warm (caches filled by a first request): GET /me sends no statement, GET /users?limit=20 one', async () => {
    const warm = async (path: string) => {
      await t.http.get(`/admin/api${path}`).set('Authorization', `Bearer ${token}`).expect(200);
      // Fresh user fields: an old list would reload in the background inside the window.
      await t.app.get(UserFieldsService).definitions();
      const spy = jest.spyOn(pg.Client.prototype, 'query');
      try {
        await t.http.get(`/admin/api${path}`).set('Authorization', `Bearer ${token}`).expect(200);
        return spy.mock.calls.map(sqlText).filter((sql) => !isJobQueueStatement(sql));
      } finally {
        spy.mockRestore();
      }
    };
    expect(await warm('/me')).toEqual([]);
    expect(await warm('/users?limit=20')).toHaveLength(1);
    expect(await warm('/users?limit=100&sort=-email')).toHaveLength(1);
  });

  it('the big lists hold more rows than the largest page', async () => {
    for (const route of routes.slice(0, 10)) {
      const m = await measure(route.path(), { limit: 1 }, route.via ?? 'bearer');
      expect({ route: route.name, more: m.body.meta.total > 100 }).toEqual({ route: route.name, more: true });
    }
  });

  describe('GET /users answers what the former statements answered', () => {
    const cases: Array<Record<string, string | number>> = [
      {},
      { limit: 100 },
      { limit: 20, page: 3 },
      { sort: '-email', limit: 50 },
      { sort: 'name', limit: 40, page: 2 },
      { sort: '-name', limit: 100, page: 2 },
      { sort: 'lastLoginAt', limit: 60 },
      { sort: '-lastLoginAt', limit: 60, page: 2 },
      { sort: '-createdAt', limit: 7, page: 5 },
      { search: '_', limit: 100 },
      { search: '%', limit: 100 },
      { search: 'NAME 1', sort: 'email', limit: 100 },
      { search: 'example.COM', limit: 30, page: 4 },
      { search: 'nobody-has-this' },
      { limit: 20, page: 8 },
      { limit: 500 },
    ];

    it.each(cases)('%j', async (query) => {
      const m = await measure('/users', query, 'bearer');
      expect(m.status).toBe(200);
      const limit = Number(query.limit ?? 10);
      const page = Number(query.page ?? 1);
      const { field, desc } = direction(query.sort as string | undefined, 'createdAt');
      const search = query.search === undefined ? undefined : String(query.search).trim();
      const where = search ? `WHERE u.email ILIKE $1 ESCAPE '\\' OR u.name ILIKE $1 ESCAPE '\\'` : '';
      const params = search ? [containsPattern(search)] : [];
      const order = `${OLD_USER_SORT[field]} ${desc ? 'DESC NULLS LAST' : 'ASC NULLS FIRST'}, u.id`;
      const [{ total }] = (await t.db.query(
        `SELECT count(*)::int AS total FROM users u ${where}`,
        params,
      )) as Array<{ total: number }>;
      const rows = (await t.db.query(
        `SELECT ${OLD_USER_COLUMNS} FROM users u ${where} ORDER BY ${order}
          LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, (page - 1) * limit],
      )) as AccountRow[];
      const fields = t.app.get(UserFieldsService);
      const expected = rows.map((r) => toUserRecord(r, fields.present(r.custom)));
      // Byte for byte: the same records, keys in the same order, in the same order.
      expect(JSON.stringify(m.body.items)).toBe(JSON.stringify(expected));
      expect(m.body.meta).toEqual(expectedMeta(total, page, limit));
      if (rows.length) {
        expect(m.body.items.some((u) => (u.roles as unknown[]).length > 1)).toBe(true);
      }
    });

    it('a page past the end is items: [] with the true meta, searched or not', async () => {
      const all = await measure('/users', { limit: 50, page: 4 }, 'bearer');
      expect(all.body).toEqual({ items: [], meta: expectedMeta(121, 4, 50) });
      const some = await measure('/users', { search: '_', page: 2, limit: 100 }, 'bearer');
      expect(some.body).toEqual({ items: [], meta: expectedMeta(12, 2, 100) });
      const none = await measure('/users', { search: 'nobody-has-this', page: 3 }, 'bearer');
      expect(none.body).toEqual({ items: [], meta: expectedMeta(0, 3, 10) });
    });
  });

  describe('GET /roles and its sub-lists answer what the former statements answered', () => {
    const cases: Array<{ path: string; query: Record<string, string | number>; scope?: string }> = [
      { path: '/roles', query: {} },
      { path: '/roles', query: { limit: 100, page: 2 } },
      { path: '/roles', query: { sort: '-level', limit: 60 } },
      { path: '/roles', query: { sort: 'createdAt', limit: 30, page: 2 } },
      { path: '/roles', query: { search: 'ROLE 01', limit: 100 } },
      { path: '/roles', query: { search: '_', limit: 100 } },
      { path: 'children', query: { limit: 100, page: 2 }, scope: 'children' },
      { path: 'children', query: { sort: '-name', limit: 40 }, scope: 'children' },
      { path: 'parents', query: { sort: 'slug', limit: 100 }, scope: 'parents' },
      { path: 'parents', query: { search: 'role 00', sort: '-createdAt' }, scope: 'parents' },
    ];

    it.each(cases)('$path %j', async ({ path, query, scope }) => {
      const url =
        scope === 'children'
          ? `/roles/${parentRole}/children`
          : scope === 'parents'
            ? `/roles/${childRole}/parents`
            : path;
      const m = await measure(url, query, 'bearer');
      expect(m.status).toBe(200);
      const limit = Number(query.limit ?? 10);
      const page = Number(query.page ?? 1);
      const { field, desc } = direction(query.sort as string | undefined, 'name');
      const params: unknown[] = [];
      const conditions: string[] = [];
      if (scope === 'children') {
        params.push(parentRole);
        conditions.push(`r.id IN (SELECT child_id FROM role_inherits WHERE parent_id = $1)`);
      } else if (scope === 'parents') {
        params.push(childRole);
        // Every ancestor of role 110 is a direct parent of it.
        conditions.push(`r.id IN (SELECT parent_id FROM role_inherits WHERE child_id = $1)`);
      }
      if (query.search !== undefined) {
        params.push(containsPattern(String(query.search)));
        conditions.push(
          `(r.name ILIKE $${params.length} ESCAPE '\\' OR r.slug ILIKE $${params.length} ESCAPE '\\')`,
        );
      }
      const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
      const [{ total }] = (await t.db.query(
        `SELECT count(*)::int AS total FROM roles r ${where}`,
        params,
      )) as Array<{ total: number }>;
      const rows = (await t.db.query(
        `SELECT ${OLD_ROLE_COLUMNS} FROM roles r ${where}
          ORDER BY ${OLD_ROLE_SORT[field]} ${desc ? 'DESC' : 'ASC'}, r.slug ASC
          LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, limit, (page - 1) * limit],
      )) as RoleRow[];
      const expected: RoleRecord[] = rows.map(toRoleRecord);
      expect(JSON.stringify(m.body.items)).toBe(JSON.stringify(expected));
      expect(m.body.meta).toEqual(expectedMeta(total, page, limit));
    });

    it('a role without children, parents or permissions: an empty page (one statement); an unknown role: 404', async () => {
      for (const sub of ['children', 'parents', 'permissions']) {
        const empty = await measure(`/roles/${emptyRole}/${sub}`, { page: 2 }, 'bearer');
        expect(empty.status).toBe(200);
        expect(empty.body).toEqual({ items: [], meta: expectedMeta(0, 2, 10) });
        expect(empty.list).toHaveLength(1);
        // The role is checked by the list statement itself.
        const missing = await measure(`/roles/00000000-0000-4000-8000-000000000000/${sub}`, {}, 'bearer');
        expect(missing.status).toBe(404);
        expect(missing.body.error.code).toBe('NOT_FOUND');
        expect(missing.list).toHaveLength(1);
      }
    });
  });

  describe('the other lists: order, meta and search as the former statements had them', () => {
    const cases: Array<{
      path: () => string;
      via?: 'cookie';
      query: Record<string, string | number>;
      from: string;
      where?: () => { sql: string; params: unknown[] };
      order: string;
    }> = [
      {
        path: () => '/permissions',
        query: { limit: 100 },
        from: 'permissions p',
        order: 'p.slug ASC, p.slug ASC',
      },
      {
        path: () => '/permissions',
        query: { sort: '-resource', limit: 30, page: 3 },
        from: 'permissions p',
        order: 'p.resource DESC, p.slug ASC',
      },
      {
        path: () => '/permissions',
        query: { search: 'permission 1', sort: 'action', limit: 100 },
        from: 'permissions p',
        where: () => ({
          sql: `p.slug ILIKE $1 ESCAPE '\\' OR p.name ILIKE $1 ESCAPE '\\'`,
          params: [containsPattern('permission 1')],
        }),
        order: 'p.action ASC, p.slug ASC',
      },
      {
        path: () => `/roles/${manyPermissionsRole}/permissions`,
        query: { sort: '-createdAt', limit: 100, page: 2 },
        from: 'permissions p',
        where: () => ({
          sql: `p.id IN (SELECT permission_id FROM role_permissions WHERE role_id = $1)`,
          params: [manyPermissionsRole],
        }),
        order: 'p.created_at DESC, p.slug ASC',
      },
      {
        path: () => '/api-keys',
        via: 'cookie',
        query: { limit: 100 },
        from: 'api_keys',
        where: () => ({ sql: 'user_id = $1', params: [adminId] }),
        order: 'created_at DESC NULLS LAST, id',
      },
      {
        path: () => '/api-keys',
        via: 'cookie',
        query: { sort: 'lastUsedAt', limit: 50, page: 2 },
        from: 'api_keys',
        where: () => ({ sql: 'user_id = $1', params: [adminId] }),
        order: 'last_used_at ASC NULLS FIRST, id',
      },
      {
        path: () => '/api-keys',
        via: 'cookie',
        query: { sort: '-expiresAt', search: 'KEY 1', limit: 100 },
        from: 'api_keys',
        where: () => ({
          sql: `user_id = $1 AND name ILIKE $2 ESCAPE '\\'`,
          params: [adminId, containsPattern('KEY 1')],
        }),
        order: 'expires_at DESC NULLS LAST, id',
      },
      {
        path: () => '/email-providers',
        query: { limit: 100 },
        from: 'email_providers',
        order: 'name ASC, id ASC',
      },
      {
        path: () => '/email-providers',
        query: { sort: '-createdAt', search: 'provider 1', limit: 20 },
        from: 'email_providers',
        where: () => ({ sql: `name ILIKE $1 ESCAPE '\\'`, params: [containsPattern('provider 1')] }),
        order: 'created_at DESC, id ASC',
      },
      {
        path: () => '/email-templates',
        query: { limit: 100, page: 2 },
        from: 'email_templates',
        order: 'slug ASC, id ASC',
      },
      {
        path: () => '/email-templates',
        query: { sort: '-name', search: 'TEMPLATE 2', limit: 100 },
        from: 'email_templates',
        where: () => ({
          sql: `name ILIKE $1 ESCAPE '\\' OR slug ILIKE $1 ESCAPE '\\'`,
          params: [containsPattern('TEMPLATE 2')],
        }),
        order: 'name DESC, id ASC',
      },
      {
        path: () => '/schema/journal',
        via: 'cookie',
        query: { limit: 100 },
        from: 'schema_journal',
        order: 'applied_at DESC, id DESC',
      },
      {
        path: () => '/schema/journal',
        via: 'cookie',
        query: { sort: 'appliedAt', limit: 40, page: 3 },
        from: 'schema_journal',
        order: 'applied_at ASC, id ASC',
      },
    ];

    it.each(cases)('$from %j', async (c) => {
      const m = await measure(c.path(), c.query, c.via ?? 'bearer');
      expect(m.status).toBe(200);
      const limit = Number(c.query.limit ?? 10);
      const page = Number(c.query.page ?? 1);
      const w = c.where?.() ?? { sql: '', params: [] };
      const where = w.sql ? `WHERE ${w.sql}` : '';
      const [{ total }] = (await t.db.query(
        `SELECT count(*)::int AS total FROM ${c.from} ${where}`,
        w.params,
      )) as Array<{
        total: number;
      }>;
      const ids = (
        (await t.db.query(
          `SELECT id FROM ${c.from} ${where} ORDER BY ${c.order} LIMIT $${w.params.length + 1} OFFSET $${w.params.length + 2}`,
          [...w.params, limit, (page - 1) * limit],
        )) as Array<{ id: string }>
      ).map((r) => r.id);
      expect(m.body.items.map((i) => i.id)).toEqual(ids);
      expect(m.body.meta).toEqual(expectedMeta(total, page, limit));
      expect(ids.length).toBeGreaterThan(0);
    });
  });
});
