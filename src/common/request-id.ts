import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** A client-sent id is echoed only when it is this sane (CONTRACTS 8); anything else gets a fresh one. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

type WithId = IncomingMessage & { id?: unknown };

/**
 * The request's id: decided once (by the logger middleware, or here when a request failed before
 * it), stored on `req.id` and sent back in `X-Request-Id`.
 */
export function ensureRequestId(req: IncomingMessage, res: ServerResponse): string {
  const holder = req as WithId;
  if (typeof holder.id === 'string') {
    return holder.id;
  }
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
  holder.id = id;
  if (!res.headersSent) {
    res.setHeader(REQUEST_ID_HEADER, id);
  }
  return id;
}
