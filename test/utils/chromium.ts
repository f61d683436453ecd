import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

/**
 * The browser tests' shared parts (pages-browser*.e2e-spec.ts): Debian's chromium through
 * playwright-core, a fresh context per test that records CSP refusals and page errors, and the
 * audit of a page (a screenshot to test-artifacts/screenshots/, then axe-core: no serious or
 * critical violation).
 *
 * Without /usr/bin/chromium the files are skipped, except under CI, where they must run (.ci/run
 * installs chromium).
 */

export const CHROMIUM = '/usr/bin/chromium';
export const SHOTS = join(__dirname, '..', '..', 'test-artifacts', 'screenshots');
const AXE_SOURCE = readFileSync(require.resolve('axe-core'), 'utf8');

/** `describe`, or `describe.skip` (with a warning) when chromium is missing outside CI. */
export function describeInChromium(name: string): jest.Describe {
  const available = existsSync(CHROMIUM);
  if (!available && process.env.CI) {
    throw new Error(
      `${CHROMIUM} is missing and CI is set: install chromium (.ci/run does) to run the browser tests`,
    );
  }
  if (!available) {
    console.warn(`${name}: skipped, ${CHROMIUM} is missing (apt-get install chromium; CI requires it)`);
  }
  return available ? describe : describe.skip;
}

export function launchChromium(): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A fresh browser context (no cookies) and its page; CSP refusals and page errors are collected.
 * `options` go to the context (a `userAgent` tells two signed-in contexts apart).
 */
export async function openPage(
  chrome: Browser,
  options?: BrowserContextOptions,
): Promise<{ page: Page; problems: string[] }> {
  const context = await chrome.newContext(options);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content.Security.Policy|Refused/i.test(m.text())) {
      problems.push(m.text());
    }
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  return { page, problems };
}

/** The id of the element that has the focus. */
export const focusedId = (page: Page) => page.evaluate('document.activeElement && document.activeElement.id');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

/** A screenshot, then axe-core in the page: no serious or critical violation. */
export async function audit(page: Page, name: string): Promise<void> {
  await screenshot(page, name);
  // Not `page.addScriptTag`: its inline <script> is refused by the pages' CSP (as it should be).
  // An evaluation from the test harness is not subject to the page's CSP.
  if (!(await page.evaluate(() => 'axe' in globalThis))) {
    await page.evaluate(AXE_SOURCE);
  }
  const { violations, passes } = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: { run(): Promise<{ violations: AxeViolation[]; passes: unknown[] }> };
      }
    ).axe;
    const result = await axe.run();
    return {
      passes: result.passes.length,
      violations: result.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        nodes: v.nodes.length,
      })),
    };
  });
  expect(passes).toBeGreaterThan(10);
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect({ page: name, bad }).toEqual({ page: name, bad: [] });
  if (violations.length) {
    console.info(`axe on ${name} (minor or moderate): ${violations.map((v) => v.id).join(', ')}`);
  }
}

/** A full-page screenshot to test-artifacts/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * Opens `base + path` of the admin app signed out: the app sends the browser to the sign-in page,
 * which, signed in, comes back to `path`.
 */
export async function signInToApp(page: Page, base: string, path: string, email: string, password: string) {
  await page.goto(`${base}${path}`);
  await page.waitForURL(/\/admin\/login\?next=/);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${base}${path}`);
}

/** No sideways scrolling at 360 px (a screenshot to `<name>-360.png`), then back to 1280. */
export async function fitsNarrow(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 360, height: 740 });
  const width = await page.evaluate<number>('document.documentElement.scrollWidth');
  // On a failure, the elements that reach past the viewport say what to fix.
  const wide =
    width === 360
      ? []
      : await page.evaluate<string[]>(
          `[...document.body.querySelectorAll('*')]
            .filter((el) => el.getBoundingClientRect().right > 360 || el.scrollWidth > el.clientWidth + 1)
            .filter((el) => {
              if (getComputedStyle(el).overflowX !== 'visible') return false;
              for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
                if (getComputedStyle(up).overflowX !== 'visible') return false;
              }
              return true;
            })
            .slice(-5)
            .map((el) => el.tagName.toLowerCase() + '.' + el.className + ': ' + el.textContent.slice(0, 60))`,
        );
  expect({ name, width, wide }).toEqual({ name, width: 360, wide: [] });
  await screenshot(page, `${name}-360`);
  await page.setViewportSize({ width: 1280, height: 800 });
}
