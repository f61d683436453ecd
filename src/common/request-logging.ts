import express from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Store, storage } from 'nestjs-pino/storage';
import type { Logger } from 'pino';
import { redactUrl } from './redact-url';
import { ensureRequestId } from './request-id';

/** The messages of the access line (one per request). */
export const REQUEST_COMPLETED = 'request completed';
export const REQUEST_ABORTED = 'request aborted';
export const REQUEST_ERRORED = 'request errored';

/**
 * Who made the request, as the access line shows it: the user, or the API key and the user who
 * created it (on whose behalf it acts). Ids only: never a token, a cookie or a key.
 */
export interface Principal {
  via: 'session' | 'bearer' | 'api-key';
  userId: string;
  apiKeyId?: string;
}

/** The access line, as logged (JSON): `undefined` fields are left out of the line. */
export interface AccessLine {
  reqId: string;
  method: string | undefined;
  /** Path and query, secret-looking query values redacted (`redactUrl`). */
  path: string;
  /** Absent when the client went away before the status was sent. */
  status: number | undefined;
  durationMs: number;
  ip: string | undefined;
  userAgent: string | undefined;
  /** The response's `Content-Length` (bytes); absent when it had none (204, 304, streamed). */
  contentLength: number | undefined;
  principal: Principal | undefined;
  /** 5xx only: the first error logged while the request was handled (its own line has the stack). */
  error: { type: string; message: string } | undefined;
  /** With tracing on: the trace this request is part of (continued from its `traceparent`). */
  traceId: string | undefined;
}

const PRINCIPAL = Symbol('svc:principal');
const STORE = Symbol('svc:request-store');
/** A User-Agent is logged up to this length (a client may send kilobytes). */
const MAX_USER_AGENT = 256;
const MAX_ERROR_MESSAGE = 300;

type WithPrincipal = { [PRINCIPAL]?: Principal };
type LoggedRequest = IncomingMessage & WithPrincipal & { originalUrl?: string; ip?: unknown };
type LoggedResponse = ServerResponse & { [STORE]?: RequestStore };

/** What an authenticated request resolved to (AuthContext, structurally). */
interface Authenticated {
  method: Principal['via'];
  user: { id: string };
  apiKey?: { id: string };
}

/**
 * Notes who made the request, for its access line. Called where credentials are checked
 * (`AuthenticationService.authenticate`), so Express routes and the read lane both have it.
 */
export function recordPrincipal(req: object, auth: Authenticated | null): void {
  if (auth) {
    (req as WithPrincipal)[PRINCIPAL] = auth.apiKey
      ? { via: auth.method, userId: auth.user.id, apiKeyId: auth.apiKey.id }
      : { via: auth.method, userId: auth.user.id };
  }
}

/**
 * The request's slot in the async context (nestjs-pino's storage): the request's logger, made on
 * first use (most requests log nothing but their access line), and the error a 5xx is about.
 */
export class RequestStore {
  private child: Logger | undefined = undefined;
  failure: AccessLine['error'] = undefined;
  traceId: string | undefined = undefined;

  constructor(
    readonly log: AccessLog,
    readonly reqId: string,
    readonly started: number,
    private readonly req?: LoggedRequest,
  ) {}

  /**
   * Who the request came from, for the audit rows written while it is handled (CONTRACTS 14.3):
   * the client IP as the access line has it, the User-Agent, and the authenticated user's id.
   */
  client(): { ip: string | null; userAgent: string | null; actorId: string | null } {
    const req = this.req;
    if (!req) {
      return { ip: null, userAgent: null, actorId: null };
    }
    const agent = req.headers['user-agent'];
    return {
      ip: this.log.clientIp(req) ?? null,
      userAgent: typeof agent === 'string' ? agent.slice(0, MAX_USER_AGENT) : null,
      actorId: req[PRINCIPAL]?.userId ?? null,
    };
  }

  get logger(): Logger {
    return (this.child ??= this.log.root.child({ reqId: this.reqId }));
  }

  /** nestjs-pino's `PinoLogger.assign` replaces the request's logger. */
  set logger(logger: Logger) {
    this.child = logger;
  }
}

/**
 * Keeps the first error logged (at `error` or above) while a request is handled, for its access
 * line: the root logger's `logMethod` hook calls it with the record's first argument.
 */
export function noteFailure(first: unknown): void {
  const err = first instanceof Error ? first : (first as { err?: unknown } | null)?.err;
  if (!(err instanceof Error)) {
    return;
  }
  const store = storage.getStore() as unknown;
  if (store instanceof RequestStore && store.failure === undefined) {
    const message = String(err.message);
    store.failure = {
      type: err.constructor?.name || err.name,
      message: message.length > MAX_ERROR_MESSAGE ? `${message.slice(0, MAX_ERROR_MESSAGE - 1)}…` : message,
    };
  }
}

export interface RequestLoggingOptions {
  /**
   * Express's `trust proxy` setting, for requests that are not Express's (the content read lane):
   * their client IP is decided the way Express decides `req.ip`. Express requests use `req.ip`.
   */
  trustProxy?: boolean | number | string;
  /** The trace the request is part of (tracing on), read as it arrives: `traceId` on its line. */
  traceId?: () => string | undefined;
  /** Called once per request when its response is done (or abandoned), with its duration. */
  onDone?: (req: IncomingMessage, res: ServerResponse, seconds: number) => void;
}

