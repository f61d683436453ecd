import cors from 'cors';
import type { SvcOptions } from '../config/svc-options';

/**
 * CORS of the service's routes (SPEC 5.1.4, 5.8): cross-origin frontends on an allowed origin
 * call with credentials; preflights are answered before any limit or authentication.
 */
export function serviceCors(options: SvcOptions) {
  return cors({
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
}
