import {
  bearerFor,
  browser,
  createUser,
  CreatedUser,
  PASSWORD,
  signIn,
  userWithPermissions,
} from '../utils/auth';
import { extractLink, startSmtp, TestSmtp, useTestSmtp } from '../utils/smtp';
import { createTestApp, TestApp } from '../utils/test-app';

async function superAdminRoleId(t: TestApp): Promise<string> {
  const [r] = await t.db.query(`SELECT id FROM roles WHERE slug = 'super-admin'`);
  return r.id;
}

describe('/users', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let admin: Record<string, string>;
  let adminUser: CreatedUser;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp();
    await useTestSmtp(t, smtp);
    adminUser = await createUser(t, { roles: ['super-admin'] });
    admin = await bearerFor(t, adminUser.id);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  describe('permission matrix', () => {
    const routes: Array<{
      method: 'get' | 'post' | 'patch' | 'delete';
      path: (id: string, roleId: string) => string;
      permission: string;
      body?: object;
      ok: number;
    }> = [
      { method: 'get', path: () => '/admin/api/users', permission: 'read-users', ok: 200 },
      {
        method: 'post',
        path: () => '/admin/api/users',
        permission: 'create-users',
        body: { email: `m-${Date.now()}@example.com`, name: 'M' },
        ok: 201,
      },
      { method: 'get', path: (id) => `/admin/api/users/${id}`, permission: 'read-users', ok: 200 },
      {
        method: 'patch',
        path: (id) => `/admin/api/users/${id}`,
        permission: 'update-users',
        body: { name: 'Renamed' },
        ok: 200,
      },
      {
        method: 'patch',
        path: (id) => `/admin/api/users/${id}/password`,
        permission: 'update-users',
        body: { password: 'Another-Pass-1' },
        ok: 200,
      },
      { method: 'get', path: (id) => `/admin/api/users/${id}/roles`, permission: 'read-roles', ok: 200 },
      {
        method: 'post',
        path: (id) => `/admin/api/users/${id}/roles`,
        permission: 'update-users',
        body: {},
        ok: 200,
      },
      {
        method: 'delete',
        path: (id, roleId) => `/admin/api/users/${id}/roles/${roleId}`,
        permission: 'update-users',
        ok: 200,
      },
      { method: 'delete', path: (id) => `/admin/api/users/${id}`, permission: 'delete-users', ok: 200 },
    ];

    for (const route of routes) {
      it(`${route.method.toUpperCase()} ${route.path(':id', ':roleId')} needs ${route.permission}`, async () => {
        const target = await createUser(t);
        const [role] = await t.db.query(`INSERT INTO roles (name, slug) VALUES ($1, $1) RETURNING id`, [
          `plain-${target.id.slice(0, 8)}`,
        ]);
        if (route.path('x', 'y').endsWith('/roles/y')) {
          await t.db.query(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [target.id, role.id]);
        }
        const body =
          route.path('x', 'y').endsWith('/roles') && route.method === 'post'
            ? { roleId: role.id }
            : route.body;
        const call = (headers: Record<string, string>) => {
          const req = t.http[route.method](route.path(target.id, role.id)).set(headers);
          return body ? req.send(body) : req;
        };
        const none = await call({});
        expect(none.status).toBe(401);
        expect(none.body.error.code).toBe('AUTH_REQUIRED');
        const other = await userWithPermissions(t, ['read-settings']);
        const forbidden = await call(await bearerFor(t, other.id));
        expect(forbidden.status).toBe(403);
        expect(forbidden.body.error.code).toBe('FORBIDDEN');
        const allowed = await userWithPermissions(t, [route.permission]);
        const res = await call(await bearerFor(t, allowed.id));
        expect(res.status).toBe(route.ok);
      });
    }
  });

  it('creates a user: the record holds no password material; duplicates, weak passwords and unknown roles are refused', async () => {
    const [editor] = await t.db.query(
      `INSERT INTO roles (name, slug) VALUES ('Writer', 'writer') RETURNING id, name, slug`,
    );
    const res = await t.http
      .post('/admin/api/users')
      .set(admin)
      .send({
        email: 'Created@Example.com',
        name: 'Created',
        password: PASSWORD,
        roleIds: [editor.id],
        emailVerified: true,
      });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      message: expect.any(String),
      item: {
        id: expect.any(String),
        email: 'Created@Example.com',
        name: 'Created',
        image: null,
        isActive: true,
        emailVerified: true,
        roles: [{ id: editor.id, name: 'Writer', slug: 'writer' }],
        lastLoginAt: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password|hash|\$2b\$/i);
    expect((await signIn(t, { email: 'created@example.com', password: PASSWORD })).res.status).toBe(200);

    const dup = await t.http
      .post('/admin/api/users')
      .set(admin)
      .send({ email: 'CREATED@example.com', name: 'Again' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('DUPLICATE');
    const weak = await t.http
      .post('/admin/api/users')
      .set(admin)
      .send({ email: 'weak@example.com', name: 'W', password: 'weak' });
    expect(weak.status).toBe(400);
    expect(weak.body.error.data.errors[0].path).toBe('password');
    const unknownRole = await t.http
      .post('/admin/api/users')
      .set(admin)
      .send({ email: 'ur@example.com', name: 'U', roleIds: ['00000000-0000-4000-8000-000000000000'] });
    expect(unknownRole.status).toBe(400);
    const unknownField = await t.http
      .post('/admin/api/users')
      .set(admin)
      .send({ email: 'uf@example.com', name: 'U', shoeSize: 44 });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error.data.errors).toEqual([
      expect.objectContaining({ path: 'shoeSize', code: 'unknown_field' }),
    ]);
  });

  it('invites a user created without a password (sendInvite)', async () => {
    const res = await t.http
      .post('/admin/api/users')
      .set(admin)
      .send({ email: 'invited@example.com', name: 'Invited', sendInvite: true });
    expect(res.status).toBe(201);
    const mail = await smtp.waitFor((m) => JSON.stringify(m.to).includes('invited@example.com'), 10_000);
    const token = new URL(extractLink(mail, 'accept-invite')!).searchParams.get('token')!;
    const b = await browser(t);
    expect((await b.post('/auth/accept-invite', { token, password: PASSWORD })).status).toBe(200);
    expect((await b.post('/auth/login', { email: 'invited@example.com', password: PASSWORD })).status).toBe(
      200,
    );
  });

  it('lists with search, sort and paging', async () => {
    await createUser(t, { email: 'zed-search@example.com', name: 'Zed' });
    const res = await t.http.get('/admin/api/users?search=zed-search&sort=-email&limit=5').set(admin);
    expect(res.status).toBe(200);
    expect(res.body.items.map((u: { email: string }) => u.email)).toEqual(['zed-search@example.com']);
    expect(res.body.meta).toEqual({
      total: 1,
      page: 1,
      limit: 5,
      totalPages: 1,
      hasNext: false,
      hasPrev: false,
    });
    expect((await t.http.get('/admin/api/users?sort=password').set(admin)).status).toBe(400);
    expect((await t.http.get('/admin/api/users?limit=abc').set(admin)).status).toBe(400);
    expect((await t.http.get('/admin/api/users/not-a-uuid').set(admin)).status).toBe(404);
  });

  it('deactivation ends the sessions at once (refresh tokens deleted); activation restores none', async () => {
    const user = await createUser(t);
    const { body } = await signIn(t, user);
    const bearer = { Authorization: `Bearer ${body.token}` };
    const off = await t.http.patch(`/admin/api/users/${user.id}`).set(admin).send({ isActive: false });
    expect(off.status).toBe(200);
    expect(off.body.item.isActive).toBe(false);
    expect((await t.http.get('/admin/api/me').set(bearer)).status).toBe(401);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1`, [
      user.id,
    ]);
    expect(n).toBe(0);
    await t.http.patch(`/admin/api/users/${user.id}`).set(admin).send({ isActive: true }).expect(200);
    expect((await t.http.get('/admin/api/me').set(bearer)).status).toBe(401);
    expect((await signIn(t, user)).res.status).toBe(200);
  });

  it('edits email, name, image and verification; a taken email is 409 DUPLICATE', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const res = await t.http.patch(`/admin/api/users/${user.id}`).set(admin).send({
      email: 'renamed@example.com',
      name: 'Renamed',
      image: 'https://cdn.example.com/x.png',
      emailVerified: false,
    });
    expect(res.status).toBe(200);
    expect(res.body.item).toMatchObject({
      email: 'renamed@example.com',
      name: 'Renamed',
      emailVerified: false,
    });
    const taken = await t.http
      .patch(`/admin/api/users/${user.id}`)
      .set(admin)
      .send({ email: other.email.toUpperCase() });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('DUPLICATE');
    expect(
      (await t.http.patch(`/admin/api/users/${user.id}`).set(admin).send({ password: 'x' })).status,
    ).toBe(400);
    // null is no value for a column that must hold one: 400 naming each, nothing changed (was a 500).
    const nulls = await t.http
      .patch(`/admin/api/users/${user.id}`)
      .set(admin)
      .send({ name: null, isActive: null, emailVerified: null, email: null, image: null });
    expect(nulls.status).toBe(400);
    expect([...new Set(nulls.body.error.data.errors.map((e: { path: string }) => e.path))].sort()).toEqual([
      'email',
      'emailVerified',
      'isActive',
      'name',
    ]);
    const after = await t.http.get(`/admin/api/users/${user.id}`).set(admin);
    expect(after.body).toMatchObject({ name: 'Renamed', isActive: true });
    expect(
      (
        await t.http
          .post('/admin/api/users')
          .set(admin)
          .send({ email: 'null-active@example.com', name: 'N', isActive: null })
      ).status,
    ).toBe(400);
  });

  it('PATCH /users/{id}/password ends the sessions; requirePasswordChange pauses the next login', async () => {
    const user = await createUser(t);
    const { body } = await signIn(t, user);
    const res = await t.http
      .patch(`/admin/api/users/${user.id}/password`)
      .set(admin)
      .send({ password: 'Set-By-Admin-1', requirePasswordChange: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect((await t.http.get('/admin/api/me').set('Authorization', `Bearer ${body.token}`)).status).toBe(401);
    const b = await browser(t);
    const login = await b.post('/auth/login', { email: user.email, password: 'Set-By-Admin-1' });
    expect(login.body).toMatchObject({ status: 'challenge', challengeType: 'set-initial-password' });
  });

  it('deletes a user with their sessions', async () => {
    const user = await createUser(t);
    await signIn(t, user);
    const res = await t.http.delete(`/admin/api/users/${user.id}`).set(admin);
    expect(res.status).toBe(200);
    expect(res.body.item.id).toBe(user.id);
    expect((await t.http.get(`/admin/api/users/${user.id}`).set(admin)).status).toBe(404);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM refresh_tokens WHERE user_id = $1`, [
      user.id,
    ]);
    expect(n).toBe(0);
  });

  describe('super-admin protection', () => {
    it('a non-super-admin cannot grant Super Admin, directly or through a role built on it, nor touch a super-admin', async () => {
      const manager = await userWithPermissions(t, ['update-users', 'create-users', 'delete-users']);
      const headers = await bearerFor(t, manager.id);
      const target = await createUser(t);
      const sa = await superAdminRoleId(t);
      const direct = await t.http
        .post(`/admin/api/users/${target.id}/roles`)
        .set(headers)
        .send({ roleId: sa });
      expect(direct.status).toBe(403);
      const [heir] = await t.db.query(`INSERT INTO roles (name, slug) VALUES ('Heir', 'heir') RETURNING id`);
      await t.db.query(`INSERT INTO role_inherits (parent_id, child_id) VALUES ($1, $2)`, [sa, heir.id]);
      const inherited = await t.http
        .post(`/admin/api/users/${target.id}/roles`)
        .set(headers)
        .send({ roleId: heir.id });
      expect(inherited.status).toBe(403);
      const created = await t.http
        .post('/admin/api/users')
        .set(headers)
        .send({ email: 'escalate@example.com', name: 'E', roleIds: [sa] });
      expect(created.status).toBe(403);
      for (const res of [
        await t.http.patch(`/admin/api/users/${adminUser.id}`).set(headers).send({ name: 'Pwned' }),
        await t.http
          .patch(`/admin/api/users/${adminUser.id}/password`)
          .set(headers)
          .send({ password: 'Take-Over-123' }),
        await t.http.delete(`/admin/api/users/${adminUser.id}`).set(headers),
      ]) {
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('FORBIDDEN');
      }
      // A super-admin can.
      expect(
        (await t.http.post(`/admin/api/users/${target.id}/roles`).set(admin).send({ roleId: sa })).status,
      ).toBe(200);
    });
  });
});

