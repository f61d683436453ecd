import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { Awaitable } from '../../../common/cache';
import { ServiceError, ValidationIssue } from '../../../common/errors';
import { ListRecord, pageRecord } from '../../../common/pagination';
import { SVC_CONNECTION } from '../../../config/svc-options';
import { isPlainObject } from '../../../fields/json';
import { ContentAccessService } from '../content-access.service';
import type { Caller } from '../content-route';
import { Definition, isJoinField, queryDefinitionOf, tableOf } from '../content.types';
import { DefinitionRegistry } from '../definition-registry';
import { compileFilter, type CompiledListQuery, ParsedQuery, parseListQuery } from '../query';
import { isMediaDefinition, MEDIA_EDITABLE_FIELDS } from '../media.definition';
import { MediaHooks } from '../media-hooks.service';
import { joinTable } from '../schema';
import { BulkResult, bulkResult, readIds, readUpdateWhere, splitIds } from './bulk-input';
import { EntriesRepository, Row } from './entries.repository';
import { EntryCounts } from './entry-counts';
import { entryNotFound, withEntryErrors } from './entry-errors';
import { cleanEntryInput, EntryInputOptions, EntryWrite } from './entry-input';
import { Entry, presentRow, WRITE_VIEW } from './entry-presentation';
import { EntryReader, StatementTail } from './entry-reader';
import { entryJsonSql, timestampsInSqlRange } from './entry-event-sql';
import { byIdStatement, CachedQuery, cachedQuery, compiledQuery, countKey } from './query-cache';
import { checkRichText } from './rich-text';
import { EntryVersions, Written } from './entry-versions.service';
import { AuditService } from '../../audit/audit.service';
import { AUDIT_EVENTS } from '../../audit/audit.types';
import { eventId, WebhookOutbox } from '../../webhooks/webhook-outbox.service';
import type { WebhookEventInput } from '../../webhooks/webhooks.types';
import { PREVIEW_PARAM, previewCaller, previewOf, previewQuery } from '../preview-grant';
import { entryTag, preconditionHolds } from '../entry-tag';

export type { BulkResult } from './bulk-input';
export type { Entry } from './entry-presentation';

/**
 * The query parameters of a read by id (and of a single) and of a count: others are a 400. A read
 * by id takes a preview token too (`preview`, admitted by the content access guard).
 */
export const READ_PARAMS = ['depth', 'select', 'richTextFormat', 'status', PREVIEW_PARAM] as const;
export const COUNT_PARAMS = ['where', 'status'] as const;

