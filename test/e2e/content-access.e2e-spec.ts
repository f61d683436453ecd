import type request from 'supertest';
import { bearerFor, createUser, signIn, userWithPermissions } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * Who may see what through content reads and writes (CONTRACTS 12, issue 14): drafts never leak
 * through depth, an open read rule never opens drafts, writes answer only what the caller may
 * read. Reads are sent twice: through the content read lane and (with `Content-Length: 0`, which
 * the lane leaves alone) through Nest, and must answer alike.
 */

type Headers = Record<string, string>;

describe('content access (CONTRACTS 12)', () => {
  let t: TestApp;
  const h: Record<string, Headers> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'articles',
            drafts: true,
            fields: [
              { name: 'title', type: 'text', required: true },
              { name: 'secret', type: 'text' },
            ],
            access: { read: true },
          },
          {
            slug: 'topics',
            fields: [
              { name: 'name', type: 'text' },
              { name: 'article', type: 'relationship', relationTo: 'articles' },
              { name: 'more', type: 'relationship', relationTo: 'articles', hasMany: true },
            ],
            access: { read: true },
          },
          {
            slug: 'inbox',
            fields: [
              { name: 'title', type: 'text' },
              { name: 'secret', type: 'text' },
              { name: 'article', type: 'relationship', relationTo: 'articles' },
              { name: 'note', type: 'relationship', relationTo: 'notes' },
            ],
            access: { create: true },
          },
          { slug: 'notes', fields: [{ name: 'text', type: 'text' }] },
        ],
        singles: [
          {
            slug: 'homepage',
            fields: [{ name: 'featured', type: 'relationship', relationTo: 'articles' }],
            access: { read: true },
          },
          {
            slug: 'about',
            drafts: true,
            fields: [{ name: 'title', type: 'text', required: true }],
            access: { read: true },
          },
        ],
      },
    });
    const admin = await createUser(t, { roles: ['super-admin'] });
    h.admin = await bearerFor(t, admin.id);
    h.visitor = {};
    h.registered = await bearerFor(t, (await createUser(t)).id);
    h.editor = await bearerFor(t, (await userWithPermissions(t, ['read-articles'])).id);
    h.updater = await bearerFor(t, (await userWithPermissions(t, ['update-articles'])).id);
    h.inboxWriter = await bearerFor(t, (await userWithPermissions(t, ['create-inbox'])).id);

    // API keys: of a super-admin (read-only: every read-* permission), a role-based one holding
    // only read-topics, and a full-access one of a user without read-articles.
    const { browser: adminSession } = await signIn(t, admin);
    const key = async (creatorSession: typeof adminSession, body: object) => {
      const res = await creatorSession.post('/api-keys', { name: `k${Object.keys(h).length}`, ...body });
      expect(res.status).toBe(201);
      return { Authorization: `Bearer ${res.body.key as string}` };
    };
    h.readOnlyKey = await key(adminSession, { type: 'read-only' });
    const topicsReader = await userWithPermissions(t, ['read-topics']);
    h.roleKey = await key(adminSession, { type: 'role-based', roleId: topicsReader.roleId });
    const plain = await userWithPermissions(t, ['read-topics', 'create-inbox']);
    h.fullKey = await key((await signIn(t, plain)).browser, { type: 'full-access' });

    const post = async (path: string, body: object) => {
      const res = await t.http.post(`/admin/api${path}`).set(h.admin).send(body);
      expect(res.status).toBe(201);
      return res.body.item.id as string;
    };
    ids.draft = await post('/collections/articles/entries', { title: 'SECRET DRAFT', secret: 's1' });
    ids.published = await post('/collections/articles/entries', {
      title: 'Out',
      secret: 's2',
      status: 'published',
    });
    ids.topic = await post('/collections/topics/entries', {
      name: 't',
      article: ids.draft,
      more: [ids.draft, ids.published],
    });
    ids.inbox = await post('/collections/inbox/entries', { title: 'mail', secret: 'top secret' });
    ids.note = await post('/collections/notes/entries', { text: 'n' });
    const home = await t.http.patch('/admin/api/singles/homepage').set(h.admin).send({ featured: ids.draft });
    expect(home.status).toBe(200);
  });
  afterAll(() => t.close());

  /** A read through the lane and through Nest: both must answer the same status and body. */
  async function read(path: string, who: string): Promise<request.Response> {
    const lane = await t.http.get(`/admin/api${path}`).set(h[who]).set('X-Request-Id', 'same-read');
    const nest = await t.http
      .get(`/admin/api${path}`)
      .set(h[who])
      .set('X-Request-Id', 'same-read')
      .set('Content-Length', '0');
    expect({ status: nest.status, body: nest.body }).toEqual({ status: lane.status, body: lane.body });
    return lane;
  }

  describe('depth never populates a draft for a caller who may not see it', () => {
    it.each(['visitor', 'registered', 'roleKey', 'fullKey', 'updater'])(
      '%s: the draft stays an id',
      async (who) => {
        const list = await read('/collections/topics/entries?depth=1', who);
        expect(list.status).toBe(200);
        const [topic] = list.body.items;
        expect(topic.article).toBe(ids.draft);
        expect(topic.more).toEqual([ids.draft, expect.objectContaining({ id: ids.published, title: 'Out' })]);
        const one = await read(`/collections/topics/entries/${ids.topic}?depth=1`, who);
        expect(one.body.article).toBe(ids.draft);
        const home = await read('/singles/homepage?depth=1', who);
        expect(home.status).toBe(200);
        expect(home.body.featured).toBe(ids.draft);
        expect(JSON.stringify([list.body, one.body, home.body])).not.toContain('SECRET DRAFT');
      },
    );

    it.each(['admin', 'editor', 'readOnlyKey'])('%s (read-articles): the draft is populated', async (who) => {
      const list = await read('/collections/topics/entries?depth=1', who);
      expect(list.body.items[0].article).toMatchObject({
        id: ids.draft,
        title: 'SECRET DRAFT',
        status: 'draft',
      });
      const home = await read('/singles/homepage?depth=1', who);
      expect(home.body.featured).toMatchObject({ id: ids.draft, status: 'draft' });
    });
  });

  describe('an open read rule opens published entries, never drafts', () => {
    it.each([
      ['visitor', 401],
      ['registered', 403],
      ['roleKey', 403],
      ['fullKey', 403],
      ['updater', 403],
      ['editor', 200],
      ['readOnlyKey', 200],
      ['admin', 200],
    ])('%s asking for drafts: %i', async (who, status) => {
      for (const path of [
        '/collections/articles/entries?status=draft',
        '/collections/articles/entries?status=all',
        '/collections/articles/entries/count?status=draft',
        `/collections/articles/entries/${ids.draft}?status=all`,
      ]) {
        expect({ path, status: (await read(path, who)).status }).toEqual({ path, status });
      }
      const published = await read('/collections/articles/entries', who);
      expect(published.status).toBe(200);
      expect(published.body.items.map((e: { id: string }) => e.id)).toEqual([ids.published]);
    });
  });

  describe('writes reveal nothing the caller may not read', () => {
    it('duplicate needs read access beside create: a visitor of a create-only collection is refused and sees nothing', async () => {
      const res = await t.http
        .post(`/admin/api/collections/inbox/entries/${ids.inbox}/duplicate`)
        .set(h.visitor);
      expect(res.status).toBe(401);
      expect(JSON.stringify(res.body)).not.toContain('top secret');
      const writer = await t.http
        .post(`/admin/api/collections/inbox/entries/${ids.inbox}/duplicate`)
        .set(h.inboxWriter);
      expect(writer.status).toBe(403);
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM c_inbox`);
      expect(n).toBe(1);
    });

    it('a create by a caller who may not read echoes what was sent, with id and timestamps', async () => {
      const res = await t.http
        .post('/admin/api/collections/inbox/entries')
        .set(h.visitor)
        .send({ title: 'hello' });
      expect(res.status).toBe(201);
      expect(res.body.item).toEqual({
        id: expect.any(String),
        title: 'hello',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
    });

    it('PATCH with {} by a role holding only update answers { id }, never the draft', async () => {
      const res = await t.http
        .patch(`/admin/api/collections/articles/entries/${ids.draft}`)
        .set(h.updater)
        .send({});
      expect(res.status).toBe(200);
      expect(res.body.item).toEqual({ id: ids.draft });
      const admin = await t.http
        .patch(`/admin/api/collections/articles/entries/${ids.draft}`)
        .set(h.admin)
        .send({});
      expect(admin.body.item).toMatchObject({ id: ids.draft, title: 'SECRET DRAFT', secret: 's1' });
    });

    it('update by query needs read access (no search oracle); drafts are matched only with the draft permission', async () => {
      // notes has no open read rule: a role holding only update-notes may not search it.
      const noteUpdater = await bearerFor(t, (await userWithPermissions(t, ['update-notes'])).id);
      const probe = await t.http
        .patch('/admin/api/collections/notes/entries')
        .set(noteUpdater)
        .send({ where: { text: { equals: 'n' } }, data: { text: 'changed' } });
      expect({ status: probe.status, code: probe.body.error?.code }).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
      const [{ text }] = await t.db.query(`SELECT text FROM c_notes WHERE id = $1`, [ids.note]);
      expect(text).toBe('n');
      // articles is open to read, so the updater may match published entries, never the draft.
      const res = await t.http
        .patch('/admin/api/collections/articles/entries')
        .set(h.updater)
        .send({ where: { secret: { equals: 's1' } }, data: { title: 'x' } });
      expect(res.status).toBe(200);
      expect(res.body.items).toEqual([]);
      const asked = await t.http
        .patch('/admin/api/collections/articles/entries')
        .set(h.updater)
        .send({ where: { secret: { equals: 's1' } }, data: { title: 'x' }, status: 'all' });
      expect({ status: asked.status, code: asked.body.error?.code }).toEqual({
        status: 403,
        code: 'FORBIDDEN',
      });
      const [{ title }] = await t.db.query(`SELECT title FROM c_articles WHERE id = $1`, [ids.draft]);
      expect(title).toBe('SECRET DRAFT');
    });

    it('a relationship to an unreadable or missing entry gets the same answer (no probe of other collections)', async () => {
      const send = (article: string) =>
        t.http.post('/admin/api/collections/inbox/entries').set(h.inboxWriter).send({ title: 'x', article });
      const draft = await send(ids.draft);
      const missing = await send('00000000-0000-4000-8000-000000000000');
      expect(draft.status).toBe(400);
      expect(missing.status).toBe(400);
      expect(draft.body.error.data.errors).toEqual([
        { ...missing.body.error.data.errors[0], message: expect.any(String) },
      ]);
      expect(draft.body.error.data.errors[0].message.replace(ids.draft, 'ID')).toBe(
        missing.body.error.data.errors[0].message.replace('00000000-0000-4000-8000-000000000000', 'ID'),
      );
      // notes has no read rule and the writer no read-notes: an existing note is "missing" too.
      const note = await t.http
        .post('/admin/api/collections/inbox/entries')
        .set(h.inboxWriter)
        .send({ note: ids.note });
      expect(note.status).toBe(400);
      expect(note.body.error.data.errors[0]).toMatchObject({ path: 'note', code: 'notFound' });
      // The published article is readable through the open rule: accepted.
      expect((await send(ids.published)).status).toBe(201);
    });
  });

  describe('required fields on every write path', () => {
    it('bulk-update and update by query do not publish a draft that lacks a required field: a per-item error', async () => {
      const draft = await t.http
        .post('/admin/api/collections/articles/entries')
        .set(h.admin)
        .send({ secret: 'no title' });
      expect(draft.status).toBe(201);
      const id = draft.body.item.id as string;
      const bulk = await t.http
        .post('/admin/api/collections/articles/entries/bulk-update')
        .set(h.admin)
        .send({ ids: [id, ids.published], data: { status: 'published' } });
      expect(bulk.status).toBe(200);
      expect(bulk.body.items).toEqual([{ id: ids.published }]);
      expect(bulk.body.errors).toEqual([
        { id, code: 'VALIDATION_ERROR', message: expect.stringContaining('title') },
      ]);
      const byQuery = await t.http
        .patch('/admin/api/collections/articles/entries')
        .set(h.admin)
        .send({ where: { secret: { equals: 'no title' } }, data: { status: 'published' } });
      expect(byQuery.status).toBe(200);
      expect(byQuery.body.items).toEqual([]);
      expect(byQuery.body.errors).toEqual([
        { id, code: 'VALIDATION_ERROR', message: expect.stringContaining('title') },
      ]);
      const [{ status }] = await t.db.query(`SELECT status FROM c_articles WHERE id = $1`, [id]);
      expect(status).toBe('draft');
    });
  });

  describe('singles', () => {
    it('the first save of a drafts single without status keeps it a draft; a read never inserts the row', async () => {
      await t.db.query(`DELETE FROM s_about`);
      const visitor = await read('/singles/about', 'visitor');
      expect(visitor.status).toBe(404);
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM s_about`);
      expect(n).toBe(0);
      const saved = await t.http.patch('/admin/api/singles/about').set(h.admin).send({ title: 'Hello' });
      expect(saved.status).toBe(200);
      expect(saved.body.item).toMatchObject({ title: 'Hello', status: 'draft' });
      expect((await read('/singles/about', 'visitor')).status).toBe(404);
      const published = await t.http
        .patch('/admin/api/singles/about')
        .set(h.admin)
        .send({ status: 'published' });
      expect(published.status).toBe(200);
      expect((await read('/singles/about', 'visitor')).body).toMatchObject({
        title: 'Hello',
        status: 'published',
      });
    });
  });
});
