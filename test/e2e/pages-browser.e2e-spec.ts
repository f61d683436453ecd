import type { AddressInfo } from 'node:net';
import { authenticator } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { totpPlugin } from '../../src/plugins/totp';
import { bearerFor, createUser, PASSWORD, userWithPermissions } from '../utils/auth';
import {
  audit,
  describeInChromium,
  fitsNarrow,
  focusedId,
  launchChromium,
  openPage,
} from '../utils/chromium';
import { addresses, extractLink, startSmtp, TestSmtp, useTestSmtp } from '../utils/smtp';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * The pages under /admin in a real browser (Debian's chromium through playwright-core): sign-in,
 * the wrong password announced, the TOTP second step, a password reset and an invitation from
 * emails caught by the test SMTP server. Each page is checked with axe-core (no serious or
 * critical violation) and photographed to test-artifacts/screenshots/. Passkeys and OIDC on the
 * pages: pages-browser-plugins.e2e-spec.ts.
 *
 * Without /usr/bin/chromium the file is skipped, except under CI, where it must run (.ci/run
 * installs chromium): test/utils/chromium.ts.
 */

const describeBrowser = describeInChromium('pages-browser');
const NEW_PASSWORD = 'Brand-New-Pass-7';
const STEP_MS = 30_000;

describeBrowser('pages in a browser', () => {
  jest.setTimeout(90_000);
  let t: TestApp;
  let smtp: TestSmtp;
  let chrome: Browser;
  let base: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ config: { plugins: [totpPlugin()] } });
    await useTestSmtp(t, smtp);
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    chrome = await launchChromium();
  });
  afterAll(async () => {
    await chrome?.close();
    await t?.close();
    await smtp?.close();
  });

  /** A fresh browser context (no cookies) and its page; CSP violations fail the test. */
  const open = () => openPage(chrome);

  async function signInWith(page: Page, email: string, password: string): Promise<void> {
    await page.goto(`${base}/admin/login`);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  /** The local path of an emailed link (the app's public URL is http://localhost:3000). */
  async function linkFor(email: string, action: string): Promise<string> {
    const mail = await smtp.waitFor((m) => addresses(m).includes(email) && !!extractLink(m, action), 15_000);
    const link = new URL(extractLink(mail, action)!);
    return `${base}${link.pathname}${link.search}`;
  }

  it('signs in and lands on /admin showing the email; signs out', async () => {
    const user = await createUser(t, { name: 'Ada Pages' });
    const { page, problems } = await open();
    await page.goto(`${base}/admin/login`);
    await audit(page, 'login');
    await signInWith(page, user.email, user.password);
    await page.waitForURL(`${base}/admin`);
    await page.locator('#who-text', { hasText: user.email }).waitFor();
    await page.locator('#keys').waitFor();
    await audit(page, 'home');

    // An API key: created, shown once, listed, revoked.
    await page.getByLabel('Name', { exact: true }).fill('ci key');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#key-created').waitFor();
    expect(await page.locator('#key-value').inputValue()).toMatch(/^svc_live_/);
    await page.getByRole('row', { name: /ci key/ }).waitFor();
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Revoke the key ci key' }).click();
    await page.locator('#notice', { hasText: 'is revoked' }).waitFor();
    await audit(page, 'home-api-keys');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/admin/login`);
    await page.goto(`${base}/admin`);
    await page.waitForURL(/\/admin\/login\?next=/);
    expect(problems).toEqual([]);
  });

  it('signs in and reaches every signed-out screen by keyboard alone, each fitting 360 px', async () => {
    const user = await createUser(t);
    const { page, problems } = await open();
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(`${base}/admin/forgot-password`);
    await fitsNarrow(page, 'forgot-password');
    for (const path of [
      '/admin/reset-password?token=x',
      '/admin/accept-invite?token=x',
      '/admin/verify-email?token=x',
    ]) {
      await page.goto(`${base}${path}`);
      await page.locator('#intro').waitFor();
      await fitsNarrow(page, path.slice(7, path.indexOf('?')));
    }
    await page.goto(`${base}/admin/login`);
    await fitsNarrow(page, 'login');
    await page.setViewportSize({ width: 360, height: 740 });
    // Tab order: email, password, the button; Enter signs in.
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('login-email');
    await page.keyboard.type(user.email);
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('login-password');
    await page.keyboard.type(user.password);
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Sign in');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/admin`);
    await page.locator('#keys').waitFor();
    await fitsNarrow(page, 'home');
    expect(problems).toEqual([]);
  });

  it('announces a wrong password and moves the focus to it', async () => {
    const user = await createUser(t);
    const { page, problems } = await open();
    await signInWith(page, user.email, 'Wrong-Password-1');
    const error = page.locator('#error');
    await error.filter({ hasText: 'not right' }).waitFor();
    expect(await error.getAttribute('aria-live')).toBe('assertive');
    expect(await focusedId(page)).toBe('error');
    await audit(page, 'login-wrong-password');
    await page.goto(`${base}/admin/login?error=signin-failed`);
    await page.locator('#error', { hasText: 'Sign-in failed' }).waitFor();
    expect(await focusedId(page)).toBe('error');
    expect(problems).toEqual([]);
  });

  it('enrols TOTP on /admin, then signs in with a code at the second step', async () => {
    const user = await createUser(t);
    const { page, problems } = await open();
    await signInWith(page, user.email, user.password);
    await page.waitForURL(`${base}/admin`);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.locator('#totp-secret:not(:empty)').waitFor();
    const secret = (await page.locator('#totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    await audit(page, 'home-totp-enrol');
    const step = Math.floor(Date.now() / STEP_MS);
    await page.getByLabel('Code from the app').fill(authenticator.generate(secret));
    await page.getByRole('button', { name: 'Turn on two-step verification' }).click();
    await page.locator('#totp-codes li').first().waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${base}/admin/login`);

    await signInWith(page, user.email, user.password);
    await page.locator('#step-challenge').waitFor();
    expect(await focusedId(page)).toBe('challenge-code');
    await audit(page, 'login-totp');
    // A reload (or a plugin's redirect) resumes the pending step from its cookie.
    await page.goto(`${base}/admin/login?resume=1`);
    await page.locator('#step-challenge').waitFor();
    await page.locator('#notice', { hasText: 'attempts left' }).waitFor();
    // The code of the step used to enrol is spent (replay): the next step's, inside the window.
    const next = authenticator.clone({ epoch: (step + 1) * STEP_MS + 1_000 }).generate(secret);
    await page.getByLabel('Code', { exact: true }).fill(next);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(`${base}/admin`);
    await page.locator('#who-text', { hasText: user.email }).waitFor();
    expect(problems).toEqual([]);
  });

  it('asks for a new password when an administrator set one', async () => {
    const admin = await userWithPermissions(t, ['update-users']);
    const user = await createUser(t);
    await t.http
      .patch(`/admin/api/users/${user.id}/password`)
      .set(await bearerFor(t, admin.id))
      .send({ password: PASSWORD, requirePasswordChange: true })
      .expect(200);
    const { page, problems } = await open();
    await signInWith(page, user.email, PASSWORD);
    await page.locator('#step-initial-password').waitFor();
    expect(await focusedId(page)).toBe('initial-password');
    await audit(page, 'login-set-initial-password');
    await page.getByLabel('New password').fill('weak');
    await page.getByLabel('Repeat the password').fill('weak');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.locator('#error:not(:empty)').waitFor();
    expect(await focusedId(page)).toBe('error');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL(`${base}/admin`);
    expect(problems).toEqual([]);
  });

  it('resets a password from the emailed link', async () => {
    const user = await createUser(t);
    const { page, problems } = await open();
    await page.goto(`${base}/admin/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(`${base}/admin/forgot-password`);
    await audit(page, 'forgot-password');
    await page.getByLabel('Email address').fill(user.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.locator('#notice:not(:empty)').waitFor();

    await page.goto(await linkFor(user.email, 'reset-password'));
    // The token leaves the address bar at once.
    await page.waitForURL(`${base}/admin/reset-password`);
    await audit(page, 'reset-password');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await page.locator('#notice', { hasText: 'Your password is changed' }).waitFor();

    await signInWith(page, user.email, NEW_PASSWORD);
    await page.waitForURL(`${base}/admin`);
    expect(problems).toEqual([]);
  });

  it('accepts an invitation from the emailed link', async () => {
    const admin = await userWithPermissions(t, ['create-users']);
    const email = `invitee-${Date.now()}@example.com`;
    const created = await t.http
      .post('/admin/api/users')
      .set(await bearerFor(t, admin.id))
      .send({ email, name: 'Invitee', sendInvite: true });
    expect(created.status).toBe(201);
    const { page, problems } = await open();
    await page.goto(await linkFor(email, 'accept-invite'));
    await audit(page, 'accept-invite');
    await page.getByLabel('Your name (optional)').fill('Grace Invitee');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill('Not-The-Same-1');
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.locator('#error', { hasText: 'not the same' }).waitFor();
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create my account' }).click();
    await page.locator('#notice', { hasText: 'Your account is ready' }).waitFor();

    await signInWith(page, email, PASSWORD);
    await page.waitForURL(`${base}/admin`);
    await page.locator('#who-text', { hasText: 'Grace Invitee' }).waitFor();
    expect(problems).toEqual([]);
  });

  it('verifies an email address from the emailed link', async () => {
    const email = `register-${Date.now()}@example.com`;
    const csrf = await t.http.get('/admin/api/auth/csrf');
    await t.http
      .post('/admin/api/auth/register')
      .set('Cookie', csrf.headers['set-cookie'] as unknown as string[])
      .set('X-CSRF-Token', csrf.body.csrfToken as string)
      .send({ email, password: PASSWORD, name: 'Reg' })
      .expect(200);
    const { page, problems } = await open();
    await page.goto(await linkFor(email, 'verify-email'));
    await audit(page, 'verify-email');
    await page.getByRole('button', { name: 'Verify my email address' }).click();
    await page.locator('#notice', { hasText: 'is verified' }).waitFor();
    await signInWith(page, email, PASSWORD);
    await page.waitForURL(`${base}/admin`);
    expect(problems).toEqual([]);
  });
});
