import { stringProblem } from '../../src/common/input';
import {
  checkJson,
  checkValue,
  isPlainObject,
  isStorableString,
  jsonProblem,
  MAX_JSON_DEPTH,
} from '../../src/fields';

/** `n` arrays around a scalar: the scalar sits at depth n. */
const nest = (n: number): unknown => {
  let v: unknown = 0;
  for (let i = 0; i < n; i++) {
    v = [v];
  }
  return v;
};

describe('fields: jsonProblem (the one JSON walker)', () => {
  it('accepts JSON values', () => {
    for (const v of [
      null,
      true,
      0,
      -1.5,
      '',
      'text',
      [],
      {},
      [1, 'a', null, { b: [true] }],
      Object.create(null),
    ]) {
      expect([v, jsonProblem(v, 8)]).toEqual([v, null]);
    }
  });

  it('bounds the depth: maxDepth levels below the top, not one more', () => {
    expect(jsonProblem(nest(5), 5)).toBeNull();
    expect(jsonProblem(nest(6), 5)).toBe('must be at most 5 levels deep');
    expect(jsonProblem({ a: { b: { c: 1 } } }, 3)).toBeNull();
    expect(jsonProblem({ a: { b: { c: 1 } } }, 2)).toBe('must be at most 2 levels deep');
  });

  it('refuses what jsonb cannot hold and what is not JSON', () => {
    expect(jsonProblem([1, Number.NaN], 8)).toBe('must hold finite numbers only');
    expect(jsonProblem({ a: Infinity }, 8)).toBe('must hold finite numbers only');
    expect(jsonProblem(['a\u0000'], 8)).toBe('holds characters that cannot be stored');
    expect(jsonProblem({ 'k\udc00': 1 }, 8)).toBe('holds a key that cannot be stored');
    for (const v of [undefined, () => 1, new Date(0), new Map(), Symbol('s'), 1n, [undefined]]) {
      expect(jsonProblem(v, 8)).toBe('must be a JSON value');
    }
    expect(jsonProblem({ emoji: '😀' }, 8)).toBeNull();
  });
});

describe('fields: checkJson', () => {
  const limits = { maxDepth: 4, maxLength: 20 };

  it('answers a copy of a valid value', () => {
    const value = { a: [1, 2] };
    const checked = checkJson('data', value, limits);
    expect(checked).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(checked.ok && checked.value).not.toBe(value);
  });

  it('names the value in its problems: isJson, then maxLength (serialised)', () => {
    expect(checkJson('data', nest(5), limits)).toEqual({
      ok: false,
      code: 'isJson',
      message: 'data must be at most 4 levels deep',
    });
    expect(checkJson('data', 'x'.repeat(19), limits)).toEqual({
      ok: false,
      code: 'maxLength',
      message: 'data must be at most 20 characters as JSON',
    });
    expect(checkJson('data', 'x'.repeat(18), limits).ok).toBe(true);
  });

  it('is the json rule of field values (32 levels)', () => {
    const json = { name: 'prefs', type: 'json' as const, required: false };
    expect(checkValue(json, nest(MAX_JSON_DEPTH)).ok).toBe(true);
    expect(checkValue(json, nest(MAX_JSON_DEPTH + 1))).toEqual({
      ok: false,
      code: 'isJson',
      message: `prefs must be at most ${MAX_JSON_DEPTH} levels deep`,
    });
  });
});

describe('fields: storable strings and plain objects', () => {
  it('isStorableString is the request body rule (common/input stringProblem)', () => {
    for (const s of [
      '',
      'plain',
      '😀',
      'a\u0000b',
      'a\ud800',
      '\udc00b',
      '\ud83d\ude00\ud83d',
      'é\u{10ffff}',
    ]) {
      expect([s, isStorableString(s)]).toEqual([s, stringProblem(s) === null]);
    }
    expect(isStorableString('a\ud800')).toBe(false);
    expect(isStorableString('😀')).toBe(true);
  });

  it('isPlainObject: {} and null-prototype objects only', () => {
    expect(isPlainObject({})).toBe(true);
    expect(isPlainObject(Object.create(null))).toBe(true);
    for (const v of [null, [], new Date(0), new Map(), 'x', 1, new (class A {})()]) {
      expect(isPlainObject(v)).toBe(false);
    }
  });
});
