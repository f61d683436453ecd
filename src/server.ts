import { LimitedExpressAdapter } from './http-server';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import pino from 'pino';
import { configureApp } from './app.setup';
import { loadConfigFile } from './config/config-file';
import { Env, loadEnv, resolveSecret } from './config/env';
import { EmbeddedDatabase, startEmbeddedPostgres } from './database/embedded-postgres';
import { SvcModule } from './svc.module';
import type { SvcModuleOptions } from './config/svc-options';

export interface RunningServer {
  app: NestExpressApplication;
  url: string;
  embedded?: EmbeddedDatabase;
  close(): Promise<void>;
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
    rateLimitMaxKeys: env.rateLimitMaxKeys,
    production: env.production,
    standalone: true,
    logger: { level: env.logLevel, pretty: !env.production },
    media: env.media,
  };
}

/**
 * The standalone server: the embedded PostgreSQL when DATABASE_URL is unset, then SvcModule
 * with the service's defaults, listening on HOST:PORT. If the embedded PostgreSQL dies and cannot
 * be restarted, the process exits with status 1 (see `EmbeddedOptions.onGiveUp`).
 */
export async function startServer(source: NodeJS.ProcessEnv = process.env): Promise<RunningServer> {
  const env = loadEnv(source);
  const bootLog = pino({ level: env.logLevel, base: { context: 'Boot' } });
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
    const options = await serverOptions(env, databaseUrl);
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
    return {
      app,
      url,
      embedded,
      close: async () => {
        await app.close();
        await embedded?.stop();
      },
    };
  } catch (e) {
    await embedded?.stop();
    throw e;
  }
}
