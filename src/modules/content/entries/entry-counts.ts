import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import type { Awaitable } from '../../../common/cache';
import { ConfigError } from '../../../config/env';
import type { Definition } from '../content.types';

/** The environment variable setting the staleness bound of cached totals, in milliseconds. */
export const COUNT_CACHE_ENV = 'SVC_COUNT_CACHE_MS';
export const DEFAULT_COUNT_CACHE_MS = 2000;
/** Totals kept (one per collection, filter and status), least recently used forgotten first. */
const MAX_TOTALS = 1000;
/** Characters of keys kept in all (a `where` may be 64 KiB of JSON): the memory bound. */
const MAX_KEY_CHARS = 4_000_000;
/** A hit older than this share of the bound starts one count in the background. */
const REFRESH_AFTER = 0.75;

interface Counted {
  total: number;
  /** The collection's write generation read before the count started. */
  generation: number;
  /** When the count started (its snapshot is no older than that), ms since epoch. */
  at: number;
}

/**
 * Exact totals of list filters (`meta.total`, `/entries/count`), cached in this process. Why:
 * with a million entries, counting half a million matches for every list request was the whole
 * cost of a list (`hasNext` no longer needs the count: the page reads one row more).
 *
 * A total is cached per key, which the caller makes of the definition's identity and version
 * (id and updatedAt: the registry makes new definition objects every few seconds, a schema
 * change a new version) and the exact count SQL with its parameters. So everything that decides
 * which rows count (the `where`, the drafts `status` a caller may see) is part of the key, and two
 * callers share a total only when they would run the same statement.
 *
 * A cached total is used while both hold:
 * - the collection's write generation is the one read before its count started. This instance
 *   bumps the generation after every write transaction commits (entries.service.ts: creates,
 *   updates, deletes, bulk and by-query writes, duplicates, singles; deletes bump every
 *   collection, since foreign keys of other collections null or cascade; schema changes bump
 *   every collection too). A count that read the old generation is never used after the bump,
 *   and one started after the bump began after the commit, so sees it: a list right after a
 *   write on this instance is exact.
 * - it is younger than the bound (`SVC_COUNT_CACHE_MS`, default 2000 ms; 0 turns the cache off
 *   and every list counts), measured from the start of its count. That bounds what writes of
 *   other instances, or made outside the service, take to show.
 * A hit past 3/4 of the bound starts a refresh in the background, so a steady stream of lists
 * does not wait on a count when the total expires. Concurrent misses of one key under one
 * generation wait on one count; a count is never shared across a generation change.
 * Not common/cache.ts: a generation per collection, the age counted from a count's start rather
 * than its storing, shared counts and refreshes in the background.
 */
@Injectable()
export class EntryCounts {
  readonly boundMs: number;
  private readonly totals = new LRUCache<string, Counted>({
    max: MAX_TOTALS,
    maxSize: MAX_KEY_CHARS,
    sizeCalculation: (_value, key) => key.length + 1,
  });
  private readonly running = new Map<string, Promise<number>>();
  private readonly generations = new Map<string, number>();
  /** Every generation is at least this (bumpAll). */
  private floor = 0;
  private counter = 0;

  constructor() {
    this.boundMs = countCacheMs(process.env[COUNT_CACHE_ENV]);
  }

  /** The write generation of a collection (or single): read it before the statement it guards. */
  generation(def: Pick<Definition, 'kind' | 'slug'>): number {
    return Math.max(this.generations.get(targetOf(def)) ?? 0, this.floor);
  }

  /** After a write to `def`'s rows committed (or may have): its cached totals are spent. */
  bump(def: Pick<Definition, 'kind' | 'slug'>): void {
    this.generations.set(targetOf(def), ++this.counter);
  }

  /** After a write that may change any collection's rows (deletes, schema changes). */
  bumpAll(): void {
    this.floor = ++this.counter;
    this.generations.clear();
    this.totals.clear();
  }

  /**
   * The total for `key`: a cached one if still valid, answered at once (no promise per request),
   * else a promise of `count()`'s (one count per key and generation at a time), which is then cached.
   */
  total(def: Definition, key: string, count: () => Promise<number>): Awaitable<number> {
    if (this.boundMs === 0) {
      return count();
    }
    const generation = this.generation(def);
    const hit = this.totals.get(key);
    const age = hit ? Date.now() - hit.at : 0;
    if (hit && hit.generation === generation && age < this.boundMs) {
      if (age >= this.boundMs * REFRESH_AFTER) {
        // Errors are the next foreground count's to report.
        this.run(def, key, generation, count).catch(() => undefined);
      }
      return hit.total;
    }
    return this.run(def, key, generation, count);
  }

  /**
   * A total the caller knows exactly without counting (a page that ended before its limit), read
   * by a statement started at `at` under `generation` (read before it).
   */
  remember(def: Definition, key: string, generation: number, at: number, total: number): void {
    if (this.boundMs > 0) {
      this.store(def, key, { total, generation, at });
    }
  }

  private run(
    def: Definition,
    key: string,
    generation: number,
    count: () => Promise<number>,
  ): Promise<number> {
    const flight = `${generation}\u0000${key}`;
    let running = this.running.get(flight);
    if (!running) {
      const at = Date.now();
      running = count()
        .then((total) => {
          this.store(def, key, { total, generation, at });
          return total;
        })
        .finally(() => this.running.delete(flight));
      this.running.set(flight, running);
    }
    return running;
  }

  private store(def: Definition, key: string, counted: Counted): void {
    if (counted.generation !== this.generation(def)) {
      return; // a write committed meanwhile: the total may miss it
    }
    const old = this.totals.peek(key);
    if (old && old.generation === counted.generation && old.at >= counted.at) {
      return;
    }
    this.totals.set(key, counted);
  }
}

function targetOf(def: Pick<Definition, 'kind' | 'slug'>): string {
  return `${def.kind}:${def.slug}`;
}

/** `SVC_COUNT_CACHE_MS`: a whole number of milliseconds, 0 for no cache; default 2000. */
export function countCacheMs(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') {
    return DEFAULT_COUNT_CACHE_MS;
  }
  const value = raw.trim();
  if (!/^[0-9]{1,9}$/.test(value)) {
    throw new ConfigError([
      `${COUNT_CACHE_ENV} must be a whole number of milliseconds (0 turns the cache off)`,
    ]);
  }
  return Number(value);
}
