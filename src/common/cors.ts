import cors from 'cors';
import type { NextFunction, Request, Response } from 'express';
import type { SvcOptions } from '../config/svc-options';

/**
 * CORS of the service's routes (SPEC 5.1.4, 5.8): cross-origin frontends on an allowed origin
 * call with credentials; preflights are answered before any limit or authentication.
 */
export function serviceCors(options: SvcOptions) {
  const withOrigin = cors({
    origin: [new URL(options.publicUrl).origin, ...options.allowedOrigins],
    credentials: true,
    // Joined once here: given arrays, cors joins them again on every request.
    allowedHeaders: 'Content-Type,Authorization,X-CSRF-Token,X-Request-Id,X-Preview-Token',
    // The file headers too: a script reading a range or saving a download under its name needs them.
    exposedHeaders:
      'X-Request-Id,Retry-After,X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset,' +
      'Content-Range,Content-Disposition,ETag',
    maxAge: 600,
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    // A request without Origin is not a CORS request (a server, a script, a same-origin GET): the
    // CORS headers would be 250 bytes nobody reads on every answer. `Vary: Origin` stays, so a
    // cache never hands this answer to a browser's cross-origin request.
    if (req.headers.origin === undefined && req.method !== 'OPTIONS') {
      const vary = res.getHeader('Vary');
      res.setHeader('Vary', vary ? `${String(vary)}, Origin` : 'Origin');
      next();
      return;
    }
    withOrigin(req, res, next);
  };
}
