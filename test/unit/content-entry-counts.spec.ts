import type { Definition } from '../../src/modules/content/content.types';
import {
  COUNT_CACHE_ENV,
  countCacheMs,
  DEFAULT_COUNT_CACHE_MS,
  EntryCounts,
} from '../../src/modules/content/entries/entry-counts';

/** The count cache on its own: generations, the bound, coalescing (entries.service.ts uses it). */

const def = (slug: string): Definition => ({ kind: 'collection', slug }) as Definition;
const posts = def('posts');
const people = def('people');

function deferred(): { promise: Promise<number>; resolve: (n: number) => void; reject: (e: Error) => void } {
  let resolve!: (n: number) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<number>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function cache(ms: number | undefined): EntryCounts {
  const before = process.env[COUNT_CACHE_ENV];
  if (ms === undefined) {
    delete process.env[COUNT_CACHE_ENV];
  } else {
    process.env[COUNT_CACHE_ENV] = String(ms);
  }
  try {
    return new EntryCounts();
  } finally {
    if (before === undefined) {
      delete process.env[COUNT_CACHE_ENV];
    } else {
      process.env[COUNT_CACHE_ENV] = before;
    }
  }
}

describe('content entry counts', () => {
  let now = 1_000_000;
  beforeEach(() => {
    now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => jest.restoreAllMocks());

  it('reads SVC_COUNT_CACHE_MS: default 2000, 0 is off, anything else but a whole number is refused', () => {
    expect(countCacheMs(undefined)).toBe(DEFAULT_COUNT_CACHE_MS);
    expect(countCacheMs(' ')).toBe(2000);
    expect(countCacheMs('0')).toBe(0);
    expect(countCacheMs(' 300 ')).toBe(300);
    for (const bad of ['-1', '1.5', '2s', 'abc', '1e3', '9999999999']) {
      expect(() => countCacheMs(bad)).toThrow(/SVC_COUNT_CACHE_MS/);
    }
    expect(cache(undefined).boundMs).toBe(2000);
    expect(cache(250).boundMs).toBe(250);
  });

  it('serves a total until the bound or a write of the collection, then counts again', async () => {
    const c = cache(1000);
    let counted = 0;
    const count = () => Promise.resolve(++counted * 10);
    expect(await c.total(posts, 'k', count)).toBe(10);
    now += 999;
    expect(await c.total(posts, 'k', count)).toBe(10);
    now += 1;
    expect(await c.total(posts, 'k', count)).toBe(20); // the bound reached
    c.bump(people); // another collection: no effect
    expect(await c.total(posts, 'k', count)).toBe(20);
    c.bump(posts);
    expect(await c.total(posts, 'k', count)).toBe(30);
    c.bumpAll();
    expect(await c.total(posts, 'k', count)).toBe(40);
    expect(counted).toBe(4);
  });

  it('with 0 counts every time', async () => {
    const c = cache(0);
    const count = jest.fn(() => Promise.resolve(7));
    await c.total(posts, 'k', count);
    await c.total(posts, 'k', count);
    c.remember(posts, 'k', c.generation(posts), now, 3);
    expect(await c.total(posts, 'k', count)).toBe(7);
    expect(count).toHaveBeenCalledTimes(3);
  });

  it('answers a cached total at once, without a promise', async () => {
    const c = cache(1000);
    const count = jest.fn().mockResolvedValue(4);
    expect(await c.total(posts, 'k', count)).toBe(4);
    expect(c.total(posts, 'k', count)).toBe(4);
    expect(count).toHaveBeenCalledTimes(1);
  });

  it('runs one count for concurrent misses of one key and generation, never across a write', async () => {
    const c = cache(1000);
    const first = deferred();
    const second = deferred();
    const count = jest.fn().mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    const a = c.total(posts, 'k', count);
    const b = c.total(posts, 'k', count);
    expect(count).toHaveBeenCalledTimes(1);
    c.bump(posts); // a write committed while the count ran: later callers do not join it
    const after = c.total(posts, 'k', count);
    expect(count).toHaveBeenCalledTimes(2);
    first.resolve(5);
    second.resolve(6);
    expect(await Promise.all([a, b, after])).toEqual([5, 5, 6]);
    // Only the count that read the current generation was kept.
    expect(await c.total(posts, 'k', count)).toBe(6);
    expect(count).toHaveBeenCalledTimes(2);
  });

  it('never keeps a count that a write overtook', async () => {
    const c = cache(1000);
    const running = deferred();
    const count = jest.fn().mockReturnValueOnce(running.promise).mockResolvedValue(9);
    const a = c.total(posts, 'k', count);
    c.bump(posts);
    running.resolve(1);
    expect(await a).toBe(1); // the caller that started before the write gets what it counted
    expect(await c.total(posts, 'k', count)).toBe(9);
    expect(count).toHaveBeenCalledTimes(2);
  });

  it('a failed count is not kept and reaches every caller waiting on it', async () => {
    const c = cache(1000);
    const running = deferred();
    const count = jest.fn().mockReturnValueOnce(running.promise).mockResolvedValue(4);
    const a = c.total(posts, 'k', count);
    const b = c.total(posts, 'k', count);
    running.reject(new Error('gone'));
    await expect(a).rejects.toThrow('gone');
    await expect(b).rejects.toThrow('gone');
    expect(await c.total(posts, 'k', count)).toBe(4);
  });

  it('refreshes in the background past 3/4 of the bound, still answering the cached total', async () => {
    const c = cache(1000);
    const refresh = deferred();
    const count = jest
      .fn()
      .mockResolvedValueOnce(1)
      .mockReturnValueOnce(refresh.promise)
      .mockResolvedValue(3);
    expect(await c.total(posts, 'k', count)).toBe(1);
    now += 800;
    expect(await c.total(posts, 'k', count)).toBe(1);
    expect(await c.total(posts, 'k', count)).toBe(1);
    expect(count).toHaveBeenCalledTimes(2); // one refresh, shared
    refresh.resolve(2);
    await refresh.promise;
    await Promise.resolve();
    expect(await c.total(posts, 'k', count)).toBe(2);
    now += 999; // the refreshed total's age counts from its own start (at +800)
    expect(await c.total(posts, 'k', count)).toBe(2);
    expect(count).toHaveBeenCalledTimes(3); // and it is old enough to be refreshed itself
    await Promise.resolve();
    now += 1;
    expect(await c.total(posts, 'k', count)).toBe(3);
  });

  it('remembers totals a page proved, under the generation read before the page', async () => {
    const c = cache(1000);
    const count = jest.fn().mockResolvedValue(99);
    const generation = c.generation(posts);
    c.remember(posts, 'k', generation, now, 3);
    expect(await c.total(posts, 'k', count)).toBe(3);
    const stale = c.generation(posts);
    c.bump(posts);
    c.remember(posts, 'k', stale, now, 4); // read before a write: not kept
    expect(await c.total(posts, 'k', count)).toBe(99);
    expect(count).toHaveBeenCalledTimes(1);
  });

  it('keeps at most 1,000 totals', async () => {
    const c = cache(1000);
    for (let i = 0; i < 1500; i++) {
      await c.total(posts, `k${i}`, () => Promise.resolve(i));
    }
    const count = jest.fn().mockResolvedValue(-1);
    expect(await c.total(posts, 'k1499', count)).toBe(1499);
    expect(await c.total(posts, 'k0', count)).toBe(-1);
  });
});
