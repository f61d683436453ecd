import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { ServiceError, ValidationIssue } from '../../../common/errors';
import { ListRecord, pageRecord } from '../../../common/pagination';
import { SVC_CONNECTION } from '../../../svc.options';
import type { AuthContext } from '../../auth/auth-context';
import { ContentAccessService } from '../content-access.service';
import { Definition, isJoinField, isRelationField, queryDefinitionOf, tableOf } from '../content.types';
import {
  compileFilter,
  compileListQuery,
  type CompiledListQuery,
  ParsedQuery,
  parseListQuery,
  RichTextFormat,
  StatusFilter,
  WhereNode,
} from '../query';
import { MEDIA_SLUG } from '../media.definition';
import { fieldIndexName, joinTable } from '../schema';
import { SchemaService } from '../schema.service';
import { EntriesRepository, Row } from './entries.repository';
import { EntryCounts } from './entry-counts';
import { cleanEntryInput, EntryInputOptions, EntryWrite } from './entry-input';
import { checkRichText, renderRichText } from './rich-text';

export type Entry = Record<string, unknown>;

export interface BulkResult {
  message: string;
  items: Array<{ id: string }>;
  errors: Array<{ id: string; code: string; message: string }>;
}

/** Who asks, for access checks on populated relations. */
export interface Caller {
  auth: AuthContext | null;
  req: Request;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids one bulk request may name. */
const MAX_BULK_IDS = 1000;
const READ_PARAMS = ['depth', 'select', 'richTextFormat', 'status'];
const COUNT_PARAMS = ['where', 'status'];

function notFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such entry');
}

/**
 * Entries of collections and the content of singles: reads with the query language (SPEC 4.3),
 * writes validated by field type, drafts, relationship population, bulk routes.
 *
 * Decisions:
 * - Over HTTP, lists, reads by id and counts show published entries unless `status` says
 *   otherwise (CONTRACTS 9). Drafts need the `read-<slug>` permission (or a super-admin), never
 *   just an access rule (CONTRACTS 12): `status=draft|all` without it is 401 for a visitor and
 *   403 for a caller.
 * - Writes (update, delete, bulk) act on entries of any status: they are what editors do to
 *   drafts. A write answers the full entry only to a caller who may see it (read access, and
 *   drafts as above); otherwise `{ id }`, and a create echoes the fields that were sent. Update
 *   by query needs read access (its `where` would otherwise be a search oracle) and reaches drafts
 *   only with the draft permission; duplicate needs read access too.
 * - `depth` populates relationship and upload fields level by level, one query per field per
 *   level, whatever the number of entries. A related entry the caller may not read (access rule
 *   or permission of its collection) or may not see (a draft without the draft permission, or
 *   any draft under the published default) stays an id.
 * - A relationship write names only entries the caller could read: a missing and an unreadable
 *   target get the same answer.
 * - Required fields are checked on the merged entry on every write path; bulk routes report an
 *   entry that would break them in `errors` (VALIDATION_ERROR) and leave it unchanged.
 * - Bulk routes validate `data` once and run in one transaction; ids that name no entry (or are
 *   not ids) are reported in `errors` with `NOT_FOUND`.
 */
