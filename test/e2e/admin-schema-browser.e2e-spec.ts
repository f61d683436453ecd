import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { bearerFor, createUser, userWithPermissions } from '../utils/auth';
import {
  audit,
  describeInChromium,
  fitsNarrow,
  launchChromium,
  openPage,
  signInToApp,
} from '../utils/chromium';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * The admin app's schema builder (admin/src/schema) in a real browser against the service: a
 * collection made from scratch (previewed, then created) shows in the navigation and takes
 * entries; an edit (a field added, a label renamed, the order changed, a field removed) is
 * previewed with the removal marked destructive and applied only once confirmed; a refused slug and
 * a refused field name are shown on their controls; the history lists the applies; a user without
 * manage-settings has no link to it; one path by keyboard alone. Every screen is checked with
 * axe-core and at 360 px.
 */

const describeBrowser = describeInChromium('admin-schema-browser');

interface StoredField {
  id: string;
  name: string;
  type: string;
  label?: string;
  required?: boolean;
}

describeBrowser('admin app: the schema builder in a browser', () => {
  jest.setTimeout(150_000);
  let t: TestApp;
  let chrome: Browser;
  let base: string;
  let admin: Record<string, string>;
  let superAdmin: { id: string; email: string; password: string };

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'posts',
            labels: { singular: 'Post', plural: 'Posts' },
            fields: [{ name: 'title', type: 'text', label: 'Title', required: true }],
          },
        ],
      },
    });
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    chrome = await launchChromium();
    superAdmin = await createUser(t, { name: 'Sam Schema', roles: ['super-admin'] });
    admin = await bearerFor(t, superAdmin.id);
  });
  afterAll(async () => {
    await chrome?.close();
    await t?.close();
  });

  const signIn = (page: Page, path: string, email: string, password: string) =>
    signInToApp(page, base, path, email, password);
  const adminNav = (page: Page) => page.getByRole('navigation', { name: 'Administration' });
  const contentNav = (page: Page) => page.getByRole('navigation', { name: 'Content' });
  const fieldGroup = (page: Page, n: number) =>
    page.getByRole('group', { name: new RegExp(`^Field ${n}\\b`) });
  const schemaOf = async (slug: string) =>
    (await t.http.get(`/admin/api/collections/schema/${slug}`).set(admin).expect(200)).body as {
      labels: { singular: string; plural: string };
      drafts: boolean;
      versions: false | { max: number };
      fields: StoredField[];
    };
  /** The texts of the planned changes' rows (header row left out). */
  const planRows = async (page: Page) => {
    const table = page.getByRole('table', { name: 'Planned changes' });
    await table.waitFor();
    return table.locator('tbody tr').allTextContents();
  };
  /** The control's describing texts (its hint and its error slot). */
  const description = async (page: Page, control: ReturnType<Page['getByLabel']>) => {
    const ids = ((await control.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
    const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
    return texts.join(' ');
  };

  it('creates a collection, edits it with a confirmed removal, and lists the applies', async () => {
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/content', superAdmin.email, superAdmin.password);

    // The list: collections (the configuration's too), singles and field groups.
    await adminNav(page).getByRole('link', { name: 'Content types' }).click();
    await page.waitForURL(`${base}/admin/schema`);
    await page.getByRole('heading', { name: 'Content types', level: 1 }).waitFor();
    const collections = page.getByRole('table', { name: 'Collections' });
    await collections.getByRole('row', { name: /Posts/ }).getByText('Configuration file').waitFor();
    await page.getByRole('heading', { name: 'Field groups' }).waitFor();
    await audit(page, 'schema-list');
    await fitsNarrow(page, 'schema-list');

    // A new collection: slug, labels, drafts and versions, two fields of different types.
    await page.getByRole('link', { name: 'New collection' }).click();
    await page.waitForURL(`${base}/admin/schema/collections/new`);
    await page.getByRole('heading', { name: 'New collection', level: 1 }).waitFor();
    await page.getByLabel('Slug').fill('articles');
    await page.getByLabel('Singular label').fill('Article');
    await page.getByLabel('Plural label').fill('Articles');
    await page.getByRole('checkbox', { name: 'Drafts' }).check();
    await page.getByRole('checkbox', { name: 'Versions' }).check();
    await page.getByRole('button', { name: 'Add field' }).click();
    // One field: its controls are found by their own names, and the new field's name has the focus.
    await expect(
      page.evaluate<string | undefined>('document.activeElement?.labels?.[0]?.textContent'),
    ).resolves.toBe('Name');
    await page.getByLabel('Name', { exact: true }).fill('title');
    await page.getByLabel('Label', { exact: true }).fill('Title');
    await page.getByLabel('Type').selectOption('text');
    await page.getByRole('checkbox', { name: 'Required' }).check();
    await page.getByRole('button', { name: 'Add field' }).click();
    const second = fieldGroup(page, 2);
    await second.getByLabel('Name', { exact: true }).fill('views');
    await second.getByLabel('Label', { exact: true }).fill('Views');
    await second.getByLabel('Type').selectOption('number');
    // Controls follow the type: a number has a range, no options.
    await second.getByLabel('Smallest value').fill('0');
    await expect(second.getByLabel('Options').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Preview changes' }).click();
    const created = await planRows(page);
    expect(created).toHaveLength(2);
    expect(created[0]).toMatch(/Add.*title.*text, required/);
    expect(created[1]).toMatch(/Add.*views.*number/);
    // Nothing exists until "Create".
    await t.http.get('/admin/api/collections/articles').set(admin).expect(404);
    await audit(page, 'schema-new');
    await fitsNarrow(page, 'schema-new');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(`${base}/admin/schema/collections/articles`);
    await page.getByRole('heading', { name: 'Articles', level: 1 }).waitFor();
    await page
      .getByRole('status')
      .getByText(/articles is created/)
      .waitFor();
    const made = await schemaOf('articles');
    expect(made).toMatchObject({
      labels: { singular: 'Article', plural: 'Articles' },
      drafts: true,
      versions: { max: 50 },
    });
    expect(made.fields.map((f) => [f.name, f.type, f.label, f.required === true])).toEqual([
      ['title', 'text', 'Title', true],
      ['views', 'number', 'Views', false],
    ]);
    expect(made.fields[1]).toMatchObject({ min: 0 });

    // The navigation has it at once, and its entries work.
    await contentNav(page).getByRole('link', { name: 'Articles' }).click();
    await page.waitForURL(`${base}/admin/collections/articles`);
    await page.getByRole('table').getByRole('columnheader', { name: /Title/ }).waitFor();
    await page.getByRole('link', { name: /Create new|New Article/ }).click();
    await page.getByLabel(/^Title/).fill('First article');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(/\/admin\/collections\/articles\/[0-9a-f-]{36}$/);
    const entries = await t.http
      .get('/admin/api/collections/articles/entries?status=all')
      .set(admin)
      .expect(200);
    expect(entries.body.items).toEqual([
      expect.objectContaining({ title: 'First article', status: 'draft' }),
    ]);

    // The edit: a field added, a label renamed, the new field moved first, a field removed.
    await adminNav(page).getByRole('link', { name: 'Content types' }).click();
    await page.getByRole('table', { name: 'Collections' }).getByRole('link', { name: 'Articles' }).click();
    await page.waitForURL(`${base}/admin/schema/collections/articles`);
    await fieldGroup(page, 2).waitFor();
    await page.getByRole('button', { name: 'Add field' }).click();
    const third = fieldGroup(page, 3);
    await third.getByLabel('Name', { exact: true }).fill('summary');
    await third.getByLabel('Label', { exact: true }).fill('Summary');
    await third.getByLabel('Type').selectOption('textarea');
    await fieldGroup(page, 1).getByLabel('Label', { exact: true }).fill('Headline');
    await third.getByRole('button', { name: 'Move up' }).click();
    // The focus stays on the button, now in the field's new place.
    const movedUp = fieldGroup(page, 2).getByRole('button', { name: 'Move up' });
    await expect(
      page.evaluate<string>(
        "`${document.activeElement?.closest('fieldset')?.querySelector('legend')?.textContent} / ${document.activeElement?.textContent}`",
      ),
    ).resolves.toBe('Field 2: Summary / Move up');
    await movedUp.click();
    await page.getByRole('group', { name: /^Field 1: Summary/ }).waitFor();
    await page.getByRole('status').getByText('Summary moved to position 1.').waitFor();
    await page
      .getByRole('group', { name: /^Field 3: Views/ })
      .getByRole('button', { name: 'Remove' })
      .click();
    await expect(page.getByRole('group', { name: /Views/ }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Preview changes' }).click();
    const rows = await planRows(page);
    expect(rows).toHaveLength(3);
    const removal = page.getByRole('row', { name: /views/ });
    await expect(removal.textContent()).resolves.toMatch(/Remove.*views.*Destructive/);
    await expect(removal.getAttribute('class')).resolves.toBe('destructive');
    await expect(page.getByRole('row', { name: /title/ }).textContent()).resolves.toMatch(
      /Change.*title.*label: Title to Headline/,
    );
    await expect(page.getByRole('row', { name: /summary/ }).textContent()).resolves.toMatch(
      /Add.*summary.*textarea/,
    );
    await page.getByText('Field order: summary, title').waitFor();
    await page.getByText(/One change deletes stored values/).waitFor();
    await audit(page, 'schema-preview');
    await fitsNarrow(page, 'schema-preview');

    // Apply asks first; cancelled, nothing changes.
    await page.getByRole('button', { name: 'Apply' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(/deletes stored values of views/).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await schemaOf('articles')).fields.map((f) => f.name)).toEqual(['title', 'views']);
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').getByText('Applied: 4 changes.').waitFor();
    const edited = await schemaOf('articles');
    expect(edited.fields.map((f) => [f.name, f.type, f.label])).toEqual([
      ['summary', 'textarea', 'Summary'],
      ['title', 'text', 'Headline'],
    ]);
    // The same field (its id) renamed, not dropped and added: the entry keeps its title.
    expect(edited.fields[1].id).toBe(made.fields[0].id);
    const entry = await t.http
      .get('/admin/api/collections/articles/entries?status=all')
      .set(admin)
      .expect(200);
    expect(entry.body.items[0]).toMatchObject({ title: 'First article' });
    expect(entry.body.items[0]).not.toHaveProperty('views');
    // The form shows the applied definition; the plan is gone.
    await expect(page.getByRole('table', { name: 'Planned changes' }).count()).resolves.toBe(0);
    await page.getByRole('group', { name: /^Field 2: Headline/ }).waitFor();

    // A refused field name: the API's message on that field's name.
    await page.getByRole('button', { name: 'Add field' }).click();
    const refusedName = fieldGroup(page, 3).getByLabel('Name', { exact: true });
    await refusedName.fill('createdAt');
    await page.getByRole('button', { name: 'Preview changes' }).click();
    await refusedName.and(page.locator('[aria-invalid="true"]')).waitFor();
    await expect(description(page, refusedName)).resolves.toMatch(/reserved/);
    await page
      .getByRole('alert')
      .getByText(/reserved/)
      .first()
      .waitFor();
    await audit(page, 'schema-refused-field');

    // A refused slug: the API's message on the Slug field, nothing created.
    await page.goto(`${base}/admin/schema/collections/new`);
    await page.getByRole('heading', { name: 'New collection', level: 1 }).waitFor();
    const slug = page.getByLabel('Slug');
    await slug.fill('Bad slug');
    await page.getByLabel('Singular label').fill('Bad');
    await page.getByLabel('Plural label').fill('Bads');
    await page.getByRole('button', { name: 'Preview changes' }).click();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await slug.and(page.locator('[aria-invalid="true"]')).waitFor();
    await expect(description(page, slug)).resolves.toMatch(/slug must/);
    await page.getByRole('alert').getByText(/slug/i).first().waitFor();
    // A taken slug: the conflict is the slug's too.
    await slug.fill('articles');
    await page.getByRole('button', { name: 'Preview changes' }).click();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page
      .getByRole('alert')
      .getByText(/already used by the collection "articles"/)
      .waitFor();
    await slug.and(page.locator('[aria-invalid="true"]')).waitFor();
    await expect(description(page, slug)).resolves.toMatch(/taken/);
    await slug.fill('Bad slug');
    await page.getByRole('button', { name: 'Preview changes' }).click();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('slug must', { exact: false }).first().waitFor();
    await expect(description(page, slug)).resolves.toMatch(/slug must/);
    await audit(page, 'schema-refused-slug');
    await fitsNarrow(page, 'schema-refused-slug');
    const all = await t.http.get('/admin/api/collections').set(admin).expect(200);
    expect((all.body.items as Array<{ slug: string }>).map((c) => c.slug).sort()).toEqual([
      'articles',
      'media',
      'posts',
    ]);

    // The history: the creation and the edit, newest first.
    await adminNav(page).getByRole('link', { name: 'Content types' }).click();
    await page.getByRole('link', { name: 'History of changes' }).click();
    await page.waitForURL(`${base}/admin/schema/history`);
    const history = page.getByRole('table', { name: 'Applied schema changes' });
    const applies = history.getByRole('row', { name: /articles/ });
    await applies.first().waitFor();
    await expect(applies.count()).resolves.toBe(2);
    await expect(applies.nth(0).textContent()).resolves.toMatch(/Remove views.*destructive/);
    await expect(applies.nth(0).textContent()).resolves.toMatch(/Sam Schema/);
    await expect(applies.nth(1).textContent()).resolves.toMatch(/Add title.*Add views/);
    await audit(page, 'schema-history');
    await fitsNarrow(page, 'schema-history');
    expect(problems).toEqual([]);
  });

  it('makes a field group and a single that embeds it; a configured collection is read-only', async () => {
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/schema', superAdmin.email, superAdmin.password);
    await page.getByRole('link', { name: 'New field group' }).click();
    await page.getByRole('heading', { name: 'New field group', level: 1 }).waitFor();
    await page.getByLabel('Slug').fill('seo');
    await page.getByLabel('Title').fill('SEO');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Name', { exact: true }).fill('metaTitle');
    await page.getByLabel('Label', { exact: true }).fill('Meta title');
    await page.getByRole('button', { name: 'Preview changes' }).click();
    expect(await planRows(page)).toEqual([expect.stringMatching(/Add.*metaTitle.*text/)]);
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(`${base}/admin/schema/field-groups/seo`);
    await page.getByRole('heading', { name: 'SEO', level: 1 }).waitFor();
    const group = await t.http.get('/admin/api/field-groups/seo').set(admin).expect(200);
    expect(group.body).toMatchObject({ label: 'SEO', fields: [{ name: 'metaTitle', type: 'text' }] });

    await page.goto(`${base}/admin/schema/singles/new`);
    await page.getByRole('heading', { name: 'New single', level: 1 }).waitFor();
    await page.getByLabel('Slug').fill('home');
    await page.getByLabel('Title').fill('Home page');
    await page.getByRole('checkbox', { name: 'Anyone may read' }).check();
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByLabel('Name', { exact: true }).fill('colour');
    await page.getByLabel('Type').selectOption('select');
    await page.getByLabel('Options').fill('Red = red\nblue');
    await page.getByLabel('Default value').fill('blue');
    await page.getByRole('button', { name: 'Add field' }).click();
    const second = fieldGroup(page, 2);
    await second.getByLabel('Name', { exact: true }).fill('seo');
    await second.getByLabel('Type').selectOption('component');
    await expect(second.getByLabel('Field group').inputValue()).resolves.toBe('seo');
    await second.getByRole('checkbox', { name: 'Repeatable' }).check();
    await page.getByRole('button', { name: 'Preview changes' }).click();
    expect(await planRows(page)).toEqual([
      expect.stringMatching(/Add.*colour.*select/),
      expect.stringMatching(/Add.*seo.*component.*repeatable.*group seo/),
    ]);
    await audit(page, 'schema-single-new');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.waitForURL(`${base}/admin/schema/singles/home`);
    await page.getByRole('heading', { name: 'Home page', level: 1 }).waitFor();
    const single = await t.http.get('/admin/api/singles/home/schema').set(admin).expect(200);
    expect(single.body).toMatchObject({
      label: 'Home page',
      access: { read: true },
      fields: [
        {
          name: 'colour',
          type: 'select',
          options: [{ label: 'Red', value: 'red' }, 'blue'],
          defaultValue: 'blue',
        },
        { name: 'seo', type: 'component', fieldGroup: 'seo', repeatable: true },
      ],
    });
    await contentNav(page).getByRole('link', { name: 'Home page' }).waitFor();
    // A label change alone: no table change, stored with the definition.
    await page.getByLabel('Title').fill('Front page');
    await page.getByRole('button', { name: 'Preview changes' }).click();
    await page.getByText('Label: “Home page” to “Front page”').waitFor();
    await page.getByRole('button', { name: 'Apply', exact: true }).click();
    await page.getByRole('status').getByText('Applied: 1 change.').waitFor();
    await page.getByRole('heading', { name: 'Front page', level: 1 }).waitFor();
    await contentNav(page).getByRole('link', { name: 'Front page' }).waitFor();
    const renamed = await t.http.get('/admin/api/singles/home/schema').set(admin).expect(200);
    expect(renamed.body.label).toBe('Front page');

    // The group is still used by the single: the API refuses, the page says why.
    await page.goto(`${base}/admin/schema/field-groups/seo`);
    await page.getByRole('heading', { name: 'SEO', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete field group' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    await page
      .getByRole('alert')
      .getByText(/still used by/)
      .waitFor();
    await t.http.get('/admin/api/field-groups/seo').set(admin).expect(200);
    // The single goes first (asked first), then the group.
    await page.goto(`${base}/admin/schema/singles/home`);
    await page.getByRole('heading', { name: 'Front page', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Delete single' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel' }).click();
    await t.http.get('/admin/api/singles/home/schema').set(admin).expect(200);
    await page.getByRole('button', { name: 'Delete single' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(`${base}/admin/schema`);
    await page.getByRole('status').getByText('The single home is deleted.').waitFor();
    await t.http.get('/admin/api/singles/home/schema').set(admin).expect(404);
    await expect(contentNav(page).getByRole('link', { name: 'Front page' }).count()).resolves.toBe(0);
    await page.getByRole('link', { name: 'SEO' }).click();
    await page.getByRole('button', { name: 'Delete field group' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').getByText('The field group seo is deleted.').waitFor();
    await t.http.get('/admin/api/field-groups/seo').set(admin).expect(404);

    // A collection of the configuration file: shown, not changed here.
    await page.goto(`${base}/admin/schema/collections/posts`);
    await page.getByRole('heading', { name: 'Posts', level: 1 }).waitFor();
    await page.getByText(/defined in the service’s configuration file/).waitFor();
    await expect(page.getByLabel('Name', { exact: true }).isDisabled()).resolves.toBe(true);
    await expect(page.getByRole('button', { name: 'Preview changes' }).count()).resolves.toBe(0);
    expect(problems).toEqual([]);
  });

  it('shows no content types to a user without manage-settings', async () => {
    const reader = await userWithPermissions(t, ['read-users']);
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/content', reader.email, reader.password);
    await adminNav(page).getByRole('link', { name: 'Users' }).waitFor();
    await expect(adminNav(page).getByRole('link', { name: 'Content types' }).count()).resolves.toBe(0);
    // Opened by its address: the screen says why there is nothing.
    await page.goto(`${base}/admin/schema`);
    await page
      .getByRole('alert')
      .getByText(/manage-settings/)
      .waitFor();
    await expect(page.getByRole('link', { name: 'New collection' }).count()).resolves.toBe(0);
    expect(problems).toEqual([]);
  });

  it('creates a collection by keyboard alone', async () => {
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/schema', superAdmin.email, superAdmin.password);
    await page.getByRole('table', { name: 'Collections' }).waitFor();
    const focused = () =>
      page.evaluate<string>(`(() => {
        const el = document.activeElement;
        if (!el) return '';
        const label = el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].textContent);
        return (label || el.textContent || '').trim();
      })()`);
    const tabTo = async (name: string) => {
      for (let i = 0; i < 80; i++) {
        await page.keyboard.press('Tab');
        if ((await focused()) === name) {
          return;
        }
      }
      throw new Error(`Tab never reached ${name}`);
    };
    await tabTo('New collection');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New collection', exact: true }).waitFor();
    await tabTo('Slug');
    await page.keyboard.type('notes');
    await tabTo('Singular label');
    await page.keyboard.type('Note');
    await tabTo('Plural label');
    await page.keyboard.type('Notes');
    await tabTo('Add field');
    await page.keyboard.press('Enter');
    // The new field's name has the focus.
    await expect(focused()).resolves.toBe('Name');
    await page.keyboard.type('body');
    await tabTo('Add field');
    await page.keyboard.press('Enter');
    await expect(focused()).resolves.toBe('Name');
    await page.keyboard.type('heading');
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('Label');
    await page.keyboard.type('Heading');
    await tabTo('Required');
    await page.keyboard.press('Space');
    // Move the second field up: the focus follows to its Move down button (Move up is then off).
    await tabTo('Move up');
    await page.keyboard.press('Enter');
    await page.getByRole('group', { name: /^Field 1: Heading/ }).waitFor();
    await expect(focused()).resolves.toBe('Move down');
    await tabTo('Preview changes');
    await page.keyboard.press('Enter');
    // The plan's heading takes the focus; "Create" follows it.
    await page.getByRole('heading', { name: 'Planned changes' }).waitFor();
    await expect(focused()).resolves.toBe('Planned changes');
    await tabTo('Create');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/admin/schema/collections/notes`);
    await page.getByRole('heading', { name: 'Notes', level: 1 }).waitFor();
    const notes = await schemaOf('notes');
    expect(notes.fields.map((f) => [f.name, f.type, f.label, f.required === true])).toEqual([
      ['heading', 'text', 'Heading', true],
      ['body', 'text', undefined, false],
    ]);
    await contentNav(page).getByRole('link', { name: 'Notes' }).waitFor();
    expect(problems).toEqual([]);
  });
});
