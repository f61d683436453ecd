import { Injectable, NestMiddleware } from '@nestjs/common';
import express, { NextFunction, Request, Response } from 'express';
import { ServiceError } from './errors';

/** The JSON body cap of CONTRACTS 8. */
export const JSON_BODY_LIMIT = '1mb';
const parseJson = express.json({ limit: JSON_BODY_LIMIT, strict: true, type: () => true });
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Parses JSON bodies for the service's routes and refuses any other media type with 415.
 * Errors are rejected from a promise so Nest hands them to the problem+json filter.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (!hasBody(req) || (req as { _body?: boolean })._body) {
      next();
      return;
    }
    const type = req.headers['content-type'];
    if (!type || !JSON_TYPE.test(type)) {
      throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be application/json', {
        contentType: type ?? null,
      });
    }
    await new Promise<void>((resolve, reject) =>
      parseJson(req, res, (err?: unknown) =>
        err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(),
      ),
    );
    next();
  }
}
