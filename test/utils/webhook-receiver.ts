import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When its body had arrived (ms). */
  at: number;
}

/** How a path answers: `n` counts the requests to that path, from 1. */
export type Behaviour = (
  req: IncomingMessage,
  res: ServerResponse,
  body: string,
  n: number,
) => void | Promise<void>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A real HTTP server on 127.0.0.1 that webhook endpoints point at: each path answers as told
 * (`on`), 200 `ok` by default, and every request is kept for the test to read.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly counts = new Map<string, number>();
  private server!: Server;
  port = 0;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = (req.url ?? '/').split('?')[0];
        const body = Buffer.concat(chunks).toString('utf8');
        const n = (this.counts.get(path) ?? 0) + 1;
        this.counts.set(path, n);
        this.received.push({ path, headers: req.headers, body, at: Date.now() });
        const behaviour = this.behaviours.get(path);
        if (behaviour) {
          void Promise.resolve(behaviour(req, res, body, n)).catch(() => res.destroy());
        } else {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
        }
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  on(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** The requests to `path` once there are at least `count` of them. */
  async waitFor(path: string, count: number, timeoutMs = 15_000): Promise<Received[]> {
    const until = Date.now() + timeoutMs;
    while (this.at(path).length < count) {
      if (Date.now() > until) {
        throw new Error(`${path}: ${this.at(path).length} of ${count} requests after ${timeoutMs} ms`);
      }
      await sleep(20);
    }
    return this.at(path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

/** Answers `status` with `body`. */
export const answer =
  (status: number, body = '', headers: Record<string, string> = {}): Behaviour =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(body);
  };

/** Never answers (the client gives up). */
export const hold: Behaviour = () => undefined;
