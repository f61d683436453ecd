import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { bearerFor, createUser, userWithPermissions } from '../utils/auth';
import {
  audit,
  describeInChromium,
  fitsNarrow,
  launchChromium,
  openPage,
  SHOTS,
  signInToApp,
} from '../utils/chromium';
import { addresses, REJECT_DOMAIN, startSmtp, type TestSmtp } from '../utils/smtp';
import { createTestApp, type TestApp } from '../utils/test-app';

/**
 * The settings screens of admin/src/settings in a real browser against the service: general
 * settings, user fields (create, edit, reorder by buttons and by keyboard, delete), image sizes
 * (create, edit, delete, and a regeneration of an uploaded image followed to its end), email
 * providers (create with a write-only password, a test send caught by a real SMTP server, a refused
 * send, the default, delete) and email templates (a preview that follows the typing, save, delete,
 * the layout). Each screen: one refusal of the API shown on its field, axe-core and 360 px.
 */

const describeBrowser = describeInChromium('admin-settings-browser');

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const API = '/admin/api';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `probe()` until its answer satisfies `ok` (then that answer), or fails after `ms`. */
async function until<T>(what: string, probe: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (ok(value)) {
      return value;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}: last ${JSON.stringify(value)}`);
    }
    await sleep(100);
  }
}

describeBrowser('admin settings screens in a browser', () => {
  jest.setTimeout(180_000);
  let t: TestApp;
  let chrome: Browser;
  let base: string;
  let smtp: TestSmtp;
  let admin: Record<string, string>;
  let adminUser: { id: string; email: string; password: string };
  const mediaDir = mkdtempSync(join(tmpdir(), 'svc-settings-media-'));

  beforeAll(async () => {
    smtp = await startSmtp({ users: { mailer: 'Mail-secret-1' } });
    t = await createTestApp({ overrides: { media: { dir: mediaDir } } });
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    chrome = await launchChromium();
    adminUser = await createUser(t, { roles: ['super-admin'], name: 'Ada Admin' });
    admin = await bearerFor(t, adminUser.id);
  });
  afterAll(async () => {
    await chrome?.close();
    await t?.close();
    await smtp?.close();
    rmSync(mediaDir, { recursive: true, force: true });
  });

  const signIn = (page: Page, path: string, user = adminUser) =>
    signInToApp(page, base, path, user.email, user.password);
  const get = async (path: string) => (await t.http.get(`${API}${path}`).set(admin).expect(200)).body;
  const idOf = (page: Page) => new URL(page.url()).pathname.split('/').pop() ?? '';
  /** A field's accessible error: its input is invalid and described by the message. */
  const invalidWith = async (page: Page, label: string, message: RegExp) => {
    const input = page.getByLabel(label, { exact: true });
    await page.locator(`[aria-invalid="true"]`).first().waitFor();
    await expect(input.getAttribute('aria-invalid')).resolves.toBe('true');
    const described = (await input.getAttribute('aria-describedby')) ?? '';
    const texts = await Promise.all(
      described.split(' ').map((id) => page.locator(`[id="${id}"]`).innerText()),
    );
    expect(texts.join(' ')).toMatch(message);
  };

  it('changes the general settings, with a refused time zone shown on its field', async () => {
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/settings');
    await page.getByRole('heading', { name: 'General settings', level: 1 }).waitFor();
    const sections = page.getByRole('navigation', { name: 'Settings sections' });
    for (const name of ['General', 'User fields', 'Image sizes', 'Email providers', 'Email templates']) {
      await sections.getByRole('link', { name, exact: true }).waitFor();
    }
    await expect(page.getByLabel('Site name', { exact: true }).inputValue()).resolves.toBe('svc');
    await audit(page, 'admin-settings-general');
    await fitsNarrow(page, 'admin-settings-general');

    await page.getByLabel('Site name', { exact: true }).fill('Acme Journal');
    await page.getByLabel('Site URL (optional)').fill('https://acme.example');
    await page.getByLabel('Time zone', { exact: true }).fill('Mars/Olympus_Mons');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('alert')
      .getByText(/time zone/i)
      .first()
      .waitFor();
    await invalidWith(page, 'Time zone', /IANA time zone/);
    // Nothing was stored.
    expect((await get('/general-settings')).siteName).toBe('svc');

    await page.getByLabel('Time zone', { exact: true }).fill('europe/paris');
    await page.getByLabel('Custom settings (JSON)').fill('{"footerText": "Hello"}');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('The general settings are saved.').waitFor();
    await expect(
      page.getByLabel('Time zone', { exact: true }).getAttribute('aria-invalid'),
    ).resolves.toBeNull();
    expect(await get('/general-settings')).toMatchObject({
      siteName: 'Acme Journal',
      siteUrl: 'https://acme.example',
      timezone: 'Europe/Paris',
      custom: { footerText: 'Hello' },
    });
    expect(problems).toEqual([]);
  });

  it('creates, edits, reorders and deletes user fields', async () => {
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/settings/user-fields');
    await page.getByRole('heading', { name: 'User fields', level: 1 }).waitFor();
    await page.getByText('There is no user field yet.').waitFor();
    await audit(page, 'admin-settings-user-fields-empty');

    // A reserved name: refused by the API, on the Name field.
    const add = async (name: string, label: string, type?: string) => {
      await page.getByLabel('Name', { exact: true }).fill(name);
      if (type) {
        await page.getByLabel('Type', { exact: true }).selectOption({ label: type });
      }
      await page.getByLabel('Label (optional)').fill(label);
    };
    await add('password', 'Secret');
    await page.getByRole('button', { name: 'Add field' }).click();
    await invalidWith(page, 'Name', /name/i);

    await add('phoneNumber', 'Phone');
    await page.getByLabel('Required', { exact: true }).check();
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByRole('status').getByText('The user field Phone is added.').waitFor();
    await add('team', 'Team', 'Choice (select)');
    await page.getByLabel('Options', { exact: true }).fill('red | Red team\nblue');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByRole('status').getByText('The user field Team is added.').waitFor();
    await add('nickname', 'Nickname');
    await page.getByRole('button', { name: 'Add field' }).click();
    await page.getByRole('status').getByText('The user field Nickname is added.').waitFor();
    const order = async () =>
      ((await get('/user-fields?sort=order')).items as Array<{ name: string }>).map((f) => f.name);
    expect(await order()).toEqual(['phoneNumber', 'team', 'nickname']);
    const team = (
      (await get('/user-fields')).items as Array<{ name: string; options: unknown; required: boolean }>
    ).find((f) => f.name === 'team');
    expect(team?.options).toEqual([{ value: 'red', label: 'Red team' }, 'blue']);
    await page.getByRole('row', { name: /Nickname/ }).waitFor();
    await audit(page, 'admin-settings-user-fields');
    await fitsNarrow(page, 'admin-settings-user-fields');

    // Move up with the mouse: the API's order follows.
    await page.getByRole('button', { name: 'Move Nickname up' }).click();
    await page.getByRole('status').getByText('Nickname moved to position 2 of 3.').waitFor();
    expect(await order()).toEqual(['phoneNumber', 'nickname', 'team']);
    // Then by keyboard: the focus stays on the moved field's button.
    await page.getByRole('button', { name: 'Move Phone down' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Phone moved to position 2 of 3.').waitFor();
    await until(
      'the focus on Phone’s button',
      () =>
        page.evaluate<string | null>(
          "document.activeElement && document.activeElement.getAttribute('aria-label')",
        ),
      (l) => l === 'Move Phone down',
    );
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Phone moved to position 3 of 3.').waitFor();
    expect(await order()).toEqual(['nickname', 'team', 'phoneNumber']);
    // At the end, "down" is disabled and the focus is on "up".
    await until(
      'the focus on Phone’s up button',
      () =>
        page.evaluate<string | null>(
          "document.activeElement && document.activeElement.getAttribute('aria-label')",
        ),
      (l) => l === 'Move Phone up',
    );
    await expect(page.getByRole('button', { name: 'Move Phone down' }).isDisabled()).resolves.toBe(true);
    const positions = await page.locator('#user-fields-table > tbody > tr > th').allInnerTexts();
    expect(positions).toEqual(['Nickname', 'Team', 'Phone']);

    // Edit: the label and required change; the name stays.
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    await page.getByRole('heading', { name: 'User field: Team', level: 1 }).waitFor();
    await expect(page.getByLabel('Name', { exact: true }).getAttribute('readonly')).resolves.not.toBeNull();
    await page.getByLabel('Label (optional)').fill('Squad');
    await page.getByLabel('Options', { exact: true }).fill('red | Red squad\nblue\ngreen');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('The user field Squad is saved.').waitFor();
    await audit(page, 'admin-settings-user-field');
    await fitsNarrow(page, 'admin-settings-user-field');
    const edited = await get(`/user-fields/${idOf(page)}`);
    expect(edited).toMatchObject({
      name: 'team',
      label: 'Squad',
      options: [{ value: 'red', label: 'Red squad' }, 'blue', 'green'],
    });

    // Delete asks first.
    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link', { name: 'User fields' })
      .click();
    const row = page.getByRole('row', { name: /Nickname/ });
    await row.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete this user field' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').getByText('The user field Nickname is deleted.').waitFor();
    expect(await order()).toEqual(['team', 'phoneNumber']);
    expect(problems).toEqual([]);
  });

  it('creates by keyboard alone a user field and moves it', async () => {
    const { page, problems } = await openPage(chrome);
    // At least one field before, so the new one can move up.
    await t.http.post(`${API}/user-fields`).set(admin).send({ name: 'department', type: 'text' }).expect(201);
    const before = ((await get('/user-fields?sort=order')).items as Array<{ name: string }>).map(
      (f) => f.name,
    );
    await signIn(page, '/admin/settings/user-fields');
    await page.getByRole('row', { name: /Department/ }).waitFor();
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
    await tabTo('Name');
    await page.keyboard.type('birthday');
    await tabTo('Type');
    // A select moves by arrow keys: Date is five below Text.
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press('ArrowDown');
    }
    await expect(page.getByLabel('Type', { exact: true }).inputValue()).resolves.toBe('date');
    await tabTo('Label (optional)');
    await page.keyboard.type('Birthday');
    await tabTo('Add field');
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('The user field Birthday is added.').waitFor();
    await tabTo('Move Birthday up');
    await page.keyboard.press('Enter');
    const count = before.length + 1;
    await page
      .getByRole('status')
      .getByText(`Birthday moved to position ${count - 1} of ${count}.`)
      .waitFor();
    const fields = (await get('/user-fields?sort=order')).items as Array<{ name: string; type: string }>;
    expect(fields.map((f) => f.name)).toEqual([
      ...before.slice(0, -1),
      'birthday',
      before[before.length - 1],
    ]);
    expect(fields.find((f) => f.name === 'birthday')?.type).toBe('date');
    expect(problems).toEqual([]);
  });

  it('creates, edits and deletes image sizes, and regenerates an uploaded image with its progress', async () => {
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    const uploaded = await t.http
      .post(`${API}/collections/media/entries`)
      .set(admin)
      .attach('file', png, 'sea.png')
      .expect(201);
    const mediaId = uploaded.body.item.id as string;
    expect(uploaded.body.item.sizes).toEqual({});

    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/settings/image-sizes');
    await page.getByRole('heading', { name: 'Image sizes', level: 1 }).waitFor();
    await page.getByText('There is no image size yet.').waitFor();
    await page.getByText('The images have never been regenerated.').waitFor();

    // A name the API refuses, on its field.
    await page.getByLabel('Name', { exact: true }).fill('Big Thumb!');
    await page.getByLabel('Width (pixels)').fill('120');
    await page.getByRole('button', { name: 'Add size' }).click();
    await invalidWith(page, 'Name', /name/i);
    await page.getByLabel('Name', { exact: true }).fill('thumb');
    await page.getByLabel('Height (pixels)').fill('90');
    await page.getByLabel('Fit', { exact: true }).selectOption('cover');
    await page.getByLabel('Format', { exact: true }).selectOption('webp');
    await page.getByLabel('Quality (optional)').fill('70');
    await page.getByRole('button', { name: 'Add size' }).click();
    await page
      .getByRole('status')
      .getByText(/The image size thumb is added/)
      .waitFor();
    await page.getByRole('row', { name: /thumb/ }).waitFor();
    const sizes = async () => (await get('/image-sizes')).items as Array<Record<string, unknown>>;
    expect(await sizes()).toEqual([
      expect.objectContaining({
        name: 'thumb',
        width: 120,
        height: 90,
        fit: 'cover',
        format: 'webp',
        quality: 70,
      }),
    ]);
    await audit(page, 'admin-settings-image-sizes');
    await fitsNarrow(page, 'admin-settings-image-sizes');

    // Edit: the width goes, the format back to the source's.
    await page.getByRole('link', { name: 'thumb', exact: true }).click();
    await page.getByRole('heading', { name: 'Image size: thumb', level: 1 }).waitFor();
    await page.getByLabel('Width (pixels)').fill('');
    await page.getByLabel('Format', { exact: true }).selectOption('');
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('status')
      .getByText(/The image size thumb is saved/)
      .waitFor();
    expect(await sizes()).toEqual([
      expect.objectContaining({ name: 'thumb', width: null, height: 90, fit: 'cover', format: null }),
    ]);
    await audit(page, 'admin-settings-image-size');
    await fitsNarrow(page, 'admin-settings-image-size');

    // Regenerate: the progress is polled until the run ends; the image then has the size.
    await page
      .getByRole('navigation', { name: 'Settings sections' })
      .getByRole('link', { name: 'Image sizes' })
      .click();
    await page.getByRole('button', { name: 'Regenerate' }).click();
    await page
      .getByRole('status')
      .getByText(/Regeneration finished.*1 of 1 images done/)
      .waitFor({ timeout: 30_000 });
    const progress = page.getByRole('progressbar', { name: 'Regeneration progress' });
    await expect(
      progress.evaluate((p) => [
        (p as unknown as { value: number }).value,
        (p as unknown as { max: number }).max,
      ]),
    ).resolves.toEqual([1, 1]);
    await expect(page.getByRole('button', { name: 'Regenerate' }).isEnabled()).resolves.toBe(true);
    expect((await get('/image-sizes/regeneration-status')).status).toBe('done');
    const item = await get(`/collections/media/entries/${mediaId}`);
    expect(item.sizes.thumb).toMatchObject({ height: 90, mimeType: 'image/png' });
    await audit(page, 'admin-settings-image-regenerated');

    // Delete asks first.
    await page.getByRole('row', { name: /thumb/ }).getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete this image size' });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByRole('status').getByText('The image size thumb is deleted.').waitFor();
    await page.getByText('There is no image size yet.').waitFor();
    expect(await sizes()).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('creates an email provider with a write-only password, sends a test email, sets the default and deletes', async () => {
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/settings/email/providers');
    await page.getByRole('heading', { name: 'Email providers', level: 1 }).waitFor();
    await page.getByText('There is no email provider yet.').waitFor();
    await page.getByRole('link', { name: 'New provider' }).click();
    await page.getByRole('heading', { name: 'New email provider', level: 1 }).waitFor();
    await audit(page, 'admin-settings-email-provider-new');
    await fitsNarrow(page, 'admin-settings-email-provider-new');

    await page.getByLabel('Name', { exact: true }).fill('Capture');
    await page.getByLabel('Sender address').fill('site@acme.example');
    await page.getByLabel('Sender name (optional)').fill('Acme');
    await page.getByLabel('Host', { exact: true }).fill(smtp.host);
    // A port the API refuses, on its field.
    await page.getByLabel('Port', { exact: true }).fill('70000');
    await page.getByLabel('User name (optional)').fill('mailer');
    await page.getByLabel('Password (optional)').fill('Mail-secret-1');
    await page.getByRole('button', { name: 'Save' }).click();
    await invalidWith(page, 'Port', /port/i);
    await expect(get('/email-providers')).resolves.toMatchObject({ items: [] });

    await page.getByLabel('Port', { exact: true }).fill(String(smtp.port));
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(new RegExp(`/admin/settings/email/providers/${UUID}$`));
    await page.getByRole('heading', { name: 'Email provider: Capture', level: 1 }).waitFor();
    await page
      .getByRole('status')
      .getByText(/The email provider Capture is created/)
      .waitFor();
    const id = idOf(page);
    // The password is never shown back: the field is empty and says one is set.
    await expect(page.getByLabel('New password (optional)').inputValue()).resolves.toBe('');
    await page.getByText('A password is set. It is never shown; leave this empty to keep it.').waitFor();
    expect(await page.content()).not.toContain('Mail-secret-1');
    expect(await get(`/email-providers/${id}`)).toMatchObject({
      name: 'Capture',
      fromEmail: 'site@acme.example',
      fromName: 'Acme',
      isDefault: true,
      config: { host: smtp.host, port: smtp.port, secure: false, user: 'mailer', password: '********' },
    });
    await audit(page, 'admin-settings-email-provider');
    await fitsNarrow(page, 'admin-settings-email-provider');

    // A test send reaches the SMTP server, signed in with the stored password.
    smtp.clear();
    await page.getByLabel('To', { exact: true }).fill('ops@acme.example');
    await page.getByRole('button', { name: 'Send test' }).click();
    await page
      .getByRole('status')
      .getByText(/Test email accepted by the SMTP server for ops@acme\.example/)
      .waitFor();
    const mail = await smtp.waitFor((m) => addresses(m).includes('ops@acme.example'));
    expect(mail.from?.text).toContain('site@acme.example');
    expect(smtp.auths).toEqual([{ username: 'mailer', password: 'Mail-secret-1' }]);
    // A refused recipient: the server's answer is shown.
    await page.getByLabel('To', { exact: true }).fill(`nobody@${REJECT_DOMAIN}`);
    await page.getByRole('button', { name: 'Send test' }).click();
    await page
      .getByRole('alert')
      .getByText(/The test email was not sent/)
      .waitFor();
    await page
      .getByRole('alert')
      .getByText(/The server answered: .*550/)
      .waitFor();

    // Saving without a password keeps it.
    await page.getByLabel('Sender name (optional)').fill('Acme Mail');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('The email provider is saved.').waitFor();
    smtp.clear();
    await t.http
      .post(`${API}/email-providers/${id}/test`)
      .set(admin)
      .send({ to: 'again@acme.example' })
      .expect(200);
    expect(smtp.auths).toEqual([{ username: 'mailer', password: 'Mail-secret-1' }]);

    // A second provider becomes the default from the list; the first is then deleted.
    const other = await t.http
      .post(`${API}/email-providers`)
      .set(admin)
      .send({
        name: 'Backup',
        fromEmail: 'backup@acme.example',
        config: { host: smtp.host, port: smtp.port },
      })
      .expect(201);
    await page.getByRole('link', { name: 'Email providers', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Email providers', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Make default: Backup' }).click();
    await page.getByRole('status').getByText('Backup is now the default provider.').waitFor();
    expect((await get(`/email-providers/${other.body.item.id}`)).isDefault).toBe(true);
    await audit(page, 'admin-settings-email-providers');
    await fitsNarrow(page, 'admin-settings-email-providers');
    await page
      .getByRole('row', { name: /Capture/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page
      .getByRole('alertdialog', { name: 'Delete this email provider' })
      .getByRole('button', { name: 'Confirm' })
      .click();
    await page.getByRole('status').getByText('The email provider Capture is deleted.').waitFor();
    await t.http.get(`${API}/email-providers/${id}`).set(admin).expect(404);
    expect(problems).toEqual([]);
  });

  it('edits an email template with a preview that follows the typing, creates and deletes one, and edits the layout', async () => {
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/settings/email/templates');
    await page.getByRole('heading', { name: 'Email templates', level: 1 }).waitFor();
    // A built-in template: its saved version is previewed by the service's preview route.
    const templates = (await get('/email-templates?limit=100')).items as Array<{
      id: string;
      slug: string;
      name: string;
    }>;
    const invite = templates.find((x) => x.slug === 'invite')!;
    await page.getByRole('link', { name: invite.name, exact: true }).waitFor();
    await audit(page, 'admin-settings-email-templates');
    await fitsNarrow(page, 'admin-settings-email-templates');

    const previewed = page.waitForResponse(
      (r) => r.url().endsWith(`/email-templates/${invite.id}/preview`) && r.ok(),
    );
    await page.getByRole('link', { name: invite.name, exact: true }).click();
    await page.getByRole('heading', { name: `Email template: ${invite.name}`, level: 1 }).waitFor();
    await previewed;
    await page.getByText('Preview of the saved template.').waitFor();
    const frame = page.getByTitle('Preview of the HTML email');
    await expect(frame.getAttribute('sandbox')).resolves.toBe('');
    const srcdoc = () => frame.getAttribute('srcdoc').then((v) => v ?? '');
    await until('the served preview', srcdoc, (html) => html.includes('Ada Lovelace') || html.length > 0);

    // Typing changes the preview (the subject, the HTML in the frame, the text) without saving.
    const subject = page.getByLabel('Subject', { exact: true });
    await subject.fill('');
    await subject.pressSequentially('Welcome aboard, {{name}}!', { delay: 10 });
    await page.locator('#preview-subject').getByText('Welcome aboard, Ada Lovelace!').waitFor();
    // Without a text version, the text is made from the HTML.
    await page.getByLabel('Text version (optional)').fill('');
    const html = page.getByLabel('HTML body', { exact: true });
    await html.fill('');
    await html.pressSequentially('<h1>Hi {{name}}</h1><p><a href="{{link}}">Join</a></p>', { delay: 5 });
    await until('the typed HTML in the preview', srcdoc, (h) => h.includes('<h1>Hi Ada Lovelace</h1>'));
    await page.getByText('Preview of your unsaved changes.').waitFor();
    await until(
      'the text preview',
      () => page.locator('#preview-text').innerText(),
      (text) => text.includes('Hi Ada Lovelace') && text.includes('Join ('),
    );
    // A sample value changes the preview too; it is escaped in the HTML.
    await page.getByLabel('name', { exact: true }).fill('Grace <Hopper>');
    await until('the sample in the preview', srcdoc, (h) => h.includes('<h1>Hi Grace &lt;Hopper&gt;</h1>'));
    // The frame shows it (its own document: no script, no access to the app).
    await page.frameLocator('#preview-html').getByRole('heading', { name: 'Hi Grace <Hopper>' }).waitFor();
    // Nothing is saved yet.
    expect((await get(`/email-templates/${invite.id}`)).subject).not.toBe('Welcome aboard, {{name}}!');
    // For the guide: a screenshot of the viewport (a full-page one can miss the frame's painting).
    await page.setViewportSize({ width: 1280, height: 1200 });
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path: join(SHOTS, 'admin-settings-email-template-view.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await audit(page, 'admin-settings-email-template');
    await fitsNarrow(page, 'admin-settings-email-template');

    // A built-in keeps its slug: refused on the Slug field.
    await page.getByLabel('Slug', { exact: true }).fill('invitation');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').waitFor();
    await until(
      'the refusal on Slug',
      () => page.getByLabel('Slug', { exact: true }).getAttribute('aria-invalid'),
      (v) => v === 'true',
    );
    await page.getByLabel('Slug', { exact: true }).fill('invite');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith(`/email-templates/${invite.id}/preview`) && r.ok(),
    );
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText(`The email template ${invite.name} is saved.`).waitFor();
    // Saved: the service's preview renders the stored template, with the sample values.
    const served = await (await saved).json();
    expect(served).toMatchObject({
      subject: 'Welcome aboard, Grace <Hopper>!',
      html: expect.stringContaining('<h1>Hi Grace &lt;Hopper&gt;</h1>'),
    });
    await page.getByText('Preview of the saved template.').waitFor();
    expect(await get(`/email-templates/${invite.id}`)).toMatchObject({
      slug: 'invite',
      subject: 'Welcome aboard, {{name}}!',
      html: '<h1>Hi {{name}}</h1><p><a href="{{link}}">Join</a></p>',
    });

    // A new template, then deleted from the list.
    await page.getByRole('link', { name: 'Email templates', exact: true }).first().click();
    await page.getByRole('link', { name: 'New template' }).click();
    await page.getByRole('heading', { name: 'New email template', level: 1 }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Order shipped');
    await page.getByLabel('Slug', { exact: true }).fill('order-shipped');
    await page.getByLabel('Subject', { exact: true }).fill('Order {{order}} shipped');
    await page.getByLabel('HTML body', { exact: true }).fill('<p>Your order {{order}} is on its way.</p>');
    await page.getByLabel('order', { exact: true }).fill('A-42');
    await page.locator('#preview-subject').getByText('Order A-42 shipped').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(new RegExp(`/admin/settings/email/templates/${UUID}$`));
    await page.getByRole('status').getByText('The email template Order shipped is created.').waitFor();
    const created = await get(`/email-templates/${idOf(page)}`);
    expect(created).toMatchObject({ slug: 'order-shipped', subject: 'Order {{order}} shipped', text: null });
    await page.getByRole('link', { name: 'Email templates', exact: true }).first().click();
    await page
      .getByRole('row', { name: /Order shipped/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page
      .getByRole('alertdialog', { name: 'Delete this email template' })
      .getByRole('button', { name: 'Confirm' })
      .click();
    await page.getByRole('status').getByText('The email template Order shipped is deleted.').waitFor();
    await t.http.get(`${API}/email-templates/${created.id}`).set(admin).expect(404);

    // The layout.
    await page.getByRole('link', { name: 'shared layout' }).click();
    await page.getByRole('heading', { name: 'Email layout', level: 1 }).waitFor();
    await page.getByLabel('Footer (HTML)').fill('<p>Sent by Acme to {{email}}</p>');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('The email layout is saved.').waitFor();
    expect((await get('/email-templates/layout')).footer).toBe('<p>Sent by Acme to {{email}}</p>');
    await audit(page, 'admin-settings-email-layout');
    await fitsNarrow(page, 'admin-settings-email-layout');
    expect(problems).toEqual([]);
  });

  it('shows no Settings link to a user without manage-settings', async () => {
    const reader = await userWithPermissions(t, ['read-users']);
    const { page, problems } = await openPage(chrome);
    await signInToApp(page, base, '/admin/users', reader.email, reader.password);
    const administration = page.getByRole('navigation', { name: 'Administration' });
    await administration.getByRole('link', { name: 'Users' }).waitFor();
    await expect(administration.getByRole('link', { name: 'Settings' }).count()).resolves.toBe(0);
    // Opened by its address, the screen says so and loads nothing.
    await page.goto(`${base}/admin/settings`);
    await page.getByText('You may not change the settings.').waitFor();
    expect(problems).toEqual([]);
  });
});
