import { mergeClaims } from '../../src/modules/plugins/claims';

/**
 * `mergeClaims` (SPEC 6): what a `customizeClaims` hook returned, as the access token may carry
 * it. Only additions count; core claims are put back as the core built them; frame claims and
 * configured user-field names cannot be added; values that cannot be read as JSON are left out,
 * never written as null.
 */

const CORE = Object.freeze({
  department: 'sales',
  sub: '7d1c1f4e-0000-4000-8000-000000000001',
  email: 'ann@example.com',
  name: 'Ann',
  roleIds: ['r1'],
  ver: 3,
  iat: 1_700_000_000,
  exp: 1_700_000_900,
});
const FIELDS = new Set(['department', 'team']);

const merge = (returned: unknown, core: Record<string, unknown> = { ...CORE }) =>
  mergeClaims(core, returned, FIELDS);

describe('mergeClaims', () => {
  it('adds new claims to the core ones', () => {
    const { claims, dropped } = merge({
      ...CORE,
      tenant: 't1',
      flags: { beta: true },
      list: [1, 'a', null],
      n: 0,
      f: false,
      z: null,
    });
    expect(claims).toEqual({
      ...CORE,
      tenant: 't1',
      flags: { beta: true },
      list: [1, 'a', null],
      n: 0,
      f: false,
      z: null,
    });
    expect(dropped).toEqual([]);
  });

  it('puts every core claim back as the core built it', () => {
    const { claims } = merge({
      sub: 'someone-else',
      email: 'evil@example.com',
      name: 'Evil',
      roleIds: ['super-admin'],
      ver: 99,
      iat: 1,
      exp: 4_102_444_800,
      department: 'evil',
    });
    expect(claims).toEqual(CORE);
  });

  it('puts back core claims the hook removed', () => {
    expect(merge({ tenant: 't1' }).claims).toEqual({ ...CORE, tenant: 't1' });
    expect(merge({}).claims).toEqual(CORE);
  });

  it('answers the core claims alone for anything but an object', () => {
    for (const returned of [
      undefined,
      null,
      'claims',
      42,
      true,
      [{ tenant: 't1' }],
      () => ({ tenant: 't1' }),
    ]) {
      expect(merge(returned).claims).toEqual(CORE);
    }
  });

  it.each(['nbf', 'aud', 'iss', 'typ'])('never adds the frame claim %s', (key) => {
    const { claims, dropped } = merge({ [key]: 'x', tenant: 't1' });
    expect(claims).toEqual({ ...CORE, tenant: 't1' });
    expect(dropped).toEqual([`${key}: may not be added`]);
  });

  it('never adds a claim named after a configured user field (even one the core left out)', () => {
    const { claims, dropped } = merge({ team: 'evil', tenant: 't1' });
    expect(claims).toEqual({ ...CORE, tenant: 't1' });
    expect(dropped).toEqual(['team: may not be added']);
  });

  it('leaves out values that cannot be read as JSON, never writing null', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const returned: Record<string, unknown> = {
      fn: () => 1,
      big: BigInt(1),
      nestedBig: { n: BigInt(2) },
      undef: undefined,
      sym: Symbol('s'),
      cyclic,
      badJson: { toJSON: () => undefined },
      throwsJson: {
        toJSON: () => {
          throw new Error('no');
        },
      },
      nan: Number.NaN,
      inf: Number.POSITIVE_INFINITY,
      ok: 'kept',
    };
    Object.defineProperty(returned, 'boom', {
      enumerable: true,
      get() {
        throw new Error('getter');
      },
    });
    const { claims, dropped } = merge(returned);
    expect(claims).toEqual({ ...CORE, ok: 'kept' });
    for (const key of [
      'fn',
      'big',
      'nestedBig',
      'undef',
      'sym',
      'cyclic',
      'badJson',
      'throwsJson',
      'nan',
      'inf',
      'boom',
    ]) {
      expect(Object.prototype.hasOwnProperty.call(claims, key)).toBe(false);
      expect(dropped).toContain(`${key}: its value could not be read`);
    }
  });

  it('copies values as JSON carries them (no live references, dates as strings)', () => {
    const nested = { a: { b: [1] } };
    const when = new Date('2030-01-02T03:04:05.000Z');
    const { claims } = merge({ nested, when });
    nested.a.b.push(2);
    expect(claims.nested).toEqual({ a: { b: [1] } });
    expect(claims.when).toBe('2030-01-02T03:04:05.000Z');
  });

  it('leaves out, naming them, claims an object inherits (the token library cannot sign them)', () => {
    const returned = JSON.parse(
      '{"toString": "a", "constructor": "b", "valueOf": "c", "hasOwnProperty": "d", "tenant": "t1"}',
    ) as object;
    const { claims, dropped } = merge(returned);
    expect(claims).toEqual({ ...CORE, tenant: 't1' });
    expect(Object.keys(claims)).not.toContain('toString');
    expect(dropped).toEqual([
      'toString: may not be added',
      'constructor: may not be added',
      'valueOf: may not be added',
      'hasOwnProperty: may not be added',
    ]);
  });

  it('never lets __proto__ through (nor changes the claims object’s prototype)', () => {
    const returned = JSON.parse('{"__proto__": {"polluted": true}, "tenant": "t1"}') as object;
    const { claims, dropped } = merge(returned);
    expect(Object.getPrototypeOf(claims)).toBe(Object.prototype);
    expect((claims as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.keys(claims)).not.toContain('__proto__');
    expect(claims).toEqual({ ...CORE, tenant: 't1' });
    expect(dropped).toEqual(['__proto__: may not be added']);
  });

  it('survives a returned object that cannot even be listed', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error('no keys');
        },
      },
    );
    const { claims, dropped } = merge(hostile);
    expect(claims).toEqual(CORE);
    expect(dropped).toEqual(['(the returned claims could not be listed)']);
  });

  it('survives a proxy whose reads throw', () => {
    const hostile = new Proxy(
      { tenant: 't1' },
      {
        get() {
          throw new Error('no reads');
        },
      },
    );
    const { claims, dropped } = merge(hostile);
    expect(claims).toEqual(CORE);
    expect(dropped).toEqual(['tenant: its value could not be read']);
  });

  it('names what it left out, never the value', () => {
    const { dropped } = merge({ nbf: 'secret-value-1', team: 'secret-value-2', fn: () => 'secret-value-3' });
    expect(dropped.join(' ')).not.toContain('secret-value');
  });

  it('does not change the core object it is given', () => {
    const core = { ...CORE };
    merge({ sub: 'x', tenant: 't1' }, core);
    expect(core).toEqual(CORE);
  });
});
