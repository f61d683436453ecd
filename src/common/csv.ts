import type { Writable } from 'node:stream';

/**
 * CSV (RFC 4180) for the service's exports (the audit log, the form builder's submissions):
 * fields separated by `,`, records ended by CRLF, a field holding `"`, `,`, CR or LF quoted with
 * its `"` doubled. Formula-safe: a value a spreadsheet would run as a formula (leading `=`, `+`,
 * `-`, `@`, or a tab or CR, which some spreadsheets skip before looking) is prefixed with `'`.
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: absent is empty, a boolean `true`/`false`, a number as JavaScript writes it, an object as JSON. */
export function csvCell(value: unknown): string {
  if (value === undefined || value === null) {
    return '';
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
