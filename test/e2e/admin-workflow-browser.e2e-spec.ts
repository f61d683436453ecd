import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { bearerFor, createUser } from '../utils/auth';
import {
  audit,
  describeInChromium,
  fitsNarrow,
  launchChromium,
  openPage,
  SHOTS,
  signInToApp,
} from '../utils/chromium';
import { createTestApp, type TestApp } from '../utils/test-app';

/**
 * The editorial workflow in the entry editor, in a real browser against the service: the versions
 * table (number, event, status, author, date), a version compared with the entry and restored;
 * "Preview" opening the collection's preview page with a working token (and explaining when the
 * collection has none); "Schedule" in the browser's time zone (a publish that runs, a refusal on
 * its field, one made and cancelled by keyboard alone); and a save over someone else's, refused by
 * its tag, then resolved by "Overwrite" and by "Reload". axe-core and 360 px on each state.
 */

const describeBrowser = describeInChromium('admin-workflow-browser');

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
    await sleep(200);
  }
}

/** Whether the element has the focus (the tests are typed without the DOM's types). */
const hasFocus = (l: Locator) =>
  l.evaluate(
    (el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
  );

/** The text of each body row's cells of a table. */
const rowsOf = (page: Page, name: string) =>
  page
    .getByRole('table', { name, exact: true })
    .locator('tbody > tr')
    .evaluateAll((rows) =>
      rows.map((r) => [...r.children].map((c) => (c as unknown as { innerText: string }).innerText.trim())),
    );

/** A local wall-clock time `ms` from now as `datetime-local` shows it, in the page's time zone. */
const localIn = (page: Page, ms: number) =>
  page.evaluate((offset) => {
    const d = new Date(Date.now() + offset);
    d.setMilliseconds(0);
    const pad = (n: number) => String(n).padStart(2, '0');
    return {
      local:
        `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}` +
        `T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`,
      iso: d.toISOString(),
    };
  }, ms);

describeBrowser('the editorial workflow in the entry editor', () => {
  jest.setTimeout(180_000);
  let t: TestApp;
  let chrome: Browser;
  let base: string;
  let previewSite: Server;
  let previewBase: string;
  const previewHits: string[] = [];
  let admin: Record<string, string>;
  let adminUser: { id: string; email: string; password: string };

  beforeAll(async () => {
    // The site's preview page: a tiny page on loopback that records what it was asked for.
    previewSite = createServer((req, res) => {
      previewHits.push(req.url ?? '');
      res.writeHead(200, { 'Content-Type': 'text/html', 'Referrer-Policy': 'no-referrer' });
      res.end('<!doctype html><html lang="en"><title>Preview</title><h1>Site preview</h1></html>');
    });
    await new Promise<void>((resolve) => previewSite.listen(0, '127.0.0.1', () => resolve()));
    previewBase = `http://127.0.0.1:${(previewSite.address() as AddressInfo).port}`;
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'articles',
            labels: { singular: 'Article', plural: 'Articles' },
            drafts: true,
            versions: true,
            preview: { url: `${previewBase}/preview/{slug}/{id}?token={token}` },
            fields: [
              { name: 'title', type: 'text', label: 'Title', required: true },
              { name: 'summary', type: 'textarea', label: 'Summary' },
            ],
          },
          {
            slug: 'notes',
            labels: { singular: 'Note', plural: 'Notes' },
            drafts: true,
            versions: true,
            fields: [{ name: 'title', type: 'text', label: 'Title' }],
          },
        ],
        singles: [
          {
            slug: 'site',
            label: 'Site',
            drafts: true,
            versions: true,
            fields: [
              { name: 'headline', type: 'text', label: 'Headline' },
              { name: 'body', type: 'richText', label: 'Body' },
            ],
          },
        ],
      },
    });
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
    await new Promise((resolve) => previewSite?.close(resolve));
  });

  const create = async (slug: string, body: Record<string, unknown>): Promise<string> =>
    (await t.http.post(`/admin/api/collections/${slug}/entries`).set(admin).send(body).expect(201)).body.item
      .id as string;
  const read = async (slug: string, id: string) =>
    (
      await t.http
        .get(`/admin/api/collections/${slug}/entries/${id}`)
        .query({ status: 'all' })
        .set(admin)
        .expect(200)
    ).body as Record<string, unknown>;

  it('lists versions, compares one with the entry, restores it, and opens the preview page', async () => {
    const id = await create('articles', { title: 'First title', summary: 'One' });
    const { page, problems } = await openPage(chrome);
    await signInToApp(page, base, `/admin/collections/articles/${id}`, adminUser.email, adminUser.password);
    await page.getByRole('heading', { name: 'First title', level: 1 }).waitFor();
    const title = page.getByRole('textbox', { name: 'Title' });
    const summary = page.getByRole('textbox', { name: 'Summary' });

    await title.fill('Second title');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await summary.fill('Two');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await until(
      'three versions',
      () => rowsOf(page, 'Versions'),
      (rows) => rows.length === 3,
    );
    const rows = await rowsOf(page, 'Versions');
    expect(rows.map((r) => r.slice(0, 4))).toEqual([
      ['3', 'Updated', 'draft', 'Ada Admin'],
      ['2', 'Updated', 'draft', 'Ada Admin'],
      ['1', 'Created', 'draft', 'Ada Admin'],
    ]);
    expect(rows.every((r) => /\d/.test(r[4]))).toBe(true);
    for (const header of ['Number', 'Event', 'Status', 'Author', 'Date']) {
      await expect(
        page.getByRole('table', { name: 'Versions' }).getByRole('columnheader', { name: header }).count(),
      ).resolves.toBe(1);
    }

    await page.getByRole('button', { name: 'Compare version 1', exact: true }).click();
    const compared = 'Version 1 compared with the current entry';
    await page.getByRole('table', { name: compared }).waitFor();
    await until(
      'the changes',
      () => rowsOf(page, compared),
      (r) => r.length === 2,
    );
    expect(await rowsOf(page, compared)).toEqual([
      ['Title', 'First title', 'Second title'],
      ['Summary', 'One', 'Two'],
    ]);
    await expect(
      page.evaluate<string>('document.activeElement && document.activeElement.textContent'),
    ).resolves.toBe(compared);
    await audit(page, 'admin-versions');
    await fitsNarrow(page, 'admin-versions');

    await page.getByRole('button', { name: 'Restore version 1', exact: true }).click();
    const ask = page.getByRole('alertdialog', { name: 'Restore version 1' });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Restore', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Version 1 restored' }).waitFor();
    await expect(title.inputValue()).resolves.toBe('First title');
    await expect(summary.inputValue()).resolves.toBe('One');
    expect(await read('articles', id)).toMatchObject({
      title: 'First title',
      summary: 'One',
      status: 'draft',
    });
    await until(
      'the restore row',
      () => rowsOf(page, 'Versions'),
      (r) => r[0]?.[1] === 'Restored',
    );
    // The restored state is what the next save is made over: no conflict.
    await summary.fill('After the restore');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await read('articles', id)).toMatchObject({ summary: 'After the restore' });

    // Preview: the token is asked for, and its page opens in a new tab with the token.
    const tokenAsked = page.waitForResponse(
      (r) => r.url().endsWith(`/entries/${id}/preview-token`) && r.request().method() === 'POST',
    );
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    expect((await tokenAsked).status()).toBe(201);
    const tab = await popup;
    await tab.waitForURL(new RegExp(`^${previewBase}/preview/articles/${id}\\?token=`));
    await tab.getByRole('heading', { name: 'Site preview' }).waitFor();
    const token = new URL(tab.url()).searchParams.get('token')!;
    expect(previewHits.some((h) => h.includes(encodeURIComponent(token)) || h.includes(token))).toBe(true);
    // The token reads the draft, with no other credentials.
    const viaToken = await t.http
      .get(`/admin/api/collections/articles/entries/${id}`)
      .set('X-Preview-Token', token)
      .expect(200);
    expect(viaToken.body).toMatchObject({
      title: 'First title',
      summary: 'After the restore',
      status: 'draft',
    });
    await expect(tab.evaluate('window.opener')).resolves.toBeNull();
    await page.getByText('The preview opened in a new tab.').waitFor();
    await tab.close();

    // A collection without a preview page: the button says so.
    const noteId = await create('notes', { title: 'A note' });
    await page.goto(`${base}/admin/collections/notes/${noteId}`);
    await page.getByRole('heading', { name: 'A note', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByText('There is no preview page for Notes').waitFor();
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('schedules a publish that runs, refuses a past time on its field, and schedules and cancels by keyboard', async () => {
    const id = await create('articles', { title: 'Scheduled', summary: 'Later' });
    // A zone other than the machine's: the instant sent must be read in the browser's.
    const { page, problems } = await openPage(chrome, { timezoneId: 'America/New_York', locale: 'en-US' });
    await signInToApp(page, base, `/admin/collections/articles/${id}`, adminUser.email, adminUser.password);
    await page.getByRole('heading', { name: 'Scheduled', level: 1 }).waitFor();
    await page.getByText('Nothing is scheduled.').waitFor();

    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule a change' });
    await dialog.waitFor();
    const at = dialog.getByLabel('At');
    await expect(at.getAttribute('type')).resolves.toBe('datetime-local');
    await expect(at.getAttribute('step')).resolves.toBe('1');
    await expect(dialog.getByLabel('Action').locator('option').allInnerTexts()).resolves.toEqual([
      'Publish',
      'Unpublish',
    ]);
    await audit(page, 'admin-schedule');
    // The dialog's overlay covers the window only: the docs' picture is the window, not the page.
    await page.screenshot({ path: join(SHOTS, 'admin-schedule-window.png') });
    await fitsNarrow(page, 'admin-schedule-dialog');

    // A time in the past: the API's refusal is on the field.
    const past = await localIn(page, -3600_000);
    await at.fill(past.local);
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await until(
      'the refusal on At',
      () => at.getAttribute('aria-invalid'),
      (v) => v === 'true',
    );
    const describedBy = (await at.getAttribute('aria-describedby'))!.split(' ');
    const errorText = await page.locator(`[id="${describedBy[describedBy.length - 1]}"]`).innerText();
    expect(errorText).toMatch(/future|past/i);

    // A publish a few seconds ahead: listed by the API at that instant, then run.
    const soon = await localIn(page, 5000);
    await dialog.getByLabel('Action').selectOption('publish');
    await at.fill(soon.local);
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'Publish scheduled at' }).waitFor();
    const listed = await t.http
      .get(`/admin/api/collections/articles/entries/${id}/schedule`)
      .set(admin)
      .expect(200);
    expect(listed.body.items).toEqual([
      expect.objectContaining({ action: 'publish', at: soon.iso, status: 'pending' }),
    ]);
    // Listed in local time: the wall-clock time typed, in New York.
    const shownAt = await page.evaluate((iso) => new Date(iso).toLocaleString(), soon.iso);
    const item = page.getByRole('list', { name: 'Scheduled changes' }).getByRole('listitem');
    await item.filter({ hasText: `Publish at ${shownAt}` }).waitFor();
    await until(
      'the entry published',
      async () => (await read('articles', id)).status,
      (s) => s === 'published',
    );
    // The editor reports it and shows the new status (the form had no unsaved change).
    await page
      .getByRole('status')
      .filter({ hasText: 'The scheduled publish ran' })
      .waitFor({ timeout: 15_000 });
    await page.locator('.badge.published').waitFor();
    await page.getByText('Nothing is scheduled.').waitFor();

    // By keyboard alone: an unpublish tomorrow at 09:30:15 in New York, then cancelled.
    const scheduleButton = page.getByRole('button', { name: 'Schedule', exact: true });
    await page.getByRole('button', { name: 'Preview', exact: true }).focus();
    await page.keyboard.press('Tab');
    await expect(hasFocus(scheduleButton)).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await expect(hasFocus(dialog.getByLabel('Action'))).resolves.toBe(true);
    await page.keyboard.press('ArrowDown');
    await expect(dialog.getByLabel('Action').inputValue()).resolves.toBe('unpublish');
    await page.keyboard.press('Tab');
    await expect(hasFocus(at)).resolves.toBe(true);
    const tomorrow = await page.evaluate(() => {
      const d = new Date(Date.now() + 24 * 3600_000);
      d.setHours(9, 30, 15, 0);
      const pad = (n: number) => String(n).padStart(2, '0');
      return {
        date: `${pad(d.getMonth() + 1)}${pad(d.getDate())}${d.getFullYear()}`,
        local: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T09:30:15`,
        iso: d.toISOString(),
      };
    });
    // Month, day and year (the year takes more digits: the arrow moves on), then the time.
    await page.keyboard.type(tomorrow.date);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.type('093015A');
    await expect(at.inputValue()).resolves.toBe(tomorrow.local);
    await page.keyboard.press('Tab');
    await expect(hasFocus(dialog.getByRole('button', { name: 'Schedule', exact: true }))).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const pending = await until(
      'the unpublish listed',
      async () =>
        (await t.http.get(`/admin/api/collections/articles/entries/${id}/schedule`).set(admin).expect(200))
          .body.items as Array<{ id: string; action: string; at: string; status: string }>,
      (items) => items.some((s) => s.status === 'pending'),
    );
    const unpublish = pending.find((s) => s.status === 'pending')!;
    expect(unpublish).toMatchObject({ action: 'unpublish', at: tomorrow.iso });
    // New York's 09:30:15 is 13:30:15 or 14:30:15 UTC, whatever the machine's zone.
    expect(tomorrow.iso).toMatch(/T1[34]:30:15\.000Z$/);
    const cancel = page.getByRole('button', { name: /^Cancel unpublish at/ });
    await cancel.waitFor();
    await audit(page, 'admin-schedule-list');
    await fitsNarrow(page, 'admin-schedule-list');
    await scheduleButton.focus();
    await page.keyboard.press('Shift+Tab');
    await expect(hasFocus(cancel)).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await page.getByText('Nothing is scheduled.').waitFor();
    const after = await t.http
      .get(`/admin/api/collections/articles/entries/${id}/schedule`)
      .set(admin)
      .expect(200);
    expect(after.body.items.find((s: { id: string }) => s.id === unpublish.id)).toMatchObject({
      status: 'cancelled',
    });
    expect(await read('articles', id)).toMatchObject({ status: 'published' });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('refuses a save over a newer one and lets the editor overwrite it or reload', async () => {
    const id = await create('articles', { title: 'Conflict', summary: 'S1' });
    const { page, problems } = await openPage(chrome);
    await signInToApp(page, base, `/admin/collections/articles/${id}`, adminUser.email, adminUser.password);
    await page.getByRole('heading', { name: 'Conflict', level: 1 }).waitFor();
    const title = page.getByRole('textbox', { name: 'Title' });
    const summary = page.getByRole('textbox', { name: 'Summary' });

    // Someone else saves behind the editor's back.
    await t.http
      .patch(`/admin/api/collections/articles/entries/${id}`)
      .set(admin)
      .send({ summary: 'Changed elsewhere' })
      .expect(200);
    await title.fill('Mine');
    const refused = page.waitForResponse(
      (r) => r.url().includes(`/entries/${id}`) && r.request().method() === 'PATCH',
    );
    await page.getByRole('button', { name: 'Save draft' }).click();
    const answer = await refused;
    expect(answer.status()).toBe(412);
    expect(answer.request().headers()['if-match']).toBeTruthy();
    const panel = 'Someone else saved this entry';
    await page.getByRole('heading', { name: panel }).waitFor();
    expect(await rowsOf(page, panel)).toEqual([['Summary', 'S1', 'Changed elsewhere', 'S1']]);
    expect(await read('articles', id)).toMatchObject({ title: 'Conflict', summary: 'Changed elsewhere' });
    await audit(page, 'admin-conflict');
    await fitsNarrow(page, 'admin-conflict');

    // Overwrite: the form's values are saved over theirs, made over the newer tag.
    await page.getByRole('button', { name: 'Overwrite', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    await expect(page.getByRole('heading', { name: panel }).count()).resolves.toBe(0);
    expect(await read('articles', id)).toMatchObject({ title: 'Mine', summary: 'S1' });

    // Again, and this time Reload: the form takes the saved values, nothing is written.
    await t.http
      .patch(`/admin/api/collections/articles/entries/${id}`)
      .set(admin)
      .send({ title: 'Theirs again' })
      .expect(200);
    await summary.fill('Mine too');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { name: panel }).waitFor();
    expect(await rowsOf(page, panel)).toEqual([['Title', 'Mine', 'Theirs again', 'Mine']]);
    await page.getByRole('button', { name: 'Reload', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Reloaded' }).waitFor();
    await expect(title.inputValue()).resolves.toBe('Theirs again');
    await expect(summary.inputValue()).resolves.toBe('S1');
    expect(await read('articles', id)).toMatchObject({ title: 'Theirs again', summary: 'S1' });
    // The reloaded state is the one the next save is made over.
    await summary.fill('After the reload');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await read('articles', id)).toMatchObject({ title: 'Theirs again', summary: 'After the reload' });
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it("keeps a single's versions, restores rich text into the form, and guards its saves", async () => {
    const doc = (text: string) => ({
      root: { type: 'root', children: [{ type: 'paragraph', children: [{ type: 'text', text }] }] },
    });
    await t.http
      .patch('/admin/api/singles/site')
      .set(admin)
      .send({ headline: 'Hello', body: doc('Hello world') })
      .expect(200);
    await t.http
      .patch('/admin/api/singles/site')
      .set(admin)
      .send({ headline: 'Goodbye', body: doc('Goodbye world') })
      .expect(200);
    const { page, problems } = await openPage(chrome);
    await signInToApp(page, base, '/admin/singles/site', adminUser.email, adminUser.password);
    await page.getByRole('heading', { name: 'Site', level: 1 }).waitFor();
    const body = page.getByRole('textbox', { name: 'Body' });
    await expect(body.innerText()).resolves.toContain('Goodbye world');
    await until(
      'two versions',
      () => rowsOf(page, 'Versions'),
      (rows) => rows.length === 2,
    );

    await page.getByRole('button', { name: 'Compare version 1', exact: true }).click();
    const compared = 'Version 1 compared with the current entry';
    await until(
      'the changes',
      () => rowsOf(page, compared),
      (r) => r.length === 2,
    );
    expect(await rowsOf(page, compared)).toEqual([
      ['Headline', 'Hello', 'Goodbye'],
      ['Body', 'Hello world', 'Goodbye world'],
    ]);
    await page.getByRole('button', { name: 'Restore version 1', exact: true }).click();
    await page
      .getByRole('alertdialog', { name: 'Restore version 1' })
      .getByRole('button', { name: 'Restore', exact: true })
      .click();
    await page.getByRole('status').filter({ hasText: 'Version 1 restored' }).waitFor();
    await until(
      'the restored text',
      () => body.innerText(),
      (text) => text.includes('Hello world'),
    );
    await expect(page.getByRole('textbox', { name: 'Headline' }).inputValue()).resolves.toBe('Hello');
    const stored = await t.http
      .get('/admin/api/singles/site')
      .query({ status: 'all' })
      .set(admin)
      .expect(200);
    expect(stored.body.headline).toBe('Hello');
    expect(JSON.stringify(stored.body.body)).toContain('Hello world');

    // A save over someone else's is refused, then overwritten.
    await t.http.patch('/admin/api/singles/site').set(admin).send({ headline: 'Elsewhere' }).expect(200);
    await page.getByRole('textbox', { name: 'Headline' }).fill('Mine');
    await page.getByRole('button', { name: 'Save draft' }).click();
    const panel = 'Someone else saved this entry';
    await page.getByRole('heading', { name: panel }).waitFor();
    expect(await rowsOf(page, panel)).toEqual([['Headline', 'Hello', 'Elsewhere', 'Mine']]);
    await page.getByRole('button', { name: 'Overwrite', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const after = await t.http.get('/admin/api/singles/site').query({ status: 'all' }).set(admin).expect(200);
    expect(after.body.headline).toBe('Mine');

    // No preview page is configured for this single: the button says so.
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await page.getByText('There is no preview page for Site').waitFor();
    await audit(page, 'admin-single-workflow');
    await fitsNarrow(page, 'admin-single-workflow');
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
