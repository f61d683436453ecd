import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { bearerFor, createUser, userWithPermissions } from '../utils/auth';
import {
  audit,
  describeInChromium,
  fitsNarrow,
  launchChromium,
  openPage,
  signInToApp,
} from '../utils/chromium';
import { SESSION_COOKIE } from '../../src/modules/identity/authentication.service';
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
              { name: 'cover', type: 'upload', label: 'Cover', relationTo: 'media' },
              { name: 'meta', type: 'json', label: 'Meta' },
            ],
          },
        ],
        singles: [
          {
            slug: 'homepage',
            label: 'Home page',
            fields: [
              { name: 'headline', type: 'text', label: 'Headline' },
              { name: 'featured', type: 'relationship', label: 'Featured post', relationTo: 'posts' },
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

  const signIn = (page: Page, path: string, email: string, password: string) =>
    signInToApp(page, base, path, email, password);

  it('an editor lists, creates, publishes and deletes a post', async () => {
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/content', ids.adminEmail, ids.adminPassword);
    const nav = page.getByRole('navigation', { name: 'Content' });
    await nav.getByRole('link', { name: 'Authors' }).waitFor();
    await expect(nav.getByRole('link', { name: 'Media' }).count()).resolves.toBe(1);
    await audit(page, 'admin-dashboard');
    // A report, not a timed assertion: from navigation start to the dashboard rendered with the
    // user's navigation (data fetched, controls usable), on a reload with a warm HTTP cache.
    await page.reload();
    await nav.getByRole('link', { name: 'Authors' }).waitFor();
    const interactive = await page.evaluate<number>('performance.now()');
    console.info(`admin app: the dashboard was usable ${Math.round(interactive)} ms after navigation start`);

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
    // The relation picker searches the related collection; the choice is a labelled select.
    await page.getByLabel('Search Author').fill('Gra');
    await page
      .getByLabel('Author', { exact: true })
      .locator('option', { hasText: 'Grace' })
      .waitFor({ state: 'attached' });
    await page.getByLabel('Author', { exact: true }).selectOption({ label: 'Grace' });
    // An upload field uploads a new file in place and picks it.
    const cover = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#00aa00' } })
      .png()
      .toBuffer();
    // It is a group named by the field's label, holding its search, its list and the upload.
    const coverGroup = page.getByRole('group', { name: 'Cover', exact: true });
    await coverGroup
      .getByLabel('Upload a new file')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: cover });
    await coverGroup
      .getByRole('combobox', { name: 'Cover', exact: true })
      .locator('option:checked', { hasText: 'cover.png' })
      .waitFor({ state: 'attached' });
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
      cover: expect.any(String),
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
    // Read access only: the values show, the controls take no input, nothing offers to save.
    await page.getByText('You may read this entry but not change it.').waitFor();
    await expect(page.getByLabel(/^Title/).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Publish' }).count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Delete' }).count()).resolves.toBe(0);
    // The new screen's heading has the focus, as after a page load.
    await expect(page.evaluate<string | undefined>('document.activeElement?.tagName')).resolves.toBe('H1');
    await audit(page, 'admin-editor-reader');
    expect(problems).toEqual([]);
  });

  it('an access cookie that expired while editing is renewed, and the save goes through', async () => {
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/singles/homepage', ids.adminEmail, ids.adminPassword);
    await page.getByLabel('Headline').fill('Renewed');
    // The access cookie is gone (as when it expires); the refresh cookie still holds.
    const context = page.context();
    const cookies = await context.cookies();
    expect(cookies.map((c) => c.name)).toContain(SESSION_COOKIE);
    await context.clearCookies({ name: SESSION_COOKIE });
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/admin/api/auth/refresh'));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await refreshed).status()).toBe(200);
    await page.getByRole('status').getByText('Saved').waitFor();
    expect(page.url()).toBe(`${base}/admin/singles/homepage`);
    const stored = await t.http.get('/admin/api/singles/homepage').set(admin).expect(200);
    expect(stored.body.headline).toBe('Renewed');
    expect(problems).toEqual([]);
  });

  it("edits a single's content from the navigation", async () => {
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/content', ids.adminEmail, ids.adminPassword);
    await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: 'Home page' }).click();
    await page.waitForURL(`${base}/admin/singles/homepage`);
    await page.getByRole('heading', { name: 'Home page' }).waitFor();
    await page.getByLabel('Headline').fill('Welcome');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    const stored = await t.http.get('/admin/api/singles/homepage').set(admin).expect(200);
    expect(stored.body.headline).toBe('Welcome');
    await page.reload();
    await expect(page.getByLabel('Headline').inputValue()).resolves.toBe('Welcome');
    await audit(page, 'admin-single');
    expect(problems).toEqual([]);
  });

  it('uploads several files to the media library, edits one and deletes it', async () => {
    const png = (color: string) =>
      sharp({ create: { width: 64, height: 48, channels: 3, background: color } })
        .png()
        .toBuffer();
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/content', ids.adminEmail, ids.adminPassword);
    await page.getByRole('navigation', { name: 'Content' }).getByRole('link', { name: 'Media' }).click();
    await page.waitForURL(`${base}/admin/media`);
    const before = (await t.http.get('/admin/api/collections/media/entries/count').set(admin).expect(200))
      .body.total as number;
    await page.getByRole('list', { name: 'Files' }).waitFor({ state: 'attached' });
    await audit(page, 'admin-media-before');
    await page.getByLabel('Choose files to upload').setInputFiles([
      { name: 'red.png', mimeType: 'image/png', buffer: await png('#cc0000') },
      { name: 'blue.png', mimeType: 'image/png', buffer: await png('#0000cc') },
    ]);
    const uploads = page.getByRole('list', { name: 'Uploads' });
    // Each file has its line, with a progress bar while it is sent, then "uploaded".
    await uploads.getByText('red.png').waitFor();
    await uploads.getByText('uploaded').nth(1).waitFor();
    await expect(uploads.getByText('uploaded').count()).resolves.toBe(2);
    await page
      .getByRole('list', { name: 'Files' })
      .getByRole('link', { name: /red\.png/ })
      .waitFor();
    await page
      .getByRole('list', { name: 'Files' })
      .getByRole('link', { name: /blue\.png/ })
      .waitFor();
    const count = await t.http.get('/admin/api/collections/media/entries/count').set(admin).expect(200);
    expect(count.body.total).toBe(before + 2);
    await audit(page, 'admin-media');
    await fitsNarrow(page, 'admin-media');

    await page.getByRole('link', { name: /red\.png/ }).click();
    await page.getByRole('heading', { name: 'red.png' }).waitFor();
    await page.getByRole('region', { name: 'File' }).getByText('64 × 48').waitFor();
    await page.getByLabel('Alt').fill('A red square');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    const id = page.url().split('/').pop()!;
    const stored = await t.http.get(`/admin/api/collections/media/entries/${id}`).set(admin).expect(200);
    expect(stored.body).toMatchObject({ alt: 'A red square', filename: 'red.png', width: 64, height: 48 });
    await audit(page, 'admin-media-entry');

    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(`${base}/admin/media`);
    await t.http.get(`/admin/api/collections/media/entries/${id}`).set(admin).expect(404);
    expect(problems).toEqual([]);
  });

  it('filters a list with the filter builder, all or any of the conditions, kept in the URL', async () => {
    for (const [title, views, featured] of [
      ['Few views', 5, true],
      ['Many views', 500, false],
      ['Most views', 900, true],
    ] as const) {
      await t.http
        .post('/admin/api/collections/posts/entries')
        .set(admin)
        .send({ title, views, featured, status: 'published' })
        .expect(201);
    }
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/collections/posts', ids.adminEmail, ids.adminPassword);
    await page.getByRole('row', { name: /Few views/ }).waitFor();
    await page.getByText('Filter the list').click();
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByLabel('Field of condition 1').selectOption({ label: 'Views' });
    await page.getByLabel('Operator of condition 1').selectOption('greater_than');
    await page.getByLabel('Value of condition 1').fill('100');
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByLabel('Field of condition 2').selectOption({ label: 'Featured' });
    await page.getByLabel('Value of condition 2').selectOption('true');
    await page.getByLabel('Match').selectOption('and');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/filter=/);
    const titles = () =>
      page
        .getByRole('table')
        .getByRole('row')
        .evaluateAll((rows) =>
          rows.slice(1).map((r) => (r as { innerText: string }).innerText.split('\t')[1]),
        );
    await page.getByText('Page 1 of 1 (1 entry)').waitFor();
    expect(await titles()).toEqual(['Most views']);
    await audit(page, 'admin-list-filtered');

    await page.getByLabel('Match').selectOption('or');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('Page 1 of 1 (3 entries)').waitFor();
    // The filter is in the URL: a reload (or a shared link) shows the same list.
    await page.goto(page.url().replace('%22or%22', '%22and%22'));
    await page.getByText('Page 1 of 1 (1 entry)').waitFor();
    await expect(page.getByLabel('Match').inputValue()).resolves.toBe('and');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByText(/\(\d+ entries\)/).waitFor();
    expect(page.url()).not.toContain('filter=');
    expect(problems).toEqual([]);
  });

  it('edits component fields: a group once, and a repeatable group added, reordered and removed', async () => {
    await t.http
      .post('/admin/api/field-groups')
      .set(admin)
      .send({ slug: 'seo', label: 'SEO', fields: [{ name: 'metaTitle', type: 'text', label: 'Meta title' }] })
      .expect(201);
    await t.http
      .post('/admin/api/field-groups')
      .set(admin)
      .send({
        slug: 'block',
        label: 'Block',
        fields: [
          { name: 'heading', type: 'text', label: 'Heading' },
          { name: 'size', type: 'number', label: 'Size' },
        ],
      })
      .expect(201);
    await t.http
      .post('/admin/api/collections')
      .set(admin)
      .send({
        slug: 'landings',
        labels: { singular: 'Landing', plural: 'Landings' },
        fields: [
          { name: 'name', type: 'text', label: 'Name' },
          { name: 'seo', type: 'component', fieldGroup: 'seo', label: 'SEO' },
          { name: 'blocks', type: 'component', fieldGroup: 'block', repeatable: true, label: 'Blocks' },
        ],
      })
      .expect(201);
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/collections/landings/new', ids.adminEmail, ids.adminPassword);
    await page.getByLabel('Name').fill('Spring');
    const seo = page.getByRole('group', { name: 'SEO' });
    await seo.getByLabel('Meta title').fill('Spring sale');
    const blocks = page.getByRole('group', { name: 'Blocks', exact: true });
    await blocks.getByRole('button', { name: 'Add Blocks' }).click();
    await blocks.getByRole('button', { name: 'Add Blocks' }).click();
    await blocks.getByRole('button', { name: 'Add Blocks' }).click();
    const item = (n: number) => page.getByRole('group', { name: `Blocks ${n}` });
    await item(1).getByLabel('Heading').fill('First');
    await item(2).getByLabel('Heading').fill('Second');
    await item(2).getByLabel('Size').fill('2');
    await item(3).getByLabel('Heading').fill('Third');
    await item(2).getByRole('button', { name: 'Move Blocks 2 up' }).click();
    await item(3).getByRole('button', { name: 'Remove Blocks 3' }).click();
    await audit(page, 'admin-components');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/admin\/collections\/landings\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    const stored = await t.http.get(`/admin/api/collections/landings/entries/${id}`).set(admin).expect(200);
    expect(stored.body).toMatchObject({
      name: 'Spring',
      seo: { metaTitle: 'Spring sale' },
      blocks: [
        { heading: 'Second', size: 2 },
        { heading: 'First', size: null },
      ],
    });
    // Loaded back into the same controls.
    await page.reload();
    await expect(
      page.getByRole('group', { name: 'Blocks 1' }).getByLabel('Heading').inputValue(),
    ).resolves.toBe('Second');
    expect(problems).toEqual([]);
  });
});
