import pg from 'pg';
import { createTestApp, TestApp } from '../utils/test-app';
import { bearerFor, createUser, signIn, userWithPermissions } from '../utils/auth';

const api = (path: string) => `/admin/api${path}`;

async function tableColumns(t: TestApp, table: string): Promise<Record<string, string>> {
  const found: Array<{ column_name: string; data_type: string }> = await t.db.query(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1`,
    [table],
  );
  return Object.fromEntries(found.map((r) => [r.column_name, r.data_type]));
}

async function indexNames(t: TestApp, table: string): Promise<string[]> {
  const found: Array<{ indexname: string }> = await t.db.query(
    `SELECT indexname FROM pg_indexes WHERE tablename = $1 ORDER BY indexname`,
    [table],
  );
  return found.map((r) => r.indexname);
}

describe('content schema: collections, singles, field groups', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let adminId: string;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'pages',
            fields: [
              { name: 'title', type: 'text', required: true },
              { name: 'body', type: 'richText' },
            ],
            drafts: true,
          },
        ],
        singles: [{ slug: 'home', fields: [{ name: 'headline', type: 'text' }] }],
      },
    });
    adminId = (await createUser(t, { roles: ['super-admin'] })).id;
    admin = await bearerFor(t, adminId);
  });
  afterAll(() => t.close());

  it('creates a collection as a real typed table with named indexes, foreign keys and a join table', async () => {
    await t.http
      .post(api('/collections'))
      .set(admin)
      .send({ slug: 'authors', fields: [{ name: 'name', type: 'text', required: true, unique: true }] })
      .expect(201);
    const res = await t.http
      .post(api('/collections'))
      .set(admin)
      .send({
        slug: 'posts',
        labels: { singular: 'Post', plural: 'Posts' },
        drafts: true,
        fields: [
          { name: 'title', type: 'text', required: true, index: true },
          { name: 'views', type: 'number', index: true },
          { name: 'published', type: 'date' },
          { name: 'featured', type: 'checkbox' },
          { name: 'kind', type: 'select', options: ['news', 'blog'] },
          { name: 'tags', type: 'select', hasMany: true, options: ['a', 'b'] },
          { name: 'meta', type: 'json' },
          { name: 'author', type: 'relationship', relationTo: 'authors' },
          { name: 'coauthors', type: 'relationship', relationTo: 'authors', hasMany: true },
          { name: 'cover', type: 'upload', relationTo: 'media' },
        ],
      })
      .expect(201);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.body.item).toMatchObject({
      slug: 'posts',
      drafts: true,
      source: 'ui',
      labels: { singular: 'Post' },
    });
    for (const f of res.body.item.fields) {
      expect(f.id).toEqual(expect.any(String));
    }
    expect(await tableColumns(t, 'c_posts')).toEqual({
      id: 'uuid',
      created_at: 'timestamp with time zone',
      updated_at: 'timestamp with time zone',
      status: 'text',
      title: 'text',
      views: 'double precision',
      published: 'timestamp with time zone',
      featured: 'boolean',
      kind: 'text',
      tags: 'ARRAY',
      meta: 'jsonb',
      author: 'uuid',
      cover: 'uuid',
    });
    expect(await indexNames(t, 'c_posts')).toEqual(
      expect.arrayContaining([
        'c_posts-title-idx',
        'c_posts-views-idx',
        'c_posts-author-idx',
        'c_posts-cover-idx',
      ]),
    );
    expect(await tableColumns(t, 'c_posts__coauthors')).toEqual({
      owner_id: 'uuid',
      target_id: 'uuid',
      position: 'integer',
    });
    const fks: Array<{ conname: string }> = await t.db.query(
      `SELECT conname FROM pg_constraint WHERE conrelid = 'c_posts'::regclass AND contype = 'f' ORDER BY conname`,
    );
    expect(fks.map((r) => r.conname)).toEqual(['c_posts-author-fkey', 'c_posts-cover-fkey']);
  });

  it('registers the four permissions of a collection and removes them with it', async () => {
    await t.http
      .post(api('/collections'))
      .set(admin)
      .send({ slug: 'notes', fields: [{ name: 'text', type: 'textarea' }] })
      .expect(201);
    const slugs = async () =>
      (
        (await t.db.query(`SELECT slug FROM permissions WHERE resource = 'notes' ORDER BY slug`)) as Array<{
          slug: string;
        }>
      ).map((r) => r.slug);
    expect(await slugs()).toEqual(['create-notes', 'delete-notes', 'read-notes', 'update-notes']);
    // A role holding one of them can read at once (the permission cache was invalidated).
    const reader = await userWithPermissions(t, ['read-notes']);
    await t.http
      .get(api('/collections/notes/entries'))
      .set(await bearerFor(t, reader.id))
      .expect(200);

    await t.http.delete(api('/collections/notes')).set(admin).expect(200);
    expect(await slugs()).toEqual([]);
    expect(await tableColumns(t, 'c_notes')).toEqual({});
    await t.http.get(api('/collections/notes/entries')).set(admin).expect(404);
  });

  it('validates definitions with paths and refuses taken slugs', async () => {
    const bad = await t.http
      .post(api('/collections'))
      .set(admin)
      .send({
        slug: 'Bad Slug',
        fields: [
          { name: 'x', type: 'nope' },
          { name: 'r', type: 'relationship', relationTo: 'ghosts' },
        ],
        // Over REST only read and create may be opened (booleans); update stays permission-only.
        access: { read: true, update: true },
      })
      .expect(400);
    expect(bad.headers['content-type']).toMatch(/application\/problem\+json/);
    const paths = bad.body.error.data.errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['access.update']));
    expect(paths).not.toContain('access.read');
    await t.http.post(api('/collections')).set(admin).send({ slug: 'home', fields: [] }).expect(409); // a single holds it
    await t.http.post(api('/collections')).set(admin).send({ slug: 'users', fields: [] }).expect(400);
  });

  it('previews and applies changes; destructive ones need confirmation and change nothing without it', async () => {
    await t.http
      .post(api('/collections'))
      .set(admin)
      .send({
        slug: 'events',
        fields: [
          { name: 'name', type: 'text' },
          { name: 'seats', type: 'number' },
        ],
      })
      .expect(201);
    const def = (await t.http.get(api('/collections/events')).set(admin).expect(200)).body;
    const [name, seats] = def.fields;
    await t.http
      .post(api('/collections/events/entries'))
      .set(admin)
      .send({ name: 'Gala', seats: 10 })
      .expect(201);

    // rename (same id) + add: safe
    const next = [{ ...name, name: 'title' }, seats, { name: 'venue', type: 'text', index: true }];
    const preview = await t.http
      .post(api('/collections/schema/events/preview'))
      .set(admin)
      .send({ fields: next })
      .expect(200);
    expect(preview.body).toEqual({
      changes: [
        { kind: 'rename', field: 'title', from: 'name', to: 'title', destructive: false },
        expect.objectContaining({ kind: 'add', field: 'venue', destructive: false }),
      ],
      destructive: false,
    });
    const applied = await t.http
      .post(api('/collections/schema/events/apply'))
      .set(admin)
      .send({ fields: next })
      .expect(200);
    expect(applied.body.changes).toHaveLength(2);
    const list = await t.http.get(api('/collections/events/entries')).set(admin).expect(200);
    expect(list.body.items[0]).toMatchObject({ title: 'Gala', seats: 10, venue: null });

    // dropping a field: 409 without confirmation, nothing changed
    const drop = [next[0], next[2]];
    const refused = await t.http
      .post(api('/collections/schema/events/apply'))
      .set(admin)
      .send({ fields: drop })
      .expect(409);
    expect(refused.body.error.code).toBe('CONFLICT');
    expect(Object.keys(await tableColumns(t, 'c_events'))).toContain('seats');
    expect((await t.http.get(api('/collections/events')).set(admin)).body.fields).toHaveLength(3);

    await t.http
      .post(api('/collections/schema/events/apply'))
      .set(admin)
      .send({ fields: drop, confirmDestructive: true })
      .expect(200);
    expect(Object.keys(await tableColumns(t, 'c_events'))).not.toContain('seats');
  });

  it('keeps answering reads from prepared statements after a field changes type under them', async () => {
    await t.http
      .post(api('/collections'))
      .set(admin)
      .send({
        slug: 'gauges',
        fields: [
          { name: 'label', type: 'text' },
          { name: 'level', type: 'number' },
        ],
      })
      .expect(201);
    const created = await t.http
      .post(api('/collections/gauges/entries'))
      .set(admin)
      .send({ label: 'tank', level: 5 })
      .expect(201);
    const id = created.body.item.id as string;
    const statements = jest.spyOn(pg.Client.prototype, 'query');
    // Enough reads at once that every pool connection prepares the list, count and get statements.
    const readAll = () =>
      Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          t.http
            .get(api(i % 2 ? `/collections/gauges/entries/${id}` : '/collections/gauges/entries'))
            .set(admin),
        ),
      );
    try {
      for (const res of await readAll()) {
        expect(res.status).toBe(200);
      }
      const named = statements.mock.calls.filter(
        ([q]) => typeof q === 'object' && /^svc_/.test(String((q as { name?: unknown }).name)),
      );
      expect(named.length).toBeGreaterThan(0);
    } finally {
      statements.mockRestore();
    }
    await t.http
      .post(api('/collections/schema/gauges/apply'))
      .set(admin)
      .send({
        fields: [
          { name: 'label', type: 'text' },
          { name: 'level', type: 'text' },
        ],
        confirmDestructive: true,
      })
      .expect(200);
    for (const res of await readAll()) {
      expect(res.status).toBe(200);
      const item = res.body.items ? res.body.items[0] : res.body;
      expect(item).toMatchObject({ id, label: 'tank', level: '5' });
    }
  });

  it('keeps answering creates and updates from prepared statements after the fields change under them', async () => {
    await t.http
      .post(api('/collections'))
      .set(admin)
      .send({
        slug: 'meters',
        fields: [
          { name: 'label', type: 'text' },
          { name: 'level', type: 'number' },
        ],
      })
      .expect(201);
    const statements = jest.spyOn(pg.Client.prototype, 'query');
    // Enough writes at once that every pool connection prepares the create and the update.
    const writeAll = (label: string) =>
      Promise.all(
        Array.from({ length: 12 }, async () => {
          const made = await t.http.post(api('/collections/meters/entries')).set(admin).send({ label });
          expect(made.status).toBe(201);
          const changed = await t.http
            .patch(api(`/collections/meters/entries/${made.body.item.id}`))
            .set(admin)
            .send({ label: `${label}!` });
          expect(changed.status).toBe(200);
          return changed.body.item as Record<string, unknown>;
        }),
      );
    try {
      for (const item of await writeAll('before')) {
        expect(item).toMatchObject({ label: 'before!', level: null });
      }
      const namedInserts = statements.mock.calls.filter(([q]) => {
        const { name, text } = (typeof q === 'object' ? q : {}) as { name?: unknown; text?: unknown };
        return /^svc_/.test(String(name)) && /INSERT INTO "c_meters"/.test(String(text));
      });
      expect(namedInserts.length).toBeGreaterThan(0);
    } finally {
      statements.mockRestore();
    }
    await t.http
      .post(api('/collections/schema/meters/apply'))
      .set(admin)
      .send({
        fields: [
          { name: 'label', type: 'text' },
          { name: 'level', type: 'text' },
          { name: 'unit', type: 'text', defaultValue: 'kWh' },
        ],
        confirmDestructive: true,
      })
      .expect(200);
    for (const item of await writeAll('after')) {
      expect(item).toMatchObject({ label: 'after!', level: null, unit: 'kWh' });
    }
  });

  it('refuses REST changes to code-defined collections', async () => {
    await t.http.delete(api('/collections/pages')).set(admin).expect(409);
    const applied = await t.http
      .post(api('/collections/schema/pages/apply'))
      .set(admin)
      .send({ fields: [], confirmDestructive: true })
      .expect(409);
    // A preview answers what apply would: the same refusal, not a plan that can never run.
    const previewed = await t.http
      .post(api('/collections/schema/pages/preview'))
      .set(admin)
      .send({ fields: [] })
      .expect(409);
    expect(previewed.body.error).toMatchObject({ code: 'CONFLICT', message: applied.body.error.message });
    expect(previewed.body.error.message).toMatch(/defined in the configuration file/);
    const single = await t.http
      .post(api('/singles/schema/home/preview'))
      .set(admin)
      .send({ fields: [] })
      .expect(409);
    expect(single.body.error.code).toBe('CONFLICT');
    const got = await t.http.get(api('/collections/pages')).set(admin).expect(200);
    expect(got.body.source).toBe('code');
  });

  it('keeps field groups and serves the enriched schema', async () => {
    await t.http
      .post(api('/field-groups'))
      .set(admin)
      .send({ slug: 'seo', fields: [{ name: 'metaTitle', type: 'text', required: true }] })
      .expect(201);
    await t.http
      .post(api('/collections'))
      .set(admin)
      .send({ slug: 'articles', fields: [{ name: 'seo', type: 'component', fieldGroup: 'seo' }] })
      .expect(201);
    const enriched = await t.http.get(api('/collections/schema/articles')).set(admin).expect(200);
    expect(enriched.body.fields[0]).toMatchObject({
      name: 'seo',
      type: 'component',
      fields: [expect.objectContaining({ name: 'metaTitle' })],
    });
    await t.http.delete(api('/field-groups/seo')).set(admin).expect(409); // still used
    const ok = await t.http
      .post(api('/collections/articles/entries'))
      .set(admin)
      .send({ seo: { metaTitle: 'Hi' } });
    expect(ok.status).toBe(201);
    expect(ok.body.item.seo).toEqual({ metaTitle: 'Hi' });
    const bad = await t.http
      .post(api('/collections/articles/entries'))
      .set(admin)
      .send({ seo: { other: 1 } });
    expect(bad.status).toBe(400);
    const lists = await t.http.get(api('/field-groups')).set(admin).expect(200);
    expect(lists.body.items.map((g: { slug: string }) => g.slug)).toEqual(['seo']);
  });

  it('serves singles: one row created on first read, PATCH updates it', async () => {
    const first = await t.http.get(api('/singles/home')).set(admin).expect(200);
    expect(first.body).toMatchObject({ headline: null });
    const upd = await t.http.patch(api('/singles/home')).set(admin).send({ headline: 'Welcome' }).expect(200);
    expect(upd.body.item).toMatchObject({ id: first.body.id, headline: 'Welcome' });
    const again = await t.http.get(api('/singles/home')).set(admin).expect(200);
    expect(again.body.headline).toBe('Welcome');
    const rows = await t.db.query(`SELECT count(*)::int AS n FROM s_home`);
    expect(rows[0].n).toBe(1);

    await t.http
      .post(api('/singles'))
      .set(admin)
      .send({ slug: 'footer', label: 'Footer', fields: [{ name: 'note', type: 'text' }] })
      .expect(201);
    const schema = await t.http.get(api('/singles/footer/schema')).set(admin).expect(200);
    expect(schema.body).toMatchObject({ slug: 'footer', label: 'Footer' });
    await t.http
      .post(api('/singles/schema/footer/apply'))
      .set(admin)
      .send({ fields: [...schema.body.fields, { name: 'year', type: 'number' }] })
      .expect(200);
    await t.http.patch(api('/singles/footer')).set(admin).send({ year: 2026 }).expect(200);
    await t.http.delete(api('/singles/footer')).set(admin).expect(200);
    await t.http.get(api('/singles/footer')).set(admin).expect(404);
  });

  it('guards single content by read-<slug> and update-<slug>', async () => {
    const reader = await bearerFor(t, (await userWithPermissions(t, ['read-home'])).id);
    await t.http.get(api('/singles/home')).set(reader).expect(200);
    await t.http.get(api('/singles/home/schema')).set(reader).expect(200);
    await t.http.patch(api('/singles/home')).set(reader).send({ headline: 'No' }).expect(403);
    const editor = await bearerFor(t, (await userWithPermissions(t, ['read-home', 'update-home'])).id);
    await t.http.patch(api('/singles/home')).set(editor).send({ headline: 'Yes' }).expect(200);
    await t.http.patch(api('/singles/home/schema')).set(editor).send({ label: 'Home' }).expect(403);
  });

  it('previews and applies field group changes, destructive ones only when confirmed', async () => {
    await t.http
      .post(api('/field-groups'))
      .set(admin)
      .send({
        slug: 'cta',
        fields: [
          { name: 'text', type: 'text' },
          { name: 'url', type: 'text' },
        ],
      })
      .expect(201);
    const group = (await t.http.get(api('/field-groups/cta')).set(admin).expect(200)).body;
    const next = [group.fields[0]];
    const preview = await t.http
      .post(api('/field-groups/schema/cta/preview'))
      .set(admin)
      .send({ fields: next });
    expect(preview.status).toBe(200);
    expect(preview.body).toEqual({
      changes: [expect.objectContaining({ kind: 'drop', field: 'url', destructive: true })],
      destructive: true,
    });
    await t.http.post(api('/field-groups/schema/cta/apply')).set(admin).send({ fields: next }).expect(409);
    const applied = await t.http
      .post(api('/field-groups/schema/cta/apply'))
      .set(admin)
      .send({ fields: next, confirmDestructive: true })
      .expect(200);
    expect(applied.body.item.fields.map((f: { name: string }) => f.name)).toEqual(['text']);
    const journal: Array<{ target: string }> = await t.db.query(
      `SELECT target FROM schema_journal WHERE slug = 'cta' ORDER BY applied_at`,
    );
    expect(journal.map((j) => j.target)).toEqual(['field-group', 'field-group']);
  });

  it('journals every change; the journal is for super-admin browser sessions only', async () => {
    const session = await signIn(t, await createUser(t, { roles: ['super-admin'] }));
    const res = await session.browser.agent.get(api('/schema/journal?limit=100')).expect(200);
    expect(res.body.meta.total).toBeGreaterThan(3);
    const events = res.body.items.find(
      (j: { slug: string; changes: Array<{ kind: string }> }) =>
        j.slug === 'events' && j.changes.some((c) => c.kind === 'rename'),
    );
    expect(events).toMatchObject({ target: 'collection', appliedBy: adminId, appliedAt: expect.any(String) });
    await t.http.get(api('/schema/journal')).set(admin).expect(401); // Bearer refused
    const editor = await signIn(t, await userWithPermissions(t, ['manage-settings']));
    await editor.browser.agent.get(api('/schema/journal')).expect(403);
  });

  it('lists definitions to any signed-in caller and refuses visitors', async () => {
    const someone = await userWithPermissions(t, []);
    const res = await t.http
      .get(api('/collections'))
      .set(await bearerFor(t, someone.id))
      .expect(200);
    expect(res.body.items.map((c: { slug: string }) => c.slug)).toEqual(
      expect.arrayContaining(['media', 'pages', 'posts']),
    );
    await t.http.get(api('/collections')).expect(401);
    await t.http
      .get(api('/singles'))
      .set(await bearerFor(t, someone.id))
      .expect(200);
    // A definition and its schema need read-<slug>, like its entries.
    await t.http
      .get(api('/collections/posts'))
      .set(await bearerFor(t, someone.id))
      .expect(403);
    await t.http
      .get(api('/collections/schema/posts'))
      .set(await bearerFor(t, someone.id))
      .expect(403);
    const reader = await bearerFor(t, (await userWithPermissions(t, ['read-posts'])).id);
    await t.http.get(api('/collections/posts')).set(reader).expect(200);
    await t.http.get(api('/collections/schema/posts')).set(reader).expect(200);
    await t.http
      .post(api('/collections'))
      .set(await bearerFor(t, someone.id))
      .send({ slug: 'x', fields: [] })
      .expect(403);
  });
});

describe('content schema: boot sync of code-defined definitions', () => {
  it('adds a field added in code, refuses a destructive change unless accepted', async () => {
    const v1 = { collections: [{ slug: 'books', fields: [{ name: 'title', type: 'text' as const }] }] };
    const first = await createTestApp({ config: v1 });
    const database = first.database;
    const admin = await bearerFor(first, (await createUser(first, { roles: ['super-admin'] })).id);
    await first.http.post(api('/collections/books/entries')).set(admin).send({ title: 'Dune' }).expect(201);
    await first.app.close();

    const v2 = {
      collections: [
        {
          slug: 'books',
          fields: [
            { name: 'title', type: 'text' as const },
            { name: 'pages', type: 'number' as const },
          ],
        },
      ],
    };
    const second = await createTestApp({ config: v2, database });
    const got = await second.http.get(api('/collections/books/entries')).set(admin).expect(200);
    expect(got.body.items[0]).toMatchObject({ title: 'Dune', pages: null });
    await second.app.close();

    const v3 = { collections: [{ slug: 'books', fields: [{ name: 'pages', type: 'number' as const }] }] };
    await expect(createTestApp({ config: v3, database })).rejects.toThrow(
      /destructive.*drop title.*SVC_SCHEMA_ACCEPT_DESTRUCTIVE/s,
    );

    const third = await createTestApp({ config: v3, database, overrides: { acceptDestructiveSchema: true } });
    const cols: Array<{ column_name: string }> = await third.db.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'c_books'`,
    );
    expect(cols.map((c) => c.column_name)).not.toContain('title');
    await third.app.close();
    await database.drop();
  });
});
