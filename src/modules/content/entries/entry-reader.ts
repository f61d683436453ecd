import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SVC_CONNECTION } from '../../../config/svc-options';
import { ContentAccessService } from '../content-access.service';
import type { Caller } from '../content-route';
import { Definition, isRelationField, queryDefinitionOf, tableOf } from '../content.types';
import { DefinitionRegistry } from '../definition-registry';
import { isMediaDefinition } from '../media.definition';
import { MediaHooks } from '../media-hooks.service';
import { compileListQuery, ParsedQuery, StatusFilter, WhereNode } from '../query';
import { quoteIdent } from '../schema';
import { EntriesRepository, Row } from './entries.repository';
import { entryNotFound, withEntryErrors } from './entry-errors';
import { Entry, presentRow, WRITE_VIEW } from './entry-presentation';
import { rowVersion, tagEntry } from '../entry-tag';

/**
 * Entries read by id and answered: the rows of some ids under a query's status and select, and
 * their presentation, with relationship and upload fields populated to the query's `depth`.
 *
 * Population: level by level, one query per (collection, field) among the entries of the level
 * before, whatever the number of entries. A related entry the caller may not read (access rule
 * or permission of its collection) or may not see (a draft without the draft permission, or any
 * draft under the published default) stays an id.
 */
/**
 * CTEs for `writeOne`'s statement (their parameters numbered from `offset`), the columns they add
 * to its row (`SELECT entry_read.*, <columns>`), and what to do with that row.
 */
export type StatementTail = (offset: number) => {
  ctes: string;
  params: unknown[];
  columns: string;
  read: (row: Row) => void;
};

