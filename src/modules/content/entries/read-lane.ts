import { Logger } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import { PARAMS_PROVIDER_TOKEN, type Params } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import { serviceCors } from '../../../common/cors';
import { ServiceError } from '../../../common/errors';
import { sendProblem } from '../../../common/errors/problem-details.filter';
import { parseId } from '../../../common/id.pipe';
import { rootLoggerOf } from '../../../common/logger';
import { requestLogging } from '../../../common/request-logging';
import { skipAdminApi } from '../../../config/config-file';
import { SVC_OPTIONS, type SvcOptions } from '../../../svc.options';
import { ApiKeysService } from '../../api-keys/api-keys.service';
import type { AuthContext } from '../../auth/auth-context';
import { AuthenticationService } from '../../auth/authentication.service';
import { ContentAccessService } from '../content-access.service';
import { SchemaService } from '../schema.service';
import { EntriesService } from './entries.service';

/** `/admin/api/collections/{slug}/entries`, `.../count` or `.../{id}`, with an optional query. */
const READ_ROUTE = /^\/admin\/api\/collections\/([a-z0-9-]+)\/entries(?:\/([A-Za-z0-9-]+))?(?:\?([^#]*))?$/;

type Next = (err?: unknown) => void;
type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

/**
 * The content read lane: `GET` list, count and get-by-id of collection entries, answered straight
 * from the HTTP server, ahead of Express and Nest. Express and Nest cost a fixed ~0.3 ms of CPU
 * per request here, more than the whole read; the issue 7 bench targets (0.6x and 0.8x a bare
 * `node:http` + `pg` server) are out of reach through them (docs/decisions.md).
 *
 * The lane is the same pipeline, not a second implementation: the same request logger, CORS and
 * cookie middlewares, the same authentication, API-key budget, content access rules, query
 * language, entries service and problem answers as the Nest routes in `EntriesController`, in the
 * same order. It takes only requests it answers identically (an e2e test sends each request both
 * ways and compares); anything else goes on to Express untouched:
 * - other methods (HEAD included), other paths, percent-encoded or upper-case path parts, a body;
 * - a config whose global rate limit `skip` is not the default one (which skips these paths): a
 *   custom `skip` is written for Express's request object;
 * - a config with a code-defined `read` rule function on any collection or single: such rules
 *   get the Express request too (also when another collection is populated through `depth`).
 */
export class ContentReadLane {
  private readonly logger = new Logger('ProblemDetails');
  private readonly enabled: boolean;
  private readonly middlewares: Middleware[];

  constructor(
    options: SvcOptions,
    logParams: Params,
    private readonly auth: AuthenticationService,
    private readonly apiKeys: ApiKeysService,
    private readonly schema: SchemaService,
    private readonly access: ContentAccessService,
    private readonly entries: EntriesService,
  ) {
    const { collections, singles, rateLimit } = options.config;
    this.enabled =
      options.standalone &&
      rateLimit.skip === skipAdminApi &&
      ![...collections, ...singles].some((c) => typeof c.access?.read === 'function');
    // The middlewares SvcModule mounts on these routes, in its order (the global rate limit
    // skips them; a GET without a body leaves nothing to the body parser).
    this.middlewares = [
      requestLogging(rootLoggerOf(logParams), { trustProxy: options.config.trustProxy }),
      serviceCors(options) as Middleware,
      cookieParser() as unknown as Middleware,
    ];
  }

  /** Answers the request and says true, or says false and leaves it untouched. */
  take(req: IncomingMessage, res: ServerResponse): boolean {
    if (!this.enabled || req.method !== 'GET') {
      return false;
    }
    const match = READ_ROUTE.exec(req.url ?? '');
    if (!match || req.headers['content-length'] !== undefined || req.headers['transfer-encoding']) {
      return false;
    }
    const [, slug, id, query] = match;
    this.run(0, req, res, () => void this.serve(req, res, slug, id, query));
    return true;
  }

  private run(i: number, req: IncomingMessage, res: ServerResponse, done: () => void): void {
    if (i === this.middlewares.length) {
      done();
      return;
    }
    this.middlewares[i](req, res, (err?: unknown) => {
      if (err) {
        sendProblem(req, res, err, this.logger);
        return;
      }
      this.run(i + 1, req, res, done);
    });
  }

  /** AuthenticationGuard (optional credentials), ContentAccessGuard, then EntriesController. */
  private async serve(
    req: IncomingMessage,
    res: ServerResponse,
    slug: string,
    id: string | undefined,
    query: string | undefined,
  ): Promise<void> {
    try {
      const auth: AuthContext | null = await this.auth.authenticate(req as never);
      if (auth?.apiKey) {
        await this.apiKeys.consumeRateLimit(auth.apiKey.id, res as never);
      }
      const def = await this.schema.find('collection', slug);
      if (!def) {
        throw auth
          ? new ServiceError('NOT_FOUND', 'No such collection')
          : new ServiceError('AUTH_REQUIRED', 'Sign in to use this route');
      }
      await this.access.require(def, 'read', auth, req as never);
      const params = query ? parseQueryString(query) : {};
      const caller = { auth, req: req as never };
      const body =
        id === undefined
          ? await this.entries.list(def, params, caller)
          : id === 'count'
            ? await this.entries.count(def, params, caller)
            : await this.entries.get(def, parseId(id, 'entry'), params, caller);
      const json = JSON.stringify(body);
      res.statusCode = 200;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Content-Length', Buffer.byteLength(json));
      res.end(json);
    } catch (e) {
      sendProblem(req, res, e, this.logger);
    }
  }
}

/**
 * Puts the lane in front of Express on the app's HTTP server (standalone server and tests; a
 * host application keeps plain Nest routes).
 */
export function installReadLane(app: NestExpressApplication): ContentReadLane {
  const lane = new ContentReadLane(
    app.get<SvcOptions>(SVC_OPTIONS),
    app.get<Params>(PARAMS_PROVIDER_TOKEN),
    app.get(AuthenticationService),
    app.get(ApiKeysService),
    app.get(SchemaService),
    app.get(ContentAccessService),
    app.get(EntriesService),
  );
  const server = app.getHttpServer() as import('node:http').Server;
  const rest = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!lane.take(req, res)) {
      for (const listener of rest) {
        listener.call(server, req, res);
      }
    }
  });
  return lane;
}
