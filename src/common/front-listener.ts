import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Something that answers some requests itself: `take` says true when it did. */
export interface FrontHandler {
  take(req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * Puts `front` before the HTTP server's `request` listeners (Express's): each request goes to it
 * first, and on to those listeners, in their order, when it does not take it.
 */
export function putInFront(server: Server, front: FrontHandler): void {
  const rest = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!front.take(req, res)) {
      for (const listener of rest) {
        listener.call(server, req, res);
      }
    }
  });
}
