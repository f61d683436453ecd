import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createJiti } from 'jiti';
import { ConfigError } from './env';
import type { RateLimitConfig, ResolvedConfig, Strategy, SvcConfig } from './config.types';

/** Identity function that gives a config file its types: `export default defineConfig({ ... })`. */
export function defineConfig(config: SvcConfig): SvcConfig {
  return config;
}

const TOP_LEVEL_KEYS = new Set([
  'collections',
  'singles',
  'users',
  'auth',
  'apiKeys',
  'security',
  'rateLimit',
  'trustProxy',
  'plugins',
  'webhooks',
]);
export const DEFAULT_CONFIG_FILE = 'svc.config.ts';

/**
 * Loads the config module named by SVC_CONFIG (or ./svc.config.ts when present). `.ts`, `.js`,
 * `.mjs` and `.cjs` all load through jiti, so a TypeScript config needs no build step.
 */
export async function loadConfigFile(
  configFile: string | undefined,
  cwd = process.cwd(),
): Promise<SvcConfig> {
  let path: string;
  if (configFile) {
    path = resolve(cwd, configFile);
    if (!existsSync(path)) {
      throw new ConfigError([`SVC_CONFIG names ${path}, which does not exist`]);
    }
  } else {
    path = resolve(cwd, DEFAULT_CONFIG_FILE);
    if (!existsSync(path)) {
      return {};
    }
  }
  if (!/\.(ts|js|mjs|cjs)$/.test(path)) {
    throw new ConfigError([`SVC_CONFIG must be a .ts, .js, .mjs or .cjs file (got ${path})`]);
  }
  let loaded: unknown;
  try {
    // Synchronous require through jiti's own transform: no native import(), which also keeps it
    // working inside jest's CommonJS runtime.
    const jiti = createJiti(__filename, { moduleCache: false, fsCache: false, tryNative: false });
    const mod = jiti(path) as { default?: unknown };
    loaded = mod && typeof mod === 'object' && 'default' in mod ? mod.default : mod;
  } catch (e) {
    throw new ConfigError([`the config file ${path} could not be loaded: ${(e as Error).message}`]);
  }
  return validateConfig(loaded, path);
}

export function validateConfig(value: unknown, source = 'config'): SvcConfig {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError([`${source} must export a config object (defineConfig({...}))`]);
  }
  const config = value as Record<string, unknown>;
  for (const key of Object.keys(config)) {
    if (!TOP_LEVEL_KEYS.has(key)) {
      problems.push(`${source}: unknown key "${key}"`);
    }
  }
  for (const key of ['collections', 'singles', 'plugins'] as const) {
    if (config[key] !== undefined && !Array.isArray(config[key])) {
      problems.push(`${source}: "${key}" must be an array`);
    }
  }
  const checkLimit = (path: string, limit: unknown) => {
    if (limit === undefined) {
      return;
    }
    const l = limit as Partial<RateLimitConfig>;
    if (!isPositiveInt(l.max) || !isPositiveInt(l.windowSeconds)) {
      problems.push(`${source}: "${path}" needs positive integers "max" and "windowSeconds"`);
    }
  };
  checkLimit('apiKeys.rateLimit', (config.apiKeys as SvcConfig['apiKeys'])?.rateLimit);
  checkLimit('security.authRateLimit', (config.security as SvcConfig['security'])?.authRateLimit);
  checkLimit('rateLimit', config.rateLimit);
  const skip = (config.rateLimit as SvcConfig['rateLimit'])?.skip;
  if (skip !== undefined && typeof skip !== 'function') {
    problems.push(`${source}: "rateLimit.skip" must be a function`);
  }
  const auth = config.auth as Record<string, unknown> | undefined;
  for (const flag of ['requireEmailVerification', 'revealRegistrationConflict']) {
    if (auth?.[flag] !== undefined && typeof auth[flag] !== 'boolean') {
      problems.push(`${source}: "auth.${flag}" must be a boolean`);
    }
  }
  const trustProxy = config.trustProxy;
  if (trustProxy !== undefined && !['boolean', 'number', 'string'].includes(typeof trustProxy)) {
    problems.push(`${source}: "trustProxy" must be a boolean, a number of hops or a string`);
  }
  if (problems.length) {
    throw new ConfigError(problems);
  }
  return config as SvcConfig;
}

const STRATEGY_NAME = /^[a-z][a-z0-9:_-]{0,63}$/;

/** `auth.strategies` (SPEC 5.7.8): each named (not `password`, not twice) with an `authenticate` function. */
function checkStrategies(strategies: unknown): void {
  if (strategies === undefined) {
    return;
  }
  if (!Array.isArray(strategies)) {
    throw new ConfigError(['"auth.strategies" must be an array of { name, authenticate }']);
  }
  const problems: string[] = [];
  const names = new Set<string>();
  strategies.forEach((s: unknown, i) => {
    const st = (typeof s === 'object' && s !== null ? s : {}) as Partial<Strategy>;
    const name = typeof st.name === 'string' ? st.name : '';
    if (!STRATEGY_NAME.test(name)) {
      problems.push(`"auth.strategies[${i}].name" must match ${String(STRATEGY_NAME)}`);
    } else if (name === 'password') {
      problems.push(`"auth.strategies[${i}]": the name "password" is the built-in password strategy's`);
    } else if (names.has(name)) {
      problems.push(`"auth.strategies[${i}]": the name "${name}" is used twice`);
    }
    names.add(name);
    if (typeof st.authenticate !== 'function') {
      problems.push(`"auth.strategies[${i}].authenticate" must be a function`);
    }
  });
  if (problems.length) {
    throw new ConfigError(problems);
  }
}

