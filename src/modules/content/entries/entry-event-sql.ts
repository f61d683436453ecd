import type { Definition } from '../content.types';
import { columnType, quoteLiteral } from '../schema';

/** A timestamp as `Date.prototype.toJSON` writes it (UTC, milliseconds cut, not rounded, as node-pg reads them). */
const isoSql = (text: string): string =>
  `to_jsonb(to_char((${text})::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;

/** jsonb_build_object takes at most 100 arguments: pairs go in objects of 40, joined by `||`. */
const PAIRS_PER_OBJECT = 40;

/**
 * SQL for the entry a write answers, as jsonb, from `j`: the jsonb of a row of the write view's
 * read (`to_jsonb(row)`). It is what `presentRow(def, row, 'json', null)` makes of that row: id,
 * every field, status where drafts are on, createdAt and updatedAt; timestamps as their JSON
 * text, a hasMany field with no value as []. So an event written by the write's own statement
 * carries the very entry the write answers (a test compares them for every field type). Key order
 * is jsonb's, as for every stored payload.
 */
export function entryJsonSql(def: Definition, j: string): string {
  const pairs: string[] = [`'id', ${j}->'id'`];
  for (const f of def.fields) {
    const key = quoteLiteral(f.name);
    if (columnType(f) === 'timestamptz') {
      pairs.push(`${key}, ${isoSql(`${j}->>${key}`)}`);
    } else if (f.hasMany === true) {
      pairs.push(`${key}, COALESCE(NULLIF(${j}->${key}, 'null'::jsonb), '[]'::jsonb)`);
    } else {
      pairs.push(`${key}, ${j}->${key}`);
    }
  }
  if (def.drafts) {
    pairs.push(`'status', ${j}->'status'`);
  }
  pairs.push(`'createdAt', ${isoSql(`${j}->>'createdAt'`)}`, `'updatedAt', ${isoSql(`${j}->>'updatedAt'`)}`);
  const objects: string[] = [];
  for (let i = 0; i < pairs.length; i += PAIRS_PER_OBJECT) {
    objects.push(`jsonb_build_object(${pairs.slice(i, i + PAIRS_PER_OBJECT).join(', ')})`);
  }
  return objects.join(' || ');
}

/**
 * Whether the timestamps of `values` (a create's date fields) are ones `entryJsonSql` writes as
 * JavaScript does: years 1 to 9999 (JSON writes others with a sign and six digits).
 */
export function timestampsInSqlRange(def: Definition, values: Record<string, unknown>): boolean {
  return def.fields.every((f) => {
    if (columnType(f) !== 'timestamptz') {
      return true;
    }
    const v = values[f.name];
    if (v === null || v === undefined) {
      return true;
    }
    const year = new Date(v as string | number | Date).getUTCFullYear();
    return year >= 1 && year <= 9999;
  });
}
