import { bearerFor, createUser, userWithPermissions } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';
import { EditorialWorkflow1763723100000 } from '../../migrations/1763723100000-EditorialWorkflow';
import { RbacService } from '../../src/modules/rbac/rbac.service';

/**
 * The editorial workflow through HTTP: the publish permission on every path that publishes,
 * unpublishes or changes a published entry; entry versions (retention, compare, restore);
 * conditional requests (ETag, If-None-Match, If-Match, in parallel too); the audit rows.
 */

type Headers = Record<string, string>;

const API = '/admin/api';
const POSTS = `${API}/collections/posts/entries`;

describe('editorial workflow', () => {
  let t: TestApp;
  const h: Record<string, Headers> = {};

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'posts',
            drafts: true,
            versions: true,
            fields: [
              { name: 'title', type: 'text', required: true },
              { name: 'body', type: 'text' },
              { name: 'tags', type: 'relationship', relationTo: 'tags', hasMany: true },
            ],
          },
          { slug: 'tags', fields: [{ name: 'name', type: 'text' }] },
          { slug: 'notes', versions: { max: 50 }, fields: [{ name: 'text', type: 'text' }] },
        ],
        singles: [
          { slug: 'home', drafts: true, versions: true, fields: [{ name: 'headline', type: 'text' }] },
        ],
      },
    });
    h.admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    h.editor = await bearerFor(
      t,
      (
        await userWithPermissions(t, [
          'read-posts',
          'create-posts',
          'update-posts',
          'delete-posts',
          'update-home',
          'read-home',
        ])
      ).id,
    );
    h.publisher = await bearerFor(
      t,
      (
        await userWithPermissions(t, [
          'read-posts',
          'create-posts',
          'update-posts',
          'publish-posts',
          'update-home',
          'read-home',
          'publish-home',
        ])
      ).id,
    );
    h.updaterOnly = await bearerFor(t, (await userWithPermissions(t, ['update-posts'])).id);
    h.notes = await bearerFor(
      t,
      (await userWithPermissions(t, ['read-notes', 'create-notes', 'update-notes'])).id,
    );
  });

  afterAll(() => t.close());

  const create = async (headers: Headers, body: object, slugPath = POSTS) =>
    t.http.post(slugPath).set(headers).send(body);

  const draft = async (title = 'Draft') => {
    const res = await create(h.admin, { title, status: 'draft' });
    expect(res.status).toBe(201);
    return res.body.item.id as string;
  };

  const published = async (title = 'Live') => {
    const res = await create(h.admin, { title, status: 'published' });
    expect(res.status).toBe(201);
    return res.body.item.id as string;
  };

  const statusOf = async (id: string) =>
    (await t.db.query(`SELECT status, title FROM c_posts WHERE id = $1`, [id]))[0] as {
      status: string;
      title: string;
    };

  describe('publish permission', () => {
    it('is registered for a definition with drafts and not for one without', async () => {
      const slugs = (
        await t.db.query(`SELECT slug FROM permissions WHERE action = 'publish' ORDER BY slug`)
      ).map((r: { slug: string }) => r.slug);
      expect(slugs).toEqual(expect.arrayContaining(['publish-home', 'publish-posts']));
      expect(slugs).not.toContain('publish-tags');
      expect(slugs).not.toContain('publish-notes');
    });

    it('creating a published entry needs it; a draft does not', async () => {
      const refused = await create(h.editor, { title: 'Mine', status: 'published' });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('FORBIDDEN');
      expect(refused.body.error.message).toContain('publish-posts');
      expect((await t.db.query(`SELECT count(*)::int AS n FROM c_posts WHERE title = 'Mine'`))[0].n).toBe(0);
      expect((await create(h.editor, { title: 'Mine' })).status).toBe(201);
      expect((await create(h.publisher, { title: 'Theirs', status: 'published' })).status).toBe(201);
    });

    it('publishing a draft, editing a published entry and unpublishing need it', async () => {
      const d = await draft();
      expect((await t.http.patch(`${POSTS}/${d}`).set(h.editor).send({ title: 'Edited draft' })).status).toBe(
        200,
      );
      const publish = await t.http.patch(`${POSTS}/${d}`).set(h.editor).send({ status: 'published' });
      expect(publish.status).toBe(403);
      expect((await statusOf(d)).status).toBe('draft');

      const p = await published();
      for (const body of [{ title: 'Changed live' }, { status: 'draft' }, { status: 'published' }]) {
        const res = await t.http.patch(`${POSTS}/${p}`).set(h.editor).send(body);
        expect(res.status).toBe(403);
      }
      expect(await statusOf(p)).toEqual({ status: 'published', title: 'Live' });

      expect(
        (await t.http.patch(`${POSTS}/${d}`).set(h.publisher).send({ status: 'published' })).status,
      ).toBe(200);
      expect(
        (await t.http.patch(`${POSTS}/${p}`).set(h.publisher).send({ title: 'Changed live' })).status,
      ).toBe(200);
      expect((await t.http.patch(`${POSTS}/${p}`).set(h.publisher).send({ status: 'draft' })).status).toBe(
        200,
      );
      expect(await statusOf(p)).toEqual({ status: 'draft', title: 'Changed live' });
    });

    it('a bulk update or update by query that would publish or touch a published entry is refused whole', async () => {
      const d1 = await draft('bulk one');
      const d2 = await draft('bulk two');
      const p = await published('bulk live');

      const publishing = await t.http
        .post(`${POSTS}/bulk-update`)
        .set(h.editor)
        .send({ ids: [d1, d2], data: { status: 'published' } });
      expect(publishing.status).toBe(403);
      const touching = await t.http
        .post(`${POSTS}/bulk-update`)
        .set(h.editor)
        .send({ ids: [d1, p], data: { body: 'x' } });
      expect(touching.status).toBe(403);
      const byQuery = await t.http
        .patch(POSTS)
        .set(h.editor)
        .send({ where: { title: { like: 'bulk%' } }, data: { body: 'y' }, status: 'all' });
      expect(byQuery.status).toBe(403);
      const rows = await t.db.query(`SELECT status, body FROM c_posts WHERE id = ANY($1) ORDER BY title`, [
        [d1, p, d2],
      ]);
      expect(rows).toEqual([
        { status: 'published', body: null },
        { status: 'draft', body: null },
        { status: 'draft', body: null },
      ]);

      // Drafts only: no publish right needed.
      const drafts = await t.http
        .post(`${POSTS}/bulk-update`)
        .set(h.editor)
        .send({ ids: [d1, d2], data: { body: 'z' } });
      expect(drafts.status).toBe(200);
      const all = await t.http
        .patch(POSTS)
        .set(h.publisher)
        .send({ where: { title: { like: 'bulk%' } }, data: { status: 'published' }, status: 'all' });
      expect(all.status).toBe(200);
      expect(all.body.items).toHaveLength(3);
    });

    it('a single with drafts: publishing and editing the published content need it', async () => {
      const home = `${API}/singles/home`;
      expect((await t.http.patch(home).set(h.editor).send({ headline: 'Draft headline' })).status).toBe(200);
      expect((await t.http.patch(home).set(h.editor).send({ status: 'published' })).status).toBe(403);
      expect((await t.http.patch(home).set(h.publisher).send({ status: 'published' })).status).toBe(200);
      expect((await t.http.patch(home).set(h.editor).send({ headline: 'Sneaky' })).status).toBe(403);
    });

    it('turning drafts on over REST registers it for the editors holding update; off removes it', async () => {
      const made = await t.http
        .post(`${API}/collections`)
        .set(h.admin)
        .send({
          slug: 'pages',
          labels: { singular: 'Page', plural: 'Pages' },
          fields: [{ name: 'title', type: 'text' }],
        });
      expect(made.status).toBe(201);
      const editor = await userWithPermissions(t, ['read-pages', 'update-pages', 'create-pages']);
      const on = await t.http.patch(`${API}/collections/pages`).set(h.admin).send({ drafts: true });
      expect(on.status).toBe(200);
      const granted = await t.db.query(
        `SELECT 1 FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
          WHERE rp.role_id = $1 AND p.slug = 'publish-pages'`,
        [editor.roleId],
      );
      expect(granted).toHaveLength(1);
      const off = await t.http
        .patch(`${API}/collections/pages`)
        .set(h.admin)
        .send({ drafts: false, confirmDestructive: true });
      expect(off.status).toBe(200);
      expect(await t.db.query(`SELECT 1 FROM permissions WHERE slug = 'publish-pages'`)).toHaveLength(0);
    });
  });

  describe('conditional requests', () => {
    it('a read answers a strong ETag, the same for every query, and 304 for If-None-Match', async () => {
      const id = await published('Tagged');
      const first = await t.http.get(`${POSTS}/${id}`).set(h.admin);
      expect(first.status).toBe(200);
      const tag = first.headers.etag as string;
      expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
      const other = await t.http.get(`${POSTS}/${id}?select=title&depth=1`).set(h.admin);
      expect(other.headers.etag).toBe(tag);
      const again = await t.http.get(`${POSTS}/${id}`).set(h.admin).set('If-None-Match', tag);
      expect(again.status).toBe(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(tag);
      const reload = await t.http
        .get(`${POSTS}/${id}`)
        .set(h.admin)
        .set('If-None-Match', tag)
        .set('Cache-Control', 'no-cache');
      expect(reload.status).toBe(200);
      // Through Nest too (the read lane leaves a request with a body length alone).
      const viaNest = await t.http
        .get(`${POSTS}/${id}`)
        .set(h.admin)
        .set('Content-Length', '0')
        .set('If-None-Match', `W/${tag}`);
      expect(viaNest.status).toBe(304);
      expect(viaNest.headers.etag).toBe(tag);
    });

    it('every write changes it and answers the new one; a stale If-Match is 412 and changes nothing', async () => {
      const id = await draft('Conditional');
      const tag0 = (await t.http.get(`${POSTS}/${id}?status=all`).set(h.admin)).headers.etag as string;
      const ok = await t.http
        .patch(`${POSTS}/${id}`)
        .set(h.admin)
        .set('If-Match', tag0)
        .send({ body: 'one' });
      expect(ok.status).toBe(200);
      const tag1 = ok.headers.etag as string;
      expect(tag1).toBeDefined();
      expect(tag1).not.toBe(tag0);
      expect((await t.http.get(`${POSTS}/${id}?status=all`).set(h.admin)).headers.etag).toBe(tag1);

      const stale = await t.http
        .patch(`${POSTS}/${id}`)
        .set(h.admin)
        .set('If-Match', tag0)
        .send({ body: 'two' });
      expect(stale.status).toBe(412);
      expect(stale.body.error.code).toBe('PRECONDITION_FAILED');
      expect((await t.db.query(`SELECT body FROM c_posts WHERE id = $1`, [id]))[0].body).toBe('one');
      const weak = await t.http
        .patch(`${POSTS}/${id}`)
        .set(h.admin)
        .set('If-Match', `W/${tag1}`)
        .send({ body: 'w' });
      expect(weak.status).toBe(412);
      const any = await t.http
        .patch(`${POSTS}/${id}`)
        .set(h.admin)
        .set('If-Match', '*')
        .send({ body: 'star' });
      expect(any.status).toBe(200);

      const staleDelete = await t.http.delete(`${POSTS}/${id}`).set(h.admin).set('If-Match', tag1);
      expect(staleDelete.status).toBe(412);
      const current = (await t.http.get(`${POSTS}/${id}?status=all`).set(h.admin)).headers.etag as string;
      expect((await t.http.delete(`${POSTS}/${id}`).set(h.admin).set('If-Match', current)).status).toBe(200);
      // A relationship-only write changes it too.
      const tag = await t.http.post(`${API}/collections/tags/entries`).set(h.admin).send({ name: 'x' });
      const p = await draft('Related');
      const before = (await t.http.get(`${POSTS}/${p}?status=all`).set(h.admin)).headers.etag;
      await t.http
        .patch(`${POSTS}/${p}`)
        .set(h.admin)
        .send({ tags: [tag.body.item.id] })
        .expect(200);
      expect((await t.http.get(`${POSTS}/${p}?status=all`).set(h.admin)).headers.etag).not.toBe(before);
    });

    it('two PATCH in parallel with the same If-Match: exactly one 200 and one 412, every time', async () => {
      for (let round = 0; round < 10; round++) {
        const id = await draft(`Race ${round}`);
        const tag = (await t.http.get(`${POSTS}/${id}?status=all`).set(h.admin)).headers.etag as string;
        const answers = await Promise.all(
          ['a', 'b'].map((who) =>
            t.http.patch(`${POSTS}/${id}`).set(h.admin).set('If-Match', tag).send({ body: who }),
          ),
        );
        expect(answers.map((a) => a.status).sort()).toEqual([200, 412]);
        const winner = answers.find((a) => a.status === 200)!.body.item.body;
        expect((await t.db.query(`SELECT body FROM c_posts WHERE id = $1`, [id]))[0].body).toBe(winner);
      }
    });

    it('a single answers its ETag and honours If-Match', async () => {
      const home = `${API}/singles/home`;
      const read = await t.http.get(`${home}?status=all`).set(h.admin);
      expect(read.status).toBe(200);
      const tag = read.headers.etag as string;
      expect((await t.http.get(`${home}?status=all`).set(h.admin).set('If-None-Match', tag)).status).toBe(
        304,
      );
      const ok = await t.http.patch(home).set(h.admin).set('If-Match', tag).send({ headline: 'Conditional' });
      expect(ok.status).toBe(200);
      const stale = await t.http.patch(home).set(h.admin).set('If-Match', tag).send({ headline: 'Lost' });
      expect(stale.status).toBe(412);
      expect(ok.headers.etag).not.toBe(tag);
    });
  });

  describe('versions', () => {
    const versionsOf = (id: string, headers = h.admin, query = '') =>
      t.http.get(`${POSTS}/${id}/versions${query}`).set(headers);

    it('a write keeps a version with its event; a write that changes nothing keeps none', async () => {
      const id = await draft('Versioned');
      await t.http.patch(`${POSTS}/${id}`).set(h.admin).send({ body: 'b1' }).expect(200);
      await t.http.patch(`${POSTS}/${id}`).set(h.admin).send({ body: 'b1' }).expect(200);
      await t.http.patch(`${POSTS}/${id}`).set(h.admin).send({ status: 'published' }).expect(200);
      await t.http.patch(`${POSTS}/${id}`).set(h.admin).send({ status: 'draft' }).expect(200);
      const list = await versionsOf(id);
      expect(list.status).toBe(200);
      expect(list.body.meta.total).toBe(4);
      expect(list.body.items.map((v: { number: number; event: string }) => [v.number, v.event])).toEqual([
        [4, 'unpublish'],
        [3, 'publish'],
        [2, 'update'],
        [1, 'create'],
      ]);
      const first = list.body.items[3];
      expect(first).toMatchObject({
        entryId: id,
        status: 'draft',
        data: { title: 'Versioned', body: null, tags: [] },
        createdBy: { id: expect.any(String), name: expect.any(String) },
      });
    });

    it('60 writes with max 50 keep the newest 50', async () => {
      const made = await create(h.notes, { text: 'n0' }, `${API}/collections/notes/entries`);
      const id = made.body.item.id as string;
      for (let i = 1; i <= 60; i++) {
        await t.http
          .patch(`${API}/collections/notes/entries/${id}`)
          .set(h.notes)
          .send({ text: `n${i}` })
          .expect(200);
      }
      const list = await t.http.get(`${API}/collections/notes/entries/${id}/versions?limit=100`).set(h.notes);
      expect(list.status).toBe(200);
      expect(list.body.meta.total).toBe(50);
      const numbers = list.body.items.map((v: { number: number }) => v.number);
      expect(numbers[0]).toBe(61);
      expect(numbers[49]).toBe(12);
      expect(list.body.items[0].data).toEqual({ text: 'n60' });
      expect(list.body.items[0].status).toBeNull();
    });

    it('compare lists the fields that differ, against another version or the current entry', async () => {
      const id = await draft('Compare A');
      await t.http.patch(`${POSTS}/${id}`).set(h.admin).send({ title: 'Compare B', body: 'new' }).expect(200);
      const [v2, v1] = (await versionsOf(id)).body.items;
      const cmp = await t.http.get(`${POSTS}/${id}/versions/${v1.id}?compare=${v2.id}`).set(h.admin);
      expect(cmp.status).toBe(200);
      expect(cmp.body.changes).toEqual([
        { field: 'title', from: 'Compare A', to: 'Compare B' },
        { field: 'body', from: null, to: 'new' },
      ]);
      const current = await t.http.get(`${POSTS}/${id}/versions/${v2.id}?compare=current`).set(h.admin);
      expect(current.body.changes).toEqual([]);
      expect((await t.http.get(`${POSTS}/${id}/versions/${v1.id}?compare=nope`).set(h.admin)).status).toBe(
        404,
      );
      expect((await t.http.get(`${POSTS}/${id}/versions/${v1.id}?other=1`).set(h.admin)).status).toBe(400);
    });

    it('restore: the content comes back, the status stays; into a published entry it needs publish', async () => {
      const id = await published('Restore me');
      await t.http.patch(`${POSTS}/${id}`).set(h.admin).send({ title: 'Overwritten' }).expect(200);
      const oldest = (await versionsOf(id)).body.items.at(-1);
      const refused = await t.http
        .post(`${POSTS}/${id}/versions/${oldest.id}/restore`)
        .set(h.editor)
        .send({});
      expect(refused.status).toBe(403);
      expect((await statusOf(id)).title).toBe('Overwritten');
      const ok = await t.http.post(`${POSTS}/${id}/versions/${oldest.id}/restore`).set(h.publisher).send({});
      expect(ok.status).toBe(200);
      expect(ok.body.item).toMatchObject({ title: 'Restore me', status: 'published' });
      const list = (await versionsOf(id)).body.items;
      expect(list[0]).toMatchObject({ event: 'restore', status: 'published', data: { title: 'Restore me' } });
      const audit = await t.db.query(`SELECT event FROM audit_log WHERE target = $1 ORDER BY id`, [
        `collection:posts/${id}`,
      ]);
      expect(audit.map((r: { event: string }) => r.event)).toEqual(['entry-published', 'entry-restored']);
    });

    it('restore into a draft keeps it a draft; publish: true publishes it (with the right)', async () => {
      const id = await draft('Draft v1');
      await t.http.patch(`${POSTS}/${id}`).set(h.admin).send({ title: 'Draft v2' }).expect(200);
      const v1 = (await versionsOf(id)).body.items.at(-1);
      const kept = await t.http.post(`${POSTS}/${id}/versions/${v1.id}/restore`).set(h.editor).send({});
      expect(kept.status).toBe(200);
      expect(kept.body.item).toMatchObject({ title: 'Draft v1', status: 'draft' });
      const withoutRight = await t.http
        .post(`${POSTS}/${id}/versions/${v1.id}/restore`)
        .set(h.editor)
        .send({ publish: true });
      expect(withoutRight.status).toBe(403);
      const published = await t.http
        .post(`${POSTS}/${id}/versions/${v1.id}/restore`)
        .set(h.publisher)
        .send({ publish: true });
      expect(published.status).toBe(200);
      expect(published.body.item.status).toBe('published');
      expect(
        (
          await t.http
            .post(`${POSTS}/${id}/versions/${v1.id}/restore`)
            .set(h.publisher)
            .send({ publish: 'yes' })
        ).status,
      ).toBe(400);
    });

    it('reading versions needs the draft right; deleting the entry deletes them', async () => {
      const id = await draft('Private history');
      expect((await versionsOf(id, h.updaterOnly)).status).toBe(403);
      expect((await versionsOf(id, {})).status).toBe(401);
      const v = (await versionsOf(id)).body.items[0];
      expect((await t.http.get(`${POSTS}/${id}/versions/${v.id}`).set(h.updaterOnly)).status).toBe(403);
      await t.http.delete(`${POSTS}/${id}`).set(h.admin).expect(200);
      expect((await versionsOf(id)).status).toBe(404);
      expect(await t.db.query(`SELECT 1 FROM content_versions WHERE entry_id = $1`, [id])).toHaveLength(0);
    });

    it('a single keeps versions and restores one', async () => {
      const home = `${API}/singles/home`;
      await t.http.patch(home).set(h.admin).send({ headline: 'Home one' }).expect(200);
      await t.http.patch(home).set(h.admin).send({ headline: 'Home two' }).expect(200);
      const list = await t.http.get(`${home}/versions`).set(h.admin);
      expect(list.status).toBe(200);
      const one = list.body.items.find((v: { data: { headline: string } }) => v.data.headline === 'Home one');
      const restored = await t.http.post(`${home}/versions/${one.id}/restore`).set(h.admin).send({});
      expect(restored.status).toBe(200);
      expect(restored.body.item.headline).toBe('Home one');
    });
  });

  describe('audit', () => {
    it('publishing and unpublishing are audited with the entry as target', async () => {
      const id = await draft('Audited');
      await t.http.patch(`${POSTS}/${id}`).set(h.publisher).send({ status: 'published' }).expect(200);
      await t.http.patch(`${POSTS}/${id}`).set(h.publisher).send({ status: 'draft' }).expect(200);
      const res = await t.http.get(`${API}/audit?event=entry-unpublished`).set(h.admin);
      expect(res.status).toBe(200);
      const row = res.body.items.find((r: { target: { id: string } }) => r.target?.id === `posts/${id}`);
      expect(row).toMatchObject({
        event: 'entry-unpublished',
        target: { type: 'collection', id: `posts/${id}` },
      });
      const published = await t.db.query(
        `SELECT count(*)::int AS n FROM audit_log WHERE target = $1 AND event = 'entry-published'`,
        [`collection:posts/${id}`],
      );
      expect(published[0].n).toBe(1);
    });
  });

  // Last: the upgrade grants publish to every role holding update, the editors of this file too.
  describe('upgrade', () => {
    it('the upgrade grants it to every role holding update, so editors keep publishing', async () => {
      const made = await t.http
        .post(`${API}/collections`)
        .set(h.admin)
        .send({ slug: 'legacy', drafts: true, fields: [{ name: 'title', type: 'text' }] });
      expect(made.status).toBe(201);
      const editor = await userWithPermissions(t, ['read-legacy', 'update-legacy', 'create-legacy']);
      // The state before the upgrade: no publish permission, no versions table.
      await t.db.query(`DELETE FROM permissions WHERE action = 'publish'`);
      await t.db.query(`DROP TABLE content_versions`);
      await t.db.query(`DROP TABLE content_schedules`);
      const runner = t.db.createQueryRunner();
      try {
        await new EditorialWorkflow1763723100000().up(runner);
      } finally {
        await runner.release();
      }
      t.app.get(RbacService).invalidate();
      const granted = await t.db.query(
        `SELECT p.slug FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
          WHERE rp.role_id = $1 ORDER BY p.slug`,
        [editor.roleId],
      );
      expect(granted.map((r: { slug: string }) => r.slug)).toEqual([
        'create-legacy',
        'publish-legacy',
        'read-legacy',
        'update-legacy',
      ]);
      const headers = await bearerFor(t, editor.id);
      const res = await t.http
        .post(`${API}/collections/legacy/entries`)
        .set(headers)
        .send({ title: 'Still mine to publish', status: 'published' });
      expect(res.status).toBe(201);
      // The other definitions' permissions are back too.
      expect(await t.db.query(`SELECT 1 FROM permissions WHERE slug = 'publish-posts'`)).toHaveLength(1);
    });
  });
});
