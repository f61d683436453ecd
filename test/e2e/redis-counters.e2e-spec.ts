import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { RedisThrottlerStorage } from '../../src/common/redis-throttler-storage';

const REDIS_URL = 'redis://127.0.0.1:6379';

/**
 * The Redis rate-limit counters (REDIS_URL): hits on one counter are coalesced into batched
 * calls, and every hit must still get its own place in the count, on one instance or several.
 * The rules both stores share (window, block, expiry) are in counter-stores.e2e-spec.ts.
 */
describe('Redis rate-limit counters', () => {
  const prefix = `svc-test-${randomUUID()}:`;
  // These tests are about counting, not the 250 ms call timeout (the stall and outage tests are):
  // on a busy CI machine Redis itself may take longer to get the CPU.
  const a = new RedisThrottlerStorage(REDIS_URL, { keyPrefix: prefix, commandTimeout: 5000 });
  const b = new RedisThrottlerStorage(REDIS_URL, { keyPrefix: prefix, commandTimeout: 5000 });
  // What Nest does at boot: calls are not queued while the client connects.
  beforeAll(() => Promise.all([a.onModuleInit(), b.onModuleInit()]));
  afterAll(async () => {
    const keys = await a.redis.keys(`${prefix}*`);
    if (keys.length) {
      await a.redis.del(...keys.map((k) => k.slice(prefix.length)));
    }
    a.onModuleDestroy();
    b.onModuleDestroy();
  });

  it('gives 60 parallel hits the places 1 to 60 and blocks exactly those over the limit, in fewer calls', async () => {
    const calls = jest.spyOn(RedisThrottlerStorage.prototype as never, 'hits');
    try {
      const records = await Promise.all(
        Array.from({ length: 60 }, () => a.increment('burst', 60_000, 25, 60_000, 'apikey')),
      );
      expect(records.map((r) => r.totalHits).sort((x, y) => x - y)).toEqual(
        Array.from({ length: 60 }, (_, i) => i + 1),
      );
      for (const r of records) {
        expect(r.isBlocked).toBe(r.totalHits > 25);
        expect(r.timeToExpire).toBeGreaterThan(0);
        expect(r.timeToBlockExpire).toBe(r.isBlocked ? 60 : 0);
      }
      expect(calls.mock.calls.length).toBeGreaterThan(0);
      expect(calls.mock.calls.length).toBeLessThan(60);
    } finally {
      calls.mockRestore();
    }
  });

  it('shares one count between two instances: unique places, exactly the hits over the limit blocked', async () => {
    const records = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).increment('shared', 60_000, 30, 60_000, 'apikey')),
    );
    expect(new Set(records.map((r) => r.totalHits)).size).toBe(40);
    expect(Math.max(...records.map((r) => r.totalHits))).toBe(40);
    expect(records.filter((r) => r.isBlocked)).toHaveLength(10);
  });

  it('counts a hit whose answer arrived while the event loop was stalled past the call timeout', async () => {
    // The default 250 ms. A busy machine (a CPU quota, a long collection, an instance booting
    // beside two others) can hold the event loop longer than that while Redis answers at once:
    // that answer is there to read, and no outage is reported.
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const stalled = new RedisThrottlerStorage(REDIS_URL, { keyPrefix: prefix });
    try {
      await stalled.onModuleInit();
      await stalled.increment('stall', 60_000, 100, 60_000, 'apikey');
      for (let i = 0; i < 3; i++) {
        const hit = stalled.increment('stall', 60_000, 100, 60_000, 'apikey');
        const until = performance.now() + 400;
        while (performance.now() < until) {
          // the event loop held, as a busy process holds it
        }
        await expect(hit).resolves.toMatchObject({ totalHits: i + 2, isBlocked: false });
      }
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
      stalled.onModuleDestroy();
    }
  });

  it('fails every waiting hit when Redis cannot be reached, and logs the outage once', async () => {
    const errors = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const down = new RedisThrottlerStorage('redis://127.0.0.1:1', {
      keyPrefix: prefix,
      retryStrategy: () => null,
    });
    try {
      await down.onModuleInit();
      const results = await Promise.allSettled(
        Array.from({ length: 5 }, () => down.increment('k', 1000, 5, 1000, 'apikey')),
      );
      expect(results.every((r) => r.status === 'rejected')).toBe(true);
      await expect(down.increment('k', 1000, 5, 1000, 'apikey')).rejects.toThrow();
      expect(errors).toHaveBeenCalledTimes(1);
    } finally {
      errors.mockRestore();
      down.onModuleDestroy();
    }
  });
});
