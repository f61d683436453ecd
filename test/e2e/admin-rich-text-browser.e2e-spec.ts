import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { bearerFor, createUser } from '../utils/auth';
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
 * The admin app's rich-text field (admin/src/form/RichText.tsx, Lexical) in a real browser under
 * the admin app's CSP: a super-admin writes a heading, a paragraph with a bold word, a bulleted list
 * and a link with the toolbar and the keyboard, saves, and the API renders the stored document as
 * HTML; reloaded, the editor shows the document again. Checked with axe-core and at 360 px.
 */

const describeBrowser = describeInChromium('admin-rich-text-browser');

describeBrowser('admin rich-text field in a browser', () => {
  jest.setTimeout(120_000);
  let t: TestApp;
  let chrome: Browser;
  let base: string;
  let admin: Record<string, string>;
  let email: string;
  let password: string;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'posts',
            labels: { singular: 'Post', plural: 'Posts' },
            fields: [
              { name: 'title', type: 'text', label: 'Title', required: true },
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
    const user = await createUser(t, { roles: ['super-admin'] });
    admin = await bearerFor(t, user.id);
    email = user.email;
    password = user.password;
  });
  afterAll(async () => {
    await chrome?.close();
    await t?.close();
  });

  it('writes a formatted document that the API stores and renders, and loads it back', async () => {
    const { page, problems } = await openPage(chrome);
    const path = '/admin/collections/posts/new';
    await signInToApp(page, base, path, email, password);
    await page.getByRole('heading', { name: 'New Post' }).waitFor();

    await page.getByLabel(/^Title/).fill('Release notes');
    // The editor's chunk loads behind a Suspense fallback; its accessible name is the field's label.
    const editor = page.getByRole('textbox', { name: 'Body' });
    await editor.waitFor();
    await expect(editor.getAttribute('contenteditable')).resolves.toBe('true');
    await expect(editor.getAttribute('aria-multiline')).resolves.toBe('true');
    // Its stylesheet loaded under the CSP (a minimum height of about 8rem).
    const height = await page.evaluate<number>(
      "document.querySelector('[role=textbox][contenteditable]').getBoundingClientRect().height",
    );
    expect(height).toBeGreaterThanOrEqual(120);

    const toolbar = page.getByRole('toolbar', { name: 'Formatting' });
    /** Waits for a toolbar button's aria-pressed to reflect the selection. */
    const pressed = (name: string, state: boolean) =>
      toolbar.getByRole('button', { name, exact: true, pressed: state }).waitFor();
    // By keyboard: the toolbar is one tab stop (arrow keys move within it), then the editor.
    const focused = () =>
      page.evaluate<string | null>('document.activeElement && document.activeElement.textContent');
    await page.getByLabel(/^Title/).focus();
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('Bold');
    await page.keyboard.press('ArrowRight');
    await expect(focused()).resolves.toBe('Italic');
    await page.keyboard.press('End');
    await expect(focused()).resolves.toBe('Link');
    await page.keyboard.press('Tab');
    await expect(page.evaluate<string | null>('document.activeElement.getAttribute("role")')).resolves.toBe(
      'textbox',
    );
    await editor.click();

    // A heading from the toolbar; Enter leaves it for a paragraph.
    await toolbar.getByRole('button', { name: 'Heading 2' }).click();
    await pressed('Heading 2', true);
    await page.keyboard.type('What changed');
    await page.keyboard.press('Enter');
    await pressed('Paragraph', true);
    await pressed('Heading 2', false);

    // A paragraph with a bold word (Ctrl+B), the Bold button pressed while it is on.
    await page.keyboard.type('This is ');
    await pressed('Bold', false);
    await page.keyboard.press('Control+b');
    await pressed('Bold', true);
    await page.keyboard.type('important');
    await pressed('Bold', true);
    await page.keyboard.press('Control+b');
    await pressed('Bold', false);
    await page.keyboard.type(' news.');
    await page.keyboard.press('Enter');

    // A bulleted list of two items; Enter on an empty item leaves the list.
    await toolbar.getByRole('button', { name: 'Bulleted list' }).click();
    await pressed('Bulleted list', true);
    await page.keyboard.type('First item');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Second item');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');

    // A link on the last word, through the inline form.
    await page.keyboard.type('Read the docs');
    await page.keyboard.press('Control+Shift+ArrowLeft');
    await toolbar.getByRole('button', { name: 'Link', exact: true }).click();
    const address = page.getByLabel('Link address');
    await address.waitFor();
    await audit(page, 'admin-rich-text-link-form');
    // An address the site would not render as a link is refused in the form.
    await address.fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Apply' }).click();
    await address.and(page.locator('[aria-invalid="true"]')).waitFor();
    await expect(editor.locator('a').count()).resolves.toBe(0);
    await address.fill('https://example.com');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(address.count()).resolves.toBe(0);
    await editor.locator('a', { hasText: 'docs' }).waitFor();
    // The caret is on the link: it can be removed.
    await toolbar.getByRole('button', { name: 'Remove link' }).waitFor();

    await editor.focus();
    await expect(
      page.evaluate<string | undefined>('document.activeElement?.getAttribute("role")'),
    ).resolves.toBe('textbox');
    await audit(page, 'admin-rich-text');

    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.waitForURL(/\/admin\/collections\/posts\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;

    const stored = await t.http
      .get(`/admin/api/collections/posts/entries/${id}?richTextFormat=html`)
      .set(admin)
      .expect(200);
    expect(stored.body.title).toBe('Release notes');
    const html = stored.body.body as string;
    expect(typeof html).toBe('string');
    expect(html).toContain('<h2>What changed</h2>');
    expect(html).toContain('<strong>important</strong>');
    expect(html).toMatch(/<ul>(<li>[^<]*<\/li>){2}<\/ul>/);
    expect(html).toContain('<li>First item</li><li>Second item</li>');
    expect(html).toContain('<a href="https://example.com"');
    expect(html).toMatch(/<a href="https:\/\/example\.com"[^>]*>docs<\/a>/);
    const json = await t.http.get(`/admin/api/collections/posts/entries/${id}`).set(admin).expect(200);
    expect(json.body.body.root.type).toBe('root');

    // The stored document loads back into the editor.
    await page.reload();
    const reloaded = page.getByRole('textbox', { name: 'Body' });
    await reloaded.locator('h2', { hasText: 'What changed' }).waitFor();
    await expect(reloaded.locator('li').count()).resolves.toBe(2);
    await expect(reloaded.locator('a', { hasText: 'docs' }).count()).resolves.toBe(1);
    // Loading it, or only moving the caret, is no change: leaving asks nothing.
    await reloaded.locator('h2').click();
    await page.getByRole('link', { name: 'Posts' }).first().click();
    await page.waitForURL(`${base}/admin/collections/posts`);
    await expect(page.getByRole('alertdialog').count()).resolves.toBe(0);
    await page.goBack();
    await reloaded.locator('h2', { hasText: 'What changed' }).waitFor();

    // No sideways scrolling at 360 px: the toolbar wraps.
    await fitsNarrow(page, 'admin-rich-text');

    // Emptied, the field clears: the API stores null.
    await reloaded.click();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').getByText('Saved').waitFor();
    const cleared = await t.http.get(`/admin/api/collections/posts/entries/${id}`).set(admin).expect(200);
    expect(cleared.body.body).toBeNull();

    expect(problems).toEqual([]);
  });
});
