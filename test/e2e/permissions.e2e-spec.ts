import { createUser, signIn } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

type Method = 'get' | 'post' | 'patch' | 'delete';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe('permissions (CONTRACTS 4)', () => {
  let t: TestApp;
  let admin: string;
  let roleCounter = 0;
  let permissionCounter = 0;

  function api(method: Method, path: string, body?: object, bearer: string | null = admin) {
    let req = t.http[method](`/admin/api${path}`);
    if (bearer) {
      req = req.set('Authorization', `Bearer ${bearer}`);
    }
    return body === undefined ? req : req.send(body);
  }

  /** A plain role straight in the database with exactly these permissions; answers its slug. */
  async function sqlRole(permissions: string[]): Promise<string> {
    const slug = `perm-role-${++roleCounter}`;
    const [role] = await t.db.query(`INSERT INTO roles (name, slug) VALUES ($1, $1) RETURNING id`, [slug]);
    await t.db.query(
      `INSERT INTO role_permissions (role_id, permission_id)
       SELECT $1, id FROM permissions WHERE slug = ANY($2::text[])`,
      [role.id, permissions],
    );
    return slug;
  }

  async function tokenFor(roleSlugs: string[]): Promise<string> {
    const user = await createUser(t, { roles: roleSlugs });
    return (await signIn(t, user)).body.token;
  }

  async function tokenWith(permissions: string[]): Promise<string> {
    return tokenFor([await sqlRole(permissions)]);
  }

  /** A fresh custom permission (`<action>-matrix<n>`), by SQL. */
  async function sqlPermission(action = 'publish'): Promise<{ id: string; slug: string }> {
    const resource = `things${++permissionCounter}`;
    const [p] = await t.db.query(
      `INSERT INTO permissions (slug, action, resource, name) VALUES ($1, $2, $3, $1) RETURNING id, slug`,
      [`${action}-${resource}`, action, resource],
    );
    return p;
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await tokenFor(['super-admin']);
  });
  afterAll(() => t.close());

  describe('permission matrix (SPEC 4.2)', () => {
    const RBAC_PERMISSIONS = [
      'read-roles',
      'create-roles',
      'update-roles',
      'delete-roles',
      'read-permissions',
      'create-permissions',
      'update-permissions',
      'delete-permissions',
    ];

    interface Row {
      method: Method;
      setup: () => Promise<{ path: string; body?: object }>;
      needs: string[];
      status: number;
    }

    const rows: Row[] = [
      {
        method: 'get',
        needs: ['read-permissions', 'read-roles'],
        status: 200,
        setup: async () => ({ path: '/permissions' }),
      },
      {
        method: 'post',
        needs: ['create-permissions'],
        status: 201,
        setup: async () => ({
          path: '/permissions',
          body: { action: 'archive', resource: `matrix${++permissionCounter}` },
        }),
      },
      {
        method: 'get',
        needs: ['read-permissions', 'read-roles'],
        status: 200,
        setup: async () => ({ path: `/permissions/${(await sqlPermission()).id}` }),
      },
      {
        method: 'patch',
        needs: ['update-permissions'],
        status: 200,
        setup: async () => ({
          path: `/permissions/${(await sqlPermission()).id}`,
          body: { name: 'Renamed' },
        }),
      },
      {
        method: 'delete',
        needs: ['delete-permissions'],
        status: 200,
        setup: async () => ({ path: `/permissions/${(await sqlPermission()).id}` }),
      },
    ];

    const exactly: Record<string, string> = {};
    const allBut: Record<string, string> = {};
    beforeAll(async () => {
      const sets = new Set(rows.map((r) => r.needs.join(',')));
      await Promise.all([
        ...RBAC_PERMISSIONS.map(async (p) => {
          exactly[p] = await tokenWith([p]);
        }),
        ...[...sets].map(async (key) => {
          allBut[key] = await tokenWith(RBAC_PERMISSIONS.filter((p) => !key.split(',').includes(p)));
        }),
      ]);
    });

    const label = (r: Row) => `${r.method.toUpperCase()} (${r.needs.join(' or ')})`;

    it('refuses every route without credentials: 401 AUTH_REQUIRED', async () => {
      for (const row of rows) {
        const { path, body } = await row.setup();
        const res = await api(row.method, path, body ?? (row.method === 'get' ? undefined : {}), null);
        expect([label(row), path, res.status, res.body.error?.code]).toEqual([
          label(row),
          path,
          401,
          'AUTH_REQUIRED',
        ]);
      }
    });

    it('refuses a user holding every other roles/permissions permission: 403 FORBIDDEN', async () => {
      for (const row of rows) {
        const { path, body } = await row.setup();
        const res = await api(row.method, path, body, allBut[row.needs.join(',')]);
        expect([label(row), path, res.status, res.body.error?.code]).toEqual([
          label(row),
          path,
          403,
          'FORBIDDEN',
        ]);
      }
    });

    it('lets a user whose plain role holds exactly the permission through (each side of an "or")', async () => {
      for (const row of rows) {
        for (const permission of row.needs) {
          const { path, body } = await row.setup();
          const res = await api(row.method, path, body, exactly[permission]);
          expect([label(row), permission, res.status]).toEqual([label(row), permission, row.status]);
        }
      }
    });
  });

  describe('CRUD', () => {
    let id: string;

    it('POST /permissions creates <action>-<resource>: 201 { message, item }, default name', async () => {
      const res = await api('post', '/permissions', { action: 'publish', resource: 'blog-posts' });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: {
          id: expect.stringMatching(UUID),
          slug: 'publish-blog-posts',
          action: 'publish',
          resource: 'blog-posts',
          name: 'Publish blog-posts',
          description: null,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      });
      id = res.body.item.id;
      const named = await api('post', '/permissions', {
        action: 'export',
        resource: 'reports',
        name: '  Export reports ',
        description: 'CSV exports',
      });
      expect(named.status).toBe(201);
      expect(named.body.item).toMatchObject({
        slug: 'export-reports',
        name: 'Export reports',
        description: 'CSV exports',
      });
    });

    it('refuses a taken slug with 409 DUPLICATE (seeded ones included)', async () => {
      for (const body of [
        { action: 'publish', resource: 'blog-posts' },
        { action: 'read', resource: 'users' },
        { action: 'manage', resource: 'settings' },
      ]) {
        const res = await api('post', '/permissions', body);
        expect([body, res.status, res.body.error?.code]).toEqual([body, 409, 'DUPLICATE']);
      }
    });

    it('validates strictly: action and resource forms, unknown fields, wrong types', async () => {
      const cases: Array<[object, string[]]> = [
        [{}, ['action', 'resource']],
        [{ action: 'Publish', resource: 'posts' }, ['action']],
        [{ action: 'pub-lish', resource: 'posts' }, ['action']],
        [{ action: '1read', resource: 'posts' }, ['action']],
        [{ action: 'read', resource: 'Posts' }, ['resource']],
        [{ action: 'read', resource: '-posts' }, ['resource']],
        [{ action: 'read', resource: 'po_sts' }, ['resource']],
        [{ action: 'read', resource: `p${'o'.repeat(63)}` }, ['resource']],
        [{ action: 'read', resource: 'posts', slug: 'read-posts' }, ['slug']],
        [{ action: 'read', resource: 'posts', name: '' }, ['name']],
        [{ action: 'read', resource: 'posts', name: 5 }, ['name']],
        [{ action: ['read'], resource: 'posts' }, ['action']],
      ];
      for (const [body, paths] of cases) {
        const res = await api('post', '/permissions', body);
        expect([body, res.status, res.body.error?.code]).toEqual([body, 400, 'VALIDATION_ERROR']);
        const got = [...new Set(res.body.error.data.errors.map((e: { path: string }) => e.path))].sort();
        expect([body, got]).toEqual([body, paths]);
      }
      const [{ count }] = await t.db.query(
        `SELECT count(*)::int AS count FROM permissions WHERE resource = 'posts'`,
      );
      expect(count).toBe(0);
    });

    it('GET /permissions/{id} answers the bare record; 404 for a non-UUID or unknown id', async () => {
      const res = await api('get', `/permissions/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, slug: 'publish-blog-posts' });
      for (const bad of ['nope', '1', MISSING_ID]) {
        for (const [method, body] of [
          ['get', undefined],
          ['patch', { name: 'x' }],
          ['delete', undefined],
        ] as Array<[Method, object?]>) {
          const r = await api(method, `/permissions/${bad}`, body);
          expect([method, bad, r.status, r.body.error?.code]).toEqual([method, bad, 404, 'NOT_FOUND']);
        }
      }
    });

    it('PATCH changes name and description only; anything else is 400', async () => {
      const res = await api('patch', `/permissions/${id}`, { name: 'Publish posts', description: 'Go live' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: expect.objectContaining({
          id,
          slug: 'publish-blog-posts',
          name: 'Publish posts',
          description: 'Go live',
        }),
      });
      const cleared = await api('patch', `/permissions/${id}`, { description: null });
      expect(cleared.body.item).toMatchObject({ name: 'Publish posts', description: null });
      for (const body of [{ slug: 'x-y' }, { action: 'read' }, { resource: 'posts' }, { id: MISSING_ID }]) {
        const r = await api('patch', `/permissions/${id}`, body);
        expect([body, r.status, r.body.error?.code]).toEqual([body, 400, 'VALIDATION_ERROR']);
      }
      expect((await api('patch', `/permissions/${id}`, { name: null })).status).toBe(400);
      expect((await api('get', `/permissions/${id}`)).body.slug).toBe('publish-blog-posts');
    });

    it('GET /permissions is a List record: meta, search on slug and name, sort, paging', async () => {
      const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM permissions`);
      const all = await api('get', '/permissions?limit=500');
      expect(all.status).toBe(200);
      expect(all.body.meta).toEqual({
        total: count,
        page: 1,
        limit: 500,
        totalPages: 1,
        hasNext: false,
        hasPrev: false,
      });
      const slugs = all.body.items.map((p: { slug: string }) => p.slug);
      const ordered = await t.db.query(`SELECT slug FROM permissions ORDER BY slug`);
      expect(slugs).toEqual(ordered.map((p: { slug: string }) => p.slug));

      const search = await api('get', '/permissions?search=EMAIL-T&sort=-action');
      expect(search.body.items.map((p: { slug: string }) => p.slug)).toEqual([
        'update-email-templates',
        'read-email-templates',
        'delete-email-templates',
        'create-email-templates',
      ]);
      const byName = await api('get', '/permissions?search=publish%20posts');
      expect(byName.body.items.map((p: { slug: string }) => p.slug)).toEqual(['publish-blog-posts']);

      const byResource = await api('get', '/permissions?sort=resource&limit=4&page=2');
      expect(byResource.body.meta).toMatchObject({ page: 2, limit: 4, hasPrev: true, hasNext: true });
      const resources = byResource.body.items.map((p: { resource: string }) => p.resource);
      expect(resources).toEqual([...resources].sort());

      for (const bad of ['sort=name', 'page=-1', 'limit=0', 'search=a&search=b']) {
        const res = await api('get', `/permissions?${bad}`);
        expect([bad, res.status, res.body.error?.code]).toEqual([bad, 400, 'VALIDATION_ERROR']);
      }
      expect((await api('get', '/permissions?limit=100000')).body.meta.limit).toBe(500);
    });

    it('DELETE answers 200 { message, item }; every role loses it at once', async () => {
      const perm = await api('post', '/permissions', { action: 'approve', resource: 'invoices' });
      const permId = perm.body.item.id as string;
      const roleSlug = await sqlRole(['read-roles']);
      const [role] = await t.db.query(`SELECT id FROM roles WHERE slug = $1`, [roleSlug]);
      expect((await api('post', `/roles/${role.id}/permissions`, { permissionId: permId })).status).toBe(200);
      const holder = await tokenFor([roleSlug]);
      const before = await api('get', '/me/permissions', undefined, holder);
      expect(before.body.permissions).toEqual(['approve-invoices', 'read-roles']);

      const res = await api('delete', `/permissions/${permId}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: expect.objectContaining({ id: permId, slug: 'approve-invoices' }),
      });
      expect((await api('get', `/permissions/${permId}`)).status).toBe(404);
      expect((await api('delete', `/permissions/${permId}`)).status).toBe(404);
      const after = await api('get', '/me/permissions', undefined, holder);
      expect(after.body.permissions).toEqual(['read-roles']);
      expect((await api('get', `/roles/${role.id}`)).body.permissions).toEqual([
        expect.objectContaining({ slug: 'read-roles' }),
      ]);
    });

    it('refuses to delete a permission the service itself checks (CONTRACTS 12): 409 CONFLICT', async () => {
      const [core] = await t.db.query(`SELECT id FROM permissions WHERE slug = 'update-roles'`);
      const res = await api('delete', `/permissions/${core.id}`);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
      expect((await api('get', `/permissions/${core.id}`)).status).toBe(200);
      // It can still be renamed.
      expect((await api('patch', `/permissions/${core.id}`, { name: 'Edit roles' })).body.item.name).toBe(
        'Edit roles',
      );
    });

    it('refuses to delete a collection’s own permission (409 CONFLICT); it goes with the collection', async () => {
      const created = await api('post', '/collections', {
        slug: 'memos',
        fields: [{ name: 'text', type: 'text' }],
      });
      expect(created.status).toBe(201);
      const [own] = await t.db.query(`SELECT id FROM permissions WHERE slug = 'read-memos'`);
      const res = await api('delete', `/permissions/${own.id}`);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
      expect(res.body.error.message).toContain('memos');
      expect((await api('get', `/permissions/${own.id}`)).status).toBe(200);
      expect((await api('delete', '/collections/memos')).status).toBe(200);
      expect((await api('get', `/permissions/${own.id}`)).status).toBe(404);
    });

    it('a super-admin sees a new permission in /me/permissions at once (the catalogue is not stale)', async () => {
      const before = await api('get', '/me/permissions');
      expect(before.body.isSuperAdmin).toBe(true);
      const created = await api('post', '/permissions', { action: 'sign', resource: 'contracts' });
      expect(created.status).toBe(201);
      const after = await api('get', '/me/permissions');
      expect(after.body.permissions).toContain('sign-contracts');
      expect(after.body.permissions).toHaveLength(before.body.permissions.length + 1);
      await api('delete', `/permissions/${created.body.item.id}`);
      expect((await api('get', '/me/permissions')).body.permissions).not.toContain('sign-contracts');
    });
  });
});
