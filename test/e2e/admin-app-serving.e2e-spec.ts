import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ADMIN_APP_DIR } from '../../src/modules/pages/admin-app.controller';
import { PAGES_CSP } from '../../src/modules/pages/admin-app.controller';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * How the service serves the admin app (built into dist/admin by the run's global setup): every
 * screen's URL answers the app's index.html with the pages' strict policy and no caching; its
 * hashed files are cached for a year; nothing else of the folder is reachable; the API under
 * /admin/api keeps its routes. The signed-out screens: pages.e2e-spec.ts.
 */
describe('admin app serving', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const index = () => readFileSync(join(ADMIN_APP_DIR, 'index.html'), 'utf8');

  it.each([
    '/admin/content',
    '/admin/collections',
    '/admin/collections/posts',
    '/admin/collections/posts/new?x=1',
    '/admin/singles/homepage',
    '/admin/media',
    '/admin/users',
    '/admin/users/new',
    '/admin/roles/0b6f9b3e-5a4e-4f3b-9d65-0c7d8e1a2b3c',
    '/admin/webhooks',
    '/admin/webhooks/new',
    '/admin/audit',
    '/admin/api-keys',
  ])('%s answers the app', async (path) => {
    const res = await t.http.get(path).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(PAGES_CSP);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.text).toBe(index());
    // No inline script: the policy allows none.
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('serves the hashed files for a year, and nothing else of the folder', async () => {
    const files = readdirSync(join(ADMIN_APP_DIR, 'app'));
    const script = files.find((f) => f.endsWith('.js'))!;
    const res = await t.http.get(`/admin/app/${script}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    await t.http.get('/admin/app/nothing-here.js').expect(404);
    await t.http.get('/admin/app/..%2Findex.html').expect(404);
    await t.http.get('/admin/app/index.html').expect(404);
  });

  it("keeps the first screen's JavaScript under 250 KB gzipped", () => {
    const html = index();
    const entry = /src="\/admin\/app\/([^"]+\.js)"/.exec(html)![1];
    const preloaded = [...html.matchAll(/href="\/admin\/app\/([^"]+\.js)"/g)].map((m) => m[1]);
    const bytes = [entry, ...preloaded]
      .map((f) => gzipSync(readFileSync(join(ADMIN_APP_DIR, 'app', f))).length)
      .reduce((a, b) => a + b, 0);
    console.info(`admin app first screen: ${(bytes / 1024).toFixed(1)} KB of JavaScript gzipped`);
    expect(bytes).toBeLessThan(250 * 1024);
  });

  it('never shadows the API', async () => {
    await t.http.get('/admin/api/me').expect(401);
    await t.http.get('/admin/api/collections/nothing/entries').expect(401);
    const unknown = await t.http.get('/admin/api/nothing').expect(404);
    expect(unknown.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
