import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import type { RedisOptions } from 'ioredis';

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
export class RedisThrottlerStorage extends ThrottlerStorageRedisService {
  /** Hits waiting for the in-flight call of their counter, by counter. */
  private readonly waiting = new Map<string, Waiter[]>();

  constructor(url: string, options: RedisOptions) {
    super(url, options);
    this.redis.defineCommand('svcHits', { numberOfKeys: 2, lua: HITS_SCRIPT });
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
      } catch (e) {
        batch.forEach((waiter) => waiter.reject(e));
      }
      batch = this.waiting.get(id) ?? [];
      this.waiting.set(id, []);
    }
    this.waiting.delete(id);
  }

  private async hits(
    counter: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    n: number,
  ): Promise<number[]> {
    const command = (this.redis as unknown as WithCommand).svcHits!;
    const result = await command.call(
      this.redis,
      `{${counter}}:hits`,
      `{${counter}}:blocked`,
      ttl,
      limit,
      blockDuration,
      n,
    );
    if (!Array.isArray(result) || result.length !== 4 || !result.every((v) => typeof v === 'number')) {
      throw new TypeError(`unexpected rate-limit counter reply: ${JSON.stringify(result)}`);
    }
    return result as number[];
  }
}
