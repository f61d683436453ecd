import type { Params } from 'nestjs-pino';
import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { redactUrl } from './redact-url';

/** Header and field names whose values never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  // Not a credential here (keys travel only as Bearer), but clients try it: never log one.
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'refreshToken',
  'pendingToken',
  'secret',
  'config.password',
  '*.pass',
  '*.password',
  '*.newPassword',
  '*.currentPassword',
  '*.token',
  '*.refreshToken',
  '*.pendingToken',
  '*.secret',
];

export interface LoggerSettings {
  level: string;
  pretty: boolean;
  stream?: import('pino').DestinationStream;
}

interface LoggedRequest {
  id?: string;
  method?: string;
  url?: string;
  originalUrl?: string;
  headers: Record<string, unknown>;
}

/**
 * The request as a log line shows it. Secret-looking query values are redacted from the URL and
 * from the Referer (a page opened from an emailed link sends its own URL, token included, as the
 * Referer of its API calls); see `redactUrl`.
 */
function serializeRequest(req: LoggedRequest) {
  const url = req.originalUrl ?? req.url;
  const referer = req.headers.referer;
  const safeReferer = typeof referer === 'string' ? redactUrl(referer) : referer;
  return {
    id: req.id,
    method: req.method,
    url: url === undefined ? url : redactUrl(url),
    // Copied only when something was redacted: the headers object is the request's own.
    headers: safeReferer === referer ? req.headers : { ...req.headers, referer: safeReferer },
  };
}

/**
 * The service's root logger: JSON lines in production, one readable line per record in
 * development. `req`, `res` and `err` are serialised the way pino-http wrote them.
 */
export function createRootLogger(s: LoggerSettings): Logger {
  const stream =
    s.stream ?? (s.pretty ? pretty({ singleLine: true, colorize: process.stdout.isTTY }) : undefined);
  return pino(
    {
      level: s.level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        req: serializeRequest,
        res: pino.stdSerializers.res,
        err: pino.stdSerializers.err,
      },
    },
    stream as DestinationStream,
  );
}

/**
 * nestjs-pino's parameters: its `Logger`/`PinoLogger` write through `root`; the request binding
 * is the service's own middleware (`requestLogging`), so nestjs-pino mounts none.
 */
export function loggerParams(root: Logger): Params {
  return { pinoHttp: { logger: root }, useExisting: true, forRoutes: [] };
}

/** The root logger inside nestjs-pino's parameters (see `loggerParams`). */
export function rootLoggerOf(params: Params): Logger {
  return (params.pinoHttp as { logger: Logger }).logger;
}
