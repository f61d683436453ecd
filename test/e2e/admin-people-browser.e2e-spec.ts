import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { bearerFor, browser, createUser } from '../utils/auth';
import {
  audit,
  describeInChromium,
  fitsNarrow,
  launchChromium,
  openPage,
  signInToApp,
} from '../utils/chromium';
import { totpPlugin } from '../../src/plugins/totp';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * The admin app's users and roles screens (admin/src/people) in a real browser against the
 * service: a super-admin creates a role from the permission matrix and a user holding it, who then
 * signs in and sees only what the role grants; a deactivation reaches the API; the last
 * super-admin's refusal is said in the page; one path by keyboard alone. Every screen is checked
 * with axe-core and at 360 px.
 */

const describeBrowser = describeInChromium('admin-people-browser');

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describeBrowser('admin app: users and roles in a browser', () => {
  jest.setTimeout(120_000);
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
            drafts: true,
            fields: [{ name: 'title', type: 'text', label: 'Title', required: true }],
          },
        ],
        users: { fields: [{ name: 'team', type: 'text', label: 'Team' }] },
        plugins: [totpPlugin()],
      },
    });
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    chrome = await launchChromium();
    superAdmin = await createUser(t, { name: 'Ada Admin', roles: ['super-admin'] });
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
  const idOf = (page: Page) => page.url().split('/').pop()!;
  const permissionsOf = async (roleId: string) =>
    (
      (await t.http.get(`/admin/api/roles/${roleId}`).set(admin).expect(200)).body.permissions as Array<{
        slug: string;
      }>
    )
      .map((p) => p.slug)
      .sort();

  it('a super-admin creates a role and a user holding it, who then signs in with what it grants', async () => {
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/content', superAdmin.email, superAdmin.password);

    // Roles: the list, then a new role from the permission matrix.
    await adminNav(page).getByRole('link', { name: 'Roles' }).click();
    await page.waitForURL(`${base}/admin/roles`);
    await page.getByRole('row', { name: /Super Admin/ }).waitFor();
    await page.getByText(/Page 1 of 1 \(\d+ roles?\)/).waitFor();
    await audit(page, 'people-roles');
    await fitsNarrow(page, 'people-roles');

    await page.getByRole('link', { name: 'New role' }).click();
    await page.waitForURL(`${base}/admin/roles/new`);
    await page.getByRole('heading', { name: 'New role', exact: true }).waitFor();
    const matrix = page.getByRole('table', { name: /Permissions/ });
    // Resources as rows, actions as columns, each box named "<action> <resource>".
    await matrix.getByRole('rowheader', { name: 'posts', exact: true }).waitFor();
    await matrix.getByRole('columnheader', { name: 'publish', exact: true }).waitFor();
    await expect(page.getByRole('checkbox', { name: 'read users', exact: true }).count()).resolves.toBe(1);
    await expect(
      page.getByRole('checkbox', { name: 'read email-templates', exact: true }).count(),
    ).resolves.toBe(1);
    await page.getByLabel('Name', { exact: true }).fill('Editors');
    await page.getByRole('checkbox', { name: 'read posts', exact: true }).check();
    await page.getByRole('checkbox', { name: 'update posts', exact: true }).check();
    await audit(page, 'people-role-new');
    await fitsNarrow(page, 'people-role-new');
    await page.getByRole('button', { name: 'Create role' }).click();
    await page.waitForURL(new RegExp(`/admin/roles/${UUID}$`));
    await page.getByRole('heading', { name: 'Editors', exact: true }).waitFor();
    await page.getByRole('status').getByText('The role Editors is created.').waitFor();
    const roleId = idOf(page);
    const role = await t.http.get(`/admin/api/roles/${roleId}`).set(admin).expect(200);
    expect(role.body).toMatchObject({ name: 'Editors', slug: 'editors', isSystem: false });
    expect(await permissionsOf(roleId)).toEqual(['read-posts', 'update-posts']);
    // The saved boxes are checked again when the role is opened.
    await expect(page.getByRole('checkbox', { name: 'update posts', exact: true }).isChecked()).resolves.toBe(
      true,
    );

    // Saving adds and removes permissions.
    await page.getByRole('checkbox', { name: 'update posts', exact: true }).uncheck();
    await page.getByRole('checkbox', { name: 'publish posts', exact: true }).check();
    await page.getByLabel('Description (optional)').fill('Write and publish posts');
    await page.getByRole('button', { name: 'Save role' }).click();
    await page.getByRole('status').getByText('The role is saved.').waitFor();
    expect(await permissionsOf(roleId)).toEqual(['publish-posts', 'read-posts']);
    const saved = await t.http.get(`/admin/api/roles/${roleId}`).set(admin).expect(200);
    expect(saved.body.description).toBe('Write and publish posts');
    await audit(page, 'people-role');
    await fitsNarrow(page, 'people-role');

    // The system role: no matrix, its name kept.
    await adminNav(page).getByRole('link', { name: 'Roles' }).click();
    await page.getByRole('link', { name: 'Super Admin' }).click();
    await page.getByRole('heading', { name: 'Super Admin', exact: true }).waitFor();
    await page
      .locator('#role-system')
      .getByText(/passes every permission check/)
      .waitFor();
    await expect(page.getByRole('table', { name: /Permissions/ }).count()).resolves.toBe(0);
    await expect(page.getByLabel('Name', { exact: true }).getAttribute('readonly')).resolves.not.toBeNull();

    // Users: the list, then a new user holding the role.
    await adminNav(page).getByRole('link', { name: 'Users' }).click();
    await page.waitForURL(`${base}/admin/users`);
    await page.getByRole('row', { name: new RegExp(superAdmin.email.replace(/\./g, '\\.')) }).waitFor();
    await page.getByRole('columnheader', { name: 'Last sign-in' }).waitFor();
    await page.getByText(/Page 1 of 1 \(1 user\)/).waitFor();
    await audit(page, 'people-users');
    await fitsNarrow(page, 'people-users');

    await page.getByRole('link', { name: 'New user' }).click();
    await page.waitForURL(`${base}/admin/users/new`);
    await page.getByRole('heading', { name: 'New user', exact: true }).waitFor();
    const email = `eve-${Date.now()}@example.com`;
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Name', { exact: true }).fill('Eve Editor');
    await page.getByRole('main').getByLabel('Password', { exact: true }).fill('Editor-pass-1');
    await page.getByRole('checkbox', { name: 'Editors', exact: true }).check();
    await page.getByLabel('Team').fill('News desk');
    await expect(page.getByRole('checkbox', { name: 'Email verified' }).isChecked()).resolves.toBe(true);
    await audit(page, 'people-user-new');
    await fitsNarrow(page, 'people-user-new');
    // The invitation path hides the password.
    await page.getByRole('radio', { name: /Invite/ }).check();
    await expect(page.getByRole('main').getByLabel('Password', { exact: true }).count()).resolves.toBe(0);
    await page.getByRole('radio', { name: 'Set it now' }).check();
    await page.getByRole('main').getByLabel('Password', { exact: true }).fill('Editor-pass-1');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.waitForURL(new RegExp(`/admin/users/${UUID}$`));
    await page.getByRole('heading', { name: 'Eve Editor', exact: true }).waitFor();
    await page.getByRole('status').getByText(`The user ${email} is created.`).waitFor();
    const userId = idOf(page);
    const user = await t.http.get(`/admin/api/users/${userId}`).set(admin).expect(200);
    expect(user.body).toMatchObject({
      email,
      name: 'Eve Editor',
      isActive: true,
      emailVerified: true,
      team: 'News desk',
      roles: [{ id: roleId, slug: 'editors' }],
    });
    await expect(page.getByRole('checkbox', { name: 'Editors', exact: true }).isChecked()).resolves.toBe(
      true,
    );
    await audit(page, 'people-user');
    await fitsNarrow(page, 'people-user');

    // The list finds her by search and by role.
    await adminNav(page).getByRole('link', { name: 'Users' }).click();
    await page.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Editors' });
    await page.getByText('Page 1 of 1 (1 user)').waitFor();
    await page.getByRole('row', { name: /Eve Editor/ }).waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByText('Page 1 of 1 (2 users)').waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).fill('eve-');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('Page 1 of 1 (1 user)').waitFor();
    await expect(
      page
        .getByRole('row', { name: /Eve Editor/ })
        .getByRole('cell')
        .nth(1)
        .textContent(),
    ).resolves.toBe('Editors');
    expect(problems).toEqual([]);

    // She signs in: Posts, and no administration but her API keys.
    const eve = await openPage(chrome);
    await signIn(eve.page, '/admin/content', email, 'Editor-pass-1');
    await contentNav(eve.page).getByRole('link', { name: 'Posts' }).waitFor();
    await adminNav(eve.page).getByRole('link', { name: 'API keys' }).waitFor();
    await expect(adminNav(eve.page).getByRole('link', { name: 'Users' }).count()).resolves.toBe(0);
    await expect(adminNav(eve.page).getByRole('link', { name: 'Roles' }).count()).resolves.toBe(0);
    // The screen itself answers what the API says.
    await eve.page.goto(`${base}/admin/users`);
    await eve.page
      .getByRole('alert')
      .getByText(/permission/i)
      .waitFor();
    await expect(eve.page.getByRole('link', { name: 'New user' }).count()).resolves.toBe(0);
    expect(eve.problems).toEqual([]);
  });

  it('lists the permissions, creates one of the application and deletes it; a built-in one is refused, and the page says why', async () => {
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/roles', superAdmin.email, superAdmin.password);
    await page.getByRole('link', { name: 'Permissions', exact: true }).click();
    await page.waitForURL(`${base}/admin/roles/permissions`);
    await page.getByRole('heading', { name: 'Permissions', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Permissions' });
    await table.getByRole('rowheader', { name: 'read-users', exact: true }).waitFor();
    await audit(page, 'people-permissions');
    await fitsNarrow(page, 'people-permissions');

    // A name the service refuses: its message is on the field.
    await page.getByLabel('Action', { exact: true }).fill('Bad Action!');
    await page.getByLabel('Resource', { exact: true }).fill('invoices');
    await page.getByRole('button', { name: 'Create permission' }).click();
    await page.locator('#permission-action[aria-invalid="true"]').waitFor();

    await page.getByLabel('Action', { exact: true }).fill('approve');
    await page.getByLabel('Name (optional)').fill('Approve invoices');
    await page.getByRole('button', { name: 'Create permission' }).click();
    await page.getByRole('status').getByText('The permission approve-invoices is created').waitFor();
    await table.getByRole('rowheader', { name: 'approve-invoices', exact: true }).waitFor();
    const listed = await t.http
      .get('/admin/api/permissions')
      .query({ search: 'approve', limit: 100 })
      .set(admin);
    expect((listed.body.items as Array<{ slug: string; name: string }>).map((p) => [p.slug, p.name])).toEqual(
      [['approve-invoices', 'Approve invoices']],
    );

    // A permission the service's routes check cannot go: the refusal is shown, nothing changes.
    await table
      .getByRole('row', { name: /^read-users/ })
      .getByRole('button', { name: 'Delete read-users' })
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('alert').filter({ hasText: /\S/ }).waitFor();
    await table.getByRole('rowheader', { name: 'read-users', exact: true }).waitFor();

    await table.getByRole('button', { name: 'Delete approve-invoices' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').getByText('The permission approve-invoices is deleted.').waitFor();
    await table
      .getByRole('rowheader', { name: 'approve-invoices', exact: true })
      .waitFor({ state: 'detached' });
    const gone = await t.http
      .get('/admin/api/permissions')
      .query({ search: 'approve', limit: 100 })
      .set(admin);
    expect(gone.body.items).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('deactivates and activates a user through the API; the last super-admin is refused, and the page says why', async () => {
    const target = await createUser(t, { name: 'Dan Deactivated' });
    const { page, problems } = await openPage(chrome);
    await signIn(page, `/admin/users/${target.id}`, superAdmin.email, superAdmin.password);
    await page.getByRole('heading', { name: 'Dan Deactivated', exact: true }).waitFor();
    await page.getByText('This account is active.').waitFor();

    await page.getByRole('button', { name: 'Deactivate' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(/cannot sign in until/).waitFor();
    await audit(page, 'people-user-deactivate');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('This account is deactivated: its owner cannot sign in.').waitFor();
    await page
      .getByRole('status')
      .getByText(/is deactivated/)
      .waitFor();
    const off = await t.http.get(`/admin/api/users/${target.id}`).set(admin).expect(200);
    expect(off.body.isActive).toBe(false);
    // A deactivated account cannot sign in.
    await (
      await browser(t)
    )
      .post('/auth/login', { email: target.email, password: target.password })
      .expect(401);

    await page.getByRole('button', { name: 'Activate' }).click();
    await page.getByText('This account is active.').waitFor();
    const on = await t.http.get(`/admin/api/users/${target.id}`).set(admin).expect(200);
    expect(on.body.isActive).toBe(true);

    // The last active super-admin: the API refuses, the page says its reason.
    await page.goto(`${base}/admin/users/${superAdmin.id}`);
    await page.getByRole('heading', { name: 'Ada Admin', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    const alert = page.getByRole('alert').filter({ hasText: /last active super-admin/ });
    await alert.waitFor();
    const still = await t.http.get(`/admin/api/users/${superAdmin.id}`).set(admin).expect(200);
    expect(still.body.isActive).toBe(true);
    await page.getByText('This account is active.').waitFor();
    // Nor can the role be taken away: the same reason, and the box is checked again.
    await page.getByRole('checkbox', { name: 'Super Admin', exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save roles' }).click();
    // (The alert of the refused deactivation says the same: wait for the box to be checked again.)
    await page.getByRole('checkbox', { name: 'Super Admin', exact: true, checked: true }).waitFor();
    await page
      .getByRole('alert')
      .filter({ hasText: /last active super-admin/ })
      .waitFor();
    await audit(page, 'people-user-refused');
    await fitsNarrow(page, 'people-user-refused');

    // A password set by an administrator: the field's refusal is tied to it, then it works.
    await page.goto(`${base}/admin/users/${target.id}`);
    await page.getByRole('heading', { name: 'Dan Deactivated', exact: true }).waitFor();
    // The second factor's reset (the TOTP plugin is installed): the plugin's answer is shown.
    await page.getByRole('button', { name: 'Reset two-step verification' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').getByText('The user had no second factor').waitFor();
    const password = page.getByLabel('New password', { exact: true });
    await password.fill('weakweak');
    await page.getByRole('button', { name: 'Set password' }).click();
    await password.and(page.locator('[aria-invalid="true"]')).waitFor();
    const describedBy = (await password.getAttribute('aria-describedby'))!.split(' ');
    const described = await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(described.join(' ')).toMatch(/password/i);
    await password.fill('Another-pass-2');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page
      .getByRole('status')
      .getByText(/Password set/)
      .waitFor();
    await (
      await browser(t)
    )
      .post('/auth/login', { email: target.email, password: 'Another-pass-2' })
      .expect(200);
    expect(problems).toEqual([]);
  });

  it('creates a user by keyboard alone', async () => {
    const roleRes = await t.http
      .post('/admin/api/roles')
      .set(admin)
      .send({ name: 'Writers', permissionIds: [] })
      .expect(201);
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/users', superAdmin.email, superAdmin.password);
    await page.getByRole('row', { name: /Ada Admin/ }).waitFor();
    const focused = () =>
      page.evaluate<string>(`(() => {
        const el = document.activeElement;
        if (!el) return '';
        const label = el.getAttribute('aria-label') || (el.labels && el.labels[0] && el.labels[0].textContent);
        return (label || el.textContent || '').trim();
      })()`);
    const tabTo = async (name: string) => {
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        if ((await focused()) === name) {
          return;
        }
      }
      throw new Error(`Tab never reached ${name}`);
    };
    await tabTo('New user');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'New user', exact: true }).waitFor();
    // The new screen's heading has the focus; the form follows it.
    await expect(page.evaluate<string | undefined>('document.activeElement?.tagName')).resolves.toBe('H1');
    const email = `kay-${Date.now()}@example.com`;
    await tabTo('Email');
    await page.keyboard.type(email);
    await tabTo('Name');
    await page.keyboard.type('Kay Keys');
    await tabTo('Password');
    await page.keyboard.type('Keyboard-pass-3');
    await tabTo('Writers');
    await page.keyboard.press('Space');
    await expect(page.getByRole('checkbox', { name: 'Writers', exact: true }).isChecked()).resolves.toBe(
      true,
    );
    await tabTo('Create user');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/admin/users/${UUID}$`));
    await page.getByRole('heading', { name: 'Kay Keys', exact: true }).waitFor();
    const user = await t.http
      .get(`/admin/api/users/${idOf(page)}`)
      .set(admin)
      .expect(200);
    expect(user.body).toMatchObject({
      email,
      name: 'Kay Keys',
      emailVerified: true,
      roles: [{ id: roleRes.body.item.id }],
    });
    expect(problems).toEqual([]);
  });
});
