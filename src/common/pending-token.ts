import type { Request } from 'express';

/** The cookie holding the pending token of a paused login (CONTRACTS 3.2). */
export const PENDING_COOKIE = 'svc_pending';

/**
 * The pending token a request carries: the body's `pendingToken`, else the `svc_pending`
 * cookie (a resumed page has only the cookie). Undefined when neither is a non-empty string.
 */
export function pendingTokenOf(req: Request, body: unknown): string | undefined {
  const fromBody =
    body && typeof body === 'object' ? (body as { pendingToken?: unknown }).pendingToken : undefined;
  if (typeof fromBody === 'string' && fromBody !== '') {
    return fromBody;
  }
  const fromCookie = (req.cookies as Record<string, unknown> | undefined)?.[PENDING_COOKIE];
  return typeof fromCookie === 'string' && fromCookie !== '' ? fromCookie : undefined;
}