@Injectable()
export class EntriesService {
  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: EntriesRepository,
    private readonly schema: SchemaService,
    private readonly access: ContentAccessService,
    private readonly counts: EntryCounts,
  ) {}

  // -------------------------------------------------------------------------------------------
  // Reads

  /**
   * One page, read with one row more than `limit`: that row, when there is one, makes `hasNext`
   * exact without a count. `total` is counted only when the page cannot tell it: a page that ends
   * before its limit (and is not empty, or is the first) ends the list, so the total is `offset +
   * rows`. Otherwise it comes from the count cache (EntryCounts: exact right after a write on this
   * instance; other instances' writes show within SVC_COUNT_CACHE_MS), kept consistent with what
   * the page showed.
   */
  async list(def: Definition, query: Record<string, unknown>, caller: Caller): Promise<ListRecord<Entry>> {
    const q = this.readQuery(def, query, null, caller);
    const { parsed, c } = compiledQuery(def, q);
    // Read before the page: a total the page proves is stored under the generation it saw.
    const generation = this.counts.generation(def);
    const at = Date.now();
    const found = await this.guard(def, () => this.repo.select(this.db.manager, c.listSql, c.listParams));
    const hasNext = found.length > parsed.limit;
    const rows = hasNext ? found.slice(0, parsed.limit) : found;
    let total: number;
    if (!hasNext && (rows.length > 0 || parsed.offset === 0)) {
      total = parsed.offset + rows.length;
      this.counts.remember(def, countKey(def, q, c), generation, at, total);
    } else {
      const counted = await this.countTotal(def, q, c);
      // A cached total may trail writes made elsewhere (within the bound): never below what this
      // page showed exists, nor past the end of an empty page.
      total = hasNext
        ? Math.max(counted, parsed.offset + parsed.limit + 1)
        : Math.min(counted, parsed.offset);
    }
    const items = await this.present(def, rows, parsed, caller);
    return pageRecord(items, { total, hasNext }, parsed);
  }

  /**
   * `GET .../entries/count`: through the same count cache as `meta.total`, so the two agree and
   * the route is no uncached full count per request (it would be the cheapest way to load the
   * database); the same rule holds: exact after this instance's writes, others' within the bound.
   */
  async count(def: Definition, query: Record<string, unknown>, caller: Caller): Promise<{ total: number }> {
    const q = this.readQuery(def, query, COUNT_PARAMS, caller);
    return { total: await this.countTotal(def, q, compiledQuery(def, q).c) };
  }

  private countTotal(def: Definition, q: CachedQuery, c: CompiledListQuery): Promise<number> {
    return this.guard(def, () =>
      this.counts.total(def, countKey(def, q, c), () =>
        this.repo.count(this.db.manager, c.countSql, c.countParams),
      ),
    );
  }

  async get(def: Definition, id: string, query: Record<string, unknown>, caller: Caller): Promise<Entry> {
    const q = this.readQuery(def, query, READ_PARAMS, caller);
    const { sql, params } = byIdQuery(def, q, id);
    const found = await this.guard(def, () => this.repo.select(this.db.manager, sql, params));
    if (!found.length) {
      throw notFound();
    }
    return (await this.present(def, found, q.parsed, caller))[0];
  }

  /**
   * A single's content: its one row (made with the single, as a draft where drafts are on). A
   * read never writes: no row, or a draft under the published default, is 404.
   */
  async getSingle(def: Definition, query: Record<string, unknown>, caller: Caller): Promise<Entry> {
    const { parsed } = this.readQuery(def, query, READ_PARAMS, caller);
    const found = await this.readRows(this.db.manager, def, [def.id], parsed);
    if (!found.length) {
      throw notFound();
    }
    return (await this.present(def, found, parsed, caller))[0];
  }

  // -------------------------------------------------------------------------------------------
  // Writes

  async create(def: Definition, body: unknown, caller: Caller): Promise<Entry> {
    refuseMediaWithoutFile(def);
    const entry = await this.write(def, async (em) => {
      const clean = this.clean(def, body, 'create');
      await this.checkReferences(em, clean, caller);
      const id = await this.repo.insert(em, tableOf(def), withStatus(clean));
      await this.writeJoins(em, def, [id], clean);
      return this.readOne(em, def, id);
    });
    return this.answer(def, entry, caller, body);
  }

  async update(def: Definition, id: string, body: unknown, caller: Caller): Promise<Entry> {
    const entry = await this.write(def, async (em) => {
      if (!(await this.repo.lockIds(em, tableOf(def), [id])).length) {
        throw notFound();
      }
      return this.updateIn(em, def, id, body, caller);
    });
    return this.answer(def, entry, caller);
  }

  /** The first save makes the row if the single has none yet (a draft where drafts are on). */
  async updateSingle(def: Definition, body: unknown, caller: Caller): Promise<Entry> {
    const entry = await this.write(def, async (em) => {
      await this.repo.insertIfMissing(
        em,
        tableOf(def),
        def.drafts ? { id: def.id, status: 'draft' } : { id: def.id },
      );
      return this.updateIn(em, def, def.id, body, caller);
    });
    return this.answer(def, entry, caller);
  }

  async remove(def: Definition, id: string, caller: Caller): Promise<Entry> {
    const entry = await this.write(
      def,
      async (em) => {
        if (!(await this.repo.lockIds(em, tableOf(def), [id])).length) {
          throw notFound();
        }
        const entry = await this.readOne(em, def, id);
        await this.repo.delete(em, tableOf(def), [id]);
        return entry;
      },
      'every collection',
    );
    return this.answer(def, entry, caller);
  }

  /**
   * A copy of an entry (a draft, on a drafts collection); unique values make it a 409 DUPLICATE.
   * Needs read access beside create (the copy shows the original), and a draft is copied only
   * for a caller who may see drafts (else 404, as if missing).
   */
  async duplicate(def: Definition, id: string, caller: Caller): Promise<Entry> {
    refuseMediaWithoutFile(def);
    await this.access.require(def, 'read', caller.auth, caller.req);
    const entry = await this.write(def, async (em) => {
      if (!(await this.repo.lockIds(em, tableOf(def), [id])).length) {
        throw notFound();
      }
      const source = await this.readOne(em, def, id);
      if (def.drafts && source.status !== 'published' && !this.access.mayReadDrafts(def, caller.auth)) {
        throw notFound();
      }
      const columns = def.fields.filter((f) => !isJoinField(f)).map((f) => f.name);
      const copy = await this.repo.copy(em, tableOf(def), id, columns, def.drafts ? { status: 'draft' } : {});
      for (const f of def.fields.filter(isJoinField)) {
        await this.repo.copyJoin(em, joinTable(tableOf(def), f.name), id, copy);
      }
      return this.readOne(em, def, copy);
    });
    return this.answer(def, entry, caller);
  }

  async bulkDelete(def: Definition, body: unknown): Promise<BulkResult> {
    const ids = readIds(body, ['ids']);
    const { valid, errors } = splitIds(ids);
    const deleted = await this.write(
      def,
      (em) => this.repo.delete(em, tableOf(def), valid),
      'every collection',
    );
    return bulkResult('deleted', ids, deleted, errors);
  }

  async bulkUpdate(def: Definition, body: unknown, caller: Caller): Promise<BulkResult> {
    const ids = readIds(body, ['ids', 'data']);
    const data = (body as { data?: unknown }).data;
    const clean = this.clean(def, data, 'update', undefined, 'data');
    const { valid, errors } = splitIds(ids);
    const { updated, refused } = await this.write(def, async (em) => {
      await this.checkReferences(em, clean, caller, 'data.');
      const found = await this.repo.lockIds(em, tableOf(def), valid);
      return this.updateEach(em, def, found, data, clean);
    });
    return bulkResult('updated', ids, updated, [...errors, ...refused]);
  }

  /**
   * `PATCH /collections/{slug}/entries { where, data, status? }`: every matching entry, one
   * transaction. The `where` needs read access, and drafts are matched only for a caller who may
   * see them (without `status`: published entries only for anyone else).
   */
  async updateWhere(def: Definition, body: unknown, caller: Caller): Promise<BulkResult> {
    const input = readObject(body, ['where', 'data', 'status']);
    const issues: ValidationIssue[] = [];
    if (typeof input.where !== 'object' || input.where === null || Array.isArray(input.where)) {
      issues.push({
        path: 'where',
        code: 'isObject',
        message: 'where must be an object (use {} for every entry)',
      });
    }
    if (input.data === undefined) {
      issues.push({ path: 'data', code: 'required', message: 'data is required' });
    }
    if (issues.length) {
      throw ServiceError.validation(issues);
    }
    await this.access.require(def, 'read', caller.auth, caller.req);
    const query: Record<string, unknown> = { where: JSON.stringify(input.where) };
    if (input.status !== undefined) {
      query.status = input.status;
    }
    const drafts = this.access.mayReadDrafts(def, caller.auth);
    const parsed = parseListQuery(query, queryDefinitionOf(def), {
      defaultStatus: drafts ? 'all' : 'published',
    });
    this.checkStatus(def, parsed, caller);
    const clean = this.clean(def, input.data, 'update', undefined, 'data');
    const filter = compileFilter(parsed, queryDefinitionOf(def));
    const { updated, refused } = await this.write(def, async (em) => {
      await this.checkReferences(em, clean, caller, 'data.');
      const found = await this.repo.lockWhere(em, tableOf(def), filter);
      return this.updateEach(em, def, found, input.data, clean);
    });
    return {
      message: `${updated.length} ${updated.length === 1 ? 'entry' : 'entries'} updated`,
      items: updated.map((id) => ({ id })),
      errors: refused,
    };
  }

  // -------------------------------------------------------------------------------------------
  // Helpers

  private async updateIn(
    em: EntityManager,
    def: Definition,
    id: string,
    body: unknown,
    caller: Caller,
  ): Promise<Entry> {
    const existing = await this.readOne(em, def, id);
    const clean = this.clean(def, body, 'update', existing);
    await this.checkReferences(em, clean, caller);
    await this.repo.update(em, tableOf(def), withStatus(clean), { sql: `"id" = $1`, params: [id] });
    await this.writeJoins(em, def, [id], clean);
    return this.readOne(em, def, id);
  }

  /**
   * The bulk write of `clean` to the locked entries `ids`: each one is checked first as a single
   * update of it would be (required fields on the merged entry, e.g. publishing a draft that
   * lacks one); one that fails is left unchanged and reported in `errors`.
   */
  private async updateEach(
    em: EntityManager,
    def: Definition,
    ids: string[],
    data: unknown,
    clean: EntryWrite,
  ): Promise<{ updated: string[]; refused: BulkResult['errors'] }> {
    const refused: BulkResult['errors'] = [];
    const ok: string[] = [];
    const rows = ids.length ? await this.readRows(em, def, ids, { ...WRITE_VIEW, limit: ids.length }) : [];
    for (const row of rows) {
      const existing = this.presentRow(def, row, 'json', null);
      const checked = cleanEntryInput(data, this.inputOptions(def, 'update', existing));
      if (checked.ok) {
        ok.push(row.id as string);
      } else {
        const problems = checked.issues.map((i) => `${i.path || 'entry'}: ${i.message}`).join('; ');
        refused.push({ id: row.id as string, code: 'VALIDATION_ERROR', message: problems });
      }
    }
    if (!ok.length) {
      return { updated: [], refused };
    }
    const updated = await this.repo.update(em, tableOf(def), withStatus(clean), {
      sql: `"id" = ANY($1::uuid[])`,
      params: [ok],
    });
    await this.writeJoins(em, def, updated, clean);
    return { updated, refused };
  }

  /** A write's answer: the entry to a caller who may see it; else its id (a create: what was sent). */
  private async answer(def: Definition, entry: Entry, caller: Caller, sent?: unknown): Promise<Entry> {
    if (await this.access.maySee(def, entry, caller.auth, caller.req)) {
      return entry;
    }
    const echo: Entry = { id: entry.id };
    if (sent && typeof sent === 'object') {
      for (const key of Object.keys(sent)) {
        if (key !== 'id' && Object.prototype.hasOwnProperty.call(entry, key)) {
          echo[key] = entry[key];
        }
      }
      echo.createdAt = entry.createdAt;
      echo.updatedAt = entry.updatedAt;
    }
    return echo;
  }

  /**
   * A read's query, parsed (400 on anything wrong) and cached; drafts only for a caller who may
   * see them (401 for a visitor, 403 for anyone else).
   */
  private readQuery(
    def: Definition,
    query: Record<string, unknown>,
    allowed: readonly string[] | null,
    caller: Caller,
  ): CachedQuery {
    const q = cachedQuery(def, query, allowed);
    this.checkStatus(def, q.parsed, caller);
    return q;
  }

  private checkStatus(def: Definition, parsed: ParsedQuery, caller: Caller): void {
    if (
      parsed.status === null ||
      parsed.status === 'published' ||
      this.access.mayReadDrafts(def, caller.auth)
    ) {
      return;
    }
    if (!caller.auth) {
      throw new ServiceError('AUTH_REQUIRED', 'Sign in to see drafts');
    }
    throw new ServiceError('FORBIDDEN', `Drafts need the permission read-${def.slug}`);
  }

  private clean(
    def: Definition,
    body: unknown,
    mode: 'create' | 'update',
    existing?: Entry,
    prefix = '',
  ): EntryWrite {
    const result = cleanEntryInput(body, this.inputOptions(def, mode, existing));
    if (!result.ok) {
      throw ServiceError.validation(
        prefix
          ? result.issues.map((i) => ({ ...i, path: i.path ? `${prefix}.${i.path}` : prefix }))
          : result.issues,
      );
    }
    return result.value;
  }

  private inputOptions(def: Definition, mode: 'create' | 'update', existing?: Entry): EntryInputOptions {
    return {
      fields: def.fields,
      drafts: def.drafts,
      mode,
      existing,
      fieldGroup: (slug) => this.schema.fieldGroupFields(slug),
      richText: checkRichText,
    };
  }

  /**
   * Every referenced entry must exist and be one the caller could read (its collection's read
   * access, drafts as for reads): one query per target collection. A missing and an unreadable
   * target get the same answer, so a write is no probe of other collections.
   */
  private async checkReferences(
    em: EntityManager,
    clean: EntryWrite,
    caller: Caller,
    prefix = '',
  ): Promise<void> {
    const issues: ValidationIssue[] = [];
    for (const ref of clean.references) {
      const target = this.schema.peek('collection', ref.relationTo);
      const ids = [...new Set(ref.ids.map((r) => r.id))];
      const readable =
        target !== undefined && (await this.access.can(target, 'read', caller.auth, caller.req));
      const found = readable
        ? await this.repo.existing(
            em,
            tableOf(target),
            ids,
            target.drafts && !this.access.mayReadDrafts(target, caller.auth),
          )
        : new Set<string>();
      for (const r of ref.ids) {
        if (!found.has(r.id)) {
          issues.push({
            path: `${prefix}${r.path}`,
            code: 'notFound',
            message: `${ref.relationTo} has no entry ${r.id}`,
          });
        }
      }
    }
    if (issues.length) {
      throw ServiceError.validation(issues);
    }
  }

  private async writeJoins(
    em: EntityManager,
    def: Definition,
    owners: string[],
    clean: EntryWrite,
  ): Promise<void> {
    for (const [field, targets] of Object.entries(clean.joins)) {
      await this.repo.replaceJoin(em, joinTable(tableOf(def), field), owners, targets);
    }
  }

  /** The rows of `ids` under `parsed`'s status and select (no where, no paging). */
  private readRows(em: EntityManager, def: Definition, ids: string[], parsed: ParsedQuery): Promise<Row[]> {
    const byId: WhereNode = { field: 'id', op: 'in', value: ids };
    const c = compileListQuery(
      { ...parsed, where: byId, sort: [], page: 1, limit: Math.max(ids.length, 1), offset: 0 },
      queryDefinitionOf(def),
      { table: tableOf(def) },
    );
    return this.guard(def, () => this.repo.select(em, c.listSql, c.listParams));
  }

  /** One entry as a write answers it: every field, any status, depth 0, Lexical JSON. */
  private async readOne(em: EntityManager, def: Definition, id: string): Promise<Entry> {
    const found = await this.readRows(em, def, [id], WRITE_VIEW);
    if (!found.length) {
      throw notFound();
    }
    return this.presentRow(def, found[0], 'json', null);
  }

  private async present(
    def: Definition,
    found: Row[],
    parsed: ParsedQuery,
    caller: Caller,
  ): Promise<Entry[]> {
    const items = found.map((r) => this.presentRow(def, r, parsed.richTextFormat, parsed.select));
    if (parsed.depth > 0 && items.length) {
      await this.populate(def, items, parsed, caller);
    }
    return items;
  }

  /**
   * API key order: id, the fields (in definition order), status, createdAt, updatedAt. Timestamps
   * are their JSON text (ISO 8601, UTC, milliseconds) whichever way the row was read: content
   * reads get them so from node-pg (`CONTENT_READ_TYPES`), reads in a transaction as Dates.
   */
  private presentRow(def: Definition, row: Row, format: RichTextFormat, select: string[] | null): Entry {
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
          const target = await this.schema.find('collection', f.relationTo);
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
          const byId = new Map(
            rows.map((r) => [r.id as string, this.presentRow(target, r, parsed.richTextFormat, null)]),
          );
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

  /**
   * Runs a write in one transaction, turning database refusals into answers. The registry is
   * brought up to date first: inside the transaction it is only peeked at (see SchemaService.peek).
   *
   * Then, before the caller answers, the write generation of the collection is bumped (EntryCounts),
   * so no total counted before the commit is used after it. After the commit, never before: a
   * count between a bump and the commit would be cached under the new generation without the
   * write. A refusal (ServiceError) rolled back and changed nothing; any other failure may have
   * committed (a lost COMMIT answer), so it bumps too. Deletes bump every collection: other
   * collections' references to the deleted entries are nulled (ON DELETE SET NULL) or their join
   * rows go (CASCADE), which changes their filtered counts.
   */
  private async write<T>(
    def: Definition,
    work: (em: EntityManager) => Promise<T>,
    bumps: 'this collection' | 'every collection' = 'this collection',
  ): Promise<T> {
    await this.schema.find(def.kind, def.slug);
    let changed = true;
    try {
      return await this.guard(def, () => this.db.transaction(work));
    } catch (e) {
      changed = !(e instanceof ServiceError);
      throw e;
    } finally {
      if (changed) {
        if (bumps === 'every collection') {
          this.counts.bumpAll();
        } else {
          this.counts.bump(def);
        }
      }
    }
  }

  /**
   * Database errors an entry request can meet: a unique value taken (409 DUPLICATE), a related
   * entry deleted meanwhile (400), a table or column changed by another instance's schema change
   * (registry reloaded, 409 CONFLICT: retry).
   */
  private async guard<T>(def: Definition, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (e) {
      if (!(e instanceof QueryFailedError)) {
        throw e;
      }
      const err = e.driverError as { code?: string; constraint?: string };
      if (err.code === '23505') {
        const table = tableOf(def);
        const field = def.fields.find((f) => fieldIndexName(table, f.name, 'key') === err.constraint);
        const path = field?.name ?? '';
        throw new ServiceError('DUPLICATE', `Another entry already has this ${path || 'value'}`, {
          errors: [{ path, code: 'unique', message: `${path || 'the value'} must be unique` }],
        });
      }
      if (err.code === '23503' || err.code === '23514') {
        throw ServiceError.validation(
          [
            {
              path: '',
              code: 'constraint',
              message: 'A value does not fit the collection (changed meanwhile?)',
            },
          ],
          'The entry does not fit the collection',
        );
      }
      if (err.code === '42703' || err.code === '42P01') {
        this.schema.invalidate();
        throw new ServiceError('CONFLICT', 'The schema changed while the request ran; retry it');
      }
      throw e;
    }
  }
}

