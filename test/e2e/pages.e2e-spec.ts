import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import request from 'supertest';
import { PAGES_CSP } from '../../src/modules/pages/admin-app.controller';
import { SvcModule } from '../../src/svc.module';
import { LogCapture } from '../utils/log-capture';
import { createTestApp, TEST_SECRET, TestApp } from '../utils/test-app';

/**
 * The browser pages under /admin (issue 21): HTML under a strict Content-Security-Policy, every
 * reflected value escaped, no inline script, the one script and style sheet served with their
 * types; `pages: false` leaves no page. In a browser: pages-browser.e2e-spec.ts.
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

/** Every `<script ...>` opening tag of a page. */
const scriptTags = (html: string) => html.match(/<script\b[^>]*>/gi) ?? [];

describe('pages', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it.each(PAGES)('%s answers HTML under the strict CSP, with its title and language', async (path) => {
    const res = await t.http.get(path).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(PAGES_CSP);
    expect(PAGES_CSP).toContain("script-src 'self'");
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('same-origin');
    expect(res.text).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(res.text).toMatch(/<title>[^<]+ · svc<\/title>/);
    expect(res.text).toContain('aria-live="assertive"');
    // Scripts only by src, under /admin; no inline style or handler.
    expect(scriptTags(res.text)).toEqual(['<script src="/admin/assets/pages.js" defer>']);
    expect(res.text).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
    expect(res.text).not.toMatch(/(?:src|href|action)="(?!\/admin)/);
  });

  it('escapes hostile query values and never reflects an unknown error', async () => {
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
        expect(scriptTags(res.text)).toHaveLength(1);
        expect(res.text).not.toContain('<script>alert');
        expect(res.text).not.toContain('"\'`');
      }
    }
    const token = await t.http.get('/admin/reset-password').query({ token: HOSTILE }).expect(200);
    expect(token.text).toContain('value="&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&#96;&amp;"');
    const login = await t.http.get('/admin/login').query({ error: HOSTILE }).expect(200);
    expect(login.text).not.toContain('alert(1)');
    expect(login.text).toContain('Sign-in did not complete');
    const failed = await t.http.get('/admin/login?error=signin-failed').expect(200);
    expect(failed.text).toContain('Sign-in failed.');
    // A repeated parameter takes its first value; an array never reaches the page as one.
    const twice = await t.http.get('/admin/reset-password?token=a%3Cb&token=c').expect(200);
    expect(twice.text).toContain('value="a&lt;b"');
  });

  it('a page without its token says the link is incomplete', async () => {
    for (const path of ['/admin/reset-password', '/admin/verify-email', '/admin/accept-invite']) {
      const res = await t.http.get(path).expect(200);
      expect(res.text).toContain('This link is incomplete');
      expect(res.text).not.toMatch(/<form /);
    }
  });

  it('serves the script and the style sheet with their types, revalidated by ETag', async () => {
    const js = await t.http.get('/admin/assets/pages.js').expect(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    expect(js.text).toContain("'/admin/api'");
    expect(js.text).toContain('X-CSRF-Token');
    expect(js.text).not.toMatch(/innerHTML|eval\(|new Function/);
    // Passkeys through the browser's WebAuthn API, converted by the script itself (no library).
    expect(js.text).toContain('navigator.credentials[kind]');
    expect(() => new Function(js.text)).not.toThrow();
    const css = await t.http.get('/admin/assets/pages.css').expect(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.text).toContain('.visually-hidden');
    const again = await t.http
      .get('/admin/assets/pages.js')
      .set('If-None-Match', js.headers.etag as string)
      .expect(304);
    expect(again.text ?? '').toBe('');
  });

  it('the pages and their assets are not operations of the OpenAPI document', async () => {
    const doc = (await t.http.get('/admin/api/openapi.json').expect(200)).body as {
      paths: Record<string, unknown>;
    };
    const paths = Object.keys(doc.paths);
    for (const path of new Set(PAGES.map((p) => p.split('?')[0]))) {
      expect(paths).not.toContain(path);
    }
    expect(paths.filter((p) => p.startsWith('/admin/assets') || !p.startsWith('/admin/api/'))).toEqual([
      '/api/health',
    ]);
  });

  it('the landing and sign-in pages carry the passkey parts, hidden until a plugin answers', async () => {
    const home = await t.http.get('/admin').expect(200);
    expect(home.text).toMatch(/<section id="passkeys" hidden aria-labelledby="passkeys-title">/);
    expect(home.text).toContain('<button type="submit">Add a passkey</button>');
    const login = await t.http.get('/admin/login').expect(200);
    expect(login.text).toMatch(/<section id="step-passkey" hidden aria-labelledby="passkey-title">/);
    expect(login.text).toContain('<button type="button" id="passkey-button">Use my passkey</button>');
    // No plugin: nothing tells the page to show them.
    const ui = await t.http.get('/admin/api/auth/ui').expect(200);
    expect(ui.body.providers).toEqual([]);
    await t.http.get('/admin/api/plugins/passkeys/credentials').expect(404);
  });

  it('the landing page groups sessions, second factors and API keys under Security', async () => {
    const home = (await t.http.get('/admin').expect(200)).text;
    const at = (id: string) => home.indexOf(`<section id="${id}"`);
    expect(home).toMatch(/<section id="security" aria-labelledby="security-title">/);
    expect(home).toMatch(/<section id="sessions" hidden aria-labelledby="sessions-title">/);
    expect(home).toContain(
      '<button type="button" id="sessions-end-others" hidden>Sign out everywhere else</button>',
    );
    // Moved, not copied: each part once, inside the Security section, in this order.
    for (const id of ['sessions', 'totp', 'passkeys', 'keys']) {
      expect(home.split(`<section id="${id}"`)).toHaveLength(2);
      expect(at(id)).toBeGreaterThan(at('security'));
    }
    expect([at('sessions'), at('totp'), at('passkeys'), at('keys')]).toEqual(
      [at('sessions'), at('totp'), at('passkeys'), at('keys')].sort((a, b) => a - b),
    );
    // Rotation: a form with the three grace choices, no time first.
    expect(home).toMatch(
      /<form id="key-rotate-form" method="post" hidden aria-labelledby="key-rotate-title">/,
    );
    const grace = [...home.matchAll(/<option value="(\d+)">/g)].map((m) => m[1]);
    expect(grace).toEqual(['0', '3600', '86400']);
    expect(home).toContain('<label for="key-rotate-grace">');
    // Scopes: optional, described by its hint and by its own error slot.
    expect(home).toMatch(
      /<input id="key-scopes" name="scopes" type="text" aria-describedby="key-scopes-hint key-scopes-error"/,
    );
    expect(home).toContain('<p class="field-error" id="key-scopes-error"></p>');
    expect(scriptTags(home)).toEqual(['<script src="/admin/assets/pages.js" defer>']);
  });

  it('the sign-in page carries the mfa-enrol step and the recovery codes, hidden', async () => {
    const login = (await t.http.get('/admin/login').expect(200)).text;
    expect(login).toMatch(/<section id="step-enrol" hidden aria-labelledby="enrol-title">/);
    expect(login).toMatch(/<div id="enrol-totp" hidden>/);
    expect(login).toMatch(/<div id="enrol-passkey" hidden>/);
    expect(login).toContain('<label for="enrol-totp-code">Code from the app</label>');
    expect(login).toMatch(/<section id="step-recovery" hidden aria-labelledby="recovery-title">/);
    expect(login).toContain('<button type="button" id="recovery-continue">');
    const js = (await t.http.get('/admin/assets/pages.js').expect(200)).text;
    for (const route of ["'/auth/sessions'", "'/rotate'", "'/plugins/totp/enroll/confirm'", "'mfa-enrol'"]) {
      expect(js).toContain(route);
    }
    // The enrolment asks which second factors exist from the sign-in page's view of the plugins.
    const ui = await t.http.get('/admin/api/auth/ui').expect(200);
    expect(ui.body.challengeViews).toEqual({});
  });

  it('other paths under /admin stay unknown, in the problem envelope', async () => {
    const res = await t.http.get('/admin/nope').expect(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    await t.http.post('/admin/login').expect(404);
  });

  describe('turned off', () => {
    it('pages: false mounts no page (forRoot)', async () => {
      const off = await createTestApp({ database: t.database, overrides: { pages: false } });
      try {
        for (const path of [...PAGES, '/admin/assets/pages.js', '/admin/assets/pages.css']) {
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
        for (const path of ['/admin', '/admin/login', '/admin/assets/pages.js']) {
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
