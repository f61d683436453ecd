import { randomUUID } from 'node:crypto';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { MemoryCounterStore } from '../../src/common/memory-counter-store';
import { RedisThrottlerStorage } from '../../src/common/redis-throttler-storage';

const REDIS_URL = 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Store {
  counters: ThrottlerStorage;
  close(): Promise<void>;
}

/** A fresh store of each kind: Redis under a key prefix of its own, memory in this process. */
const kinds: Array<[string, () => Promise<Store>]> = [
  [
    'memory',
    async () => {
      const counters = new MemoryCounterStore();
      return { counters, close: async () => counters.onApplicationShutdown() };
    },
  ],
  [
    'Redis',
    async () => {
      const prefix = `svc-test-${randomUUID()}:`;
      // These tests are about the rules, not the 250 ms call timeout (tested in redis-counters
      // and redis-outage): on a busy CI machine Redis itself may take longer to get the CPU.
      const counters = new RedisThrottlerStorage(REDIS_URL, { keyPrefix: prefix, commandTimeout: 5000 });
      await counters.onModuleInit();
      return {
        counters,
        close: async () => {
          const keys = await counters.redis.keys(`${prefix}*`);
          if (keys.length) {
            await counters.redis.del(...keys.map((k) => k.slice(prefix.length)));
          }
          counters.onModuleDestroy();
        },
      };
    },
  ],
];

/**
 * One suite, both stores: without REDIS_URL the counters are in memory, with it in Redis, and a
 * budget must answer the same either way (window, limit, block, the figures behind X-RateLimit-*
 * and Retry-After). Expiries are real waits on the store's own clock (Redis keeps its own), with
 * margins of 100 ms or more around every boundary.
 */
describe.each(kinds)('rate-limit counters in %s', (_kind, make) => {
  let store: Store;
  let c: ThrottlerStorage;
  beforeAll(async () => {
    store = await make();
    c = store.counters;
  });
  afterAll(() => store.close());

  it('counts each hit in the window and tells the seconds left in it', async () => {
    for (let i = 1; i <= 3; i++) {
      expect(await c.increment('plain', 60_000, 5, 60_000, 'apikey')).toEqual({
        totalHits: i,
        timeToExpire: 60,
        isBlocked: false,
        timeToBlockExpire: 0,
      });
    }
  });

  it('blocks from the first hit over the limit for the block duration; blocked hits still count', async () => {
    const hit = () => c.increment('over', 60_000, 2, 30_000, 'apikey');
    await hit();
    await hit();
    expect(await hit()).toEqual({ totalHits: 3, timeToExpire: 60, isBlocked: true, timeToBlockExpire: 30 });
    expect(await hit()).toEqual({ totalHits: 4, timeToExpire: 60, isBlocked: true, timeToBlockExpire: 30 });
  });

  it('gives 60 parallel hits the places 1 to 60 and blocks exactly those over the limit', async () => {
    const records = await Promise.all(
      Array.from({ length: 60 }, () => c.increment('burst', 60_000, 25, 60_000, 'apikey')),
    );
    expect(records.map((r) => r.totalHits).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 60 }, (_, i) => i + 1),
    );
    for (const r of records) {
      expect(r.isBlocked).toBe(r.totalHits > 25);
      expect(r.timeToBlockExpire).toBe(r.isBlocked ? 60 : 0);
    }
  });

  it('counts separate keys and budgets apart', async () => {
    await Promise.all([
      c.increment('x', 60_000, 5, 60_000, 'apikey'),
      c.increment('x', 60_000, 5, 60_000, 'apikey'),
    ]);
    expect((await c.increment('x', 60_000, 5, 60_000, 'global')).totalHits).toBe(1);
    expect((await c.increment('y', 60_000, 5, 60_000, 'apikey')).totalHits).toBe(1);
    expect((await c.increment('x', 60_000, 5, 60_000, 'apikey')).totalHits).toBe(3);
  });

  it('starts a new count at 1 when the window is over', async () => {
    const hit = () => c.increment('window', 300, 5, 300, 'apikey');
    await hit();
    expect(await hit()).toMatchObject({ totalHits: 2, isBlocked: false, timeToExpire: 1 });
    // Fixed waits on purpose: expiry by the store's clock is what is tested; nothing announces it.
    await sleep(450);
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false });
  });

  it('lifts a block when it ends; hits during the block count in their own window', async () => {
    // Window 300 ms, block 800 ms: the block outlives the window it began in.
    const hit = () => c.increment('block', 300, 1, 800, 'apikey');
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false });
    expect(await hit()).toMatchObject({ totalHits: 2, isBlocked: true, timeToBlockExpire: 1 });
    await sleep(450); // window over, block on: a new window, still refused
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: true });
    await sleep(550); // block over (950 ms > 800), that window over too
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: false, timeToBlockExpire: 0 });
    expect(await hit()).toMatchObject({ totalHits: 2, isBlocked: true });
  });

  it('refuses hits made during a block even once their own window would allow them', async () => {
    const hit = () => c.increment('hammer', 200, 2, 700, 'apikey');
    await hit();
    await hit();
    expect(await hit()).toMatchObject({ isBlocked: true });
    await sleep(300); // a new window begins while blocked
    expect(await hit()).toMatchObject({ totalHits: 1, isBlocked: true });
  });
});

