import { createTestApp, TestApp } from '../utils/test-app';

describe('global rate limit (SPEC 5.8 rateLimit)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { rateLimit: { max: 3, windowSeconds: 60 } } });
  });
  afterAll(() => t.close());

  it('limits requests outside /admin/api/ per IP, unknown routes included', async () => {
    expect((await t.http.get('/api/health')).status).toBe(200);
    expect((await t.http.get('/nowhere')).status).toBe(404);
    expect((await t.http.get('/api/health')).status).toBe(200);
    const limited = await t.http.get('/api/health');
    expect(limited.status).toBe(429);
    expect(limited.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(limited.headers['retry-after']).toBe(String(limited.body.error.data.retryAfterSeconds));
  });

  it('skips /admin/api/ by default', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await t.http.get('/admin/api/auth/setup-status')).status).toBe(200);
    }
  });
});

describe('global rate limit with a skip function', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: { rateLimit: { max: 2, windowSeconds: 60, skip: (req) => req.path === '/api/health' } },
    });
  });
  afterAll(() => t.close());

  it('honours it: the skipped path is never limited, /admin/api/ now is', async () => {
    for (let i = 0; i < 4; i++) {
      expect((await t.http.get('/api/health')).status).toBe(200);
    }
    expect((await t.http.get('/admin/api/auth/setup-status')).status).toBe(200);
    expect((await t.http.get('/admin/api/auth/setup-status')).status).toBe(200);
    expect((await t.http.get('/admin/api/auth/setup-status')).status).toBe(429);
  });
});

describe('global rate limit behind a trusted proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { trustProxy: true, rateLimit: { max: 2, windowSeconds: 60 } } });
  });
  afterAll(() => t.close());

  const from = (ip: string) => t.http.get('/api/health').set('X-Forwarded-For', ip);

  it('counts an IPv6 client by its /64: a new address in the same /64 gets no fresh budget', async () => {
    expect((await from('2001:db8:1:2::1')).status).toBe(200);
    expect((await from('2001:db8:1:2::ffff')).status).toBe(200);
    expect((await from('2001:db8:1:2:abcd::9')).status).toBe(429);
    // Another /64, and an IPv4 client, have their own.
    expect((await from('2001:db8:1:3::1')).status).toBe(200);
    expect((await from('203.0.113.7')).status).toBe(200);
    // An IPv4-mapped IPv6 address is its IPv4 client.
    expect((await from('::ffff:203.0.113.7')).status).toBe(200);
    expect((await from('203.0.113.7')).status).toBe(429);
  });
});
