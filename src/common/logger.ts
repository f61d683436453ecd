import type { Params } from 'nestjs-pino';
import pino, { type DestinationStream, type Logger } from 'pino';
import { prettyFactory } from 'pino-pretty';
import { redactUrl } from './redact-url';
import {
  type AccessLine,
  noteFailure,
  REQUEST_ABORTED,
  REQUEST_COMPLETED,
  REQUEST_ERRORED,
} from './request-logging';

/**
 * Field names whose values never reach a log line. No header is logged at all (the `req`/`res`
 * serializers and the access line leave them out), so no header is listed.
 */
export const REDACTED_PATHS = [
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
}

/**
 * A request or response passed to a log call as `req`/`res` is logged lean: never its headers
 * (the access line, `requestLogging`, names the fields it logs and passes neither).
 */
function serializeRequest(req: LoggedRequest) {
  const url = req.originalUrl ?? req.url;
  return { id: req.id, method: req.method, url: url === undefined ? url : redactUrl(url) };
}

function serializeResponse(res: { statusCode?: number }) {
  return { statusCode: res.statusCode };
}

/**
 * The service's root logger: JSON lines in production, one readable line per record in
 * development (`prettyStream`). The first error logged while a request is handled is noted for
 * its access line (`noteFailure`).
 */
export function createRootLogger(s: LoggerSettings): Logger {
  const stream =
    s.stream ?? (s.pretty ? prettyStream(process.stdout, process.stdout.isTTY === true) : undefined);
  return pino(
    {
      level: s.level,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      serializers: {
        req: serializeRequest,
        res: serializeResponse,
        err: pino.stdSerializers.err,
      },
      hooks: {
        logMethod(args, method, level) {
          if (level >= ERROR_LEVEL) {
            noteFailure(args[0]);
          }
          if (level === INFO_LEVEL && isFrameworkBootLine(args[0])) {
            this.debug(...(args as Parameters<Logger['debug']>));
            return;
          }
          method.apply(this, args);
        },
      },
    },
    stream as DestinationStream,
  );
}

const ERROR_LEVEL = pino.levels.values.error;
const INFO_LEVEL = pino.levels.values.info;

/**
 * Nest's own start-up lines: a module initialised, a controller resolved, each route mapped (one
 * per route, over a hundred), the application starting and started. Logged at debug: at info the
 * boot log is one line per stage of the service's own (database, plugins, listening).
 */
const FRAMEWORK_BOOT_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

function isFrameworkBootLine(first: unknown): boolean {
  const context = (first as { context?: unknown } | null)?.context;
  return typeof first === 'object' && typeof context === 'string' && FRAMEWORK_BOOT_CONTEXTS.has(context);
}

const ACCESS_MESSAGES = new Set([REQUEST_COMPLETED, REQUEST_ABORTED, REQUEST_ERRORED]);

/**
 * The development form of an access line (`requestLogging`), or undefined for any other record:
 * `GET /admin/api/me 200 3.2ms 512B user=<id> req=<reqId>`. An API key shows as
 * `key=<apiKeyId> user=<creator id>`, a request the client left as `aborted`, a 5xx with its error.
 */
export function formatAccessLine(record: Record<string, unknown>): string | undefined {
  if (!ACCESS_MESSAGES.has(record.msg as string) || typeof record.path !== 'string') {
    return undefined;
  }
  const line = record as Partial<AccessLine> & { msg: string };
  const parts = [line.method ?? '-', line.path, line.status ?? '---'];
  if (typeof line.durationMs === 'number') {
    parts.push(`${line.durationMs.toFixed(1)}ms`);
  }
  if (typeof line.contentLength === 'number') {
    parts.push(`${line.contentLength}B`);
  }
  if (line.msg === REQUEST_ABORTED) {
    parts.push('aborted');
  }
  if (line.principal?.apiKeyId !== undefined) {
    parts.push(`key=${line.principal.apiKeyId}`);
  }
  if (line.principal) {
    parts.push(`user=${line.principal.userId}`);
  }
  parts.push(`req=${line.reqId}`);
  if (line.error) {
    parts.push(`${line.error.type}: ${line.error.message}`);
  }
  return parts.join(' ');
}

/**
 * pino-pretty on one line per record, written to `out`; an access line becomes its short form
 * (`formatAccessLine`) and carries nothing else.
 */
export function prettyStream(out: { write(text: string): unknown }, colorize: boolean): DestinationStream {
  const prettify = prettyFactory({ singleLine: true, colorize });
  return {
    write(json: string): void {
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(json) as Record<string, unknown>;
      } catch {
        out.write(json);
        return;
      }
      const access = formatAccessLine(record);
      const { level, time, pid, hostname } = record;
      out.write(prettify(access === undefined ? record : { level, time, pid, hostname, msg: access }));
    },
  };
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