/** Every field, any status, no paging: what writes answer and populated entries are read with. */
const WRITE_VIEW: ParsedQuery = {
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

/** A media entry describes a stored file: it is made by an upload (CONTRACTS 11), never from JSON. */
function refuseMediaWithoutFile(def: Definition): void {
  if (def.source === 'system' && def.slug === MEDIA_SLUG) {
    throw new ServiceError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Media entries are created by uploading the file as multipart/form-data (field "file")',
    );
  }
}

function withStatus(clean: EntryWrite): Row {
  return clean.status ? { ...clean.columns, status: clean.status } : clean.columns;
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === null || v === undefined ? [] : [v];
}

/**
 * Parsed queries, and compiled ones for lists and counts, per definition object and query.
 * Clients repeat the same few queries, and parsing and compiling them measured 13% of a list's
 * CPU (mostly garbage). Entries are only ever read. Bounded per definition; a definition loaded
 * anew (after a change) is a new object and starts empty.
 */
const QUERY_CACHE_SIZE = 128;
const queryCache = new WeakMap<Definition, Map<string, CachedQuery>>();

interface CachedQuery {
  parsed: ParsedQuery;
  compiled?: CompiledListQuery;
  /** The count cache key of `compiled` (see `countKey`). */
  countKey?: string;
  /** The read of one entry by id: its SQL and parameters, the id going in at `slot`. */
  byId?: { sql: string; params: readonly unknown[]; slot: number };
}

