import { types } from 'pg';
import { CONTENT_READ_TYPES, timestamptzJson } from '../../src/database/pg-timestamps';

const stock = types.getTypeParser(1184, 'text') as (s: string) => unknown;

/** A deterministic pseudo-random generator, so a failure names a reproducible case. */
function rng(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** How PostgreSQL writes a timestamptz in a session at `offset` (e.g. '+00', '+05:30'). */
function pgText(ms: number, micros: number, offset: string): string {
  const d = new Date(ms);
  let text =
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)} ` +
    `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  if (micros > 0) {
    text += `.${pad(micros, 6).replace(/0+$/, '')}`;
  }
  return text + offset;
}

/** What JSON.stringify writes for node-pg's own value of `text`. */
const stockJson = (text: string): unknown => JSON.parse(JSON.stringify(stock(text)) ?? 'null');

describe('timestamptz as JSON text (content reads)', () => {
  it('writes 20,000 UTC timestamps as JSON writes the Date of the stock reader', () => {
    const random = rng(7);
    const from = Date.UTC(100, 0, 1);
    const to = Date.UTC(9999, 11, 31);
    for (let i = 0; i < 20_000; i++) {
      const ms = Math.floor(from + random() * (to - from));
      // Every digit count of the fraction, and fractions just under a millisecond boundary.
      const micros =
        i % 7 === 0
          ? 0
          : i % 7 === 1
            ? Math.floor(random() * 1000) * 1000 + 999
            : Math.floor(random() * 1_000_000);
      const text = pgText(ms - (ms % 1000), micros, '+00');
      expect({ text, json: timestamptzJson(text) }).toEqual({ text, json: stockJson(text) });
    }
  });

  it('writes every fraction PostgreSQL can write (1 to 6 digits) as the stock reader truncates it', () => {
    let checked = 0;
    for (let digits = 1; digits <= 6; digits++) {
      for (let f = 0; f < 10 ** digits; f++) {
        const fraction = pad(f, digits);
        if (fraction.endsWith('0')) {
          continue; // PostgreSQL drops trailing zeros: that text is the shorter fraction's.
        }
        const text = `2026-11-21 19:08:07.${fraction}+00`;
        const json = timestamptzJson(text);
        // The stock reader's milliseconds (postgres-date: `1000 * parseFloat(fraction)`, which
        // Date.UTC truncates), without a Date each: the random test above compares with the Date.
        const ms = Math.trunc(1000 * parseFloat(`.${fraction}`));
        const expected = `2026-11-21T19:08:07.${pad(ms, 3)}Z`;
        if (json !== expected) {
          expect({ text, json }).toEqual({ text, json: expected });
        }
        checked++;
      }
    }
    // 9 in 10 of the 10^d fractions of d digits end in another digit than 0.
    expect(checked).toBe(999_999);
  });

  it('writes every other form as JSON writes the value of the stock reader', () => {
    for (const text of [
      '2026-11-21 19:08:07+05:30',
      '2026-11-21 19:08:07.5-08',
      '0044-03-15 12:00:00+00 BC',
      '0099-01-01 00:00:00+00',
      '2026-11-21 19:08:07.12345678+00',
      '2026-11-21 19:08:07.+00',
      '2026-11-21T19:08:07+00',
      '12026-11-21 19:08:07+00',
      'infinity',
      '-infinity',
    ]) {
      expect({ text, json: timestamptzJson(text) }).toEqual({ text, json: stockJson(text) });
    }
    expect(timestamptzJson('2026-11-21 19:08:07.9999+00')).toBe('2026-11-21T19:08:07.999Z');
    expect(timestamptzJson('2026-11-21 19:08:07+00')).toBe('2026-11-21T19:08:07.000Z');
  });

  it('gives content reads the JSON timestamp reader and the reader of node-pg for every other type', () => {
    expect(CONTENT_READ_TYPES.getTypeParser(1184, 'text')).toBe(timestamptzJson);
    for (const oid of [16, 20, 25, 701, 1082, 1114, 2950, 3802, 1009, 2951]) {
      expect(CONTENT_READ_TYPES.getTypeParser(oid, 'text')).toBe(types.getTypeParser(oid, 'text'));
    }
    expect(CONTENT_READ_TYPES.getTypeParser(1184, 'binary')).toBe(types.getTypeParser(1184, 'binary'));
  });
});
