import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, MIGRATION_LOCK_ID, runMigrations } from '../../src/database/data-source';
import { createUser, bearerFor } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';
import { createTestDatabase, databaseUrl, testEnv, TestDatabase, withAdmin } from '../utils/test-db';

/**
 * The per-statement timeout (SVC_DB_STATEMENT_TIMEOUT_MS, default 10 s): a request whose
 * statement runs past it answers 503 SERVICE_UNAVAILABLE with Retry-After, never a 500, and the
 * connection is free again; migrations are not bound by it.
 */
describe('statement timeout', () => {
  let database: TestDatabase;
  let t: TestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    t = await createTestApp({
      database,
      config: {
        collections: [{ slug: 'notes', fields: [{ name: 'text', type: 'text' }], access: { read: true } }],
      },
      overrides: {
        database: { url: database.url, poolSize: 5, autoMigrate: false, statementTimeoutMs: 300 },
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  it('a read held past the limit answers 503 with Retry-After; the next one is served', async () => {
    const admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    expect(
      (await t.http.post('/admin/api/collections/notes/entries').set(admin).send({ text: 'a' })).status,
    ).toBe(201);
    // Another session holds the table: the service's statement waits on the lock until the limit.
    const holder = new Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE c_notes IN ACCESS EXCLUSIVE MODE');
      for (const extra of [{}, { 'Content-Length': '0' }]) {
        const res = await t.http.get('/admin/api/collections/notes/entries').set(extra);
        expect(res.status).toBe(503);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
        expect(res.headers['retry-after']).toBe(String(res.body.error.data.retryAfterSeconds));
      }
      await holder.query('ROLLBACK');
    } finally {
      await holder.end();
    }
    const after = await t.http.get('/admin/api/collections/notes/entries');
    expect(after.status).toBe(200);
    expect(after.body.meta.total).toBe(1);
  });

  it('a schema apply is not bound by it: waiting behind a reader past the limit, it still applies', async () => {
    const admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    const fields = [{ name: 'text', type: 'text' }];
    const created = await t.http.post('/admin/api/collections').set(admin).send({ slug: 'memos', fields });
    expect(created.status).toBe(201);
    const reader = new Client({ connectionString: database.url });
    await reader.connect();
    try {
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM c_memos'); // ACCESS SHARE until the end: blocks ALTER TABLE
      const apply = t.http
        .post('/admin/api/collections/schema/memos/apply')
        .set(admin)
        .send({ fields: [...fields, { name: 'extra', type: 'number' }] })
        .then((r) => r);
      await new Promise((r) => setTimeout(r, 800)); // well past the 300 ms limit
      await reader.query('COMMIT');
      const res = await apply;
      expect(res.status).toBe(200);
      expect(res.body.changes).toEqual([expect.objectContaining({ kind: 'add', field: 'extra' })]);
    } finally {
      await reader.end();
    }
  });

  it('migrations run without the limit: one waiting past it behind another run still migrates', async () => {
    const name = `svc_t_${testEnv().runId}_timeout_${Date.now().toString(36)}`;
    await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
    const url = databaseUrl(testEnv().adminUrl, name);
    const ds = new DataSource(dataSourceOptions({ url, statementTimeoutMs: 300 }));
    // Another instance's run holds the migration lock for longer than the limit.
    const other = new Client({ connectionString: url });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      await ds.initialize();
      const running = runMigrations(ds);
      await new Promise((r) => setTimeout(r, 800)); // well past the 300 ms limit
      await other.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      expect((await running).length).toBeGreaterThan(0);
      // The pool's connections keep the limit for ordinary work.
      await expect(ds.query('SELECT pg_sleep(0.5)')).rejects.toThrow(/statement timeout/);
    } finally {
      await other.end();
      await ds.destroy().catch(() => undefined);
      await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  });
});
