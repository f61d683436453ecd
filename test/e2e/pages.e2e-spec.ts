import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { ADMIN_APP_DIR, PAGES_CSP } from '../../src/modules/pages/admin-app.controller';
import { SvcModule } from '../../src/svc.module';
import { LogCapture } from '../utils/log-capture';
import { createTestApp, TEST_SECRET, TestApp } from '../utils/test-app';

/**
 * The sign-in and account screens under /admin are the admin app's (built into dist/admin by the
 * run's global setup): each URL answers the app's index.html under the strict policy, never
 * stored (emailed links carry tokens); nothing of the query reaches the answer; `pages: false`
 * leaves none. In a browser: the pages-browser-*.e2e-spec.ts files.
 */

const PAGES = [
  '/admin',
  '/admin/login',
  '/admin/login?error=signin-failed',
  '/admin/login?resume=1',
  '/admin/forgot-password',
  '/admin/reset-password?token=abc',
  '/admin/verify-email?token=abc',
  '/admin/accept-invite?token=abc',
];
const HOSTILE = '<script>alert(1)</script>"\'`&';

describe('pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const index = () => readFileSync(join(ADMIN_APP_DIR, 'index.html'), 'utf8');

  it.each(PAGES)('%s answers the app under the strict policy', async (path) => {
    const res = await t.http.get(path).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(PAGES_CSP);
    expect(PAGES_CSP).toContain("script-src 'self'");
    // The account screen is the app's shell (revalidated); the signed-out ones are never stored.
    expect(res.headers['cache-control']).toBe(path === '/admin' ? 'no-cache' : 'no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.text).toBe(index());
    expect(res.text).toMatch(/<html lang="en">/);
    // Scripts only by src, under /admin/app; no inline script, style or handler.
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc="\/admin\/app\/)[^>]*>/);
    expect(res.text).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
  });

  it('never reflects the query: every value gets the same file', async () => {
    for (const path of [
      '/admin/login',
      '/admin/reset-password',
      '/admin/verify-email',
      '/admin/accept-invite',
    ]) {
      for (const name of ['error', 'token', 'next', 'resume']) {
        const res = await t.http
          .get(path)
          .query({ [name]: HOSTILE })
          .expect(200);
        expect(res.text).toBe(index());
      }
    }
  });

  it('the screens are not operations of the OpenAPI document', async () => {
    const doc = (await t.http.get('/admin/api/openapi.json').expect(200)).body as {
      paths: Record<string, unknown>;
    };
    const paths = Object.keys(doc.paths);
    for (const path of new Set(PAGES.map((p) => p.split('?')[0]))) {
      expect(paths).not.toContain(path);
    }
    expect(paths.filter((p) => !p.startsWith('/admin/api/'))).toEqual(['/api/health', '/api/metrics']);
  });

  it('without plugins the sign-in screen is told of no provider and no second factor', async () => {
    const ui = await t.http.get('/admin/api/auth/ui').expect(200);
    expect(ui.body.providers).toEqual([]);
    expect(ui.body.challengeViews).toEqual({});
    await t.http.get('/admin/api/plugins/passkeys/credentials').expect(404);
  });

  it('other paths under /admin stay unknown, in the problem envelope', async () => {
    const res = await t.http.get('/admin/nope').expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    await t.http.post('/admin/login').expect(404);
    // The old pages' script and style sheet are gone with them.
    await t.http.get('/admin/assets/pages.js').expect(404);
  });

  describe('turned off', () => {
    it('pages: false mounts no page (forRoot)', async () => {
      const off = await createTestApp({ database: t.database, overrides: { pages: false } });
      try {
        for (const path of [...PAGES, '/admin/content', '/admin/app/index.js']) {
          await off.http.get(path).expect(404);
        }
        await off.http.get('/admin/api/auth/csrf').expect(200);
      } finally {
        await off.app.close();
      }
    });

    it('pages: false through forRootAsync: the pages answer 404', async () => {
      // NestFactory, as a host application boots (the adapter is known before the providers).
      @Module({
        imports: [
          SvcModule.forRootAsync({
            useFactory: () => ({
              secret: TEST_SECRET,
              database: { url: t.database.url, poolSize: 2, autoMigrate: false },
              logger: { level: 'info', stream: new LogCapture() },
              pages: false,
            }),
          }),
        ],
      })
      class HostModule {}
      const app = await NestFactory.create(HostModule, { logger: false });
      await app.init();
      try {
        for (const path of ['/admin', '/admin/login', '/admin/content']) {
          await request(app.getHttpServer()).get(path).expect(404);
        }
        await request(app.getHttpServer()).get('/admin/api/auth/csrf').expect(200);
      } finally {
        await app.close();
      }
    });

    it('SVC_PAGES=false turns them off when the option is not set', async () => {
      process.env.SVC_PAGES = 'false';
      let off: TestApp | undefined;
      try {
        off = await createTestApp({ database: t.database });
        await off.http.get('/admin/login').expect(404);
      } finally {
        delete process.env.SVC_PAGES;
        await off?.app.close();
      }
      // The option wins over the variable.
      process.env.SVC_PAGES = 'false';
      try {
        off = await createTestApp({ database: t.database, overrides: { pages: true } });
        await off.http.get('/admin/login').expect(200);
      } finally {
        delete process.env.SVC_PAGES;
        await off?.app.close();
      }
    });
  });
});
