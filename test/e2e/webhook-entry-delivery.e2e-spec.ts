import { Webhook } from 'standardwebhooks';
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
});
