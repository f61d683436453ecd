import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface';
import { LRUCache } from 'lru-cache';
import { DEFAULT_COUNTER_MAX_KEYS } from '../config/env';

/** How often counters whose window and block are over are dropped (their memory comes back). */
const SWEEP_INTERVAL_MS = 60_000;

interface Counter {
  hits: number;
  /** When the current window ends (ms since epoch): the count starts again at the next hit. */
  windowEnd: number;
  /** When the block ends; 0 or past while not blocked. */
  blockEnd: number;
}

/**
 * Rate-limit counters in this process's memory (no REDIS_URL), with the rules of the Redis
 * counters' script (`redis-throttler-storage.ts`), hit for hit:
 * - a count lives `ttl` ms from its first hit, then the next hit starts a new one at 1;
 * - the first hit over `limit` blocks the counter for `blockDuration` ms; hits during the block
 *   are refused and still counted (in the window they fall in).
 *
 * Why not @nestjs/throttler's own memory store: it keeps every hit's expiry in an array and
 * filters the array on each hit, so a hit costs O(hits in the window); a busy API key (a
 * 1,000,000/h budget) made each request scan a growing array, and the service slowed down the
 * longer it ran (issue 16: a CPU profile put 25% of the process in that filter). Here a hit is a
 * map lookup and two additions: a fixed window, as the Redis script keeps.
 *
 * Why not rate-limiter-flexible's memory store: it has no bound on the number of keys (one object
 * and one timer per key), and the Redis side here has its own batching script; `lru-cache` gives
 * the bounded O(1) map and the expiry bookkeeping.
 *
 * Memory is bounded twice: a counter is dropped once its window and block are over (lazily on
 * its next lookup, and by a sweep every minute), and each budget keeps at most `maxKeys`
 * counters: past that the least recently used one is forgotten. Forgetting never refuses a
 * request: the forgotten client starts a new window at its next hit. Budgets have separate maps,
 * so a flood of new addresses on the global limit cannot push sign-in counters out.
 */
export class MemoryCounterStore implements ThrottlerStorage, OnApplicationShutdown {
  private readonly budgets = new Map<string, LRUCache<string, Counter>>();
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly maxKeys = DEFAULT_COUNTER_MAX_KEYS) {
    this.sweep = setInterval(() => this.purgeExpired(), SWEEP_INTERVAL_MS);
    this.sweep.unref();
  }

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    return Promise.resolve(this.incrementNow(key, ttl, limit, blockDuration, throttlerName));
  }

  /** `increment`, answered at once: for a per-request budget that need not make a promise. */
  incrementNow(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): ThrottlerStorageRecord {
    return this.hit(this.budget(throttlerName), key, ttl, limit, blockDuration);
  }

  /** Counters a budget holds now (the tests check the cap and the sweep with it). */
  size(throttlerName: string): number {
    return this.budgets.get(throttlerName)?.size ?? 0;
  }

  /** Drops every counter whose window and block are over. */
  purgeExpired(): void {
    for (const budget of this.budgets.values()) {
      budget.purgeStale();
    }
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweep);
  }

  private budget(name: string): LRUCache<string, Counter> {
    let budget = this.budgets.get(name);
    if (!budget) {
      // A `ttl` per counter (see `hit`), no timer per counter: expired ones go lazily or by sweep.
      budget = new LRUCache<string, Counter>({ max: this.maxKeys });
      this.budgets.set(name, budget);
    }
    return budget;
  }

  private hit(
    budget: LRUCache<string, Counter>,
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
  ): ThrottlerStorageRecord {
    const now = Date.now();
    let counter = budget.get(key);
    let expiryMoved = false;
    if (!counter) {
      counter = { hits: 0, windowEnd: now + ttl, blockEnd: 0 };
      expiryMoved = true;
    } else if (counter.windowEnd <= now) {
      counter.hits = 0;
      counter.windowEnd = now + ttl;
      expiryMoved = true;
    }
    counter.hits += 1;
    const wasBlocked = counter.blockEnd > now;
    if (!wasBlocked && counter.hits > limit) {
      counter.blockEnd = now + blockDuration;
      expiryMoved = true;
    }
    if (expiryMoved) {
      // Kept until both its window and its block are over (+1 ms: the map's clock is its own).
      budget.set(key, counter, { ttl: Math.max(counter.windowEnd, counter.blockEnd) - now + 1 });
    }
    const isBlocked = wasBlocked || counter.hits > limit;
    return {
      totalHits: counter.hits,
      timeToExpire: Math.ceil((counter.windowEnd - now) / 1000),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil((counter.blockEnd - now) / 1000) : 0,
    };
  }
}
