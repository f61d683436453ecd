import type { AddressInfo } from 'node:net';
import type { ParsedMail } from 'mailparser';
import type { Browser } from 'playwright-core';
import { magicLinkPlugin } from '../../src/plugins/magic-link';
import { createUser } from '../utils/auth';
import { audit, describeInChromium, launchChromium, openPage } from '../utils/chromium';
import { addresses, extractLink, startSmtp, TestSmtp, useTestSmtp } from '../utils/smtp';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * The magic-link request form of the sign-in page (issue 22 item 6) in chromium: shown when
 * `magicLinkPlugin` is installed, it asks for a link, the email arrives (caught by the test's
 * SMTP server), and following the link signs the browser in, on /admin.
 */
const describeBrowser = describeInChromium('pages-browser-magic-link');

describeBrowser('the magic-link form of the sign-in page in a browser', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let smtp: TestSmtp;
  let chrome: Browser;
  let base: string;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ config: { plugins: [magicLinkPlugin()] } });
    await useTestSmtp(t, smtp);
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    chrome = await launchChromium();
  });
  afterAll(async () => {
    await chrome?.close();
    await t?.close();
    await smtp?.close();
  });

  it('asks for a link, and the emailed link signs the browser in', async () => {
    const user = await createUser(t);
    const { page, problems } = await openPage(chrome);
    await page.goto(`${base}/admin/login`);
    const form = page.locator('#magic-form');
    await form.waitFor();
    await audit(page, 'login-magic-link');

    await page.getByLabel('Your email, for a sign-in link').fill(user.email);
    await page.getByRole('button', { name: 'Email me a link' }).click();
    await page.locator('#notice', { hasText: /link/i }).waitFor();

    const mail = await smtp.waitFor((m: ParsedMail) => addresses(m).includes(user.email.toLowerCase()));
    const link = extractLink(mail, 'api/plugins/magic-link/verify');
    expect(link).not.toBeNull();
    // The link names the public URL; the browser follows it on this test server.
    const { pathname, search } = new URL(link!);
    await page.goto(`${base}${pathname}${search}`);
    await page.waitForURL(`${base}/admin`);
    await page.locator('#who-text', { hasText: user.email }).waitFor();
    // Used once: the same link again ends on the sign-in page with its error.
    await page.goto(`${base}${pathname}${search}`);
    await page.waitForURL(/\/admin\/login\?error=signin-failed$/);
    expect(problems).toEqual([]);
  });
});
