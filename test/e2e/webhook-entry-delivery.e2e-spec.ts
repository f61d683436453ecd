import { Webhook } from 'standardwebhooks';
import pg from 'pg';
import { doc, paragraph, text } from '../utils/lexical';
import { bearerFor, createUser } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';
import { WebhookReceiver } from '../utils/webhook-receiver';

/**
 * Content changes reach a real receiver on loopback as a receiver sees them: signed requests
 * verified by the `standardwebhooks` library, in the order they happened, one per entry of a bulk
 * write, none for a change that rolled back.
 */

const API = '/admin/api';
const POSTS = `${API}/collections/posts/entries`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('webhooks: content events delivered', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let admin: Record<string, string>;
  let secret: string;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'posts',
            drafts: true,
            fields: [
              { name: 'title', type: 'text', required: true },
              { name: 'slug', type: 'text', unique: true },
            ],
          },
          { slug: 'notes', fields: [{ name: 'text', type: 'text' }] },
        ],
        webhooks: { allowPrivateNetworks: true },
      },
    });
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    const made = await t.http
      .post(`${API}/webhooks`)
      .set(admin)
      .send({
        name: 'site',
        url: receiver.url('/posts'),
        events: ['entry.created', 'entry.published', 'entry.deleted'],
        collections: ['posts'],
      });
    expect(made.status).toBe(201);
    secret = made.body.secret;
  });

  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const verified = (count: number) =>
    receiver.waitFor('/posts', count).then((all) =>
      all.map(
        (r) =>
          new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as {
            type: string;
            data: { collection: string; id: string; entry: Record<string, unknown> };
          },
      ),
    );

  it('a create as published: entry.created then entry.published, signed, with the entry', async () => {
    const res = await t.http.post(POSTS).set(admin).send({ title: 'Hello', status: 'published' });
    expect(res.status).toBe(201);
    const events = await verified(2);
    expect(events.map((e) => e.type)).toEqual(['entry.created', 'entry.published']);
    expect(events[0].data).toEqual({
      collection: 'posts',
      id: res.body.item.id,
      entry: expect.objectContaining({ id: res.body.item.id, title: 'Hello', status: 'published' }),
    });
    const ids = receiver.at('/posts').map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(2);
  });

  it('a rolled-back change and another collection send nothing; a bulk write one per entry', async () => {
    const before = receiver.at('/posts').length;
    await t.http.post(POSTS).set(admin).send({ title: 'One', slug: 'same' }).expect(201);
    await t.http.post(POSTS).set(admin).send({ title: 'Two', slug: 'same', status: 'published' }).expect(409);
    // A draft: the row and its event are one statement, which fails whole.
    await t.http.post(POSTS).set(admin).send({ title: 'Three', slug: 'same' }).expect(409);
    await t.http
      .post(`${API}/collections/notes/entries`)
      .set(admin)
      .send({ text: 'not subscribed' })
      .expect(201);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (
          await t.http
            .post(POSTS)
            .set(admin)
            .send({ title: `Bulk ${i}` })
            .expect(201)
        ).body.item.id,
      );
    }
    await t.http
      .post(`${POSTS}/bulk-update`)
      .set(admin)
      .send({ ids, data: { status: 'published' } })
      .expect(200);
    // 'One' created, three created, three published.
    const all = await verified(before + 7);
    await sleep(1500);
    expect(receiver.at('/posts')).toHaveLength(before + 7);
    const later = all.slice(before);
    expect(later.filter((e) => e.type === 'entry.created').map((e) => e.data.entry.title)).toEqual([
      'One',
      'Bulk 0',
      'Bulk 1',
      'Bulk 2',
    ]);
    expect(
      later
        .filter((e) => e.type === 'entry.published')
        .map((e) => e.data.id)
        .sort(),
    ).toEqual([...ids].sort());
  });

  it('an entry of every field type: each event carries exactly the entry its create answered', async () => {
    await t.http
      .post(`${API}/field-groups`)
      .set(admin)
      .send({
        slug: 'seo',
        fields: [
          { name: 'metaTitle', type: 'text' },
          { name: 'rank', type: 'number' },
          { name: 'at', type: 'date' },
        ],
      })
      .expect(201);
    await t.http
      .post(`${API}/collections`)
      .set(admin)
      .send({
        slug: 'kinds',
        drafts: true,
        fields: [
          { name: 'title', type: 'text' },
          { name: 'summary', type: 'textarea' },
          { name: 'contact', type: 'email' },
          { name: 'score', type: 'number' },
          { name: 'level', type: 'number', defaultValue: 3 },
          { name: 'label', type: 'text', defaultValue: 'plain' },
          { name: 'done', type: 'checkbox' },
          { name: 'due', type: 'date' },
          { name: 'kind', type: 'select', options: ['news', 'blog'] },
          { name: 'tags', type: 'select', options: ['a', 'b', 'c'], hasMany: true },
          { name: 'extra', type: 'json' },
          { name: 'body', type: 'richText' },
          { name: 'note', type: 'relationship', relationTo: 'notes' },
          { name: 'notes', type: 'relationship', relationTo: 'notes', hasMany: true },
          { name: 'seo', type: 'component', fieldGroup: 'seo' },
          { name: 'links', type: 'component', fieldGroup: 'seo', repeatable: true },
        ],
      })
      .expect(201);
    await t.http
      .post(`${API}/webhooks`)
      .set(admin)
      .send({ name: 'kinds', url: receiver.url('/kinds'), events: ['entry.created'], collections: ['kinds'] })
      .expect(201);
    const note = (
      await t.http.post(`${API}/collections/notes/entries`).set(admin).send({ text: 'n' }).expect(201)
    ).body.item.id;
    const bodies: Array<Record<string, unknown>> = [
      {},
      {
        title: 'All of them',
        summary: 'line one\nline two ü 💡 "quoted" \\ back',
        contact: 'a@example.com',
        score: 1 / 3,
        level: -0.1,
        label: '',
        done: false,
        due: '2026-01-02T03:04:05.291Z',
        kind: 'blog',
        tags: ['c', 'a'],
        extra: { nested: [1, 'two', null, { deep: true }], n: 1e21 },
        body: doc(paragraph(text('Hi', 1))),
        seo: { metaTitle: 'M', rank: 2.5, at: '0999-12-31T23:59:59.999Z' },
        links: [{ metaTitle: 'one' }, { metaTitle: 'two', rank: 0 }],
      },
      {
        title: null,
        tags: [],
        extra: null,
        seo: null,
        links: [],
        due: '2026-06-30T12:00:00Z',
        score: 12345678.9,
      },
      // References: checked in a transaction, the events written the other way.
      { title: 'With references', note, notes: [note] },
      ...Array.from({ length: 12 }, (_, i) => ({ title: `Many ${i}`, score: i * 0.7 })),
    ];
    const answers: Array<Record<string, unknown>> = [];
    for (const b of bodies) {
      const res = await t.http.post(`${API}/collections/kinds/entries`).set(admin).send(b);
      expect(res.status).toBe(201);
      answers.push(res.body.item);
    }
    const got = (await receiver.waitFor('/kinds', bodies.length)).map(
      (r) => JSON.parse(r.body) as { type: string; data: { collection: string; id: string; entry: unknown } },
    );
    for (const answer of answers) {
      const event = got.find((e) => e.data.id === answer.id);
      expect(event).toEqual({
        type: 'entry.created',
        timestamp: expect.any(String),
        data: { collection: 'kinds', id: answer.id, entry: answer },
      });
    }
    // A create with nothing to check writes its row and its event in one statement.
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    let statements: string[];
    try {
      await t.http
        .post(`${API}/collections/kinds/entries`)
        .set(admin)
        .send({ title: 'One statement' })
        .expect(201);
    } finally {
      statements = spy.mock.calls
        .map((c) => (typeof c[0] === 'string' ? c[0] : String((c[0] as { text?: unknown }).text)))
        // The delivery worker's own fan-out statement may run meanwhile; only this request's count.
        .filter((sql) => /c_kinds|INSERT INTO webhook_events/.test(sql));
      spy.mockRestore();
    }
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/INSERT INTO "c_kinds"[\s\S]*INSERT INTO webhook_events/);
    await receiver.waitFor('/kinds', bodies.length + 1);
  });
});
