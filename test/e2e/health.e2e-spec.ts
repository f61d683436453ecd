import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TestRedis } from '../utils/redis';
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

describe('GET /api/health with REDIS_URL', () => {
  let redis: TestRedis;
  let t: TestApp;
  beforeAll(async () => {
    redis = await TestRedis.start();
    t = await createTestApp({
      overrides: { redisUrl: redis.url, redisPrefix: `svc-test-health-${process.pid}:` },
    });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('reports Redis apart: a dead Redis neither fails health nor gets it refused by the global limit; back without a restart', async () => {
    const up = await t.http.get('/api/health');
    expect(up.status).toBe(200);
    expect(Object.keys(up.body).sort()).toEqual([
      'database',
      'ok',
      'redis',
      'timestamp',
      'uptime',
      'version',
    ]);
    expect(up.body.redis).toEqual({ ok: true, latency: expect.any(Number) });

    await redis.kill();
    // Through the global limit (which counted in Redis until now) to a 200 from the database alone.
    const down = await t.http.get('/api/health');
    expect(down.status).toBe(200);
    expect(down.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=30');
    expect(down.body).toMatchObject({ ok: true, database: { ok: true }, redis: { ok: false } });

    // Back without a restart of the service (bounded wait: the client reconnects at least every 2 s).
    await redis.restart();
    const deadline = Date.now() + 10_000;
    let back = await t.http.get('/api/health');
    while (back.body.redis?.ok !== true && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      back = await t.http.get('/api/health');
    }
    expect(back.status).toBe(200);
    expect(back.body.redis).toEqual({ ok: true, latency: expect.any(Number) });
  });
});
