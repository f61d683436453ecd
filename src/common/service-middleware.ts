import type { RequestMethod } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A route a middleware is mounted on (Nest's `forRoutes` form). */
export interface ServiceRoute {
  path: string;
  method: RequestMethod;
}

export type ConnectMiddleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
) => unknown;

/**
 * One middleware of the service, with the routes it is mounted on: `serviceMiddlewares()` in
 * svc.module.ts lists them in run order, SvcModule mounts them and the content read lane runs
 * them (here, below both, so the lane need not import the module's wiring).
 */
export interface ServiceMiddleware {
  /** For the logs and the request pipeline test. */
  name: string;
  use: ConnectMiddleware;
  routes: ServiceRoute[];
}
