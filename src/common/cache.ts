import { LRUCache } from 'lru-cache';

/** A value, or a promise of it: a cache hit answers without making a promise. */
export type Awaitable<T> = T | Promise<T>;

/**
 * `f` of the value: at once when it is there, after it when it is a promise. For the per-request
 * path of cached credentials and definitions: every `await` of a value already there costs a
 * promise and a turn of the microtask queue (and the async-context hooks on each), dozens a
 * request. A throw in `f` is thrown (or rejects) the way the value came.
 */
export function andThen<T, R>(value: Awaitable<T>, f: (value: T) => Awaitable<R>): Awaitable<R> {
  return value instanceof Promise ? value.then(f) : f(value);
}

export interface TtlCacheOptions {
  /** Entries kept at the most; past it the least recently used one is forgotten. */
  max: number;
  /** How long a stored value is used, in milliseconds from when it was stored. */
  ttlMs: number;
  /** The clock in milliseconds (tests); `performance.now()` by default. */
  now?: () => number;
  /** Its name in `cacheLookups` (the metrics' `svc_cache_requests_total{cache}`). */
  name?: string;
}

/**
 * Hits and misses of the named caches since the process started, per name (two additions per
 * lookup: cheap enough to count always). The metrics read it when scraped.
 */
export const cacheLookups = new Map<string, { hit: number; miss: number }>();

/**
 * The one in-process cache of the service: bounded (`max` entries), each value used for at most
 * `ttlMs`, and a generation so that `invalidate()` wins over a load already running. A load that
 * began before an invalidation is answered to its caller but not stored: it may have read the
 * rows before the write that invalidated, and storing it would put the old value back for a
 * whole TTL. Each use says in a comment what bounds its staleness (DESIGN 11).
 */
export class TtlCache<K extends NonNullable<unknown>, V> {
  // Values are boxed: a cached `null` (an unknown key, a deleted account) is a hit too.
  private readonly entries: LRUCache<K, { value: V }>;
  /** Raised by every invalidation; see `getOrLoad`. */
  private generation = 0;
  private readonly lookups?: { hit: number; miss: number };

  constructor(opts: TtlCacheOptions) {
    const now = opts.now;
    if (opts.name !== undefined) {
      this.lookups = cacheLookups.get(opts.name) ?? { hit: 0, miss: 0 };
      cacheLookups.set(opts.name, this.lookups);
    }
    this.entries = new LRUCache<K, { value: V }>({
      max: opts.max,
      ttl: opts.ttlMs,
      // Read the clock at every lookup, as a Date.now() check would: the default caches it for
      // 1 ms and arms a timer to forget it, a timer per millisecond on a hot path.
      ttlResolution: 0,
      ...(now && { perf: { now } }),
    });
  }

  /**
   * The cached value of `key` while it is younger than the TTL (synchronously: every request
   * reads three of these), else a promise of `load()`'s, then stored.
   */
  getOrLoad(key: K, load: () => Promise<V>): Awaitable<V> {
    const hit = this.entries.get(key);
    if (this.lookups) {
      this.lookups[hit ? 'hit' : 'miss']++;
    }
    return hit ? hit.value : this.load(key, load);
  }

  private async load(key: K, load: () => Promise<V>): Promise<V> {
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation) {
      this.entries.set(key, { value });
    }
    return value;
  }

  /**
   * Forgets `key` (every key without one), and keeps every load running now, of any key, from
   * storing what it read. Call after the commit of the write that changes what is cached.
   */
  invalidate(key?: K): void {
    this.generation++;
    if (key === undefined) {
      this.entries.clear();
    } else {
      this.entries.delete(key);
    }
  }
}
