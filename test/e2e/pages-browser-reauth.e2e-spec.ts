import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { createUser, CreatedUser } from '../utils/auth';
import { audit, describeInChromium, focusedId, launchChromium, openPage } from '../utils/chromium';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * The account page when a sensitive change meets an old sign-in: the server answers
 * `403 REAUTH_REQUIRED`, the page asks for the password in a modal dialog (by keyboard, axe
 * clean, at 360 px), proves it with `POST /auth/reauthenticate`, then sends the change again.
 */
const describeBrowser = describeInChromium('pages-browser-reauth');

describeBrowser('the password prompt of a sensitive change', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let chrome: Browser;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    chrome = await launchChromium();
  });
  afterAll(async () => {
    await chrome?.close();
    await t?.close();
  });

  async function signedIn(page: Page, user: CreatedUser): Promise<void> {
    await page.goto(`${base}/admin/login`);
    await page.getByLabel('Email address').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${base}/admin`);
    await page.locator('#who-text', { hasText: user.email }).waitFor();
  }

  /** The sign-in of every session of the user, older than the ten minutes that open changes. */
  const ageSignIn = (userId: string) =>
    t.db.query(
      `UPDATE refresh_tokens SET session_proved_at = now() - interval '11 minutes' WHERE user_id = $1`,
      [userId],
    );
  const keysOf = async (userId: string) =>
    (
      (await t.db.query(`SELECT name FROM api_keys WHERE user_id = $1`, [userId])) as Array<{ name: string }>
    ).map((k) => k.name);

  it('asks for the password, refuses a wrong one, then creates the key; by keyboard at 360 px', async () => {
    const user = await createUser(t);
    const { page, problems } = await openPage(chrome, { viewport: { width: 360, height: 800 } });
    await signedIn(page, user);
    await ageSignIn(user.id);

    await page.getByLabel('Name', { exact: true }).fill('build key');
    await page.getByLabel('Name', { exact: true }).press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.waitFor();
    expect(await focusedId(page)).toBe('reauth-password');
    await audit(page, 'home-reauth');
    expect(await keysOf(user.id)).toEqual([]);

    await page.keyboard.type('Wrong-Horse-00');
    await page.keyboard.press('Enter');
    await dialog.getByText('That password is not right.').waitFor();
    expect(await dialog.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    expect(await focusedId(page)).toBe('reauth-password');

    await dialog.getByLabel('Password').fill(user.password);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('#notice', { hasText: 'build key is created' }).waitFor();
    expect(await page.locator('#key-value').inputValue()).toMatch(/^svc_live_/);
    expect(await keysOf(user.id)).toEqual(['build key']);
    expect(problems).toEqual([]);
  });

  it('Escape cancels: nothing is created and the page stays usable', async () => {
    const user = await createUser(t);
    const { page, problems } = await openPage(chrome);
    await signedIn(page, user);
    await ageSignIn(user.id);

    await page.getByLabel('Name', { exact: true }).fill('never made');
    await page.getByRole('button', { name: 'Create key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await keysOf(user.id)).toEqual([]);
    // Confirmed once, the next change goes straight through for ten minutes.
    await page.getByRole('button', { name: 'Create key' }).click();
    await dialog.waitFor();
    await dialog.getByLabel('Password').fill(user.password);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.locator('#notice', { hasText: 'never made is created' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('second key');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#notice', { hasText: 'second key is created' }).waitFor();
    expect(await dialog.isVisible()).toBe(false);
    expect((await keysOf(user.id)).sort()).toEqual(['never made', 'second key']);
    expect(problems).toEqual([]);
  });
});
