import pg from 'pg';
import { doc, paragraph, text } from '../utils/lexical';
import type { Request } from 'express';
import { createTestApp, TestApp } from '../utils/test-app';
import { bearerFor, createUser, signIn, userWithPermissions } from '../utils/auth';
import type { AccessContext } from '../../src/config/config.types';
import { statementText } from '../utils/statements';

const api = (path: string) => `/admin/api${path}`;

async function apiKey(
  t: TestApp,
  userId: string,
  type: string,
  roleId?: string,
): Promise<Record<string, string>> {
  const session = await signIn(t, {
    email: (await t.db.query(`SELECT email FROM users WHERE id = $1`, [userId]))[0].email,
    password: 'Correct-Horse-9',
  });
  const res = await session.browser
    .post('/api-keys', { name: 'k', type, ...(roleId ? { roleId } : {}) })
    .expect(201);
  return { Authorization: `Bearer ${res.body.key}` };
}

describe('content entries', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const seen: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'authors',
            fields: [
              { name: 'name', type: 'text', required: true, unique: true },
              { name: 'email', type: 'email' },
            ],
          },
          {
            slug: 'articles',
            drafts: true,
            fields: [
              { name: 'title', type: 'text', required: true },
              { name: 'views', type: 'number', min: 0, index: true },
              { name: 'kind', type: 'select', options: ['news', 'blog'] },
              { name: 'body', type: 'richText' },
              { name: 'author', type: 'relationship', relationTo: 'authors' },
              { name: 'coauthors', type: 'relationship', relationTo: 'authors', hasMany: true },
              { name: 'related', type: 'relationship', relationTo: 'articles' },
            ],
          },
          {
            slug: 'announcements',
            fields: [{ name: 'text', type: 'text' }],
            access: { read: true },
          },
          {
            slug: 'bulletins',
            drafts: true,
            fields: [{ name: 'text', type: 'text' }],
            access: { read: true },
          },
          {
            slug: 'guarded',
            fields: [{ name: 'owner', type: 'text' }],
            access: {
              read: (ctx: AccessContext) => {
                seen.push(`${ctx.action}:${(ctx.req as Request).method}`);
                const auth = ctx.auth as { permissions: string[]; user: { email: string } } | null;
                return (
                  !!auth &&
                  auth.permissions.includes('read-guarded') &&
                  auth.user.email.endsWith('@example.com')
                );
              },
            },
          },
        ],
      },
    });
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
  });
  afterAll(() => t.close());

  const post = (slug: string, body: object) =>
    t.http
      .post(api(`/collections/${slug}/entries`))
      .set(admin)
      .send(body);

  it('creates, reads, updates and deletes an entry with the specified bodies', async () => {
    const author = await post('authors', { name: 'Ann', email: 'ann@example.com' }).expect(201);
    expect(author.body).toEqual({
      message: expect.any(String),
      item: {
        id: expect.any(String),
        name: 'Ann',
        email: 'ann@example.com',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    const a = author.body.item.id;
    const created = await post('articles', {
      title: 'One',
      views: 5,
      author: a,
      coauthors: [a],
      body: doc(paragraph(text('Hi', 1))),
    }).expect(201);
    const item = created.body.item;
    expect(item).toMatchObject({ title: 'One', views: 5, author: a, coauthors: [a], status: 'draft' });

    // Over HTTP reads default to published: the draft is not found without status.
    await t.http
      .get(api(`/collections/articles/entries/${item.id}`))
      .set(admin)
      .expect(404);
    const draft = await t.http
      .get(api(`/collections/articles/entries/${item.id}?status=draft`))
      .set(admin)
      .expect(200);
    expect(draft.body.title).toBe('One');

    const patched = await t.http
      .patch(api(`/collections/articles/entries/${item.id}`))
      .set(admin)
      .send({ status: 'published', views: 6 })
      .expect(200);
    expect(patched.body.item).toMatchObject({ title: 'One', views: 6, status: 'published', coauthors: [a] });
    expect(new Date(patched.body.item.updatedAt).getTime()).toBeGreaterThanOrEqual(
      new Date(item.updatedAt).getTime(),
    );
    // A write answers its entry as read in its transaction (Dates), a read as node-pg's text:
    // the timestamps are the same ISO strings either way.
    const read = await t.http
      .get(api(`/collections/articles/entries/${item.id}`))
      .set(admin)
      .expect(200);
    expect(read.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect({ createdAt: read.body.createdAt, updatedAt: read.body.updatedAt }).toEqual({
      createdAt: patched.body.item.createdAt,
      updatedAt: patched.body.item.updatedAt,
    });

    const html = await t.http
      .get(api(`/collections/articles/entries/${item.id}?richTextFormat=both&select=body`))
      .set(admin)
      .expect(200);
    expect(Object.keys(html.body).sort()).toEqual(['body', 'createdAt', 'id', 'updatedAt']);
    expect(html.body.body.html).toBe('<p><strong>Hi</strong></p>');
    expect(html.body.body.json).toEqual(doc(paragraph(text('Hi', 1))));

    const removed = await t.http
      .delete(api(`/collections/articles/entries/${item.id}`))
      .set(admin)
      .expect(200);
    expect(removed.body.item.id).toBe(item.id);
    await t.http
      .get(api(`/collections/articles/entries/${item.id}?status=all`))
      .set(admin)
      .expect(404);
  });

  it('validates by field type with paths; unique is 409 DUPLICATE; missing targets are 400', async () => {
    const bad = await post('articles', {
      status: 'published',
      views: -1,
      kind: 'other',
      author: '00000000-0000-4000-8000-000000000000',
      nope: 1,
    }).expect(400);
    const byPath = Object.fromEntries(
      bad.body.error.data.errors.map((e: { path: string; code: string }) => [e.path, e.code]),
    );
    expect(byPath).toMatchObject({ title: 'required', views: 'min', kind: 'isIn', nope: 'unknown_field' });
    const missing = await post('articles', {
      title: 'x',
      author: '00000000-0000-4000-8000-000000000000',
    }).expect(400);
    expect(missing.body.error.data.errors[0]).toMatchObject({ path: 'author', code: 'notFound' });
    await post('articles', { title: 'x', status: 'archived' }).expect(400);

    await post('authors', { name: 'Unique' }).expect(201);
    const dup = await post('authors', { name: 'Unique' }).expect(409);
    expect(dup.body.error).toMatchObject({ code: 'DUPLICATE', data: { errors: [{ path: 'name' }] } });
  });

  it('an update with nothing to check or record is one statement, answered as any update', async () => {
    const a = (await post('authors', { name: 'Plain A' }).expect(201)).body.item;
    await post('authors', { name: 'Plain B' }).expect(201);
    const patch = (id: string, body: object) =>
      t.http
        .patch(api(`/collections/authors/entries/${id}`))
        .set(admin)
        .send(body);
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    let statements: string[];
    let changed: { body: { item: Record<string, unknown> } };
    try {
      changed = await patch(a.id, { name: 'Plain A2', email: 'a2@example.com' }).expect(200);
    } finally {
      statements = spy.mock.calls
        .map((c) => (typeof c[0] === 'string' ? c[0] : String((c[0] as { text?: unknown }).text)))
        .filter((sql) => /c_authors|BEGIN|COMMIT/.test(sql));
      spy.mockRestore();
    }
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/UPDATE "c_authors"/);
    expect(changed.body.item).toMatchObject({ id: a.id, name: 'Plain A2', email: 'a2@example.com' });
    expect(Date.parse(changed.body.item.updatedAt as string)).toBeGreaterThan(Date.parse(a.updatedAt));
    const read = await t.http
      .get(api(`/collections/authors/entries/${a.id}`))
      .set(admin)
      .expect(200);
    expect(read.body).toMatchObject({ name: 'Plain A2', email: 'a2@example.com' });

    // The same answers as the transactional way: unique 409, required 400, a missing entry 404
    // whatever its body, and a body without the required field merged with the stored values.
    const dup = await patch(a.id, { name: 'Plain B' }).expect(409);
    expect(dup.body.error).toMatchObject({ code: 'DUPLICATE', data: { errors: [{ path: 'name' }] } });
    const required = await patch(a.id, { name: null }).expect(400);
    expect(required.body.error.data.errors[0]).toMatchObject({ path: 'name', code: 'required' });
    const nobody = '00000000-0000-4000-8000-000000000000';
    await patch(nobody, { name: 'Nobody' }).expect(404);
    await patch(nobody, { name: 5 }).expect(404);
    const merged = await patch(a.id, { email: 'a3@example.com' }).expect(200);
    expect(merged.body.item).toMatchObject({ name: 'Plain A2', email: 'a3@example.com' });
  });

  it('lists at most 50 problems of a body and counts the others in omittedErrors', async () => {
    const body: Record<string, unknown> = { title: 'Many' };
    for (let i = 0; i < 60; i++) {
      body[`extra${i}`] = i;
    }
    const res = await post('articles', body).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.data.errors).toHaveLength(50);
    expect(res.body.error.data.errors[49]).toMatchObject({ path: 'extra49', code: 'unknown_field' });
    expect(res.body.error.data.omittedErrors).toBe(10);
    // Nothing was written.
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM c_articles WHERE title = 'Many'`);
    expect(n).toBe(0);

    const fewer = await post('articles', { title: 'Few', extra: 1 }).expect(400);
    expect(fewer.body.error.data).not.toHaveProperty('omittedErrors');
  });

  it('populates relationships with depth, one query per relationship field per level', async () => {
    const [a1, a2, a3] = await Promise.all(
      ['P1', 'P2', 'P3'].map((n) => post('authors', { name: n }).expect(201)),
    );
    const ids = [a1, a2, a3].map((r) => r.body.item.id as string);
    const base = await post('articles', { title: 'Base', status: 'published', author: ids[0] }).expect(201);
    for (let i = 0; i < 5; i++) {
      await post('articles', {
        title: `Pop ${i}`,
        status: 'published',
        author: ids[i % 3],
        coauthors: [ids[1], ids[2]],
        related: base.body.item.id,
      }).expect(201);
    }
    // Every statement reaches PostgreSQL through a pg client, TypeORM's query runner or not.
    const logQuery = jest.spyOn(pg.Client.prototype, 'query');
    const queries: string[] = [];
    let res;
    try {
      res = await t.http
        .get(api('/collections/articles/entries?where[title][like]=Pop%25&depth=1&limit=20&sort=title'))
        .set(admin)
        .expect(200);
    } finally {
      queries.push(...logQuery.mock.calls.map((c) => statementText(c[0])));
      logQuery.mockRestore();
    }
    const content = queries.filter((q) => /"c_(articles|authors)"/.test(q));
    // the page (one row past the limit, so a short page needs no count), then one per
    // relationship field: author, coauthors, related
    expect(content).toHaveLength(4);
    expect(content.filter((q) => q.includes('count(*)'))).toEqual([]);
    const first = res.body.items[0];
    expect(first.author).toMatchObject({ id: ids[0], name: 'P1' });
    expect(first.coauthors.map((c: { name: string }) => c.name)).toEqual(['P2', 'P3']);
    expect(first.related).toMatchObject({ title: 'Base', author: ids[0] }); // depth 1: its own relations stay ids

    const deeper = await t.http
      .get(api('/collections/articles/entries?where[title][equals]=Pop 0&depth=2'))
      .set(admin)
      .expect(200);
    expect(deeper.body.items[0].related.author).toMatchObject({ name: 'P1' });
  });

  it('answers bulk routes with per-item errors and runs update by query in one transaction', async () => {
    const made = await Promise.all(
      [1, 2, 3].map((i) => post('announcements', { text: `n${i}` }).expect(201)),
    );
    const ids = made.map((r) => r.body.item.id as string);
    const missing = '00000000-0000-4000-8000-000000000001';
    const upd = await t.http
      .post(api('/collections/announcements/entries/bulk-update'))
      .set(admin)
      .send({ ids: [ids[0], missing, 'not-an-id'], data: { text: 'changed' } })
      .expect(200);
    expect(upd.body).toEqual({
      message: expect.any(String),
      items: [{ id: ids[0] }],
      errors: [
        { id: 'not-an-id', code: 'NOT_FOUND', message: expect.any(String) },
        { id: missing, code: 'NOT_FOUND', message: expect.any(String) },
      ],
    });
    await t.http
      .post(api('/collections/announcements/entries/bulk-update'))
      .set(admin)
      .send({ ids: [ids[1]], data: { text: 5 } })
      .expect(400);

    const byQuery = await t.http
      .patch(api('/collections/announcements/entries'))
      .set(admin)
      .send({ where: { text: { in: ['n2', 'n3'] } }, data: { text: 'q' } })
      .expect(200);
    expect(byQuery.body.items.map((i: { id: string }) => i.id).sort()).toEqual([ids[1], ids[2]].sort());

    const count = await t.http
      .get(api('/collections/announcements/entries/count?where[text][equals]=q'))
      .set(admin)
      .expect(200);
    expect(count.body).toEqual({ total: 2 });

    const del = await t.http
      .post(api('/collections/announcements/entries/bulk-delete'))
      .set(admin)
      .send({ ids: [ids[0], missing] })
      .expect(200);
    expect(del.body.items).toEqual([{ id: ids[0] }]);
    expect(del.body.errors).toEqual([{ id: missing, code: 'NOT_FOUND', message: expect.any(String) }]);
  });

  it('duplicates an entry as a draft', async () => {
    const a = await post('authors', { name: 'Dup author' }).expect(201);
    const src = await post('articles', {
      title: 'Orig',
      status: 'published',
      coauthors: [a.body.item.id],
    }).expect(201);
    const dup = await t.http
      .post(api(`/collections/articles/entries/${src.body.item.id}/duplicate`))
      .set(admin)
      .expect(201);
    expect(dup.body.item).toMatchObject({ title: 'Orig', status: 'draft', coauthors: [a.body.item.id] });
    expect(dup.body.item.id).not.toBe(src.body.item.id);
  });

  it('shows drafts only on request, to visitors, sessions and keys alike', async () => {
    await post('articles', { title: 'Vis pub', status: 'published' }).expect(201);
    await post('articles', { title: 'Vis draft' }).expect(201);
    const reader = await userWithPermissions(t, ['read-articles']);
    const session = await signIn(t, reader);
    const key = await apiKey(t, reader.id, 'read-only');
    for (const client of [
      (p: string) => session.browser.agent.get(api(p)),
      (p: string) => t.http.get(api(p)).set(key),
    ]) {
      const pub = await client('/collections/articles/entries?where[title][like]=Vis%25').expect(200);
      expect(pub.body.items.map((i: { title: string }) => i.title)).toEqual(['Vis pub']);
      const all = await client(
        '/collections/articles/entries?where[title][like]=Vis%25&status=all&sort=title',
      ).expect(200);
      expect(all.body.items.map((i: { title: string }) => i.title)).toEqual(['Vis draft', 'Vis pub']);
      const drafts = await client(
        '/collections/articles/entries/count?where[title][like]=Vis%25&status=draft',
      ).expect(200);
      expect(drafts.body.total).toBe(1);
      await client('/collections/articles/entries?status=bogus').expect(400);
    }
    // Visitors: refused on a permission-guarded collection; an open one serves them.
    await t.http.get(api('/collections/articles/entries')).expect(401);
    await post('announcements', { text: 'public' }).expect(201);
    const open = await t.http
      .get(api('/collections/announcements/entries?where[text][equals]=public'))
      .expect(200);
    expect(open.body.items).toHaveLength(1);
    await t.http.post(api('/collections/announcements/entries')).send({ text: 'x' }).expect(401);

    // A collection open to visitors shows them published entries only; drafts need a sign-in.
    await post('bulletins', { text: 'out', status: 'published' }).expect(201);
    const hidden = await post('bulletins', { text: 'soon' }).expect(201);
    const visible = await t.http.get(api('/collections/bulletins/entries')).expect(200);
    expect(visible.body.items.map((i: { text: string }) => i.text)).toEqual(['out']);
    await t.http.get(api('/collections/bulletins/entries?status=all')).expect(401);
    await t.http.get(api('/collections/bulletins/entries/count?status=draft')).expect(401);
    await t.http.get(api(`/collections/bulletins/entries/${hidden.body.item.id}`)).expect(404);
    await t.http.get(api(`/collections/bulletins/entries/${hidden.body.item.id}?status=draft`)).expect(401);
    const count = await t.http.get(api('/collections/bulletins/entries/count')).expect(200);
    expect(count.body).toEqual({ total: 1 });
  });

  it('keeps the built-in media collection for uploads: JSON creates are refused', async () => {
    const res = await post('media', { filename: 'a.png', mimeType: 'image/png', filesize: 1 }).expect(415);
    expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const list = await t.http.get(api('/collections/media/entries')).set(admin).expect(200);
    expect(list.body.meta.total).toBe(0);
  });

  it('lets an access function decide with the permission, never the role name', async () => {
    await post('guarded', { owner: 'a' }).expect(201);
    const holder = await userWithPermissions(t, ['read-guarded']);
    const other = await userWithPermissions(t, []);
    await t.http
      .get(api('/collections/guarded/entries'))
      .set(await bearerFor(t, holder.id))
      .expect(200);
    await t.http
      .get(api('/collections/guarded/entries'))
      .set(await bearerFor(t, other.id))
      .expect(403);
    await t.http.get(api('/collections/guarded/entries')).expect(401);
    // An API key whose role holds the permission passes too (role-based key).
    const keyHolder = await createUser(t, { roles: ['super-admin'] });
    const key = await apiKey(t, keyHolder.id, 'role-based', holder.roleId);
    await t.http.get(api('/collections/guarded/entries')).set(key).expect(200);
    expect(seen).toContain('read:GET');
  });

  it('refuses writes by a read-only key and unknown parameters', async () => {
    const reader = await userWithPermissions(t, ['read-authors', 'create-authors']);
    const key = await apiKey(t, reader.id, 'read-only');
    await t.http.post(api('/collections/authors/entries')).set(key).send({ name: 'No' }).expect(403);
    await t.http.get(api('/collections/authors/entries?foo=1')).set(key).expect(400);
    await t.http
      .get(api('/collections/authors/entries/00000000-0000-4000-8000-000000000000?sort=name'))
      .set(key)
      .expect(400);
    await t.http.get(api('/collections/ghosts/entries')).set(key).expect(404);
    await t.http.get(api('/collections/authors/entries/not-a-uuid')).set(key).expect(404);
  });
});
