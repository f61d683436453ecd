import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { bearerFor, createUser, userWithPermissions } from '../utils/auth';
import { audit, describeInChromium, launchChromium, openPage, screenshot } from '../utils/chromium';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * The admin app (admin/, React, built by Vite into dist/admin) in a real browser against the
 * service: an editor signs in, finds a collection in the navigation, lists it, creates an entry
 * from the generated form (a refused value shown on its field), publishes it, and deletes it
 * after a confirmation; the API answers each change. Every screen is checked with axe-core and at
 * 360 px. The app is built from the sources by the test run's global setup.
 */

const describeBrowser = describeInChromium('admin-app-browser');

describeBrowser('admin app in a browser', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let chrome: Browser;
  let base: string;
  let admin: Record<string, string>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'authors',
            labels: { singular: 'Author', plural: 'Authors' },
            fields: [{ name: 'name', type: 'text', label: 'Name' }],
          },
          {
            slug: 'posts',
            labels: { singular: 'Post', plural: 'Posts' },
            drafts: true,
            fields: [
              { name: 'title', type: 'text', label: 'Title', required: true },
              { name: 'views', type: 'number', label: 'Views' },
              { name: 'featured', type: 'checkbox', label: 'Featured' },
              { name: 'category', type: 'select', label: 'Category', options: ['news', 'guides'] },
              { name: 'author', type: 'relationship', label: 'Author', relationTo: 'authors' },
              { name: 'meta', type: 'json', label: 'Meta' },
            ],
          },
        ],
      },
    });
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    chrome = await launchChromium();
    const adminUser = await createUser(t, { roles: ['super-admin'] });
    admin = await bearerFor(t, adminUser.id);
    ids.adminEmail = adminUser.email;
    ids.adminPassword = adminUser.password;
    const author = await t.http
      .post('/admin/api/collections/authors/entries')
      .set(admin)
      .send({ name: 'Grace' })
      .expect(201);
    ids.author = author.body.item.id;
  });
  afterAll(async () => {
    await chrome?.close();
    await t?.close();
  });

  async function signIn(page: Page, path: string, email: string, password: string): Promise<void> {
    await page.goto(`${base}${path}`);
    // Not signed in: the app sends the browser to the sign-in page, which comes back after.
    await page.waitForURL(/\/admin\/login\?next=/);
    await page.getByLabel('Email address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${base}${path}`);
  }

  /** No sideways scrolling at 360 px. */
  async function fitsNarrow(page: Page, name: string): Promise<void> {
    await page.setViewportSize({ width: 360, height: 740 });
    const width = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect({ name, width }).toEqual({ name, width: 360 });
    await screenshot(page, `${name}-360`);
    await page.setViewportSize({ width: 1280, height: 800 });
  }

  it('an editor lists, creates, publishes and deletes a post', async () => {
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/content', ids.adminEmail, ids.adminPassword);
    const nav = page.getByRole('navigation', { name: 'Content' });
    await nav.getByRole('link', { name: 'Authors' }).waitFor();
    await expect(nav.getByRole('link', { name: 'Media' }).count()).resolves.toBe(1);
    await audit(page, 'admin-dashboard');

    await nav.getByRole('link', { name: 'Posts' }).click();
    await page.waitForURL(`${base}/admin/collections/posts`);
    const table = page.getByRole('table');
    await table.getByRole('columnheader', { name: 'Title' }).waitFor();
    await page.getByText('Page 1 of 1 (0 entries)').waitFor();
    await audit(page, 'admin-list-empty');
    await fitsNarrow(page, 'admin-list-empty');

    await page.getByRole('link', { name: 'Create new' }).click();
    await page.waitForURL(`${base}/admin/collections/posts/new`);
    await page.getByRole('heading', { name: 'New Post' }).waitFor();
    // A required field left empty (a draft may omit it, a published entry may not): the API's
    // refusal appears on it, and nothing is stored.
    await page.getByLabel('Views').fill('12');
    await page.getByRole('button', { name: 'Publish' }).click();
    const title = page.getByLabel(/^Title/);
    await title.and(page.locator('[aria-invalid="true"]')).waitFor();
    const describedBy = await title.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${describedBy}"]`).textContent()).toMatch(/title/i);
    await audit(page, 'admin-editor-invalid');
    const none = await t.http
      .get('/admin/api/collections/posts/entries/count?status=all')
      .set(admin)
      .expect(200);
    expect(none.body.total).toBe(0);
    await fitsNarrow(page, 'admin-editor');

    await title.fill('Hello from the app');
    await page.getByLabel('Featured').check();
    await page.getByLabel('Category').selectOption('guides');
    await page.getByLabel('Author').selectOption({ label: 'Grace' });
    await page.getByLabel('Meta').fill('{"tags":["a","b"]}');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/admin\/collections\/posts\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    const stored = await t.http
      .get(`/admin/api/collections/posts/entries/${id}?status=all`)
      .set(admin)
      .expect(200);
    expect(stored.body).toMatchObject({
      title: 'Hello from the app',
      views: 12,
      featured: true,
      category: 'guides',
      author: ids.author,
      meta: { tags: ['a', 'b'] },
      status: 'draft',
    });

    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: 'Unpublish' }).waitFor();
    const published = await t.http.get(`/admin/api/collections/posts/entries/${id}`).set(admin).expect(200);
    expect(published.body.status).toBe('published');

    await nav.getByRole('link', { name: 'Posts' }).click();
    const row = page.getByRole('row', { name: /Hello from the app/ });
    await row.waitFor();
    await expect(row.getByText('published').count()).resolves.toBe(1);
    await audit(page, 'admin-list');

    await row.getByRole('link', { name: 'Hello from the app' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(/cannot be undone/).waitFor();
    await audit(page, 'admin-delete-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(`${base}/admin/collections/posts`);
    await t.http.get(`/admin/api/collections/posts/entries/${id}?status=all`).set(admin).expect(404);
    expect(problems).toEqual([]);
  });

  it('works by keyboard alone, and hides what the user may not do', async () => {
    const reader = await userWithPermissions(t, ['read-posts']);
    await t.http
      .post('/admin/api/collections/posts/entries')
      .set(admin)
      .send({ title: 'Readable', status: 'published' })
      .expect(201);
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/collections/posts', reader.email, reader.password);
    await page.getByRole('row', { name: /Readable/ }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Content' });
    // Posts only: no Authors link, no way to create.
    await expect(nav.getByRole('link', { name: 'Authors' }).count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'Create new' }).count()).resolves.toBe(0);

    // Keyboard: the skip link first, then through to the entry's link, opened with Enter.
    await page.keyboard.press('Tab');
    await expect(page.evaluate<string | undefined>('document.activeElement?.textContent')).resolves.toBe(
      'Skip to content',
    );
    let found = false;
    for (let i = 0; i < 40 && !found; i++) {
      await page.keyboard.press('Tab');
      found = (await page.evaluate<string | undefined>('document.activeElement?.textContent')) === 'Readable';
    }
    expect(found).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Readable' }).waitFor();
    // The new screen's heading has the focus, as after a page load.
    await expect(page.evaluate<string | undefined>('document.activeElement?.tagName')).resolves.toBe('H1');
    await audit(page, 'admin-editor-reader');
    expect(problems).toEqual([]);
  });
});
