import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { BaseExceptionFilter, HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { QueryFailedError } from 'typeorm';
import { redactUrl } from '../redact-url';
import { ensureRequestId } from '../request-id';
import { codeForStatus, ErrorCode, ERROR_STATUS } from './error-codes';
import { ServiceError } from './service-error';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

const REFUSED_BUDGET = Symbol('svc:refused-budget');
type Refusable = ServerResponse & { [REFUSED_BUDGET]?: string };

/** The rate-limit budget a 429 answer was refused by (see `ServiceError.rateLimited`). */
export function refusedBudgetOf(res: ServerResponse): string | undefined {
  return (res as Refusable)[REFUSED_BUDGET];
}

interface Problem {
  status: number;
  code: ErrorCode;
  message: string;
  data?: Record<string, unknown>;
}

/** Errors raised by body-parser carry a `type`; these are the ones a client causes. */
const BODY_PARSER_ERRORS: Record<string, Omit<Problem, 'status'>> = {
  'entity.parse.failed': { code: 'VALIDATION_ERROR', message: 'The request body is not valid JSON' },
  'entity.too.large': { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large' },
  'encoding.unsupported': {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'The content encoding is not supported',
  },
  'charset.unsupported': { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The charset is not supported' },
  'request.aborted': { code: 'VALIDATION_ERROR', message: 'The request was aborted' },
  'request.size.invalid': { code: 'VALIDATION_ERROR', message: 'The request body length is wrong' },
};

/** Turns anything thrown into the problem the client sees. Nothing internal reaches `message`. */
export function toProblem(exception: unknown): Problem {
  if (exception instanceof ServiceError) {
    return {
      status: exception.status,
      code: exception.code,
      message: exception.message,
      data: exception.data,
    };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = codeForStatus(status);
    const body = exception.getResponse();
    let message = exception.message;
    if (typeof body === 'object' && body !== null && 'message' in body) {
      const m = (body as { message: unknown }).message;
      message = Array.isArray(m) ? m.join('; ') : String(m);
    }
    if (status === 404 && /^Cannot [A-Z]+ /.test(message)) {
      message = 'No such route';
    }
    return { status: ERROR_STATUS[code] === status ? status : ERROR_STATUS[code], code, message };
  }
  const parserType = (exception as { type?: unknown } | null)?.type;
  if (typeof parserType === 'string' && parserType in BODY_PARSER_ERRORS) {
    const known = BODY_PARSER_ERRORS[parserType];
    return { ...known, status: ERROR_STATUS[known.code] };
  }
  if (isStatementTimeout(exception)) {
    // The statement ran past SVC_DB_STATEMENT_TIMEOUT_MS: the database is busy (or the query too
    // heavy), not broken; the client may try again.
    return {
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'The database took too long to answer; try again',
      data: { retryAfterSeconds: STATEMENT_TIMEOUT_RETRY_AFTER },
    };
  }
  if (exception instanceof QueryFailedError || isPgConnectionError(exception)) {
    return { status: 500, code: 'DATABASE_ERROR', message: 'A database error occurred' };
  }
  return { status: 500, code: 'INTERNAL_ERROR', message: 'An unexpected error occurred' };
}

const STATEMENT_TIMEOUT_RETRY_AFTER = 5;

/** PostgreSQL's `query_canceled`: what `statement_timeout` raises. */
function isStatementTimeout(e: unknown): boolean {
  const code = e instanceof QueryFailedError ? (e.driverError as { code?: unknown }).code : undefined;
  return code === '57014' || (e as { code?: unknown } | null)?.code === '57014';
}

function isPgConnectionError(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|57P0\d|08\d{3})$/.test(code);
}

/**
 * Answers every failure under the service's mounts as `application/problem+json` with the SPEC 7
 * envelope. In a host application, failures of the host's own routes keep Nest's default answer.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ProblemDetails');
  private readonly fallback: BaseExceptionFilter;

  constructor(
    adapterHost: HttpAdapterHost,
    private readonly ownsPath: (path: string) => boolean,
  ) {
    this.fallback = new BaseExceptionFilter(adapterHost.httpAdapter);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') {
      throw exception;
    }
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    if (!this.ownsPath(req.path ?? req.url)) {
      this.fallback.catch(exception, host);
      return;
    }
    sendProblem(req, res, exception, this.logger);
  }
}

/**
 * Writes the problem for `exception` (SPEC 7): the Nest routes through the filter above, the
 * content read lane directly. 5xx failures are logged with the request id.
 */
export function sendProblem(
  req: IncomingMessage & { originalUrl?: string },
  res: ServerResponse,
  exception: unknown,
  logger: Pick<Logger, 'error'>,
): void {
  const problem = toProblem(exception);
  const requestId = ensureRequestId(req, res);
  if (exception instanceof ServiceError && exception.budget !== undefined) {
    (res as Refusable)[REFUSED_BUDGET] = exception.budget;
  }
  if (problem.status >= 500) {
    const url = redactUrl(req.originalUrl ?? req.url ?? '');
    logger.error({ err: exception, requestId }, `${req.method} ${url} failed`);
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  const retryAfter = problem.data?.retryAfterSeconds;
  if ((problem.code === 'RATE_LIMITED' || problem.status === 503) && typeof retryAfter === 'number') {
    res.setHeader('Retry-After', String(retryAfter));
  }
  const error: Record<string, unknown> = {
    code: problem.code,
    message: printable(problem.message),
    requestId,
  };
  if (problem.data !== undefined) {
    error.data = printableIssues(problem.data);
  }
  res.statusCode = problem.status;
  res.setHeader('Content-Type', PROBLEM_CONTENT_TYPE);
  // A failure is never cached: a client or a balancer must see the recovery at once.
  res.setHeader('Cache-Control', 'no-store');
  const body = JSON.stringify({ error });
  // Set, not left to chunked encoding: the access line reports it, and clients can read it.
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

/** Longest message (and issue path) an error answer carries: an echoed value is cut to fit. */
const MAX_MESSAGE = 300;
/** Control, bidi-override and line-separator characters, and unpaired surrogates. */
const UNPRINTABLE = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]|\p{Cs}/gu;

/**
 * Messages may echo what a client sent (a slug, an id, a name): escaped to a short, printable
 * form, so an answer never carries a NUL, a right-to-left override or a line break from input,
 * nor a 100 KB string back.
 */
export function printable(text: string): string {
  const escaped = text.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > MAX_MESSAGE ? `${escaped.slice(0, MAX_MESSAGE - 1)}…` : escaped;
}

/**
 * Issues listed at most in one answer: a body of 50,000 unknown keys would otherwise be answered
 * with 50,000 issues (megabytes). The count of the others is in `data.omittedErrors`.
 */
const MAX_LISTED_ISSUES = 50;

/** `data.errors[]` (validation issues) get the same treatment; other data is the service's own. */
function printableIssues(data: Record<string, unknown>): Record<string, unknown> {
  if (!Array.isArray(data.errors)) {
    return data;
  }
  const all = data.errors as Array<Record<string, unknown>>;
  const omitted = all.length - MAX_LISTED_ISSUES;
  const errors = all.slice(0, MAX_LISTED_ISSUES).map((e) => ({
    ...e,
    ...(typeof e.path === 'string' ? { path: printable(e.path) } : {}),
    ...(typeof e.message === 'string' ? { message: printable(e.message) } : {}),
  }));
  return omitted > 0 ? { ...data, errors, omittedErrors: omitted } : { ...data, errors };
}
