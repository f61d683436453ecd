import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { lockKey, LockMode, xactLock } from '../../database/locks';
import { pagedRows, rows } from '../../database/sql';
import type { DefinitionKind, DefinitionSource, StoredDefinition } from './content.types';
import { type CatalogIndex, quoteIdent } from './schema';

export interface DefinitionRow {
  id: string;
  kind: DefinitionKind;
  slug: string;
  source: DefinitionSource;
  definition: StoredDefinition;
  created_at: Date;
  updated_at: Date;
}

export interface JournalRow {
  id: string;
  target: DefinitionKind;
  slug: string;
  changes: unknown[];
  applied_by: string | null;
  applied_at: Date;
}

@Injectable()
export class DefinitionsRepository {
  all(em: EntityManager): Promise<DefinitionRow[]> {
    return rows<DefinitionRow>(em, `SELECT * FROM content_definitions ORDER BY kind, slug`);
  }

  async find(em: EntityManager, kind: DefinitionKind, slug: string): Promise<DefinitionRow | null> {
    const found = await rows<DefinitionRow>(
      em,
      `SELECT * FROM content_definitions WHERE kind = $1 AND slug = $2`,
      [kind, slug],
    );
    return found[0] ?? null;
  }

  /**
   * Serialises schema changes of one target (and, with `'*'`, the boot sync against everything):
   * held until the transaction ends. Shared holders of a key exclude only exclusive ones.
   */
  lock(em: EntityManager, key: string, mode: LockMode = 'exclusive'): Promise<void> {
    // One key per target (locks.ts).
    return xactLock(em, lockKey('contentSchema', key), mode);
  }

  /**
   * A single's one row, id = the definition's id, unless it has one: its columns take their
   * defaults as an entry's do, and `status` is `draft` where drafts are on (CONTRACTS 6: a
   * draft-enabled create without status is a draft).
   */
  async insertSingleRow(em: EntityManager, table: string, id: string, drafts: boolean): Promise<void> {
    await em.query(
      `INSERT INTO ${quoteIdent(table)} ("id"${drafts ? ', "status"' : ''}) VALUES ($1${drafts ? ", 'draft'" : ''}) ` +
        `ON CONFLICT ("id") DO NOTHING`,
      [id],
    );
  }

  async insert(
    em: EntityManager,
    v: { kind: DefinitionKind; slug: string; source: DefinitionSource; definition: StoredDefinition },
  ): Promise<DefinitionRow> {
    const found = await rows<DefinitionRow>(
      em,
      `INSERT INTO content_definitions (kind, slug, source, definition)
       VALUES ($1, $2, $3, $4) RETURNING *`,
      [v.kind, v.slug, v.source, JSON.stringify(v.definition)],
    );
    return found[0];
  }

  async update(em: EntityManager, id: string, definition: StoredDefinition): Promise<DefinitionRow> {
    const found = await rows<DefinitionRow>(
      em,
      `UPDATE content_definitions SET definition = $2, updated_at = now() WHERE id = $1 RETURNING *`,
      [id, JSON.stringify(definition)],
    );
    return found[0];
  }

  async delete(em: EntityManager, id: string): Promise<void> {
    await em.query(`DELETE FROM content_definitions WHERE id = $1`, [id]);
  }

  async insertJournal(
    em: EntityManager,
    v: { target: DefinitionKind; slug: string; changes: unknown[]; appliedBy: string | null },
  ): Promise<void> {
    await em.query(`INSERT INTO schema_journal (target, slug, changes, applied_by) VALUES ($1, $2, $3, $4)`, [
      v.target,
      v.slug,
      JSON.stringify(v.changes),
      v.appliedBy,
    ]);
  }

  async listJournal(
    em: EntityManager,
    page: { limit: number; offset: number; direction: 'asc' | 'desc' },
  ): Promise<{ rows: JournalRow[]; total: number }> {
    const dir = page.direction === 'asc' ? 'ASC' : 'DESC';
    return pagedRows<JournalRow>(em, {
      from: 'schema_journal j',
      alias: 'j',
      columns: 'j.*',
      where: '',
      params: [],
      orderBy: `applied_at ${dir}, id ${dir}`,
      limit: page.limit,
      offset: page.offset,
    });
  }

  /**
   * The indexes of `tables` in the current schema, by table (expression indexes left out): what
   * the boot sync compares with the indexes it would make today (`indexUpgradeDdl`).
   */
  async indexes(em: EntityManager, tables: readonly string[]): Promise<Map<string, CatalogIndex[]>> {
    const found = await rows<CatalogIndex & { table: string }>(
      em,
      `SELECT t.relname AS "table", i.relname AS "name", x.indisunique AS "unique", am.amname AS "method",
              x.indpred IS NOT NULL AS "partial",
              ARRAY(SELECT a.attname::text
                      FROM unnest(x.indkey[0:x.indnkeyatts - 1]) WITH ORDINALITY AS k(attnum, n)
                      JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                     ORDER BY k.n) AS "columns"
         FROM pg_index x
         JOIN pg_class i ON i.oid = x.indexrelid
         JOIN pg_class t ON t.oid = x.indrelid
         JOIN pg_am am ON am.oid = i.relam
        WHERE t.relnamespace = current_schema()::regnamespace
          AND t.relname = ANY($1::text[])
          AND x.indexprs IS NULL`,
      [tables],
    );
    const out = new Map<string, CatalogIndex[]>();
    for (const { table, ...index } of found) {
      out.set(table, [...(out.get(table) ?? []), index]);
    }
    return out;
  }

  /** Runs generated DDL (identifiers quoted and names validated by the schema layer). */
  async execute(em: EntityManager, statements: readonly string[]): Promise<void> {
    for (const sql of statements) {
      await em.query(sql);
    }
  }
}
