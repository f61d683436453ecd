import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { bearerFor, createUser, type CreatedUser } from '../utils/auth';
import { describeInChromium, launchChromium, openPage, signInToApp } from '../utils/chromium';
import { addresses, extractLink, startSmtp, type TestSmtp, useTestSmtp } from '../utils/smtp';
import { createTestApp, type TestApp } from '../utils/test-app';

/**
 * The whole path in the browser only, as a person who never used the API takes it: an
 * administrator creates a collection in the schema builder, a role limited to it, and invites an
 * editor holding that role; the editor accepts the emailed invitation, writes a post and schedules
 * its publication, which runs. The API is only read, to check what the screens did.
 */

const describeBrowser = describeInChromium('admin-walkthrough-browser');
const PASSWORD = 'Editor-pass-1';

/** A local wall-clock time `ms` from now as `datetime-local` shows it, in the page's time zone. */
const localIn = (page: Page, ms: number) =>
  page.evaluate((offset) => {
    const d = new Date(Date.now() + offset);
    const pad = (n: number) => String(n).padStart(2, '0');
    return (
      `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
      `T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
    );
  }, ms);

describeBrowser('from an empty service to a scheduled post, in the browser only', () => {
  jest.setTimeout(180_000);
  let t: TestApp;
  let smtp: TestSmtp;
  let chrome: Browser;
  let base: string;
  let owner: CreatedUser;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp();
    await useTestSmtp(t, smtp);
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    chrome = await launchChromium();
    owner = await createUser(t, { roles: ['super-admin'], name: 'Olga Owner' });
  });

  afterAll(async () => {
    await chrome?.close();
    await t?.close();
    await smtp?.close();
  });

  it('sets up a collection, invites an editor with a limited role, and the editor schedules a post', async () => {
    const admin = await openPage(chrome);
    const page = admin.page;
    await signInToApp(page, base, '/admin/content', owner.email, owner.password);
    const administration = page.getByRole('navigation', { name: 'Administration' });

    // 1. A collection, in the schema builder.
    await administration.getByRole('link', { name: 'Content types' }).click();
    await page.getByRole('link', { name: 'New collection' }).click();
    await page.getByLabel('Slug').fill('stories');
    await page.getByLabel('Singular label').fill('Story');
    await page.getByLabel('Plural label').fill('Stories');
    await page.getByRole('checkbox', { name: 'Drafts' }).check();
    await page.getByRole('checkbox', { name: 'Versions' }).check();
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Name', { exact: true }).fill('headline');
    await page.getByLabel('Label', { exact: true }).fill('Headline');
    await page.getByLabel('Type').selectOption('text');
    await page.getByRole('checkbox', { name: 'Required' }).check();
    await page.getByRole('button', { name: 'Preview changes' }).click();
    await page.getByRole('row', { name: /headline/ }).waitFor();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(`${base}/admin/schema/collections/stories`);
    await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: 'Stories' }).waitFor();

    // 2. A role that may write and publish stories, and nothing else.
    await administration.getByRole('link', { name: 'Roles' }).click();
    await page.getByRole('link', { name: 'New role' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Story writers');
    for (const action of ['read', 'create', 'update', 'publish']) {
      await page.getByRole('checkbox', { name: `${action} stories`, exact: true }).check();
    }
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.getByRole('status').getByText('The role Story writers is created.').waitFor();

    // 3. The editor, invited with that role.
    const email = `writer-${Date.now()}@example.com`;
    await administration.getByRole('link', { name: 'Users' }).click();
    await page.getByRole('link', { name: 'New user' }).click();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Name', { exact: true }).fill('Wanda Writer');
    await page.getByRole('radio', { name: /Invite/ }).check();
    await page.getByRole('checkbox', { name: 'Story writers', exact: true }).check();
    await page.getByRole('button', { name: 'Create and invite' }).click();
    await page
      .getByRole('status')
      .getByText(new RegExp(email.replace(/[.]/g, '\\.')))
      .waitFor();
    expect(admin.problems).toEqual([]);

    // 4. The editor accepts the emailed invitation and signs in.
    const mail = await smtp.waitFor(
      (m) => addresses(m).includes(email) && !!extractLink(m, 'accept-invite'),
      15_000,
    );
    const link = new URL(extractLink(mail, 'accept-invite')!);
    const editor = await openPage(chrome, { timezoneId: 'Europe/Berlin' });
    const writer = editor.page;
    await writer.goto(`${base}${link.pathname}${link.search}`);
    await writer.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await writer.getByLabel('Repeat the password').fill(PASSWORD);
    await writer.getByRole('button', { name: 'Create my account' }).click();
    await writer.locator('#notice', { hasText: 'Your account is ready' }).waitFor();
    await signInToApp(writer, base, '/admin/content', email, PASSWORD);
    // Her navigation: the stories, and no administration but her own API keys.
    const writerAdmin = writer.getByRole('navigation', { name: 'Administration' });
    await writerAdmin.getByRole('link', { name: 'API keys' }).waitFor();
    for (const hidden of ['Users', 'Roles', 'Content types', 'Settings']) {
      expect(await writerAdmin.getByRole('link', { name: hidden }).count()).toBe(0);
    }

    // 5. She writes a story and schedules its publication a few seconds ahead.
    await writer.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: 'Stories' }).click();
    await writer.getByRole('link', { name: /Create new|New Story/ }).click();
    await writer.getByLabel('Headline').fill('Launch day');
    await writer.getByRole('button', { name: 'Save draft' }).click();
    await writer.waitForURL(/\/admin\/collections\/stories\/[0-9a-f-]{36}$/);
    const id = writer.url().split('/').pop()!;
    await writer.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = writer.getByRole('dialog', { name: 'Schedule a change' });
    await dialog.getByLabel('Action').selectOption('publish');
    await dialog.getByLabel('At').fill(await localIn(writer, 4000));
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await writer
      .getByRole('status')
      .filter({ hasText: 'The scheduled publish ran' })
      .waitFor({ timeout: 30_000 });

    // What the API says: published, by the schedule she made, as the version history records.
    const read = await t.http
      .get(`/admin/api/collections/stories/entries/${id}`)
      .set(await bearerFor(t, owner.id))
      .query({ status: 'all' });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ headline: 'Launch day', status: 'published' });
    const [row] = await t.db.query(
      `SELECT u.email FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
        WHERE r.name = 'Story writers'`,
    );
    expect(row.email).toBe(email);
    expect(editor.problems).toEqual([]);
  });
});
