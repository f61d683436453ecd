import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withAdmin } from '../utils/test-db';
import { createTestApp, TestApp } from '../utils/test-app';

const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  version: string;
};

describe('GET/HEAD /api/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers the SPEC body with a real database probe', async () => {
    const res = await t.http.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=30');
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(Object.keys(res.body).sort()).toEqual(['database', 'ok', 'timestamp', 'uptime', 'version']);
    expect(res.body.ok).toBe(true);
    expect(res.body.version).toBe(pkg.version);
    expect(typeof res.body.uptime).toBe('number');
    expect(new Date(res.body.timestamp).toISOString()).toBe(res.body.timestamp);
    expect(res.body.database).toEqual({ ok: true, dialect: 'postgres', latency: expect.any(Number) });
    expect(res.body.database.latency).toBeGreaterThan(0);
    expect(res.body.database.latency).toBeLessThan(3000);
  });

  it('answers HEAD with the same status and headers and no body', async () => {
    const get = await t.http.get('/api/health');
    const head = await t.http.head('/api/health');
    expect(head.status).toBe(200);
    expect(head.text ?? '').toBe('');
    for (const h of ['content-type', 'cache-control']) {
      expect(head.headers[h]).toBe(get.headers[h]);
    }
    expect(head.headers['x-request-id']).toBeTruthy();
  });

  it('is not under /admin/api', async () => {
    expect((await t.http.get('/admin/api/health')).status).toBe(404);
  });

  it('answers 503 SERVICE_UNAVAILABLE while the database refuses connections, and recovers', async () => {
    const name = t.database.name;
    await withAdmin(async (c) => {
      await c.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
      await c.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
    });
    try {
      const res = await t.http.get('/api/health');
      expect(res.status).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(res.body.error.requestId).toBe(res.headers['x-request-id']);
      expect(res.body.error.data).toMatchObject({ ok: false, database: { ok: false, dialect: 'postgres' } });
      const head = await t.http.head('/api/health');
      expect(head.status).toBe(503);
    } finally {
      await withAdmin((c) => c.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`));
    }
    const back = await t.http.get('/api/health');
    expect(back.status).toBe(200);
    expect(back.body.database.ok).toBe(true);
  });
});
