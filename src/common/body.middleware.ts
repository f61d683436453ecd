import { Injectable, NestMiddleware } from '@nestjs/common';
import express, { NextFunction, Request, Response } from 'express';
import { ServiceError, ValidationIssue } from './errors';
import { inputProblem, MAX_BODY_DEPTH } from './input';

/** The JSON body cap of CONTRACTS 8 (of the decoded body, whatever its Content-Encoding). */
export const JSON_BODY_LIMIT = '1mb';
const parseJson = express.json({ limit: JSON_BODY_LIMIT, strict: true, type: () => true });
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;
const MULTIPART_TYPE = /^multipart\/form-data\s*;/i;

/**
 * The one route whose body is not JSON: the media upload (CONTRACTS 11), a `multipart/form-data`
 * body its handler streams itself. Exactly this method and path (no trailing slash, no other
 * case): any other spelling gets the JSON rules, so its body is refused, never left unread.
 */
export const MULTIPART_ROUTES: ReadonlyArray<{ method: string; path: string }> = [
  { method: 'POST', path: '/admin/api/collections/media/entries' },
];

function isMultipartRoute(req: Request): boolean {
  const type = req.headers['content-type'];
  if (!type || !MULTIPART_TYPE.test(type)) {
    return false;
  }
  const url = req.originalUrl ?? req.url;
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return MULTIPART_ROUTES.some((r) => r.method === req.method && r.path === path);
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Every request to the service's routes passes here before anything reads its input: the URL may
 * not carry a NUL (`%00`: PostgreSQL refuses it in text, so a path segment or query value holding
 * one would fail deep in a query), and a body must be JSON (else 415), decodable (a
 * `Content-Encoding` of gzip, deflate or br; another is 415, bytes that do not decode are 400),
 * at most 1 MiB once decoded (413), at most MAX_BODY_DEPTH levels deep, and hold only well-formed
 * strings (no NUL, no unpaired surrogate) in keys and values (400 naming the path); only the media
 * upload route takes a `multipart/form-data` body instead (MULTIPART_ROUTES). The walk is
 * iterative, so no depth of input can overflow a stack here or in anything after it.
 * Errors are thrown, or rejected from the promise of a body read, and Nest hands either to the
 * problem+json filter.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  /** Synchronous for a request without a body (reads): no promise to make and await. */
  use(req: Request, res: Response, next: NextFunction): void | Promise<void> {
    if (/%00/.test(req.originalUrl ?? req.url)) {
      throw ServiceError.validation(
        [{ path: 'url', code: 'invalidString', message: 'the URL must not contain a NUL character (%00)' }],
        'The request URL is not valid',
      );
    }
    if (!hasBody(req) || (req as { _body?: boolean })._body || isMultipartRoute(req)) {
      next();
      return;
    }
    return this.parse(req, res, next);
  }

  private async parse(req: Request, res: Response, next: NextFunction): Promise<void> {
    const type = req.headers['content-type'];
    if (!type || !JSON_TYPE.test(type)) {
      throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json', {
        contentType: type ?? null,
      });
    }
    await new Promise<void>((resolve, reject) =>
      parseJson(req, res, (err?: unknown) => (err ? reject(bodyError(err)) : resolve())),
    );
    const problems = inputProblem(req.body);
    if (problems) {
      throw ServiceError.validation(problems.issues, problems.message);
    }
    next();
  }
}

/**
 * body-parser's refusals carry a `type` the problem filter knows; a stream that fails to decode
 * (gzip bytes that are not gzip) comes as a bare 400 whose cause is a zlib error, which would
 * otherwise be a 500.
 */
function bodyError(err: unknown): Error {
  const e = err as { type?: unknown; status?: unknown };
  if (typeof e.type === 'string') {
    return err as Error;
  }
  if (e.status === 400) {
    const issues: ValidationIssue[] = [
      { path: '', code: 'undecodable', message: 'the body could not be decoded with its Content-Encoding' },
    ];
    return ServiceError.validation(issues, 'The request body could not be read');
  }
  return err instanceof Error ? err : new Error(String(err));
}

export { MAX_BODY_DEPTH };
