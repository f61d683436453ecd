import type { Express } from 'express';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { putInFront } from './common/front-listener';

/** An Express handler, as a router layer holds it (`(req, res, next)`, or `(err, req, res, next)`). */
type Handler = (...args: unknown[]) => unknown;

/** The parts of Express 5's router (package `router` 2.x) the index reads. */
interface RouterLayer {
  handle: Handler;
  method?: string;
  route?: RouterRoute;
  match(path: string): { params: Record<string, unknown>; path: string } | false;
}
interface RouterRoute {
  path: string;
  methods: Record<string, boolean>;
  stack: RouterLayer[];
  _handlesMethod(method: string): boolean;
}
interface Router {
  stack: RouterLayer[];
  params: Record<string, unknown>;
}

/** One handler Express would run for a request, with what it sets on the request first. */
interface Step {
  handle: Handler;
  params: Record<string, unknown>;
  /** The route the handler belongs to; none for an `app.use` middleware. */
  route: RouterRoute | undefined;
  /** An error handler (four parameters): run only while an error is pending, and then only these. */
  errorHandler: boolean;
}

type ExpressRequest = IncomingMessage & Record<string, unknown>;
type ExpressResponse = ServerResponse & Record<string, unknown>;

/** Characters after which `parseurl` (what Express uses) falls back to a full URL parse. */
const UNUSUAL_URL = /[\t\n\f\r #\u00a0\ufeff]/;
/** Chains kept, by method and path; paths with ids make more keys than routes, the oldest go first. */
const CACHE_SIZE = 1000;
const CACHE_PATH_MAX = 256;

/**
 * The Express router's decisions, computed once per method and path. Express 5 tests a request
 * against every layer of its router in turn: here about 200 (Nest mounts every middleware as an
 * all-methods route of 35 handlers, one per HTTP method, on each of its paths, and every
 * controller route as a layer), which is most of the router's cost on every request
 * (docs/performance.md). Which handlers run for a request depends only on its method and path
 * (and on the layers, fixed once the app has started), so the index runs the very handlers
 * Express would run, in the same order, with the same `req.params` and `req.route`, from a
 * cache. Requests it cannot answer exactly as Express would go to Express untouched: `OPTIONS`
 * (Express answers unrouted ones itself), a URL that is not a plain path (`parseurl` would parse
 * it fully), a layer mounted on a path prefix (Express rewrites `req.url` under it), `router.param`
 * callbacks, and a path a layer fails to decode.
 */
export class RouteIndex {
  private readonly chains = new Map<string, Step[] | null>();
  private stackSize = -1;

  constructor(
    private readonly app: Express,
    private readonly cacheSize = CACHE_SIZE,
  ) {}

  /** Method-and-path chains held. */
  get cached(): number {
    return this.chains.size;
  }

  /** Runs the request's handlers and says true, or says false and leaves it to Express. */
  take(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '';
    const method = req.method ?? '';
    if (url.charCodeAt(0) !== 47 /* / */ || method === 'OPTIONS' || UNUSUAL_URL.test(url)) {
      return false;
    }
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const chain = this.chainFor(method, path);
    if (!chain) {
      return false;
    }
    this.run(chain, req as ExpressRequest, res as ExpressResponse);
    return true;
  }

  private chainFor(method: string, path: string): Step[] | null {
    const router = (this.app as unknown as { router: Router }).router;
    if (router.stack.length !== this.stackSize) {
      this.chains.clear();
      this.stackSize = router.stack.length;
    }
    const key = `${method} ${path}`;
    let chain = this.chains.get(key);
    if (chain === undefined) {
      chain = chainOf(router, method, path);
      if (path.length <= CACHE_PATH_MAX) {
        if (this.chains.size >= this.cacheSize) {
          this.chains.delete(this.chains.keys().next().value as string);
        }
        this.chains.set(key, chain);
      }
    }
    return chain;
  }

  /** What `app.handle` and the router set up, then the handlers in order, as the router runs them. */
  private run(chain: readonly Step[], req: ExpressRequest, res: ExpressResponse): void {
    const app = this.app;
    if (app.enabled('x-powered-by')) {
      res.setHeader('X-Powered-By', 'Express');
    }
    req.res = res;
    (res as { req: unknown }).req = req;
    // A no-op where the server made the objects with these prototypes (http-server.ts).
    Object.setPrototypeOf(req, app.request);
    Object.setPrototypeOf(res, app.response);
    res.locals ??= Object.create(null);
    req.baseUrl = '';
    req.originalUrl ||= req.url;
    let i = 0;
    let paramsOf: Step['params'] | undefined;
    const next = (err?: unknown): void => {
      const current = chain[i - 1]?.route;
      if (err === 'route') {
        // Skips the rest of the current route's handlers.
        while (i < chain.length && current && chain[i].route === current) {
          i++;
        }
        err = undefined;
      } else if (err === 'router') {
        // Leaves the router: nothing after runs.
        i = chain.length;
        err = undefined;
      }
      while (i < chain.length) {
        const step = chain[i++];
        // With an error pending only error handlers run: `app.use` ones, or those of the route
        // the error came from (the router skips other routes while an error is pending).
        const runs = err
          ? step.errorHandler && (step.route === undefined || step.route === current)
          : !step.errorHandler;
        if (!runs) {
          continue;
        }
        // A fresh copy per layer, as Express matches afresh for each: the handlers of one route
        // share the route's match (one object in chainOf), so they share the copy too.
        if (step.params !== paramsOf) {
          paramsOf = step.params;
          req.params = copyParams(paramsOf);
        }
        if (step.route && step.route !== req.route) {
          req.route = step.route;
        }
        invoke(step.handle, err ? [err, req, res, next] : [req, res, next], next);
        return;
      }
      // Nest ends the stack with a catch-all not-found handler and an error handler, which always
      // answer: reaching the end means a handler passed on what Nest treats as final.
      if (!res.headersSent) {
        res.statusCode = err ? 500 : 404;
        res.end();
      }
    };
    req.next = next;
    next();
  }
}

/** A fresh copy of cached params (a wildcard's value is an array of segments). */
function copyParams(params: Step['params']): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key in params) {
    const value = params[key];
    copy[key] = Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  return copy;
}

