import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { transformSync } from '@swc/core';
import type { Browser } from 'playwright-core';
import { createUser, PASSWORD } from '../utils/auth';
import { describeInChromium, launchChromium, openPage } from '../utils/chromium';
import { createTestApp, type TestApp } from '../utils/test-app';

/**
 * `svc/client`'s cookie sign-in in a real browser (chromium): the page, served from the
 * service's origin, signs in, creates and lists with `cookieAuth()`. The browser keeps the
 * HttpOnly cookies and sends its own `Origin`; the client fetches the CSRF token and sends it.
 */

const ROOT = join(__dirname, '..', '..');

/** src/client as an ES module a browser loads, openapi-fetch beside it. */
function clientModules(): Record<string, string> {
  const { code } = transformSync(readFileSync(join(ROOT, 'src', 'client', 'index.ts'), 'utf8'), {
    filename: 'index.ts',
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'es6' },
  });
  return {
    '/client/index.js': code.replace(/from ['"]openapi-fetch['"]/, "from '/client/openapi-fetch.js'"),
    '/client/openapi-fetch.js': readFileSync(
      require.resolve('openapi-fetch').replace(/\.cjs$/, '.mjs'),
      'utf8',
    ),
  };
}

/** What the page runs: the README's sign-in, then a create and a filtered list. */
const WORKFLOW = `(async () => {
  const { createClient, cookieAuth } = await import('/client/index.js');
  const api = createClient({ baseUrl: location.origin, auth: cookieAuth() });
  const login = await api.POST('/admin/api/auth/login', {
    body: { email: 'ada@example.com', password: '${PASSWORD}' },
  });
  const created = await api.POST('/admin/api/collections/posts/entries', { body: { title: 'From the page' } });
  const list = await api.GET('/admin/api/collections/posts/entries', {
    params: { query: { where: { or: [{ title: { equals: 'From the page' } }, { title: { equals: 'x' } }] } } },
  });
  const logout = await api.POST('/admin/api/auth/logout');
  const after = await api.GET('/admin/api/auth/session');
  return {
    login: login.response.status,
    email: login.data && login.data.user && login.data.user.email,
    readableCookies: document.cookie,
    created: created.response.status,
    titles: list.data && list.data.items.map((p) => p.title),
    logout: logout.response.status,
    after: after.response.status,
  };
})()`;

describeInChromium('svc/client in a browser')('svc/client in a browser', () => {
  let t: TestApp;
  let chrome: Browser;
  let origin: string;

  beforeAll(async () => {
    t = await createTestApp({
      config: { collections: [{ slug: 'posts', fields: [{ name: 'title', type: 'text', required: true }] }] },
    });
    await t.app.listen(0, '127.0.0.1');
    const server: Server = t.app.getHttpServer();
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    chrome = await launchChromium();
  });

  afterAll(async () => {
    await chrome?.close();
    await t?.close();
  });

  it('signs in with the cookies and CSRF, creates, lists and signs out', async () => {
    await createUser(t, { roles: ['super-admin'], email: 'ada@example.com', password: PASSWORD });

    const { page, problems } = await openPage(chrome);
    const modules = clientModules();
    // The page and the client's files come from the service's origin (answered by the browser's
    // request routing, not the service): a same-origin application, as a browser sees one.
    await page.route(`${origin}/client/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      return route.fulfill(
        path === '/client/'
          ? { contentType: 'text/html', body: '<!doctype html><title>app</title>' }
          : { contentType: 'text/javascript', body: modules[path] ?? '' },
      );
    });
    await page.goto(`${origin}/client/`);
    const result: unknown = await page.evaluate(WORKFLOW);
    expect(result).toEqual({
      login: 200,
      email: 'ada@example.com',
      readableCookies: '', // every cookie of the service is HttpOnly: the token came from the answer
      created: 201,
      titles: ['From the page'],
      logout: 200,
      after: 401,
    });
    expect(problems).toEqual([]);
  });
});
