import type { AddressInfo } from 'node:net';
import { authenticator } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { totpPlugin } from '../../src/plugins/totp';
import { createUser, CreatedUser, roleWithPermissions, userWithPermissions } from '../utils/auth';
import { audit, describeInChromium, focusedId, launchChromium, openPage } from '../utils/chromium';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * The Security section of /admin in chromium (issue 22 item 6): the sessions of two browsers,
 * one ended from the other (its next API request is refused, its page goes to sign-in), "sign
 * out everywhere else"; an API key rotated (the new value shown once, the old one refused over
 * HTTP) and created with scopes; and the `mfa-enrol` step of the sign-in page with TOTP, also
 * resumed with `?resume=1`, ending on /admin after the recovery codes. axe-core and screenshots
 * as in pages-browser.e2e-spec.ts (test/utils/chromium.ts).
 */

const describeBrowser = describeInChromium('pages-browser-security');
const API = '/admin/api';

describeBrowser('the security section and the enrolment step in a browser', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let chrome: Browser;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({
      config: { plugins: [totpPlugin()], auth: { mfa: { requiredForRoles: ['staff'] } } },
    });
    await t.db.query(`INSERT INTO roles (name, slug) VALUES ('Staff', 'staff')`);
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    chrome = await launchChromium();
  });
  afterAll(async () => {
    await chrome?.close();
    await t?.close();
  });

  /** A fresh context (no cookies) with its own user agent, so its session row is told apart. */
  const open = (userAgent: string) => openPage(chrome, { userAgent });

  async function signIn(page: Page, user: { email: string; password: string }): Promise<void> {
    await page.goto(`${base}/admin/login`);
    await page.getByLabel('Email address').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  }

  async function signedIn(page: Page, user: CreatedUser): Promise<void> {
    await signIn(page, user);
    await page.waitForURL(`${base}/admin`);
    await page.locator('#who-text', { hasText: user.email }).waitFor();
  }

  /** The status of an API request made by the page itself (its cookies, no refresh). */
  const apiStatus = (page: Page) =>
    page.evaluate(
      async () => (await fetch('/admin/api/auth/session', { credentials: 'same-origin' })).status,
    );

  const sessionRows = (page: Page) => page.locator('#sessions-body tr');

  it('lists both browsers’ sessions, ends the other one: its requests are refused, its page signs in', async () => {
    const user = await createUser(t);
    const other = await open('OtherBrowser/2.0 (the other device)');
    const here = await open('SecurityTest/1.0 (this device)');
    await signedIn(other.page, user);
    await signedIn(here.page, user);
    const { page } = here;

    await page.locator('#sessions').waitFor();
    await expectRows(page, 2);
    const mine = page.getByRole('row', { name: /SecurityTest\/1\.0/ });
    await mine.getByText('This device', { exact: true }).waitFor();
    expect(await mine.getByRole('button').count()).toBe(0);
    await page.getByRole('row', { name: /OtherBrowser\/2\.0/ }).waitFor();
    await page.getByRole('button', { name: 'Sign out everywhere else' }).waitFor();
    await audit(page, 'home-security');

    expect(await apiStatus(other.page)).toBe(200);
    // By keyboard: the row's button focused, Enter.
    await page.getByRole('button', { name: /^End the session of OtherBrowser\/2\.0/ }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#notice', { hasText: 'The session is ended' }).waitFor();
    expect(await focusedId(page)).toBe('notice');
    await expectRows(page, 1);
    expect(await page.getByRole('button', { name: 'Sign out everywhere else' }).isVisible()).toBe(false);

    // The other browser: its next request is refused, a reload of /admin lands on the sign-in page.
    expect(await apiStatus(other.page)).toBe(401);
    await other.page.reload();
    await other.page.waitForURL(/\/admin\/login\?next=%2Fadmin$/);
    // This one is still signed in.
    expect(await apiStatus(page)).toBe(200);
    expect([...here.problems, ...other.problems]).toEqual([]);
  });

  it('signs out everywhere else, keeping this browser signed in', async () => {
    const user = await createUser(t);
    const first = await open('FirstBrowser/1.0');
    const second = await open('SecondBrowser/1.0');
    const here = await open('SecurityTest/1.0 (this device)');
    await signedIn(first.page, user);
    await signedIn(second.page, user);
    await signedIn(here.page, user);
    const { page } = here;
    await expectRows(page, 3);

    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.locator('#notice', { hasText: '2 other sessions are ended' }).waitFor();
    await expectRows(page, 1);
    await page
      .getByRole('row', { name: /SecurityTest/ })
      .getByText('This device', { exact: true })
      .waitFor();
    expect(await apiStatus(first.page)).toBe(401);
    expect(await apiStatus(second.page)).toBe(401);
    expect(await apiStatus(page)).toBe(200);
    await page.reload();
    await page.locator('#who-text', { hasText: user.email }).waitFor();
    expect([...first.problems, ...second.problems, ...here.problems]).toEqual([]);
  });

  it('rotates an API key: the new value shown once, the old one refused; creates one with scopes', async () => {
    const user = await userWithPermissions(t, ['read-users']);
    const { page, problems } = await open('SecurityTest/1.0');
    await signedIn(page, user);
    const withKey = (key: string) =>
      t.http.get(`${API}/me/permissions`).set('Authorization', `Bearer ${key}`);

    // Scopes: an unknown slug is named next to the field; a granted one makes a scoped key.
    await page.getByLabel('Name', { exact: true }).fill('scoped key');
    await page.getByLabel('Scopes (optional)').fill('read-users, no-such-permission');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#key-scopes-error', { hasText: 'no-such-permission' }).waitFor();
    expect(await page.getByLabel('Scopes (optional)').getAttribute('aria-invalid')).toBe('true');
    expect(await focusedId(page)).toBe('error');
    await page.getByLabel('Scopes (optional)').fill('read-users');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page
      .getByRole('row', { name: /scoped key/ })
      .getByText('scopes: read-users')
      .waitFor();
    expect(await page.locator('#key-scopes-error').textContent()).toBe('');

    // A key, rotated with no grace: the old value stops at once.
    await page.getByLabel('Name', { exact: true }).fill('rotating key');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#notice', { hasText: 'rotating key is created' }).waitFor();
    const original = await page.locator('#key-value').inputValue();
    expect(original).toMatch(/^svc_live_/);
    expect((await withKey(original)).status).toBe(200);

    await page.getByRole('button', { name: 'Rotate the key rotating key' }).click();
    await page.locator('#key-rotate-form').waitFor();
    expect(await focusedId(page)).toBe('key-rotate-grace');
    expect(await page.getByLabel('The old value keeps working for').inputValue()).toBe('0');
    await audit(page, 'home-security-rotate');
    await page.getByRole('button', { name: 'Rotate the key', exact: true }).click();
    await page.locator('#notice', { hasText: 'rotating key is rotated' }).waitFor();
    expect(await focusedId(page)).toBe('key-value');
    const rotated = await page.locator('#key-value').inputValue();
    expect(rotated).toMatch(/^svc_live_/);
    expect(rotated).not.toBe(original);
    expect(await page.locator('#key-rotate-form').isVisible()).toBe(false);
    const refused = await withKey(original);
    expect([refused.status, refused.body.error.code]).toEqual([401, 'AUTH_INVALID_CREDENTIALS']);
    expect((await withKey(rotated)).status).toBe(200);
    // Shown once: a reload shows no value.
    await page.reload();
    await page.getByRole('row', { name: /rotating key/ }).waitFor();
    expect(await page.locator('#key-created').isVisible()).toBe(false);

    // Rotated again with an hour of grace: both values work for now.
    await page.getByRole('button', { name: 'Rotate the key rotating key' }).click();
    await page.getByLabel('The old value keeps working for').selectOption({ label: '1 hour' });
    await page.getByRole('button', { name: 'Rotate the key', exact: true }).click();
    await page.locator('#notice', { hasText: 'keeps working for 1 hour' }).waitFor();
    const again = await page.locator('#key-value').inputValue();
    expect(again).not.toBe(rotated);
    expect((await withKey(rotated)).status).toBe(200);
    expect((await withKey(again)).status).toBe(200);

    // Cancel puts the focus back on the row's button.
    await page.getByRole('button', { name: 'Rotate the key scoped key' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.locator('#key-rotate-form').isVisible()).toBe(false);
    expect(
      await page.evaluate("document.activeElement && document.activeElement.getAttribute('aria-label')"),
    ).toBe('Rotate the key scoped key');
    expect(problems).toEqual([]);
  });

  it('creates a role-based key on the API keys screen: it holds that role only; a role beyond the creator is refused', async () => {
    const user = await userWithPermissions(t, ['read-users', 'read-roles', 'read-audit']);
    const narrow = await roleWithPermissions(t, ['read-users']);
    const wider = await roleWithPermissions(t, ['read-users', 'delete-users']);
    const names: Array<{ slug: string }> = await t.db.query(
      `SELECT slug FROM roles WHERE id = ANY($1) ORDER BY array_position($1, id)`,
      [[narrow, wider]],
    );
    const { page, problems } = await open('SecurityTest/1.0');
    await signedIn(page, user);
    await page
      .getByRole('navigation', { name: 'Administration' })
      .getByRole('link', { name: 'API keys' })
      .click();
    await page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();

    // The Role select appears with the role-based type and lists the roles.
    expect(await page.getByLabel('Role', { exact: true }).count()).toBe(0);
    await page.getByLabel('Type', { exact: true }).selectOption('role-based');
    const role = page.getByLabel('Role', { exact: true });
    await role.locator(`option[value="${narrow}"]`).waitFor({ state: 'attached' });
    await audit(page, 'api-keys-role-based');

    // A role holding what the creator lacks: the API's refusal is shown, no key is made.
    await page.getByLabel('Name', { exact: true }).fill('too wide');
    await role.selectOption({ label: names[1].slug });
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#error', { hasText: /permissions its creator does not hold/ }).waitFor();
    expect(await page.getByRole('row', { name: /too wide/ }).count()).toBe(0);

    await page.getByLabel('Name', { exact: true }).fill('readers key');
    await role.selectOption({ label: names[0].slug });
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#notice', { hasText: 'readers key is created' }).waitFor();
    const key = await page.locator('#key-value').inputValue();
    await page
      .getByRole('row', { name: new RegExp(`readers key.*role-based \\(${names[0].slug}\\)`) })
      .waitFor();
    const held = await t.http.get(`${API}/me/permissions`).set('Authorization', `Bearer ${key}`);
    expect(held.status).toBe(200);
    expect(held.body.permissions).toEqual(['read-users']);
    const [row] = await t.db.query(`SELECT type, role_id FROM api_keys WHERE name = 'readers key'`);
    expect(row).toEqual({ type: 'role-based', role_id: narrow });
    expect(problems).toEqual([]);
  });

  async function staffUser(): Promise<CreatedUser> {
    const user = await createUser(t);
    await t.db.query(
      `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE slug = 'staff'`,
      [user.id],
    );
    return user;
  }

  it('the mfa-enrol step: TOTP set up at sign-in, recovery codes shown once, then /admin', async () => {
    const user = await staffUser();
    const { page, problems } = await open('SecurityTest/1.0');
    await signIn(page, user);
    await page.locator('#step-enrol').waitFor();
    expect(await focusedId(page)).toBe('enrol-title');
    expect(await page.locator('#step-login').isVisible()).toBe(false);
    await page.locator('#enrol-text', { hasText: 'Set up an authenticator app.' }).waitFor();
    // Only TOTP is installed: no passkey part.
    expect(await page.locator('#enrol-passkey').isVisible()).toBe(false);
    await audit(page, 'login-mfa-enrol');

    // A reload resumes the step from the svc_pending cookie (no token in the page any more).
    await page.goto(`${base}/admin/login?resume=1`);
    await page.locator('#step-enrol').waitFor();
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.locator('#enrol-totp-secret:not(:empty)').waitFor();
    expect(await focusedId(page)).toBe('enrol-totp-code');
    const secret = (await page.locator('#enrol-totp-secret').textContent())!.trim();
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    expect(await page.locator('#enrol-totp-qr').getAttribute('src')).toMatch(/^data:image\/svg\+xml;/);
    await audit(page, 'login-mfa-enrol-totp');

    // A wrong code is announced; the step stays.
    const wrong = authenticator.generate(secret) === '000000' ? '111111' : '000000';
    await page.getByLabel('Code from the app').fill(wrong);
    await page.getByRole('button', { name: 'Turn on two-step verification and sign in' }).click();
    await page.locator('#error', { hasText: 'That code is not right' }).waitFor();
    expect(await focusedId(page)).toBe('error');

    await page.getByLabel('Code from the app').fill(authenticator.generate(secret));
    await page.getByRole('button', { name: 'Turn on two-step verification and sign in' }).click();
    await page.locator('#step-recovery').waitFor();
    expect(await focusedId(page)).toBe('recovery-title');
    const codes = await page.locator('#recovery-codes li').allTextContents();
    expect(codes.length).toBeGreaterThan(4);
    await audit(page, 'login-mfa-enrol-recovery');
    await page.getByRole('button', { name: 'I have kept them: continue' }).click();
    await page.waitForURL(`${base}/admin`);
    await page.locator('#who-text', { hasText: user.email }).waitFor();
    await page.locator('#totp-state', { hasText: `On. ${codes.length} recovery codes left.` }).waitFor();
    expect(problems).toEqual([]);
  });

  it('the mfa-enrol step started over when its sign-in expired', async () => {
    const user = await staffUser();
    const { page, problems } = await open('SecurityTest/1.0');
    await signIn(page, user);
    await page.locator('#step-enrol').waitFor();
    await t.db.query(`DELETE FROM pending_logins WHERE user_id = $1`, [user.id]);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.locator('#error', { hasText: 'This sign-in has expired' }).waitFor();
    await page.locator('#step-login').waitFor();
    expect(problems).toEqual([]);
  });

  async function expectRows(page: Page, n: number): Promise<void> {
    await page.waitForFunction(`document.querySelectorAll('#sessions-body tr').length === ${n}`);
    expect(await sessionRows(page).count()).toBe(n);
  }
});
