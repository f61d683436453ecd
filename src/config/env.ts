import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  DEFAULT_UPLOAD_MAX_BYTES,
  DEFAULT_UPLOAD_TYPES,
  MAX_UPLOAD_MAX_BYTES,
  type MediaOptions,
  parseUploadTypes,
  uploadTypeProblems,
} from './media-options';

/** The metrics token's least length: guessing it must be as hopeless as guessing a key. */
export const METRICS_TOKEN_MIN = 32;

/**
 * Rate-limit counters kept per budget (auth, apikey, global) before the least recently used is
 * forgotten (`SVC_RATE_LIMIT_MAX_KEYS`; the in-memory store's default, see memory-counter-store.ts).
 */
export const DEFAULT_COUNTER_MAX_KEYS = 100_000;

/**
 * The standalone server's heap growth: after a full collection V8 lets the heap grow by this
 * percentage of what it kept before the next one. V8's own factor goes up to 4 times under load,
 * which held 300 MB of garbage in a 70 MB live heap (RSS over 400 MB at 50 connections); half
 * again (1.5 times) kept RSS near 220 MB at the same throughput.
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 50;

/** The environment, validated once at boot (CONTRACTS 1). */
/** How long a client may take, set deliberately rather than left to Node's defaults. */
export interface HttpLimits {
  /** All request headers must arrive within this (Node's default lets ~60 s pass, checked every 30 s). */
  headersTimeoutMs: number;
  /** A connection that sends or receives nothing this long is closed (a stalled body). */
  idleTimeoutMs: number;
  /** A whole request (headers and body) must arrive within this; uploads need room. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 20_000,
  idleTimeoutMs: 60_000,
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 5_000,
};

export interface Env {
  nodeEnv: string;
  production: boolean;
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  embeddedPgPort: number;
  autoMigrate: boolean;
  dbPool: number;
  preparedStatements: boolean;
  statementTimeoutMs: number;
  rateLimitMaxKeys: number;
  /**
   * SVC_HEAP_GROWING_PERCENT: how far V8 lets the heap grow past what the last full collection
   * kept, in percent (0: V8's own dynamic factor, up to 4 times). See `tuneHeap` in server.ts.
   */
  heapGrowingPercent: number;
  /**
   * SVC_DRAIN_SECONDS: after SIGTERM, how long the standalone server keeps serving (health
   * answering 503 so a balancer moves traffic away) before it stops accepting connections.
   */
  drainSeconds: number;
  http: HttpLimits;
  secret?: string;
  configFile?: string;
  publicUrl: string;
  allowedOrigins: string[];
  redisUrl?: string;
  /** SVC_REDIS_PREFIX: the prefix of every Redis key (default `svc:`), for deployments sharing a Redis. */
  redisPrefix?: string;
  /** SVC_METRICS_TOKEN: turns on `GET /api/metrics` for this bearer token (32 characters or more). */
  metricsToken?: string;
  logLevel: string;
  /** SVC_API_DOCS: Swagger UI at /admin/api/docs (default: on outside production); see `apiDocsEnabled`. */
  apiDocs: boolean;
  /** SVC_PAGES: the admin app under /admin (default on); see `pagesEnabled`. */
  pages: boolean;
  /** SVC_UPLOAD_TYPES, SVC_UPLOAD_MAX_BYTES, SVC_MEDIA_DIR, SVC_MEDIA_PUBLIC, SVC_S3_*. */
  media: MediaOptions & Required<Pick<MediaOptions, 'dir' | 'maxBytes' | 'types' | 'public'>>;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
export const MIN_SECRET_LENGTH = 32;

export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const problems: string[] = [];
  const nodeEnv = source.NODE_ENV || 'development';
  const production = nodeEnv === 'production';

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = source[name];
    if (raw === undefined || raw === '') {
      return fallback;
    }
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const bool = (name: string, fallback: boolean): boolean => {
    const raw = source[name]?.trim().toLowerCase();
    if (raw === undefined || raw === '') {
      return fallback;
    }
    if (['true', '1', 'yes', 'on'].includes(raw)) {
      return true;
    }
    if (['false', '0', 'no', 'off'].includes(raw)) {
      return false;
    }
    problems.push(`${name} must be true or false (got "${source[name]}")`);
    return fallback;
  };

