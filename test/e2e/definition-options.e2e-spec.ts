import { Logger } from '@nestjs/common';
import type { Response } from 'supertest';
import type { SvcConfig } from '../../src/config/config.types';
import { DefinitionRegistry } from '../../src/modules/content/definition-registry';
import { ContentLane } from '../../src/modules/content/entries/content-lane';
import { bearerFor, createUser } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

const api = (path: string) => `/admin/api${path}`;

const CLOSED = { read: false, create: false, update: false, delete: false };

/** Headers whose values differ from one request to the next by design. */
const PER_REQUEST = new Set(['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

function comparable(res: Response) {
  const headers = Object.fromEntries(
    Object.entries(res.headers).map(([k, v]) => [k, PER_REQUEST.has(k) ? '(per request)' : v]),
  );
  const body = res.body as { error?: { requestId?: string } };
  if (body?.error?.requestId) {
    body.error.requestId = '(per request)';
  }
  return { status: res.status, headers, body };
}

const CONFIG: SvcConfig = {
  collections: [
    {
      slug: 'coded',
      fields: [{ name: 'title', type: 'text' }],
      // No read function here: the read lane stays on in this app.
      access: { create: true, update: ({ auth }) => auth !== null, delete: false },
      versions: { max: 7 },
      preview: { url: 'https://site.example/preview/{slug}/{id}?token={token}' },
    },
  ],
  singles: [
    {
      slug: 'banner',
      fields: [{ name: 'text', type: 'text' }],
      access: { read: true, update: () => false },
      versions: true,
    },
  ],
};

/**
 * Definition-level options of collections and singles: open access set over REST (booleans for
 * read and create only), what definitions answer of access, and the `versions` option, over
 * REST and in the configuration file.
 */
describe('definition options: open access and versions', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let served: jest.SpyInstance;

  const post = (path: string, body: unknown) =>
    t.http
      .post(api(path))
      .set(admin)
      .send(body as object);
  const patch = (path: string, body: unknown) =>
    t.http
      .patch(api(path))
      .set(admin)
      .send(body as object);
  const issues = (res: Response) =>
    (res.body.error.data.errors as Array<{ path: string; message: string }>).map((e) => e.path);
  const stored = async (kind: string, slug: string) =>
    (
      (await t.db.query(`SELECT definition FROM content_definitions WHERE kind = $1 AND slug = $2`, [
        kind,
        slug,
      ])) as Array<{ definition: Record<string, unknown> }>
    )[0].definition;
  const journalCount = async (slug: string) =>
    Number((await t.db.query(`SELECT count(*) AS n FROM schema_journal WHERE slug = $1`, [slug]))[0].n);
  const auditRows = async (target: string) =>
    (
      (await t.db.query(
        `SELECT metadata FROM audit_log WHERE event = 'schema-applied' AND target = $1 ORDER BY id`,
        [target],
      )) as Array<{ metadata: Record<string, unknown> }>
    ).map((r) => r.metadata);

  beforeAll(async () => {
    t = await createTestApp({ config: CONFIG });
    served = jest.spyOn(ContentLane.prototype as never, 'serve');
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
  });
  afterAll(() => t.close());

  describe('open access over REST', () => {
    it('stores read and create booleans, answers every action, keeps absent keys on PATCH', async () => {
      const created = await post('/collections', {
        slug: 'open-notes',
        fields: [{ name: 'text', type: 'text' }],
        access: { read: true },
      }).expect(201);
      expect(created.body.item).toMatchObject({
        access: { ...CLOSED, read: true },
        versions: false,
        source: 'ui',
      });
      expect((await t.http.get(api('/collections/open-notes')).set(admin).expect(200)).body.access).toEqual({
        ...CLOSED,
        read: true,
      });
      const listed = await t.http.get(api('/collections?search=open-notes')).set(admin).expect(200);
      expect(listed.body.items.map((d: { access: unknown }) => d.access)).toEqual([
        { ...CLOSED, read: true },
      ]);
      expect(await stored('collection', 'open-notes')).toMatchObject({ access: { read: true } });

      const both = await patch('/collections/open-notes', { access: { create: true } }).expect(200);
      expect(both.body.item.access).toEqual({ ...CLOSED, read: true, create: true });
      const kept = await patch('/collections/open-notes', { access: {} }).expect(200);
      expect(kept.body.item.access).toEqual({ ...CLOSED, read: true, create: true });
      const other = await patch('/collections/open-notes', { labels: { singular: 'Note', plural: 'Notes' } });
      expect(other.status).toBe(200);
      expect(other.body.item.access).toEqual({ ...CLOSED, read: true, create: true });
      const closed = await patch('/collections/open-notes', { access: { read: false } }).expect(200);
      expect(closed.body.item.access).toEqual({ ...CLOSED, create: true });
      // `false` is not stored: it means "the permission decides".
      expect((await stored('collection', 'open-notes')).access).toEqual({ create: true });
      await patch('/collections/open-notes', { access: { create: false } }).expect(200);
      expect(await stored('collection', 'open-notes')).not.toHaveProperty('access');
    });

    it('changes no table: no journal row, a schema-applied audit row naming the option', async () => {
      await post('/collections', { slug: 'audited-open', fields: [{ name: 'text', type: 'text' }] }).expect(
        201,
      );
      const before = await t.http.get(api('/collections/audited-open')).set(admin).expect(200);
      const journal = await journalCount('audited-open');
      const changed = await patch('/collections/audited-open', { access: { read: true } }).expect(200);
      expect(changed.body.item.access.read).toBe(true);
      expect(new Date(changed.body.item.updatedAt).getTime()).toBeGreaterThan(
        new Date(before.body.updatedAt).getTime(),
      );
      // The same again changes nothing: no new row anywhere.
      await patch('/collections/audited-open', { access: { read: true } }).expect(200);
      expect(await journalCount('audited-open')).toBe(journal);
      expect(await auditRows('collection:audited-open')).toEqual([
        { count: 1, destructive: false, changes: [{ kind: 'add', field: 'text', destructive: false }] },
        { count: 0, destructive: false, changes: [], options: ['access'] },
      ]);
    });

    it('refuses update, delete, other keys and values that are not booleans (400, nothing changes)', async () => {
      await post('/collections', { slug: 'strict', fields: [{ name: 'text', type: 'text' }] }).expect(201);
      const cases: Array<[unknown, string[]]> = [
        [{ update: true }, ['access.update']],
        [{ delete: false }, ['access.delete']],
        [{ read: true, publish: true }, ['access.publish']],
        [{ read: 'yes' }, ['access.read']],
        [{ read: null }, ['access.read']],
        [{ create: 1 }, ['access.create']],
        [null, ['access']],
        [true, ['access']],
        [['read'], ['access']],
      ];
      for (const [access, paths] of cases) {
        const created = await post('/collections', { slug: 'never', fields: [], access }).expect(400);
        expect({ access, paths: issues(created) }).toEqual({ access, paths });
        const changed = await patch('/collections/strict', { access }).expect(400);
        expect({ access, paths: issues(changed) }).toEqual({ access, paths });
      }
      const refused = await patch('/collections/strict', { access: { update: true } }).expect(400);
      expect(refused.body.error.code).toBe('VALIDATION_ERROR');
      expect(refused.body.error.data.errors[0].message).toMatch(/update-<slug> permission/);
      await t.http.get(api('/collections/never')).set(admin).expect(404);
      expect((await t.http.get(api('/collections/strict')).set(admin).expect(200)).body.access).toEqual(
        CLOSED,
      );
      // Field groups have no access.
      const group = await post('/field-groups', { slug: 'g-access', fields: [], access: { read: true } });
      expect(group.status).toBe(400);
      expect(issues(group)).toEqual(['access']);
    });

    it('singles take read only; update stays with the permission', async () => {
      const created = await post('/singles', {
        slug: 'open-footer',
        fields: [{ name: 'text', type: 'text' }],
        access: { read: true },
      }).expect(201);
      expect(created.body.item.access).toEqual({ read: true, update: false });
      await t.http.patch(api('/singles/open-footer')).set(admin).send({ text: 'hello' }).expect(200);
      expect((await t.http.get(api('/singles/open-footer')).expect(200)).body.text).toBe('hello');
      await t.http.patch(api('/singles/open-footer')).send({ text: 'visitor' }).expect(401);
      for (const [access, path] of [
        [{ update: true }, 'access.update'],
        [{ create: true }, 'access.create'],
        [{ read: 'no' }, 'access.read'],
      ] as const) {
        const res = await patch('/singles/open-footer/schema', { access }).expect(400);
        expect(issues(res)).toEqual([path]);
      }
      const closed = await patch('/singles/open-footer/schema', { access: { read: false } }).expect(200);
      expect(closed.body.item.access).toEqual({ read: false, update: false });
      await t.http.get(api('/singles/open-footer')).expect(401);
    });

    it('code-defined definitions answer their rules ("function" for a rule function) and refuse REST changes', async () => {
      const coded = await t.http.get(api('/collections/coded')).set(admin).expect(200);
      expect(coded.body).toMatchObject({
        source: 'code',
        access: { read: false, create: true, update: 'function', delete: false },
        versions: { max: 7 },
      });
      const conflict = await patch('/collections/coded', { access: { read: true } }).expect(409);
      expect(conflict.body.error.message).toMatch(/configuration file/);
      await patch('/collections/coded', { versions: false }).expect(409);
      const banner = await t.http.get(api('/singles?search=banner')).set(admin).expect(200);
      expect(banner.body.items[0]).toMatchObject({
        access: { read: true, update: 'function' },
        versions: { max: 50 },
      });
      await patch('/singles/banner/schema', { access: { read: false } }).expect(409);
      const media = await t.http.get(api('/collections/media')).set(admin).expect(200);
      expect(media.body).toMatchObject({ source: 'system', versions: false });
      // The preview URL is code-only, read from the configuration.
      const registry = t.app.get(DefinitionRegistry);
      expect((await registry.get('collection', 'coded')).preview).toEqual({
        url: 'https://site.example/preview/{slug}/{id}?token={token}',
      });
      expect((await registry.get('single', 'banner')).preview).toBeUndefined();
      expect((await registry.get('collection', 'coded')).versions).toEqual({ max: 7 });
    });
  });

  describe('what visitors may do', () => {
    let published: string;
    let draft: string;

    beforeAll(async () => {
      await post('/collections', {
        slug: 'open-posts',
        drafts: true,
        fields: [{ name: 'title', type: 'text', required: true }],
      }).expect(201);
      published = (
        await post('/collections/open-posts/entries', { title: 'Out', status: 'published' }).expect(201)
      ).body.item.id;
      draft = (
        await post('/collections/open-posts/entries', { title: 'Secret', status: 'draft' }).expect(201)
      ).body.item.id;
    });

    it('reads published entries only, never drafts, of a collection opened over REST', async () => {
      await t.http.get(api('/collections/open-posts/entries')).expect(401);
      await patch('/collections/open-posts', { access: { read: true } }).expect(200);

      const list = await t.http.get(api('/collections/open-posts/entries')).expect(200);
      expect(list.body.items.map((e: { title: string }) => e.title)).toEqual(['Out']);
      expect(list.body.meta.total).toBe(1);
      expect((await t.http.get(api('/collections/open-posts/entries/count')).expect(200)).body).toEqual({
        total: 1,
      });
      await t.http.get(api(`/collections/open-posts/entries/${published}`)).expect(200);
      await t.http.get(api(`/collections/open-posts/entries/${draft}`)).expect(404);
      await t.http.get(api('/collections/open-posts/entries?status=draft')).expect(401);
      await t.http.get(api('/collections/open-posts/entries?status=all')).expect(401);
      await t.http.get(api(`/collections/open-posts/entries/${draft}?status=all`)).expect(401);
      // Still not writable.
      await t.http.post(api('/collections/open-posts/entries')).send({ title: 'x' }).expect(401);
      await t.http.delete(api(`/collections/open-posts/entries/${published}`)).expect(401);
      // The definition itself is under the same read access.
      expect((await t.http.get(api('/collections/open-posts')).expect(200)).body.access.read).toBe(true);

      await patch('/collections/open-posts', { access: { read: false } }).expect(200);
      await t.http.get(api('/collections/open-posts/entries')).expect(401);
      await patch('/collections/open-posts', { access: { read: true } }).expect(200);
    });

    it('answers those reads the same through the read lane and through Nest', async () => {
      const paths = [
        '/collections/open-posts/entries',
        '/collections/open-posts/entries?sort=title&select=title',
        '/collections/open-posts/entries/count',
        '/collections/open-posts/entries?status=draft',
        '/collections/open-posts/entries?status=all',
        `/collections/open-posts/entries/${published}`,
        `/collections/open-posts/entries/${draft}`,
        `/collections/open-posts/entries/${draft}?status=draft`,
      ];
      for (const path of paths) {
        const before = served.mock.calls.length;
        const viaLane = await t.http.get(api(path));
        expect(served.mock.calls.length).toBe(before + 1);
        const viaNest = await t.http.get(api(path)).set('Content-Length', '0');
        expect(served.mock.calls.length).toBe(before + 1);
        expect({ path, ...comparable(viaLane) }).toEqual({ path, ...comparable(viaNest) });
      }
    });

    it('creates entries with create: true; 401 without it', async () => {
      await post('/collections', {
        slug: 'guestbook',
        fields: [{ name: 'text', type: 'text', required: true }],
      }).expect(201);
      await t.http.post(api('/collections/guestbook/entries')).send({ text: 'early' }).expect(401);
      await patch('/collections/guestbook', { access: { create: true } }).expect(200);
      const made = await t.http.post(api('/collections/guestbook/entries')).send({ text: 'hi' }).expect(201);
      expect(made.body.item.id).toEqual(expect.any(String));
      await t.http.post(api('/collections/guestbook/entries')).send({ text: 5 }).expect(400);
      // Reading stays closed: the visitor cannot list what it wrote.
      await t.http.get(api('/collections/guestbook/entries')).expect(401);
      await t.http
        .patch(api(`/collections/guestbook/entries/${made.body.item.id}`))
        .send({ text: 'x' })
        .expect(401);
      const all = await t.http.get(api('/collections/guestbook/entries')).set(admin).expect(200);
      expect(all.body.items.map((e: { text: string }) => e.text)).toEqual(['hi']);
      await patch('/collections/guestbook', { access: { create: false } }).expect(200);
      await t.http.post(api('/collections/guestbook/entries')).send({ text: 'late' }).expect(401);
    });
  });

  describe('versions', () => {
    it('takes true, { max } and false over REST on collections and singles', async () => {
      const made = await post('/collections', { slug: 'kept', fields: [], versions: true }).expect(201);
      expect(made.body.item.versions).toEqual({ max: 50 });
      expect((await stored('collection', 'kept')).versions).toEqual({ max: 50 });
      const journal = await journalCount('kept');
      const three = await patch('/collections/kept', { versions: { max: 3 } }).expect(200);
      expect(three.body.item.versions).toEqual({ max: 3 });
      expect((await t.http.get(api('/collections/kept')).set(admin).expect(200)).body.versions).toEqual({
        max: 3,
      });
      // Other changes keep it.
      await patch('/collections/kept', { labels: { singular: 'K', plural: 'Ks' } }).expect(200);
      expect((await stored('collection', 'kept')).versions).toEqual({ max: 3 });
      const off = await patch('/collections/kept', { versions: false }).expect(200);
      expect(off.body.item.versions).toBe(false);
      expect(await stored('collection', 'kept')).not.toHaveProperty('versions');
      expect(await journalCount('kept')).toBe(journal);
      expect((await auditRows('collection:kept')).map((m) => m.options)).toEqual([
        ['versions'],
        ['versions'],
        ['versions'],
      ]);

      const single = await post('/singles', { slug: 'kept-single', fields: [], versions: { max: 1000 } });
      expect(single.status).toBe(201);
      expect(single.body.item.versions).toEqual({ max: 1000 });
      const singleOff = await patch('/singles/kept-single/schema', { versions: false }).expect(200);
      expect(singleOff.body.item.versions).toBe(false);
    });

    it('is taken by the schema preview and apply bodies, as drafts is, with no field change', async () => {
      await post('/collections', { slug: 'applied', fields: [{ name: 'a', type: 'text' }] }).expect(201);
      const { fields } = (await t.http.get(api('/collections/applied')).set(admin).expect(200)).body;
      const preview = await post('/collections/schema/applied/preview', { fields, versions: true }).expect(
        200,
      );
      expect(preview.body).toEqual({ changes: [], destructive: false });
      const applied = await post('/collections/schema/applied/apply', { fields, versions: { max: 9 } });
      expect(applied.status).toBe(200);
      expect(applied.body.changes).toEqual([]);
      expect(applied.body.item.versions).toEqual({ max: 9 });
      await post('/singles', { slug: 'applied-single', fields: [] }).expect(201);
      const single = await post('/singles/schema/applied-single/apply', { fields: [], versions: true });
      expect(single.body.item.versions).toEqual({ max: 50 });
    });

    it('refuses anything else with a path (400, nothing changes)', async () => {
      await post('/collections', { slug: 'versioned', fields: [], versions: { max: 5 } }).expect(201);
      const cases: Array<[unknown, string[]]> = [
        [0, ['versions']],
        ['yes', ['versions']],
        [null, ['versions']],
        [[], ['versions']],
        [{}, ['versions.max']],
        [{ max: 0 }, ['versions.max']],
        [{ max: 1001 }, ['versions.max']],
        [{ max: 2.5 }, ['versions.max']],
        [{ max: '5' }, ['versions.max']],
        [{ max: 5, keep: 'all' }, ['versions.keep']],
      ];
      for (const [versions, paths] of cases) {
        const created = await post('/collections', { slug: 'never-v', fields: [], versions }).expect(400);
        expect({ versions, paths: issues(created) }).toEqual({ versions, paths });
        const changed = await patch('/collections/versioned', { versions }).expect(400);
        expect({ versions, paths: issues(changed) }).toEqual({ versions, paths });
        const single = await post('/singles', { slug: 'never-v', fields: [], versions }).expect(400);
        expect({ versions, paths: issues(single) }).toEqual({ versions, paths });
      }
      expect((await t.http.get(api('/collections/versioned')).set(admin).expect(200)).body.versions).toEqual({
        max: 5,
      });
      const group = await post('/field-groups', { slug: 'g-versions', fields: [], versions: true });
      expect(group.status).toBe(400);
      expect(issues(group)).toEqual(['versions']);
    });

    it('stops the boot on a bad versions or preview option in the configuration, naming each', async () => {
      const bad: SvcConfig = {
        collections: [
          ...CONFIG.collections!,
          { slug: 'v-zero', fields: [], versions: { max: 0 } },
          { slug: 'v-text', fields: [], versions: 'all' as never },
          { slug: 'p-no-token', fields: [], preview: { url: 'https://site.example/preview/{id}' } },
          { slug: 'p-relative', fields: [], preview: { url: '/preview?token={token}' } },
          { slug: 'p-scheme', fields: [], preview: { url: 'ftp://site.example/{token}' } },
          { slug: 'p-unknown', fields: [], preview: { url: 'https://site.example/{locale}?t={token}' } },
          { slug: 'p-shape', fields: [], preview: 'https://site.example/{token}' as never },
        ],
        singles: [...CONFIG.singles!, { slug: 's-big', fields: [], versions: { max: 5000 } }],
      };
      const boot = createTestApp({ config: bad, database: t.database });
      await expect(boot).rejects.toThrow(
        /collections\[v-zero\]\.versions\.max: max must be an integer from 1 to 1000/,
      );
      const message = await boot.catch((e: Error) => e.message);
      for (const expected of [
        /collections\[v-text\]\.versions: versions must be true, false or \{ max \}/,
        /collections\[p-no-token\]\.preview\.url: the URL has no \{token\} placeholder/,
        /collections\[p-relative\]\.preview\.url: the URL is not an absolute URL/,
        /collections\[p-scheme\]\.preview\.url: the URL is not an http\(s\) URL/,
        /collections\[p-unknown\]\.preview\.url: the URL has the unknown placeholder \{locale\}/,
        /collections\[p-shape\]\.preview: preview must be \{ url \}/,
        /singles\[s-big\]\.versions\.max: max must be an integer from 1 to 1000/,
      ]) {
        expect(message).toMatch(expected);
      }
      // Nothing was written: the definitions are as they were.
      expect((await t.http.get(api('/collections/coded')).set(admin).expect(200)).body.versions).toEqual({
        max: 7,
      });
    });

    it('follows the configuration at boot: a changed versions option is stored and audited', async () => {
      const changed: SvcConfig = {
        ...CONFIG,
        collections: [{ ...CONFIG.collections![0], versions: true }],
        singles: [{ ...CONFIG.singles![0], versions: false }],
      };
      const logged = jest.spyOn(Logger.prototype, 'log');
      const second = await createTestApp({ config: changed, database: t.database });
      const bootLog = logged.mock.calls.map((c) => String(c[0])).join('\n');
      logged.mockRestore();
      try {
        const coded = await second.http.get(api('/collections/coded')).set(admin).expect(200);
        expect(coded.body.versions).toEqual({ max: 50 });
        const banner = await second.http.get(api('/singles?search=banner')).set(admin).expect(200);
        expect(banner.body.items[0].versions).toBe(false);
        expect(bootLog).toMatch(/synchronised: .*collection coded: versions changed/);
        expect((await auditRows('collection:coded')).at(-1)).toEqual({
          count: 0,
          destructive: false,
          changes: [],
          options: ['versions'],
        });
      } finally {
        await second.close();
      }
    });
  });
});
