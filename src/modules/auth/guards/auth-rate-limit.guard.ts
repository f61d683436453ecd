import { ExecutionContext, Injectable } from '@nestjs/common';
import { GUARDS_METADATA } from '@nestjs/common/constants';
import { ThrottlerGuard } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type { ThrottlerRequest } from '@nestjs/throttler/dist/throttler.guard.interface';
import type { Request, Response } from 'express';
import { countersUnavailable, setRateLimitHeaders, signInBudgetSpent } from '../../../common/rate-limit';

export const AUTH_THROTTLER = 'auth';

/**
 * The per-IP budget of SPEC 8, shared by every route that carries this guard: the key is the
 * client IP alone (as Express's `trust proxy` decides it; IPv6 grouped by /64, the library's
 * default), not the route. Counters live in Redis when REDIS_URL is set, so every instance draws
 * on one budget.
 *
 * `handleRequest` is the library's, minus its headers (named `-auth` after the throttler, with
 * `Reset` in seconds to go): every answer the budget lets through or refuses carries the
 * `X-RateLimit-*` headers of CONTRACTS 9, as API-key answers do, so a client sees the budget
 * running out before the 429.
 */
@Injectable()
export class AuthRateLimitGuard extends ThrottlerGuard {
  /** Counts a request once, whoever asks first (CsrfGuard draws the budget ahead of its check). */
  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    if (counted.has(req)) {
      return true;
    }
    counted.add(req);
    return super.canActivate(context);
  }

  protected override async handleRequest(props: ThrottlerRequest): Promise<boolean> {
    const { context, limit, ttl, throttler, blockDuration, getTracker, generateKey } = props;
    if (throttler.name !== AUTH_THROTTLER) {
      return true;
    }
    const http = context.switchToHttp();
    const key = generateKey(context, await getTracker(http.getRequest<Request>(), context), AUTH_THROTTLER);
    let record: ThrottlerStorageRecord;
    try {
      record = await this.storageService.increment(key, ttl, limit, blockDuration, AUTH_THROTTLER);
    } catch {
      // Redis is down: fail closed, since an uncounted sign-in route is open to password guessing.
      // The store logs the outage once; each 503 is logged by the error filter.
      throw countersUnavailable('Sign-in is unavailable for a moment; try again');
    }
    const resetIn = setRateLimitHeaders(http.getResponse<Response>(), limit, record);
    if (record.isBlocked) {
      throw signInBudgetSpent(limit, Math.round(ttl / 1000), resetIn);
    }
    return true;
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, name: string): string {
    return `${name}:${tracker}`;
  }
}

/** Requests whose budget was drawn already. */
const counted = new WeakSet<Request>();

/** Whether the route of `context` carries AuthRateLimitGuard (on its handler or its controller). */
export function drawsAuthBudget(context: ExecutionContext): boolean {
  return [context.getHandler(), context.getClass()].some((target) =>
    ((Reflect.getMetadata(GUARDS_METADATA, target) ?? []) as unknown[]).includes(AuthRateLimitGuard),
  );
}