describe('memory counters: bounded, O(1) per hit', () => {
  it('keeps no per-hit data: 200,000 hits on one key are one counter', async () => {
    const store = new MemoryCounterStore();
    let last;
    for (let i = 0; i < 200_000; i++) {
      last = await store.increment('busy', 3_600_000, 1_000_000, 3_600_000, 'apikey');
    }
    expect(last).toMatchObject({ totalHits: 200_000, isBlocked: false });
    expect(store.size('apikey')).toBe(1);
    store.onApplicationShutdown();
  });

  it('at the key cap forgets the least recently used counter and refuses no new client', async () => {
    const store = new MemoryCounterStore(100);
    // A client at its limit (blocked), kept busy while 1,000 new clients come.
    await store.increment('steady', 60_000, 1, 60_000, 'global');
    for (let i = 0; i < 1000; i++) {
      const record = await store.increment(`new-${i}`, 60_000, 1, 60_000, 'global');
      expect(record).toMatchObject({ totalHits: 1, isBlocked: false });
      if (i % 10 === 0) {
        expect(await store.increment('steady', 60_000, 1, 60_000, 'global')).toMatchObject({
          isBlocked: true,
        });
      }
    }
    expect(store.size('global')).toBe(100);
    // The earliest of the new clients were forgotten: they start again at 1.
    expect(await store.increment('new-0', 60_000, 1, 60_000, 'global')).toMatchObject({ totalHits: 1 });
    // The cap is per budget: sign-in counters are not pushed out by a flood on the global limit.
    await store.increment('signin', 60_000, 5, 60_000, 'auth');
    for (let i = 0; i < 300; i++) {
      await store.increment(`flood-${i}`, 60_000, 5, 60_000, 'global');
    }
    expect(await store.increment('signin', 60_000, 5, 60_000, 'auth')).toMatchObject({ totalHits: 2 });
    store.onApplicationShutdown();
  });

  it('drops counters whose window and block are over', async () => {
    const store = new MemoryCounterStore();
    for (let i = 0; i < 50; i++) {
      await store.increment(`short-${i}`, 100, 5, 100, 'global');
    }
    await store.increment('blocked', 100, 0, 2_000, 'global'); // blocked for 2 s
    await store.increment('long', 60_000, 5, 60_000, 'global');
    expect(store.size('global')).toBe(52);
    await sleep(250);
    store.purgeExpired();
    expect(store.size('global')).toBe(2);
    store.onApplicationShutdown();
  });
});
