import { types } from 'pg';

const TIMESTAMPTZ = 1184;

/** The value of the `length` ASCII digits at `at`, or -1 when one is not a digit. */
function digits(s: string, at: number, length: number): number {
  let n = 0;
  for (let i = at; i < at + length; i++) {
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) {
      return -1;
    }
    n = n * 10 + c;
  }
  return n;
}

/**
 * Whether `s` is a `timestamptz` as PostgreSQL writes it in a UTC session,
 * `YYYY-MM-DD HH:MM:SS[.ffffff]+00`, with a year from 100 on. Other offsets, BC, infinity and
 * years before 100 go to node-pg's reader.
 */
function isUtcForm(s: string): boolean {
  const n = s.length;
  return (
    n >= 22 &&
    n <= 29 &&
    n !== 23 &&
    s.endsWith('+00') &&
    s.charCodeAt(4) === 45 && // -
    s.charCodeAt(7) === 45 &&
    s.charCodeAt(10) === 32 && // space
    s.charCodeAt(13) === 58 && // :
    s.charCodeAt(16) === 58 &&
    (n === 22 || (s.charCodeAt(19) === 46 && digits(s, 20, n - 23) >= 0)) && // .ffffff
    digits(s, 0, 4) >= 100 &&
    digits(s, 5, 2) >= 0 &&
    digits(s, 8, 2) >= 0 &&
    digits(s, 11, 2) >= 0 &&
    digits(s, 14, 2) >= 0 &&
    digits(s, 17, 2) >= 0
  );
}

/**
 * A `timestamptz` as the text JSON gives node-pg's Date for it (`Date#toJSON`: ISO 8601 in UTC
 * with milliseconds; null for infinity), written straight from PostgreSQL's text for the UTC form.
 * Content reads take timestamps this way: a Date costs a parse, and JSON.stringify of rows holding
 * Dates runs about three times slower than of rows holding strings (bench). The milliseconds are
 * the fraction's first three digits, zeros added: what node-pg's `1000 * parseFloat('.ffffff')`,
 * truncated by the Date, gives for every fraction PostgreSQL writes (1 to 6 digits, all checked by
 * test/unit/pg-timestamps), with no number in between. Every list answers 2 of these per row.
 */
export function timestamptzJson(s: string): string | null {
  if (isUtcForm(s)) {
    const n = s.length;
    if (n >= 26) {
      return s.slice(0, 10) + 'T' + s.slice(11, 23) + 'Z';
    }
    return (
      s.slice(0, 10) +
      'T' +
      s.slice(11, 19) +
      (n === 22 ? '.000' : (s.slice(19, n - 3) + '00').slice(0, 4)) +
      'Z'
    );
  }
  const value = (types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => unknown)(s);
  return value instanceof Date ? value.toJSON() : null;
}

/**
 * node-pg type readers for content reads (`types` of a query): timestamps as their JSON text
 * (`timestamptzJson`), every other type as node-pg reads it.
 */
export const CONTENT_READ_TYPES = {
  getTypeParser(oid: number, format?: string): unknown {
    return oid === TIMESTAMPTZ && format !== 'binary'
      ? timestamptzJson
      : types.getTypeParser(oid, (format ?? 'text') as 'text');
  },
};
