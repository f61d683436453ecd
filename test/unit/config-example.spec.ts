import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfigFile, resolveConfig } from '../../src/config/config-file';
import type { ResolvedConfig } from '../../src/config/config.types';

/**
 * svc.config.ts at the repository root is the example a newcomer copies: it must show every key
 * of the config (as `resolveConfig` fills them in) with its default, each under a comment.
 */
const root = join(__dirname, '..', '..');
const EXAMPLE = join(root, 'svc.config.ts');

/** Dotted paths of the settings: a rate limit (`{ max, windowSeconds, ... }`) and a list are one each. */
function leafKeys(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || 'windowSeconds' in value) {
    return [prefix];
  }
  return Object.entries(value).flatMap(([k, v]) => leafKeys(v, prefix ? `${prefix}.${k}` : k));
}

function at(value: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>(
      (v, k) => (v !== null && typeof v === 'object' && k in v ? (v as never)[k] : undefined),
      value,
    );
}

const withoutSkip = (c: ResolvedConfig) => ({ ...c, rateLimit: { ...c.rateLimit, skip: undefined } });

describe('svc.config.ts (the example configuration)', () => {
  const defaults = resolveConfig({});
  const keys = leafKeys(defaults);

  it('knows the settings it checks against', () => {
    expect(keys).toEqual(
      expect.arrayContaining(['auth.maxSessions', 'auth.mfa.requiredForRoles', 'auth.auditRetentionDays']),
    );
    expect(keys.length).toBeGreaterThanOrEqual(16);
  });

  it('sets every key, each to its default', async () => {
    const example = await loadConfigFile(EXAMPLE);
    const missing = keys.filter((k) => at(example, k) === undefined);
    expect(missing).toEqual([]);
    const resolved = resolveConfig(example);
    expect(withoutSkip(resolved)).toEqual(withoutSkip(defaults));
    for (const path of ['/admin/api/users', '/health', '/media/x.png']) {
      const req = { path } as Parameters<ResolvedConfig['rateLimit']['skip']>[0];
      expect(resolved.rateLimit.skip(req)).toBe(defaults.rateLimit.skip(req));
    }
  });

  it('explains every key in a comment just above it', () => {
    const lines = readFileSync(EXAMPLE, 'utf8').split('\n');
    const uncommented = keys.filter((key) => {
      const name = key.split('.').pop()!;
      return !lines.some(
        (line, i) => new RegExp(`^\\s*${name}:`).test(line) && /^\s*\/\//.test(lines[i - 1] ?? ''),
      );
    });
    expect(uncommented).toEqual([]);
  });
});
