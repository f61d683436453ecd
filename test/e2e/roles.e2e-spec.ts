import { createUser, signIn } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

type Method = 'get' | 'post' | 'patch' | 'delete';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe('roles: CRUD, role permissions, inheritance (CONTRACTS 4)', () => {
  let t: TestApp;
  let admin: string;
  let superAdminRoleId: string;
  const permissionIds: Record<string, string> = {};
  let roleCounter = 0;

  function api(method: Method, path: string, body?: object, bearer: string | null = admin) {
    let req = t.http[method](`/admin/api${path}`);
    if (bearer) {
      req = req.set('Authorization', `Bearer ${bearer}`);
    }
    return body === undefined ? req : req.send(body);
  }

  /** A role straight in the database, holding exactly these permissions. */
  async function sqlRole(permissions: string[] = [], name?: string): Promise<{ id: string; slug: string }> {
    const slug = `sql-role-${++roleCounter}`;
    const [role] = await t.db.query(`INSERT INTO roles (name, slug) VALUES ($1, $2) RETURNING id, slug`, [
      name ?? `SQL role ${roleCounter}`,
      slug,
    ]);
    if (permissions.length) {
      await t.db.query(
        `INSERT INTO role_permissions (role_id, permission_id)
         SELECT $1, id FROM permissions WHERE slug = ANY($2::text[])`,
        [role.id, permissions],
      );
    }
    return role;
  }

  /** A signed-in user holding exactly these roles (by slug); answers the Bearer token. */
  async function tokenFor(roleSlugs: string[]): Promise<string> {
    const user = await createUser(t, { roles: roleSlugs });
    return (await signIn(t, user)).body.token;
  }

  /** A signed-in user holding one plain role with exactly these permissions. */
  async function tokenWith(permissions: string[]): Promise<string> {
    return tokenFor([(await sqlRole(permissions)).slug]);
  }

  async function createRole(body: Record<string, unknown>): Promise<{ id: string; slug: string }> {
    const res = await api('post', '/roles', body);
    expect(res.status).toBe(201);
    return res.body.item;
  }

  async function link(parentId: string, childId: string, bearer = admin) {
    return api('post', `/roles/${parentId}/children`, { childId }, bearer);
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = await tokenFor(['super-admin']);
    const [sa] = await t.db.query(`SELECT id FROM roles WHERE slug = 'super-admin'`);
    superAdminRoleId = sa.id;
    for (const p of await t.db.query(`SELECT id, slug FROM permissions`)) {
      permissionIds[p.slug] = p.id;
    }
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
      /** Builds a fresh target (a role to delete, a link to remove, ...) and answers path and body. */
      setup: () => Promise<{ path: string; body?: object }>;
      /** Any of these is enough (SPEC "or"). */
      needs: string[];
      status: number;
    }

    const plain = async () => (await sqlRole()).id;
    const rows: Row[] = [
      { method: 'get', needs: ['read-roles'], status: 200, setup: async () => ({ path: '/roles' }) },
      {
        method: 'post',
        needs: ['create-roles'],
        status: 201,
        setup: async () => ({ path: '/roles', body: { name: `Matrix ${++roleCounter}` } }),
      },
      {
        method: 'get',
        needs: ['read-roles'],
        status: 200,
        setup: async () => ({ path: `/roles/${await plain()}` }),
      },
      {
        method: 'patch',
        needs: ['update-roles'],
        status: 200,
        setup: async () => ({ path: `/roles/${await plain()}`, body: { level: 5 } }),
      },
      {
        method: 'delete',
        needs: ['delete-roles'],
        status: 200,
        setup: async () => ({ path: `/roles/${await plain()}` }),
      },
      {
        method: 'get',
        needs: ['read-roles', 'read-permissions'],
        status: 200,
        setup: async () => ({ path: `/roles/${await plain()}/permissions` }),
      },
      {
        method: 'post',
        needs: ['update-roles'],
        status: 200,
        setup: async () => ({
          path: `/roles/${await plain()}/permissions`,
          body: { permissionId: permissionIds['read-media'] },
        }),
      },
      {
        method: 'patch',
        needs: ['update-roles'],
        status: 200,
        setup: async () => ({
          path: `/roles/${await plain()}/permissions`,
          body: { permissionIds: [permissionIds['read-media']] },
        }),
      },
      {
        method: 'delete',
        needs: ['update-roles'],
        status: 200,
        setup: async () => ({
          path: `/roles/${(await sqlRole(['read-media'])).id}/permissions/${permissionIds['read-media']}`,
        }),
      },
      {
        method: 'get',
        needs: ['read-roles'],
        status: 200,
        setup: async () => ({ path: `/roles/${await plain()}/children` }),
      },
      {
        method: 'post',
        needs: ['update-roles'],
        status: 200,
        setup: async () => ({ path: `/roles/${await plain()}/children`, body: { childId: await plain() } }),
      },
      {
        method: 'delete',
        needs: ['update-roles'],
        status: 200,
        setup: async () => {
          const [parent, child] = [await plain(), await plain()];
          await t.db.query(`INSERT INTO role_inherits (parent_id, child_id) VALUES ($1, $2)`, [
            parent,
            child,
          ]);
          return { path: `/roles/${parent}/children/${child}` };
        },
      },
      {
        method: 'get',
        needs: ['read-roles'],
        status: 200,
        setup: async () => ({ path: `/roles/${await plain()}/parents` }),
      },
    ];

    /** Tokens by permission set, minted once (each sign-in takes 500 ms). */
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

    const label = (r: Row) => `${r.method.toUpperCase()} ${r.status} (${r.needs.join(' or ')})`;

    it('refuses every route without credentials: 401 AUTH_REQUIRED', async () => {
      for (const row of rows) {
        const { path, body } = await row.setup();
        const res = await api(row.method, path, body ?? (row.method === 'get' ? undefined : {}), null);
        expect([row.method, path, res.status, res.body.error?.code]).toEqual([
          row.method,
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

    it('lets a user whose plain role holds exactly the permission (each alternative of an "or") through', async () => {
      for (const row of rows) {
        for (const permission of row.needs) {
          const { path, body } = await row.setup();
          const res = await api(row.method, path, body, exactly[permission]);
          expect([label(row), permission, path, res.status]).toEqual([
            label(row),
            permission,
            path,
            row.status,
          ]);
        }
      }
    });

    it('a signed-in user with no role at all is 403 on a read', async () => {
      const res = await api('get', '/roles', undefined, await tokenFor([]));
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    });
  });

  describe('CRUD', () => {
    let roleId: string;

    it('POST /roles creates: 201 { message, item } with the role record; slug derived from the name', async () => {
      const res = await api('post', '/roles', {
        name: '  Content Éditeurs ',
        level: 10,
        description: 'Edits content',
        permissionIds: [
          permissionIds['read-users'],
          permissionIds['read-media'],
          permissionIds['read-users'],
        ],
      });
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: {
          id: expect.stringMatching(UUID),
          name: 'Content Éditeurs',
          slug: 'content-editeurs',
          level: 10,
          description: 'Edits content',
          isSystem: false,
          permissions: [
            { id: permissionIds['read-media'], slug: 'read-media' },
            { id: permissionIds['read-users'], slug: 'read-users' },
          ],
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      });
      roleId = res.body.item.id;
      expect(new Date(res.body.item.createdAt).toISOString()).toBe(res.body.item.createdAt);
    });

    it('defaults: level 0, description null, no permissions; an explicit slug is kept', async () => {
      const res = await api('post', '/roles', { name: 'Reviewer', slug: 'reviewers-team' });
      expect(res.status).toBe(201);
      expect(res.body.item).toMatchObject({
        name: 'Reviewer',
        slug: 'reviewers-team',
        level: 0,
        description: null,
        isSystem: false,
        permissions: [],
      });
    });

    it('GET /roles/{id} answers the bare record', async () => {
      const res = await api('get', `/roles/${roleId}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: roleId, slug: 'content-editeurs', level: 10 });
      expect(res.body.message).toBeUndefined();
    });

    it('PATCH /roles/{id} changes name, slug, level and description; absent fields are kept; null clears', async () => {
      const res = await api('patch', `/roles/${roleId}`, { name: 'Content editors', level: 20 });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: expect.objectContaining({
          id: roleId,
          name: 'Content editors',
          slug: 'content-editeurs',
          level: 20,
          description: 'Edits content',
        }),
      });
      expect(res.body.item.permissions).toHaveLength(2);
      const cleared = await api('patch', `/roles/${roleId}`, { slug: 'content-editors', description: null });
      expect(cleared.status).toBe(200);
      expect(cleared.body.item).toMatchObject({ slug: 'content-editors', description: null, level: 20 });
    });

    it('refuses duplicates with 409 DUPLICATE (create and rename)', async () => {
      const dup = await api('post', '/roles', { name: 'Content Editors' });
      expect(dup.status).toBe(409);
      expect(dup.body.error.code).toBe('DUPLICATE');
      expect(dup.body.error.data.errors).toEqual([expect.objectContaining({ path: 'slug' })]);
      const clash = await api('patch', `/roles/${roleId}`, { slug: 'reviewers-team' });
      expect(clash.status).toBe(409);
      expect(clash.body.error.code).toBe('DUPLICATE');
      expect((await api('post', '/roles', { name: 'X', slug: 'super-admin' })).body.error.code).toBe(
        'DUPLICATE',
      );
    });

    it('validates strictly: unknown fields, bad slugs, names with no slug, wrong types, unknown permission ids', async () => {
      const cases: Array<[string, object, string[]]> = [
        ['unknown field', { name: 'A', isSystem: true }, ['isSystem']],
        ['parents are not part of the body', { name: 'A', parentIds: [superAdminRoleId] }, ['parentIds']],
        ['bad slug', { name: 'A', slug: 'Bad Slug' }, ['slug']],
        ['slug starting with a digit', { name: 'A', slug: '1abc' }, ['slug']],
        ['slug too long', { name: 'A', slug: `a${'b'.repeat(63)}` }, ['slug']],
        ['name giving no slug', { name: '2FA admins' }, ['slug']],
        ['missing name', {}, ['name']],
        ['blank name', { name: '   ' }, ['name']],
        ['level not an integer', { name: 'A', level: 1.5 }, ['level']],
        ['level out of range', { name: 'A', level: -1 }, ['level']],
        ['permission id not a UUID', { name: 'A', permissionIds: ['read-users'] }, ['permissionIds']],
        [
          'permissionIds not an array',
          { name: 'A', permissionIds: permissionIds['read-users'] },
          ['permissionIds'],
        ],
        ['unknown permission id', { name: 'A', permissionIds: [MISSING_ID] }, ['permissionIds']],
      ];
      for (const [what, body, paths] of cases) {
        const res = await api('post', '/roles', body);
        expect([what, res.status, res.body.error?.code]).toEqual([what, 400, 'VALIDATION_ERROR']);
        const got = [...new Set(res.body.error.data.errors.map((e: { path: string }) => e.path))];
        expect([what, got]).toEqual([what, paths]);
      }
      const patch = await api('patch', `/roles/${roleId}`, { permissionIds: [] });
      expect(patch.status).toBe(400);
      expect(patch.body.error.data.errors[0]).toMatchObject({ path: 'permissionIds', code: 'unknown_field' });
      expect((await api('patch', `/roles/${roleId}`, { name: null })).status).toBe(400);
      // Nothing was written by the refused requests.
      const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM roles WHERE name = 'A'`);
      expect(count).toBe(0);
    });

    it('answers 404 NOT_FOUND for ids that are not UUIDs or name no role', async () => {
      for (const id of ['nope', '123', `${MISSING_ID}x`, MISSING_ID]) {
        for (const [method, path, body] of [
          ['get', `/roles/${id}`],
          ['patch', `/roles/${id}`, { level: 1 }],
          ['delete', `/roles/${id}`],
          ['get', `/roles/${id}/permissions`],
          ['post', `/roles/${id}/permissions`, { permissionId: permissionIds['read-users'] }],
          ['patch', `/roles/${id}/permissions`, { permissionIds: [] }],
          ['delete', `/roles/${id}/permissions/${permissionIds['read-users']}`],
          ['get', `/roles/${id}/children`],
          ['post', `/roles/${id}/children`, { childId: roleId }],
          ['delete', `/roles/${id}/children/${roleId}`],
          ['get', `/roles/${id}/parents`],
        ] as Array<[Method, string, object?]>) {
          const res = await api(method, path, body);
          expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 404, 'NOT_FOUND']);
        }
      }
      expect((await api('delete', `/roles/${roleId}/permissions/nope`)).status).toBe(404);
      expect((await api('delete', `/roles/${roleId}/children/nope`)).status).toBe(404);
    });

    it('GET /roles is a List record: meta, search on name and slug, sort, paging', async () => {
      const names = ['Zeta listers', 'Alpha listers', 'Mu listers'];
      for (const [i, name] of names.entries()) {
        await createRole({ name, level: i + 1 });
      }
      const all = await api('get', '/roles?limit=500');
      expect(all.status).toBe(200);
      const [{ count }] = await t.db.query(`SELECT count(*)::int AS count FROM roles`);
      expect(all.body.meta).toEqual({
        total: count,
        page: 1,
        limit: 500,
        totalPages: 1,
        hasNext: false,
        hasPrev: false,
      });
      // Default sort: name ascending (in the database's collation), then slug.
      const ordered = await t.db.query(`SELECT id FROM roles ORDER BY name, slug`);
      expect(all.body.items.map((r: { id: string }) => r.id)).toEqual(
        ordered.map((r: { id: string }) => r.id),
      );
      expect(all.body.items.find((r: { slug: string }) => r.slug === 'super-admin')).toMatchObject({
        name: 'Super Admin',
        isSystem: true,
        level: 100,
      });

      const search = await api('get', '/roles?search=LISTERS&sort=-level');
      expect(search.body.items.map((r: { name: string }) => r.name)).toEqual([
        'Mu listers',
        'Alpha listers',
        'Zeta listers',
      ]);
      expect(search.body.meta).toMatchObject({ total: 3, totalPages: 1 });
      const bySlug = await api('get', '/roles?search=alpha-list');
      expect(bySlug.body.items.map((r: { slug: string }) => r.slug)).toEqual(['alpha-listers']);
      const wildcard = await api('get', '/roles?search=%25');
      expect(wildcard.body.meta.total).toBe(0);

      const page = await api('get', '/roles?search=listers&sort=name&limit=2&page=2');
      expect(page.body.items.map((r: { name: string }) => r.name)).toEqual(['Zeta listers']);
      expect(page.body.meta).toEqual({
        total: 3,
        page: 2,
        limit: 2,
        totalPages: 2,
        hasNext: false,
        hasPrev: true,
      });
      const past = await api('get', '/roles?search=listers&page=9');
      expect(past.status).toBe(200);
      expect(past.body.items).toEqual([]);

      for (const bad of ['sort=isSystem', 'page=0', 'limit=abc', 'sort=password']) {
        const res = await api('get', `/roles?${bad}`);
        expect([bad, res.status, res.body.error?.code]).toEqual([bad, 400, 'VALIDATION_ERROR']);
      }
      expect((await api('get', '/roles?limit=9999')).body.meta.limit).toBe(500);
    });

    it('DELETE /roles/{id} answers 200 { message, item } and removes the role, its rows and assignments', async () => {
      const role = await createRole({ name: 'Doomed', permissionIds: [permissionIds['read-users']] });
      const user = await createUser(t, { roles: ['doomed'] });
      const res = await api('delete', `/roles/${role.id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: expect.objectContaining({ id: role.id, slug: 'doomed', permissions: [expect.any(Object)] }),
      });
      expect((await api('get', `/roles/${role.id}`)).status).toBe(404);
      expect((await api('delete', `/roles/${role.id}`)).status).toBe(404);
      const left = await t.db.query(
        `SELECT (SELECT count(*) FROM role_permissions WHERE role_id = $1)::int AS perms,
                (SELECT count(*) FROM user_roles WHERE user_id = $2)::int AS assigned`,
        [role.id, user.id],
      );
      expect(left[0]).toEqual({ perms: 0, assigned: 0 });
    });
  });

  describe('the system role Super Admin', () => {
    it('cannot be renamed, re-slugged or deleted: 409 CONFLICT', async () => {
      for (const [method, body] of [
        ['patch', { name: 'Root' }],
        ['patch', { slug: 'root' }],
        ['patch', { name: 'Root', level: 1 }],
        ['delete', undefined],
      ] as Array<[Method, object | undefined]>) {
        const res = await api(method, `/roles/${superAdminRoleId}`, body);
        expect([method, body, res.status, res.body.error?.code]).toEqual([method, body, 409, 'CONFLICT']);
      }
      const [row] = await t.db.query(`SELECT name, slug, level FROM roles WHERE id = $1`, [superAdminRoleId]);
      expect(row).toEqual({ name: 'Super Admin', slug: 'super-admin', level: 100 });
    });

    it('keeps level and description editable (and accepts its own name and slug unchanged)', async () => {
      const res = await api('patch', `/roles/${superAdminRoleId}`, {
        name: 'Super Admin',
        slug: 'super-admin',
        description: 'Everything',
      });
      expect(res.status).toBe(200);
      expect(res.body.item).toMatchObject({ name: 'Super Admin', isSystem: true, description: 'Everything' });
    });

    it('refuses edits of its permission rows (it bypasses every check): 409 CONFLICT', async () => {
      for (const [method, path, body] of [
        ['post', '/permissions', { permissionId: permissionIds['read-users'] }],
        ['patch', '/permissions', { permissionIds: [permissionIds['read-users']] }],
        ['delete', `/permissions/${permissionIds['read-users']}`],
      ] as Array<[Method, string, object?]>) {
        const res = await api(method, `/roles/${superAdminRoleId}${path}`, body);
        expect([method, res.status, res.body.error?.code]).toEqual([method, 409, 'CONFLICT']);
      }
      const list = await api('get', `/roles/${superAdminRoleId}/permissions`);
      expect(list.status).toBe(200);
      expect(list.body.meta.total).toBe(0);
    });
  });

  describe('permissions of a role', () => {
    let role: { id: string };

    beforeAll(async () => {
      role = await createRole({ name: 'Permission holder' });
    });

    const slugsOf = (item: { permissions: Array<{ slug: string }> }) => item.permissions.map((p) => p.slug);

    it('POST adds { permissionId } or { permissionIds } (or both); already held ones are kept', async () => {
      const one = await api('post', `/roles/${role.id}/permissions`, {
        permissionId: permissionIds['read-users'],
      });
      expect(one.status).toBe(200);
      expect(one.body).toEqual({
        message: expect.any(String),
        item: expect.objectContaining({ id: role.id }),
      });
      expect(slugsOf(one.body.item)).toEqual(['read-users']);
      const many = await api('post', `/roles/${role.id}/permissions`, {
        permissionIds: [
          permissionIds['read-users'],
          permissionIds['update-users'],
          permissionIds['read-media'],
        ],
      });
      expect(slugsOf(many.body.item)).toEqual(['read-media', 'read-users', 'update-users']);
      const both = await api('post', `/roles/${role.id}/permissions`, {
        permissionId: permissionIds['delete-users'].toUpperCase(),
        permissionIds: [permissionIds['create-users']],
      });
      expect(both.status).toBe(200);
      expect(slugsOf(both.body.item)).toEqual([
        'create-users',
        'delete-users',
        'read-media',
        'read-users',
        'update-users',
      ]);
    });

    it('POST validates: neither field, not UUIDs, unknown ids (400 naming the field), unknown fields', async () => {
      const cases: Array<[object, string[]]> = [
        [{}, ['permissionId', 'permissionIds']],
        [{ permissionId: 'read-users' }, ['permissionId']],
        [{ permissionId: MISSING_ID }, ['permissionId']],
        [{ permissionIds: [MISSING_ID, permissionIds['read-users']] }, ['permissionIds']],
        [{ permissionId: permissionIds['read-users'], permissionIds: [MISSING_ID] }, ['permissionIds']],
        [{ permissionIds: [permissionIds['read-users']], slug: 'x' }, ['slug']],
      ];
      for (const [body, paths] of cases) {
        const res = await api('post', `/roles/${role.id}/permissions`, body);
        expect([body, res.status, res.body.error?.code]).toEqual([body, 400, 'VALIDATION_ERROR']);
        expect([
          body,
          [...new Set(res.body.error.data.errors.map((e: { path: string }) => e.path))].sort(),
        ]).toEqual([body, paths]);
      }
    });

    it("GET lists the role's own permissions as a List of permission records", async () => {
      const res = await api('get', `/roles/${role.id}/permissions?limit=2&sort=-slug`);
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({
        total: 5,
        page: 1,
        limit: 2,
        totalPages: 3,
        hasNext: true,
        hasPrev: false,
      });
      expect(res.body.items).toEqual([
        {
          id: permissionIds['update-users'],
          slug: 'update-users',
          action: 'update',
          resource: 'users',
          name: 'Update users',
          description: null,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
        expect.objectContaining({ slug: 'read-users' }),
      ]);
      const search = await api('get', `/roles/${role.id}/permissions?search=media`);
      expect(search.body.items.map((p: { slug: string }) => p.slug)).toEqual(['read-media']);
    });

    it('PATCH replaces the whole set in one transaction; unknown ids change nothing; [] clears', async () => {
      const res = await api('patch', `/roles/${role.id}/permissions`, {
        permissionIds: [permissionIds['read-roles'], permissionIds['read-users']],
      });
      expect(res.status).toBe(200);
      expect(slugsOf(res.body.item)).toEqual(['read-roles', 'read-users']);
      const bad = await api('patch', `/roles/${role.id}/permissions`, {
        permissionIds: [permissionIds['read-media'], MISSING_ID],
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.data.errors[0]).toMatchObject({
        path: 'permissionIds',
        code: 'unknown_permission',
      });
      expect(slugsOf((await api('get', `/roles/${role.id}`)).body)).toEqual(['read-roles', 'read-users']);
      expect((await api('patch', `/roles/${role.id}/permissions`, {})).status).toBe(400);
      const cleared = await api('patch', `/roles/${role.id}/permissions`, { permissionIds: [] });
      expect(cleared.status).toBe(200);
      expect(cleared.body.item.permissions).toEqual([]);
    });

    it('concurrent replaces never mix: the result is exactly one of the sets', async () => {
      const a = [permissionIds['read-users'], permissionIds['update-users']];
      const b = [permissionIds['read-media'], permissionIds['update-media'], permissionIds['delete-media']];
      for (let round = 0; round < 5; round++) {
        const results = await Promise.all([
          api('patch', `/roles/${role.id}/permissions`, { permissionIds: a }),
          api('patch', `/roles/${role.id}/permissions`, { permissionIds: b }),
        ]);
        expect(results.map((r) => r.status)).toEqual([200, 200]);
        const held = (await api('get', `/roles/${role.id}`)).body.permissions.map(
          (p: { id: string }) => p.id,
        );
        expect([[...a].sort(), [...b].sort()]).toContainEqual(held.sort());
      }
    });

    it('DELETE removes one permission; 404 when the role does not hold it', async () => {
      await api('patch', `/roles/${role.id}/permissions`, {
        permissionIds: [permissionIds['read-users'], permissionIds['read-media']],
      });
      const res = await api('delete', `/roles/${role.id}/permissions/${permissionIds['read-media']}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: expect.objectContaining({ id: role.id }),
      });
      expect(slugsOf(res.body.item)).toEqual(['read-users']);
      const again = await api('delete', `/roles/${role.id}/permissions/${permissionIds['read-media']}`);
      expect(again.status).toBe(404);
      expect((await api('delete', `/roles/${role.id}/permissions/${MISSING_ID}`)).status).toBe(404);
    });
  });

  describe('inheritance', () => {
    const permissionsOf = async (bearer: string) => {
      const res = await api('get', '/me/permissions', undefined, bearer);
      expect(res.status).toBe(200);
      return res.body as { isSuperAdmin: boolean; permissions: string[] };
    };

    it('three levels: a child inherits its grandparent; changes apply at once, cache warm', async () => {
      const grandparent = await createRole({
        name: 'Grandparent',
        permissionIds: [permissionIds['read-email-templates']],
      });
      const parent = await createRole({ name: 'Parent', permissionIds: [permissionIds['read-media']] });
      const child = await createRole({ name: 'Child' });
      const res = await link(grandparent.id, parent.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: expect.objectContaining({ id: grandparent.id }),
      });
      expect((await link(parent.id, child.id)).status).toBe(200);

      const token = await tokenFor([child.slug]);
      expect(await permissionsOf(token)).toEqual({
        isSuperAdmin: false,
        permissions: ['read-email-templates', 'read-media'],
      });
      expect((await api('get', '/email-templates', undefined, token)).status).toBe(200);
      // Warm: the next read comes from the cache ...
      expect((await api('get', '/email-providers', undefined, token)).status).toBe(403);
      expect((await permissionsOf(token)).permissions).not.toContain('read-email-providers');

      // ... and a permission added to the grandparent applies at once on this instance.
      const add = await api('post', `/roles/${grandparent.id}/permissions`, {
        permissionId: permissionIds['read-email-providers'],
      });
      expect(add.status).toBe(200);
      expect((await permissionsOf(token)).permissions).toEqual([
        'read-email-providers',
        'read-email-templates',
        'read-media',
      ]);
      expect((await api('get', '/email-providers', undefined, token)).status).toBe(200);

      // Removing it, unlinking and deleting a middle role apply at once too.
      await api('delete', `/roles/${grandparent.id}/permissions/${permissionIds['read-email-providers']}`);
      expect((await api('get', '/email-providers', undefined, token)).status).toBe(403);
      expect((await api('delete', `/roles/${parent.id}/children/${child.id}`)).status).toBe(200);
      expect((await permissionsOf(token)).permissions).toEqual([]);
      expect((await api('get', '/email-templates', undefined, token)).status).toBe(403);
      expect((await link(parent.id, child.id)).status).toBe(200);
      expect((await permissionsOf(token)).permissions).toEqual(['read-email-templates', 'read-media']);
      expect((await api('delete', `/roles/${parent.id}`)).status).toBe(200);
      expect((await permissionsOf(token)).permissions).toEqual([]);
    });

    it('GET children lists direct children; GET parents lists every ancestor, transitively (List records)', async () => {
      const a = await createRole({ name: 'Lineage A' });
      const b = await createRole({ name: 'Lineage B' });
      const c = await createRole({ name: 'Lineage C' });
      const d = await createRole({ name: 'Lineage D' });
      // a -> b -> c, and d -> c (two parents).
      for (const [p, ch] of [
        [a, b],
        [b, c],
        [d, c],
      ]) {
        expect((await link(p.id, ch.id)).status).toBe(200);
      }
      const slugs = (res: { body: { items: Array<{ slug: string }> } }) => res.body.items.map((r) => r.slug);

      const children = await api('get', `/roles/${a.id}/children`);
      expect(children.status).toBe(200);
      expect(slugs(children)).toEqual(['lineage-b']);
      expect(children.body.meta).toEqual({
        total: 1,
        page: 1,
        limit: 10,
        totalPages: 1,
        hasNext: false,
        hasPrev: false,
      });
      expect(children.body.items[0]).toMatchObject({ id: b.id, isSystem: false, permissions: [] });

      const parents = await api('get', `/roles/${c.id}/parents`);
      expect(slugs(parents)).toEqual(['lineage-a', 'lineage-b', 'lineage-d']);
      expect(parents.body.meta.total).toBe(3);
      expect(slugs(await api('get', `/roles/${c.id}/parents?sort=-name&limit=1`))).toEqual(['lineage-d']);
      expect(slugs(await api('get', `/roles/${c.id}/parents?search=lineage-b`))).toEqual(['lineage-b']);
      expect(slugs(await api('get', `/roles/${a.id}/parents`))).toEqual([]);
      expect(slugs(await api('get', `/roles/${c.id}/children`))).toEqual([]);

      // Linking twice is fine (nothing changes).
      expect((await link(a.id, b.id)).status).toBe(200);
      const [{ count }] = await t.db.query(
        `SELECT count(*)::int AS count FROM role_inherits WHERE parent_id = $1 AND child_id = $2`,
        [a.id, b.id],
      );
      expect(count).toBe(1);

      // Unlinking a pair that is not a direct link: 404.
      expect((await api('delete', `/roles/${a.id}/children/${c.id}`)).status).toBe(404);
      expect((await api('delete', `/roles/${a.id}/children/${b.id}`)).status).toBe(200);
      expect((await api('delete', `/roles/${a.id}/children/${b.id}`)).status).toBe(404);
    });

    it('refuses self-inheritance and cycles with 409 CONFLICT; validates the body', async () => {
      const x = await createRole({ name: 'Cycle X' });
      const y = await createRole({ name: 'Cycle Y' });
      const z = await createRole({ name: 'Cycle Z' });
      const self = await link(x.id, x.id);
      expect(self.status).toBe(409);
      expect(self.body.error.code).toBe('CONFLICT');
      expect((await link(x.id, y.id)).status).toBe(200);
      expect((await link(y.id, z.id)).status).toBe(200);
      for (const [p, ch] of [
        [y, x],
        [z, x],
        [z, y],
      ]) {
        const res = await link(p.id, ch.id);
        expect([res.status, res.body.error?.code]).toEqual([409, 'CONFLICT']);
      }
      const [{ count }] = await t.db.query(
        `SELECT count(*)::int AS count FROM role_inherits WHERE parent_id = ANY($1::uuid[])`,
        [[x.id, y.id, z.id]],
      );
      expect(count).toBe(2);

      for (const [body, path] of [
        [{}, 'childId'],
        [{ childId: 'nope' }, 'childId'],
        [{ childId: MISSING_ID }, 'childId'],
        [{ childId: y.id, parentId: x.id }, 'parentId'],
      ] as Array<[object, string]>) {
        const res = await api('post', `/roles/${x.id}/children`, body);
        expect([body, res.status, res.body.error?.data?.errors?.[0]?.path]).toEqual([body, 400, path]);
      }
    });

    it('two opposite links at the same time never both land (20 rounds)', async () => {
      const a = await createRole({ name: 'Race A' });
      const b = await createRole({ name: 'Race B' });
      const c = await createRole({ name: 'Race C' });
      for (let round = 0; round < 20; round++) {
        // Alternate a direct two-role race with a three-role one (a -> b, b -> c and c -> a at once).
        const pairs =
          round % 2 === 0
            ? [
                [a, b],
                [b, a],
              ]
            : [
                [a, b],
                [b, c],
                [c, a],
              ];
        const results = await Promise.all(pairs.map(([p, ch]) => link(p.id, ch.id)));
        const statuses = results.map((r) => r.status).sort();
        expect(statuses.filter((s) => s === 409)).toHaveLength(1);
        expect(statuses.filter((s) => s === 200)).toHaveLength(pairs.length - 1);
        const links = await t.db.query(
          `SELECT parent_id, child_id FROM role_inherits WHERE parent_id = ANY($1::uuid[])`,
          [[a.id, b.id, c.id]],
        );
        expect(links).toHaveLength(pairs.length - 1);
        await t.db.query(`DELETE FROM role_inherits WHERE parent_id = ANY($1::uuid[])`, [[a.id, b.id, c.id]]);
      }
    });
  });

  describe('Super Admin as an ancestor', () => {
    it('a role inheriting Super Admin acts as a super-admin', async () => {
      const built = await createRole({ name: 'Deputy' });
      expect((await link(superAdminRoleId, built.id)).status).toBe(200);
      const grandchild = await createRole({ name: 'Deputy junior' });
      expect((await link(built.id, grandchild.id)).status).toBe(200);
      for (const slug of [built.slug, grandchild.slug]) {
        const token = await tokenFor([slug]);
        const me = await api('get', '/me/permissions', undefined, token);
        expect(me.body.isSuperAdmin).toBe(true);
        expect(me.body.permissions).toEqual(Object.keys(permissionIds).sort());
        // Routes it holds no permission for.
        expect((await api('get', '/email-providers', undefined, token)).status).toBe(200);
        expect((await api('post', '/roles', { name: `Made by ${slug}` }, token)).status).toBe(201);
      }
      const parents = await api('get', `/roles/${grandchild.id}/parents`);
      expect(parents.body.items.map((r: { slug: string }) => r.slug).sort()).toEqual([
        'deputy',
        'super-admin',
      ]);
      const children = await api('get', `/roles/${superAdminRoleId}/children`);
      expect(children.body.items.map((r: { slug: string }) => r.slug)).toEqual(['deputy']);
    });

    it('Super Admin itself inherits from no role: 409 CONFLICT', async () => {
      const role = await createRole({ name: 'Would be parent of root' });
      const res = await link(role.id, superAdminRoleId);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
    });

    it('only a super-admin can build a role on Super Admin: 403 FORBIDDEN for everyone else (SPEC 5.4.1)', async () => {
      const manager = await tokenWith(['read-roles', 'create-roles', 'update-roles', 'delete-roles']);
      const own = await api('post', '/roles', { name: 'Sneaky' }, manager);
      expect(own.status).toBe(201);
      const sneaky = own.body.item;

      // Directly under Super Admin.
      const direct = await link(superAdminRoleId, sneaky.id, manager);
      expect(direct.status).toBe(403);
      expect(direct.body.error.code).toBe('FORBIDDEN');

      // Under a role that inherits Super Admin, at any depth.
      const deputy = await createRole({ name: 'Deputy two' });
      const junior = await createRole({ name: 'Deputy two junior' });
      expect((await link(superAdminRoleId, deputy.id)).status).toBe(200);
      expect((await link(deputy.id, junior.id)).status).toBe(200);
      for (const parent of [deputy, junior]) {
        const res = await link(parent.id, sneaky.id, manager);
        expect([parent.slug, res.status, res.body.error?.code]).toEqual([parent.slug, 403, 'FORBIDDEN']);
      }
      // Nor by creating a role with a parent in the same request (not part of the body: 400).
      const withParent = await api(
        'post',
        '/roles',
        { name: 'Sneaky two', parentIds: [superAdminRoleId] },
        manager,
      );
      expect(withParent.status).toBe(400);

      const [{ count }] = await t.db.query(
        `SELECT count(*)::int AS count FROM role_inherits WHERE child_id = $1`,
        [sneaky.id],
      );
      expect(count).toBe(0);
      const holder = await tokenFor([sneaky.slug]);
      expect((await api('get', '/me/permissions', undefined, holder)).body.isSuperAdmin).toBe(false);

      // Ordinary links stay open to the manager.
      const plainParent = await api('post', '/roles', { name: 'Sneaky parent' }, manager);
      expect((await link(plainParent.body.item.id, sneaky.id, manager)).status).toBe(200);

      // A super-admin can.
      expect((await link(junior.id, sneaky.id)).status).toBe(200);
      expect((await api('get', '/me/permissions', undefined, holder)).body.isSuperAdmin).toBe(true);
    });
  });
});
