import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfigFile, resolveConfig } from '../../src/config/config-file';
import { apiDocsEnabled, ConfigError, loadEnv, resolveSecret } from '../../src/config/env';

const FIXTURES = join(__dirname, '..', 'fixtures', 'config');

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('loadEnv', () => {
  it('applies the documented defaults', () => {
    const env = loadEnv({});
    expect(env).toMatchObject({
      nodeEnv: 'development',
      production: false,
      port: 3000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      embeddedPgPort: 54329,
      autoMigrate: true,
      dbPool: 10,
      publicUrl: 'http://localhost:3000',
      allowedOrigins: [],
      apiDocs: true,
    });
    expect(env.dataDir).toBe(join(process.cwd(), '.svc'));
  });

  it('stops a production boot without SVC_SECRET, naming the variable', () => {
    const e = configError(() =>
      loadEnv({ NODE_ENV: 'production', NEXT_PUBLIC_APP_URL: 'https://x.example' }),
    );
    expect(e.message).toContain('SVC_SECRET');
  });

  it('stops a production boot with a short SVC_SECRET, saying how long it is', () => {
    const e = configError(() =>
      loadEnv({ NODE_ENV: 'production', SVC_SECRET: 'short', NEXT_PUBLIC_APP_URL: 'https://x.example' }),
    );
    expect(e.message).toMatch(/SVC_SECRET.*at least 32.*has 5/);
  });

  it('requires NEXT_PUBLIC_APP_URL in production', () => {
    const e = configError(() => loadEnv({ NODE_ENV: 'production', SVC_SECRET: 'x'.repeat(32) }));
    expect(e.message).toContain('NEXT_PUBLIC_APP_URL');
  });

  it('accepts a complete production environment', () => {
    const env = loadEnv({
      NODE_ENV: 'production',
      SVC_SECRET: 'x'.repeat(32),
      NEXT_PUBLIC_APP_URL: 'https://app.example.com/',
      SVC_ALLOWED_ORIGINS: 'https://a.example.com, http://b.example.com:8080/',
      DATABASE_URL: 'postgresql://u:p@db:5432/svc',
      SVC_DB_POOL: '20',
      SVC_AUTO_MIGRATE: 'false',
    });
    expect(env.publicUrl).toBe('https://app.example.com');
    expect(env.allowedOrigins).toEqual(['https://a.example.com', 'http://b.example.com:8080']);
    expect(env.dbPool).toBe(20);
    expect(env.autoMigrate).toBe(false);
    expect(env.apiDocs).toBe(false);
  });

  it('serves the API docs outside production, or when SVC_API_DOCS says so', () => {
    expect([apiDocsEnabled(false, {}), apiDocsEnabled(true, {})]).toEqual([true, false]);
    expect(apiDocsEnabled(true, { SVC_API_DOCS: 'true' })).toBe(true);
    expect(apiDocsEnabled(false, { SVC_API_DOCS: 'off' })).toBe(false);
    expect(configError(() => loadEnv({ SVC_API_DOCS: 'maybe' })).message).toContain('SVC_API_DOCS');
  });

  it('reports every bad variable at once', () => {
    const e = configError(() =>
      loadEnv({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SVC_DB_POOL: '0',
        SVC_AUTO_MIGRATE: 'maybe',
        REDIS_URL: 'http://r',
        SVC_ALLOWED_ORIGINS: 'not a url',
      }),
    );
    for (const name of [
      'PORT',
      'DATABASE_URL',
      'SVC_DB_POOL',
      'SVC_AUTO_MIGRATE',
      'REDIS_URL',
      'SVC_ALLOWED_ORIGINS',
    ]) {
      expect(e.message).toContain(name);
    }
    expect(e.problems).toHaveLength(6);
  });
});

describe('resolveSecret', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-secret-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('generates a secret once outside production and keeps it in the data directory', () => {
    const env = loadEnv({ SVC_DATA_DIR: dir });
    const first = resolveSecret(env);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(resolveSecret(env)).toBe(first);
    expect(readFileSync(join(dir, 'secret'), 'utf8').trim()).toBe(first);
    expect(statSync(join(dir, 'secret')).mode & 0o777).toBe(0o600);
  });

  it('uses SVC_SECRET when set', () => {
    expect(resolveSecret(loadEnv({ SVC_DATA_DIR: dir, SVC_SECRET: 'given-secret' }))).toBe('given-secret');
  });
});

