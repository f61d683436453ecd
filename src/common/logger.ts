import type { Params } from 'nestjs-pino';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pretty from 'pino-pretty';
import { ensureRequestId } from './request-id';

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
  /** Limit request logging to these paths (host mode); all paths when absent. */
  forRoutes?: Params['forRoutes'];
}

/**
 * JSON lines in production, one readable line per record in development. Every line logged while
 * a request is handled carries its id as `req.id` (nestjs-pino keeps it in async context).
 */
export function loggerParams(s: LoggerSettings): Params {
  const stream =
    s.stream ?? (s.pretty ? pretty({ singleLine: true, colorize: process.stdout.isTTY }) : undefined);
  return {
    forRoutes: s.forRoutes,
    pinoHttp: [
      {
        level: s.level,
        genReqId: (req: IncomingMessage, res: ServerResponse) => ensureRequestId(req, res),
        // The per-request child logger carries only the id (`reqId`): binding the whole request
        // would serialise and redact it on every request, logged or not. The completion line still
        // has the full request.
        quietReqLogger: true,
        redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
        customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : 'info'),
        serializers: {
          req: (req: { id: string; method: string; url: string; headers: Record<string, unknown> }) => ({
            id: req.id,
            method: req.method,
            url: req.url,
            headers: req.headers,
          }),
        },
      },
      stream as import('pino').DestinationStream,
    ],
  };
}
