import { LimitedExpressAdapter } from './http-server';
import 'reflect-metadata';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import pino, { type DestinationStream, type Logger } from 'pino';
import { configureApp } from './app.setup';
import { createRootLogger, type LoggerSettings } from './common/logger';
import { loadConfigFile } from './config/config-file';
import { Env, loadEnv, resolveSecret } from './config/env';
import { EmbeddedDatabase, startEmbeddedPostgres } from './database/embedded-postgres';
import { AuthService } from './modules/auth/auth.service';
import { HealthService } from './modules/health/health.service';
import { SvcModule } from './svc.module';
import type { SvcModuleOptions } from './config/svc-options';

export interface RunningServer {
  app: NestExpressApplication;
  url: string;
  embedded?: EmbeddedDatabase;
  /** The boot lines' logger (context `Boot`), for what the process says after the boot. */
  log: Logger;
  close(): Promise<void>;
  /**
   * A graceful stop: health answers 503 `draining: true` at once while everything else is served
   * for `seconds` (SVC_DRAIN_SECONDS), then the server stops accepting connections, lets the
   * requests in flight finish (up to `IN_FLIGHT_GRACE_MS`) and closes like `close`.
   */
  drain(seconds?: number): Promise<void>;
}

/** How long a drained server waits for its requests in flight before it drops their connections. */
const IN_FLIGHT_GRACE_MS = 10_000;

export interface StartServerOptions {
  /**
   * Where every log record goes, the boot lines (context `Boot`) and the service's, as JSON
   * lines; by default standard output, one readable line per record outside production.
   */
  logStream?: DestinationStream;
}

/**
 * The boot line of a first run: with no user yet, how to create the administrator. Best effort:
 * a failed check is no reason to stop a service that is up. True when it warned.
 */
export async function warnWithoutAdministrator(
  app: INestApplicationContext,
  url: string,
  log: { warn(message: string): void },
): Promise<boolean> {
  const exists = await app
    .get(AuthService)
    .setupCompleted()
    .catch(() => true);
  if (exists) {
    return false;
  }
  log.warn(
    `no administrator exists yet: create one with POST ${url}/admin/api/auth/setup ` +
      `{ email, name, password } (docs/getting-started.md walks through it), or run ` +
      `npm run seed:admin -- --email <address> --password <password> [--name <name>]`,
  );
  return true;
}

/**
 * The standalone server's V8 heap settings, set here, before the load, so they reach every user of
 * `npm start` and the image. Only the standalone server does this: an application embedding
 * SvcModule keeps its own V8 settings. A flag given to node itself (command line or NODE_OPTIONS)
 * wins over each.
 * - Heap growth (`SVC_HEAP_GROWING_PERCENT`, default 50; 0 leaves V8's own factor): V8 reads the
 *   flag at every full collection.
 * - Allocation-site pretenuring off. Once the objects of a code site have survived young
 *   collections (node-pg's row objects did, by the time the service had booted), V8 allocates that
 *   site's objects straight in the old generation, for good. Every row of every later read was
 *   then an old object, through which its young strings survived each young collection and were
 *   promoted: under load a fifth of what a list allocates, young collections three times dearer
 *   and a full collection every second or so (docs/performance.md). Request data dies young.
 */
export function tuneHeap(percent: number, source: NodeJS.ProcessEnv = process.env): void {
  const given = (flag: string) =>
    [...process.execArgv, ...(source.NODE_OPTIONS ?? '').split(/\s+/)].some((a) =>
      new RegExp(`^--(no-)?${flag}(=|$)`).test(a.replace(/_/g, '-')),
    );
  if (percent > 0 && !given('heap-growing-percent')) {
    setFlagsFromString(`--heap-growing-percent=${percent}`);
  }
  if (!given('allocation-site-pretenuring')) {
    setFlagsFromString('--no-allocation-site-pretenuring');
  }
}