/** Stands for the id while a by-id read is compiled (never a real id: not a UUID). */
const ID_SLOT = 'svc:id';

/** A read's query, parsed (400 on anything wrong) and cached. */
function cachedQuery(
  def: Definition,
  query: Record<string, unknown>,
  allowed: readonly string[] | null,
): CachedQuery {
  let cache = queryCache.get(def);
  if (!cache) {
    cache = new Map();
    queryCache.set(def, cache);
  }
  const key = `${allowed?.join(',') ?? '*'} ${JSON.stringify(query)}`;
  let hit = cache.get(key);
  if (!hit) {
    // Frozen: a cached query is shared by every request that sends it.
    hit = {
      parsed: Object.freeze(parseListQuery(allowed ? only(query, allowed) : query, queryDefinitionOf(def))),
    };
    if (cache.size >= QUERY_CACHE_SIZE) {
      cache.delete(cache.keys().next().value as string);
    }
    cache.set(key, hit);
  }
  return hit;
}

/** The statement reading entry `id` under a cached query (as `readRows` builds it), compiled once. */
function byIdQuery(def: Definition, q: CachedQuery, id: string): { sql: string; params: unknown[] } {
  if (!q.byId) {
    const byId: WhereNode = { field: 'id', op: 'in', value: [ID_SLOT] };
    const c = compileListQuery(
      { ...q.parsed, where: byId, sort: [], page: 1, limit: 1, offset: 0 },
      queryDefinitionOf(def),
      { table: tableOf(def) },
    );
    const slot = c.listParams.findIndex((p) => Array.isArray(p) && p.length === 1 && p[0] === ID_SLOT);
    if (slot < 0) {
      throw new Error('the by-id read has no id parameter');
    }
    q.byId = { sql: c.listSql, params: Object.freeze(c.listParams), slot };
  }
  const params = [...q.byId.params];
  params[q.byId.slot] = [id];
  return { sql: q.byId.sql, params };
}

