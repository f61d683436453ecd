import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CONTENT_READ_TYPES } from '../../../database/pg-timestamps';
import { preparedRows, preparedWriteRows, rows } from '../../../database/sql';
import { SVC_OPTIONS, type SvcOptions } from '../../../config/svc-options';
import { pgTimestamp } from '../query';
import { quoteIdent as q } from '../schema';
import type { ByIdStatement } from './query-cache';

export type Row = Record<string, unknown>;

/** Dates as UTC text (node-pg would write them in the server's local zone; see compile.ts). */
function paramsOf(row: Row): unknown[] {
  return Object.values(row).map((v) => (v instanceof Date ? pgTimestamp(v) : v));
}

/** At most this many ids in one batched by-id read (`selectById`). */
const MAX_BATCH = 100;

/** By-id reads of one statement waiting for the end of the event loop's turn. */
interface Batch {
  em: EntityManager;
  ids: Set<string>;
  rows: Promise<Map<string, Found>>;
}

interface Found {
  row: Row;
  /** Handed to a read already. */
  taken: boolean;
}

/** A by-id statement's parameters for `ids`. */
function byIdParams(statement: ByIdStatement, ids: string[]): unknown[] {
  const params = [...statement.params];
  params[statement.slot] = ids;
  params[statement.limit] = ids.length;
  return params;
}

/**
 * SQL of entries in content tables. Table and column names come from validated definitions and
 * are always quoted; values travel only as parameters. Queries built by the query compiler
 * arrive here as text plus parameters.
 */
@Injectable()
export class EntriesRepository {
  private readonly prepare: boolean;
  private readonly batches = new Map<ByIdStatement, Batch>();

  constructor(@Inject(SVC_OPTIONS) options: SvcOptions) {
    this.prepare = options.preparedStatements;
  }

  /**
   * The row of entry `id` (none when there is none), read with `statement`. Reads of the same
   * statement (one definition, one query) asked for in the same turn of the event loop, as when
   * Node reads several requests from its sockets at once, go to PostgreSQL as one statement
   * holding all their ids, sent at the end of that turn: under concurrent reads, a statement's
   * own cost (its round trip, the pool, the protocol) was most of the CPU a read by id took. The
   * statement starts after every read in it was asked for, so each sees every write that had
   * finished before it was asked.
   */
  selectById(em: EntityManager, statement: ByIdStatement, id: string): Promise<Row[]> {
    let batch = this.batches.get(statement);
    if (batch && batch.em !== em) {
      return this.select(em, statement.sql, byIdParams(statement, [id]));
    }
    if (!batch) {
      const ids = new Set<string>();
      const rows = new Promise<Map<string, Found>>((resolve) => {
        setImmediate(() => {
          if (this.batches.get(statement)?.ids === ids) {
            this.batches.delete(statement);
          }
          resolve(this.readBatch(em, statement, [...ids]));
        });
      });
      batch = { em, ids, rows };
      this.batches.set(statement, batch);
    }
    batch.ids.add(id);
    if (batch.ids.size >= MAX_BATCH) {
      this.batches.delete(statement);
    }
    const { rows } = batch;
    return rows.then((found) => {
      // PostgreSQL answers a uuid lower-cased, whatever the case it was asked in.
      const one = found.get(id.toLowerCase());
      if (!one) {
        return [];
      }
      // Two reads of one id in a batch: the second gets its own copy, as if read on its own.
      const row = one.taken ? structuredClone(one.row) : one.row;
      one.taken = true;
      return [row];
    });
  }

  private async readBatch(
    em: EntityManager,
    statement: ByIdStatement,
    ids: string[],
  ): Promise<Map<string, Found>> {
    const found = await this.select(em, statement.sql, byIdParams(statement, ids));
    return new Map(found.map((row) => [String(row.id), { row, taken: false }]));
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
