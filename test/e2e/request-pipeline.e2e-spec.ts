import {
  CanActivate,
  ExecutionContext,
  Injectable,
  MiddlewareConsumer,
  Module,
  RequestMethod,
} from '@nestjs/common';
import { APP_GUARD, type ApplicationConfig, ModulesContainer } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Params, PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
import request, { type Response } from 'supertest';
import type { DataSource } from 'typeorm';
import { configureApp } from '../../src/app.setup';
import { JsonBodyMiddleware } from '../../src/common/body.middleware';
import { ServiceError } from '../../src/common/errors';
import { GlobalRateLimitMiddleware } from '../../src/common/global-rate-limit.middleware';
import { MetricsService } from '../../src/modules/metrics/metrics.service';
import { SVC_CONNECTION, SVC_OPTIONS, type SvcOptions } from '../../src/config/svc-options';
import { ContentAccessGuard } from '../../src/modules/content/content-route';
import {
  ContentLane,
  type LaneSteps,
  mountedOn,
  laneSteps,
} from '../../src/modules/content/entries/content-lane';
import {
  SERVICE_MIDDLEWARES,
  type ServiceMiddleware,
  serviceMiddlewares,
  SvcModule,
} from '../../src/svc.module';
import { bearerFor, createUser } from '../utils/auth';
import { LogCapture } from '../utils/log-capture';
import { createTestDatabase } from '../utils/test-db';
import { TEST_SECRET, type TestApp } from '../utils/test-app';

/** A global guard only this test registers: it sees every route, and refuses when asked to. */
@Injectable()
class ProbeGuard implements CanActivate {
  static seen: string[] = [];

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<IncomingMessage>();
    ProbeGuard.seen.push(`${context.getClass().name}.${context.getHandler().name}`);
    if (req.headers['x-probe'] === 'refuse') {
      throw new ServiceError('FORBIDDEN', 'The probe guard refused');
    }
    return true;
  }
}

@Module({ providers: [{ provide: APP_GUARD, useClass: ProbeGuard }] })
class ProbeGuardModule {}

/** A middleware only this test adds to the service's one list. */
const probeMiddleware: ServiceMiddleware = {
  name: 'probe',
  use: (_req: IncomingMessage, res: ServerResponse, next: () => void) => {
    res.setHeader('X-Probe-Middleware', 'ran');
    next();
  },
  routes: [{ path: 'admin/api/{*path}', method: RequestMethod.ALL }],
};

