import { hash } from 'node:crypto';
import { quoteIdent } from './schema';

/**
 * An entry's ETag: a strong tag naming its stored state. It is derived from the row's `xmin`
 * (the transaction that last wrote the row; every write of an entry rewrites its row, setting
 * `updated_at`), hashed with the id so it is opaque and never repeats across entries. The same
 * for every query of the entry (depth, select, format), changed by every write. Pure.
 */
const TAG = Symbol('entry tag');

type Tagged = Record<string | symbol, unknown>;

/** The SQL of a row's version in `table`, selected as `__version` (compileListQuery's `version`). */
export function rowVersion(table: string): string {
  return `${quoteIdent(table)}.xmin::text`;
}

/** One-shot `crypto.hash`: a fifth of the CPU of a Hash object, on every read of an entry. */
export function entryTag(id: string, version: string): string {
  return `"${hash('sha256', `${id}:${version}`, 'base64url').slice(0, 22)}"`;
}

/** Sets the tag of a presented entry from its row's `__version` (JSON never shows a symbol key). */
export function tagEntry<T extends object>(entry: T, row: Record<string, unknown>): T {
  if (typeof row.__version === 'string') {
    (entry as Tagged)[TAG] = entryTag(String(row.id), row.__version);
  }
  return entry;
}

export function tagOf(entry: unknown): string | undefined {
  return entry && typeof entry === 'object' ? ((entry as Tagged)[TAG] as string | undefined) : undefined;
}

/** Sends the entry's tag (when it has one) as `ETag`; answers the entry. */
export function withTag<T extends object>(
  res: { setHeader(name: string, value: string): unknown } | undefined,
  entry: T,
): T {
  const tag = tagOf(entry);
  if (res && tag) {
    res.setHeader('ETag', tag);
  }
  return entry;
}

/** Carries the tag from one presentation of an entry to the next (media presentation copies). */
export function keepTag<T extends object>(from: object, to: T): T {
  const tag = (from as Tagged)[TAG];
  if (tag !== undefined) {
    (to as Tagged)[TAG] = tag;
  }
  return to;
}

/** The tags a conditional header lists (`*` as itself); weak tags keep their `W/`. */
function listed(header: string): string[] {
  return header
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/**
 * `If-None-Match`: true when it names the current tag (weak comparison, as RFC 9110 says), unless
 * the request asks for an end-to-end reload (`Cache-Control: no-cache`): as Express decides
 * freshness for the answers it sends, so both paths to an entry answer 304 alike.
 */
export function notModified(
  headers: { 'if-none-match'?: string; 'cache-control'?: string },
  tag: string | undefined,
): boolean {
  const header = headers['if-none-match'];
  if (
    header === undefined ||
    tag === undefined ||
    /(?:^|,)\s*?no-cache\s*?(?:,|$)/.test(headers['cache-control'] ?? '')
  ) {
    return false;
  }
  return header.trim() === '*' || listed(header).some((t) => t.replace(/^W\//, '') === tag);
}

/** `If-Match`: true when it names the current tag (strong comparison: a weak tag never matches). */
export function preconditionHolds(header: string | undefined, tag: string): boolean {
  if (header === undefined) {
    return true;
  }
  return listed(header).some((t) => t === '*' || t === tag);
}
