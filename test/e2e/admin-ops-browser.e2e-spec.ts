import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { bearerFor, createUser, userWithPermissions } from '../utils/auth';
import {
  audit,
  describeInChromium,
  fitsNarrow,
  launchChromium,
  openPage,
  signInToApp,
} from '../utils/chromium';
import { createTestApp, type TestApp } from '../utils/test-app';
import { type Received, WebhookReceiver } from '../utils/webhook-receiver';

/**
 * The administration screens of admin/src/ops in a real browser against the service: webhooks
 * (the list, a new endpoint with its secret shown once, the endpoint's screen with a test event,
 * its delivery and attempts, a replay, a rotated secret, an edit and a deletion) and the audit log
 * (its sign-in rows, the Event filter, the CSV export with the same filters, a refused filter on
 * its fields). Every screen is checked with axe-core and at 360 px; one path goes by keyboard
 * alone; the links are hidden from whoever may not read them. The receiver is a real HTTP server
 * on loopback.
 */

const describeBrowser = describeInChromium('admin-ops-browser');

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** The Standard Webhooks headers of a received request, as the library takes them. */
const signed = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

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

const same = (a: string[], b: string[]) => JSON.stringify(a) === JSON.stringify(b);

describeBrowser('admin ops screens in a browser', () => {
  jest.setTimeout(180_000);
  let t: TestApp;
  let chrome: Browser;
  let base: string;
  let receiver: WebhookReceiver;
  let admin: Record<string, string>;
  let adminUser: { id: string; email: string; password: string };

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'posts',
            labels: { singular: 'Post', plural: 'Posts' },
            fields: [{ name: 'title', type: 'text', label: 'Title' }],
          },
        ],
        // The receiver is on loopback.
        webhooks: { allowPrivateNetworks: true, retry: { attempts: 2, baseDelayMs: 200 }, timeoutMs: 2000 },
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
    await receiver?.close();
  });

  const signIn = (page: Page, path: string, user: { email: string; password: string }) =>
    signInToApp(page, base, path, user.email, user.password);

  /** The text of each body row's `n`th cell of the table. */
  const column = (page: Page, table: string, n: number) =>
    page
      .locator(`${table} > tbody > tr:not(.detail)`)
      .evaluateAll(
        (rows, i) =>
          rows.map((r) => (r.children[i] as unknown as { innerText: string } | undefined)?.innerText ?? ''),
        n,
      );

  it('a super-admin creates a webhook, copies its secret once, tests it, replays, rotates, edits and deletes it', async () => {
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/webhooks', adminUser);
    const administration = page.getByRole('navigation', { name: 'Administration' });
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    await administration.getByRole('link', { name: 'Webhooks' }).waitFor();
    await expect(administration.getByRole('link', { name: 'Webhooks' }).count()).resolves.toBe(1);
    await expect(administration.getByRole('link', { name: 'Audit log' }).count()).resolves.toBe(1);
    await page.getByText('There is no webhook yet.').waitFor();
    await page.getByText('Page 1 of 1 (0 webhooks)').waitFor();
    await audit(page, 'admin-webhooks-empty');
    await fitsNarrow(page, 'admin-webhooks-empty');

    await page.getByRole('link', { name: 'New webhook' }).click();
    await page.waitForURL(`${base}/admin/webhooks/new`);
    await page.getByRole('heading', { name: 'New webhook', level: 1 }).waitFor();
    // Every event type of the API is a checkbox named by it; "All events" too.
    for (const event of ['entry.created', 'entry.published', 'user.password-changed', 'webhook.test']) {
      await expect(page.getByRole('checkbox', { name: event, exact: true }).count()).resolves.toBe(1);
    }
    await page.getByRole('checkbox', { name: 'All events' }).waitFor();
    await page.getByRole('checkbox', { name: 'Posts' }).waitFor();
    await audit(page, 'admin-webhook-new');
    await fitsNarrow(page, 'admin-webhook-new');

    // No event chosen: refused before sending, on the events.
    await page.getByLabel('Name', { exact: true }).fill('Site rebuild');
    await page.getByLabel('URL', { exact: true }).fill('ftp://example.com/hook');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('alert').getByText('Choose at least one event, or All events.').waitFor();
    await expect(
      page.getByRole('checkbox', { name: 'All events' }).getAttribute('aria-invalid'),
    ).resolves.toBe('true');
    // The API refuses the URL's scheme: its message is on the URL field.
    await page.getByRole('checkbox', { name: 'webhook.test', exact: true }).check();
    await page.getByRole('checkbox', { name: 'entry.published', exact: true }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    const url = page.getByLabel('URL', { exact: true });
    await url.and(page.locator('[aria-invalid="true"]')).waitFor();
    const describedBy = (await url.getAttribute('aria-describedby'))!.split(' ');
    const described = await Promise.all(describedBy.map((id) => page.locator(`[id="${id}"]`).textContent()));
    expect(described.join(' ')).toMatch(/http/i);
    await audit(page, 'admin-webhook-new-invalid');
    const none = await t.http.get('/admin/api/webhooks').set(admin).expect(200);
    expect(none.body.meta.total).toBe(0);

    await url.fill(receiver.url('/hook'));
    await page.getByRole('checkbox', { name: 'Posts' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    // The endpoint's screen, with its secret shown once, as text, with a copy button.
    await page.waitForURL(new RegExp(`/admin/webhooks/${UUID}$`));
    const id = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: 'Site rebuild', level: 1 }).waitFor();
    const secretText = page.locator('#webhook-secret');
    const secret = (await secretText.textContent())!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    await page.getByText(secret).waitFor();
    await page.getByRole('button', { name: 'Copy secret' }).waitFor();
    await page
      .getByRole('status')
      .getByText(/is created/)
      .waitFor();
    await expect(page.evaluate<string | undefined>('document.activeElement?.id')).resolves.toBe(
      'webhook-secret-title',
    );
    await audit(page, 'admin-webhook-secret');
    await fitsNarrow(page, 'admin-webhook-secret');
    const stored = await t.http.get(`/admin/api/webhooks/${id}`).set(admin).expect(200);
    expect(stored.body).toMatchObject({
      name: 'Site rebuild',
      url: receiver.url('/hook'),
      events: ['entry.published', 'webhook.test'],
      collections: ['posts'],
      enabled: true,
    });
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await expect(page.locator('#webhook-secret').count()).resolves.toBe(0);
    // Once: not after a reload either.
    await page.reload();
    await page.getByRole('heading', { name: 'Site rebuild', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Send test' }).waitFor();
    await expect(page.getByText(/whsec_/).count()).resolves.toBe(0);

    // A test event: its delivery shows in the table with its status, signed with the secret.
    await page.getByRole('button', { name: 'Send test' }).click();
    await page
      .getByRole('status')
      .getByText(/Test event queued/)
      .waitFor();
    const deliveries = page.locator('#deliveries-table');
    const row = deliveries.getByRole('row', { name: /webhook\.test/ });
    await row.getByText('succeeded').waitFor({ timeout: 20_000 });
    const events = await column(page, '#deliveries-table', 0);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatch(/webhook\.test$/);
    const [first] = await receiver.waitFor('/hook', 1);
    expect(() => new Webhook(secret).verify(first.body, signed(first))).not.toThrow();
    expect(JSON.parse(first.body)).toMatchObject({ type: 'webhook.test', data: { webhookId: id } });
    // The endpoint's facts follow: its last delivery.
    await page.locator('.facts div', { hasText: 'Last delivery' }).locator('time').waitFor();

    // The row opens the delivery's attempts, where it can be replayed.
    await row.getByRole('button', { name: 'webhook.test' }).click();
    await expect(
      row.getByRole('button', { name: 'webhook.test' }).getAttribute('aria-expanded'),
    ).resolves.toBe('true');
    const detail = page.getByRole('group', { name: /Attempts of webhook\.test/ });
    await detail.getByText(/HTTP 200/).waitFor();
    await audit(page, 'admin-webhook-delivery');
    // The notice names a random webhook-id: at 360 px it wraps whatever its letters, the widest too.
    await page.evaluate(
      `(n => { n.textContent = n.textContent.replace(/msg_\\w+/, 'msg_' + 'w'.repeat(24)); })(document.getElementById('notice'))`,
    );
    await expect(page.locator('#notice').textContent()).resolves.toContain('msg_wwww');
    await fitsNarrow(page, 'admin-webhook-delivery');
    await detail.getByRole('button', { name: 'Replay' }).click();
    await page
      .getByRole('status')
      .getByText(/queued again/)
      .waitFor();
    await until(
      'the replay in the table',
      () => column(page, '#deliveries-table', 0),
      (v) => v.length === 2,
    );
    const [, again] = await receiver.waitFor('/hook', 2);
    // The same event: the same webhook-id.
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    await until(
      'both deliveries succeeded',
      () => column(page, '#deliveries-table', 1),
      (v) => same(v, ['succeeded', 'succeeded']),
    );

    // A rotated secret is shown once too, and signs what follows.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page
      .getByRole('status')
      .getByText(/secret is rotated/)
      .waitFor();
    const rotated = (await page.locator('#webhook-secret').textContent())!;
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'Send test' }).click();
    const [, , third] = await receiver.waitFor('/hook', 3);
    expect(() => new Webhook(rotated).verify(third.body, signed(third))).not.toThrow();

    // An edit: name, all events, paused.
    await page.getByLabel('Name', { exact: true }).fill('Site rebuild (paused)');
    await page.getByRole('checkbox', { name: 'All events' }).check();
    await expect(
      page.getByRole('checkbox', { name: 'entry.created', exact: true }).isDisabled(),
    ).resolves.toBe(true);
    await page.getByRole('checkbox', { name: 'Enabled' }).uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    await page.getByRole('heading', { name: 'Site rebuild (paused)', level: 1 }).waitFor();
    const edited = await t.http.get(`/admin/api/webhooks/${id}`).set(admin).expect(200);
    expect(edited.body).toMatchObject({ name: 'Site rebuild (paused)', events: ['*'], enabled: false });

    // The list shows it: name, URL, events, state, last delivery.
    await administration.getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL(`${base}/admin/webhooks`);
    const listed = page.getByRole('row', { name: /Site rebuild \(paused\)/ });
    await listed.waitFor();
    await listed.getByText(receiver.url('/hook')).waitFor();
    await listed.getByText('All events').waitFor();
    await listed.getByText('Disabled').waitFor();
    await page.getByText('Page 1 of 1 (1 webhook)').waitFor();
    await page.getByLabel('Search').fill('nothing like it');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('Page 1 of 1 (0 webhooks)').waitFor();
    await page.getByLabel('Search').fill('rebuild');
    await page.getByRole('button', { name: 'Search' }).click();
    await listed.waitFor();
    await audit(page, 'admin-webhooks');
    await fitsNarrow(page, 'admin-webhooks');

    // Deleted after a confirmation.
    await listed.getByRole('link', { name: 'Site rebuild (paused)' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText(/cannot be undone/).waitFor();
    await audit(page, 'admin-webhook-delete-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(`${base}/admin/webhooks`);
    await page
      .getByRole('status')
      .getByText(/is deleted/)
      .waitFor();
    await page.getByText('There is no webhook yet.').waitFor();
    await t.http.get(`/admin/api/webhooks/${id}`).set(admin).expect(404);
    expect(problems).toEqual([]);
  });

  it('the audit log lists sign-ins, narrows by event, exports the same rows, and marks a refused filter', async () => {
    // Something else in the log: an endpoint write is `settings-changed`.
    await t.http
      .post('/admin/api/webhooks')
      .set(admin)
      .send({ name: 'Audited', url: receiver.url('/audited'), events: ['*'] })
      .expect(201);
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/audit', adminUser);
    await page.getByRole('heading', { name: 'Audit log', level: 1 }).waitFor();
    const table = page.getByRole('table', { name: 'Audit log entries' });
    for (const name of ['Event', 'Actor', 'Date', 'Target', 'IP']) {
      await table.getByRole('columnheader', { name }).waitFor();
    }
    await table.getByRole('cell', { name: 'login-succeeded', exact: true }).first().waitFor();
    await table.getByRole('cell', { name: 'settings-changed', exact: true }).first().waitFor();
    const all = await column(page, '#audit-table', 0);
    expect(new Set(all).size).toBeGreaterThan(1);
    await audit(page, 'admin-audit');
    await fitsNarrow(page, 'admin-audit');

    await page.getByLabel('Event', { exact: true }).selectOption('login-succeeded');
    const narrowed = await until(
      'the narrowed table',
      () => column(page, '#audit-table', 0),
      (v) => !same(v, all),
    );
    expect(narrowed.length).toBeGreaterThan(0);
    expect(new Set(narrowed)).toEqual(new Set(['login-succeeded']));
    const fromApi = await t.http.get('/admin/api/audit?event=login-succeeded').set(admin).expect(200);
    await page
      .getByText(
        `(${fromApi.body.meta.total as number} ${fromApi.body.meta.total === 1 ? 'entry' : 'entries'})`,
      )
      .waitFor();
    // The actor's row: the signed-in super-admin, with the IP.
    await table
      .getByRole('row')
      .filter({ hasText: 'Ada Admin' })
      .first()
      .getByText(/127\.0\.0\.1/)
      .waitFor();

    // The export: the same filters, as CSV, sent with the session cookie.
    const exportLink = page.getByRole('link', { name: 'Export CSV' });
    const href = (await exportLink.getAttribute('href'))!;
    expect(href).toMatch(/^\/admin\/api\/audit\/export\?/);
    expect(new URL(href, base).searchParams.get('event')).toBe('login-succeeded');
    const [download] = await Promise.all([page.waitForEvent('download'), exportLink.click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = await page.request.get(`${base}${href}`);
    expect(csv.status()).toBe(200);
    expect(csv.headers()['content-type']).toMatch(/text\/csv/);
    const lines = (await csv.text()).trim().split(/\r?\n/);
    expect(lines.length).toBe((fromApi.body.meta.total as number) + 1);
    expect(lines.slice(1).every((l) => l.includes(',login-succeeded,'))).toBe(true);

    // A time window the API refuses (to before from): its message is on the fields.
    await page.getByLabel('From', { exact: true }).fill('2030-01-02T10:00');
    await page.getByLabel('To', { exact: true }).fill('2030-01-01T10:00');
    await page.getByRole('alert').filter({ hasText: /\S/ }).waitFor();
    await page.locator('#audit-from[aria-invalid="true"], #audit-to[aria-invalid="true"]').first().waitFor();
    await audit(page, 'admin-audit-invalid');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await until(
      'the whole log again',
      () => column(page, '#audit-table', 0),
      (v) => same(v, all),
    );
    expect(problems).toEqual([]);
  });

  it('works by keyboard alone: an endpoint opened from the list, a test sent, its attempts opened', async () => {
    const created = await t.http
      .post('/admin/api/webhooks')
      .set(admin)
      .send({ name: 'Keyboard hook', url: receiver.url('/keyboard'), events: ['webhook.test'] })
      .expect(201);
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/webhooks', adminUser);
    await page.getByRole('link', { name: 'Keyboard hook' }).waitFor();
    const focused = () => page.evaluate<string | undefined>('document.activeElement?.textContent?.trim()');
    const tabTo = async (text: string) => {
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Tab');
        if ((await focused()) === text) {
          return;
        }
      }
      throw new Error(`${text}: not reached by Tab`);
    };
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('Skip to content');
    await tabTo('Keyboard hook');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/admin/webhooks/${created.body.item.id as string}`);
    await page.getByRole('heading', { name: 'Keyboard hook', level: 1 }).waitFor();
    // The new screen's heading has the focus, as after a page load.
    await expect(page.evaluate<string | undefined>('document.activeElement?.tagName')).resolves.toBe('H1');
    await tabTo('Send test');
    await page.keyboard.press('Enter');
    const row = page.locator('#deliveries-table').getByRole('row', { name: /webhook\.test/ });
    await row.getByText('succeeded').waitFor({ timeout: 20_000 });
    await tabTo('▸webhook.test');
    await page.keyboard.press('Enter');
    await page
      .getByRole('group', { name: /Attempts of webhook\.test/ })
      .getByText(/HTTP 200/)
      .waitFor();
    await tabTo('Replay');
    await page.keyboard.press('Enter');
    await receiver.waitFor('/keyboard', 2);
    expect(problems).toEqual([]);
  });

  it('shows the links by permission: none without them, a reader sees but may not change', async () => {
    const nobody = await userWithPermissions(t, []);
    const { page, problems } = await openPage(chrome);
    await signIn(page, '/admin/content', nobody);
    const administration = page.getByRole('navigation', { name: 'Administration' });
    await administration.getByRole('link', { name: 'API keys' }).waitFor();
    await expect(administration.getByRole('link', { name: 'Webhooks' }).count()).resolves.toBe(0);
    await expect(administration.getByRole('link', { name: 'Audit log' }).count()).resolves.toBe(0);
    expect(problems).toEqual([]);

    const readable = await t.http
      .post('/admin/api/webhooks')
      .set(admin)
      .send({ name: 'Readable hook', url: receiver.url('/readable'), events: ['webhook.test'] })
      .expect(201);
    await t.http
      .post(`/admin/api/webhooks/${readable.body.item.id as string}/test`)
      .set(admin)
      .expect(202);
    await receiver.waitFor('/readable', 1);
    await until(
      'the delivery recorded',
      async () =>
        (
          await t.http
            .get(`/admin/api/webhooks/${readable.body.item.id as string}/deliveries`)
            .set(admin)
            .expect(200)
        ).body.items as Array<{ status: string }>,
      (items) => items.length === 1 && items[0].status === 'succeeded',
    );
    const reader = await userWithPermissions(t, ['read-webhooks']);
    const second = await openPage(chrome);
    await signIn(second.page, '/admin/content', reader);
    const nav = second.page.getByRole('navigation', { name: 'Administration' });
    await nav.getByRole('link', { name: 'Webhooks' }).click();
    await expect(nav.getByRole('link', { name: 'Audit log' }).count()).resolves.toBe(0);
    const hook = second.page.getByRole('link', { name: 'Readable hook' });
    await hook.waitFor();
    await expect(second.page.getByRole('link', { name: 'New webhook' }).count()).resolves.toBe(0);
    await hook.click();
    await second.page.getByText('You may read this webhook but not change it.').waitFor();
    await expect(second.page.getByLabel('Name', { exact: true }).isDisabled()).resolves.toBe(true);
    for (const name of ['Send test', 'Rotate secret', 'Delete']) {
      await expect(second.page.getByRole('button', { name }).count()).resolves.toBe(0);
    }
    await second.page
      .locator('#deliveries-table')
      .getByRole('row', { name: /webhook\.test/ })
      .first()
      .waitFor();
    await audit(second.page, 'admin-webhook-reader');
    expect(second.problems).toEqual([]);
  });
});
