import { checkValue, inDateRange, parseIsoDate } from '../../src/fields';

/** The instant as an ISO string, or null when refused. */
const iso = (s: string): string | null => parseIsoDate(s)?.date.toISOString() ?? null;

/** Each string is refused (named in a failure). */
const expectRefused = (...strings: string[]): void => {
  expect(strings.map((s) => [s, parseIsoDate(s)])).toEqual(strings.map((s) => [s, null]));
};

describe('fields: parseIsoDate', () => {
  it('reads a calendar date as midnight UTC, marked date-only', () => {
    expect(parseIsoDate('2024-03-05')).toEqual({
      date: new Date('2024-03-05T00:00:00.000Z'),
      dateOnly: true,
    });
    expect(parseIsoDate('2024-03-05T00:00:00Z')?.dateOnly).toBe(false);
  });

  it('takes years 0000 to 9999 and nothing outside', () => {
    expect(iso('0000-01-01')).toBe('0000-01-01T00:00:00.000Z');
    expect(iso('0000-01-01T00:00:00Z')).toBe('0000-01-01T00:00:00.000Z');
    expect(iso('9999-12-31')).toBe('9999-12-31T00:00:00.000Z');
    expect(iso('9999-12-31T23:59:59.999Z')).toBe('9999-12-31T23:59:59.999Z');
    expectRefused('10000-01-01', '+010000-01-01', '-000001-01-01', '999-01-01', '10000-01-01T00:00:00Z');
  });

  it('bounds the instant after the offset, not the wall-clock year', () => {
    // Still year 0000 / 9999 in UTC:
    expect(iso('0000-01-01T00:00:00-01:00')).toBe('0000-01-01T01:00:00.000Z');
    expect(iso('9999-12-31T23:59:59+01:00')).toBe('9999-12-31T22:59:59.000Z');
    // Year -1 and year 10000 in UTC:
    expect(parseIsoDate('0000-01-01T00:00:00+00:01')).toBeNull();
    expect(parseIsoDate('9999-12-31T23:59:59-00:01')).toBeNull();
  });

  it('knows leap days', () => {
    expect(iso('2024-02-29')).toBe('2024-02-29T00:00:00.000Z');
    expect(iso('2000-02-29')).toBe('2000-02-29T00:00:00.000Z');
    expect(iso('0000-02-29')).toBe('0000-02-29T00:00:00.000Z'); // proleptic Gregorian: 0 is a leap year
    expect(iso('2024-02-29T12:00:00Z')).toBe('2024-02-29T12:00:00.000Z');
    expectRefused('2023-02-29', '1900-02-29', '2100-02-29', '2023-02-29T00:00:00Z', '2024-02-30');
  });

  it('refuses impossible dates and times', () => {
    expectRefused(
      '2024-00-10',
      '2024-13-01',
      '2024-04-31',
      '2024-01-00',
      '2024-01-01T24:00:00Z',
      '2024-01-01T23:60:00Z',
      '2024-01-01T23:59:60Z',
    );
  });

  it('turns offsets into UTC: ±HH:MM, ±HHMM, Z or z', () => {
    expect(iso('2024-01-01T10:00:00+05:30')).toBe('2024-01-01T04:30:00.000Z');
    expect(iso('2024-01-01T10:00:00+0530')).toBe('2024-01-01T04:30:00.000Z');
    expect(iso('2024-01-01T10:00:00-08:00')).toBe('2024-01-01T18:00:00.000Z');
    expect(iso('2024-01-01T23:30:00-01:00')).toBe('2024-01-02T00:30:00.000Z');
    expect(iso('2024-01-01T10:00:00+00:00')).toBe('2024-01-01T10:00:00.000Z');
    expect(iso('2024-01-01t10:00z')).toBe('2024-01-01T10:00:00.000Z');
    expect(iso('2024-01-01 10:00:00Z')).toBe('2024-01-01T10:00:00.000Z');
    expectRefused('2024-01-01T10:00:00+24:00', '2024-01-01T10:00:00+05:60', '2024-01-01T10:00:00+5:30');
  });

  it('refuses a date-time without a zone and anything that is not ISO 8601', () => {
    expectRefused(
      '2024-01-01T10:00:00',
      '2024-01-01T10:00',
      '2024-1-1',
      '20240101',
      'Jan 1 2024',
      '',
      ' 2024-01-01',
    );
  });

  it('keeps milliseconds of a fraction (up to 9 digits, truncated)', () => {
    expect(iso('2024-01-01T00:00:00.5Z')).toBe('2024-01-01T00:00:00.500Z');
    expect(iso('2024-01-01T00:00:00.123456789Z')).toBe('2024-01-01T00:00:00.123Z');
    expect(parseIsoDate('2024-01-01T00:00:00.1234567890Z')).toBeNull();
  });
});

describe('fields: inDateRange', () => {
  it('is a valid Date with a UTC year of 0 to 9999', () => {
    expect(inDateRange(new Date('0000-01-01T00:00:00Z'))).toBe(true);
    expect(inDateRange(new Date('9999-12-31T23:59:59.999Z'))).toBe(true);
    expect(inDateRange(new Date('+010000-01-01T00:00:00Z'))).toBe(false);
    expect(inDateRange(new Date('-000001-12-31T23:59:59Z'))).toBe(false);
    expect(inDateRange(new Date(Number.NaN))).toBe(false);
  });
});

describe('fields: date values (checkValue)', () => {
  const date = { name: 'birthday', type: 'date' as const, required: false };

  it('keeps a calendar date as given (trimmed) and normalises a date-time to UTC', () => {
    expect(checkValue(date, ' 2024-02-29 ')).toEqual({ ok: true, value: '2024-02-29' });
    expect(checkValue(date, '2024-02-29T01:00:00+02:00')).toEqual({
      ok: true,
      value: '2024-02-28T23:00:00.000Z',
    });
  });

  it('refuses what the parser refuses, and non-strings', () => {
    for (const v of [
      '2023-02-29',
      '10000-01-01',
      '0000-01-01T00:00:00+00:01',
      '2024-01-01T10:00:00',
      20240101,
      true,
    ]) {
      expect([v, checkValue(date, v)]).toEqual([v, expect.objectContaining({ ok: false, code: 'isDate' })]);
    }
  });
});
