import { AsyncLocalStorage } from 'node:async_hooks';
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { Observable } from 'rxjs';
import { AUTH_CONTEXT, type RequestWithAuth } from '../../common/access/auth-context';

/** The client of the request being handled: what an audit row written during it records. */
export interface AuditClient {
  ip: string | null;
  userAgent: string | null;
  /** The authenticated caller's user id (an API key's: its creator's), when there is one. */
  actorId: string | null;
}

/** A User-Agent longer than this is cut: the header is the client's to fill. */
const MAX_USER_AGENT = 512;

const clients = new AsyncLocalStorage<AuditClient>();

/** The client of the current request; undefined outside one (a job, an in-process call). */
export const currentAuditClient = (): AuditClient | undefined => clients.getStore();

/**
 * Global interceptor (registered by AuditModule): runs each HTTP handler with its client's IP
 * (`req.ip`, so the `trustProxy` setting applies), User-Agent and signed-in user at hand, so the
 * audit rows an administrator's change writes name who and where it came from without every
 * service passing them down.
 */
@Injectable()
export class AuditClientInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') {
      return next.handle();
    }
    const req = context.switchToHttp().getRequest<Request & RequestWithAuth>();
    if (req.method === 'GET' || req.method === 'HEAD') {
      // Reads write no audit row: they skip the store (the read paths are the hot ones).
      return next.handle();
    }
    const agent = req.headers?.['user-agent'];
    const client: AuditClient = {
      ip: req.ip ?? null,
      userAgent: typeof agent === 'string' ? agent.slice(0, MAX_USER_AGENT) : null,
      // Interceptors run after the guards: the credential is resolved by now.
      actorId: req[AUTH_CONTEXT]?.user.id ?? null,
    };
    // The handler runs when the answer is subscribed to: subscribe inside the store.
    return new Observable((subscriber) => clients.run(client, () => next.handle().subscribe(subscriber)));
  }
}