/** Headers whose values differ from one request to the next by design. */
const PER_REQUEST = new Set(['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

function comparable(res: Response) {
  const headers = Object.fromEntries(
    Object.entries(res.headers).map(([k, v]) => [k, PER_REQUEST.has(k) ? '(per request)' : v]),
  );
  const body = res.body as { error?: { requestId?: string } };
  if (body?.error?.requestId) {
    body.error.requestId = '(per request)';
  }
  return { status: res.status, headers, body };
}

/**
 * The read lane and the Nest routes are one request pipeline (src/svc.module.ts
 * `serviceMiddlewares`, src/modules/content/entries/content-lane.ts `laneSteps`): a global
 * middleware or guard added to one and not the other fails here. This app adds both a middleware
 * to the service's list and a global guard (APP_GUARD) in a module of its own, as a feature would.
 */
describe('request pipeline: the read lane runs what Nest runs', () => {
  let t: TestApp;
  let served: jest.SpyInstance;
  let taken: jest.SpyInstance;
  let admin: Record<string, string>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    const logs = new LogCapture();
    const moduleRef = await Test.createTestingModule({
      imports: [
        SvcModule.forRoot({
          secret: TEST_SECRET,
          database: { url: database.url, poolSize: 5, autoMigrate: false },
          config: {
            collections: [{ slug: 'notes', fields: [{ name: 'text', type: 'text' }] }],
            security: { authRateLimit: { max: 100_000, windowSeconds: 3600 } },
          },
          publicUrl: 'http://localhost:3000',
          standalone: true,
          production: false,
          logger: { level: 'info', stream: logs },
        }),
        ProbeGuardModule,
      ],
    })
      .overrideProvider(SERVICE_MIDDLEWARES)
      .useFactory({
        inject: [
          SVC_OPTIONS,
          PARAMS_PROVIDER_TOKEN,
          GlobalRateLimitMiddleware,
          JsonBodyMiddleware,
          MetricsService,
        ],
        factory: (
          o: SvcOptions,
          p: Params,
          limit: GlobalRateLimitMiddleware,
          body: JsonBodyMiddleware,
          metrics: MetricsService,
        ) => [...serviceMiddlewares(o, p, limit, body, metrics), probeMiddleware],
      })
      .compile();
    const app = moduleRef.createNestApplication<NestExpressApplication>({
      bodyParser: false,
      bufferLogs: true,
    });
    configureApp(app);
    await app.init();
    t = {
      app,
      http: request(app.getHttpServer()),
      db: app.get<DataSource>(getDataSourceToken(SVC_CONNECTION)),
      database,
      logs,
      close: async () => {
        await app.close();
        await database.drop();
      },
    };
    served = jest.spyOn(ContentLane.prototype as never, 'serve');
    taken = jest.spyOn(ContentLane.prototype, 'take');
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    await t.http.post('/admin/api/collections/notes/entries').set(admin).send({ text: 'a' }).expect(201);
  });
  afterAll(() => t.close());

  const list = () => t.app.get<ServiceMiddleware[]>(SERVICE_MIDDLEWARES);
  const steps = (): LaneSteps => laneSteps(t.app.get(ModulesContainer), list());

  /**
   * The request through the lane, then through Express and Nest (a body header sends it there):
   * the same answer. `reachesGuards`: whether the middlewares let it through to the guards.
   */
  async function bothWays(path: string, headers: Record<string, string>, reachesGuards = true) {
    const before = served.mock.calls.length;
    const viaLane = await t.http.get(path).set(headers);
    expect(taken.mock.results.at(-1)?.value).toBe(true);
    expect(served.mock.calls.length).toBe(before + (reachesGuards ? 1 : 0));
    const viaNest = await t.http.get(path).set(headers).set('Content-Length', '0');
    expect(taken.mock.results.at(-1)?.value).toBe(false);
    expect(comparable(viaLane)).toEqual(comparable(viaNest));
    return viaLane;
  }

  it('SvcModule mounts exactly the one list of middlewares, in its order', () => {
    const mounted: Array<{ use: unknown; routes: unknown[] }> = [];
    const consumer = {
      apply: (...uses: unknown[]) => ({
        forRoutes: (...routes: unknown[]) => {
          mounted.push(...uses.map((use) => ({ use, routes })));
          return consumer;
        },
        exclude: () => {
          throw new Error('not expected');
        },
      }),
    };
    t.app.get(SvcModule).configure(consumer as unknown as MiddlewareConsumer);
    expect(mounted).toHaveLength(list().length);
    list().forEach((m, i) => {
      expect(mounted[i].use).toBe(m.use);
      expect(mounted[i].routes).toEqual(m.routes);
    });
    expect(list().map((m) => m.name)).toEqual([
      'request-logging',
      'login-floor',
      'account-answer-floor',
      'cors',
      'global-rate-limit',
      'request-start',
      'cookies',
      'json-body',
      'probe',
    ]);
  });

  it('the lane runs the same middlewares of that list as Express does for its routes', () => {
    const { routes } = steps();
    for (const [handler, route] of Object.entries(routes)) {
      // The same functions, not copies.
      for (const m of route.middlewares) {
        expect(list()).toContain(m);
      }
      expect({ handler, names: route.middlewares.map((m) => m.name) }).toEqual({
        handler,
        names: [
          'request-logging',
          'cors',
          'global-rate-limit',
          'request-start',
          'cookies',
          'json-body',
          'probe',
        ],
      });
    }
    // What Express matches: a POST-only floor is not on these routes; the whole-service ones are.
    const entries = '/admin/api/collections/notes/entries';
    expect(mountedOn({ path: 'admin/api/auth/login', method: RequestMethod.POST }, entries)).toBe(false);
    expect(mountedOn({ path: 'admin/api/{*path}', method: RequestMethod.ALL }, entries)).toBe(true);
    expect(mountedOn({ path: '{*path}', method: RequestMethod.ALL }, entries)).toBe(true);
    expect(mountedOn({ path: 'admin/api', method: RequestMethod.ALL }, entries)).toBe(false);
    expect(
      mountedOn({ path: 'admin/api/collections/:slug/entries', method: RequestMethod.GET }, entries),
    ).toBe(true);
  });

  it("the lane runs Nest's global guards (every APP_GUARD, the same instances, in order), then the route's", () => {
    const config = (t.app as unknown as { config: ApplicationConfig }).config;
    const global = config.getGlobalGuards();
    expect(global.map((g) => g.constructor.name)).toEqual([
      'AuthenticationGuard',
      'PermissionGuard',
      'ProbeGuard',
    ]);
    const { routes, unsupported } = steps();
    expect(unsupported).toEqual([]);
    for (const route of Object.values(routes)) {
      expect(route.guards.slice(0, global.length)).toEqual(global);
      route.guards.slice(0, global.length).forEach((g, i) => expect(g).toBe(global[i]));
      expect(route.guards.slice(global.length).map((g) => g.constructor.name)).toEqual([
        'ContentAccessGuard',
      ]);
      expect(route.guards[global.length]).toBeInstanceOf(ContentAccessGuard);
    }
  });

  it('a global guard registered in another module applies to the lane, with the handler Nest would give it', async () => {
    ProbeGuard.seen = [];
    await bothWays('/admin/api/collections/notes/entries', admin);
    await bothWays('/admin/api/collections/notes/entries/count', admin);
    expect(ProbeGuard.seen).toEqual([
      'EntriesController.list',
      'EntriesController.list',
      'EntriesController.count',
      'EntriesController.count',
    ]);
    const refused = await bothWays('/admin/api/collections/notes/entries', { ...admin, 'X-Probe': 'refuse' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe('The probe guard refused');
  });

  it('a middleware added to the list applies to the lane', async () => {
    const res = await bothWays('/admin/api/collections/notes/entries', admin);
    expect(res.status).toBe(200);
    expect(res.headers['x-probe-middleware']).toBe('ran');
  });

  it('answers what the list refuses before any guard the same way (a NUL in the URL)', async () => {
    const res = await bothWays('/admin/api/collections/notes/entries?where[text][equals]=%00', admin, false);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('The request URL is not valid');
  });
});
