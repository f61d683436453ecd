import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { Logger, OnModuleInit } from '@nestjs/common';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type { RedisOptions } from 'ioredis';

/**
 * A counter call never waits for Redis to come back: while Redis is down or hangs, a request
 * learns it within `commandTimeout` and is answered (503, or the global limit's per-instance
 * fallback) instead of piling up behind reconnection attempts.
 * - `enableOfflineQueue: false`: while disconnected, a call fails at once instead of queueing.
 * - `commandTimeout`: a call without an answer (Redis stopped, overloaded, a dead link) fails
 *   after 250 ms; a healthy Redis answers this script in well under a millisecond plus the round
 *   trip. The store keeps this timer itself (`withDeadline`), not ioredis: after the event loop
 *   was held past it, ioredis' timer fired before the answer Redis had sent was read.
 * - `maxRetriesPerRequest: 0`: a call in flight when the connection drops fails right then and is
 *   not sent again after reconnecting (its request has been answered already; it must not count).
 * - `connectTimeout`: a connection attempt to an unreachable host is abandoned after 1 s. No request
 *   waits on it; reconnection goes on in the background (ioredis' backoff, at most 2 s apart), so
 *   the counters come back by themselves when Redis does.
 */
export const REDIS_COUNTER_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  commandTimeout: 250,
  maxRetriesPerRequest: 0,
  connectTimeout: 1000,
};

/**
 * The library's counter script, taking `n` hits at once. Same keys, same rules per hit: the hit
 * count lives `ttl` ms from its first hit; the first hit over `limit` blocks the key for
 * `blockDuration` ms; a block found expired is lifted and the count starts again.
 */
const HITS_SCRIPT = `
local hitKey = KEYS[1]
local blockKey = KEYS[2]
local ttl = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
local blockDuration = tonumber(ARGV[3])
local n = tonumber(ARGV[4])
local totalHits = redis.call('INCRBY', hitKey, n)
local timeToExpire = redis.call('PTTL', hitKey)
if timeToExpire <= 0 then
  redis.call('PEXPIRE', hitKey, ttl)
  timeToExpire = ttl
end
local wasBlocked = 0
local timeToBlockExpire = 0
if redis.call('GET', blockKey) then
  timeToBlockExpire = redis.call('PTTL', blockKey)
  if timeToBlockExpire <= 0 then
    redis.call('DEL', blockKey)
    redis.call('SET', hitKey, n, 'PX', ttl)
    totalHits = n
    timeToExpire = ttl
    timeToBlockExpire = 0
  else
    wasBlocked = 1
  end
end
if wasBlocked == 0 and totalHits > limit then
  redis.call('SET', blockKey, 1, 'PX', blockDuration)
  timeToBlockExpire = blockDuration
end
return { totalHits, timeToExpire, wasBlocked, timeToBlockExpire }
`;

type WithCommand = { svcHits?: (...args: Array<string | number>) => Promise<unknown> };

interface Waiter {
  resolve(record: ThrottlerStorageRecord): void;
  reject(error: unknown): void;
}

/**
 * Rate-limit counters in Redis, shared by every instance. Hits on one counter are coalesced:
 * while a call for a counter is in flight, later hits wait and go together in the next call,
 * which adds their number at once (EVALSHA of a script cached by Redis). Each hit still gets its
 * own position in the count, so limits stay exact across instances; under load a busy API key
 * costs one round trip per batch instead of one per request (measured in the content bench).
 */
export class RedisThrottlerStorage extends ThrottlerStorageRedisService implements OnModuleInit {
  /** Hits waiting for the in-flight call of their counter, by counter. */
  private readonly waiting = new Map<string, Waiter[]>();
  private readonly logger = new Logger('RateLimit');
  /** When the current outage began (its first failed call): one line per outage, not per request. */
  private downSince: number | undefined;
  private readonly connectTimeout: number;

  /** How long a counter call waits for its answer (`commandTimeout`, see `withDeadline`). */
  private readonly callTimeout: number;

