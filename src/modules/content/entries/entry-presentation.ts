import type { Definition } from '../content.types';
import type { ParsedQuery, RichTextFormat } from '../query';
import type { Row } from './entries.repository';
import { renderRichText } from './rich-text';

/** An entry as the API answers it. */
export type Entry = Record<string, unknown>;

/** Every field, any status, no paging: what writes answer and populated entries are read with. */
export const WRITE_VIEW: ParsedQuery = {
  where: null,
  sort: [],
  page: 1,
  limit: 1,
  offset: 0,
  select: null,
  depth: 0,
  richTextFormat: 'json',
  status: 'all',
};

/**
 * A row as the API answers it. Key order: id, the fields (in definition order), status,
 * createdAt, updatedAt. Timestamps are their JSON text (ISO 8601, UTC, milliseconds) whichever
 * way the row was read: content reads get them so from node-pg (`CONTENT_READ_TYPES`), reads in a
 * transaction as Dates. Pure.
 */
export function presentRow(
  def: Definition,
  row: Row,
  format: RichTextFormat,
  select: string[] | null,
): Entry {
  const out: Entry = { id: row.id };
  for (const f of def.fields) {
    if (select && !select.includes(f.name)) {
      continue;
    }
    let v = row[f.name] ?? null;
    if (f.type === 'richText' && v !== null && format !== 'json') {
      v = format === 'html' ? renderRichText(v) : { json: v, html: renderRichText(v) };
    } else if (f.hasMany === true && v === null) {
      v = [];
    } else {
      v = timestampJson(v);
    }
    out[f.name] = v;
  }
  if (def.drafts && (!select || select.includes('status'))) {
    out.status = row.status;
  }
  out.createdAt = timestampJson(row.createdAt);
  out.updatedAt = timestampJson(row.updatedAt);
  return out;
}

/** A timestamp column's value as JSON gives it (content reads already answer that text). */
function timestampJson<T>(v: T): T | string {
  return v instanceof Date ? v.toJSON() : v;
}