@Injectable()
export class EntryReader {
  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: EntriesRepository,
    private readonly registry: DefinitionRegistry,
    private readonly access: ContentAccessService,
    private readonly media: MediaHooks,
  ) {}

  /**
   * The rows of `ids` under `parsed`'s status and select (no where, no paging); `versioned`: with
   * each row's `__version` (its ETag's source, see entry-tag.ts).
   */
  readRows(
    em: EntityManager,
    def: Definition,
    ids: string[],
    parsed: ParsedQuery,
    versioned = false,
  ): Promise<Row[]> {
    const byId: WhereNode = { field: 'id', op: 'in', value: ids };
    const table = tableOf(def);
    const c = compileListQuery(
      { ...parsed, where: byId, sort: [], page: 1, limit: Math.max(ids.length, 1), offset: 0 },
      queryDefinitionOf(def),
      { table, version: versioned ? rowVersion(table) : undefined },
    );
    return withEntryErrors(
      def,
      () => this.repo.select(em, c.listSql, c.listParams),
      () => this.registry.invalidate(),
    );
  }

  /** One entry as a write answers it: every field, any status, depth 0, Lexical JSON. */
  async readOne(em: EntityManager, def: Definition, id: string): Promise<Entry> {
    const found = await this.readRows(em, def, [id], WRITE_VIEW, true);
    if (!found.length) {
      throw entryNotFound();
    }
    return tagEntry(presentRow(def, found[0], 'json', null), found[0]);
  }

  /**
   * A write of entry `id` and its answer (as `readOne` reads it) in one statement: `write` (an
   * INSERT or UPDATE of the entry's table, its parameters numbered after the read's) runs in a
   * CTE under the table's own name, so the read selects the written row exactly as it reads the
   * table. Only for writes with no join rows (those are written after the row). Throws
   * NOT_FOUND when the write touched no row. `also`: more CTEs in the same statement, which may
   * read the answer's row as `entry_read` (the entry's webhook events).
   */
  async writeOne(
    em: EntityManager,
    def: Definition,
    id: string,
    write: (offset: number) => { sql: string; params: unknown[] },
    also?: StatementTail,
  ): Promise<Entry> {
    const byId: WhereNode = { field: 'id', op: 'in', value: [id] };
    const table = tableOf(def);
    const c = compileListQuery(
      { ...WRITE_VIEW, where: byId, sort: [], page: 1, limit: 1, offset: 0 },
      queryDefinitionOf(def),
      { table, version: '"__version"' },
    );
    const w = write(c.listParams.length);
    const written = `WITH ${quoteIdent(table)} AS (${w.sql} RETURNING *, xmin::text AS "__version")`;
    const tail = also?.(c.listParams.length + w.params.length);
    const found = await withEntryErrors(
      def,
      () =>
        this.repo.writeRows(
          em,
          tail
            ? `${written}, entry_read AS (${c.listSql}), ${tail.ctes} SELECT entry_read.*, ${tail.columns} FROM entry_read`
            : `${written} ${c.listSql}`,
          [...c.listParams, ...w.params, ...(tail?.params ?? [])],
        ),
      () => this.registry.invalidate(),
    );
    if (!found.length) {
      throw entryNotFound();
    }
    tail?.read(found[0]);
    return tagEntry(presentRow(def, found[0], 'json', null), found[0]);
  }

  /** Rows as a read answers them: its rich-text format and select, populated to its depth. */
  async present(def: Definition, found: Row[], parsed: ParsedQuery, caller: Caller): Promise<Entry[]> {
    const items = found.map((r) => tagEntry(presentRow(def, r, parsed.richTextFormat, parsed.select), r));
    if (isMediaDefinition(def)) {
      // Media entries carry `url` and `sizes` (the media module's presentation).
      return this.media.present(items);
    }
    if (parsed.depth > 0 && items.length) {
      await this.populate(def, items, parsed, caller);
    }
    return items;
  }

  /**
   * Replaces relationship ids by entries, `parsed.depth` levels deep: per level, one query per
   * (collection, field) among the entries of the level before.
   */
  private async populate(
    root: Definition,
    items: Entry[],
    parsed: ParsedQuery,
    caller: Caller,
  ): Promise<void> {
    const readable = new Map<string, Promise<boolean>>();
    const canRead = (target: Definition): Promise<boolean> => {
      let p = readable.get(target.slug);
      if (!p) {
        p = this.access.can(target, 'read', caller.auth, caller.req);
        readable.set(target.slug, p);
      }
      return p;
    };
    let level: Array<{ def: Definition; items: Entry[] }> = [{ def: root, items }];
    for (let depth = 0; depth < parsed.depth && level.length; depth++) {
      const next: Array<{ def: Definition; items: Entry[] }> = [];
      for (const { def, items: entries } of level) {
        for (const f of def.fields) {
          if (!isRelationField(f) || !f.relationTo || !(f.name in entries[0])) {
            continue;
          }
          const target = await this.registry.find('collection', f.relationTo);
          if (!target || !(await canRead(target))) {
            continue;
          }
          const ids = new Set<string>();
          for (const e of entries) {
            for (const v of asArray(e[f.name])) {
              if (typeof v === 'string') {
                ids.add(v);
              }
            }
          }
          if (!ids.size) {
            continue;
          }
          // Related drafts only for a caller who may see the target's drafts, and never under
          // the published default (CONTRACTS 12).
          const status: StatusFilter | null = target.drafts
            ? parsed.status !== 'published' && this.access.mayReadDrafts(target, caller.auth)
              ? 'all'
              : 'published'
            : null;
          const view: ParsedQuery = { ...WRITE_VIEW, richTextFormat: parsed.richTextFormat, status };
          const rows = await this.readRows(this.db.manager, target, [...ids], view);
          const related = rows.map((r) => presentRow(target, r, parsed.richTextFormat, null));
          if (isMediaDefinition(target)) {
            this.media.present(related);
          }
          const byId = new Map(related.map((e) => [e.id as string, e]));
          for (const e of entries) {
            const v = e[f.name];
            e[f.name] = Array.isArray(v)
              ? v.map((id: unknown) => (typeof id === 'string' ? (byId.get(id) ?? id) : id))
              : typeof v === 'string'
                ? (byId.get(v) ?? v)
                : v;
          }
          if (byId.size) {
            next.push({ def: target, items: [...byId.values()] });
          }
        }
      }
      level = next;
    }
  }
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === null || v === undefined ? [] : [v];
}
