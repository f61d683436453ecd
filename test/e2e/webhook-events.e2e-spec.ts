import { bearerFor, createUser, PASSWORD } from '../utils/auth';
import { WebhookOutbox } from '../../src/modules/webhooks/webhook-outbox.service';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * The events other modules report to the webhook outbox, in the transaction of their change:
 * which events a write makes (entries, singles, media, users, schema), their data, the endpoint's
 * event and collection filters, one event per entry of a bulk write, and nothing from a change
 * that was refused or rolled back. Read from the outbox tables: delivery is tested on its own.
 */

type Headers = Record<string, string>;

const API = '/admin/api';
const POSTS = `${API}/collections/posts/entries`;

interface Stored {
  type: string;
  data: Record<string, unknown>;
}

describe('webhook events', () => {
  let t: TestApp;
  let admin: Headers;
  let endpoint: string;

  beforeAll(async () => {
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
        singles: [{ slug: 'home', drafts: true, fields: [{ name: 'headline', type: 'text' }] }],
      },
    });
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    // An endpoint subscribed to everything; the address is never reached by these tests' reads.
    const [row] = await t.db.query(
      `INSERT INTO webhook_endpoints (name, url, events, secret) VALUES ('all', 'https://192.0.2.1/hook', '{*}', 'x')
       RETURNING id`,
    );
    endpoint = row.id;
    // What the endpoints API does after a change: writes stop skipping the outbox at once.
    t.app.get(WebhookOutbox).invalidate();
  });

  afterAll(() => t.close());

  /** The events stored since the last call, oldest first (one transaction's in insertion order). */
  const seen = new Set<string>();
  const take = async (): Promise<Stored[]> => {
    const found = await t.db.query(
      `SELECT id, type, payload FROM webhook_events WHERE NOT (id = ANY($1)) ORDER BY created_at, ctid`,
      [[...seen]],
    );
    return found.map(
      (r: { id: string; type: string; payload: { type: string; data: Record<string, unknown> } }) => {
        seen.add(r.id);
        expect(r.payload.type).toBe(r.type);
        return { type: r.type, data: r.payload.data };
      },
    );
  };
  const types = async () => (await take()).map((e) => e.type);
  /** Waits until the delivery worker has made the deliveries of every event (a moment after its commit). */
  const fannedOut = async () => {
    for (let i = 0; i < 100; i++) {
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM webhook_fanout`);
      if (n === 0) {
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('events still waiting for their deliveries after 5 s');
  };

  beforeEach(async () => {
    await take();
  });

  it('an entry: created, updated, published, unpublished, deleted, with its data', async () => {
    const made = await t.http.post(POSTS).set(admin).send({ title: 'Hello', status: 'draft' });
    expect(made.status).toBe(201);
    const id = made.body.item.id as string;
    const created = await take();
    expect(created).toEqual([
      {
        type: 'entry.created',
        data: {
          collection: 'posts',
          id,
          entry: expect.objectContaining({ id, title: 'Hello', status: 'draft' }),
        },
      },
    ]);
    await t.http.patch(`${POSTS}/${id}`).set(admin).send({ title: 'Hello again' }).expect(200);
    expect(await types()).toEqual(['entry.updated']);
    await t.http.patch(`${POSTS}/${id}`).set(admin).send({ status: 'published' }).expect(200);
    expect(await types()).toEqual(['entry.updated', 'entry.published']);
    await t.http.patch(`${POSTS}/${id}`).set(admin).send({ status: 'draft' }).expect(200);
    expect(await types()).toEqual(['entry.updated', 'entry.unpublished']);
    await t.http.delete(`${POSTS}/${id}`).set(admin).expect(200);
    const deleted = await take();
    expect(deleted).toEqual([
      {
        type: 'entry.deleted',
        data: { collection: 'posts', id, entry: expect.objectContaining({ title: 'Hello again' }) },
      },
    ]);
  });

  it('created as published: entry.created then entry.published; a delivery per event and endpoint', async () => {
    const made = await t.http.post(POSTS).set(admin).send({ title: 'Live', status: 'published' });
    expect(made.status).toBe(201);
    expect(await types()).toEqual(['entry.created', 'entry.published']);
    await fannedOut();
    const deliveries = await t.db.query(
      `SELECT d.event FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.endpoint_id = $1 AND e.payload -> 'data' ->> 'id' = $2 ORDER BY d.created_at`,
      [endpoint, made.body.item.id],
    );
    expect(deliveries.map((d: { event: string }) => d.event).sort()).toEqual([
      'entry.created',
      'entry.published',
    ]);
  });

  it('an event goes to the endpoints subscribed when it happened, also when its deliveries are made later', async () => {
    const made = await t.http.post(`${API}/collections/notes/entries`).set(admin).send({ text: 'early' });
    expect(made.status).toBe(201);
    // Right after the commit, before the worker made the deliveries (a moment later): an endpoint
    // created now must not get the event.
    const [late] = await t.db.query(
      `INSERT INTO webhook_endpoints (name, url, events, secret) VALUES ('late', 'https://192.0.2.1/late', '{*}', 'x')
       RETURNING id`,
    );
    try {
      await take();
      await fannedOut();
      const deliveries = await t.db.query(
        `SELECT d.endpoint_id, d.subject FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
          WHERE e.payload -> 'data' ->> 'id' = $1`,
        [made.body.item.id],
      );
      expect(deliveries).toEqual([{ endpoint_id: endpoint, subject: `entry:notes/${made.body.item.id}` }]);
    } finally {
      await t.db.query(`DELETE FROM webhook_endpoints WHERE id = $1`, [late.id]);
    }
  });

  it('a bulk write sends one event per entry', async () => {
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
    await take();
    await t.http
      .post(`${POSTS}/bulk-update`)
      .set(admin)
      .send({ ids, data: { status: 'published' } })
      .expect(200);
    const events = await take();
    expect(events.filter((e) => e.type === 'entry.published').map((e) => e.data.id)).toEqual(
      expect.arrayContaining(ids),
    );
    expect(events.filter((e) => e.type === 'entry.updated')).toHaveLength(3);
    await t.http.post(`${POSTS}/bulk-delete`).set(admin).send({ ids }).expect(200);
    const deleted = await take();
    expect(deleted.map((e) => e.type)).toEqual(['entry.deleted', 'entry.deleted', 'entry.deleted']);
    expect(deleted.map((e) => e.data.id)).toEqual(expect.arrayContaining(ids));
  });

  it('a refused or rolled-back change sends nothing', async () => {
    // Refused by validation.
    await t.http.post(POSTS).set(admin).send({ title: 42 }).expect(400);
    // Refused by the database, inside the transaction: a repeated unique value.
    await t.http.post(POSTS).set(admin).send({ title: 'Unique', slug: 'same' }).expect(201);
    await take();
    await t.http
      .post(POSTS)
      .set(admin)
      .send({ title: 'Unique again', slug: 'same', status: 'published' })
      .expect(409);
    // Refused half-way: a bulk update that would publish without the right rolls back whole.
    expect(await types()).toEqual([]);
  });

  it('a single: single.updated and single.published', async () => {
    await t.http.patch(`${API}/singles/home`).set(admin).send({ headline: 'Hi' }).expect(200);
    expect(await types()).toEqual(['single.updated']);
    await t.http.patch(`${API}/singles/home`).set(admin).send({ status: 'published' }).expect(200);
    const events = await take();
    expect(events.map((e) => e.type)).toEqual(['single.updated', 'single.published']);
    expect(events[1].data).toEqual({ single: 'home', entry: expect.objectContaining({ headline: 'Hi' }) });
  });

  it('users: created, updated, deactivated, activated, password-changed, deleted; never a hash', async () => {
    const made = await t.http
      .post(`${API}/users`)
      .set(admin)
      .send({ email: 'hook-user@example.com', name: 'Hook', password: PASSWORD });
    expect(made.body).toEqual(expect.objectContaining({ item: expect.anything() }));
    expect(made.status).toBe(201);
    const id = made.body.item.id;
    const created = await take();
    expect(created.map((e) => e.type)).toEqual(['user.created']);
    expect(created[0].data.user).toMatchObject({ id, email: 'hook-user@example.com', name: 'Hook' });
    expect(JSON.stringify(created[0].data)).not.toMatch(/\$2[aby]\$|password/i);
    await t.http.patch(`${API}/users/${id}`).set(admin).send({ name: 'Hooked' }).expect(200);
    expect(await types()).toEqual(['user.updated']);
    await t.http.patch(`${API}/users/${id}`).set(admin).send({ isActive: false }).expect(200);
    expect(await types()).toEqual(['user.deactivated']);
    await t.http.patch(`${API}/users/${id}`).set(admin).send({ isActive: true }).expect(200);
    expect(await types()).toEqual(['user.activated']);
    await t.http
      .patch(`${API}/users/${id}/password`)
      .set(admin)
      .send({ password: 'Another-Horse-7' })
      .expect((res) => expect([200, 204]).toContain(res.status));
    expect(await types()).toEqual(['user.password-changed']);
    await t.http.delete(`${API}/users/${id}`).set(admin).expect(200);
    const deleted = await take();
    expect(deleted).toEqual([
      { type: 'user.deleted', data: { user: expect.objectContaining({ id, name: 'Hooked' }) } },
    ]);
  });

  it('schema.applied names the target, the slug and the changes', async () => {
    await t.http
      .post(`${API}/collections`)
      .set(admin)
      .send({ slug: 'events-made', fields: [{ name: 'title', type: 'text' }] })
      .expect(201);
    const events = await take();
    expect(events).toEqual([
      {
        type: 'schema.applied',
        data: {
          target: 'collection',
          slug: 'events-made',
          changes: [expect.objectContaining({ kind: 'add', field: 'title' })],
        },
      },
    ]);
  });

  it('an endpoint gets only the events and collections it subscribed to', async () => {
    await t.db.query(`UPDATE webhook_endpoints SET enabled = false WHERE id = $1`, [endpoint]);
    const [narrow] = await t.db.query(
      `INSERT INTO webhook_endpoints (name, url, events, collections, secret)
       VALUES ('narrow', 'https://192.0.2.1/narrow', '{entry.created}', '{notes}', 'x') RETURNING id`,
    );
    // The write path checks for enabled endpoints through a short-lived cache.
    await new Promise((r) => setTimeout(r, 1100));
    await t.http.post(`${API}/collections/notes/entries`).set(admin).send({ text: 'n' }).expect(201);
    await t.http.post(POSTS).set(admin).send({ title: 'not for narrow' }).expect(201);
    const made = await take();
    expect(made.map((e) => e.type)).toEqual(['entry.created']);
    expect(made[0].data.collection).toBe('notes');
    await fannedOut();
    const deliveries = await t.db.query(
      `SELECT d.endpoint_id FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE e.payload -> 'data' ->> 'id' = $1`,
      [made[0].data.id],
    );
    expect(deliveries.map((d: { endpoint_id: string }) => d.endpoint_id)).toEqual([narrow.id]);
    await t.db.query(`UPDATE webhook_endpoints SET enabled = true WHERE id = $1`, [endpoint]);
    await t.db.query(`DELETE FROM webhook_endpoints WHERE id = $1`, [narrow.id]);
  });
});
