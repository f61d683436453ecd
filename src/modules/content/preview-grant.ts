import type { IncomingMessage } from 'node:http';
import { ServiceError } from '../../common/errors';
import type { Caller } from './content-route';
import type { Definition } from './content.types';

/** Where a front-end presents a preview token: this header, or the query parameter `preview`. */
export const PREVIEW_HEADER = 'x-preview-token';
export const PREVIEW_PARAM = 'preview';

/**
 * Marks the reads that take a preview token (the read of an entry by id and of a single). Set by
 * `ApiContentQuery` when the read's parameters include `preview`, so the routes the document
 * says take a token and the routes the access guard lets a token through are the same ones.
 */
export const PREVIEW_READ = 'svc:preview-read';

/** A preview token admitted for this request: the entry it names and who issued it. */
export interface PreviewGrant {
  kind: 'collection' | 'single';
  slug: string;
  entry: string;
  issuer: string;
}

const GRANT = Symbol('svc:preview-grant');
type WithGrant = { [GRANT]?: PreviewGrant };

/**
 * The preview token the request presents: undefined when none; '' when what it presents cannot
 * be one (a repeated or nested query value), which no verification accepts. Two different tokens
 * (header and query) are refused the same way: a read answers for one token only.
 */
export function presentedPreviewToken(req: IncomingMessage & { query?: unknown }): string | undefined {
  const header = req.headers[PREVIEW_HEADER];
  const query = (req.query as Record<string, unknown> | undefined)?.[PREVIEW_PARAM];
  if (header === undefined && query === undefined) {
    return undefined;
  }
  const fromHeader = typeof header === 'string' ? header : header === undefined ? undefined : '';
  const fromQuery = typeof query === 'string' ? query : query === undefined ? undefined : '';
  if (fromHeader !== undefined && fromQuery !== undefined && fromHeader !== fromQuery) {
    return '';
  }
  return (fromHeader ?? fromQuery)!;
}

export function grantPreview(req: object, grant: PreviewGrant): void {
  (req as WithGrant)[GRANT] = grant;
}

export function previewOf(req: object): PreviewGrant | undefined {
  return (req as WithGrant)[GRANT];
}

/**
 * The caller a preview read answers as: a visitor (related entries are populated as a visitor
 * sees them), still marked as previewing. Anything but a read of the entry the token names is
 * refused (the guard compared them already; this keeps a mistake from widening a token).
 */
export function previewCaller(caller: Caller, def: Definition, id: string): Caller {
  const grant = previewOf(caller.req);
  if (!grant) {
    return caller;
  }
  if (grant.kind !== def.kind || grant.slug !== def.slug || grant.entry !== id) {
    throw new ServiceError('AUTH_REQUIRED', 'The preview token is for another entry');
  }
  return { auth: null, req: caller.req };
}

/**
 * A preview read's query: without the token, and with every status (draft included) unless it
 * names one. The token never reaches the query cache.
 */
export function previewQuery(
  def: Definition,
  query: Record<string, unknown>,
  caller: Caller,
): Record<string, unknown> {
  if (!previewOf(caller.req)) {
    return query;
  }
  const { [PREVIEW_PARAM]: _token, ...rest } = query;
  return def.drafts && rest.status === undefined ? { ...rest, status: 'all' } : rest;
}
