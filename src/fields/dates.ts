/**
 * The one ISO 8601 date parser of field values and query filters. Accepted:
 * - `YYYY-MM-DD`, a calendar date (midnight UTC where a point in time is needed);
 * - a date-time `YYYY-MM-DDTHH:mm[:ss[.fraction]]` (`T`, `t` or a space) with a zone, `Z` or an
 *   offset `±HH:MM` / `±HHMM`. Without a zone it is ambiguous and refused.
 * Refused too: impossible dates (2023-02-30, 25:00) and instants whose UTC year lies outside
 * 0000-9999 (`0000-01-01T00:00+01:00` is in year -1), which PostgreSQL and ISO strings cannot
 * round-trip alike.
 */

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

export interface IsoDate {
  /** The instant (a date-only value: midnight UTC). */
  date: Date;
  /** The text was `YYYY-MM-DD`: a calendar date, no time zone to shift it. */
  dateOnly: boolean;
}

/** A valid Date whose UTC year is within 0000-9999. */
export function inDateRange(d: Date): boolean {
  const year = d.getUTCFullYear();
  return !Number.isNaN(d.getTime()) && year >= 0 && year <= 9999;
}

/** Parses `s` as given (callers trim); null when it is not one of the accepted forms. */
export function parseIsoDate(s: string): IsoDate | null {
  const d = DATE_ONLY.exec(s);
  if (d) {
    const [y, mo, day] = [+d[1], +d[2], +d[3]];
    return calendarDate(y, mo, day) ? { date: utc(y, mo, day, 0, 0, 0, 0, 0), dateOnly: true } : null;
  }
  const t = DATE_TIME.exec(s);
  if (!t) {
    return null;
  }
  const [y, mo, day, h, mi] = [+t[1], +t[2], +t[3], +t[4], +t[5]];
  const sec = t[6] === undefined ? 0 : +t[6];
  const ms = t[7] === undefined ? 0 : Math.floor(Number(`0.${t[7]}`) * 1000);
  if (!calendarDate(y, mo, day) || h > 23 || mi > 59 || sec > 59) {
    return null;
  }
  let offset = 0;
  if (!t[8]) {
    const oh = +t[10];
    const om = +t[11];
    if (oh > 23 || om > 59) {
      return null;
    }
    offset = (t[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const date = utc(y, mo, day, h, mi, sec, ms, offset);
  return inDateRange(date) ? { date, dateOnly: false } : null;
}

/** The instant of a wall-clock time at `offset` minutes east of UTC. */
function utc(
  y: number,
  mo: number,
  d: number,
  h: number,
  mi: number,
  s: number,
  ms: number,
  offset: number,
): Date {
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, ms);
  return new Date(date.getTime() - offset * 60_000);
}

function calendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) {
    return false;
  }
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
