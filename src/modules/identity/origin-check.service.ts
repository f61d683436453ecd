import type { AddressInfo } from 'node:net';
import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request } from 'express';
import { ServiceError } from '../../common/errors';
import { SVC_OPTIONS, SvcOptions } from '../../config/svc-options';

/**
 * The Origin/Referer check (SPEC 5.5, CONTRACTS 3.1). Allowed origins: the address the server
 * listens on, NEXT_PUBLIC_APP_URL's origin, SVC_ALLOWED_ORIGINS. Here rather than with the CSRF
 * tokens (auth's CsrfService, which runs it first) because the authentication guard also runs it
 * on every write carried by the session cookie.
 */
@Injectable()
export class OriginCheckService {
  private listenOrigins: string[] | undefined;

  constructor(
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /**
   * The Origin (or Referer) check alone: when a browser names where a request comes from, it must
   * be an allowed origin. Requests that name none (servers, curl) pass.
   */
  checkOrigin(req: Request): void {
    const origin = headerOrigin(req);
    if (origin !== undefined && !this.allowedOrigins().includes(origin)) {
      throw new ServiceError('CSRF_FAILED', 'The request origin is not allowed');
    }
  }

  allowedOrigins(): string[] {
    return [...this.ownOrigins(), new URL(this.options.publicUrl).origin, ...this.options.allowedOrigins];
  }

  /** The listening address as browsers on this machine would name it (computed once the server listens). */
  private ownOrigins(): string[] {
    if (this.listenOrigins) {
      return this.listenOrigins;
    }
    const server = this.adapterHost.httpAdapter?.getHttpServer() as {
      address?: () => AddressInfo | string | null;
    };
    const address = server?.address?.();
    if (!address || typeof address === 'string') {
      return [];
    }
    const hosts = ['0.0.0.0', '::'].includes(address.address)
      ? ['localhost', '127.0.0.1', '[::1]']
      : [address.family === 'IPv6' ? `[${address.address}]` : address.address];
    this.listenOrigins = hosts.map((h) => `http://${h}:${address.port}`);
    return this.listenOrigins;
  }
}

/** The Origin header, else the Referer's origin; undefined when the request carries neither. */
function headerOrigin(req: Request): string | undefined {
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== '') {
    return origin === 'null' ? 'null' : safeOrigin(origin);
  }
  const referer = req.headers.referer;
  if (typeof referer === 'string' && referer !== '') {
    return safeOrigin(referer);
  }
  return undefined;
}

function safeOrigin(value: string): string {
  try {
    return new URL(value).origin;
  } catch {
    return 'invalid';
  }
}
