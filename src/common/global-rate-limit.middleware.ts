import { Inject, Injectable, Logger, NestMiddleware } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import type { NextFunction, Request, Response } from 'express';
import { SVC_OPTIONS, SvcOptions } from '../svc.options';
import { ServiceError } from './errors';

/**
 * The global per-IP limit of SPEC 5.8 (`rateLimit`): requests under /admin/api/ are skipped
 * unless the config's `skip` says otherwise. Counters share the throttler storage (Redis when
 * REDIS_URL is set). Middleware, so unknown routes count too.
 */
@Injectable()
export class GlobalRateLimitMiddleware implements NestMiddleware {
  private readonly logger = new Logger('RateLimit');

  constructor(
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
    @InjectThrottlerStorage() private readonly counters: ThrottlerStorage,
  ) {}

  async use(req: Request, _res: Response, next: NextFunction): Promise<void> {
    const { max, windowSeconds, skip } = this.options.config.rateLimit;
    if (skip(req)) {
      next();
      return;
    }
    let record;
    try {
      const ttl = windowSeconds * 1000;
      record = await this.counters.increment(`global:${req.ip ?? 'unknown'}`, ttl, max, ttl, 'global');
    } catch (e) {
      this.logger.error({ err: e }, 'global rate-limit counter unavailable');
      throw new ServiceError('SERVICE_UNAVAILABLE', 'The service is unavailable for a moment; try again');
    }
    if (record.isBlocked) {
      throw new ServiceError('RATE_LIMITED', 'Too many requests from this address; try again later', {
        retryAfterSeconds: Math.max(1, record.timeToBlockExpire),
      });
    }
    next();
  }
}