describe('the last super-admin (SPEC 3.1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('cannot be deactivated, deleted or lose the role, not even by itself; a role inheriting Super Admin does not count', async () => {
    const last = await createUser(t, { roles: ['super-admin'] });
    const headers = await bearerFor(t, last.id);
    const sa = await superAdminRoleId(t);
    // Someone acting as super-admin through an inheriting role is no substitute.
    const [heir] = await t.db.query(
      `INSERT INTO roles (name, slug) VALUES ('Deputy', 'deputy') RETURNING id`,
    );
    await t.db.query(`INSERT INTO role_inherits (parent_id, child_id) VALUES ($1, $2)`, [sa, heir.id]);
    const deputy = await createUser(t);
    await t.db.query(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [deputy.id, heir.id]);
    const deputyHeaders = await bearerFor(t, deputy.id);
    expect((await t.http.get('/admin/api/me/permissions').set(deputyHeaders)).body.isSuperAdmin).toBe(true);

    for (const [who, res] of [
      ['self', await t.http.patch(`/admin/api/users/${last.id}`).set(headers).send({ isActive: false })],
      ['self', await t.http.delete(`/admin/api/users/${last.id}`).set(headers)],
      ['self', await t.http.delete(`/admin/api/users/${last.id}/roles/${sa}`).set(headers)],
      [
        'deputy',
        await t.http.patch(`/admin/api/users/${last.id}`).set(deputyHeaders).send({ isActive: false }),
      ],
    ] as const) {
      expect([who, res.status]).toEqual([who, 409]);
      expect(res.body.error.code).toBe('CONFLICT');
      expect(res.body.error.message).toMatch(/another user super-admin/);
    }
    const [state] = await t.db.query(`SELECT is_active FROM users WHERE id = $1`, [last.id]);
    expect(state.is_active).toBe(true);

    // With a second direct super-admin, the first can go.
    const second = await createUser(t, { roles: ['super-admin'] });
    expect(
      (
        await t.http
          .patch(`/admin/api/users/${last.id}`)
          .set(await bearerFor(t, second.id))
          .send({ isActive: false })
      ).status,
    ).toBe(200);
  });

  it('20 rounds of two parallel removals of the last two never leave zero', async () => {
    const sa = await superAdminRoleId(t);
    const activeDirect = async () =>
      (
        await t.db.query(
          `SELECT count(*)::int AS n FROM users u JOIN user_roles ur ON ur.user_id = u.id WHERE ur.role_id = $1 AND u.is_active`,
          [sa],
        )
      )[0].n as number;
    // The caller acts as super-admin through a role inheriting Super Admin, so it does not count
    // itself: both removals race on the rule every round.
    const [deputyRole] = await t.db.query(
      `INSERT INTO roles (name, slug) VALUES ('Racer', 'racer') RETURNING id`,
    );
    await t.db.query(`INSERT INTO role_inherits (parent_id, child_id) VALUES ($1, $2)`, [sa, deputyRole.id]);
    const deputy = await createUser(t);
    await t.db.query(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [deputy.id, deputyRole.id]);
    const headers = await bearerFor(t, deputy.id);
    await t.db.query(`UPDATE users SET is_active = false WHERE id <> $1`, [deputy.id]);

    for (let round = 0; round < 20; round++) {
      await t.db.query(`UPDATE users SET is_active = false WHERE id <> $1`, [deputy.id]);
      const x = await createUser(t, { roles: ['super-admin'] });
      const y = await createUser(t, { roles: ['super-admin'] });
      expect(await activeDirect()).toBe(2);
      // Mix the three kinds of removal across rounds.
      const remove = (target: CreatedUser) =>
        round % 3 === 0
          ? t.http.patch(`/admin/api/users/${target.id}`).set(headers).send({ isActive: false })
          : round % 3 === 1
            ? t.http.delete(`/admin/api/users/${target.id}/roles/${sa}`).set(headers)
            : t.http.delete(`/admin/api/users/${target.id}`).set(headers);
      const results = await Promise.all([remove(x), remove(y)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(results.find((r) => r.status === 409)!.body.error.code).toBe('CONFLICT');
      expect(await activeDirect()).toBe(1);
    }
  }, 60_000);
});

