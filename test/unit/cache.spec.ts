import { andThen, TtlCache } from '../../src/common/cache';

/** A clock the test moves by hand (starts above 0: lru-cache reads a start of 0 as "no TTL"). */
function clock() {
  let t = 1000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

/** A loader whose answers the test releases by hand, to interleave loads with invalidate(). */
function loader<V>(value: () => V) {
  const pending: Array<() => void> = [];
  let calls = 0;
  const load = async (): Promise<V> => {
    calls++;
    const v = value();
    await new Promise<void>((release) => pending.push(release));
    return v;
  };
  return {
    load,
    calls: () => calls,
    releaseAll: () => pending.splice(0).forEach((release) => release()),
  };
}

async function loaded<V>(cache: TtlCache<string, V>, key: string, value: V): Promise<void> {
  await cache.getOrLoad(key, () => Promise.resolve(value));
}

describe('TtlCache', () => {
  it('serves a stored value until the TTL is over, then loads again', async () => {
    const c = clock();
    const cache = new TtlCache<string, number>({ max: 10, ttlMs: 5000, now: c.now });
    let n = 0;
    const load = () => Promise.resolve(++n);
    expect(await cache.getOrLoad('a', load)).toBe(1);
    c.advance(4999);
    expect(await cache.getOrLoad('a', load)).toBe(1);
    c.advance(2);
    expect(await cache.getOrLoad('a', load)).toBe(2);
  });

  it('caches null (an unknown key is a hit too)', async () => {
    const cache = new TtlCache<string, string | null>({ max: 10, ttlMs: 5000 });
    const load = jest.fn(() => Promise.resolve(null));
    expect(await cache.getOrLoad('k', load)).toBeNull();
    expect(await cache.getOrLoad('k', load)).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps at most `max` entries, forgetting the least recently used', async () => {
    const cache = new TtlCache<string, string>({ max: 2, ttlMs: 60_000 });
    await loaded(cache, 'a', 'A');
    await loaded(cache, 'b', 'B');
    await loaded(cache, 'a', 'not read'); // a hit: 'a' is now the most recently used
    await loaded(cache, 'c', 'C'); // evicts 'b'
    const load = jest.fn((v: string) => Promise.resolve(v));
    expect(await cache.getOrLoad('a', () => load('A2'))).toBe('A');
    expect(await cache.getOrLoad('c', () => load('C2'))).toBe('C');
    expect(await cache.getOrLoad('b', () => load('B2'))).toBe('B2');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not store a load that started before invalidate() (no stale value put back)', async () => {
    const cache = new TtlCache<string, string>({ max: 10, ttlMs: 60_000 });
    let row = 'old';
    const f = loader(() => row);
    const stale = cache.getOrLoad('k', f.load); // reads the old row ...
    row = 'new'; // ... a write commits ...
    cache.invalidate('k'); // ... and invalidates
    f.releaseAll();
    expect(await stale).toBe('old'); // answered to its caller, not stored

    const fresh = cache.getOrLoad('k', f.load);
    f.releaseAll();
    expect(await fresh).toBe('new');
    expect(await cache.getOrLoad('k', f.load)).toBe('new');
    expect(f.calls()).toBe(2);
  });

  it('invalidating one key also keeps a running load of another key from storing', async () => {
    const cache = new TtlCache<string, string>({ max: 10, ttlMs: 60_000 });
    const f = loader(() => 'v');
    const running = cache.getOrLoad('other', f.load);
    cache.invalidate('k');
    f.releaseAll();
    await running;
    const again = cache.getOrLoad('other', f.load);
    f.releaseAll();
    await again;
    expect(f.calls()).toBe(2);
  });

  it('invalidate() without a key forgets every entry', async () => {
    const cache = new TtlCache<string, string>({ max: 10, ttlMs: 60_000 });
    await loaded(cache, 'a', 'A');
    await loaded(cache, 'b', 'B');
    cache.invalidate();
    expect(await cache.getOrLoad('a', () => Promise.resolve('A2'))).toBe('A2');
    expect(await cache.getOrLoad('b', () => Promise.resolve('B2'))).toBe('B2');
  });

  it('stores nothing when the load fails', async () => {
    const cache = new TtlCache<string, string>({ max: 10, ttlMs: 60_000 });
    await expect(cache.getOrLoad('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.getOrLoad('k', () => Promise.resolve('up'))).toBe('up');
  });
});

describe('andThen', () => {
  it('applies f at once to a value that is there, and after a promise to its value', async () => {
    expect(andThen(2, (v) => v + 1)).toBe(3);
    const later = andThen(Promise.resolve(2), (v) => v + 1);
    expect(later).toBeInstanceOf(Promise);
    expect(await later).toBe(3);
  });

  it('throws the way the value came: at once for a value, as a rejection for a promise', async () => {
    const boom = (): never => {
      throw new Error('no');
    };
    expect(() => andThen(1, boom)).toThrow('no');
    await expect(andThen(Promise.resolve(1), boom)).rejects.toThrow('no');
    await expect(andThen(Promise.reject(new Error('down')), () => 1)).rejects.toThrow('down');
  });

  it('answers a warm cache without a promise', async () => {
    const cache = new TtlCache<string, number>({ max: 10, ttlMs: 60_000 });
    expect(
      await andThen(
        cache.getOrLoad('k', () => Promise.resolve(5)),
        (v) => v * 2,
      ),
    ).toBe(10);
    expect(
      andThen(
        cache.getOrLoad('k', () => Promise.resolve(6)),
        (v) => v * 2,
      ),
    ).toBe(10);
  });
});
