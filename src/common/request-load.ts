import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Requests this process's HTTP server has taken and not yet finished answering (every lane). */
let inFlight = 0;

/**
 * Counts the server's requests in flight, for background work that gives way to them (the webhook
 * delivery worker). Runs ahead of every other `request` listener; a response's `close` comes
 * once, whether it finished or its client went away.
 */
export function countRequests(server: Server): void {
  server.prependListener('request', (_req: IncomingMessage, res: ServerResponse) => {
    inFlight++;
    res.once('close', () => {
      inFlight--;
    });
  });
}

export function requestsInFlight(): number {
  return inFlight;
}
