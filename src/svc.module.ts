import {
  DynamicModule,
  Inject,
  Logger,
  MiddlewareConsumer,
  Module,
  ModuleMetadata,
  NestModule,
  RequestMethod,
} from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost, RouterModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import cookieParser from 'cookie-parser';
import { LoggerModule, PARAMS_PROVIDER_TOKEN, type Params } from 'nestjs-pino';
import { DataSource } from 'typeorm';
import { JsonBodyMiddleware } from './common/body.middleware';
import { serviceCors } from './common/cors';
import { GlobalRateLimitMiddleware } from './common/global-rate-limit.middleware';
import { ProblemDetailsFilter } from './common/errors/problem-details.filter';
import { createRootLogger, loggerParams, rootLoggerOf } from './common/logger';
import { requestLogging } from './common/request-logging';
import { databaseReady, dataSourceOptions, runMigrations } from './database/data-source';
import { stampRequestStart } from './common/request-start';
import { responseFloor } from './common/response-floor';
import { ACCOUNT_ANSWER_FLOOR_MS } from './modules/accounts/account-lifecycle.service';
import { AccountsModule } from './modules/accounts/accounts.module';
import { LOGIN_FLOOR_MS } from './modules/auth/auth.service';
import { AuthModule } from './modules/auth/auth.module';
import { ContentModule } from './modules/content/content.module';
import { DashboardModule } from './modules/dashboard/dashboard.module';
import { EmailModule } from './modules/email/email.module';
import { trace } from '@opentelemetry/api';
import { tracingConfigured } from './config/tracing-env';
import { ClusterModule } from './modules/cluster/cluster.module';
import { MetricsModule } from './modules/metrics/metrics.module';
import { MetricsService } from './modules/metrics/metrics.service';
import { HealthModule } from './modules/health/health.module';
import { MediaModule } from './modules/media/media.module';
import { PagesModule } from './modules/pages/pages.module';
import { OpenApiModule } from './modules/openapi/openapi.module';
import { PLUGIN_HOST, PluginHost } from './modules/plugins/plugin-host';
import { SettingsModule } from './modules/settings/settings.module';
import { UserFieldsModule } from './modules/user-fields/user-fields.module';
import {
  isServicePath,
  normaliseOptions,
  SVC_CONNECTION,
  SVC_OPTIONS,
  SvcModuleOptions,
  SvcOptions,
} from './config/svc-options';
import type { ConnectMiddleware, ServiceMiddleware, ServiceRoute } from './common/service-middleware';
import { WebhooksModule } from './modules/webhooks/webhooks.module';

export type { ServiceMiddleware } from './common/service-middleware';

export interface SvcModuleAsyncOptions extends Pick<ModuleMetadata, 'imports'> {
  inject?: Array<string | symbol | (abstract new (...args: never[]) => unknown)>;
  useFactory: (...args: never[]) => SvcModuleOptions | Promise<SvcModuleOptions>;
}

/** Holds the resolved options; global so every module of the service can inject SVC_OPTIONS. */
@Module({})
class SvcOptionsModule {}

/** A route as Nest's `forRoutes` takes it: a path pattern (no leading slash) and a method. */
const SERVICE_ROUTES: ServiceRoute[] = [
  { path: 'admin/api', method: RequestMethod.ALL },
  { path: 'admin/api/{*path}', method: RequestMethod.ALL },
];
const HEALTH_ROUTE: ServiceRoute = { path: 'api/health', method: RequestMethod.ALL };

/** The service's middlewares, in order: `SvcModule` mounts them, the content lane runs them. */
export const SERVICE_MIDDLEWARES = Symbol('SERVICE_MIDDLEWARES');

/**
 * Every middleware of the service, in the order it runs, with its routes: the one list that
 * SvcModule mounts and the content read lane (src/modules/content/entries/content-lane.ts) runs for
 * the routes it answers, so a middleware added here applies to both.
 */
export function serviceMiddlewares(
  options: SvcOptions,
  logParams: Params,
  globalRateLimit: GlobalRateLimitMiddleware,
  jsonBody: JsonBodyMiddleware,
  metrics: MetricsService,
): ServiceMiddleware[] {
  const everyPath = options.standalone
    ? [{ path: '{*path}', method: RequestMethod.ALL }]
    : [...SERVICE_ROUTES, HEALTH_ROUTE];
  return [
    // First: the request id and the request's logger, for everything after it (and every route
    // of the standalone server, unknown ones included). Express requests log `req.ip`; the read
    // lane's get the same answer from `trustProxy`.
    {
      name: 'request-logging',
      use: requestLogging(rootLoggerOf(logParams), {
        trustProxy: options.config.trustProxy,
        // Only with metrics on: otherwise no request pays for them.
        ...(metrics.enabled && { onDone: (req, res, seconds) => metrics.observe(req, res, seconds) }),
        // Only with tracing on (the OpenTelemetry API answers nothing without an SDK anyway).
        ...(tracingConfigured(process.env) && {
          traceId: () => trace.getActiveSpan()?.spanContext().traceId,
        }),
      }),
      routes: everyPath,
    },
    // Answers whose timing must tell nothing wait out a floor, refusals by guards included: the
    // password login (SPEC 5.2.1), and the routes that must not tell whether an address has an
    // account.
    {
      name: 'login-floor',
      use: responseFloor(LOGIN_FLOOR_MS) as ConnectMiddleware,
      routes: [{ path: 'admin/api/auth/login', method: RequestMethod.POST }],
    },
    {
      name: 'account-answer-floor',
      use: responseFloor(ACCOUNT_ANSWER_FLOOR_MS) as ConnectMiddleware,
      routes: ['register', 'verify-email/resend', 'forgot-password'].map((route) => ({
        path: `admin/api/auth/${route}`,
        method: RequestMethod.POST,
      })),
    },
    // Cross-origin frontends on an allowed origin call with credentials (SPEC 5.1.4, 5.8);
    // preflights are answered here, before any limit or authentication.
    {
      name: 'cors',
      use: serviceCors(options) as ConnectMiddleware,
      routes: [...SERVICE_ROUTES, HEALTH_ROUTE],
    },
    {
      name: 'global-rate-limit',
      use: (req, res, next) => globalRateLimit.use(req as never, res as never, next),
      routes: everyPath,
    },
    { name: 'request-start', use: stampRequestStart as ConnectMiddleware, routes: SERVICE_ROUTES },
    { name: 'cookies', use: cookieParser() as ConnectMiddleware, routes: SERVICE_ROUTES },
    {
      name: 'json-body',
      use: (req, res, next) => jsonBody.use(req as never, res as never, next),
      routes: SERVICE_ROUTES,
    },
  ];
}