describe('custom user fields on users, /me and the session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: {
        users: {
          fields: [
            { name: 'department', type: 'text' },
            { name: 'employeeNo', type: 'number' },
          ],
        },
      },
    });
  });
  afterAll(() => t.close());

  it('are validated by type, stored, returned on the record, the session user and the token', async () => {
    const admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    const user = await createUser(t);
    const bad = await t.http
      .patch(`/admin/api/users/${user.id}`)
      .set(admin)
      .send({ employeeNo: 'abc', name: '' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.data.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'employeeNo',
      'name',
    ]);
    const set = await t.http.patch(`/admin/api/users/${user.id}`).set(admin).send({ employeeNo: 42 });
    expect(set.status).toBe(200);
    expect(set.body.item).toMatchObject({ employeeNo: 42, department: null });

    const { browser: b, body } = await signIn(t, user);
    const me = await t.http
      .patch('/admin/api/me')
      .set('Authorization', `Bearer ${body.token}`)
      .send({ department: '  R&D ' });
    expect(me.status).toBe(200);
    expect(me.body.item).toMatchObject({ department: 'R&D', employeeNo: 42 });
    expect(
      (await t.http.get('/admin/api/me').set('Authorization', `Bearer ${body.token}`)).body.department,
    ).toBe('R&D');
    expect(
      (await t.http.patch('/admin/api/me').set('Authorization', `Bearer ${body.token}`).send({ salary: 1 }))
        .status,
    ).toBe(400);

    // A fresh session carries the configured fields on the session user and in the token's claims.
    const again = await signIn(t, user);
    expect(again.body.user).toMatchObject({ department: 'R&D', employeeNo: 42 });
    const session = await again.browser.agent.get('/admin/api/auth/session');
    expect(session.body.user).toMatchObject({ department: 'R&D', employeeNo: 42 });
    const claims = JSON.parse(Buffer.from(again.body.token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ department: 'R&D', employeeNo: 42 });
    expect(b).toBeDefined();
  });
});