/** Options for the standalone server, from the validated environment and the config file. */
export async function serverOptions(env: Env, databaseUrl: string): Promise<SvcModuleOptions> {
  return {
    secret: resolveSecret(env),
    database: {
      url: databaseUrl,
      poolSize: env.dbPool,
      autoMigrate: env.autoMigrate,
      preparedStatements: env.preparedStatements,
      statementTimeoutMs: env.statementTimeoutMs,
    },
    config: await loadConfigFile(env.configFile),
    publicUrl: env.publicUrl,
    allowedOrigins: env.allowedOrigins,
    redisUrl: env.redisUrl,
    redisPrefix: env.redisPrefix,
    metricsToken: env.metricsToken,
    rateLimitMaxKeys: env.rateLimitMaxKeys,
    production: env.production,
    standalone: true,
    logger: logSettings(env),
    media: env.media,
  };
}

function logSettings(env: Env, stream?: DestinationStream): LoggerSettings {
  return { level: env.logLevel, pretty: !env.production, ...(stream ? { stream } : {}) };
}

/**
 * The standalone server: the embedded PostgreSQL when DATABASE_URL is unset, then SvcModule
 * with the service's defaults, listening on HOST:PORT. If the embedded PostgreSQL dies and cannot
 * be restarted, the process exits with status 1 (see `EmbeddedOptions.onGiveUp`).
 */
export async function startServer(
  source: NodeJS.ProcessEnv = process.env,
  opts: StartServerOptions = {},
): Promise<RunningServer> {
  const env = loadEnv(source);
  tuneHeap(env.heapGrowingPercent, source);
  // The boot lines and the service's: the same format, one destination (so, in order).
  const settings = logSettings(env, opts.logStream ?? (env.production ? pino.destination(1) : undefined));
  const bootLog = createRootLogger(settings).child({ context: 'Boot' });
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = env.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      dataDir: env.dataDir,
      port: env.embeddedPgPort,
      // The default port may belong to another data directory's server; a chosen one is kept.
      pickFreePort: !source.SVC_EMBEDDED_PG_PORT,
      log: (level, message) => (level === 'info' ? bootLog.debug(message) : bootLog[level](message)),
    });
    databaseUrl = embedded.url;
    bootLog.info(`embedded PostgreSQL running on 127.0.0.1:${embedded.port}, data in ${env.dataDir}`);
  }
  try {
    const options = { ...(await serverOptions(env, databaseUrl)), logger: settings };
    const app = await NestFactory.create<NestExpressApplication>(
      SvcModule.forRoot(options),
      new LimitedExpressAdapter(env.http),
      { bodyParser: false, bufferLogs: true },
    );
    configureApp(app);
    await app.listen(env.port, env.host);
    const address = app.getHttpServer().address();
    const port = typeof address === 'object' && address ? address.port : env.port;
    const url = `http://${env.host === '0.0.0.0' ? 'localhost' : env.host}:${port}`;
    await warnWithoutAdministrator(app, url, bootLog);
    bootLog.info(`svc listening on ${url}`);
    const close = async () => {
      await app.close();
      await embedded?.stop();
    };
    return {
      app,
      url,
      embedded,
      log: bootLog,
      close,
      drain: async (seconds = env.drainSeconds) => {
        app.get(HealthService).startDraining();
        const http = app.getHttpServer() as Server;
        // Keep-alive clients reconnect (through the balancer, to another instance) after this answer.
        http.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
          res.setHeader('Connection', 'close');
        });
        bootLog.info(
          `draining: health answers 503 for ${seconds} s, then the server stops accepting connections`,
        );
        await sleep(seconds * 1000);
        // Stop accepting before the modules shut down (Nest closes the pool before the listener).
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeIdleConnections();
        await Promise.race([stopped, sleep(IN_FLIGHT_GRACE_MS)]);
        http.closeAllConnections();
        await close();
      },
    };
  } catch (e) {
    await embedded?.stop();
    throw e;
  }
}
