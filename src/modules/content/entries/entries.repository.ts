import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CONTENT_READ_TYPES } from '../../../database/pg-timestamps';
import { preparedRows, preparedWriteRows, rows } from '../../../database/sql';
import { SVC_OPTIONS, type SvcOptions } from '../../../config/svc-options';
import { pgTimestamp } from '../query';
import { quoteIdent as q } from '../schema';

export type Row = Record<string, unknown>;

/** Dates as UTC text (node-pg would write them in the server's local zone; see compile.ts). */
function paramsOf(row: Row): unknown[] {
  return Object.values(row).map((v) => (v instanceof Date ? pgTimestamp(v) : v));
}

/**
 * SQL of entries in content tables. Table and column names come from validated definitions and
 * are always quoted; values travel only as parameters. Queries built by the query compiler
 * arrive here as text plus parameters.
 */
@Injectable()
export class EntriesRepository {
  private readonly prepare: boolean;

  constructor(@Inject(SVC_OPTIONS) options: SvcOptions) {
    this.prepare = options.preparedStatements;
  }

  /** Rows of a compiled read; timestamps may come as their JSON text (see `presentRow`). */
  select(em: EntityManager, sql: string, params: unknown[]): Promise<Row[]> {
    return preparedRows<Row>(em, sql, params, this.prepare, CONTENT_READ_TYPES);
  }

  /**
   * A write that answers rows (`EntryReader.writeOne`): prepared by name outside a transaction,
   * within the bound kept for writes (`preparedWriteRows`).
   */
  writeRows(em: EntityManager, sql: string, params: unknown[]): Promise<Row[]> {
    return preparedWriteRows<Row>(em, sql, params, this.prepare);
  }

  async count(em: EntityManager, sql: string, params: unknown[]): Promise<number> {
    const found = await preparedRows<{ total: string }>(em, sql, params, this.prepare);
    return Number(found[0].total);
  }

  /** Inserts one entry (`id` given or generated) and answers its id. */
  async insert(em: EntityManager, table: string, values: Row): Promise<string> {
    const cols = Object.keys(values);
    const found = await rows<{ id: string }>(
      em,
      cols.length
        ? `INSERT INTO ${q(table)} (${cols.map(q).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING "id"`
        : `INSERT INTO ${q(table)} DEFAULT VALUES RETURNING "id"`,
      paramsOf(values),
    );
    return found[0].id;
  }

  /**
   * The INSERT of one entry as text for a larger statement (`EntryReader.writeOne`), its
   * parameters numbered from `offset + 1`, ending before its RETURNING.
   */
  insertStatement(table: string, values: Row, offset: number): { sql: string; params: unknown[] } {
    const cols = Object.keys(values);
    return {
      sql: cols.length
        ? `INSERT INTO ${q(table)} (${cols.map(q).join(', ')}) VALUES (${cols.map((_, i) => `$${offset + i + 1}`).join(', ')})`
        : `INSERT INTO ${q(table)} DEFAULT VALUES`,
      params: paramsOf(values),
    };
  }

  /** The UPDATE of entry `id` (and its updated_at) as text, as `insertStatement`. */
  updateStatement(
    table: string,
    values: Row,
    id: string,
    offset: number,
  ): { sql: string; params: unknown[] } {
    const cols = Object.keys(values);
    const set = [...cols.map((c, i) => `${q(c)} = $${offset + i + 2}`), `"updated_at" = now()`].join(', ');
    return {
      sql: `UPDATE ${q(table)} SET ${set} WHERE "id" = $${offset + 1}`,
      params: [id, ...paramsOf(values)],
    };
  }

  /** Inserts the row `id` unless it exists (a single's one row). */
  async insertIfMissing(em: EntityManager, table: string, values: Row): Promise<void> {
    const cols = Object.keys(values);
    await em.query(
      `INSERT INTO ${q(table)} (${cols.map(q).join(', ')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(', ')}) ` +
        `ON CONFLICT ("id") DO NOTHING`,
      paramsOf(values),
    );
  }

  /** Locks the entries among `ids` that exist, answering their ids. */
  async lockIds(em: EntityManager, table: string, ids: readonly string[]): Promise<string[]> {
    const found = await rows<{ id: string }>(
      em,
      `SELECT "id" FROM ${q(table)} WHERE "id" = ANY($1::uuid[]) ORDER BY "id" FOR UPDATE`,
      [ids],
    );
    return found.map((r) => r.id);
  }

