import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { ServiceError } from './errors';

/**
 * What a request refused during a counter-store outage is told to wait. A Redis restart or
 * fail-over takes seconds, and the client tries to reconnect at least every 2 s.
 */
export const COUNTERS_RETRY_AFTER_SECONDS = 5;

/**
 * The answer of a budget whose counter cannot be read (Redis down): 503 with `Retry-After`. The
 * auth and API-key budgets fail closed: letting requests through uncounted would lift the limit
 * that stands between an attacker and password guessing, or a key and its quota.
 */
export function countersUnavailable(message: string): ServiceError {
  return new ServiceError('SERVICE_UNAVAILABLE', message, {
    retryAfterSeconds: COUNTERS_RETRY_AFTER_SECONDS,
  });
}

/**
 * CONTRACTS 9: `X-RateLimit-Limit` is the configured maximum, `-Remaining` what is left in the
 * window after this request, `-Reset` the Unix second the window (or, once spent, the block)
 * ends. Returns the seconds until then, which is also what a refusal's `Retry-After` says.
 */
export function setRateLimitHeaders(
  res: { setHeader(name: string, value: string): unknown },
  max: number,
  record: ThrottlerStorageRecord,
): number {
  const resetIn = Math.max(0, record.isBlocked ? record.timeToBlockExpire : record.timeToExpire);
  res.setHeader('X-RateLimit-Limit', String(max));
  res.setHeader('X-RateLimit-Remaining', String(Math.max(0, max - record.totalHits)));
  res.setHeader('X-RateLimit-Reset', String(Math.floor(Date.now() / 1000) + resetIn));
  return resetIn;
}
