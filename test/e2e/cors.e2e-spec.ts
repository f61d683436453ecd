import { createTestApp, TestApp } from '../utils/test-app';

describe('CORS for allowed frontends (SPEC 5.1.4, 5.8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ overrides: { allowedOrigins: ['https://admin.example.com'] } });
  });
  afterAll(() => t.close());

  it('answers a preflight from an allowed origin with credentials allowed', async () => {
    const res = await t.http
      .options('/admin/api/users')
      .set('Origin', 'https://admin.example.com')
      .set('Access-Control-Request-Method', 'PATCH')
      .set('Access-Control-Request-Headers', 'content-type,x-csrf-token');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('https://admin.example.com');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-headers']).toMatch(/X-CSRF-Token/i);
  });

  it('lets a front-end send a preview token from an allowed origin', async () => {
    const res = await t.http
      .options('/admin/api/collections/posts/entries/00000000-0000-4000-8000-000000000000')
      .set('Origin', 'https://admin.example.com')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'x-preview-token');
    expect(res.status).toBe(204);
    expect(String(res.headers['access-control-allow-headers']).split(',')).toContain('X-Preview-Token');
  });

  it('allows the public URL origin and exposes the request id', async () => {
    const res = await t.http.get('/admin/api/auth/setup-status').set('Origin', 'http://localhost:3000');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(res.headers['access-control-expose-headers']).toMatch(/X-Request-Id/);
    // A script reading a file range or saving a download under its name sees those headers too.
    expect(String(res.headers['access-control-expose-headers']).split(',')).toEqual(
      expect.arrayContaining(['Content-Range', 'Content-Disposition', 'ETag', 'X-RateLimit-Remaining']),
    );
  });

  it('sends no CORS headers to a request without Origin, only Vary: Origin (Nest routes and the content lane)', async () => {
    for (const path of ['/admin/api/auth/setup-status', '/admin/api/collections/posts/entries?limit=1']) {
      const res = await t.http.get(path);
      expect({ path, vary: res.headers.vary }).toEqual({ path, vary: 'Origin' });
      expect({ path, cors: Object.keys(res.headers).filter((h) => h.startsWith('access-control-')) }).toEqual(
        {
          path,
          cors: [],
        },
      );
      // The same path called from an allowed origin gets them.
      const cross = await t.http.get(path).set('Origin', 'https://admin.example.com');
      expect({ path, status: cross.status, allow: cross.headers['access-control-allow-origin'] }).toEqual({
        path,
        status: res.status,
        allow: 'https://admin.example.com',
      });
      expect(cross.headers['access-control-allow-credentials']).toBe('true');
      expect(cross.headers['access-control-expose-headers']).toMatch(/X-Request-Id/);
    }
  });

  it('grants nothing to another origin', async () => {
    const res = await t.http
      .options('/admin/api/users')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'PATCH');
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const get = await t.http.get('/admin/api/auth/setup-status').set('Origin', 'https://evil.example');
    expect(get.headers['access-control-allow-origin']).toBeUndefined();
  });
});
