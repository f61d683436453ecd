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
 * The 429 of the per-address budget of the sign-in, password and registration routes: when to
 * try again, and the setting that raises the limit (a busy office behind one address spends the
 * default quickly).
 */
export function signInBudgetSpent(
  max: number,
  windowSeconds: number,
  retryAfterSeconds: number,
): ServiceError {
  const wait = Math.max(1, retryAfterSeconds);
  return ServiceError.rateLimited(
    'sign-in',
    `Too many sign-in and account requests from this address; try again in ${wait} s ` +
      `(the limit, ${max} per ${duration(windowSeconds)}, is security.authRateLimit in the configuration)`,
    { retryAfterSeconds: wait },
  );
}

/** 3600 -> "hour", 7200 -> "2 hours", 60 -> "minute", 90 -> "90 seconds". */
function duration(seconds: number): string {
  for (const [unit, size] of [
    ['hour', 3600],
    ['minute', 60],
  ] as const) {
    if (seconds % size === 0) {
      const n = seconds / size;
      return n === 1 ? unit : `${n} ${unit}s`;
    }
  }
  return seconds === 1 ? 'second' : `${seconds} seconds`;
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
