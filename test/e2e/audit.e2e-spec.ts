/**
 * The audit log (CONTRACTS 14.3): `GET /admin/api/audit` and its CSV export (permission
 * `read-audit`, filters, validation), the events written by the accounts, rbac, settings, email
 * and content modules (each in the transaction of the change it records: none when the change is
 * refused), no secret in any row, the retention purge job, and the dashboard's activity feed
 * reading the same rows.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AuditPurgeJob } from '../../src/jobs/audit-purge.job';
import { bearerFor, browser, createUser, PASSWORD, signIn, userWithPermissions } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

const RETENTION_DAYS = 3650;
const DAY_MS = 24 * 3600 * 1000;

const ROUTE = '/admin/api/audit';
const UA = 'audit-e2e/1.0';

interface Row {
  id: string;
  event: string;
  actor_id: string | null;
  target: string | null;
  metadata: Record<string, unknown>;
  ip: string | null;
  user_agent: string | null;
}

describe('audit log', () => {
  let t: TestApp;
  let adminId: string;
  let admin: Record<string, string>;

  /** Rows of `event` (and `target`), oldest first. */
  const rowsOf = (event: string, target?: string): Promise<Row[]> =>
    t.db.query(
      `SELECT id::text, event, actor_id, target, metadata, ip, user_agent FROM audit_log
        WHERE event = $1 AND ($2::text IS NULL OR target = $2) ORDER BY id`,
      [event, target ?? null],
    );
  /**
   * The newest recent row's id: unchanged when a refused change wrote nothing. Not a count: the
   * purge job (scheduled at boot) may delete this file's back-dated rows at any moment.
   */
  const count = async (): Promise<number> =>
    Number(
      (
        await t.db.query(
          `SELECT coalesce(max(id), 0) AS n FROM audit_log WHERE created_at > now() - interval '1 day'`,
        )
      )[0].n,
    );

  /** A row written straight to the table, `createdAt` as given. */
  const insert = async (
    event: string,
    o: {
      actorId?: string | null;
      target?: string | null;
      createdAt?: string;
      metadata?: object;
      ip?: string | null;
      userAgent?: string | null;
      strategy?: string | null;
    } = {},
  ): Promise<string> => {
    const [row] = await t.db.query(
      `INSERT INTO audit_log (event, actor_id, target, metadata, ip, user_agent, strategy, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, coalesce($8::timestamptz, now())) RETURNING id::text AS id`,
      [
        event,
        o.actorId ?? null,
        o.target ?? null,
        JSON.stringify(o.metadata ?? {}),
        o.ip ?? null,
        o.userAgent ?? null,
        o.strategy ?? null,
        o.createdAt ?? null,
      ],
    );
    return row.id as string;
  };

  const as = (auth: Record<string, string>) => ({
    get: (path: string) => t.http.get(`/admin/api${path}`).set(auth).set('User-Agent', UA),
    post: (path: string, body: object) =>
      t.http.post(`/admin/api${path}`).set(auth).set('User-Agent', UA).send(body),
    patch: (path: string, body: object) =>
      t.http.patch(`/admin/api${path}`).set(auth).set('User-Agent', UA).send(body),
    delete: (path: string) => t.http.delete(`/admin/api${path}`).set(auth).set('User-Agent', UA),
  });

  beforeAll(async () => {
    // Ten years' retention: the purge the job schedules at boot never takes this file's back-dated
    // rows (2025) while other tests read them; the retention test moves the job's clock instead.
    t = await createTestApp({ config: { auth: { auditRetentionDays: RETENTION_DAYS } } });
    adminId = (await createUser(t, { roles: ['super-admin'], name: 'Audit Admin' })).id;
    admin = await bearerFor(t, adminId);
  });
  afterAll(() => t.close());

  describe('GET /audit', () => {
    it('needs read-audit (a seeded core permission): 401 without credentials, 403 without it', async () => {
      expect((await t.http.get(ROUTE).expect(401)).body.error.code).toBe('AUTH_REQUIRED');
      const other = await bearerFor(t, (await userWithPermissions(t, ['read-users', 'read-roles'])).id);
      expect((await t.http.get(ROUTE).set(other).expect(403)).body.error.code).toBe('FORBIDDEN');
      expect((await t.http.get(`${ROUTE}/export`).set(other).expect(403)).body.error.code).toBe('FORBIDDEN');

      const reader = await bearerFor(t, (await userWithPermissions(t, ['read-audit'])).id);
      await t.http.get(ROUTE).set(reader).expect(200);
      await t.http.get(`${ROUTE}/export?format=csv`).set(reader).expect(200);

      const [perm] = await t.db.query(`SELECT id FROM permissions WHERE slug = 'read-audit'`);
      const del = await as(admin).delete(`/permissions/${perm.id}`).expect(409);
      expect(del.body.error.code).toBe('CONFLICT');
      // Held by no role: only super-admins and those given it.
      const held = await t.db.query(
        `SELECT count(*) AS n FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
          JOIN roles r ON r.id = rp.role_id WHERE p.slug = 'read-audit' AND r.slug NOT LIKE 'r-%'`,
      );
      expect(Number(held[0].n)).toBe(0);
    });

    it('answers the 14.3 record, newest first, with the actor and the target split', async () => {
      const a = await insert('test-shape-old', {
        actorId: adminId,
        target: `user:${adminId}`,
        createdAt: '2026-01-01T00:00:00Z',
        metadata: { reason: 'x' },
        ip: '10.0.0.1',
        userAgent: 'ua',
        strategy: 'password',
      });
      const b = await insert('test-shape-new', {
        target: 'collection:posts:42',
        createdAt: '2026-01-02T00:00:00Z',
      });
      const c = await insert('test-shape-new', { createdAt: '2026-01-02T00:00:00Z' });
      const res = await as(admin).get('/audit?event=test-shape-old,test-shape-new').expect(200);
      expect(res.body.meta).toEqual({
        total: 3,
        page: 1,
        limit: 10,
        totalPages: 1,
        hasNext: false,
        hasPrev: false,
      });
      // Same instant: the later id first.
      expect(res.body.items.map((i: { id: string }) => i.id)).toEqual([c, b, a]);
      expect(res.body.items[2]).toEqual({
        id: a,
        event: 'test-shape-old',
        actor: { id: adminId, name: 'Audit Admin' },
        target: { type: 'user', id: adminId },
        ip: '10.0.0.1',
        userAgent: 'ua',
        strategy: 'password',
        metadata: { reason: 'x' },
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      expect(res.body.items[1].target).toEqual({ type: 'collection', id: 'posts:42' });
      expect(res.body.items[0]).toMatchObject({ actor: null, target: null, ip: null, strategy: null });

      const oldest = await as(admin)
        .get('/audit?event=test-shape-old,test-shape-new&sort=createdAt')
        .expect(200);
      expect(oldest.body.items[0].id).toBe(a);
    });

    it('filters by event (one, comma-separated or repeated), actorId, from and to, and pages', async () => {
      const actor = (await createUser(t, { name: 'Filter Actor' })).id;
      for (let i = 0; i < 5; i++) {
        await insert('test-filter-a', { actorId: actor, createdAt: `2025-03-0${i + 1}T12:00:00Z` });
      }
      await insert('test-filter-b', { createdAt: '2025-03-03T12:00:00Z' });

      const one = await as(admin).get('/audit?event=test-filter-b').expect(200);
      expect(one.body.items.map((i: { event: string }) => i.event)).toEqual(['test-filter-b']);
      const both = await as(admin).get('/audit?event=test-filter-a,test-filter-b').expect(200);
      expect(both.body.meta.total).toBe(6);
      const repeated = await as(admin).get('/audit?event=test-filter-a&event=test-filter-b').expect(200);
      expect(repeated.body.meta.total).toBe(6);

      const byActor = await as(admin).get(`/audit?actorId=${actor}`).expect(200);
      expect(byActor.body.meta.total).toBe(5);
      expect(byActor.body.items.every((i: { actor: { id: string } }) => i.actor.id === actor)).toBe(true);

      const range = await as(admin)
        .get('/audit?event=test-filter-a,test-filter-b&from=2025-03-02T12:00:00Z&to=2025-03-04')
        .expect(200);
      expect(range.body.items.map((i: { createdAt: string }) => i.createdAt)).toEqual([
        '2025-03-03T12:00:00.000Z',
        '2025-03-03T12:00:00.000Z',
        '2025-03-02T12:00:00.000Z',
      ]);
      const offset = await as(admin)
        .get(`/audit?actorId=${actor}&from=${encodeURIComponent('2025-03-04T14:00:00+02:00')}`)
        .expect(200);
      expect(offset.body.meta.total).toBe(2);

      const page2 = await as(admin).get(`/audit?actorId=${actor}&limit=2&page=2`).expect(200);
      expect(page2.body.meta).toEqual({
        total: 5,
        page: 2,
        limit: 2,
        totalPages: 3,
        hasNext: true,
        hasPrev: true,
      });
      expect(page2.body.items.map((i: { createdAt: string }) => i.createdAt)).toEqual([
        '2025-03-03T12:00:00.000Z',
        '2025-03-02T12:00:00.000Z',
      ]);
    });

    it('refuses bad filters with 400 VALIDATION_ERROR naming each path', async () => {
      const paths = async (query: string) => {
        const res = await as(admin).get(`/audit?${query}`).expect(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        return res.body.error.data.errors.map((e: { path: string }) => e.path).sort();
      };
      expect(await paths('event=Not%20An%20Event&actorId=nope&from=2025-13-01&to=yesterday')).toEqual([
        'actorId',
        'event',
        'from',
        'to',
      ]);
      expect(await paths('event=a,,b')).toEqual(['event']);
      expect(await paths('from=2025-02-30')).toEqual(['from']);
      expect(await paths('from=2025-03-02&to=2025-03-01')).toEqual(['to']);
      expect(await paths('from=2025-01-01&from=2025-01-02')).toEqual(['from']);
      expect(await paths('page=0&limit=x')).toEqual(['limit', 'page']);
      expect(await paths('search=login')).toEqual(['search']);
      expect(await paths('sort=event')).toEqual(['sort']);
      const csv = await as(admin).get('/audit/export?format=xlsx').expect(400);
      expect(csv.body.error.data.errors[0].path).toBe('format');
      const csvFilter = await as(admin).get('/audit/export?actorId=1').expect(400);
      expect(csvFilter.body.error.data.errors[0].path).toBe('actorId');
    });
  });

  describe('GET /audit/export', () => {
    it('streams every filtered row as formula-safe CSV, newest first, as an attachment', async () => {
      const evil = (await createUser(t, { name: '=HYPERLINK("http://x","y")' })).id;
      await insert('test-csv', {
        actorId: evil,
        target: 'user:+1',
        ip: '-2',
        userAgent: '@SUM(1)',
        metadata: { note: 'a,"b"' },
        createdAt: '2025-05-01T00:00:00Z',
      });
      const newer = await insert('test-csv', { userAgent: '\tTAB', createdAt: '2025-05-02T00:00:00Z' });
      await insert('test-csv-other', {});

      const res = await as(admin).get('/audit/export?format=csv&event=test-csv').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-log\.csv"$/);
      const lines = res.text.split('\r\n');
      expect(lines[0]).toBe(
        'id,createdAt,event,actorId,actorName,targetType,targetId,ip,userAgent,strategy,metadata',
      );
      expect(lines).toHaveLength(4); // header, two rows, the empty string after the last CRLF
      expect(lines[1].startsWith(`${newer},2025-05-02T00:00:00.000Z,test-csv,`)).toBe(true);
      expect(lines[1]).toContain(",'\tTAB,");
      expect(lines[2]).toContain(`,${evil},"'=HYPERLINK(""http://x"",""y"")",user,'+1,'-2,'@SUM(1),,`);
      expect(lines[2].endsWith(',"{""note"":""a,\\""b\\""""}"')).toBe(true);
      expect(res.text).not.toContain('test-csv-other');

      // No filter: every row, more than one batch's worth.
      await t.db.query(
        `INSERT INTO audit_log (event, created_at)
         SELECT 'test-csv-bulk', now() - make_interval(secs => i) FROM generate_series(1, 2500) i`,
      );
      const bulk = await as(admin).get('/audit/export?event=test-csv-bulk').expect(200);
      const bulkLines = bulk.text.split('\r\n').filter(Boolean);
      expect(bulkLines).toHaveLength(2501);
      const ids = bulkLines.slice(1).map((l) => l.split(',')[0]);
      expect(new Set(ids).size).toBe(2500);
      const times = bulkLines.slice(1).map((l) => l.split(',')[1]);
      expect([...times].sort().reverse()).toEqual(times);
    });
  });

  describe('GET /audit/export: cells a spreadsheet could misread', () => {
    it('quotes a cell holding ; and neutralises text that starts a formula', async () => {
      await insert('test-csv-semicolon', {
        ip: '-1',
        userAgent: "x;=cmd|' /C calc'!A0",
        strategy: '+x;y',
        metadata: { n: -5 },
        createdAt: '2025-05-03T00:00:00Z',
      });
      const res = await as(admin).get('/audit/export?format=csv&event=test-csv-semicolon').expect(200);
      const [, row] = res.text.split('\r\n');
      expect(row).toMatch(
        /^\d+,2025-05-03T00:00:00\.000Z,test-csv-semicolon,,,,,'-1,"x;=cmd\|' \/C calc'!A0","'\+x;y","\{""n"":-5\}"$/,
      );
    });
  });

  describe('events', () => {
    it('users: user-created, user-updated, user-deactivated and role-changed, with the change only', async () => {
      const roleId = (await as(admin).post('/roles', { name: 'Audit Editors' }).expect(201)).body.item.id;
      const email = `audited-${Date.now()}@example.com`;
      const created = await as(admin)
        .post('/users', { email, name: 'Audited', password: 'Secret-Pass-77', roleIds: [roleId] })
        .expect(201);
      const id = created.body.item.id as string;
      const [row] = await rowsOf('user-created', `user:${id}`);
      expect(row).toMatchObject({ actor_id: adminId, user_agent: UA });
      expect(row.ip).toEqual(expect.any(String));
      expect(row.metadata).toEqual({
        roleIds: [roleId],
        isActive: true,
        emailVerified: false,
        passwordSet: true,
        invited: false,
      });

      // A refused create (taken address) writes nothing.
      const before = await count();
      await as(admin).post('/users', { email, name: 'Again', password: 'Secret-Pass-77' }).expect(409);
      expect(await count()).toBe(before);

      await as(admin).patch(`/users/${id}`, { name: 'Renamed', emailVerified: true }).expect(200);
      expect((await rowsOf('user-updated', `user:${id}`)).map((r) => r.metadata)).toEqual([
        { fields: ['name', 'emailVerified'] },
      ]);

      await as(admin).patch(`/users/${id}`, { isActive: false }).expect(200);
      expect(await rowsOf('user-deactivated', `user:${id}`)).toHaveLength(1);
      expect(await rowsOf('user-updated', `user:${id}`)).toHaveLength(1);
      await as(admin).patch(`/users/${id}`, { isActive: true }).expect(200);
      expect((await rowsOf('user-updated', `user:${id}`))[1].metadata).toEqual({ fields: ['isActive'] });

      const other = (await as(admin).post('/roles', { name: 'Audit Other' }).expect(201)).body.item.id;
      await as(admin).post(`/users/${id}/roles`, { roleId: other }).expect(200);
      await as(admin).delete(`/users/${id}/roles/${other}`).expect(200);
      expect((await rowsOf('role-changed', `user:${id}`)).map((r) => r.metadata)).toEqual([
        { action: 'user-role-added', roleId: other },
        { action: 'user-role-removed', roleId: other },
      ]);

      // Refused: a manager without super-admin cannot touch a super-admin's account.
      const manager = await bearerFor(t, (await userWithPermissions(t, ['update-users', 'read-users'])).id);
      const n = await count();
      await as(manager).patch(`/users/${adminId}`, { name: 'Taken over' }).expect(403);
      await as(admin).delete(`/users/${id}/roles/${other}`).expect(404);
      expect(await count()).toBe(n);

      // The profile of the signed-in user.
      await as(await bearerFor(t, id))
        .patch('/me', { name: 'Myself' })
        .expect(200);
      expect((await rowsOf('user-updated', `user:${id}`))[2]).toMatchObject({
        actor_id: id,
        metadata: { fields: ['name'] },
      });
    });

    it('roles and permissions: role-changed and permission-changed, none when refused', async () => {
      const role = (await as(admin).post('/roles', { name: 'Audit Role' }).expect(201)).body.item;
      const child = (await as(admin).post('/roles', { name: 'Audit Child' }).expect(201)).body.item;
      const perm = (
        await as(admin).post('/permissions', { action: 'publish', resource: 'audit-things' }).expect(201)
      ).body.item;
      await as(admin).patch(`/roles/${role.id}`, { description: 'd' }).expect(200);
      await as(admin)
        .post(`/roles/${role.id}/permissions`, { permissionIds: [perm.id] })
        .expect(200);
      await as(admin).patch(`/roles/${role.id}/permissions`, { permissionIds: [] }).expect(200);
      await as(admin).post(`/roles/${role.id}/children`, { childId: child.id }).expect(200);
      const n = await count();
      await as(admin).post(`/roles/${role.id}/children`, { childId: role.id }).expect(409);
      await as(admin)
        .post(`/roles/${role.id}/permissions`, { permissionIds: ['00000000-0000-4000-8000-000000000000'] })
        .expect(400);
      expect(await count()).toBe(n);
      await as(admin).delete(`/roles/${role.id}/children/${child.id}`).expect(200);
      await as(admin).delete(`/roles/${role.id}`).expect(200);
      const actions = (await rowsOf('role-changed', `role:${role.id}`)).map((r) => r.metadata.action);
      expect(actions).toEqual([
        'role-created',
        'role-updated',
        'role-permissions-added',
        'role-permissions-replaced',
        'child-role-added',
        'child-role-removed',
        'role-deleted',
      ]);
      const [created] = await rowsOf('role-changed', `role:${role.id}`);
      expect(created).toMatchObject({ actor_id: adminId, metadata: { slug: role.slug } });

      await as(admin).patch(`/permissions/${perm.id}`, { name: 'Publish audit things' }).expect(200);
      await as(admin).delete(`/permissions/${perm.id}`).expect(200);
      expect((await rowsOf('permission-changed', `permission:${perm.id}`)).map((r) => r.metadata)).toEqual([
        { action: 'permission-created', slug: 'publish-audit-things' },
        { action: 'permission-updated', slug: 'publish-audit-things', fields: ['name'] },
        { action: 'permission-deleted', slug: 'publish-audit-things' },
      ]);
      const m = await count();
      await as(admin).post('/permissions', { action: 'read', resource: 'users' }).expect(409);
      expect(await count()).toBe(m);
    });

    it('settings: settings-changed for general settings, email providers, templates and layout', async () => {
      await as(admin).patch('/general-settings', { siteName: 'Audited site' }).expect(200);
      expect((await rowsOf('settings-changed', 'settings:general')).at(-1)).toMatchObject({
        actor_id: adminId,
        metadata: { keys: ['siteName'] },
      });

      const provider = await as(admin)
        .post('/email-providers', {
          name: 'Audit SMTP',
          fromEmail: 'noreply@example.com',
          config: { host: 'smtp.example.com', port: 587, user: 'u', password: 'smtp-secret-value-1' },
        })
        .expect(201);
      const pid = provider.body.item.id as string;
      await as(admin)
        .patch(`/email-providers/${pid}`, { config: { password: 'smtp-secret-value-2' } })
        .expect(200);
      await as(admin).delete(`/email-providers/${pid}`).expect(200);
      const providerRows = await rowsOf('settings-changed', `email-provider:${pid}`);
      expect(providerRows.map((r) => r.metadata)).toEqual([
        { action: 'email-provider-created', isDefault: expect.any(Boolean) },
        { action: 'email-provider-updated', fields: ['config.password'] },
        { action: 'email-provider-deleted' },
      ]);
      expect(providerRows.every((r) => r.actor_id === adminId && r.user_agent === UA)).toBe(true);

      await as(admin).patch('/email-templates/layout', { footer: 'Audited footer' }).expect(200);
      expect((await rowsOf('settings-changed', 'email-layout:default'))[0].metadata).toEqual({
        action: 'email-layout-updated',
        fields: ['footer'],
      });
      const template = await as(admin)
        .post('/email-templates', { slug: 'audit-t', name: 'T', subject: 'S', html: '<p>h</p>' })
        .expect(201);
      await as(admin).delete(`/email-templates/${template.body.item.id}`).expect(200);
      expect(
        (await rowsOf('settings-changed', `email-template:${template.body.item.id}`)).map(
          (r) => r.metadata.action,
        ),
      ).toEqual(['email-template-created', 'email-template-deleted']);
    });

    it('content: schema-applied with each schema change, none for a refused one', async () => {
      const slug = `audited${Date.now().toString(36)}`;
      await as(admin)
        .post('/collections', { slug, fields: [{ name: 'title', type: 'text' }] })
        .expect(201);
      await as(admin)
        .post(`/collections/schema/${slug}/apply`, {
          fields: [
            { name: 'title', type: 'text' },
            { name: 'body', type: 'textarea' },
          ],
        })
        .expect(200);
      const n = await count();
      await as(admin)
        .post(`/collections/schema/${slug}/apply`, { fields: [{ name: 'title', type: 'text' }] })
        .expect(409);
      expect(await count()).toBe(n);
      const rows = await rowsOf('schema-applied', `collection:${slug}`);
      expect(rows.map((r) => r.metadata)).toEqual([
        { count: 1, destructive: false, changes: [{ kind: 'add', field: 'title', destructive: false }] },
        { count: 1, destructive: false, changes: [{ kind: 'add', field: 'body', destructive: false }] },
      ]);
      expect(rows.every((r) => r.actor_id === adminId)).toBe(true);
    });

    it('passwords: password-changed (administrator, self) and password-reset, none when refused', async () => {
      const user = await createUser(t);
      await as(admin).patch(`/users/${user.id}/password`, { password: 'Admin-Set-Pass-1' }).expect(200);
      // Cookie session only (CONTRACTS 9).
      const { browser: self } = await signIn(t, { email: user.email, password: 'Admin-Set-Pass-1' });
      const n = await count();
      const wrong = await self.patch('/auth/change-password', {
        currentPassword: 'Not-The-One-1',
        newPassword: 'Self-Chosen-Pass-2',
      });
      expect(wrong.status).toBe(422);
      expect(await count()).toBe(n);
      await self
        .patch('/auth/change-password', {
          currentPassword: 'Admin-Set-Pass-1',
          newPassword: 'Self-Chosen-Pass-2',
        })
        .expect(200);
      expect(
        (await rowsOf('password-changed', `user:${user.id}`)).map((r) => [r.actor_id, r.metadata]),
      ).toEqual([
        [adminId, { via: 'admin', requirePasswordChange: false }],
        [user.id, { via: 'self' }],
      ]);

      const token = randomBytes(32).toString('base64url');
      await t.db.query(
        `INSERT INTO account_tokens (user_id, kind, token_hash, expires_at)
         VALUES ($1, 'reset-password', $2, now() + interval '1 hour')`,
        [user.id, createHash('sha256').update(token).digest('hex')],
      );
      const b = await browser(t);
      expect((await b.post('/auth/reset-password', { token, password: 'weak' })).status).toBe(400);
      expect((await b.post('/auth/reset-password', { token, password: 'Reset-Pass-Value-3' })).status).toBe(
        200,
      );
      expect((await b.post('/auth/reset-password', { token, password: 'Reset-Pass-Value-4' })).status).toBe(
        422,
      );
      expect(
        (await rowsOf('password-reset', `user:${user.id}`)).map((r) => [r.actor_id, r.metadata]),
      ).toEqual([[user.id, { via: 'reset-link' }]]);
    });

    it('writes no secret in any row', async () => {
      const all: Row[] = await t.db.query(`SELECT * FROM audit_log`);
      const text = JSON.stringify(all);
      for (const secret of [
        PASSWORD,
        'Secret-Pass-77',
        'Admin-Set-Pass-1',
        'Self-Chosen-Pass-2',
        'Reset-Pass-Value-3',
        'smtp-secret-value',
        '$argon2',
        '$2b$',
      ]) {
        expect(text).not.toContain(secret);
      }
      // A key named after a secret may only hold a flag (`passwordSet: true`).
      for (const [key, value] of all.flatMap((r) => Object.entries(r.metadata))) {
        if (/password|token|secret|hash|key$/i.test(key)) {
          expect([key, typeof value]).toEqual([key, 'boolean']);
        }
      }
    });
  });

  describe('retention', () => {
    it('the purge job deletes rows older than auth.auditRetentionDays, in batches, and keeps the rest', async () => {
      await t.db.query(
        `INSERT INTO audit_log (event, created_at)
         SELECT 'test-purge-old', now() - interval '400 days' - make_interval(secs => i) FROM generate_series(1, 30) i`,
      );
      const kept = await insert('test-purge-recent', {
        createdAt: new Date(Date.now() - 300 * 24 * 3600 * 1000).toISOString(),
      });
      const job = t.app.get(AuditPurgeJob);
      // The job's clock, RETENTION_DAYS - 365 days ahead: its cutoff is 365 days ago.
      const later = new Date(Date.now() + (RETENTION_DAYS - 365) * DAY_MS);
      expect(await job.run(later)).toBeGreaterThanOrEqual(30);
      expect(await rowsOf('test-purge-old')).toHaveLength(0);
      expect((await rowsOf('test-purge-recent')).map((r) => r.id)).toEqual([kept]);
      expect(await job.run(later)).toBe(0);
    });
  });

  describe('the dashboard activity', () => {
    it('reads the same rows (target as stored, no IP or metadata)', async () => {
      const session = await signIn(t, {
        email: (await t.db.query(`SELECT email FROM users WHERE id = $1`, [adminId]))[0].email,
        password: PASSWORD,
      });
      const latest = {
        id: await insert('test-activity', {
          actorId: adminId,
          target: `user:${adminId}`,
          metadata: { a: 1 },
        }),
        event: 'test-activity',
        target: `user:${adminId}`,
      };
      const res = await session.browser.agent.get('/admin/api/dashboard/activity?limit=1').expect(200);
      expect(res.body.items[0]).toEqual({
        id: latest.id,
        event: latest.event,
        actor: { id: adminId, name: 'Audit Admin' },
        target: latest.target,
        createdAt: expect.any(String),
      });
      const audit = await as(admin).get('/audit?limit=1').expect(200);
      expect(audit.body.items[0].id).toBe(latest.id);
    });
  });
});
