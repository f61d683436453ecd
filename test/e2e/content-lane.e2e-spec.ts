import type { Response } from 'supertest';
import { doc, paragraph, text } from '../utils/lexical';
import { ContentLane } from '../../src/modules/content/entries/content-lane';
import { bearerFor, createUser, signIn, userWithPermissions } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

const api = (path: string) => `/admin/api${path}`;

/** Headers whose values differ from one request to the next by design. */
const PER_REQUEST = new Set(['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

function comparable(res: Response) {
  const headers = Object.fromEntries(
    Object.entries(res.headers).map(([k, v]) => [k, PER_REQUEST.has(k) ? '(per request)' : v]),
  );
  const body = res.body as { error?: { requestId?: string } };
  if (body?.error?.requestId) {
    expect(body.error.requestId).toBe(res.headers['x-request-id']);
    body.error.requestId = '(per request)';
  }
  return { status: res.status, headers, body };
}

/** What differs between two writes of the same input: the new entry's id, its times and tag. */
function comparableWrite(res: Response) {
  const c = comparable(res);
  c.body = structuredClone(c.body);
  if (typeof c.headers.etag === 'string') {
    c.headers.etag = '(per write)';
  }
  const item = (c.body as { item?: Record<string, unknown> }).item;
  for (const key of ['id', 'createdAt', 'updatedAt']) {
    if (item && typeof item[key] === 'string') {
      item[key] = '(per write)';
    }
  }
  return c;
}

/**
 * The content lane answers collection reads and single-entry writes ahead of Express
 * (src/modules/content/entries/content-lane.ts). Every read here is sent twice: as is (the lane
 * takes it) and with `Content-Length: 0` (the lane leaves reads with a body header to Express, so
 * Nest answers); every write twice, with the lane told to pass the second on. Both answers must
 * match.
 */
describe('content lane', () => {
  let t: TestApp;
  let served: jest.SpyInstance;
  let taken: jest.SpyInstance;
  const creds: Record<string, Record<string, string>> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          { slug: 'people', fields: [{ name: 'name', type: 'text' }] },
          {
            slug: 'posts',
            drafts: true,
            fields: [
              { name: 'title', type: 'text', required: true },
              { name: 'views', type: 'number', index: true },
              { name: 'body', type: 'richText' },
              { name: 'author', type: 'relationship', relationTo: 'people' },
              { name: 'tags', type: 'relationship', relationTo: 'people', hasMany: true },
            ],
          },
          { slug: 'notices', fields: [{ name: 'text', type: 'text' }], access: { read: true } },
          {
            slug: 'bulletins',
            drafts: true,
            fields: [{ name: 'text', type: 'text' }],
            access: { read: true },
          },
        ],
      },
    });
    served = jest.spyOn(ContentLane.prototype as never, 'serve');
    taken = jest.spyOn(ContentLane.prototype, 'take');
    const admin = await createUser(t, { roles: ['super-admin'] });
    creds.admin = await bearerFor(t, admin.id);
    const reader = await userWithPermissions(t, ['read-posts']);
    creds.reader = await bearerFor(t, reader.id);
    creds.stranger = await bearerFor(t, (await userWithPermissions(t, ['read-notices'])).id);
    creds.visitor = {};
    creds.forged = { Authorization: 'Bearer not-a-token' };
    creds.malformed = { Authorization: 'Basic abc' };
    creds.unknownKey = { Authorization: 'Bearer svc_live_0000000000000000000000000000' };
    const session = await signIn(t, { email: admin.email, password: admin.password });
    const key = await session.browser.post('/api-keys', { name: 'lane', type: 'read-only' }).expect(201);
    creds.key = { Authorization: `Bearer ${key.body.key}` };

    const post = (slug: string, body: object) =>
      t.http
        .post(api(`/collections/${slug}/entries`))
        .set(creds.admin)
        .send(body)
        .expect(201);
    ids.ann = (await post('people', { name: 'Ann' })).body.item.id;
    ids.bob = (await post('people', { name: 'Bob' })).body.item.id;
    for (let i = 0; i < 6; i++) {
      const r = await post('posts', {
        // One title outside ASCII: the lane's Content-Length counts bytes, as Express's does.
        title: `Post ${i} 100%_done${i === 3 ? ' — Zoë ✓ 😀' : ''}`,
        views: i * 10,
        body: doc(paragraph(text(`Hello <${i}>`))),
        author: i % 2 ? ids.ann : ids.bob,
        tags: [ids.bob, ids.ann],
        status: i === 5 ? 'draft' : 'published',
      });
      ids[`post${i}`] = r.body.item.id;
    }
    await post('notices', { text: 'open' });
    await post('bulletins', { text: 'draft', status: 'draft' });
    // A preview token for the draft post: presented as a header by one caller, in the query below.
    const preview = await t.http
      .post(api(`/collections/posts/entries/${ids.post5}/preview-token`))
      .set(creds.admin)
      .send({})
      .expect(201);
    ids.preview = preview.body.token;
    creds.preview = { 'X-Preview-Token': ids.preview };
  });
  afterAll(() => t.close());

  const paths = () => [
    '/collections/posts/entries',
    '/collections/posts/entries?where[views][greater_than]=15&sort=-views&limit=2&page=2',
    '/collections/posts/entries?where[title][contains]=100%25_&select=title,views',
    '/collections/posts/entries?where={"or":[{"views":{"equals":0}},{"author":{"equals":"' +
      ids.ann +
      '"}}]}',
    '/collections/posts/entries?depth=1&richTextFormat=both&limit=3',
    '/collections/posts/entries?status=all',
    '/collections/posts/entries?status=draft',
    '/collections/posts/entries?status=bogus',
    '/collections/posts/entries?where[nope][equals]=1',
    '/collections/posts/entries?where[views][near]=1',
    '/collections/posts/entries?sort=nope',
    '/collections/posts/entries?limit=abc',
    '/collections/posts/entries?select=',
    '/collections/posts/entries?depth=9',
    '/collections/posts/entries?where[views][in]=',
    '/collections/posts/entries/count',
    '/collections/posts/entries/count?where[views][less_than]=25',
    `/collections/posts/entries/${ids.post1}`,
    `/collections/posts/entries/${ids.post1.toUpperCase()}?depth=1`,
    `/collections/posts/entries/${ids.post5}`,
    `/collections/posts/entries/${ids.post5}?status=draft`,
    `/collections/posts/entries/${ids.post5}?preview=${ids.preview}&depth=1`,
    `/collections/posts/entries/${ids.post1}?preview=${ids.preview}`,
    '/collections/posts/entries/00000000-0000-4000-8000-000000000000',
    '/collections/posts/entries/not-a-uuid',
    '/collections/notices/entries',
    '/collections/bulletins/entries?status=draft',
    '/collections/nothing/entries',
    '/collections/people/entries/count',
  ];

  it('answers every read exactly as the Nest routes do, for every kind of caller', async () => {
    let compared = 0;
    for (const [who, headers] of Object.entries(creds)) {
      for (const path of paths()) {
        const before = served.mock.calls.length;
        const viaLane = await t.http.get(api(path)).set(headers);
        expect(served.mock.calls.length).toBe(before + 1);
        const viaNest = await t.http.get(api(path)).set(headers).set('Content-Length', '0');
        expect(served.mock.calls.length).toBe(before + 1);
        const context = `${who} GET ${path}`;
        expect({ context, ...comparable(viaLane) }).toEqual({ context, ...comparable(viaNest) });
        expect(viaLane.status).not.toBe(500);
        compared++;
      }
    }
    expect(compared).toBe(Object.keys(creds).length * paths().length);
  });

  it('sees the statuses it must: published reads, drafts for callers, 401/403/404 as the guards answer', async () => {
    const get = (path: string, who: string) => t.http.get(api(path)).set(creds[who]);
    expect((await get('/collections/posts/entries', 'visitor')).status).toBe(401);
    expect((await get('/collections/posts/entries', 'stranger')).status).toBe(403);
    expect((await get('/collections/nothing/entries', 'visitor')).status).toBe(401);
    expect((await get('/collections/nothing/entries', 'reader')).status).toBe(404);
    expect((await get('/collections/posts/entries', 'forged')).status).toBe(401);
    const list = await get('/collections/posts/entries?sort=views', 'reader').expect(200);
    expect(list.body.meta.total).toBe(5);
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    const all = await get('/collections/posts/entries?status=all', 'reader').expect(200);
    expect(all.body.meta.total).toBe(6);
    // The same query, parsed once and cached, still needs the draft permission (read-bulletins):
    // the open read rule shows published bulletins only (CONTRACTS 12).
    await get('/collections/bulletins/entries?status=all', 'admin').expect(200);
    await get('/collections/bulletins/entries?status=all', 'reader').expect(403);
    await get('/collections/bulletins/entries?status=all', 'visitor').expect(401);
    const open = await get('/collections/notices/entries', 'visitor').expect(200);
    expect(open.body.items).toEqual([expect.objectContaining({ text: 'open' })]);
    const keyed = await get('/collections/posts/entries/count', 'key').expect(200);
    expect(keyed.body).toEqual({ total: 5 });
    expect(keyed.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('leaves other methods, HEAD, encoded paths and CORS preflights to Express', async () => {
    const before = served.mock.calls.length;
    await t.http.head(api('/collections/posts/entries')).set(creds.reader).expect(200);
    await t.http.get(api('/collections/po%73ts/entries')).set(creds.reader).expect(200);
    await t.http
      .options(api('/collections/posts/entries'))
      .set('Origin', 'http://localhost:3000')
      .set('Access-Control-Request-Method', 'GET')
      .expect(204);
    await t.http
      .delete(api(`/collections/people/entries/${ids.ann}`))
      .set(creds.reader)
      .expect(403);
    await t.http
      .put(api(`/collections/people/entries/${ids.ann}`))
      .set(creds.admin)
      .send({ name: 'x' })
      .expect(404);
    await t.http.post(api('/collections/people/entries/bulk-delete')).set(creds.reader).send({}).expect(403);
    await t.http.patch(api('/collections/people/entries')).set(creds.reader).send({}).expect(403);
    expect(served.mock.calls.length).toBe(before);
  });

  /** A write through the lane, then the same write with the lane passing it on to Express. */
  async function bothWays(
    method: 'post' | 'patch',
    path: string,
    headers: Record<string, string>,
    body: string,
    type = 'application/json',
  ) {
    const send = () => t.http[method](api(path)).set(headers).set('Content-Type', type).send(body);
    const viaLane = await send();
    const tookIt = taken.mock.results.at(-1)?.value as boolean;
    taken.mockReturnValueOnce(false);
    const viaNest = await send();
    const context = `${Object.keys(headers).join()} ${method} ${path} ${type} ${body}`;
    expect({ context, ...comparableWrite(viaLane) }).toEqual({ context, ...comparableWrite(viaNest) });
    expect(viaLane.status).not.toBe(500);
    return { viaLane, viaNest, tookIt };
  }

  it('answers every create exactly as the Nest route does, for every kind of caller and body', async () => {
    const bodies = [
      '{"name":"Zed"}',
      '{"name":"Zed","unknown":1}',
      '{"name":5}',
      '[1]',
      '"text"',
      '{"name":',
      '',
      '{"name":"NUL \\u0000 inside"}',
    ];
    const posts = [
      JSON.stringify({ title: 'Created', views: 3, author: ids.ann, tags: [ids.bob] }),
      JSON.stringify({ title: 'Published', status: 'published', body: doc(paragraph(text('hi'))) }),
      JSON.stringify({ views: 3 }),
      JSON.stringify({ title: 'Bad ref', author: '00000000-0000-4000-8000-000000000000' }),
    ];
    const cases: Array<[string, string]> = [
      ...bodies.map((b): [string, string] => ['/collections/people/entries', b]),
      ...posts.map((b): [string, string] => ['/collections/posts/entries', b]),
      ['/collections/people/entries?depth=1', '{"name":"Query"}'],
      ['/collections/nothing/entries', '{"name":"Nowhere"}'],
      ['/collections/notices/entries', '{"text":"x"}'],
    ];
    let created = 0;
    for (const headers of Object.values(creds)) {
      for (const [path, body] of cases) {
        const { viaLane, viaNest, tookIt } = await bothWays('post', path, headers, body);
        expect(tookIt).toBe(true);
        if (viaLane.status === 201) {
          created++;
          for (const res of [viaLane, viaNest]) {
            const table = `c_${path.split('/')[2]}`;
            const rows = await t.db.query(`SELECT id FROM "${table}" WHERE id = $1`, [res.body.item.id]);
            expect({ path, body, rows: rows.length }).toEqual({ path, body, rows: 1 });
          }
        }
      }
    }
    // The admin's valid creates: two people, two posts, the query's and the notice.
    expect(created).toBe(6);
  });

  it('answers every update exactly as the Nest route does', async () => {
    const tagOf = async (id: string) =>
      (
        await t.http
          .get(api(`/collections/posts/entries/${id}`))
          .set(creds.admin)
          .expect(200)
      ).headers.etag;
    const cases: Array<[string, string, Record<string, string>?]> = [
      [`/collections/people/entries/${ids.bob}`, '{"name":"Bobby"}'],
      [`/collections/people/entries/${ids.bob.toUpperCase()}`, '{"name":"Bobby"}'],
      [`/collections/people/entries/${ids.bob}`, '{"name":7}'],
      [`/collections/people/entries/${ids.bob}`, '{}'],
      [`/collections/people/entries/${ids.bob}`, '[]'],
      [`/collections/people/entries/${ids.bob}`, '{"name":"x"'],
      [`/collections/posts/entries/${ids.post1}`, '{"views":11}'],
      [`/collections/posts/entries/${ids.post1}`, '{"title":null}'],
      [`/collections/posts/entries/${ids.post1}`, '{"views":12}', { 'If-Match': '"stale"' }],
      [`/collections/posts/entries/${ids.post5}`, '{"status":"published"}'],
      ['/collections/posts/entries/00000000-0000-4000-8000-000000000000', '{"views":1}'],
      ['/collections/posts/entries/not-a-uuid', '{"views":1}'],
      ['/collections/posts/entries/count', '{"views":1}'],
      ['/collections/nothing/entries/00000000-0000-4000-8000-000000000000', '{"views":1}'],
    ];
    for (const [who, headers] of Object.entries(creds)) {
      for (const [path, body, extra] of cases) {
        const { tookIt } = await bothWays('patch', path, { ...headers, ...extra }, body);
        expect({ who, path, tookIt }).toEqual({ who, path, tookIt: true });
      }
    }
    // A current tag passes (and changes with the write), whichever way it is sent.
    for (const pass of [true, false]) {
      if (!pass) {
        taken.mockReturnValueOnce(false);
      }
      const before = await tagOf(ids.post2);
      const res = await t.http
        .patch(api(`/collections/posts/entries/${ids.post2}`))
        .set(creds.admin)
        .set('If-Match', before)
        .send({ views: 21 })
        .expect(200);
      expect(res.headers.etag).toBe(await tagOf(ids.post2));
      expect(res.headers.etag).not.toBe(before);
    }
    const row = await t.db.query(`SELECT views FROM "c_posts" WHERE id = $1`, [ids.post2]);
    expect(row[0].views).toBe(21);
  });

  it('leaves writes of other body types to Express, which answers them', async () => {
    const merge = await bothWays(
      'patch',
      `/collections/people/entries/${ids.ann}`,
      creds.admin,
      '{"name":"Ann"}',
      'application/merge-patch+json',
    );
    expect(merge.tookIt).toBe(false);
    expect(merge.viaLane.status).toBe(200);
    const text = await t.http
      .post(api('/collections/people/entries'))
      .set(creds.admin)
      .set('Content-Type', 'text/plain')
      .send('{"name":"Text"}')
      .expect(415);
    expect(taken.mock.results.at(-1)?.value).toBe(false);
    expect(text.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers CORS reads with the same headers as Express', async () => {
    const path = api('/collections/notices/entries');
    for (const origin of ['http://localhost:3000', 'https://evil.example']) {
      const viaLane = await t.http.get(path).set('Origin', origin);
      const viaNest = await t.http.get(path).set('Origin', origin).set('Content-Length', '0');
      expect(comparable(viaLane)).toEqual(comparable(viaNest));
    }
    const allowed = await t.http.get(path).set('Origin', 'http://localhost:3000').expect(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });

  it('logs its requests like every other route: the same access line, no credentials', async () => {
    await t.http
      .get(api('/collections/posts/entries?limit=1'))
      .set(creds.reader)
      .set('X-Request-Id', 'lane-log-1')
      .expect(200);
    await t.http
      .get(api('/collections/posts/entries?limit=1'))
      .set(creds.reader)
      .set('X-Request-Id', 'lane-log-1-nest')
      .set('Content-Length', '0')
      .expect(200);
    const line = (id: string) => {
      const found = t.logs.records().filter((r) => r.reqId === id);
      expect(found).toHaveLength(1);
      const { time: _t, durationMs: _d, reqId: _r, ...rest } = found[0];
      return rest;
    };
    const lane = line('lane-log-1');
    expect(lane).toMatchObject({
      msg: 'request completed',
      method: 'GET',
      path: api('/collections/posts/entries?limit=1'),
      status: 200,
      principal: { via: 'bearer', userId: expect.any(String) },
    });
    expect(lane).not.toHaveProperty('headers');
    expect(lane).toEqual(line('lane-log-1-nest'));
    expect(t.logs.text()).not.toContain(creds.reader.Authorization.slice(7));
  });

  it('logs its writes like every other route: the same access line', async () => {
    const send = (id: string) =>
      t.http
        .post(api('/collections/people/entries'))
        .set(creds.admin)
        .set('X-Request-Id', id)
        .send({ name: 'Logged' })
        .expect(201);
    await send('lane-write-1');
    expect(taken.mock.results.at(-1)?.value).toBe(true);
    taken.mockReturnValueOnce(false);
    await send('lane-write-1-nest');
    const line = (id: string) => {
      const found = t.logs.records().filter((r) => r.reqId === id);
      expect(found).toHaveLength(1);
      const { time: _t, durationMs: _d, reqId: _r, ...rest } = found[0];
      return rest;
    };
    expect(line('lane-write-1')).toMatchObject({ method: 'POST', status: 201 });
    expect(line('lane-write-1')).toEqual(line('lane-write-1-nest'));
  });
});

describe('content lane with a code-defined write rule', () => {
  let t: TestApp;
  let taken: jest.SpyInstance;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'notes',
            fields: [{ name: 'text', type: 'text' }],
            // A rule function gets Express's request: writes of every collection go through Nest.
            access: { create: ({ user }) => user !== null, update: ({ user }) => user !== null },
          },
          { slug: 'others', fields: [{ name: 'text', type: 'text' }] },
        ],
      },
    });
    taken = jest.spyOn(ContentLane.prototype, 'take');
  });
  afterAll(() => {
    taken.mockRestore();
    return t.close();
  });

  it('leaves every write to Express and still takes reads', async () => {
    const admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    for (const slug of ['notes', 'others']) {
      const created = await t.http
        .post(api(`/collections/${slug}/entries`))
        .set(admin)
        .send({ text: 'a' });
      expect(created.status).toBe(201);
      expect(taken.mock.results.at(-1)?.value).toBe(false);
      await t.http
        .patch(api(`/collections/${slug}/entries/${created.body.item.id}`))
        .set(admin)
        .send({ text: 'b' })
        .expect(200);
      expect(taken.mock.results.at(-1)?.value).toBe(false);
      await t.http
        .get(api(`/collections/${slug}/entries/${created.body.item.id}`))
        .set(admin)
        .expect(200);
      expect(taken.mock.results.at(-1)?.value).toBe(true);
    }
    // Visitors are refused by the rule, through Nest.
    await t.http.post(api('/collections/notes/entries')).send({ text: 'c' }).expect(401);
  });
});