function isPositiveInt(v: unknown): boolean {
  return typeof v === 'number' && Number.isInteger(v) && v > 0;
}

/** Requests under /admin/api/ are skipped by the global limit unless the config says otherwise (SPEC 5.8). */
export const skipAdminApi = (req: { path?: string; url?: string }) =>
  (req.path ?? req.url ?? '').startsWith('/admin/api/');

export function resolveConfig(config: SvcConfig = {}): ResolvedConfig {
  checkStrategies(config.auth?.strategies);
  const maxSessions = config.auth?.maxSessions;
  if (
    maxSessions !== undefined &&
    maxSessions !== null &&
    (!Number.isSafeInteger(maxSessions) || maxSessions < 1)
  ) {
    throw new ConfigError(['"auth.maxSessions" must be a positive integer, or null for no limit']);
  }
  const auditRetentionDays = config.auth?.auditRetentionDays;
  if (
    auditRetentionDays !== undefined &&
    (!Number.isSafeInteger(auditRetentionDays) || auditRetentionDays < 1)
  ) {
    throw new ConfigError(['"auth.auditRetentionDays" must be a positive integer (days; default 365)']);
  }
  const reauthWindowSeconds = config.auth?.reauthWindowSeconds;
  if (
    reauthWindowSeconds !== undefined &&
    (!Number.isSafeInteger(reauthWindowSeconds) || reauthWindowSeconds < 1 || reauthWindowSeconds > 86400)
  ) {
    throw new ConfigError([
      '"auth.reauthWindowSeconds" must be a whole number of seconds from 1 to 86400 (default 600)',
    ]);
  }
  const mfa = config.auth?.mfa;
  if (
    mfa !== undefined &&
    (typeof mfa !== 'object' ||
      mfa === null ||
      (mfa.requiredForAll !== undefined && typeof mfa.requiredForAll !== 'boolean') ||
      (mfa.requiredForRoles !== undefined &&
        (!Array.isArray(mfa.requiredForRoles) || mfa.requiredForRoles.some((r) => typeof r !== 'string'))))
  ) {
    throw new ConfigError([
      '"auth.mfa" must be { requiredForRoles?: string[] (role slugs), requiredForAll?: boolean }',
    ]);
  }
  return {
    collections: config.collections ?? [],
    singles: config.singles ?? [],
    users: { fields: config.users?.fields ?? [] },
    auth: {
      requireEmailVerification: config.auth?.requireEmailVerification ?? true,
      revealRegistrationConflict: config.auth?.revealRegistrationConflict ?? false,
      strategies: config.auth?.strategies ?? [],
      maxSessions: maxSessions ?? null,
      auditRetentionDays: auditRetentionDays ?? 365,
      mfa: { requiredForRoles: mfa?.requiredForRoles ?? [], requiredForAll: mfa?.requiredForAll ?? false },
      reauthWindowSeconds: reauthWindowSeconds ?? 600,
    },
    apiKeys: { rateLimit: config.apiKeys?.rateLimit ?? { max: 1000, windowSeconds: 3600 } },
    security: { authRateLimit: config.security?.authRateLimit ?? { max: 30, windowSeconds: 3600 } },
    rateLimit: {
      max: config.rateLimit?.max ?? 600,
      windowSeconds: config.rateLimit?.windowSeconds ?? 60,
      skip: config.rateLimit?.skip ?? skipAdminApi,
    },
    trustProxy: config.trustProxy ?? false,
    plugins: config.plugins ?? [],
    webhooks: resolveWebhooks(config.webhooks),
  };
}

/**
 * The longest attempt: well under the 30 s after which the job queue takes an attempt as dead
 * and makes it again.
 */
export const MAX_WEBHOOK_TIMEOUT_MS = 15_000;

/** `webhooks`: every problem at once, each naming its key and range. */
function resolveWebhooks(w: SvcConfig['webhooks']): ResolvedConfig['webhooks'] {
  const problems: string[] = [];
  if (w !== undefined && (typeof w !== 'object' || w === null || Array.isArray(w))) {
    throw new ConfigError(['"webhooks" must be an object']);
  }
  const int = (path: string, value: unknown, min: number, max: number, fallback: number): number => {
    if (value === undefined) {
      return fallback;
    }
    if (!Number.isSafeInteger(value) || (value as number) < min || (value as number) > max) {
      problems.push(`"webhooks.${path}" must be a whole number from ${min} to ${max} (default ${fallback})`);
    }
    return value as number;
  };
  if (w?.allowPrivateNetworks !== undefined && typeof w.allowPrivateNetworks !== 'boolean') {
    problems.push('"webhooks.allowPrivateNetworks" must be a boolean');
  }
  if (w?.retry !== undefined && (typeof w.retry !== 'object' || w.retry === null || Array.isArray(w.retry))) {
    problems.push('"webhooks.retry" must be { attempts?: number, baseDelayMs?: number }');
  }
  const resolved = {
    allowPrivateNetworks: w?.allowPrivateNetworks ?? false,
    retry: {
      attempts: int('retry.attempts', w?.retry?.attempts, 1, 25, 8),
      baseDelayMs: int('retry.baseDelayMs', w?.retry?.baseDelayMs, 1, 6 * 3600 * 1000, 10_000),
    },
    disableAfterFailures: int('disableAfterFailures', w?.disableAfterFailures, 1, 1_000_000, 20),
    timeoutMs: int('timeoutMs', w?.timeoutMs, 1, MAX_WEBHOOK_TIMEOUT_MS, 10_000),
  };
  if (problems.length) {
    throw new ConfigError(problems);
  }
  return resolved;
}
