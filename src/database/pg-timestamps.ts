import { types } from 'pg';

const TIMESTAMPTZ = 1184;
const INSTALLED = Symbol.for('svc:fast-timestamptz');

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
 * `timestamptz` as PostgreSQL writes it in a UTC session, `YYYY-MM-DD HH:MM:SS[.ffffff]+00`,
 * read without a regular expression; undefined for any other form (other offsets, BC, infinity,
 * years before 100), which the stock parser reads. Same Date as the stock parser (a unit test
 * compares them): the fraction becomes milliseconds as `1000 * parseFloat('.ffffff')`.
 */
export function parseUtcTimestamptz(s: string): Date | undefined {
  const n = s.length;
  if (
    n < 22 ||
    n > 29 ||
    n === 23 ||
    !s.endsWith('+00') ||
    s.charCodeAt(4) !== 45 || // -
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 32 || // space
    s.charCodeAt(13) !== 58 || // :
    s.charCodeAt(16) !== 58 ||
    (n > 22 && s.charCodeAt(19) !== 46) // .
  ) {
    return undefined;
  }
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (year < 100 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) {
    return undefined;
  }
  let ms = 0;
  if (n > 22) {
    if (digits(s, 20, n - 23) < 0) {
      return undefined;
    }
    ms = 1000 * parseFloat(s.slice(19, n - 3));
  }
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms));
}

/**
 * Installs the fast `timestamptz` reader in node-pg (process-wide, once): every content row has
 * two timestamps, and the stock reader's regular expressions were the largest source of garbage
 * in a list after the JSON itself (bench). Anything unusual still goes to the stock reader.
 */
export function installFastTimestamps(): void {
  const stock = types.getTypeParser(TIMESTAMPTZ, 'text') as ((s: string) => unknown) & {
    [INSTALLED]?: true;
  };
  if (stock[INSTALLED]) {
    return;
  }
  const fast = Object.assign((s: string) => parseUtcTimestamptz(s) ?? stock(s), {
    [INSTALLED]: true as const,
  });
  types.setTypeParser(TIMESTAMPTZ, 'text', fast);
}