function compiledQuery(def: Definition, q: CachedQuery): { parsed: ParsedQuery; c: CompiledListQuery } {
  q.compiled ??= Object.freeze(
    compileListQuery(q.parsed, queryDefinitionOf(def), { table: tableOf(def), nextRow: true }),
  );
  return { parsed: q.parsed, c: q.compiled };
}

/**
 * The count cache key of a compiled query: the definition's identity and version (the registry
 * makes new objects for unchanged definitions every few seconds; a change moves `updatedAt`),
 * then the exact count statement and its parameters, which hold everything that decides the
 * rows counted (where, drafts status). Made once per cached query.
 */
function countKey(def: Definition, q: CachedQuery, c: CompiledListQuery): string {
  q.countKey ??= `${def.id}\u0000${def.updatedAt.valueOf()}\u0000${c.countSql}\u0000${JSON.stringify(c.countParams)}`;
  return q.countKey;
}

/** The query keeping only `allowed` parameters; any other is a 400 (never silently ignored). */
function only(query: Record<string, unknown>, allowed: readonly string[]): Record<string, unknown> {
  const issues: ValidationIssue[] = [];
  for (const k of Object.keys(query)) {
    const top = k.split('[')[0];
    if (!allowed.includes(top)) {
      issues.push({
        path: top,
        code: 'unknown_parameter',
        message: `${top} does not apply here (allowed: ${allowed.join(', ')})`,
      });
    }
  }
  if (issues.length) {
    throw ServiceError.validation(issues);
  }
  return query;
}

