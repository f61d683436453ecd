import type { DynamicModule, Type } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import type { DataSource } from 'typeorm';
import { configureApp } from '../../src/app.setup';
import type { SvcConfig } from '../../src/config/config.types';
import { SvcModule } from '../../src/svc.module';
import { SVC_CONNECTION, SvcModuleOptions } from '../../src/config/svc-options';
import { OpenApiService } from '../../src/modules/openapi/openapi.service';
import { LogCapture } from './log-capture';
import { checkAnswersOf } from './openapi-conformance';
import { createTestDatabase, TestDatabase } from './test-db';

export const TEST_SECRET = 'test-secret-that-is-long-enough-0123456789';

export interface TestApp {
  app: NestExpressApplication;
  http: TestAgent;
  db: DataSource;
  database: TestDatabase;
  logs: LogCapture;
  close(): Promise<void>;
}

export interface TestAppOptions {
  config?: SvcConfig;
  /** Reuse a database (a second instance); otherwise a fresh clone of the template. */
  database?: TestDatabase;
  overrides?: Partial<SvcModuleOptions>;
  /** Extra modules (test-only controllers) mounted beside the service. */
  imports?: Array<Type | DynamicModule>;
  /** The HTTP adapter (the standalone server's own, with its limits); Nest's default otherwise. */
  adapter?: AbstractHttpAdapter;
}

/** Boots the service exactly as the standalone server does (SvcModule + configureApp) on a real database. */
export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const ownsDatabase = !opts.database;
  const database = opts.database ?? (await createTestDatabase());
  const logs = new LogCapture();
  const moduleRef = await Test.createTestingModule({
    imports: [
      SvcModule.forRoot({
        secret: TEST_SECRET,
        database: { url: database.url, poolSize: 5, autoMigrate: false },
        // Tests sign in far more than 30 times an hour from one address; the rate-limit tests set their own.
        config: {
          ...opts.config,
          security: { authRateLimit: { max: 100_000, windowSeconds: 3600 }, ...opts.config?.security },
        },
        publicUrl: 'http://localhost:3000',
        standalone: true,
        production: false,
        logger: { level: 'info', stream: logs },
        ...opts.overrides,
      }),
      ...(opts.imports ?? []),
    ],
  }).compile();
  const appOptions = { bodyParser: false, bufferLogs: true };
  const app = opts.adapter
    ? moduleRef.createNestApplication<NestExpressApplication>(opts.adapter, appOptions)
    : moduleRef.createNestApplication<NestExpressApplication>(appOptions);
  configureApp(app);
  await app.init();
  const server = app.getHttpServer();
  const openapi = app.get(OpenApiService, { strict: false });
  checkAnswersOf(server as object, () => openapi.document());
  return {
    app,
    http: request(server),
    db: app.get<DataSource>(getDataSourceToken(SVC_CONNECTION)),
    database,
    logs,
    close: async () => {
      await app.close();
      if (ownsDatabase) {
        await database.drop();
      }
    },
  };
}
