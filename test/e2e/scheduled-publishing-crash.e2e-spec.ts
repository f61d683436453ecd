import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { bearerFor, createUser } from '../utils/auth';
import { freePort, startServerProcess } from '../utils/server-process';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * A scheduled publish survives `kill -9` of the server process that was running it: the server
 * (from source, in a child process) takes the due job and is killed while the write waits on a
 * row lock this test holds; another instance makes the attempt again and the entry is published
 * exactly once: one version, one audit row.
 */

const POSTS = '/admin/api/collections/posts/entries';
const COLLECTIONS = [
  {
    slug: 'posts',
    drafts: true,
    versions: true,
    fields: [{ name: 'title', type: 'text' as const, required: true }],
  },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('scheduled publishing: kill -9 of the instance running it', () => {
  let database: TestDatabase;
  let child: ChildProcess | undefined;
  let t: TestApp | undefined;
  let locker: Client;

  beforeAll(async () => {
    database = await createTestDatabase();
    locker = new Client({ connectionString: database.url });
    await locker.connect();
  });

  afterAll(async () => {
    child?.kill('SIGKILL');
    await t?.close();
    await locker?.end().catch(() => undefined);
    await database.drop();
  });

  it('runs the schedule again on another instance, once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
    const configFile = join(dir, 'svc.config.cjs');
    writeFileSync(configFile, `module.exports = { collections: ${JSON.stringify(COLLECTIONS)} };\n`);

    // The entry and its schedule, made through an instance that then stops.
    const maker = await createTestApp({ config: { collections: COLLECTIONS }, database });
    const admin = await bearerFor(maker, (await createUser(maker, { roles: ['super-admin'] })).id);
    const entry = await maker.http.post(POSTS).set(admin).send({ title: 'Crash-proof', status: 'draft' });
    expect(entry.status).toBe(201);
    const id = entry.body.item.id as string;
    const at = new Date(Date.now() + 4_000);
    const made = await maker.http
      .post(`${POSTS}/${id}/schedule`)
      .set(admin)
      .send({ action: 'publish', at: at.toISOString() });
    expect(made.status).toBe(201);
    const scheduleId = made.body.item.id as string;
    await maker.close();

    // The entry's row locked, so the scheduled write will wait; then the server that takes the job.
    await locker.query('BEGIN');
    await locker.query(`SELECT 1 FROM c_posts WHERE id = $1 FOR UPDATE`, [id]);
    child = await startServerProcess(database.url, configFile, await freePort());

    const jobState = async () =>
      (
        await locker.query(
          `SELECT state FROM svc_pgboss.job WHERE name = 'content-schedule' AND data ->> 'scheduleId' = $1`,
          [scheduleId],
        )
      ).rows[0]?.state as string | undefined;
    const until = Date.now() + 40_000;
    while ((await jobState()) !== 'active' && Date.now() < until) {
      await sleep(100);
    }
    expect(await jobState()).toBe('active');
    expect(Date.now()).toBeGreaterThanOrEqual(at.getTime());
    // Mid-attempt: its transaction has claimed the schedule and waits for the entry.
    await sleep(500);
    child.kill('SIGKILL');
    await new Promise((r) => child!.once('exit', r));
    child = undefined;
    await locker.query('ROLLBACK');

    const rows = async () => ({
      schedule: (await locker.query(`SELECT status FROM content_schedules WHERE id = $1`, [scheduleId]))
        .rows[0],
      entry: (await locker.query(`SELECT status FROM c_posts WHERE id = $1`, [id])).rows[0],
    });
    expect(await rows()).toEqual({ schedule: { status: 'pending' }, entry: { status: 'draft' } });

    // Another instance: the killed attempt expires and is made again.
    t = await createTestApp({ config: { collections: COLLECTIONS }, database });
    const deadline = Date.now() + 60_000;
    while ((await rows()).schedule.status === 'pending' && Date.now() < deadline) {
      await sleep(250);
    }
    expect(await rows()).toEqual({ schedule: { status: 'done' }, entry: { status: 'published' } });
    const versions = await locker.query(
      `SELECT event FROM content_versions WHERE entry_id = $1 ORDER BY number`,
      [id],
    );
    expect(versions.rows.map((r) => r.event)).toEqual(['create', 'publish']);
    const audit = await locker.query(
      `SELECT count(*)::int AS n FROM audit_log WHERE target = $1 AND event = 'entry-published'`,
      [`collection:posts/${id}`],
    );
    expect(audit.rows[0].n).toBe(1);
    const job = await locker.query(
      `SELECT retry_count FROM svc_pgboss.job WHERE name = 'content-schedule' AND data ->> 'scheduleId' = $1
        UNION ALL
       SELECT retry_count FROM svc_pgboss.archive WHERE name = 'content-schedule' AND data ->> 'scheduleId' = $1`,
      [scheduleId],
    );
    expect(job.rows[0].retry_count).toBeGreaterThanOrEqual(1);
  }, 180_000);
});
