import { randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse, STATUS_CODES } from 'node:http';
import type { Express } from 'express';
import type { Duplex } from 'node:stream';
import type { NestApplicationOptions } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { PROBLEM_CONTENT_TYPE } from './common/errors/problem-details.filter';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './config/env';

/**
 * Express adapter whose HTTP server is created with the service's limits. Node checks the header
 * and request timeouts on an interval fixed when the server is created (30 s by default), so they
 * cannot be set afterwards on the server Nest makes.
 */
export class LimitedExpressAdapter extends ExpressAdapter {
  constructor(private readonly limits: HttpLimits = DEFAULT_HTTP_LIMITS) {
    super();
  }

  override initHttpServer(options: NestApplicationOptions): void {
    if (options?.httpsOptions || options?.forceCloseConnections) {
      super.initHttpServer(options);
      return;
    }
    const l = this.limits;
    const server = createServer(
      {
        ...expressObjects(this.getInstance<Express>()),
        headersTimeout: l.headersTimeoutMs,
        requestTimeout: l.requestTimeoutMs,
        connectionsCheckingInterval: Math.max(100, Math.min(1000, l.headersTimeoutMs / 4)),
      },
      this.getInstance(),
    );
    server.keepAliveTimeout = l.keepAliveTimeoutMs;
    server.setTimeout(l.idleTimeoutMs);
    server.on('clientError', answerClientError);
    this.setHttpServer(server);
  }
}

/**
 * Request and response classes whose objects have Express's request and response prototypes
 * from birth, made Express's own (`app.request`, `app.response`). Express sets them on every
 * request with `Object.setPrototypeOf`, after which every property access on the objects, by
 * Express, Nest, the middlewares and Node itself, ran slower: about half of a simple route's CPU
 * (docs/performance.md). With these, that call finds the prototype in place and changes nothing.
 */
export function expressObjects(app: Express): {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
} {
  class ExpressRequest extends IncomingMessage {}
  Object.setPrototypeOf(ExpressRequest.prototype, app.request);
  class ExpressResponse extends ServerResponse {}
  Object.setPrototypeOf(ExpressResponse.prototype, app.response);
  app.request = ExpressRequest.prototype as Express['request'];
  app.response = ExpressResponse.prototype as unknown as Express['response'];
  return { IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse as typeof ServerResponse };
}

const CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    code: 'PAYLOAD_TOO_LARGE',
    message: 'The request headers are too large',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    code: 'VALIDATION_ERROR',
    message: 'The request did not arrive in time',
  },
};

/**
 * Protocol errors Node meets before any route runs (malformed request, headers too large, a
 * request that did not arrive in time): answered in the problem+json envelope with a request id,
 * where the socket can still take an answer; otherwise closed.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const known = CLIENT_ERRORS[err.code ?? ''] ?? {
    status: 400,
    code: 'VALIDATION_ERROR',
    message: 'The request is not valid HTTP',
  };
  const requestId = randomUUID();
  const body = JSON.stringify({ error: { code: known.code, message: known.message, requestId } });
  socket.end(
    `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Cache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}