  constructor(url: string, options: RedisOptions) {
    const { commandTimeout, ...merged } = { ...REDIS_COUNTER_OPTIONS, ...options };
    super(url, merged);
    this.callTimeout = commandTimeout ?? 250;
    this.connectTimeout = merged.connectTimeout ?? 10_000;
    this.redis.defineCommand('svcHits', { numberOfKeys: 2, lua: HITS_SCRIPT });
    // ioredis reports every failed reconnection attempt as an `error` event, printed to the
    // console when nobody listens; the outage is logged once, from the failed calls, instead.
    this.redis.on('error', () => undefined);
  }

  /**
   * Waits for the first connection attempt to end, so the first requests after boot do not find
   * the client still connecting (calls are not queued). Never longer than `connectTimeout`: a
   * Redis that is down or still loading does not hold up the boot; its requests get the outage
   * answers until it is ready.
   */
  async onModuleInit(): Promise<void> {
    if (this.redis.status !== 'connecting' && this.redis.status !== 'connect') {
      return;
    }
    await new Promise<void>((resolve) => {
      const settled = () => {
        clearTimeout(timer);
        this.redis.off('ready', settled).off('error', settled);
        resolve();
      };
      const timer = setTimeout(settled, this.connectTimeout);
      this.redis.once('ready', settled).once('error', settled);
    });
  }

  /** A PING within the counters' call timeout (the health check's probe of Redis). */
  ping(): Promise<unknown> {
    return withDeadline(this.redis.ping(), this.callTimeout);
  }

  override increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    const counter = `${key}:${throttlerName}`;
    const id = `${counter}\n${ttl}\n${limit}\n${blockDuration}`;
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(id);
      if (queue) {
        queue.push({ resolve, reject });
        return;
      }
      this.waiting.set(id, []);
      void this.drain(id, counter, ttl, limit, blockDuration, [{ resolve, reject }]);
    });
  }

  private async drain(
    id: string,
    counter: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    first: Waiter[],
  ): Promise<void> {
    for (let batch = first; batch.length;) {
      try {
        const [totalHits, timeToExpire, wasBlocked, timeToBlockExpire] = await this.hits(
          counter,
          ttl,
          limit,
          blockDuration,
          batch.length,
        );
        batch.forEach((waiter, i) => {
          const hits = totalHits - batch.length + i + 1;
          const isBlocked = wasBlocked === 1 || hits > limit;
          waiter.resolve({
            totalHits: hits,
            timeToExpire: Math.ceil(timeToExpire / 1000),
            isBlocked,
            timeToBlockExpire: isBlocked ? Math.ceil(timeToBlockExpire / 1000) : 0,
          });
        });
        this.up();
      } catch (e) {
        this.down(e);
        batch.forEach((waiter) => waiter.reject(e));
      }
      batch = this.waiting.get(id) ?? [];
      this.waiting.set(id, []);
    }
    this.waiting.delete(id);
  }

  private down(err: unknown): void {
    if (this.downSince === undefined) {
      this.downSince = Date.now();
      this.logger.error(
        { err },
        'Redis rate-limit counters unavailable: the auth and API-key budgets answer 503, the global limit counts per instance',
      );
    }
  }

  private up(): void {
    if (this.downSince !== undefined) {
      this.logger.log({ outageMs: Date.now() - this.downSince }, 'Redis rate-limit counters available again');
      this.downSince = undefined;
    }
  }

  private async hits(
    counter: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    n: number,
  ): Promise<number[]> {
    const command = (this.redis as unknown as WithCommand).svcHits!;
    const result = await withDeadline(
      command.call(this.redis, `{${counter}}:hits`, `{${counter}}:blocked`, ttl, limit, blockDuration, n),
      this.callTimeout,
    );
    if (!Array.isArray(result) || result.length !== 4 || !result.every((v) => typeof v === 'number')) {
      throw new TypeError(`unexpected rate-limit counter reply: ${JSON.stringify(result)}`);
    }
    return result as number[];
  }
}

/**
 * `call`, or a rejection when it has no answer `ms` after it was sent. A timer that comes due
 * while the event loop is held (a CPU quota, a long collection, a busy machine) runs as soon as
 * the loop turns, before that turn reads the sockets: the rejection waits for `setImmediate`,
 * which comes after the read, so an answer Redis sent in time is taken rather than called late.
 */
function withDeadline<T>(call: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      setImmediate(() => reject(new Error(`Redis call timed out after ${ms} ms`)));
    }, ms);
    call.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}
