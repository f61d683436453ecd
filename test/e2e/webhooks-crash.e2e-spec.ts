import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { bearerFor, createUser } from '../utils/auth';
import { freePort, startServerProcess } from '../utils/server-process';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { createTestApp, TestApp } from '../utils/test-app';
import { WebhookReceiver } from '../utils/webhook-receiver';

/**
 * A webhook attempt survives `kill -9` of the server process making it: the server (from source,
 * in a child process) takes the delivery's job and is killed while the receiver holds the request
 * open; another instance makes the attempt again, with the same `webhook-id`, and records it once.
 */

const CONFIG = { webhooks: { allowPrivateNetworks: true } };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('webhooks: kill -9 of the instance making an attempt', () => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let child: ChildProcess | undefined;
  let t: TestApp | undefined;
  let db: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = await new WebhookReceiver().start();
    db = new Client({ connectionString: database.url });
    await db.connect();
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    await t?.close();
    await db?.end().catch(() => undefined);
    await receiver?.close();
    await database.drop();
  });

  it('makes the attempt again on another instance, with the same webhook-id, recorded once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-webhook-crash-'));
    const configFile = join(dir, 'svc.config.cjs');
    writeFileSync(configFile, `module.exports = ${JSON.stringify(CONFIG)};\n`);

    // The endpoint and an admin's token, made through an instance that then stops.
    const maker = await createTestApp({ config: CONFIG, database });
    const admin = await bearerFor(maker, (await createUser(maker, { roles: ['super-admin'] })).id);
    const made = await maker.http
      .post('/admin/api/webhooks')
      .set(admin)
      .send({ name: 'Crash', url: receiver.url('/crash'), events: ['webhook.test'] });
    expect(made.status).toBe(201);
    const id = made.body.item.id as string;
    await maker.close();

    // The first request is held open, unanswered; the next one is answered.
    receiver.on('/crash', (_req, res, _body, n) => {
      if (n > 1) {
        res.writeHead(200).end('ok');
      }
    });
    const port = await freePort();
    child = await startServerProcess(database.url, configFile, port);
    const sent = await request(`http://127.0.0.1:${port}`).post(`/admin/api/webhooks/${id}/test`).set(admin);
    expect(sent.status).toBe(202);
    const eventId = sent.body.eventId as string;

    const [first] = await receiver.waitFor('/crash', 1, 30_000);
    expect(first.headers['webhook-id']).toBe(eventId);
    await sleep(200);
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    child = undefined;

    const delivery = async () =>
      (
        await db.query(
          `SELECT id, status, attempts, attempts_log FROM webhook_deliveries WHERE endpoint_id = $1`,
          [id],
        )
      ).rows;
    expect(await delivery()).toEqual([expect.objectContaining({ status: 'pending', attempts: 0 })]);

    // Another instance: the killed attempt expires and is made again.
    t = await createTestApp({ config: CONFIG, database });
    const [, second] = await receiver.waitFor('/crash', 2, 90_000);
    expect(second.headers['webhook-id']).toBe(eventId);
    expect(Number(second.headers['webhook-timestamp'])).toBeGreaterThan(
      Number(first.headers['webhook-timestamp']),
    );
    const deadline = Date.now() + 10_000;
    while ((await delivery())[0].status === 'pending' && Date.now() < deadline) {
      await sleep(100);
    }
    const [row] = await delivery();
    expect(row).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(row.attempts_log).toEqual([expect.objectContaining({ statusCode: 200 })]);
    await sleep(1000);
    expect(receiver.at('/crash')).toHaveLength(2);
    const job = await db.query(
      `SELECT retry_count FROM svc_pgboss.job WHERE name = 'webhook-delivery' AND data ->> 'deliveryId' = $1
        UNION ALL
       SELECT retry_count FROM svc_pgboss.archive WHERE name = 'webhook-delivery' AND data ->> 'deliveryId' = $1`,
      [row.id],
    );
    expect(job.rows[0].retry_count).toBeGreaterThanOrEqual(1);
  }, 180_000);
});