/**
 * The whole service as one Nest module. The standalone server is a small host around it
 * (`src/server.ts`); another Nest application can import it beside its own routes.
 */
@Module({})
export class SvcModule implements NestModule {
  static forRoot(options: SvcModuleOptions): DynamicModule {
    const normalised = normaliseOptions(options);
    const plugins = new PluginHost(normalised.config, normalised.publicUrl);
    return SvcModule.build(
      {
        module: SvcOptionsModule,
        global: true,
        providers: [
          { provide: SVC_OPTIONS, useValue: normalised },
          { provide: PLUGIN_HOST, useValue: plugins },
        ],
        exports: [SVC_OPTIONS, PLUGIN_HOST],
      },
      plugins,
      normalised.pages,
    );
  }

  static forRootAsync(options: SvcModuleAsyncOptions): DynamicModule {
    return SvcModule.build({
      module: SvcOptionsModule,
      global: true,
      imports: options.imports ?? [],
      providers: [
        {
          provide: SVC_OPTIONS,
          inject: options.inject ?? [],
          useFactory: async (...args: never[]) => normaliseOptions(await options.useFactory(...args)),
        },
        {
          provide: PLUGIN_HOST,
          inject: [SVC_OPTIONS],
          // Nest mounts modules before the factory runs: plugins with routes need forRoot (the boot says so).
          useFactory: (o: SvcOptions) => new PluginHost(o.config, o.publicUrl),
        },
      ],
      exports: [SVC_OPTIONS, PLUGIN_HOST],
    });
  }

  /** `plugins`: whose routes to mount (their modules under `/admin/api/plugins/<slug>/`). */
  /** `pages`: whether to mount the pages under `/admin` (forRootAsync mounts them; off, they answer 404). */
  private static build(optionsModule: DynamicModule, plugins?: PluginHost, pages = true): DynamicModule {
    const pluginModules = plugins?.modules() ?? [];
    return {
      module: SvcModule,
      imports: [
        optionsModule,
        LoggerModule.forRootAsync({
          inject: [SVC_OPTIONS],
          useFactory: (o: SvcOptions) =>
            loggerParams(
              createRootLogger({
                level: o.logger?.level ?? 'info',
                pretty: o.logger?.pretty ?? false,
                stream: o.logger?.stream,
              }),
            ),
        }),
        TypeOrmModule.forRootAsync({
          name: SVC_CONNECTION,
          inject: [SVC_OPTIONS],
          useFactory: (o: SvcOptions) => ({
            ...dataSourceOptions(o.database),
            name: SVC_CONNECTION,
            retryAttempts: o.production ? 5 : 0,
            retryDelay: 2000,
            svcAutoMigrate: o.autoMigrate,
          }),
          // Pending migrations run before the DataSource is handed to anyone (SVC_AUTO_MIGRATE=false skips).
          dataSourceFactory: async (opts) => {
            const ds = await new DataSource(opts!).initialize();
            const migrate = (opts as { svcAutoMigrate?: boolean }).svcAutoMigrate;
            const ran = migrate ? await runMigrations(ds) : [];
            new Logger('Database').log(databaseReady(String(ds.driver.database ?? ''), migrate ? ran : null));
            return ds;
          },
        }),
        ClusterModule,
        MetricsModule,
        HealthModule,
        AuthModule,
        EmailModule,
        UserFieldsModule,
        AccountsModule,
        WebhooksModule,
        ContentModule,
        MediaModule,
        SettingsModule,
        DashboardModule,
        ...(pages ? [PagesModule] : []),
        OpenApiModule,
        ...pluginModules.map((m) => m.module),
        ...(pluginModules.length
          ? [RouterModule.register(pluginModules.map((m) => ({ path: m.path, module: m.module.module })))]
          : []),
      ],
      providers: [
        GlobalRateLimitMiddleware,
        JsonBodyMiddleware,
        {
          provide: SERVICE_MIDDLEWARES,
          inject: [
            SVC_OPTIONS,
            PARAMS_PROVIDER_TOKEN,
            GlobalRateLimitMiddleware,
            JsonBodyMiddleware,
            MetricsService,
          ],
          useFactory: serviceMiddlewares,
        },
        {
          provide: APP_FILTER,
          inject: [HttpAdapterHost, SVC_OPTIONS],
          useFactory: (adapter: HttpAdapterHost, o: SvcOptions) =>
            new ProblemDetailsFilter(adapter, o.standalone ? () => true : isServicePath),
        },
      ],
      exports: [],
    };
  }

  constructor(@Inject(SERVICE_MIDDLEWARES) private readonly middlewares: ServiceMiddleware[]) {}

  configure(consumer: MiddlewareConsumer): void {
    for (const m of this.middlewares) {
      consumer.apply(m.use).forRoutes(...m.routes);
    }
  }
}
