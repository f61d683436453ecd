import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { oidcPlugin } from '../../src/plugins/oidc';
import { passkeyPlugin } from '../../src/plugins/passkeys';
import { createUser } from '../utils/auth';
import {
  audit,
  describeInChromium,
  focusedId,
  launchChromium,
  openPage,
  screenshot,
} from '../utils/chromium';
import { startTestProvider, type TestProvider } from '../utils/oidc-test-provider';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * The pages with the shipped sign-in plugins, in chromium: a passkey added on /admin through
 * chromium's virtual authenticator (CDP WebAuthn), then used as the second factor after the
 * password (also resumed from the `svc_pending` cookie) and for a passwordless sign-in; and an
 * OIDC sign-in through a real provider's own sign-in and consent pages. The service is served on
 * `localhost` (a WebAuthn RP id is a domain, never an IP address), the provider on 127.0.0.1.
 */

const describeBrowser = describeInChromium('pages-browser-plugins');

/** A loopback port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describeBrowser('pages in a browser, with the passkey and OIDC plugins', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let idp: TestProvider;
  let chrome: Browser;
  let base: string;

  beforeAll(async () => {
    const port = await freePort();
    base = `http://localhost:${port}`;
    const redirectUri = `${base}/admin/api/plugins/oidc/callback`;
    idp = await startTestProvider({
      clientId: 'svc-pages',
      clientSecret: 'svc-pages-secret-0123456789',
      redirectUri,
    });
    t = await createTestApp({
      config: {
        plugins: [
          passkeyPlugin({ rpId: 'localhost', rpName: 'svc pages', origins: [base] }),
          oidcPlugin({
            issuer: idp.issuer,
            clientId: 'svc-pages',
            clientSecret: 'svc-pages-secret-0123456789',
            label: 'Sign in with Test ID',
            redirectUri,
          }),
        ],
        // Holders of `staff` must set up a second factor at sign-in (the mfa-enrol step).
        auth: { mfa: { requiredForRoles: ['staff'] } },
      },
      // The origin the browser names (the Origin check allows the listening address, 127.0.0.1).
      overrides: { publicUrl: base },
    });
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
    await t.db.query(`INSERT INTO roles (name, slug) VALUES ('Staff', 'staff')`);
    chrome = await launchChromium();
  });
  afterAll(async () => {
    await chrome?.close();
    await t?.close();
    await idp?.close();
  });

  async function signInWith(page: Page, email: string, password: string): Promise<void> {
    await page.goto(`${base}/admin/login`);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  async function signOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/admin/login`);
  }

  /** Signed in on the landing page as `email`. */
  async function landed(page: Page, email: string): Promise<void> {
    await page.waitForURL(`${base}/admin`);
    await page.locator('#who-text', { hasText: email }).waitFor();
  }

  /** Chromium's virtual authenticator on the page: a platform one, user verification on. */
  async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    return { cdp, authenticatorId };
  }

  it('adds a passkey on /admin, then signs in with it after the password, resumed, and alone', async () => {
    const user = await createUser(t, { name: 'Pat Passkey' });
    const { page, problems } = await openPage(chrome);
    const { cdp, authenticatorId } = await virtualAuthenticator(page);

    // The landing page: no passkey yet; one added (named), listed, never used.
    await signInWith(page, user.email, user.password);
    await landed(page, user.email);
    await page.locator('#passkeys-empty').waitFor();
    await page.getByLabel('Name of the passkey (optional)').fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.locator('#notice', { hasText: 'The passkey Test laptop is added.' }).waitFor();
    expect(await focusedId(page)).toBe('notice');
    const row = page.getByRole('row', { name: /Test laptop/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Never');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0].isResidentCredential).toBe(true);
    await audit(page, 'home-passkeys');

    // (a) The password, then the passkey: the second step asks the browser at once.
    await signOut(page);
    await signInWith(page, user.email, user.password);
    await landed(page, user.email);
    expect(await row.textContent()).not.toContain('Never');

    // Resumed (a plugin's redirect, or a reload): the pending step from the svc_pending cookie, the
    // passkey asked for on a click. The password goes through the API from the same browser.
    await signOut(page);
    const csrf = (await (await page.request.get(`${base}/admin/api/auth/csrf`)).json()) as {
      csrfToken: string;
    };
    const login = await page.request.post(`${base}/admin/api/auth/login`, {
      headers: { 'X-CSRF-Token': csrf.csrfToken },
      data: { email: user.email, password: user.password },
    });
    expect(await login.json()).toMatchObject({ status: 'challenge', challengeType: 'passkey' });
    await page.goto(`${base}/admin/login?resume=1`);
    await page.locator('#step-passkey').waitFor();
    expect(await focusedId(page)).toBe('passkey-button');
    await audit(page, 'login-passkey-step');
    await page.keyboard.press('Enter');
    await landed(page, user.email);

    // (b) Passwordless: the button on the sign-in page, the discoverable credential.
    await signOut(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    await audit(page, 'login-passkey-button');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await landed(page, user.email);

    // Deleted: the list is empty, and the password alone signs in again.
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete the passkey Test laptop' }).click();
    await page.locator('#notice', { hasText: 'The passkey Test laptop is deleted.' }).waitFor();
    await page.locator('#passkeys-empty').waitFor();
    await signOut(page);
    await signInWith(page, user.email, user.password);
    await landed(page, user.email);
    expect(problems).toEqual([]);
  });

  it('the mfa-enrol step with a passkey: added at sign-in, then the session on /admin', async () => {
    const user = await createUser(t);
    await t.db.query(
      `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE slug = 'staff'`,
      [user.id],
    );
    const { page, problems } = await openPage(chrome);
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await signInWith(page, user.email, user.password);
    await page.locator('#step-enrol').waitFor();
    expect(await focusedId(page)).toBe('enrol-title');
    // The passkey plugin alone: no authenticator-app part.
    await page.locator('#enrol-text', { hasText: 'Add a passkey.' }).waitFor();
    expect(await page.locator('#enrol-totp').isVisible()).toBe(false);
    await audit(page, 'login-mfa-enrol-passkey');
    await page.getByLabel('Name of the passkey (optional)').fill('Enrolled laptop');
    await page.getByRole('button', { name: 'Add a passkey and sign in' }).click();
    await landed(page, user.email);
    await page.getByRole('row', { name: /Enrolled laptop/ }).waitFor();
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it('announces a passkey the browser or the service refuses, and keeps the step', async () => {
    const user = await createUser(t);
    const { page, problems } = await openPage(chrome);
    const { cdp, authenticatorId } = await virtualAuthenticator(page);
    await signInWith(page, user.email, user.password);
    await landed(page, user.email);
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.locator('#notice', { hasText: 'The passkey Passkey is added.' }).waitFor();
    await signOut(page);

    // The authenticator cannot verify the user (required): the browser gives no assertion.
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
    await signInWith(page, user.email, user.password);
    await page.locator('#step-passkey').waitFor();
    const error = page.locator('#error', { hasText: 'No passkey was used' });
    await error.waitFor();
    expect(await error.getAttribute('aria-live')).toBe('assertive');
    expect(await focusedId(page)).toBe('error');
    await audit(page, 'login-passkey-refused');

    // Verifying again, the button (keyboard) tries once more.
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: true });
    await page.locator('#passkey-button').focus();
    await page.keyboard.press('Enter');
    await landed(page, user.email);
    await signOut(page);

    // A passkey the service no longer knows (removed elsewhere): the passwordless sign-in is refused.
    await t.db.query(`DELETE FROM plugin_passkey_credentials WHERE user_id = $1`, [user.id]);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.locator('#error', { hasText: 'This passkey could not sign you in' }).waitFor();
    expect(await focusedId(page)).toBe('error');
    expect(page.url()).toBe(`${base}/admin/login`);
    expect(problems).toEqual([]);
  });

  it('signs in with the OIDC provider through its sign-in and consent pages', async () => {
    const user = await createUser(t, { name: 'Olive OIDC' });
    idp.people.set(user.email, { email: user.email, password: 'provider-pass-1', name: 'Olive at Test ID' });
    const { page, problems } = await openPage(chrome);
    await page.goto(`${base}/admin/login`);
    const button = page.getByRole('link', { name: 'Sign in with Test ID' });
    await button.waitFor();
    await audit(page, 'login-providers');
    await button.click();

    // The provider's pages, in the browser.
    await page.waitForURL(`${idp.issuer}/interaction/**`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('provider-pass-1');
    await screenshot(page, 'oidc-provider-sign-in');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    await screenshot(page, 'oidc-provider-consent');
    await page.getByRole('button', { name: 'Allow' }).click();

    // Back to the service: the callback signs in and lands on /admin.
    await landed(page, user.email);
    await screenshot(page, 'home-after-oidc');
    const links = (await t.db.query(`SELECT sub FROM plugin_oidc_links WHERE user_id = $1`, [
      user.id,
    ])) as Array<{
      sub: string;
    }>;
    expect(links).toEqual([{ sub: user.email }]);
    expect(problems).toEqual([]);
  });
});
