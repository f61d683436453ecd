import type { DestinationStream } from 'pino';
import type { ResolvedConfig, SvcConfig } from './config.types';
import { resolveConfig } from './config-file';
import { METRICS_TOKEN_MIN, pagesEnabled } from './env';
import type { DatabaseConfig } from '../database/data-source';
import { type MediaOptions, type ResolvedMediaOptions, resolveMediaOptions } from './media-options';

/** What `SvcModule.forRoot()` takes. Only `secret` and `database` are required. */
export interface SvcModuleOptions {
  /** JWT signing secret (at least 32 characters in production). */
  secret: string;
  database: DatabaseConfig;
  config?: SvcConfig;
  /** Public URL of the deployment (emailed links, CSRF origin). Default http://localhost:3000. */
  publicUrl?: string;
  /** The origin the server listens on, accepted by the CSRF origin check. */
  selfOrigin?: string;
  allowedOrigins?: string[];
  redisUrl?: string;
  /** Prefix of every Redis key the service writes (default `svc:`), so deployments can share a Redis. */
  redisPrefix?: string;
  /**
   * Without Redis: rate-limit counters each budget keeps in memory before forgetting the least
   * recently used one (default 100,000; `SVC_RATE_LIMIT_MAX_KEYS`).
   */
  rateLimitMaxKeys?: number;
  production?: boolean;
  /**
   * Standalone: the service owns every path (unknown routes answer problem+json). Off when imported
   * into a host application, whose own routes keep Nest's behaviour.
   */
  standalone?: boolean;
  logger?: { level?: string; pretty?: boolean; stream?: DestinationStream };
  /**
   * Lets the boot-time sync of code-defined collections and singles carry out destructive
   * changes (dropped fields, narrowed types, removed collections). Default: the
   * `SVC_SCHEMA_ACCEPT_DESTRUCTIVE` environment variable (`true`), else false: such a change
   * stops the boot with a message naming it.
   */
  acceptDestructiveSchema?: boolean;
  /**
   * Uploads, storage and serving of media (`SVC_UPLOAD_*`, `SVC_MEDIA_*`, `SVC_S3_*` in the
   * standalone server). Default: local files under `./.svc/media`, 10 MiB, the default types.
   */
  media?: MediaOptions;
  /**
   * The admin app under `/admin` (sign-in, password reset, email verification, invites, the
   * account, the content screens). Default: the `SVC_PAGES` environment variable, else true.
   * With `forRoot`, false leaves the routes unregistered (a host application may own `/admin/login`);
   * with `forRootAsync` they answer 404.
   */
  pages?: boolean;
  /**
   * Turns on `GET /api/metrics` (Prometheus), answered only to `Authorization: Bearer <this
   * token>` (at least 32 characters; `SVC_METRICS_TOKEN`). Unset: the route answers 404 and no
   * request is measured.
   */
  metricsToken?: string;
}

/** Options with defaults applied: what providers inject under SVC_OPTIONS. */
export interface SvcOptions extends Omit<SvcModuleOptions, 'config' | 'media'> {
  config: ResolvedConfig;
  media: ResolvedMediaOptions;
  publicUrl: string;
  allowedOrigins: string[];
  redisPrefix: string;
  production: boolean;
  standalone: boolean;
  autoMigrate: boolean;
  /** Content reads as named prepared statements (off behind a transaction-mode pooler). */
  preparedStatements: boolean;
  acceptDestructiveSchema: boolean;
  pages: boolean;
}

export const SVC_OPTIONS = Symbol('SVC_OPTIONS');
export const SVC_CONNECTION = 'svc';

export function normaliseOptions(o: SvcModuleOptions): SvcOptions {
  if (!o.secret) {
    throw new Error('SvcModule: `secret` is required');
  }
  if (o.metricsToken !== undefined && o.metricsToken.length < METRICS_TOKEN_MIN) {
    throw new Error(`SvcModule: \`metricsToken\` must be at least ${METRICS_TOKEN_MIN} characters`);
  }
  return {
    ...o,
    config: resolveConfig(o.config),
    media: resolveMediaOptions(o.media),
    publicUrl: (o.publicUrl ?? 'http://localhost:3000').replace(/\/+$/, ''),
    allowedOrigins: o.allowedOrigins ?? [],
    redisPrefix: o.redisPrefix ?? 'svc:',
    production: o.production ?? process.env.NODE_ENV === 'production',
    standalone: o.standalone ?? false,
    autoMigrate: o.database.autoMigrate ?? true,
    preparedStatements: o.database.preparedStatements ?? true,
    acceptDestructiveSchema:
      o.acceptDestructiveSchema ?? process.env.SVC_SCHEMA_ACCEPT_DESTRUCTIVE?.trim().toLowerCase() === 'true',
    pages: o.pages ?? pagesEnabled(),
  };
}

/** Paths the service answers; in a host application every other path belongs to the host. */
export function isServicePath(path: string): boolean {
  return path === '/api/health' || path === '/admin/api' || path.startsWith('/admin/api/');
}
