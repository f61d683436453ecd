import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, from, lastValueFrom } from 'rxjs';
import { requestStartedAt } from '../../common/request-start';

/** SPEC 5.2.1: every login answer takes at least this long, whether or not the account exists. */
export const LOGIN_FLOOR_MS = 500;

/**
 * Holds every outcome (success, refusal, validation error) until a deadline counted from the
 * moment the request arrived, so the work done before it cannot be timed.
 */
@Injectable()
export class LoginFloorInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const deadline = requestStartedAt(context.switchToHttp().getRequest()) + LOGIN_FLOOR_MS;
    const wait = () => new Promise((r) => setTimeout(r, Math.max(0, deadline - performance.now())));
    return from(
      lastValueFrom(next.handle()).then(
        async (value: unknown) => {
          await wait();
          return value;
        },
        async (error: unknown) => {
          await wait();
          throw error;
        },
      ),
    );
  }
}
