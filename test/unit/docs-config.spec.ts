import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resolveConfig } from '../../src/config/config-file';

/**
 * docs/configuration.md is generated from the code by scripts/docs-config.mjs. These tests fail when
 * the committed page is not what the script writes now, and check on their own that every variable
 * and config key the code reads is on the page.
 */
const root = join(__dirname, '..', '..');
const page = readFileSync(join(root, 'docs', 'configuration.md'), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

function leafKeys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return [prefix];
  }
  const entries = Object.entries(value as Record<string, unknown>);
  // A rate limit ({ max, windowSeconds }) is one key on the page.
  if (entries.some(([k]) => k === 'windowSeconds')) {
    return [prefix];
  }
  return entries.flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k));
}

describe('docs/configuration.md', () => {
  it('is what `node scripts/docs-config.mjs` generates from the code (run it after changing a setting)', () => {
    const generated = execFileSync(process.execPath, [join(root, 'scripts', 'docs-config.mjs'), '--stdout'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(page).toBe(generated);
  }, 60_000);

  it('names every environment variable the code reads', () => {
    const names = new Set<string>();
    for (const file of sourceFiles(join(root, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(
        /(?:process\.env|\bsource)\.([A-Z][A-Z0-9_]*)|\b(?:int|bool)\('([A-Z][A-Z0-9_]*)'/g,
      )) {
        names.add(m[1] ?? m[2]);
      }
      // process.env[NAME] with `const NAME = 'SVC_...'` in the same file.
      for (const m of text.matchAll(/process\.env\[([A-Z_]+)\]/g)) {
        const constant = new RegExp(`const ${m[1]} = '([A-Z][A-Z0-9_]*)'`).exec(text);
        names.add(constant ? constant[1] : m[1]);
      }
    }
    expect(names.size).toBeGreaterThan(30);
    const missing = [...names].filter((n) => !page.includes(`| \`${n}\``));
    expect(missing).toEqual([]);
  });

  it('names every key of the config file with its default', () => {
    const resolved = resolveConfig({});
    const keys = leafKeys(resolved);
    expect(keys).toEqual(
      expect.arrayContaining(['auth.maxSessions', 'auth.mfa.requiredForRoles', 'trustProxy']),
    );
    const missing = keys.filter((k) => !page.includes(`| \`${k}\``));
    expect(missing).toEqual([]);
    expect(page).toMatch(/\| `security\.authRateLimit` +\| [^|]+\| `\{ max: 30, windowSeconds: 3600 \}`/);
  });
});