function readObject(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ServiceError.validation([
      { path: '', code: 'isObject', message: 'the body must be a JSON object' },
    ]);
  }
  const input = body as Record<string, unknown>;
  const unknown = Object.keys(input).filter((k) => !allowed.includes(k));
  if (unknown.length) {
    throw ServiceError.validation(
      unknown.map((k) => ({ path: k, code: 'unknown_field', message: `"${k}" is not accepted here` })),
    );
  }
  return input;
}

function readIds(body: unknown, allowed: readonly string[]): string[] {
  const input = readObject(body, allowed);
  const ids = input.ids;
  const issues: ValidationIssue[] = [];
  if (!Array.isArray(ids) || ids.length === 0) {
    issues.push({ path: 'ids', code: 'isArray', message: 'ids must be a non-empty array of entry ids' });
  } else if (ids.length > MAX_BULK_IDS) {
    issues.push({ path: 'ids', code: 'arrayMaxSize', message: `ids holds at most ${MAX_BULK_IDS} ids` });
  } else {
    ids.forEach((id, i) => {
      if (typeof id !== 'string') {
        issues.push({ path: `ids.${i}`, code: 'isString', message: 'an id must be a string' });
      }
    });
  }
  if (allowed.includes('data') && input.data === undefined) {
    issues.push({ path: 'data', code: 'required', message: 'data is required' });
  }
  if (issues.length) {
    throw ServiceError.validation(issues);
  }
  return ids as string[];
}

