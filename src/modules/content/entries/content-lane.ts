import { CanActivate, ForbiddenException, Logger, RequestMethod, Type } from '@nestjs/common';
import { GUARDS_METADATA, INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Response } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import { lastValueFrom } from 'rxjs';
import { sendProblem } from '../../../common/errors/problem-details.filter';
import { putInFront } from '../../../common/front-listener';
import { parseId } from '../../../common/id.pipe';
import { skipAdminApi } from '../../../config/config-file';
import { SVC_OPTIONS, type SvcOptions } from '../../../config/svc-options';
import type { ServiceMiddleware, ServiceRoute } from '../../../common/service-middleware';
import { callerOf, type Caller, definitionOf } from '../content-route';
import type { Definition } from '../content.types';
import { notModified, tagOf, withTag } from '../entry-tag';
import { EntriesController } from './entries.controller';

/** `/admin/api/collections/{slug}/entries`, `.../count` or `.../{id}`, with an optional query. */
const ROUTE = /^\/admin\/api\/collections\/([a-z0-9-]+)\/entries(?:\/([A-Za-z0-9-]+))?(?:\?([^#]*))?$/;

/** The one body type the lane reads (`+json` types and the rest go to Express, which reads them the same). */
const JSON_BODY = /^application\/json\s*(;|$)/i;

type Query = Record<string, unknown>;
type LaneRequest = IncomingMessage & { params?: Record<string, string>; query?: Query; body?: unknown };
interface Call {
  def: Definition;
  id: string | undefined;
  req: LaneRequest;
  query: Query;
  caller: Caller;
  res: ServerResponse;
}

const SAMPLE_ID = '00000000-0000-4000-8000-000000000000';

/**
 * The EntriesController handlers the lane answers: the method and a path each serves (to find the
 * middlewares mounted on it), the status Nest answers with, and the call with the arguments its
 * parameter decorators give (`@CurrentDefinition`, `@Query`, `@Body`, `@CurrentCaller`,
 * `@Headers('if-match')`, `@Res`, and `IdPipe`'s `parseId` for the id).
 */
const HANDLERS = {
  list: {
    method: 'GET',
    path: '/admin/api/collections/slug/entries',
    status: 200,
    call: (c: EntriesController, a: Call) => c.list(a.def, a.query, a.caller),
  },
  count: {
    method: 'GET',
    path: '/admin/api/collections/slug/entries/count',
    status: 200,
    call: (c: EntriesController, a: Call) => c.count(a.def, a.query, a.caller),
  },
  get: {
    method: 'GET',
    path: `/admin/api/collections/slug/entries/${SAMPLE_ID}`,
    status: 200,
    call: (c: EntriesController, a: Call) => c.get(a.def, parseId(a.id, 'entry'), a.query, a.caller),
  },
  create: {
    method: 'POST',
    path: '/admin/api/collections/slug/entries',
    status: 201,
    call: (c: EntriesController, a: Call) => c.create(a.def, a.req.body, a.caller),
  },
  update: {
    method: 'PATCH',
    path: `/admin/api/collections/slug/entries/${SAMPLE_ID}`,
    status: 200,
    call: (c: EntriesController, a: Call) =>
      c.update(
        a.def,
        parseId(a.id, 'entry'),
        a.req.body,
        a.caller,
        a.req.headers['if-match'],
        a.res as unknown as Response,
      ),
  },
} as const;

export type LaneHandler = keyof typeof HANDLERS;

/** Each handler's route template, as Express names the same route of EntriesController. */
const TEMPLATES: Record<LaneHandler, string> = {
  list: '/admin/api/collections/:slug/entries',
  count: '/admin/api/collections/:slug/entries/count',
  get: '/admin/api/collections/:slug/entries/:id',
  create: '/admin/api/collections/:slug/entries',
  update: '/admin/api/collections/:slug/entries/:id',
};

/** What the lane runs for one handler, in order, each from the source Nest runs it from. */
export interface LaneRoute {
  handler: LaneHandler;
  /** The service's middlewares mounted on the handler's path, from the one list SvcModule mounts. */
  middlewares: ServiceMiddleware[];
  /**
   * The guards Nest runs before the handler, as Nest orders them: the global ones (`APP_GUARD`,
   * whichever module registers them), then the controller's and the handler's `@UseGuards`: the
   * same instances.
   */
  guards: CanActivate[];
}

export interface LaneSteps {
  routes: Record<LaneHandler, LaneRoute>;
  /**
   * Enhancers Nest would apply to these handlers that the lane does not run (a global pipe or
   * interceptor, an interceptor on the controller or a handler, a request-scoped global guard):
   * while there is any, the lane stays off and Nest answers everything.
   */
  unsupported: string[];
}

/**
 * The content lane: `GET` list, count and get-by-id of collection entries, and `POST` create and
 * `PATCH` update of one entry, answered straight from the HTTP server, ahead of Express and Nest.
 * Express and Nest cost a fixed ~0.3 ms of CPU per request here, more than a whole read and half
 * of a plain write; the bench targets (against a bare `node:http` + `pg` server) are out of reach
 * through them (docs/decisions.md).
 *
 * The lane is the same pipeline, not a second implementation: its steps are derived from what
 * Nest runs for these routes (`laneSteps`): the service's middlewares mounted on the path
 * (from the one list SvcModule mounts, the JSON body parser included), the guards of the handler
 * (the global guards, then `ContentAccessGuard`, the same instances) on an execution context of
 * the handler, then the `EntriesController` handler itself; errors are answered by
 * `sendProblem`, as the problem filter does. It takes only requests it answers identically (e2e
 * tests send each request both ways and compare); anything else goes on to Express untouched:
 * - other methods (HEAD included), other paths, percent-encoded or upper-case path parts;
 * - a read with a body header; a write whose body is not declared `application/json` (a
 *   multipart media upload, a `+json` type, a missing or wrong type: Express answers those);
 * - a config whose global rate limit `skip` is not the default one (which skips these paths): a
 *   custom `skip` is written for Express's request object;
 * - a config with a code-defined rule function on any collection or single: such rules get the
 *   Express request (a `read` rule also when another collection is populated through `depth`);
 *   only a `read` function keeps reads away, any function keeps writes away;
 * - an enhancer the lane does not run (`LaneSteps.unsupported`).
 */
export class ContentLane {
  private readonly logger = new Logger('ProblemDetails');
  private readonly reads: boolean;
  private readonly writes: boolean;

  constructor(
    options: SvcOptions,
    private readonly steps: LaneSteps,
    private readonly controller: EntriesController,
  ) {
    const { collections, singles, rateLimit } = options.config;
    const rules = [...collections, ...singles].map((c) => Object.values(c.access ?? {}));
    this.reads =
      options.standalone &&
      rateLimit.skip === skipAdminApi &&
      ![...collections, ...singles].some((c) => typeof c.access?.read === 'function') &&
      steps.unsupported.length === 0;
    this.writes = this.reads && !rules.flat().some((rule) => typeof rule === 'function');
  }

  /** Answers the request and says true, or says false and leaves it untouched. */
  take(req: IncomingMessage, res: ServerResponse): boolean {
    const match = this.reads ? ROUTE.exec(req.url ?? '') : null;
    const handler = match && this.handlerOf(req, match[2]);
    if (!handler) {
      return false;
    }
    const [, slug, id, query] = match;
    const route = this.steps.routes[handler];
    // The route template, where Express would have put it (the metrics label requests by it).
    (req as { route?: { path: string } }).route = { path: TEMPLATES[handler] };
    this.run(route.middlewares, 0, req, res, () => void this.serve(req, res, route, slug, id, query));
    return true;
  }

  /** The handler for a request whose path matched ROUTE (`id`: its id segment, if any). */
  private handlerOf(req: IncomingMessage, id: string | undefined): LaneHandler | undefined {
    const method = req.method;
    if (method === 'GET') {
      const body = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'];
      return body ? undefined : id === undefined ? 'list' : id === 'count' ? 'count' : 'get';
    }
    const type = req.headers['content-type'];
    if (!this.writes || type === undefined || !JSON_BODY.test(type)) {
      return undefined;
    }
    if (method === 'POST') {
      return id === undefined ? 'create' : undefined;
    }
    return method === 'PATCH' && id !== undefined ? 'update' : undefined;
  }

  /** The middlewares in order, as Nest runs them: an error, thrown or rejected, is answered. */
  private run(
    middlewares: readonly ServiceMiddleware[],
    i: number,
    req: IncomingMessage,
    res: ServerResponse,
    done: () => void,
  ): void {
    if (i === middlewares.length) {
      done();
      return;
    }
    const fail = (err: unknown): void => sendProblem(req, res, err, this.logger);
    try {
      const pending = middlewares[i].use(req, res, (err?: unknown) => {
        if (err) {
          fail(err);
          return;
        }
        this.run(middlewares, i + 1, req, res, done);
      });
      if (pending instanceof Promise) {
        pending.catch(fail);
      }
    } catch (e) {
      fail(e);
    }
  }

  /** The guards, then the handler, as Nest's router would run them after the middlewares. */
  private async serve(
    req: IncomingMessage,
    res: ServerResponse,
    route: LaneRoute,
    slug: string,
    id: string | undefined,
    query: string | undefined,
  ): Promise<void> {
    try {
      const r = req as LaneRequest;
      r.params = id === undefined || route.handler === 'count' ? { slug } : { slug, id };
      // Where the server made the request with Express's prototype (http-server.ts), its `query`
      // getter already answers the same (Express's default parser is node:querystring's); the
      // handlers get their own copy (Call.query).
      const parsed = query ? parseQueryString(query) : {};
      if (!('query' in r)) {
        r.query = parsed;
      }
      const context = new ExecutionContextHost([req, res, noop], EntriesController, handlerOf(route.handler));
      for (const guard of route.guards) {
        // As Nest's GuardsConsumer reads an answer: a boolean, a promise or an observable of one.
        const result = guard.canActivate(context);
        const value = typeof result === 'boolean' ? result : await result;
        if (!(typeof value === 'boolean' ? value : await lastValueFrom(value))) {
          throw new ForbiddenException('Forbidden resource');
        }
      }
      const handler = HANDLERS[route.handler];
      const body = await handler.call(this.controller, {
        def: definitionOf(req),
        id,
        req: r,
        query: parsed,
        caller: callerOf(req),
        res,
      });
      // An entry read by id carries its ETag; 304 when `If-None-Match` names it (as Express does
      // for a GET). An update's handler sets its tag itself.
      if (handler.method === 'GET') {
        const tag = withTag(res, body as object) && tagOf(body);
        if (tag && notModified(req.headers, tag)) {
          res.statusCode = 304;
          res.end();
          return;
        }
      }
      const json = JSON.stringify(body);
      res.statusCode = handler.status;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(json));
      // 'utf-8', not 'utf8': for 'utf8' Node joins the header and the body into one new string
      // before the write, a second on-heap copy of every answer; under any other name of the
      // same encoding it writes the two as separate chunks of one writev.
      res.end(json, 'utf-8');
    } catch (e) {
      sendProblem(req, res, e, this.logger);
    }
  }
}

function noop(): void {}

function handlerOf(name: LaneHandler): (...args: never[]) => unknown {
  return EntriesController.prototype[name];
}

/**
 * The lane's steps, derived from what Nest runs for the EntriesController handlers it takes: the
 * middlewares of the one list (`serviceMiddlewares`) whose routes cover each handler's path, and
 * the guards Nest has for it: every global guard registered (`APP_GUARD`), then the controller's
 * and the handler's `@UseGuards`, resolved to the instances Nest holds.
 */
export function laneSteps(modules: ModulesContainer, middlewares: readonly ServiceMiddleware[]): LaneSteps {
  const all = [...modules.values()];
  const host = all.find((m) => m.controllers.has(EntriesController));
  if (!host) {
    throw new Error('content lane: EntriesController is not mounted');
  }
  const unsupported: string[] = [];
  const globalGuards: CanActivate[] = [];
  for (const m of all) {
    for (const w of m.providers.values()) {
      if (w.subtype === 'guard') {
        globalGuards.push(w.instance as CanActivate);
      } else if (w.subtype === 'interceptor' || w.subtype === 'pipe') {
        unsupported.push(`global ${w.subtype} ${String(w.token)}`);
      }
    }
    for (const w of m.injectables.values()) {
      // Global enhancers that are request-scoped or transient live here, under a string token.
      if (typeof w.token === 'string' && w.subtype && w.subtype !== 'filter') {
        unsupported.push(`request-scoped global ${w.subtype} ${w.token}`);
      }
    }
  }
  const controllerGuards = declared(GUARDS_METADATA, EntriesController);
  if (declared(INTERCEPTORS_METADATA, EntriesController).length) {
    unsupported.push('interceptors of EntriesController');
  }
  const route = (handler: LaneHandler): LaneRoute => {
    const fn = handlerOf(handler);
    if (declared(INTERCEPTORS_METADATA, fn).length) {
      unsupported.push(`interceptors of EntriesController.${handler}`);
    }
    const guards = [...controllerGuards, ...declared(GUARDS_METADATA, fn)].map((g) => {
      if (typeof (g as CanActivate).canActivate === 'function') {
        return g as CanActivate;
      }
      const w = host.injectables.get(g as Type);
      if (!w?.isDependencyTreeStatic()) {
        unsupported.push(`guard ${(g as Type).name} of EntriesController.${handler}`);
      }
      return w?.instance as CanActivate;
    });
    return {
      handler,
      middlewares: middlewares.filter((m) =>
        m.routes.some((r) => mountedOn(r, HANDLERS[handler].path, HANDLERS[handler].method)),
      ),
      guards: [...globalGuards, ...guards],
    };
  };
  const routes = Object.fromEntries(
    (Object.keys(HANDLERS) as LaneHandler[]).map((handler) => [handler, route(handler)]),
  ) as Record<LaneHandler, LaneRoute>;
  return { routes, unsupported };
}

function declared(key: string, target: object): unknown[] {
  return (Reflect.getMetadata(key, target) as unknown[] | undefined) ?? [];
}

/**
 * Whether a middleware mounted on `route` runs for a `method` request of `path`: Express matches
 * the whole path against the route's pattern (case-insensitive, an optional trailing slash).
 */
export function mountedOn(
  route: ServiceRoute,
  path: string,
  method: 'GET' | 'POST' | 'PATCH' = 'GET',
): boolean {
  if (route.method !== RequestMethod.ALL && route.method !== RequestMethod[method]) {
    return false;
  }
  const source = route.path
    .replace(/^\/+/, '')
    .split('/')
    .map((segment) => {
      if (/^\{\*\w+\}$/.test(segment)) {
        return '.*';
      }
      if (/^:\w+$/.test(segment)) {
        return '[^/]+';
      }
      if (/[{}*:?()+]/.test(segment)) {
        throw new Error(`content lane: the route pattern "${route.path}" is not one it can match`);
      }
      return segment.replace(/[.\\^$|[\]]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^/${source}/?$`, 'i').test(path);
}

/**
 * Puts the lane in front of Express on the app's HTTP server (standalone server and tests; a
 * host application keeps plain Nest routes). `middlewares`: the service's list (SvcModule's).
 */
export function installContentLane(
  app: NestExpressApplication,
  middlewares: readonly ServiceMiddleware[],
): ContentLane {
  const lane = new ContentLane(
    app.get<SvcOptions>(SVC_OPTIONS),
    laneSteps(app.get(ModulesContainer), middlewares),
    app.get(EntriesController),
  );
  putInFront(app.getHttpServer() as Server, lane);
  return lane;
}
