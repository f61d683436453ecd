import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { magicLinkPlugin } from '../../src/plugins/magic-link';
import { createUser } from '../utils/auth';
import { describeInChromium, launchChromium, openPage } from '../utils/chromium';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * The sign-in page's query values in chromium, as an attacker could write them in a link:
 * `?error=` shows only the page's own messages (never a value inherited from Object.prototype),
 * and `?next=` leads only to an admin page after signing in, never into the API (the password
 * sign-in and the magic-link request both); an emailed link's `?token=` is only ever data.
 */
const describeBrowser = describeInChromium('pages-browser-login-params');

const GENERIC = 'Sign-in did not complete. Try again.';
const HOSTILE = '<img src=x onerror="document.title=1">"\'`&';

describeBrowser('the sign-in page’s error and next in a browser', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let chrome: Browser;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ config: { plugins: [magicLinkPlugin()] } });
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    chrome = await launchChromium();
  });
  afterAll(async () => {
    await chrome?.close();
    await t?.close();
  });

  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    '?error=%s shows the generic message, no function text',
    async (error) => {
      const { page, problems } = await openPage(chrome);
      await page.goto(`${base}/admin/login?error=${error}`);
      await page.locator('#error p').waitFor();
      expect(await page.locator('#error').textContent()).toBe(GENERIC);
      expect(await page.locator('body').innerText()).not.toMatch(/function|native code|\[object/);
      expect(problems).toEqual([]);
    },
  );

  it('?error=signin-failed shows its own message', async () => {
    const { page } = await openPage(chrome);
    await page.goto(`${base}/admin/login?error=signin-failed`);
    await page.locator('#error p').waitFor();
    expect(await page.locator('#error').textContent()).toBe(
      'Sign-in failed. Try again, or use another way to sign in.',
    );
  });

  it.each(['/admin/api/auth/session', '/admin/API/auth/session', '/admin/%2e%2e/admin/api/auth/session'])(
    'a password sign-in with ?next=%s lands on /admin, not in the API',
    async (next) => {
      const user = await createUser(t);
      const { page, problems } = await openPage(chrome);
      await page.goto(`${base}/admin/login?next=${encodeURIComponent(next)}`);
      await page.getByLabel('Email address').fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL(`${base}/admin`);
      await page.locator('#who-text', { hasText: user.email }).waitFor();
      expect(problems).toEqual([]);
    },
  );

  it('an admin page as ?next is where a password sign-in lands', async () => {
    const user = await createUser(t);
    const { page } = await openPage(chrome);
    await page.goto(`${base}/admin/login?next=${encodeURIComponent('/admin?tab=x#keys')}`);
    await page.getByLabel('Email address').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${base}/admin?tab=x#keys`);
  });

  it('the magic-link request carries /admin, not a ?next into the API', async () => {
    const { page, problems } = await openPage(chrome);
    const attackerLink = '/admin/api/plugins/magic-link/verify?token=the-attackers-own-link';
    await page.goto(`${base}/admin/login?next=${encodeURIComponent(attackerLink)}`);
    await page.locator('#magic-form').waitFor();
    const sent = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith('/admin/api/plugins/magic-link/request'),
    );
    await page.getByLabel('Your email, for a sign-in link').fill('someone@example.com');
    await page.getByRole('button', { name: 'Email me a link' }).click();
    expect((await sent).postDataJSON()).toEqual({ email: 'someone@example.com', next: '/admin' });
    await page.locator('#notice', { hasText: /link/i }).waitFor();
    expect(problems).toEqual([]);
  });

  it('a hostile ?error= is shown as the generic text, never as markup', async () => {
    const { page, problems } = await openPage(chrome);
    await page.goto(`${base}/admin/login?error=${encodeURIComponent(HOSTILE)}`);
    await page.locator('#error p').waitFor();
    expect(await page.locator('#error').textContent()).toBe(GENERIC);
    expect(await page.locator('#error img').count()).toBe(0);
    expect(await page.title()).toBe('Sign in · svc');
    expect(problems).toEqual([]);
  });

  it("an emailed link's token leaves the address bar and is sent as given, as data", async () => {
    const { page, problems } = await openPage(chrome);
    await page.goto(`${base}/admin/reset-password?token=${encodeURIComponent(HOSTILE)}`);
    await page.getByLabel('New password').waitFor();
    expect(new URL(page.url()).search).toBe('');
    const sent = page.waitForRequest(
      (r) => r.method() === 'POST' && r.url().endsWith('/admin/api/auth/reset-password'),
    );
    await page.getByLabel('New password').fill('Brand-New-Pass-7');
    await page.getByLabel('Repeat the password').fill('Brand-New-Pass-7');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    expect((await sent).postDataJSON()).toEqual({ token: HOSTILE, password: 'Brand-New-Pass-7' });
    await page.locator('#error', { hasText: 'This link is invalid, used or expired' }).waitFor();
    expect(await page.locator('img').count()).toBe(0);
    // Back in history: the token is not there either.
    expect(await page.evaluate('history.length')).toBe(2);
    expect(problems).toEqual([]);
  });

  it('a link without its token says it is incomplete and offers no form', async () => {
    for (const path of ['/admin/reset-password', '/admin/verify-email', '/admin/accept-invite']) {
      const { page } = await openPage(chrome);
      await page.goto(`${base}${path}`);
      await page.locator('#error', { hasText: 'This link is incomplete' }).waitFor();
      expect(await page.locator('form').count()).toBe(0);
      await page.close();
    }
  });
});
