import type { IncomingMessage, ServerResponse } from 'node:http';
import { Store, storage } from 'nestjs-pino/storage';
import type { Logger } from 'pino';
import { ensureRequestId } from './request-id';

/**
 * The request logger of every service route and of the content read lane. It gives the request
 * its id (CONTRACTS 8), makes a child logger carrying it (`reqId`) the async context's logger, so
 * every line logged while the request is handled has the id (nestjs-pino's `PinoLogger` reads
 * the same storage), and logs one line when the response is done: `info` "request completed"
 * (or "request aborted"), `error` "request errored" for a 5xx. The request is serialised and
 * redacted only when that line is written.
 *
 * Why not pino-http (what nestjs-pino mounts): it serialises and redacts the whole request into a
 * child logger on every request, logged or not, which measured as a third of the service's CPU
 * per read (docs/decisions.md). The lines it wrote keep their shape.
 */
export function requestLogging(root: Logger) {
  return function logRequest(req: IncomingMessage, res: ServerResponse, next: () => void): void {
    const started = Date.now();
    const reqId = ensureRequestId(req, res);
    // The child logger is made on first use: most requests log nothing below `info`.
    let child: Logger | undefined;
    const store = {
      get logger(): Logger {
        return (child ??= root.child({ reqId }));
      },
    };
    // 'close' follows 'finish' on every response, and comes alone when the client went away.
    res.once('close', () => {
      const failed = res.statusCode >= 500;
      if (!root.isLevelEnabled(failed ? 'error' : 'info')) {
        return;
      }
      const log = store.logger;
      const responseTime = Date.now() - started;
      if (failed) {
        const err = new Error(`failed with status code ${res.statusCode}`);
        log.error({ req, res, err, responseTime }, 'request errored');
      } else {
        log.info({ req, res, responseTime }, res.writableEnded ? 'request completed' : 'request aborted');
      }
    });
    storage.run(store as Store, next);
  };
}