function splitIds(ids: string[]): { valid: string[]; errors: BulkResult['errors'] } {
  const valid: string[] = [];
  const errors: BulkResult['errors'] = [];
  for (const id of ids) {
    if (UUID.test(id)) {
      valid.push(id.toLowerCase());
    } else {
      errors.push({ id, code: 'NOT_FOUND', message: 'No such entry' });
    }
  }
  return { valid: [...new Set(valid)], errors };
}

function bulkResult(verb: string, ids: string[], done: string[], invalid: BulkResult['errors']): BulkResult {
  const doneSet = new Set(done);
  const errors = [...invalid];
  const reported = new Set(invalid.map((e) => e.id));
  for (const id of ids) {
    const lower = id.toLowerCase();
    if (UUID.test(id) && !doneSet.has(lower) && !reported.has(id)) {
      errors.push({ id, code: 'NOT_FOUND', message: 'No such entry' });
      reported.add(id);
    }
  }
  return {
    message: `${done.length} ${done.length === 1 ? 'entry' : 'entries'} ${verb}`,
    items: done.map((id) => ({ id })),
    errors,
  };
}

/** A timestamp column's value as JSON gives it (content reads already answer that text). */
function timestampJson<T>(v: T): T | string {
  return v instanceof Date ? v.toJSON() : v;
}
