import { bearerFor, createUser, userWithPermissions } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';
import { RbacService } from '../../src/modules/rbac/rbac.service';

/**
 * Scheduled publishing through HTTP on a real PostgreSQL: the routes and their rules, a due
 * schedule run within 5 s of its time and never before, with its creator's rights then, each
 * outcome recorded and audited; exactly once with two instances on one database, and after a
 * restart.
 */

type Headers = Record<string, string>;

const API = '/admin/api';
const POSTS = `${API}/collections/posts/entries`;

const CONFIG = {
  collections: [
    {
      slug: 'posts',
      drafts: true,
      versions: true,
      fields: [
        { name: 'title', type: 'text' as const, required: true },
        { name: 'body', type: 'text' as const },
      ],
    },
    { slug: 'tags', fields: [{ name: 'name', type: 'text' as const }] },
  ],
  singles: [{ slug: 'home', drafts: true, fields: [{ name: 'headline', type: 'text' as const }] }],
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

describe('scheduled publishing', () => {
  let t: TestApp;
  const h: Record<string, Headers> = {};
  let publisherId: string;

  beforeAll(async () => {
    t = await createTestApp({ config: CONFIG });
    h.admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    const publisher = await userWithPermissions(t, [
      'read-posts',
      'create-posts',
      'update-posts',
      'publish-posts',
    ]);
    publisherId = publisher.id;
    h.publisher = await bearerFor(t, publisher.id);
    h.editor = await bearerFor(t, (await userWithPermissions(t, ['read-posts', 'update-posts'])).id);
  });

  afterAll(() => t.close());

  const draft = async (app: TestApp = t, title = 'Planned') => {
    const res = await app.http.post(POSTS).set(h.admin).send({ title, status: 'draft' });
    expect(res.status).toBe(201);
    return res.body.item.id as string;
  };

  const scheduleRow = async (id: string) =>
    (await t.db.query(`SELECT status, error FROM content_schedules WHERE id = $1`, [id]))[0] as {
      status: string;
      error: string | null;
    };

  /** Polls until the schedule is no longer pending (or `ms` passed). */
  const settled = async (id: string, ms = 12_000) => {
    const until = Date.now() + ms;
    for (;;) {
      const row = await scheduleRow(id);
      if (row.status !== 'pending' || Date.now() > until) {
        return row;
      }
      await sleep(100);
    }
  };

  describe('routes', () => {
    it('creates, lists and cancels a schedule', async () => {
      const id = await draft();
      const at = inSeconds(3600);
      const made = await t.http
        .post(`${POSTS}/${id}/schedule`)
        .set(h.publisher)
        .send({ action: 'publish', at });
      expect(made.status).toBe(201);
      expect(made.body.item).toEqual({
        id: expect.any(String),
        entryId: id,
        action: 'publish',
        at: new Date(at).toISOString(),
        status: 'pending',
        createdBy: { id: publisherId, name: expect.any(String) },
        error: null,
      });
      const list = await t.http.get(`${POSTS}/${id}/schedule`).set(h.editor);
      expect(list.status).toBe(200);
      expect(list.body.items.map((s: { id: string }) => s.id)).toEqual([made.body.item.id]);

      const cancelled = await t.http.delete(`${POSTS}/${id}/schedule/${made.body.item.id}`).set(h.publisher);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.item.status).toBe('cancelled');
      const again = await t.http.delete(`${POSTS}/${id}/schedule/${made.body.item.id}`).set(h.publisher);
      expect(again.status).toBe(409);
    });

    it('needs the publish right; refuses a bad body, an unknown entry and a collection without drafts', async () => {
      const id = await draft();
      const at = inSeconds(3600);
      expect(
        (await t.http.post(`${POSTS}/${id}/schedule`).set(h.editor).send({ action: 'publish', at })).status,
      ).toBe(403);
      expect((await t.http.post(`${POSTS}/${id}/schedule`).send({ action: 'publish', at })).status).toBe(401);
      for (const body of [
        { action: 'publish', at: inSeconds(-10) },
        { action: 'publish', at: inSeconds(400 * 24 * 3600) },
        { action: 'archive', at },
        { action: 'publish', at: 'tomorrow' },
        { action: 'publish', at, extra: 1 },
        { action: 'publish' },
      ]) {
        const res = await t.http.post(`${POSTS}/${id}/schedule`).set(h.publisher).send(body);
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
      }
      const missing = await t.http
        .post(`${POSTS}/00000000-0000-4000-8000-000000000000/schedule`)
        .set(h.publisher)
        .send({ action: 'publish', at });
      expect(missing.status).toBe(404);
      const tag = await t.http.post(`${API}/collections/tags/entries`).set(h.admin).send({ name: 'x' });
      const noDrafts = await t.http
        .post(`${API}/collections/tags/entries/${tag.body.item.id}/schedule`)
        .set(h.admin)
        .send({ action: 'publish', at });
      expect(noDrafts.status).toBe(409);
      expect(await t.db.query(`SELECT 1 FROM content_schedules WHERE entry_id = $1`, [id])).toHaveLength(0);
    });
  });

  describe('runs', () => {
    it('publishes at its time, never before and within 5 s; a version, an audit row', async () => {
      const id = await draft();
      const at = Date.now() + 2000;
      const made = await t.http
        .post(`${POSTS}/${id}/schedule`)
        .set(h.publisher)
        .send({ action: 'publish', at: new Date(at).toISOString() });
      expect(made.status).toBe(201);
      while (Date.now() < at - 300) {
        expect((await t.db.query(`SELECT status FROM c_posts WHERE id = $1`, [id]))[0].status).toBe('draft');
        await sleep(200);
      }
      const row = await settled(made.body.item.id);
      expect(row).toEqual({ status: 'done', error: null });
      const doneAt = Date.now();
      expect(doneAt - at).toBeLessThan(5000);
      const entry = (await t.db.query(`SELECT status, updated_at FROM c_posts WHERE id = $1`, [id]))[0];
      expect(entry.status).toBe('published');
      expect(new Date(entry.updated_at).getTime()).toBeGreaterThanOrEqual(at - 50);
      const versions = await t.http.get(`${POSTS}/${id}/versions`).set(h.admin);
      expect(versions.body.items[0]).toMatchObject({ event: 'publish', createdBy: { id: publisherId } });
      const audit = await t.db.query(`SELECT event, actor_id FROM audit_log WHERE target = $1`, [
        `collection:posts/${id}`,
      ]);
      expect(audit).toEqual([{ event: 'entry-published', actor_id: publisherId }]);
      const list = await t.http.get(`${POSTS}/${id}/schedule`).set(h.admin);
      expect(list.body.items[0].status).toBe('done');
    });

    it('unpublishes a single at its time', async () => {
      await t.http
        .patch(`${API}/singles/home`)
        .set(h.admin)
        .send({ headline: 'Live', status: 'published' })
        .expect(200);
      const made = await t.http
        .post(`${API}/singles/home/schedule`)
        .set(h.admin)
        .send({ action: 'unpublish', at: inSeconds(1) });
      expect(made.status).toBe(201);
      expect(await settled(made.body.item.id)).toEqual({ status: 'done', error: null });
      const home = await t.http.get(`${API}/singles/home?status=all`).set(h.admin);
      expect(home.body.status).toBe('draft');
    });

    it('fails, recorded and audited, when its creator lost the right, is deactivated, or the entry is gone', async () => {
      const lost = await userWithPermissions(t, ['read-posts', 'update-posts', 'publish-posts']);
      const gone = await userWithPermissions(t, ['read-posts', 'update-posts', 'publish-posts']);
      const keeps = await userWithPermissions(t, ['read-posts', 'update-posts', 'publish-posts']);
      const a = await draft(t, 'Lost right');
      const b = await draft(t, 'Deactivated');
      const c = await draft(t, 'Deleted');
      // One time for the three, far enough ahead that a busy CI machine makes the three changes
      // below before it (at 1.5 s, one run's first schedule ran before its creator lost the right).
      const at = inSeconds(4);
      const plan = async (user: { id: string }, id: string) =>
        (
          await t.http
            .post(`${POSTS}/${id}/schedule`)
            .set(await bearerFor(t, user.id))
            .send({ action: 'publish', at })
            .expect(201)
        ).body.item.id as string;
      const sa = await plan(lost, a);
      const sb = await plan(gone, b);
      const sc = await plan(keeps, c);
      await t.db.query(`DELETE FROM role_permissions WHERE role_id = $1`, [lost.roleId]);
      await t.http.patch(`${API}/users/${gone.id}`).set(h.admin).send({ isActive: false }).expect(200);
      await t.http.delete(`${POSTS}/${c}`).set(h.admin).expect(200);
      t.app.get(RbacService).invalidate();
      // The changes were made in time: none of the three has run yet.
      expect(Date.now()).toBeLessThan(new Date(at).getTime());

      expect(await settled(sa)).toEqual({
        status: 'failed',
        error: expect.stringContaining('publish-posts'),
      });
      expect(await settled(sb)).toEqual({ status: 'failed', error: expect.stringContaining('deactivated') });
      expect(await settled(sc)).toEqual({ status: 'failed', error: 'The entry was deleted' });
      const statuses = await t.db.query(`SELECT status FROM c_posts WHERE id = ANY($1)`, [[a, b]]);
      expect(statuses).toEqual([{ status: 'draft' }, { status: 'draft' }]);
      const audit = await t.http.get(`${API}/audit?event=entry-schedule-failed`).set(h.admin);
      const ids = audit.body.items.map((r: { metadata: { scheduleId: string } }) => r.metadata.scheduleId);
      expect(ids).toEqual(expect.arrayContaining([sa, sb, sc]));
    });
  });

  describe('several instances, restarts', () => {
    it('two instances on one database run each due schedule exactly once', async () => {
      const second = await createTestApp({ config: CONFIG, database: t.database });
      try {
        const ids: string[] = [];
        const schedules: string[] = [];
        for (let i = 0; i < 6; i++) {
          const id = await draft(i % 2 ? second : t, `Twice ${i}`);
          ids.push(id);
          const app = i % 2 ? t : second;
          const made = await app.http
            .post(`${POSTS}/${id}/schedule`)
            .set(h.publisher)
            // Far enough ahead that a busy CI machine's six creates before it are not past it (400).
            .send({ action: 'publish', at: inSeconds(4) });
          expect(made.status).toBe(201);
          schedules.push(made.body.item.id);
        }
        for (const s of schedules) {
          expect((await settled(s)).status).toBe('done');
        }
        await sleep(1500);
        const versions = await t.db.query(
          `SELECT entry_id, count(*)::int AS n FROM content_versions WHERE entry_id = ANY($1) AND event = 'publish'
            GROUP BY entry_id`,
          [ids],
        );
        expect(versions).toHaveLength(6);
        expect(versions.every((v: { n: number }) => v.n === 1)).toBe(true);
        const audit = await t.db.query(
          `SELECT target, count(*)::int AS n FROM audit_log WHERE event = 'entry-published' AND target = ANY($1)
            GROUP BY target`,
          [ids.map((id) => `collection:posts/${id}`)],
        );
        expect(audit).toHaveLength(6);
        expect(audit.every((r: { n: number }) => r.n === 1)).toBe(true);
      } finally {
        await second.close();
      }
    });

    it('a schedule made on an instance that stopped runs on another', async () => {
      const first = await createTestApp({ config: CONFIG, database: t.database });
      const id = await draft(first, 'Across a restart');
      const made = await first.http
        .post(`${POSTS}/${id}/schedule`)
        .set(h.publisher)
        .send({ action: 'publish', at: inSeconds(4) });
      expect(made.status).toBe(201);
      await first.close();
      // Only `t` is running now: it takes the job when it is due.
      expect(await settled(made.body.item.id)).toEqual({ status: 'done', error: null });
    });
  });
});
