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
