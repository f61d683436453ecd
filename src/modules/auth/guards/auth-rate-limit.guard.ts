import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import type {
  ThrottlerLimitDetail,
  ThrottlerRequest,
} from '@nestjs/throttler/dist/throttler.guard.interface';
import { ServiceError } from '../../../common/errors';

export const AUTH_THROTTLER = 'auth';

/**
 * The per-IP budget of SPEC 8, shared by every route that carries this guard: the key is the
 * client IP alone (as Express's `trust proxy` decides it; IPv6 grouped by /64, the library's
 * default), not the route. Counters live in Redis
 * when REDIS_URL is set, so every instance draws on one budget.
 */
@Injectable()
export class AuthRateLimitGuard extends ThrottlerGuard {
  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    if (props.throttler.name !== AUTH_THROTTLER) {
      return true;
    }
    try {
      return await super.handleRequest(props);
    } catch (e) {
      if (e instanceof ServiceError) {
        throw e;
      }
      // The shared counter store (Redis) is down: a dependency outage, not a server bug.
      this.logger.error({ err: e }, 'auth rate-limit counter unavailable');
      throw new ServiceError('SERVICE_UNAVAILABLE', 'Sign-in is unavailable for a moment; try again');
    }
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return `${name}:${tracker}`;
  }

  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const retryAfterSeconds = Math.max(1, detail.isBlocked ? detail.timeToBlockExpire : detail.timeToExpire);
    throw new ServiceError('RATE_LIMITED', 'Too many attempts from this address; try again later', {
      retryAfterSeconds,
    });
  }
}