  const port = int('PORT', 3000, 0, 65535);
  const databaseUrl = source.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// URL');
  }

  const secret = source.SVC_SECRET || undefined;
  if (production && (!secret || secret.length < MIN_SECRET_LENGTH)) {
    problems.push(
      `SVC_SECRET is required in production and must be at least ${MIN_SECRET_LENGTH} characters` +
        (secret ? ` (it has ${secret.length})` : ''),
    );
  }

  let publicUrl = source.NEXT_PUBLIC_APP_URL || '';
  if (!publicUrl) {
    if (production) {
      problems.push('NEXT_PUBLIC_APP_URL is required in production (the public URL used in emailed links)');
    }
    publicUrl = `http://localhost:${port}`;
  } else if (!isHttpUrl(publicUrl)) {
    problems.push(`NEXT_PUBLIC_APP_URL must be an http(s) URL (got "${publicUrl}")`);
  }

  const allowedOrigins = (source.SVC_ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of allowedOrigins) {
    if (!isHttpUrl(origin)) {
      problems.push(`SVC_ALLOWED_ORIGINS entries must be http(s) origins (got "${origin}")`);
    }
  }

  const metricsToken = source.SVC_METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && metricsToken.length < METRICS_TOKEN_MIN) {
    problems.push(
      `SVC_METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN} characters (got ${metricsToken.length})`,
    );
  }
  const redisUrl = source.REDIS_URL || undefined;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  }

  const logLevel = source.SVC_LOG_LEVEL || (nodeEnv === 'test' ? 'silent' : 'info');
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`SVC_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  }

  const dataDir = resolve(source.SVC_DATA_DIR || './.svc');
  const uploadTypes = source.SVC_UPLOAD_TYPES?.trim()
    ? parseUploadTypes(source.SVC_UPLOAD_TYPES)
    : [...DEFAULT_UPLOAD_TYPES];
  problems.push(...uploadTypeProblems(uploadTypes).map((p) => `SVC_UPLOAD_TYPES: ${p}`));
  const s3Bucket = source.SVC_S3_BUCKET?.trim() || undefined;
  const s3Endpoint = source.SVC_S3_ENDPOINT?.trim() || undefined;
  if (s3Endpoint && !isHttpUrl(s3Endpoint)) {
    problems.push(`SVC_S3_ENDPOINT must be an http(s) URL (got "${s3Endpoint}")`);
  }
  if (!s3Bucket && (s3Endpoint || source.SVC_S3_REGION)) {
    problems.push('SVC_S3_ENDPOINT and SVC_S3_REGION need SVC_S3_BUCKET');
  }
  if (s3Bucket && !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(s3Bucket)) {
    problems.push(`SVC_S3_BUCKET must be a bucket name (got "${s3Bucket}")`);
  }

  const env: Env = {
    nodeEnv,
    production,
    port,
    host: source.HOST || '0.0.0.0',
    databaseUrl,
    dataDir,
    embeddedPgPort: int('SVC_EMBEDDED_PG_PORT', 54329, 1, 65535),
    autoMigrate: bool('SVC_AUTO_MIGRATE', true),
    dbPool: int('SVC_DB_POOL', 10, 2, 200),
    preparedStatements: bool('SVC_DB_PREPARED_STATEMENTS', true),
    statementTimeoutMs: int('SVC_DB_STATEMENT_TIMEOUT_MS', 10_000, 0, 3_600_000),
    rateLimitMaxKeys: int('SVC_RATE_LIMIT_MAX_KEYS', DEFAULT_COUNTER_MAX_KEYS, 100, 100_000_000),
    heapGrowingPercent: int('SVC_HEAP_GROWING_PERCENT', DEFAULT_HEAP_GROWING_PERCENT, 0, 300),
    drainSeconds: int('SVC_DRAIN_SECONDS', 5, 0, 300),
    http: {
      headersTimeoutMs: int('SVC_HEADERS_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.headersTimeoutMs, 1000, 600_000),
      idleTimeoutMs: int('SVC_IDLE_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.idleTimeoutMs, 1000, 3_600_000),
      requestTimeoutMs: int('SVC_REQUEST_TIMEOUT_MS', DEFAULT_HTTP_LIMITS.requestTimeoutMs, 1000, 3_600_000),
      keepAliveTimeoutMs: int(
        'SVC_KEEP_ALIVE_TIMEOUT_MS',
        DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs,
        0,
        600_000,
      ),
    },
    secret,
    configFile: source.SVC_CONFIG || undefined,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    allowedOrigins: allowedOrigins.filter(isHttpUrl).map((o) => new URL(o).origin),
    redisUrl,
    redisPrefix: source.SVC_REDIS_PREFIX || undefined,
    metricsToken,
    logLevel,
    apiDocs: bool('SVC_API_DOCS', !production),
    pages: bool('SVC_PAGES', true),
    media: {
      dir: resolve(source.SVC_MEDIA_DIR || join(dataDir, 'media')),
      maxBytes: int('SVC_UPLOAD_MAX_BYTES', DEFAULT_UPLOAD_MAX_BYTES, 1, MAX_UPLOAD_MAX_BYTES),
      types: uploadTypes,
      public: bool('SVC_MEDIA_PUBLIC', false),
      s3: s3Bucket
        ? {
            bucket: s3Bucket,
            endpoint: s3Endpoint,
            region: source.SVC_S3_REGION?.trim() || source.AWS_REGION?.trim() || 'us-east-1',
          }
        : null,
    },
  };
  if (env.http.headersTimeoutMs > env.http.requestTimeoutMs) {
    problems.push('SVC_HEADERS_TIMEOUT_MS must not be larger than SVC_REQUEST_TIMEOUT_MS');
  }
  if (problems.length) {
    throw new ConfigError(problems);
  }
  return env;
}

/**
 * Whether the service serves Swagger UI at `/admin/api/docs`: `SVC_API_DOCS` when set (the
 * boolean words of `loadEnv`, which refuses any other value at boot), else outside production
 * only. Read by the OpenAPI module itself, so a host application gets the same switch.
 */
export function apiDocsEnabled(production: boolean, source: NodeJS.ProcessEnv = process.env): boolean {
  const raw = source.SVC_API_DOCS?.trim().toLowerCase();
  return raw ? ['true', '1', 'yes', 'on'].includes(raw) : !production;
}

/**
 * Whether the service serves its admin app under `/admin` when `SvcModuleOptions.pages` is
 * not set: `SVC_PAGES` (the boolean words of `loadEnv`, which refuses any other value at boot),
 * else on.
 */
export function pagesEnabled(source: NodeJS.ProcessEnv = process.env): boolean {
  const raw = source.SVC_PAGES?.trim().toLowerCase();
  return raw ? ['true', '1', 'yes', 'on'].includes(raw) : true;
}

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * SVC_SECRET, or outside production a random one generated once and kept in the data directory,
 * so sessions survive a restart without anyone having to invent a secret.
 */
export function resolveSecret(env: Env): string {
  if (env.secret) {
    return env.secret;
  }
  if (env.production) {
    throw new ConfigError(['SVC_SECRET is required in production']);
  }
  const file = join(env.dataDir, 'secret');
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= MIN_SECRET_LENGTH) {
      return kept;
    }
  }
  mkdirSync(env.dataDir, { recursive: true });
  const generated = randomBytes(48).toString('base64url');
  writeFileSync(file, generated + '\n', { mode: 0o600 });
  return generated;
}