describe('loadConfigFile', () => {
  it.each([
    ['config.ts', { auth: { revealRegistrationConflict: true }, trustProxy: 1 }],
    ['config.mjs', { security: { authRateLimit: { max: 5, windowSeconds: 60 } } }],
    ['config.cjs', { apiKeys: { rateLimit: { max: 7, windowSeconds: 10 } } }],
    ['config.js', { auth: { requireEmailVerification: false } }],
  ])('loads %s', async (file, expected) => {
    await expect(loadConfigFile(join(FIXTURES, file))).resolves.toEqual(expected);
  });

  it('returns an empty config when no file is named and none is present', async () => {
    await expect(loadConfigFile(undefined, FIXTURES)).resolves.toEqual({});
  });

  it('refuses a missing file, an unknown key and badly typed values with clear messages', async () => {
    await expect(loadConfigFile(join(FIXTURES, 'nope.ts'))).rejects.toThrow(/SVC_CONFIG.*does not exist/);
    await expect(loadConfigFile(join(FIXTURES, 'unknown-key.ts'))).rejects.toThrow(
      /unknown key "collectons"/,
    );
    const broken = loadConfigFile(join(FIXTURES, 'broken.ts'));
    await expect(broken).rejects.toThrow(/auth.requireEmailVerification/);
    await expect(loadConfigFile(join(FIXTURES, 'broken.ts'))).rejects.toThrow(
      /"rateLimit" needs positive integers/,
    );
  });

  it('loads the example svc.config.ts at the project root', async () => {
    const config = await loadConfigFile(undefined, join(__dirname, '..', '..'));
    expect(resolveConfig(config).security.authRateLimit).toEqual({ max: 30, windowSeconds: 3600 });
  });
});

describe('resolveConfig', () => {
  it('fills in every default of CONTRACTS 2', () => {
    const c = resolveConfig({});
    expect(c.auth).toEqual({
      requireEmailVerification: true,
      revealRegistrationConflict: false,
      strategies: [],
      maxSessions: null,
      mfa: { requiredForRoles: [], requiredForAll: false },
      auditRetentionDays: 365,
      reauthWindowSeconds: 600,
    });
    expect(c.apiKeys.rateLimit).toEqual({ max: 1000, windowSeconds: 3600 });
    expect(c.security.authRateLimit).toEqual({ max: 30, windowSeconds: 3600 });
    expect(c.trustProxy).toBe(false);
    expect(c.rateLimit.skip({ path: '/admin/api/users' } as never)).toBe(true);
    expect(c.rateLimit.skip({ path: '/api/health' } as never)).toBe(false);
  });

  it('takes auth.auditRetentionDays as a positive integer only', () => {
    expect(resolveConfig({ auth: { auditRetentionDays: 30 } }).auth.auditRetentionDays).toBe(30);
    for (const bad of [0, -1, 1.5, Number.NaN, '30', null]) {
      expect(() => resolveConfig({ auth: { auditRetentionDays: bad as never } })).toThrow(
        /"auth.auditRetentionDays" must be a positive integer/,
      );
    }
  });

  it('takes auth.reauthWindowSeconds as whole seconds from 1 to a day', () => {
    expect(resolveConfig({ auth: { reauthWindowSeconds: 120 } }).auth.reauthWindowSeconds).toBe(120);
    for (const bad of [0, -1, 1.5, 86401, '600', null]) {
      expect(() => resolveConfig({ auth: { reauthWindowSeconds: bad as never } })).toThrow(
        /"auth.reauthWindowSeconds" must be a whole number of seconds/,
      );
    }
  });

  it('takes auth.strategies that are named and callable, refusing the rest by index', () => {
    const strategy = { name: 'ldap', authenticate: () => null };
    expect(resolveConfig({ auth: { strategies: [strategy] } }).auth.strategies).toEqual([strategy]);
    expect(resolveConfig({ auth: { strategies: [] } }).auth.strategies).toEqual([]);
    const bad = (strategies: unknown[]) => () => resolveConfig({ auth: { strategies: strategies as never } });
    expect(bad([{ name: 'password', authenticate: () => null }])).toThrow(/built-in password strategy/);
    expect(bad([strategy, strategy])).toThrow(/"ldap" is used twice/);
    expect(bad([{ name: 'Bad Name', authenticate: () => null }])).toThrow(/strategies\[0\]\.name/);
    expect(bad([{ name: 'ldap' }])).toThrow(ConfigError);
    expect(bad([{ name: 'ldap' }])).toThrow(/strategies\[0\]\.authenticate/);
  });
});
