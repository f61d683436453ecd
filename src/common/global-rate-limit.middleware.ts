import { Inject, Injectable, NestMiddleware, OnApplicationShutdown } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import { normalizeIp } from '@nestjs/throttler/dist/ip';
import type { NextFunction, Request, Response } from 'express';
import { SVC_OPTIONS, SvcOptions } from '../config/svc-options';
import { ServiceError } from './errors';
import { MemoryCounterStore } from './memory-counter-store';

/**
 * The global per-IP limit of SPEC 5.8 (`rateLimit`): requests under /admin/api/ are skipped
 * unless the config's `skip` says otherwise. Counters share the throttler storage (Redis when
 * REDIS_URL is set). Middleware, so unknown routes count too.
 *
 * While Redis is down the limit degrades rather than refuses: each instance counts in its own
 * memory (the limit holds per instance) instead of answering 503 to everything it covers, the
 * health probe included, which would make a balancer pull every instance at once. The Redis
 * store logs the outage once; each call tries Redis first (a down Redis fails it at once), so
 * counting goes back to Redis as soon as it answers again.
 */
@Injectable()
export class GlobalRateLimitMiddleware implements NestMiddleware, OnApplicationShutdown {
  private readonly perInstance: MemoryCounterStore;

  constructor(
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
    @InjectThrottlerStorage() private readonly counters: ThrottlerStorage,
  ) {
    this.perInstance = new MemoryCounterStore(options.rateLimitMaxKeys);
  }

  /** Synchronous when the request is skipped (every /admin/api/ read by default): no promise. */
  use(req: Request, _res: Response, next: NextFunction): void | Promise<void> {
    if (this.options.config.rateLimit.skip(req)) {
      next();
      return;
    }
    return this.count(req, next);
  }

  private async count(req: Request, next: NextFunction): Promise<void> {
    const { max, windowSeconds } = this.options.config.rateLimit;
    // IPv6 by /64 (and v4-mapped as v4), as the sign-in budget counts: one host holds a whole /64.
    const key = `global:${normalizeIp(req.ip ?? 'unknown')}`;
    const ttl = windowSeconds * 1000;
    let record;
    try {
      record = await this.counters.increment(key, ttl, max, ttl, 'global');
    } catch {
      record = await this.perInstance.increment(key, ttl, max, ttl, 'global');
    }
    if (record.isBlocked) {
      throw ServiceError.rateLimited('global', 'Too many requests from this address; try again later', {
        retryAfterSeconds: Math.max(1, record.timeToBlockExpire),
      });
    }
    next();
  }

  /** Stops the fallback's sweep timer. */
  onApplicationShutdown(): void {
    this.perInstance.onApplicationShutdown();
  }
}
