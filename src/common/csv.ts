import type { Writable } from 'node:stream';

/**
 * CSV (RFC 4180) for the service's exports (the audit log, the form builder's submissions):
 * fields separated by `,`, records ended by CRLF. A field holding `,`, `;` (the separator of
 * spreadsheets in many locales), `"`, CR or LF is quoted, its `"` doubled. Formula-safe (OWASP's
 * CSV injection advice): a text value a spreadsheet would run as a formula (leading `=`, `+`,
 * `-`, `@`, or a tab or CR, which some spreadsheets skip before looking) is prefixed with `'`.
 * Numbers are written as numbers: `-5` stays `-5`.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",;\r\n]/;

/**
 * One cell: absent is empty, a boolean `true`/`false`, a number as JavaScript writes it, a date in
 * ISO 8601, an object as JSON.
 */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) {
    return '';
  }
  // A finite number or a bigint cannot hold a formula; NaN and Infinity are written as text.
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint') {
    return String(value);
  }
  let s =
    typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : value instanceof Date
          ? value.toISOString()
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

/**
 * Writes `chunk` and waits while the stream's buffer is full, so a long export holds one batch
 * in memory however slowly the client reads; rejects once the client is gone.
 */
export async function writeChunk(out: Writable, chunk: string): Promise<void> {
  if (out.write(chunk)) {
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', gone);
      resolve();
    };
    const gone = () => {
      out.off('drain', done);
      out.off('close', gone);
      reject(new Error('client went away'));
    };
    out.on('drain', done);
    out.on('close', gone);
  });
}
