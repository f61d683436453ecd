import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { requestStartedAt, stampRequestStart } from './request-start';

/**
 * Holds every answer of a route until `ms` after the request arrived, so its timing tells
 * nothing about the work done before it (SPEC 5.2.1 for `/auth/login`). It wraps `res.end`, the
 * one call every answer goes through, so it holds what interceptors cannot see: a guard's
 * refusal (CSRF, the auth budget), a body the parser refused, a 500.
 */
export function responseFloor(ms: number) {
  return function holdResponse(req: Request, res: Response, next: NextFunction): void {
    stampRequestStart(req, res, () => undefined);
    const deadline = requestStartedAt(req) + ms;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      const wait = deadline - performance.now();
      if (wait <= 0) {
        return end(...args);
      }
      setTimeout(() => end(...args), wait);
      return res;
    }) as Response['end'];
    next();
  };
}