/**
 * Entries of collections and the content of singles: reads with the query language (SPEC 4.3),
 * writes validated by field type, drafts, bulk routes. Queries are parsed and compiled once
 * (query-cache.ts), rows are presented and populated by EntryReader, bulk bodies read by
 * bulk-input.ts, database refusals answered by entry-errors.ts.
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
 *   level, whatever the number of entries (EntryReader).
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
    private readonly registry: DefinitionRegistry,
    private readonly access: ContentAccessService,
    private readonly counts: EntryCounts,
    private readonly reader: EntryReader,
    private readonly media: MediaHooks,
    private readonly versions: EntryVersions,
    private readonly audit: AuditService,
    private readonly outbox: WebhookOutbox,
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
      const cached = this.countTotal(def, q, c);
      const counted = cached instanceof Promise ? await cached : cached;
      // A cached total may trail writes made elsewhere (within the bound): never below what this
      // page showed exists, nor past the end of an empty page.
      total = hasNext
        ? Math.max(counted, parsed.offset + parsed.limit + 1)
        : Math.min(counted, parsed.offset);
    }
    const items = await this.reader.present(def, rows, parsed, caller);
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

  /** At once when the total is cached (a list's count, on every page after the first). */
  private countTotal(def: Definition, q: CachedQuery, c: CompiledListQuery): Awaitable<number> {
    return this.counts.total(def, countKey(def, q, c), () =>
      this.guard(def, () => this.repo.count(this.db.manager, c.countSql, c.countParams)),
    );
  }

  async get(def: Definition, id: string, query: Record<string, unknown>, caller: Caller): Promise<Entry> {
    caller = previewCaller(caller, def, id);
    const q = this.readQuery(def, query, READ_PARAMS, caller);
    const statement = byIdStatement(def, q);
    const found = await this.guard(def, () => this.repo.selectById(this.db.manager, statement, id));
    if (!found.length) {
      throw entryNotFound();
    }
    return (await this.reader.present(def, found, q.parsed, caller))[0];
  }

  /**
   * A single's content: its one row (made with the single, as a draft where drafts are on). A
   * read never writes: no row, or a draft under the published default, is 404.
   */
  async getSingle(def: Definition, query: Record<string, unknown>, caller: Caller): Promise<Entry> {
    caller = previewCaller(caller, def, def.id);
    const { parsed } = this.readQuery(def, query, READ_PARAMS, caller);
    const found = await this.reader.readRows(this.db.manager, def, [def.id], parsed, true);
    if (!found.length) {
      throw entryNotFound();
    }
    return (await this.reader.present(def, found, parsed, caller))[0];
  }

  // -------------------------------------------------------------------------------------------
  // Writes

  async create(def: Definition, body: unknown, caller: Caller): Promise<Entry> {
    if (isMediaDefinition(def)) {
      return this.createMedia(def, caller);
    }
    await this.registry.find(def.kind, def.slug);
    const clean = this.clean(def, body, 'create');
    this.requirePublish(def, caller, clean.status === 'published');
    const plain =
      !def.versions &&
      clean.status !== 'published' &&
      !clean.references.length &&
      !Object.keys(clean.joins).length;
    const events = plain ? await this.createdEventTail(def, clean) : null;
    if (events !== null) {
      // Nothing to check, no join rows, no version or publish record: one statement writes the
      // row, reads it back and, when an endpoint is enabled, writes its `entry.created` event,
      // with no transaction around it (one statement is atomic).
      const id = randomUUID();
      const row = { id, ...withStatus(clean) };
      const entry = await this.write(
        def,
        (em) =>
          this.reader.writeOne(
            em,
            def,
            id,
            (offset) => this.repo.insertStatement(tableOf(def), row, offset),
            events,
          ),
        'this collection',
        false,
      );
      return this.answer(def, entry, caller, body);
    }
    const entry = await this.write(def, async (em) => {
      await this.checkReferences(em, clean, caller);
      let created: Entry;
      if (Object.keys(clean.joins).length) {
        const id = await this.repo.insert(em, tableOf(def), withStatus(clean));
        await this.writeJoins(em, def, [id], clean);
        created = await this.reader.readOne(em, def, id);
      } else {
        // No join rows to write between: the row and its read in one statement, as above.
        const id = randomUUID();
        const row = { id, ...withStatus(clean) };
        created = await this.reader.writeOne(em, def, id, (offset) =>
          this.repo.insertStatement(tableOf(def), row, offset),
        );
      }
      await this.recordWrites(em, def, [{ entry: created }], caller, 'create');
      return created;
    });
    return this.answer(def, entry, caller, body);
  }

  /** `ifMatch`: the `If-Match` header; a tag other than the entry's current one is a 412. */
  async update(def: Definition, id: string, body: unknown, caller: Caller, ifMatch?: string): Promise<Entry> {
    const plain = ifMatch === undefined ? await this.plainUpdate(def, body) : null;
    if (plain) {
      // Nothing to compare, check or record: one statement writes the row and reads it back, with
      // no transaction and no lock held across round trips (a missing entry reads as none: 404).
      const entry = await this.write(
        def,
        (em) =>
          this.reader.writeOne(em, def, id, (offset) =>
            this.repo.updateStatement(tableOf(def), withStatus(plain), id, offset),
          ),
        'this collection',
        false,
      );
      return this.answer(def, entry, caller);
    }
    const entry = await this.write(def, async (em) => {
      await this.lockCurrent(em, def, id, ifMatch);
      return this.updateIn(em, def, id, body, caller);
    });
    return this.answer(def, entry, caller);
  }

  /**
   * The cleaned values of an update that needs nothing but its own statement, or null: a
   * collection without drafts (no publish rule, no audit row), versions or media; a body that
   * sets every required field (so the stored values cannot decide the check), with no relation
   * or join rows to check or write; no webhook endpoint enabled (no event to build from the
   * previous state). A body the rules refuse goes the usual way, which answers it exactly as
   * before (a missing entry first).
   */
  private async plainUpdate(def: Definition, body: unknown): Promise<EntryWrite | null> {
    if (def.kind !== 'collection' || def.drafts || def.versions || isMediaDefinition(def)) {
      return null;
    }
    if (!isPlainObject(body) || def.fields.some((f) => f.required && !Object.hasOwn(body, f.name))) {
      return null;
    }
    if (await this.outbox.active()) {
      return null;
    }
    let clean: EntryWrite;
    try {
      clean = this.clean(def, body, 'update');
    } catch {
      return null;
    }
    return clean.references.length || Object.keys(clean.joins).length ? null : clean;
  }

  /** The first save makes the row if the single has none yet (a draft where drafts are on). */
  async updateSingle(def: Definition, body: unknown, caller: Caller, ifMatch?: string): Promise<Entry> {
    const entry = await this.write(def, async (em) => {
      await this.repo.insertIfMissing(
        em,
        tableOf(def),
        def.drafts ? { id: def.id, status: 'draft' } : { id: def.id },
      );
      await this.lockCurrent(em, def, def.id, ifMatch);
      return this.updateIn(em, def, def.id, body, caller);
    });
    return this.answer(def, entry, caller);
  }

  async remove(def: Definition, id: string, caller: Caller, ifMatch?: string): Promise<Entry> {
    const entry = await this.write(
      def,
      async (em) => {
        await this.lockCurrent(em, def, id, ifMatch);
        const entry = await this.reader.readOne(em, def, id);
        await this.repo.delete(em, tableOf(def), [id]);
        await this.versions.removeOf(em, def, [id]);
        await this.outbox.emit(em, [this.deleteEvent(def, entry)]);
        if (isMediaDefinition(def)) {
          await this.media.handler?.removing(em, [id]);
        }
        return entry;
      },
      'every collection',
    );
    if (isMediaDefinition(def)) {
      await this.media.handler?.removed([id]);
    }
    return this.answer(def, entry, caller);
  }

  /**
   * `POST .../versions/{versionId}/restore`: the entry takes the version's field data (fields
   * defined since keep their value) and keeps its status, unless `publish: true` publishes a
   * draft; a `restore` version records it. The publish right is needed as for any write that
   * changes a published entry or publishes one.
   */
  async restore(
    def: Definition,
    id: string,
    versionId: string,
    body: unknown,
    caller: Caller,
  ): Promise<Entry> {
    const publish = readRestoreBody(body, def);
    const entry = await this.write(def, async (em) => {
      await this.lockCurrent(em, def, id);
      const version = await this.versions.find(def, id, versionId);
      const input: Record<string, unknown> = {};
      for (const f of def.fields) {
        if (Object.prototype.hasOwnProperty.call(version.data, f.name)) {
          input[f.name] = version.data[f.name];
        }
      }
      if (publish) {
        input.status = 'published';
      }
      return this.updateIn(em, def, id, input, caller, 'restore');
    });
    return this.answer(def, entry, caller);
  }

  /**
   * A due schedule's write, in one transaction with `claim` (which ends the schedule, answering
   * false when it is no longer pending: then nothing is written). A normal write: the publish
   * right checked on `caller` (the schedule's creator now), versions and audit rows recorded.
   * Refusals throw and roll the claim back with the write.
   */
  async applyScheduled(
    def: Definition,
    id: string,
    action: 'publish' | 'unpublish',
    caller: Caller,
    claim: (em: EntityManager) => Promise<boolean>,
  ): Promise<boolean> {
    return this.write(def, async (em) => {
      if (!(await claim(em))) {
        return false;
      }
      await this.lockCurrent(em, def, id);
      await this.updateIn(em, def, id, { status: action === 'publish' ? 'published' : 'draft' }, caller);
      return true;
    });
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
        throw entryNotFound();
      }
      const source = await this.reader.readOne(em, def, id);
      if (def.drafts && source.status !== 'published' && !this.access.mayReadDrafts(def, caller.auth)) {
        throw entryNotFound();
      }
      const columns = def.fields.filter((f) => !isJoinField(f)).map((f) => f.name);
      const copy = await this.repo.copy(em, tableOf(def), id, columns, def.drafts ? { status: 'draft' } : {});
      for (const f of def.fields.filter(isJoinField)) {
        await this.repo.copyJoin(em, joinTable(tableOf(def), f.name), id, copy);
      }
      const created = await this.reader.readOne(em, def, copy);
      await this.recordWrites(em, def, [{ entry: created }], caller, 'create');
      return created;
    });
    return this.answer(def, entry, caller);
  }

  async bulkDelete(def: Definition, body: unknown): Promise<BulkResult> {
    const ids = readIds(body, ['ids']);
    const { valid, errors } = splitIds(ids);
    const deleted = await this.write(
      def,
      async (em) => {
        // The last state of each, for the `deleted` events (read only when an endpoint may get them).
        const last =
          valid.length && (await this.outbox.active(em))
            ? await this.reader.readRows(em, def, valid, { ...WRITE_VIEW, limit: valid.length })
            : [];
        const gone = await this.repo.delete(em, tableOf(def), valid);
        await this.versions.removeOf(em, def, gone);
        await this.outbox.emit(
          em,
          last.map((r) => this.deleteEvent(def, presentRow(def, r, 'json', null))),
        );
        if (isMediaDefinition(def) && gone.length) {
          await this.media.handler?.removing(em, gone);
        }
        return gone;
      },
      'every collection',
    );
    if (isMediaDefinition(def) && deleted.length) {
      await this.media.handler?.removed(deleted);
    }
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
      return this.updateEach(em, def, found, data, clean, caller);
    });
    return bulkResult('updated', ids, updated, [...errors, ...refused]);
  }

  /**
   * `PATCH /collections/{slug}/entries { where, data, status? }`: every matching entry, one
   * transaction. The `where` needs read access, and drafts are matched only for a caller who may
   * see them (without `status`: published entries only for anyone else).
   */
  async updateWhere(def: Definition, body: unknown, caller: Caller): Promise<BulkResult> {
    const input = readUpdateWhere(body);
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
      return this.updateEach(em, def, found, input.data, clean, caller);
    });
    return {
      message: `${updated.length} ${updated.length === 1 ? 'entry' : 'entries'} updated`,
      items: updated.map((id) => ({ id })),
      errors: refused,
    };
  }

  /**
   * A media entry (CONTRACTS 11): the media module reads the multipart upload and stores the file
   * (the text fields checked as the media fields are, before anything is stored); the row is
   * inserted here, in one transaction, and a failed insert removes the stored files.
   */
  private async createMedia(def: Definition, caller: Caller): Promise<Entry> {
    const handler = this.media.handler;
    if (!handler) {
      throw mediaNeedsUpload();
    }
    // `clean` checks media writes against the editable fields only (inputOptions).
    const upload = await handler.receive(caller.req, (fields) => this.clean(def, fields, 'create').columns);
    let entry: Entry;
    try {
      entry = await this.write(def, async (em) => {
        const id = await this.repo.insert(em, tableOf(def), { ...upload.values, id: upload.id });
        const created = await this.reader.readOne(em, def, id);
        await this.outbox.emit(em, [
          { type: 'media.created', data: { id, media: this.media.present([{ ...created }])[0] } },
        ]);
        return created;
      });
    } catch (e) {
      await upload.discard();
      throw e;
    }
    return this.answer(def, entry, caller, upload.values);
  }

  // -------------------------------------------------------------------------------------------
  // Helpers

  /**
   * For a plain create (see `create`): undefined when no webhook endpoint is enabled (nothing to
   * add to the statement), the tail that writes its `entry.created` event from the row the
   * statement reads (`entryJsonSql`), or null when the event cannot be written that way (a date
   * outside years 1-9999, a media item): then the create runs in a
   * transaction and writes its events the usual way.
   */
  private async createdEventTail(
    def: Definition,
    clean: EntryWrite,
  ): Promise<StatementTail | undefined | null> {
    if (!(await this.outbox.active())) {
      return undefined;
    }
    if (isMediaDefinition(def) || !timestampsInSqlRange(def, clean.columns)) {
      return null;
    }
    return (offset) => ({
      ctes: `ev AS (
         SELECT $${offset + 1}::text AS id, 'entry.created'::text AS type,
                jsonb_build_object('type', 'entry.created', 'timestamp', $${offset + 2}::text, 'data',
                  jsonb_build_object('collection', $${offset + 3}::text, 'id', x.j->'id',
                    'entry', ${entryJsonSql(def, 'x.j')})) AS payload,
                $${offset + 3}::text AS collection, 1::bigint AS ord
           FROM entry_read r, LATERAL (SELECT to_jsonb(r) AS j) x
       ), ${this.outbox.inlineCtes()}`,
      params: [eventId(), new Date().toISOString(), def.slug],
      columns: `(SELECT count(*) FROM fanned)::int AS "__events"`,
      read: (row) => this.outbox.queuedInline(Number(row.__events)),
    });
  }

  /**
   * The webhook events of a write that left `w.entry`: a collection's `entry.created` or
   * `entry.updated`, with `entry.published` or `entry.unpublished` when the status changed; a
   * single's `single.updated` (and `single.published`). The entry as a write answers it (every
   * field, depth 0); media entries with their URLs.
   */
  private writeEvents(
    def: Definition,
    w: Written,
    kind: 'create' | 'update' | 'restore',
  ): WebhookEventInput[] {
    const entry = isMediaDefinition(def) ? this.media.present([{ ...w.entry }])[0] : w.entry;
    const published = def.drafts && entry.status === 'published' && w.before?.status !== 'published';
    const unpublished = def.drafts && entry.status === 'draft' && w.before?.status === 'published';
    if (def.kind === 'single') {
      const data = { single: def.slug, entry };
      return [
        { type: 'single.updated', data },
        ...(published ? [{ type: 'single.published' as const, data }] : []),
      ];
    }
    const data = { collection: def.slug, id: entry.id, entry };
    const events: WebhookEventInput[] = [
      { type: kind === 'create' ? 'entry.created' : 'entry.updated', data, collection: def.slug },
    ];
    if (published) {
      events.push({ type: 'entry.published', data, collection: def.slug });
    } else if (unpublished) {
      events.push({ type: 'entry.unpublished', data, collection: def.slug });
    }
    return events;
  }

  /** `entry.deleted` with the entry's last state (`media.deleted` for a media item). */
  private deleteEvent(def: Definition, entry: Entry): WebhookEventInput {
    if (isMediaDefinition(def)) {
      return { type: 'media.deleted', data: { id: entry.id, media: this.media.present([{ ...entry }])[0] } };
    }
    return {
      type: 'entry.deleted',
      data: { collection: def.slug, id: entry.id, entry },
      collection: def.slug,
    };
  }

  /**
   * `publish-<slug>` on a definition with drafts: making an entry published, making a published
   * entry a draft again, or changing a published entry's fields (what visitors read) needs it
   * beside the write permission; `needed` says whether this write does any of that.
   */
  private requirePublish(def: Definition, caller: Caller, needed: boolean): void {
    if (!needed || !def.drafts || this.access.mayPublish(def, caller.auth)) {
      return;
    }
    if (!caller.auth) {
      throw new ServiceError('AUTH_REQUIRED', 'Sign in to publish');
    }
    throw new ServiceError(
      'FORBIDDEN',
      `Publishing, unpublishing and changing a published entry need the permission publish-${def.slug}`,
    );
  }

  /**
   * Locks entry `id` for the write (404 when missing) and holds it to `If-Match`: the lock and
   * the version it reads are one statement, and the row stays locked until the write commits, so
   * two writes with the same tag cannot both pass (the second waits, then reads the first's).
   */
  private async lockCurrent(em: EntityManager, def: Definition, id: string, ifMatch?: string): Promise<void> {
    const version = await this.repo.lockVersion(em, tableOf(def), id);
    if (version === null) {
      throw entryNotFound();
    }
    if (!preconditionHolds(ifMatch, entryTag(id, version))) {
      throw new ServiceError(
        'PRECONDITION_FAILED',
        'The entry changed since it was read (If-Match names another version); read it again',
      );
    }
  }

  private async updateIn(
    em: EntityManager,
    def: Definition,
    id: string,
    body: unknown,
    caller: Caller,
    kind: 'update' | 'restore' = 'update',
  ): Promise<Entry> {
    const existing = await this.reader.readOne(em, def, id);
    const clean = this.clean(def, body, 'update', existing);
    this.requirePublish(def, caller, existing.status === 'published' || clean.status === 'published');
    await this.checkReferences(em, clean, caller);
    let entry: Entry;
    if (!Object.keys(clean.joins).length) {
      // The row's write and its answer in one statement.
      entry = await this.reader.writeOne(em, def, id, (offset) =>
        this.repo.updateStatement(tableOf(def), withStatus(clean), id, offset),
      );
    } else {
      await this.repo.updateById(em, tableOf(def), withStatus(clean), id);
      await this.writeJoins(em, def, [id], clean);
      entry = await this.reader.readOne(em, def, id);
    }
    await this.recordWrites(em, def, [{ entry, before: existing }], caller, kind);
    return entry;
  }

  /**
   * What a write leaves beside the entries, in its transaction: their versions (definitions with
   * versions on) and the audit rows of publishing, unpublishing and restoring.
   */
  private async recordWrites(
    em: EntityManager,
    def: Definition,
    written: readonly Written[],
    caller: Caller,
    kind: 'create' | 'update' | 'restore',
  ): Promise<void> {
    await this.versions.record(em, def, written, caller, kind);
    await this.outbox.emit(
      em,
      written.flatMap((w) => this.writeEvents(def, w, kind)),
    );
    for (const { entry, before } of written) {
      const events: string[] = kind === 'restore' ? [AUDIT_EVENTS.entryRestored] : [];
      if (def.drafts && entry.status === 'published' && before?.status !== 'published') {
        events.push(AUDIT_EVENTS.entryPublished);
      } else if (def.drafts && entry.status === 'draft' && before?.status === 'published') {
        events.push(AUDIT_EVENTS.entryUnpublished);
      }
      for (const event of events) {
        await this.audit.record(
          {
            event,
            actorId: caller.auth?.user.id ?? null,
            target:
              def.kind === 'single' ? `single:${def.slug}` : `collection:${def.slug}/${String(entry.id)}`,
            metadata: { [def.kind]: def.slug, entryId: entry.id },
          },
          em,
        );
      }
    }
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
    caller: Caller,
  ): Promise<{ updated: string[]; refused: BulkResult['errors'] }> {
    const refused: BulkResult['errors'] = [];
    const ok: string[] = [];
    const rows = ids.length
      ? await this.reader.readRows(em, def, ids, { ...WRITE_VIEW, limit: ids.length })
      : [];
    // Refused whole when it would publish, or change a published entry, without the right.
    this.requirePublish(
      def,
      caller,
      rows.length > 0 && (clean.status === 'published' || rows.some((r) => r.status === 'published')),
    );
    for (const row of rows) {
      const existing = presentRow(def, row, 'json', null);
      const checked = cleanEntryInput(data, this.inputOptions(def, 'update', existing));
      if (checked.ok) {
        ok.push(row.id as string);
      } else {
        const listed = checked.issues.map((i) => `${i.path || 'entry'}: ${i.message}`);
        const problems = [...listed, ...(checked.omitted ? [`${checked.omitted} more`] : [])].join('; ');
        refused.push({ id: row.id as string, code: 'VALIDATION_ERROR', message: problems });
      }
    }
    if (!ok.length) {
      return { updated: [], refused };
    }
    const updated = await this.repo.updateByIds(em, tableOf(def), withStatus(clean), ok);
    await this.writeJoins(em, def, updated, clean);
    if (def.versions || def.drafts) {
      const before = new Map(rows.map((r) => [r.id as string, presentRow(def, r, 'json', null)]));
      const after = await this.reader.readRows(em, def, updated, { ...WRITE_VIEW, limit: updated.length });
      await this.recordWrites(
        em,
        def,
        after.map((r) => ({ entry: presentRow(def, r, 'json', null), before: before.get(r.id as string) })),
        caller,
        'update',
      );
    }
    return { updated, refused };
  }

  /** A write's answer: the entry to a caller who may see it; else its id (a create: what was sent). */
  private async answer(def: Definition, entry: Entry, caller: Caller, sent?: unknown): Promise<Entry> {
    if (isMediaDefinition(def)) {
      entry = this.media.present([entry])[0];
    }
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
   * see them (401 for a visitor, 403 for anyone else) or a preview (every status by default).
   */
  private readQuery(
    def: Definition,
    query: Record<string, unknown>,
    allowed: readonly string[] | null,
    caller: Caller,
  ): CachedQuery {
    const q = cachedQuery(def, previewQuery(def, query, caller), allowed);
    this.checkStatus(def, q.parsed, caller);
    return q;
  }

  private checkStatus(def: Definition, parsed: ParsedQuery, caller: Caller): void {
    if (
      parsed.status === null ||
      parsed.status === 'published' ||
      this.access.mayReadDrafts(def, caller.auth) ||
      previewOf(caller.req) !== undefined
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
        undefined,
        result.omitted,
      );
    }
    return result.value;
  }

  /** Media entries: a JSON write sets `alt` and `caption` only (the rest describe the stored file). */
  private inputOptions(def: Definition, mode: 'create' | 'update', existing?: Entry): EntryInputOptions {
    return {
      fields: isMediaDefinition(def)
        ? def.fields.filter((f) => MEDIA_EDITABLE_FIELDS.includes(f.name))
        : def.fields,
      drafts: def.drafts,
      mode,
      existing,
      fieldGroup: (slug) => this.registry.fieldGroupFields(slug),
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
      const target = this.registry.peek('collection', ref.relationTo);
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

  /**
   * Runs a write in one transaction, turning database refusals into answers. The registry is
   * brought up to date first: inside the transaction it is only peeked at (see
   * DefinitionRegistry.peek).
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
    transaction = true,
  ): Promise<T> {
    await this.registry.find(def.kind, def.slug);
    let changed = true;
    try {
      return await this.guard(def, () => (transaction ? this.db.transaction(work) : work(this.db.manager)));
    } catch (e) {
      changed = !(e instanceof ServiceError);
      throw e;
    } finally {
      if (changed) {
        this.outbox.wake();
        if (bumps === 'every collection') {
          this.counts.bumpAll();
        } else {
          this.counts.bump(def);
        }
      }
    }
  }

  /** Database refusals as answers (entry-errors.ts); a changed table reloads the registry. */
  private guard<T>(def: Definition, work: () => Promise<T>): Promise<T> {
    return withEntryErrors(def, work, () => this.registry.invalidate());
  }
}

/** A media entry describes a stored file: it is made by an upload (CONTRACTS 11), never from JSON. */
function refuseMediaWithoutFile(def: Definition): void {
  if (isMediaDefinition(def)) {
    throw mediaNeedsUpload();
  }
}

function mediaNeedsUpload(): ServiceError {
  return new ServiceError(
    'UNSUPPORTED_MEDIA_TYPE',
    'Media entries are created by uploading the file as multipart/form-data (field "file")',
  );
}

function withStatus(clean: EntryWrite): Row {
  return clean.status ? { ...clean.columns, status: clean.status } : clean.columns;
}

/** The restore body: `{ publish?: boolean }` (publishing applies to definitions with drafts). */
function readRestoreBody(body: unknown, def: Definition): boolean {
  const input = body ?? {};
  if (typeof input !== 'object' || Array.isArray(input)) {
    throw ServiceError.validation([
      { path: '', code: 'isObject', message: 'the body must be a JSON object' },
    ]);
  }
  const issues: ValidationIssue[] = Object.keys(input)
    .filter((k) => k !== 'publish')
    .map((k) => ({
      path: k,
      code: 'unknown_field',
      message: `"${k}" is not accepted here (allowed: publish)`,
    }));
  const publish = (input as { publish?: unknown }).publish;
  if (publish !== undefined && typeof publish !== 'boolean') {
    issues.push({ path: 'publish', code: 'isBoolean', message: 'publish must be true or false' });
  } else if (publish === true && !def.drafts) {
    issues.push({
      path: 'publish',
      code: 'notAllowed',
      message: 'publish applies to entries with drafts only',
    });
  }
  if (issues.length) {
    throw ServiceError.validation(issues);
  }
  return publish === true;
}