/**
 * The request logger of every service route and of the content read lane. It gives the request
 * its id (CONTRACTS 8), makes the request's store (a child logger carrying the id, `reqId`, made
 * on first use) the async context's, so every line logged while the request is handled has the
 * id (nestjs-pino's `PinoLogger` reads the same storage), and writes one access line when the
 * response is done: `info` "request completed" (or "request aborted"), `error` "request errored"
 * for a 5xx. The line (see `AccessLine`) is built only then, and only when its level is enabled:
 * no headers, no body.
 *
 * Why not pino-http (what nestjs-pino mounts): it serialises and redacts the whole request into a
 * child logger on every request, logged or not, which measured as a third of the service's CPU
 * per read (docs/decisions.md).
 */
export function requestLogging(root: Logger, options: RequestLoggingOptions = {}) {
  const log: AccessLog = {
    root,
    // The line's fields are fixed and none is a redacted name (REDACTED_PATHS): its writer skips
    // the redaction, whose `*.name` paths cost ~10 µs a line (bench/log-cost.mjs). Its level is
    // the root's, checked in `logAccess`.
    lines: root.child({}, { level: 'trace', redact: [] }),
    clientIp: clientIpOf(options.trustProxy ?? false),
    onDone: options.onDone,
    traceId: options.traceId,
  };
  return function logRequest(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const store = new RequestStore(log, ensureRequestId(req, res), performance.now(), req);
    if (log.traceId) {
      store.traceId = log.traceId();
    }
    if (root.isLevelEnabled('info')) {
      // Read now, the socket keeps it: once a client has gone away, it has no address left to ask.
      void req.socket?.remoteAddress;
    }
    (res as LoggedResponse)[STORE] = store;
    // 'close' follows 'finish' on every response, and comes alone when the client went away.
    res.once('close', logAccess);
    storage.run(store as unknown as Store, next);
  };
}

/** What every request of one `requestLogging` shares. */
interface AccessLog {
  root: Logger;
  /** Writes the access lines (see `requestLogging`). */
  lines: Logger;
  clientIp: (req: LoggedRequest) => string | undefined;
  onDone?: RequestLoggingOptions['onDone'];
  traceId?: RequestLoggingOptions['traceId'];
}

function logAccess(this: LoggedResponse): void {
  const store = this[STORE]!;
  store.log.onDone?.(this.req, this, (performance.now() - store.started) / 1000);
  const failed = this.statusCode >= 500;
  if (!store.log.root.isLevelEnabled(failed ? 'error' : 'info')) {
    return;
  }
  const line = accessLine(this.req as LoggedRequest, this, store);
  if (failed) {
    store.log.lines.error(line, REQUEST_ERRORED);
  } else {
    store.log.lines.info(line, this.writableEnded ? REQUEST_COMPLETED : REQUEST_ABORTED);
  }
}

function accessLine(req: LoggedRequest, res: LoggedResponse, store: RequestStore): AccessLine {
  const ua = req.headers['user-agent'];
  const length = res.getHeader('content-length');
  const bytes = typeof length === 'number' ? length : typeof length === 'string' ? Number(length) : NaN;
  return {
    reqId: store.reqId,
    method: req.method,
    path: redactUrl(req.originalUrl ?? req.url ?? ''),
    status: res.headersSent ? res.statusCode : undefined,
    durationMs: Math.round((performance.now() - store.started) * 1000) / 1000,
    ip: store.log.clientIp(req),
    userAgent: ua === undefined || ua.length <= MAX_USER_AGENT ? ua : ua.slice(0, MAX_USER_AGENT),
    // Only what was sent: an answer set up but never sent (the client left) has no length.
    contentLength: res.headersSent && Number.isFinite(bytes) ? bytes : undefined,
    principal: req[PRINCIPAL],
    error: res.statusCode >= 500 ? store.failure : undefined,
    traceId: store.traceId,
  };
}

type Trust = (addr: string, hop: number) => boolean;

/**
 * The client IP: Express's `req.ip`, or for a request Express has not seen, the same answer
 * computed from the socket and `X-Forwarded-For` with Express's own compiled `trust proxy`.
 */
function clientIpOf(trustProxy: boolean | number | string): (req: LoggedRequest) => string | undefined {
  const trust: Trust = trustProxy
    ? (express().set('trust proxy', trustProxy).get('trust proxy fn') as Trust)
    : () => false;
  return (req) => (typeof req.ip === 'string' ? req.ip : forwardedFor(req, trust));
}

/** proxy-addr's answer: the first address, from the socket back along X-Forwarded-For, not trusted. */
function forwardedFor(req: IncomingMessage, trust: Trust): string | undefined {
  let addr = req.socket?.remoteAddress;
  const header = req.headers['x-forwarded-for'];
  if (addr === undefined || typeof header !== 'string' || !trust(addr, 0)) {
    return addr;
  }
  const hops = header.split(',');
  for (let i = hops.length - 1, hop = 1; i >= 0; i--) {
    const next = hops[i].trim();
    if (next !== '') {
      addr = next;
      if (!trust(addr, hop++)) {
        break;
      }
    }
  }
  return addr;
}

/** The client of the HTTP request being handled (see `RequestStore.client`); undefined outside one. */
export function currentClient(): ReturnType<RequestStore['client']> | undefined {
  const store = storage.getStore() as unknown;
  return store instanceof RequestStore ? store.client() : undefined;
}
