import { Webhook } from 'standardwebhooks';
import type { SvcConfig } from '../../src/config/config.types';
import { SERVICE_VERSION } from '../../src/common/version';
import { WebhookOutbox } from '../../src/modules/webhooks/webhook-outbox.service';
import { bearerFor, createUser, userWithPermissions } from '../utils/auth';
import { createTestApp, type TestApp } from '../utils/test-app';
import { answer, hold, type Received, WebhookReceiver } from '../utils/webhook-receiver';

const API = '/admin/api';
const RETRY = { attempts: 4, baseDelayMs: 200 };
const CONFIG: SvcConfig = {
  webhooks: { allowPrivateNetworks: true, retry: RETRY, timeoutMs: 500, disableAfterFailures: 3 },
};

type Method = 'get' | 'post' | 'patch' | 'delete';
type Headers = Record<string, string>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await sleep(25);
  }
}

/** The Standard Webhooks headers of a received request, as the library takes them. */
const signed = (r: Received): Headers => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

const verifies = (secret: string, r: Received): boolean => {
  try {
    new Webhook(secret).verify(r.body, signed(r));
    return true;
  } catch {
    return false;
  }
};

describe('outbound webhooks (a real receiver on loopback)', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let admin: Headers;
  let pathCounter = 0;

  const api = (method: Method, path: string, body?: object, auth: Headers | null = admin, app = t) => {
    let req = app.http[method](`${API}${path}`);
    if (auth) {
      req = req.set(auth);
    }
    return body === undefined ? req : req.send(body);
  };

  /** An endpoint on a fresh receiver path; answers the record, the secret and the path. */
  async function endpoint(over: Record<string, unknown> = {}, app = t, auth = admin) {
    const path = `/hook-${++pathCounter}`;
    const res = await api(
      'post',
      '/webhooks',
      { name: `Hook ${pathCounter}`, url: receiver.url(path), events: ['webhook.test'], ...over },
      auth,
      app,
    );
    expect(res.status).toBe(201);
    return { id: res.body.item.id as string, secret: res.body.secret as string, path, item: res.body.item };
  }

  const sendTest = async (id: string, app = t, auth = admin): Promise<string> => {
    const res = await api('post', `/webhooks/${id}/test`, undefined, auth, app);
    expect(res.status).toBe(202);
    return res.body.eventId as string;
  };

  const deliveries = async (id: string, query = '', app = t, auth = admin) =>
    (await api('get', `/webhooks/${id}/deliveries${query}`, undefined, auth, app).expect(200)).body as {
      items: Array<Record<string, unknown>>;
      meta: Record<string, unknown>;
    };

  /** The endpoint's delivery of `eventId` once it is no longer pending (with its attempts). */
  async function settled(id: string, eventId: string, app = t, auth = admin) {
    const found = await until(`the delivery of ${eventId}`, async () => {
      const items = (await deliveries(id, '?limit=100', app, auth)).items;
      return items.find((d) => d.eventId === eventId && d.status !== 'pending');
    });
    return (
      await api('get', `/webhooks/${id}/deliveries/${found.id as string}`, undefined, auth, app).expect(200)
    ).body as Record<string, unknown> & {
      attemptsLog: Array<{
        at: string;
        statusCode?: number;
        error?: string;
        durationMs: number;
        responseBody?: string;
      }>;
      payload: Record<string, unknown>;
    };
  }

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({ config: CONFIG });
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  describe('access', () => {
    it('answers 401 to a visitor and 403 without the permission', async () => {
      const { id } = await endpoint();
      const delivery = await settled(id, await sendTest(id));
      const routes: Array<[Method, string, string]> = [
        ['get', '/webhooks', 'read-webhooks'],
        ['post', '/webhooks', 'create-webhooks'],
        ['get', `/webhooks/${id}`, 'read-webhooks'],
        ['patch', `/webhooks/${id}`, 'update-webhooks'],
        ['delete', `/webhooks/${id}`, 'delete-webhooks'],
        ['post', `/webhooks/${id}/rotate-secret`, 'update-webhooks'],
        ['post', `/webhooks/${id}/test`, 'update-webhooks'],
        ['get', `/webhooks/${id}/deliveries`, 'read-webhooks'],
        ['get', `/webhooks/${id}/deliveries/${delivery.id as string}`, 'read-webhooks'],
        ['post', `/webhooks/${id}/deliveries/${delivery.id as string}/replay`, 'update-webhooks'],
      ];
      const reader = await bearerFor(t, (await userWithPermissions(t, ['read-webhooks'])).id);
      const nobody = await bearerFor(t, (await userWithPermissions(t, [])).id);
      for (const [method, path, permission] of routes) {
        const body = method === 'post' || method === 'patch' ? {} : undefined;
        const visitor = await api(method, path, body, null);
        expect([method, path, visitor.status, visitor.body.error?.code]).toEqual([
          method,
          path,
          401,
          'AUTH_REQUIRED',
        ]);
        const refused = await api(method, path, body, nobody);
        expect([method, path, refused.status]).toEqual([method, path, 403]);
        const asReader = await api(method, path, body, reader);
        if (permission === 'read-webhooks') {
          expect([method, path, asReader.status]).toEqual([method, path, 200]);
        } else {
          expect([method, path, asReader.status]).toEqual([method, path, 403]);
        }
      }
      // Each permission opens its routes.
      const creator = await bearerFor(t, (await userWithPermissions(t, ['create-webhooks'])).id);
      const made = await endpoint({}, t, creator);
      const updater = await bearerFor(t, (await userWithPermissions(t, ['update-webhooks'])).id);
      await api('patch', `/webhooks/${made.id}`, { name: 'Renamed' }, updater).expect(200);
      expect((await api('post', `/webhooks/${made.id}/test`, undefined, updater)).status).toBe(202);
      const deleter = await bearerFor(t, (await userWithPermissions(t, ['delete-webhooks'])).id);
      await api('delete', `/webhooks/${made.id}`, undefined, deleter).expect(200);
    });
  });

  describe('endpoints', () => {
    it('creates, reads, lists, updates and deletes; the secret is shown once and stored sealed', async () => {
      const path = '/crud';
      const created = await api('post', '/webhooks', {
        name: '  Site rebuild ',
        url: receiver.url(path),
        events: ['entry.published', 'entry.unpublished', 'entry.published'],
        collections: ['posts'],
        description: 'Rebuilds the static site',
      });
      expect(created.status).toBe(201);
      const { item, secret } = created.body;
      expect(created.body.message).toEqual(expect.any(String));
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
      expect(item).toEqual({
        id: expect.any(String),
        name: 'Site rebuild',
        url: receiver.url(path),
        events: ['entry.published', 'entry.unpublished'],
        collections: ['posts'],
        enabled: true,
        description: 'Rebuilds the static site',
        failureCount: 0,
        disabledReason: null,
        lastDeliveryAt: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });

      const read = await api('get', `/webhooks/${item.id}`).expect(200);
      expect(read.body).toEqual(item);
      expect(read.text).not.toContain(secret.slice(6));
      const list = await api('get', '/webhooks?search=rebuild').expect(200);
      expect(list.body.items).toEqual([item]);
      expect(list.text).not.toContain(secret.slice(6));
      const [stored] = await t.db.query(`SELECT secret FROM webhook_endpoints WHERE id = $1`, [item.id]);
      expect(stored.secret).toMatch(/^v1:/);
      expect(stored.secret).not.toContain(secret.slice(6));
      expect(stored.secret).not.toContain(Buffer.from(secret.slice(6), 'base64').toString('hex'));

      const patched = await api('patch', `/webhooks/${item.id}`, {
        events: ['*'],
        collections: null,
        description: null,
        enabled: false,
      }).expect(200);
      expect(patched.body.item).toMatchObject({
        events: ['*'],
        collections: null,
        description: null,
        enabled: false,
        disabledReason: null,
        name: 'Site rebuild',
      });
      expect(patched.body).not.toHaveProperty('secret');

      const removed = await api('delete', `/webhooks/${item.id}`).expect(200);
      expect(removed.body.item.id).toBe(item.id);
      await api('get', `/webhooks/${item.id}`).expect(404);
      await api('delete', `/webhooks/${item.id}`).expect(404);
      await api('get', '/webhooks/not-an-id').expect(404);
      // The audit log says what was done, never the secret.
      const audit = await t.db.query(`SELECT metadata FROM audit_log WHERE target = $1 ORDER BY id`, [
        `webhook:${item.id}`,
      ]);
      expect(audit.map((r: { metadata: { action: string } }) => r.metadata.action)).toEqual([
        'webhook-created',
        'webhook-updated',
        'webhook-deleted',
      ]);
      expect(JSON.stringify(audit)).not.toContain(secret.slice(6));
      expect(t.logs.text()).not.toContain(secret.slice(6));
    });

    it('refuses unknown events, bad URLs and bad collection slugs (400 VALIDATION_ERROR)', async () => {
      const base = { name: 'Bad', url: receiver.url('/bad'), events: ['webhook.test'] };
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ events: ['entry.exploded'] }, 'events'],
        [{ events: [] }, 'events'],
        [{ url: 'ftp://example.com/hook' }, 'url'],
        [{ url: 'not a url' }, 'url'],
        [{ url: 'javascript:alert(1)' }, 'url'],
        [{ collections: ['Not A Slug'] }, 'collections'],
        [{ enabled: null }, 'enabled'],
        [{ secret: 'whsec_mine' }, 'secret'],
      ];
      for (const [over, path] of cases) {
        const res = await api('post', '/webhooks', { ...base, ...over });
        expect([over, res.status, res.body.error?.code]).toEqual([over, 400, 'VALIDATION_ERROR']);
        expect(res.body.error.data.errors.map((e: { path: string }) => e.path)).toContain(path);
      }
      const { id } = await endpoint();
      const res = await api('patch', `/webhooks/${id}`, { events: ['*', 'nope'] });
      expect(res.status).toBe(400);
    });

    it('keeps the URL as the URL parser writes it (an address literal is allowed here)', async () => {
      const res = await api('post', '/webhooks', {
        name: 'Literal',
        url: 'http://2130706433:9/x',
        events: ['*'],
      });
      expect(res.status).toBe(201);
      expect(res.body.item.url).toBe('http://127.0.0.1:9/x');
      await api('delete', `/webhooks/${res.body.item.id}`).expect(200);
    });
  });

  describe('delivery', () => {
    it('sends a test event the standardwebhooks library verifies, and logs the attempt', async () => {
      const { id, secret, path } = await endpoint({ events: ['entry.created'], collections: ['nothing'] });
      const eventId = await sendTest(id);
      expect(eventId).toMatch(/^msg_[a-z2-7]{26}$/);
      const [got] = await receiver.waitFor(path, 1);
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['user-agent']).toBe(`svc-webhooks/${SERVICE_VERSION}`);
      expect(got.headers['webhook-id']).toBe(eventId);
      expect(Math.abs(Number(got.headers['webhook-timestamp']) - got.at / 1000)).toBeLessThan(2);
      expect(String(got.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      const payload = new Webhook(secret).verify(got.body, signed(got));
      expect(payload).toEqual({
        type: 'webhook.test',
        timestamp: expect.any(String),
        data: { webhookId: id },
      });
      expect(Object.keys(JSON.parse(got.body))).toEqual(['type', 'timestamp', 'data']);

      const delivery = await settled(id, eventId);
      expect(delivery).toEqual({
        id: expect.any(String),
        endpointId: id,
        eventId,
        event: 'webhook.test',
        status: 'succeeded',
        attempts: 1,
        lastStatusCode: 200,
        lastError: null,
        nextAttemptAt: null,
        createdAt: expect.any(String),
        deliveredAt: expect.any(String),
        attemptsLog: [
          { at: expect.any(String), statusCode: 200, durationMs: expect.any(Number), responseBody: 'ok' },
        ],
        payload: JSON.parse(got.body),
      });
      const after = (await api('get', `/webhooks/${id}`).expect(200)).body;
      expect(after.lastDeliveryAt).toEqual(expect.any(String));
      expect(after.failureCount).toBe(0);
    });

    it('signs later attempts with a rotated secret only', async () => {
      const { id, secret, path } = await endpoint();
      let rotated = '';
      receiver.on(path, async (_req, res, _body, n) => {
        if (n === 1) {
          // Rotated between the first attempt and its retry.
          rotated = (await api('post', `/webhooks/${id}/rotate-secret`).expect(200)).body.secret;
          res.writeHead(500).end('not yet');
        } else {
          res.writeHead(204).end();
        }
      });
      const eventId = await sendTest(id);
      const [first, second] = await receiver.waitFor(path, 2);
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      expect([verifies(secret, first), verifies(rotated, first)]).toEqual([true, false]);
      expect([verifies(secret, second), verifies(rotated, second)]).toEqual([false, true]);
      expect(second.headers['webhook-id']).toBe(eventId);
      const delivery = await settled(id, eventId);
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2, lastStatusCode: 204 });
      // A test event after the rotation, too.
      const next = await sendTest(id);
      const [, , third] = await receiver.waitFor(path, 3);
      expect(third.headers['webhook-id']).toBe(next);
      expect([verifies(secret, third), verifies(rotated, third)]).toEqual([false, true]);
    });

    /** The pauses between the end of an attempt and the start of the next. */
    const gaps = (log: Array<{ at: string; durationMs: number }>) =>
      log.slice(1).map((a, i) => Date.parse(a.at) - (Date.parse(log[i].at) + log[i].durationMs));

    const expectGrowingDelays = (log: Array<{ at: string; durationMs: number }>) => {
      const pauses = gaps(log);
      expect(pauses).toHaveLength(RETRY.attempts - 1);
      pauses.forEach((p, i) => {
        // baseDelayMs * 2^(n-1), -20% at worst (and a millisecond of rounding).
        expect(p).toBeGreaterThanOrEqual(0.8 * RETRY.baseDelayMs * 2 ** i - 2);
      });
      for (let i = 1; i < pauses.length; i++) {
        expect(pauses[i]).toBeGreaterThan(pauses[i - 1]);
      }
    };

    it('retries after 500 with growing delays, the same webhook-id and a fresh timestamp each time', async () => {
      const { id, secret, path } = await endpoint();
      receiver.on(path, answer(500, 'broken'));
      const eventId = await sendTest(id);
      const pending = await until('a pending retry', async () =>
        (await deliveries(id)).items.find((d) => d.status === 'pending' && (d.attempts as number) >= 1),
      );
      expect(pending).toMatchObject({
        lastStatusCode: 500,
        lastError: 'HTTP 500',
        nextAttemptAt: expect.any(String),
      });
      const delivery = await settled(id, eventId);
      expect(delivery).toMatchObject({
        status: 'failed',
        attempts: 4,
        lastStatusCode: 500,
        lastError: 'HTTP 500',
      });
      expect(delivery.nextAttemptAt).toBeNull();
      expect(delivery.attemptsLog.map((a) => [a.statusCode, a.error, a.responseBody])).toEqual(
        Array(4).fill([500, 'HTTP 500', 'broken']),
      );
      expectGrowingDelays(delivery.attemptsLog);
      const got = receiver.at(path);
      expect(got).toHaveLength(4);
      expect(new Set(got.map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));
      const stamps = got.map((r) => Number(r.headers['webhook-timestamp']));
      got.forEach((r, i) => expect(Math.abs(stamps[i] - r.at / 1000)).toBeLessThan(2));
      // The attempts span more than a second: the last one's timestamp is a later one.
      expect(stamps[3]).toBeGreaterThan(stamps[0]);
      got.forEach((r) => expect(verifies(secret, r)).toBe(true));
      expect((await api('get', `/webhooks/${id}`).expect(200)).body.failureCount).toBe(1);
    });

    it('retries after a timeout with growing delays', async () => {
      const { id, path } = await endpoint();
      receiver.on(path, hold);
      const eventId = await sendTest(id);
      const delivery = await settled(id, eventId);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 4, lastStatusCode: null });
      expect(delivery.attemptsLog.map((a) => a.error)).toEqual(Array(4).fill('timed out after 500 ms'));
      delivery.attemptsLog.forEach((a) => {
        expect(a.statusCode).toBeUndefined();
        expect(a.durationMs).toBeGreaterThanOrEqual(490);
      });
      expectGrowingDelays(delivery.attemptsLog);
      expect(new Set(receiver.at(path).map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));
    });

    it('410 Gone fails the delivery and disables the endpoint at once', async () => {
      const { id, path } = await endpoint();
      receiver.on(path, answer(410));
      const eventId = await sendTest(id);
      const delivery = await settled(id, eventId);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 410 });
      const after = (await api('get', `/webhooks/${id}`).expect(200)).body;
      expect(after).toMatchObject({
        enabled: false,
        failureCount: 1,
        disabledReason: expect.stringContaining('410'),
      });
      // Nothing more goes to it.
      const next = await sendTest(id);
      const dropped = await settled(id, next);
      expect(dropped).toMatchObject({ status: 'failed', attempts: 0, lastError: 'The endpoint is disabled' });
      expect(receiver.at(path)).toHaveLength(1);
    });

    it('disables after deliveries failed in a row; a disabled endpoint gets nothing; enabling resets the run', async () => {
      const { id, path } = await endpoint();
      receiver.on(path, answer(503));
      // A success resets the run first.
      const events = [await sendTest(id), await sendTest(id)];
      for (const e of events) {
        await settled(id, e);
      }
      expect((await api('get', `/webhooks/${id}`).expect(200)).body).toMatchObject({
        enabled: true,
        failureCount: 2,
      });
      receiver.on(path, answer(200));
      await settled(id, await sendTest(id));
      expect((await api('get', `/webhooks/${id}`).expect(200)).body.failureCount).toBe(0);

      receiver.on(path, answer(503));
      const failing = await Promise.all([sendTest(id), sendTest(id), sendTest(id)]);
      for (const e of failing) {
        await settled(id, e);
      }
      const disabled = (await api('get', `/webhooks/${id}`).expect(200)).body;
      expect(disabled).toMatchObject({
        enabled: false,
        failureCount: 3,
        disabledReason: '3 deliveries failed in a row',
      });
      const before = receiver.at(path).length;
      receiver.on(path, answer(200));
      const ignored = await sendTest(id);
      expect(await settled(id, ignored)).toMatchObject({ status: 'failed', attempts: 0 });
      expect(receiver.at(path)).toHaveLength(before);

      const enabled = await api('patch', `/webhooks/${id}`, { enabled: true }).expect(200);
      expect(enabled.body.item).toMatchObject({ enabled: true, failureCount: 0, disabledReason: null });
      // The event of the disabled time stays undelivered; a new one goes.
      const fresh = await sendTest(id);
      expect(await settled(id, fresh)).toMatchObject({ status: 'succeeded' });
      expect(receiver.at(path).map((r) => r.headers['webhook-id'])).not.toContain(ignored);
    });

    it('does not follow a redirect: a 3xx is a failed attempt', async () => {
      const { id, path } = await endpoint();
      receiver.on(path, answer(302, '', { location: receiver.url('/redirect-target') }));
      const eventId = await sendTest(id);
      const delivery = await settled(id, eventId);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 4, lastStatusCode: 302 });
      expect(delivery.lastError).toMatch(/^HTTP 302: redirects are not followed/);
      expect(receiver.at('/redirect-target')).toHaveLength(0);
    });

    it('reads at most 64 KiB of an answer and keeps 2 KiB', async () => {
      const { id, path } = await endpoint();
      const chunk = Buffer.alloc(64 * 1024, 'x');
      let written = 0;
      let closedEarly = false;
      receiver.on(path, async (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(16 * chunk.length) });
        res.on('close', () => {
          closedEarly = !res.writableFinished;
        });
        // 1 MiB, a chunk at a time: the client hangs up after the first 64 KiB.
        for (let i = 0; i < 16 && !res.destroyed; i++) {
          const ok = await new Promise<boolean>((resolve) => res.write(chunk, (e) => resolve(!e)));
          if (!ok) {
            break;
          }
          written++;
          await sleep(20);
        }
        res.end();
      });
      const delivery = await settled(id, await sendTest(id));
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 200 });
      expect(delivery.attemptsLog[0].responseBody).toBe('x'.repeat(2048));
      await until('the connection to close', async () => closedEarly);
      expect(written).toBeLessThan(16);
    });

    it('replays a delivery with the same webhook-id', async () => {
      const { id, secret, path } = await endpoint();
      const eventId = await sendTest(id);
      const first = await settled(id, eventId);
      const res = await api('post', `/webhooks/${id}/deliveries/${first.id as string}/replay`);
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ message: expect.any(String), deliveryId: expect.any(String) });
      expect(res.body.deliveryId).not.toBe(first.id);
      const [a, b] = await receiver.waitFor(path, 2);
      expect([a.headers['webhook-id'], b.headers['webhook-id']]).toEqual([eventId, eventId]);
      expect(JSON.parse(b.body)).toEqual(JSON.parse(a.body));
      expect(verifies(secret, b)).toBe(true);
      const replayed = await until('the replay to succeed', async () => {
        const d = await api('get', `/webhooks/${id}/deliveries/${res.body.deliveryId as string}`).expect(200);
        return d.body.status === 'succeeded' && d.body;
      });
      expect(replayed).toMatchObject({ eventId, attempts: 1 });
      expect((await deliveries(id)).items.map((d) => d.eventId)).toEqual([eventId, eventId]);
      // Another endpoint's delivery, or none at all: 404.
      const other = await endpoint();
      await api('post', `/webhooks/${other.id}/deliveries/${first.id as string}/replay`).expect(404);
      await api('get', `/webhooks/${other.id}/deliveries/${first.id as string}`).expect(404);
      await api('post', `/webhooks/${id}/deliveries/00000000-0000-4000-8000-000000000000/replay`).expect(404);
    });

    it('drops pending deliveries when the endpoint is deleted', async () => {
      const { id, path } = await endpoint();
      receiver.on(path, answer(500));
      await sendTest(id);
      await receiver.waitFor(path, 1);
      await until('the retry to be scheduled', async () =>
        (await deliveries(id)).items.some((d) => d.status === 'pending' && (d.attempts as number) >= 1),
      );
      await api('delete', `/webhooks/${id}`).expect(200);
      const [left] = await t.db.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1`,
        [id],
      );
      expect(left.n).toBe(0);
      // An attempt under way when it was deleted ends within the timeout; then nothing more comes.
      await sleep(600);
      const made = receiver.at(path).length;
      expect(made).toBeLessThan(RETRY.attempts);
      await sleep(8 * RETRY.baseDelayMs);
      expect(receiver.at(path)).toHaveLength(made);
      await api('get', `/webhooks/${id}/deliveries`).expect(404);
    });

    it('lists deliveries newest first, filtered by status and event, in pages', async () => {
      const { id, path } = await endpoint();
      const ok = [await sendTest(id), await sendTest(id)];
      for (const e of ok) {
        await settled(id, e);
      }
      receiver.on(path, answer(400));
      const failed = await sendTest(id);
      await settled(id, failed);

      const all = await deliveries(id);
      expect(all.items.map((d) => d.eventId)).toEqual([failed, ok[1], ok[0]]);
      expect(all.meta).toMatchObject({ total: 3, page: 1, hasNext: false });
      expect((await deliveries(id, '?status=failed')).items.map((d) => d.eventId)).toEqual([failed]);
      expect((await deliveries(id, '?status=succeeded')).items.map((d) => d.eventId)).toEqual([ok[1], ok[0]]);
      expect((await deliveries(id, '?status=pending')).items).toEqual([]);
      expect((await deliveries(id, '?event=webhook.test')).meta.total).toBe(3);
      expect((await deliveries(id, '?event=entry.created,user.created')).meta.total).toBe(0);
      const page1 = await deliveries(id, '?limit=2');
      expect(page1.items.map((d) => d.eventId)).toEqual([failed, ok[1]]);
      expect(page1.meta).toMatchObject({ total: 3, totalPages: 2, hasNext: true });
      const page2 = await deliveries(id, '?limit=2&page=2');
      expect(page2.items.map((d) => d.eventId)).toEqual([ok[0]]);
      for (const query of ['?status=lost', '?event=entry.exploded', '?sort=createdAt', '?limit=0']) {
        const res = await api('get', `/webhooks/${id}/deliveries${query}`);
        expect([query, res.status]).toEqual([query, 400]);
      }
      await api('get', '/webhooks/00000000-0000-4000-8000-000000000000/deliveries').expect(404);
    });

    it('delivers the events of one entry in the order they happened; a rollback sends nothing', async () => {
      const { id, path } = await endpoint({
        events: ['entry.updated', 'entry.deleted'],
        collections: ['posts'],
      });
      const outbox = t.app.get(WebhookOutbox);
      const entries = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222'];
      const events = Array.from({ length: 16 }, (_, n) => ({
        type: (n === 15 ? 'entry.deleted' : 'entry.updated') as 'entry.updated' | 'entry.deleted',
        collection: 'posts',
        data: { collection: 'posts', id: entries[n % 2], entry: { n } },
      }));
      await t.db.transaction(async (em) => {
        await outbox.emit(em, [
          ...events,
          // Another collection, and an event the endpoint does not take: not sent.
          {
            type: 'entry.updated',
            collection: 'pages',
            data: { collection: 'pages', id: entries[0], entry: {} },
          },
          {
            type: 'entry.created',
            collection: 'posts',
            data: { collection: 'posts', id: entries[0], entry: {} },
          },
        ]);
      });
      outbox.wake();
      const got = await receiver.waitFor(path, 16);
      for (const entry of entries) {
        const order = got
          .map((r) => JSON.parse(r.body) as { data: { id: string; entry: { n: number } } })
          .filter((b) => b.data.id === entry)
          .map((b) => b.data.entry.n);
        expect(order).toEqual([...order].sort((a, b) => a - b));
        expect(order).toHaveLength(8);
      }
      // A change that rolls back leaves no event and sends nothing.
      await expect(
        t.db.transaction(async (em) => {
          await outbox.emit(em, [events[0]]);
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      outbox.wake();
      await sleep(500);
      expect(receiver.at(path)).toHaveLength(16);
      expect((await deliveries(id)).meta.total).toBe(16);
    });
  });

  describe('without allowPrivateNetworks', () => {
    let strict: TestApp;
    let strictAdmin: Headers;

    beforeAll(async () => {
      strict = await createTestApp({ config: { webhooks: { retry: { attempts: 1 } } } });
      strictAdmin = await bearerFor(strict, (await createUser(strict, { roles: ['super-admin'] })).id);
    });
    afterAll(() => strict?.close());

    it('refuses an address literal in a private range at create, after the URL parser', async () => {
      for (const url of [
        'http://2130706433/',
        'http://127.1/',
        'http://0x7f.0.0.1:8080/x',
        'http://10.1.2.3/',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/',
        'http://[::ffff:192.168.0.1]/',
        'http://[fd00::1]/',
        'http://0.0.0.0/',
      ]) {
        const res = await api(
          'post',
          '/webhooks',
          { name: 'Private', url, events: ['*'] },
          strictAdmin,
          strict,
        );
        expect([url, res.status, res.body.error?.code]).toEqual([url, 400, 'VALIDATION_ERROR']);
        expect(res.body.error.data.errors[0].path).toBe('url');
      }
      const { id } = await endpoint({ url: 'https://8.8.8.8/hook' }, strict, strictAdmin);
      await api('patch', `/webhooks/${id}`, { url: 'http://2130706433/' }, strictAdmin, strict).expect(400);
    });

    it('refuses a host name that resolves to a private address at the attempt', async () => {
      const path = '/private-by-name';
      const res = await api(
        'post',
        '/webhooks',
        { name: 'Local by name', url: receiver.url(path, 'localhost'), events: ['webhook.test'] },
        strictAdmin,
        strict,
      );
      expect(res.status).toBe(201);
      const id = res.body.item.id as string;
      const eventId = await sendTest(id, strict, strictAdmin);
      const delivery = await settled(id, eventId, strict, strictAdmin);
      expect(delivery).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: null });
      expect(delivery.lastError).toMatch(/^private network address refused: localhost resolves to /);
      expect(receiver.at(path)).toHaveLength(0);
    });
  });

  describe('two instances on one database', () => {
    it('delivers each of 20 test events exactly once', async () => {
      const second = await createTestApp({ config: CONFIG, database: t.database });
      try {
        const { id, path } = await endpoint();
        const ids: string[] = [];
        for (let i = 0; i < 20; i++) {
          ids.push(await sendTest(id, i % 2 ? second : t));
        }
        await receiver.waitFor(path, 20);
        // Time for a duplicate to show up, were there one.
        await sleep(1500);
        const got = receiver.at(path).map((r) => String(r.headers['webhook-id']));
        expect(got.sort()).toEqual([...ids].sort());
        const [row] = await t.db.query(
          `SELECT count(*) FILTER (WHERE status = 'succeeded' AND attempts = 1)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1`,
          [id],
        );
        expect(row.n).toBe(20);
      } finally {
        await second.close();
      }
    });
  });
});
