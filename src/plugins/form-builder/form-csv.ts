/**
 * CSV of submissions (RFC 4180): fields separated by `,`, records ended by CRLF, a field holding
 * `"`, `,`, CR or LF quoted with its `"` doubled. Formula-safe (CONTRACTS 13.2.2): a value a
 * spreadsheet would run as a formula (leading `=`, `+`, `-`, `@`, or a tab or CR, which some
 * spreadsheets skip before looking) is prefixed with `'`.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: absent is empty, a boolean `true`/`false`, a number as JavaScript writes it. */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) {
    return '';
  }
  let s =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : JSON.stringify(value);
  if (FORMULA_START.test(s)) {
    s = `'${s}`;
  }
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One record, CRLF included. */
export function csvRow(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}