  /** Locks entry `id`, answering its version (`xmin`, see entry-tag.ts); null when it does not exist. */
  async lockVersion(em: EntityManager, table: string, id: string): Promise<string | null> {
    const found = await rows<{ version: string }>(
      em,
      `SELECT xmin::text AS "version" FROM ${q(table)} WHERE "id" = $1 FOR UPDATE`,
      [id],
    );
    return found.length ? found[0].version : null;
  }

  /** Locks the entries matching `where` (a compiled filter), answering their ids. */
  async lockWhere(
    em: EntityManager,
    table: string,
    where: { sql: string; params: unknown[] },
  ): Promise<string[]> {
    const found = await rows<{ id: string }>(
      em,
      `SELECT "id" FROM ${q(table)} WHERE ${where.sql} ORDER BY "id" FOR UPDATE`,
      where.params,
    );
    return found.map((r) => r.id);
  }

  /** Sets `values` (and updated_at) on entry `id`; answers its id (none when it does not exist). */
  updateById(em: EntityManager, table: string, values: Row, id: string): Promise<string[]> {
    return this.update(em, table, values, { sql: `"id" = $1`, params: [id] });
  }

  /** Sets `values` (and updated_at) on the entries among `ids`; answers the ids that exist. */
  updateByIds(em: EntityManager, table: string, values: Row, ids: readonly string[]): Promise<string[]> {
    return this.update(em, table, values, { sql: `"id" = ANY($1::uuid[])`, params: [ids] });
  }

  /** Sets `values` (and updated_at) on the entries matching `where`; answers their ids. */
  private async update(
    em: EntityManager,
    table: string,
    values: Row,
    where: { sql: string; params: unknown[] },
  ): Promise<string[]> {
    const cols = Object.keys(values);
    const offset = where.params.length;
    const set = [...cols.map((c, i) => `${q(c)} = $${offset + i + 1}`), `"updated_at" = now()`].join(', ');
    const found = await rows<{ id: string }>(
      em,
      `UPDATE ${q(table)} SET ${set} WHERE ${where.sql} RETURNING "id"`,
      [...where.params, ...paramsOf(values)],
    );
    return found.map((r) => r.id);
  }

  async delete(em: EntityManager, table: string, ids: readonly string[]): Promise<string[]> {
    const found = await rows<{ id: string }>(
      em,
      `DELETE FROM ${q(table)} WHERE "id" = ANY($1::uuid[]) RETURNING "id"`,
      [ids],
    );
    return found.map((r) => r.id);
  }

  /** Replaces the join rows of `owners` with `targets`, in order. */
  async replaceJoin(
    em: EntityManager,
    join: string,
    owners: readonly string[],
    targets: readonly string[],
  ): Promise<void> {
    await em.query(`DELETE FROM ${q(join)} WHERE "owner_id" = ANY($1::uuid[])`, [owners]);
    if (owners.length && targets.length) {
      await em.query(
        `INSERT INTO ${q(join)} ("owner_id", "target_id", "position")
         SELECT o.id, t.id, t.n - 1
           FROM unnest($1::uuid[]) AS o(id) CROSS JOIN unnest($2::uuid[]) WITH ORDINALITY AS t(id, n)`,
        [owners, targets],
      );
    }
  }

  /** Copies entry `from` into a new row (the columns given), answering the new id. */
  async copy(
    em: EntityManager,
    table: string,
    from: string,
    columns: readonly string[],
    overrides: Row,
  ): Promise<string> {
    const copied = columns.filter((c) => !(c in overrides));
    const set = Object.keys(overrides);
    const found = await rows<{ id: string }>(
      em,
      `INSERT INTO ${q(table)} (${[...copied, ...set].map(q).join(', ')})
       SELECT ${[...copied.map(q), ...set.map((_, i) => `$${i + 2}`)].join(', ')} FROM ${q(table)} WHERE "id" = $1
       RETURNING "id"`,
      [from, ...paramsOf(overrides)],
    );
    return found[0].id;
  }

  async copyJoin(em: EntityManager, join: string, from: string, to: string): Promise<void> {
    await em.query(
      `INSERT INTO ${q(join)} ("owner_id", "target_id", "position")
       SELECT $2, "target_id", "position" FROM ${q(join)} WHERE "owner_id" = $1`,
      [from, to],
    );
  }

  /** The ids among `ids` that are entries of `table` (published ones only, when asked). */
  async existing(
    em: EntityManager,
    table: string,
    ids: readonly string[],
    publishedOnly = false,
  ): Promise<Set<string>> {
    const found = await rows<{ id: string }>(
      em,
      `SELECT "id" FROM ${q(table)} WHERE "id" = ANY($1::uuid[])${publishedOnly ? ` AND "status" = 'published'` : ''}`,
      [ids],
    );
    return new Set(found.map((r) => r.id));
  }
}