/** Calls a handler as the router's `Layer` does: a throw or a rejected promise goes to `next`. */
function invoke(handle: Handler, args: unknown[], next: (err?: unknown) => void): void {
  try {
    const result = handle(...args) as { then?: unknown } | undefined;
    if (result && typeof result.then === 'function') {
      (result as Promise<unknown>).then(undefined, (e: unknown) => next(e ?? new Error('Rejected promise')));
    }
  } catch (e) {
    next(e);
  }
}

/**
 * The handlers Express would run for `method` and `path`, in order (Router.handle and
 * Route.dispatch of `router` 2.x), or null where the index leaves the request to Express.
 */
function chainOf(router: Router, method: string, path: string): Step[] | null {
  if (Object.keys(router.params).length > 0) {
    return null;
  }
  const lower = method.toLowerCase();
  const steps: Step[] = [];
  for (const layer of router.stack) {
    let match;
    try {
      match = layer.match(path);
    } catch {
      return null; // a malformed escape: Express answers it
    }
    if (!match) {
      continue;
    }
    const route = layer.route;
    if (!route) {
      if (match.path !== '') {
        return null; // mounted on a prefix: Express would strip it from req.url
      }
      if (runnable(layer)) {
        steps.push({
          handle: layer.handle,
          params: match.params,
          route: undefined,
          errorHandler: isErrorHandler(layer),
        });
      }
      continue;
    }
    // A HEAD request is served by the GET handlers of a route without its own HEAD ones.
    if (!route._handlesMethod(method) && method !== 'HEAD') {
      continue;
    }
    const dispatched = lower === 'head' && !route.methods.head ? 'get' : lower;
    for (const inner of route.stack) {
      if ((!inner.method || inner.method === dispatched) && runnable(inner)) {
        steps.push({
          handle: inner.handle,
          params: match.params,
          route,
          errorHandler: isErrorHandler(inner),
        });
      }
    }
  }
  return steps;
}

function isErrorHandler(layer: RouterLayer): boolean {
  return layer.handle.length === 4;
}

/** The router skips a handler of more than four parameters in both modes. */
function runnable(layer: RouterLayer): boolean {
  return layer.handle.length <= 4;
}

/**
 * Puts the index in front of Express on the app's HTTP server: each request goes to the index,
 * or, when it does not take it, to the listeners that were there (Express).
 */
export function installRouteIndex(app: Express, server: Server, cacheSize?: number): RouteIndex {
  const index = new RouteIndex(app, cacheSize);
  putInFront(server, index);
  return index;
}
