import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import type { Server } from 'node:http';
import { countRequests } from './common/request-load';
import { tracingConfigured } from './config/tracing-env';
import { installRouteIndex } from './route-index';
import { installContentLane } from './modules/content/entries/content-lane';
import { SVC_OPTIONS, SvcOptions } from './config/svc-options';
import { SERVICE_MIDDLEWARES, type ServiceMiddleware } from './svc.module';

/**
 * Everything the standalone server sets on the Express app. Tests call the same function, so they
 * see exactly what users see. Body parsing, cookies and errors live in SvcModule itself, so a host
 * application gets them too.
 */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const options = app.get<SvcOptions>(SVC_OPTIONS);
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.set('trust proxy', options.config.trustProxy);
  // Responses are small JSON documents; weak ETags would only cost a hash per response.
  app.set('etag', false);
  // Express's router decisions, per method and path, from an index (route-index.ts). With tracing
  // on, Express's own router runs, which the tracing instruments layer by layer.
  if (!tracingConfigured(process.env)) {
    installRouteIndex(app.getHttpAdapter().getInstance(), app.getHttpServer() as Server);
  }
  // Collection reads and single-entry writes go through the content lane, ahead of Express (see
  // content-lane.ts): the same middlewares (SvcModule's one list) and guards as the Nest routes.
  installContentLane(app, app.get<ServiceMiddleware[]>(SERVICE_MIDDLEWARES));
  // After the lane took the server's listeners: background work sees every request.
  countRequests(app.getHttpServer());
  return app;
}
