import type { NextFunction, Request, Response } from 'express';

const STARTED_AT = Symbol('svc:startedAt');
type Stamped = { [STARTED_AT]?: number };

/** First middleware on the service's routes: when the request arrived (monotonic clock, ms). */
export function stampRequestStart(req: Request, _res: Response, next: NextFunction): void {
  (req as Stamped)[STARTED_AT] ??= performance.now();
  next();
}

export function requestStartedAt(req: unknown): number {
  return (req as Stamped)[STARTED_AT] ?? performance.now();
}
