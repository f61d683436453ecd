import pg from 'pg';
import type TestAgent from 'supertest/lib/agent';
import { SchemaService } from '../../src/modules/content/schema.service';
import { STATS_TTL_MS } from '../../src/modules/dashboard/dashboard.service';
import { UserFieldsService } from '../../src/modules/user-fields/user-fields.service';
import { bearerFor, browser, createUser, PASSWORD, signIn, userWithPermissions } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';
import { isJobQueueStatement, statementText } from '../utils/statements';

const api = (path: string) => `/admin/api${path}`;

interface CollectionStats {
  slug: string;
  label: string;
  total: number;
  published: number;
  drafts: number | null;
}

interface ActivityItem {
  id: string;
  event: string;
  actor: { id: string; name: string } | null;
  target: string | null;
  createdAt: string;
}

describe('dashboard', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let adminId: string;
  let adminEmail: string;
  /** Cookie sessions (the dashboard takes no Bearer credential). */
  let adminUi: TestAgent;
  let editorUi: TestAgent;
  let editorId: string;
  let auditorUi: TestAgent;
  let roleId: string;

  const post = (slug: string, body: object) =>
    t.http
      .post(api(`/collections/${slug}/entries`))
      .set(admin)
      .send(body)
      .expect(201)
      .then((r) => r.body.item as { id: string });

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          // Open to everyone for published entries: drafts still need read-bulletins.
          {
            slug: 'bulletins',
            drafts: true,
            fields: [{ name: 'text', type: 'text' }],
            access: { read: true },
          },
        ],
      },
    });
    const a = await createUser(t, { roles: ['super-admin'], name: 'Ada' });
    adminId = a.id;
    adminEmail = a.email;
    admin = await bearerFor(t, adminId);

    // Collections over REST, as the admin UI makes them.
    for (const body of [
      {
        slug: 'posts',
        labels: { singular: 'Post', plural: 'Posts' },
        drafts: true,
        fields: [
          { name: 'body', type: 'textarea' },
          { name: 'title', type: 'text' },
        ],
      },
      {
        slug: 'notes',
        fields: [
          { name: 'count', type: 'number' },
          { name: 'summary', type: 'text' },
        ],
      },
      { slug: 'secrets', fields: [{ name: 'name', type: 'text' }] },
    ]) {
      await t.http.post(api('/collections')).set(admin).send(body).expect(201);
    }
    for (let i = 1; i <= 3; i++) {
      await post('posts', { title: `Published ${i}`, status: 'published' });
    }
    await post('posts', { title: 'Draft 1' });
    await post('posts', { title: 'Draft 2', status: 'draft' });
    await post('notes', { count: 1, summary: 'Note one' });
    await post('notes', { count: 2, summary: 'Note two' });
    await post('secrets', { name: 'Secret' });
    await post('bulletins', { text: 'Open bulletin', status: 'published' });
    await post('bulletins', { text: 'Draft bulletin' });
    // The media collection has no upload route here: two rows straight in its table.
    await t.db.query(
      `INSERT INTO c_media (filename, "mimeType", filesize) VALUES ('a.png', 'image/png', 100), ('b.pdf', 'application/pdf', 250)`,
    );

    const editor = await userWithPermissions(t, ['read-posts']);
    editorId = editor.id;
    await t.db.query(`UPDATE users SET name = 'Eve' WHERE id = $1`, [editor.id]);
    const auditor = await userWithPermissions(t, ['read-roles', 'read-users']);
    await createUser(t, { active: false });

    adminUi = (await signIn(t, a)).browser.agent;
    editorUi = (await signIn(t, editor)).browser.agent;
    auditorUi = (await signIn(t, auditor)).browser.agent;
  });
  afterAll(() => t.close());

  describe('access', () => {
    it('takes the session cookie only: a Bearer credential is 401 AUTH_REQUIRED, as is none', async () => {
      for (const route of ['stats', 'recent-entries', 'activity']) {
        const bearer = await t.http.get(api(`/dashboard/${route}`)).set(admin);
        expect([route, bearer.status, bearer.body.error?.code]).toEqual([route, 401, 'AUTH_REQUIRED']);
        const none = await t.http.get(api(`/dashboard/${route}`));
        expect([route, none.status, none.body.error?.code]).toEqual([route, 401, 'AUTH_REQUIRED']);
        await adminUi.get(api(`/dashboard/${route}`)).expect(200);
      }
    });
  });

  describe('stats', () => {
    it('agree with the entry lists and counts of every collection, for a super-admin', async () => {
      const res = await adminUi.get(api('/dashboard/stats')).expect(200);
      const [{ users, active }] = await t.db.query(
        `SELECT count(*)::int AS users, count(*) FILTER (WHERE is_active)::int AS active FROM users`,
      );
      expect(res.body).toEqual({
        collections: [
          { slug: 'bulletins', label: 'bulletins', total: 2, published: 1, drafts: 1 },
          { slug: 'notes', label: 'notes', total: 2, published: 2, drafts: 0 },
          { slug: 'posts', label: 'Posts', total: 5, published: 3, drafts: 2 },
          { slug: 'secrets', label: 'secrets', total: 1, published: 1, drafts: 0 },
        ],
        users: { total: users, active },
        media: { total: 2, bytes: 350 },
      });
      expect(active).toBeLessThan(users);

      for (const c of res.body.collections as CollectionStats[]) {
        const drafts = c.slug === 'posts' || c.slug === 'bulletins';
        const list = await adminUi.get(api(`/collections/${c.slug}/entries${drafts ? '?status=all' : ''}`));
        expect([c.slug, list.status, list.body.meta.total]).toEqual([c.slug, 200, c.total]);
        const count = await adminUi.get(api(`/collections/${c.slug}/entries/count`)).expect(200);
        expect([c.slug, count.body.total]).toEqual([c.slug, c.published]);
        if (drafts) {
          const d = await adminUi.get(api(`/collections/${c.slug}/entries/count?status=draft`)).expect(200);
          expect([c.slug, d.body.total]).toEqual([c.slug, c.drafts]);
        }
      }
    });

    it('show a caller only the collections it may read, drafts only with draft access', async () => {
      const res = await editorUi.get(api('/dashboard/stats')).expect(200);
      expect(res.body).toEqual({
        collections: [
          // read: true lets anyone read published bulletins; the drafts stay hidden.
          { slug: 'bulletins', label: 'bulletins', total: 1, published: 1, drafts: null },
          { slug: 'posts', label: 'Posts', total: 5, published: 3, drafts: 2 },
        ],
        users: null,
        media: null,
      });
      // The editor's own lists say the same.
      expect((await editorUi.get(api('/collections/bulletins/entries')).expect(200)).body.meta.total).toBe(1);
      await editorUi.get(api('/collections/bulletins/entries?status=all')).expect(403);
      expect(
        (await editorUi.get(api('/collections/posts/entries?status=all')).expect(200)).body.meta.total,
      ).toBe(5);
      await editorUi.get(api('/collections/secrets/entries')).expect(403);

      const auditor = await auditorUi.get(api('/dashboard/stats')).expect(200);
      expect(auditor.body.collections.map((c: CollectionStats) => c.slug)).toEqual(['bulletins']);
      // read-users: the users' figures, as a super-admin sees them.
      const [{ users, active }] = await t.db.query(
        `SELECT count(*)::int AS users, count(*) FILTER (WHERE is_active)::int AS active FROM users`,
      );
      expect(auditor.body.users).toEqual({ total: users, active });
      expect(auditor.body.media).toBeNull();
    });

    it('are cached a few seconds: a new entry shows within the bound', async () => {
      const before = await adminUi.get(api('/dashboard/stats')).expect(200);
      const total = (body: { collections: CollectionStats[] }) =>
        body.collections.find((c) => c.slug === 'notes')!.total;
      const n = total(before.body);
      await post('notes', { count: 3, summary: 'Note three' });
      const since = Date.now();
      let seen = n;
      while (Date.now() - since < STATS_TTL_MS + 2000) {
        seen = total((await adminUi.get(api('/dashboard/stats')).expect(200)).body);
        if (seen === n + 1) {
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(seen).toBe(n + 1);
      expect(Date.now() - since).toBeLessThanOrEqual(STATS_TTL_MS + 1000);
    });
  });

  describe('recent entries', () => {
    interface Recent {
      collection: string;
      id: string;
      title: string | null;
      status: string | null;
      updatedAt: string;
    }
    const all = async (agent: TestAgent) =>
      (await agent.get(api('/dashboard/recent-entries?limit=500')).expect(200)).body as {
        items: Recent[];
        meta: { total: number };
      };

    it('lists every readable entry newest first, with title and status, and pages', async () => {
      const full = await all(adminUi);
      const stats = (await adminUi.get(api('/dashboard/stats')).expect(200)).body;
      expect(full.meta.total).toBe(
        (stats.collections as CollectionStats[]).reduce((sum, c) => sum + c.total, 0),
      );
      expect(full.items).toHaveLength(full.meta.total);
      const times = full.items.map((i) => Date.parse(i.updatedAt));
      expect(times).toEqual([...times].sort((x, y) => y - x));
      expect(full.items.every((i) => i.collection !== 'media')).toBe(true);
      expect(full.items).toEqual(
        expect.arrayContaining([
          {
            collection: 'posts',
            id: expect.any(String),
            title: 'Draft 2',
            status: 'draft',
            updatedAt: expect.any(String),
          },
          {
            collection: 'posts',
            id: expect.any(String),
            title: 'Published 1',
            status: 'published',
            updatedAt: expect.any(String),
          },
          // No title or name field: the first text field.
          {
            collection: 'notes',
            id: expect.any(String),
            title: 'Note one',
            status: null,
            updatedAt: expect.any(String),
          },
          {
            collection: 'secrets',
            id: expect.any(String),
            title: 'Secret',
            status: null,
            updatedAt: expect.any(String),
          },
          {
            collection: 'bulletins',
            id: expect.any(String),
            title: 'Draft bulletin',
            status: 'draft',
            updatedAt: expect.any(String),
          },
        ]),
      );

      // Pages of 3 make up the same list.
      const paged: Recent[] = [];
      for (let page = 1; ; page++) {
        const res = await adminUi.get(api(`/dashboard/recent-entries?limit=3&page=${page}`)).expect(200);
        expect(res.body.meta).toMatchObject({ total: full.meta.total, page, limit: 3 });
        paged.push(...res.body.items);
        if (!res.body.meta.hasNext) {
          break;
        }
      }
      expect(paged).toEqual(full.items);
      const past = await adminUi.get(api('/dashboard/recent-entries?limit=3&page=99')).expect(200);
      expect(past.body).toEqual({ items: [], meta: expect.objectContaining({ total: full.meta.total }) });

      // An update moves the entry to the top.
      const oldest = full.items[full.items.length - 1];
      await t.http
        .patch(api(`/collections/${oldest.collection}/entries/${oldest.id}`))
        .set(admin)
        .send({})
        .expect(200);
      const top = await adminUi.get(api('/dashboard/recent-entries?limit=1')).expect(200);
      expect(top.body.items[0]).toMatchObject({ collection: oldest.collection, id: oldest.id });
    });

    it('shows a caller only entries it may read', async () => {
      const editor = await all(editorUi);
      expect(editor.meta.total).toBe(6);
      expect(new Set(editor.items.map((i) => i.collection))).toEqual(new Set(['posts', 'bulletins']));
      expect(editor.items.filter((i) => i.collection === 'bulletins')).toEqual([
        expect.objectContaining({ title: 'Open bulletin', status: 'published' }),
      ]);
    });

    it('lists the entries of a single readable collection (the union has one branch)', async () => {
      // No permission: only bulletins (read: true), published entries only. One source made the
      // statement `(SELECT ... ORDER BY ... LIMIT) ORDER BY ... LIMIT`, a 500 from PostgreSQL
      // ("multiple ORDER BY clauses not allowed").
      const ui = (await signIn(t, await createUser(t))).browser.agent;
      const stats = (await ui.get(api('/dashboard/stats')).expect(200)).body;
      expect((stats.collections as CollectionStats[]).map((c) => c.slug)).toEqual(['bulletins']);
      const only = await all(ui);
      expect(only).toEqual({
        items: [
          {
            collection: 'bulletins',
            id: expect.any(String),
            title: 'Open bulletin',
            status: 'published',
            updatedAt: expect.any(String),
          },
        ],
        meta: expect.objectContaining({ total: 1, page: 1 }),
      });
      const past = await ui.get(api('/dashboard/recent-entries?limit=1&page=2')).expect(200);
      expect(past.body).toEqual({ items: [], meta: expect.objectContaining({ total: 1, page: 2 }) });
    });

    it('takes page and limit only', async () => {
      for (const q of ['search=x', 'sort=-updatedAt', 'limit=0', 'page=x']) {
        const res = await adminUi.get(api(`/dashboard/recent-entries?${q}`));
        expect([q, res.status, res.body.error?.code]).toEqual([q, 400, 'VALIDATION_ERROR']);
      }
    });
  });

  describe('statements', () => {
    /** What a request's authentication and the definition registry read when their caches are cold. */
    const OTHER = [/FROM users u WHERE u\.id = \$1\s*$/, /WITH RECURSIVE lineage/, /content_definitions/];

    it('each route reads its figures or page in one statement, whatever the number of collections', async () => {
      // A permission set of its own: its figures are not cached yet.
      const reader = await userWithPermissions(t, ['read-posts', 'read-notes', 'read-secrets', 'read-media']);
      const ui = (await signIn(t, reader)).browser.agent;
      for (const route of ['stats', 'recent-entries?limit=2&page=2', 'activity?limit=2&page=2']) {
        await t.app.get(SchemaService).all('collection');
        // The user fields a session's user shows reload in the background once older than 5 s
        // (a slow run reaches that): load them now, outside the window.
        await t.app.get(UserFieldsService).definitions();
        const spy = jest.spyOn(pg.Client.prototype, 'query');
        let texts: string[];
        try {
          await ui.get(api(`/dashboard/${route}`)).expect(200);
        } finally {
          texts = spy.mock.calls.map((c) => statementText(c[0]));
          spy.mockRestore();
        }
        const own = texts.filter((sql) => !OTHER.some((re) => re.test(sql)) && !isJobQueueStatement(sql));
        // The statements themselves, so a failure shows what else ran.
        expect([route, own]).toEqual([route, [expect.any(String)]]);
      }
    });
  });

  describe('activity', () => {
    const feed = async (agent: TestAgent, query = 'limit=500') =>
      (await agent.get(api(`/dashboard/activity?${query}`)).expect(200)).body as {
        items: ActivityItem[];
        meta: { total: number; hasNext: boolean };
      };

    beforeAll(async () => {
      const role = await t.http.post(api('/roles')).set(admin).send({ name: 'Reviewers' }).expect(201);
      roleId = role.body.item.id;
      // A refused sign-in: an audit row with an IP and no actor.
      const b = await browser(t);
      await b.post('/auth/login', { email: adminEmail, password: `${PASSWORD}-wrong` }).expect(401);
      // Content events name their collection in the target.
      await t.db.query(
        `INSERT INTO audit_log (event, actor_id, target, metadata, ip) VALUES
           ('entry-published', $1, 'collection:posts:p1', '{"token":"hidden"}', '10.1.2.3'),
           ('entry-published', $1, 'collection:secrets:s1', '{}', '10.1.2.3')`,
        [adminId],
      );
    });

    it('shows a super-admin every row, newest first, with actor names and never an IP or metadata', async () => {
      const res = await feed(adminUi);
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM audit_log`);
      expect(res.meta.total).toBe(n);
      expect(res.items).toHaveLength(n);
      const times = res.items.map((i) => Date.parse(i.createdAt));
      expect(times).toEqual([...times].sort((x, y) => y - x));
      for (const item of res.items) {
        expect(Object.keys(item).sort()).toEqual(['actor', 'createdAt', 'event', 'id', 'target']);
      }
      const text = JSON.stringify(res);
      expect(text).not.toMatch(/10\.1\.2\.3|127\.0\.0\.1|::1|hidden|metadata|"ip"/);

      expect(res.items).toEqual(
        expect.arrayContaining([
          {
            id: expect.any(String),
            event: 'role-changed',
            actor: { id: adminId, name: 'Ada' },
            target: `role:${roleId}`,
            createdAt: expect.any(String),
          },
          {
            id: expect.any(String),
            event: 'login-succeeded',
            actor: { id: adminId, name: 'Ada' },
            target: `user:${adminId}`,
            createdAt: expect.any(String),
          },
          {
            id: expect.any(String),
            event: 'login-failed',
            actor: null,
            target: null,
            createdAt: expect.any(String),
          },
        ]),
      );

      // Pages.
      const first = await feed(adminUi, 'limit=2');
      const second = await feed(adminUi, 'limit=2&page=2');
      expect([...first.items, ...second.items]).toEqual(res.items.slice(0, 4));
      expect(first.meta.hasNext).toBe(true);
    });

    it('shows others their own actions and the rows their permissions cover', async () => {
      const editor = await feed(editorUi);
      // Own sign-in, and the content event of a collection the editor reads.
      expect(editor.items.map((i) => [i.event, i.target]).sort()).toEqual(
        [
          ['entry-published', 'collection:posts:p1'],
          ['login-succeeded', `user:${editorId}`],
        ].sort(),
      );
      expect(editor.items.find((i) => i.event === 'login-succeeded')!.actor).toEqual({
        id: editorId,
        name: 'Eve',
      });
      expect(editor.meta.total).toBe(2);

      // read-roles and read-users: role and account events, not failed sign-ins nor unreadable content.
      const auditor = await feed(auditorUi);
      const events = auditor.items.map((i) => i.event);
      expect(auditor.items).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            event: 'role-changed',
            actor: { id: adminId, name: 'Ada' },
            target: `role:${roleId}`,
          }),
          expect.objectContaining({ event: 'login-succeeded', target: `user:${adminId}` }),
        ]),
      );
      expect(events).not.toContain('login-failed');
      expect(auditor.items.some((i) => i.target?.startsWith('collection:'))).toBe(false);
    });
  });
});
