import { isDeepStrictEqual } from 'node:util';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { parseId } from '../../../common/id.pipe';
import { ServiceError } from '../../../common/errors';
import { ListRecord, listRecord, parseListQuery, refuseUnknownParameters } from '../../../common/pagination';
import { SVC_CONNECTION } from '../../../config/svc-options';
import { ContentAccessService } from '../content-access.service';
import type { Caller } from '../content-route';
import type { Definition } from '../content.types';
import type { Entry } from './entry-presentation';
import { EntryReader } from './entry-reader';
import { NewVersion, VersionRow, VersionsRepository } from './versions.repository';

export type VersionEvent = 'create' | 'update' | 'publish' | 'unpublish' | 'restore';

/** A version as the API answers it. */
export interface VersionRecord {
  id: string;
  entryId: string;
  number: number;
  status: string | null;
  event: string;
  data: Record<string, unknown>;
  createdBy: { id: string; name: string } | null;
  createdAt: Date;
}

/** An entry a write left, with the entry as it was before (none for a new entry). */
export interface Written {
  entry: Entry;
  before?: Entry;
}

const LIST_PARAMS = ['page', 'limit'];

/**
 * Versions of entries (definitions with `versions` on): one at every write that changes an entry,
 * written in the write's transaction by `record`, the oldest beyond the definition's `max`
 * removed there too. Reading them needs the draft right (a version may hold a draft's fields).
 */
@Injectable()
export class EntryVersions {
  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: VersionsRepository,
    private readonly reader: EntryReader,
    private readonly access: ContentAccessService,
  ) {}

  /**
   * The versions of the entries a write left, in its transaction: none for an entry whose fields
   * and status did not change. `kind`: what the write was; an update that changed the status is
   * a `publish` or `unpublish`.
   */
  async record(
    em: EntityManager,
    def: Definition,
    written: readonly Written[],
    caller: Caller,
    kind: 'create' | 'update' | 'restore',
  ): Promise<void> {
    const versions = def.versions;
    if (!versions || !written.length) {
      return;
    }
    const ids = written.map((w) => String(w.entry.id));
    const latest = new Map((await this.repo.latest(em, def.id, ids)).map((r) => [r.entry_id, r]));
    const out: NewVersion[] = [];
    for (const { entry, before } of written) {
      const data = fieldData(def, entry);
      const status = statusOf(def, entry);
      if (before && statusOf(def, before) === status && isDeepStrictEqual(fieldData(def, before), data)) {
        continue;
      }
      const id = String(entry.id);
      out.push({
        entryId: id,
        number: (latest.get(id)?.number ?? 0) + 1,
        status,
        event: kind === 'update' ? statusEvent(before && statusOf(def, before), status) : kind,
        data,
        createdBy: caller.auth?.user.id ?? null,
      });
    }
    if (out.length) {
      await this.repo.insert(em, def.id, out);
      await this.repo.prune(
        em,
        def.id,
        out.map((v) => v.entryId),
        versions.max,
      );
    }
  }

  /** Deleting entries deletes their versions (in the delete's transaction). */
  removeOf(em: EntityManager, def: Definition, ids: readonly string[]): Promise<void> {
    return this.repo.removeOf(em, def.id, ids);
  }

  /** `GET .../versions`: newest first, `page` and `limit`. */
  async list(
    def: Definition,
    entryId: string,
    query: Record<string, unknown>,
    caller: Caller,
  ): Promise<ListRecord<VersionRecord>> {
    this.requireDrafts(def, caller);
    refuseUnknownParameters(query, LIST_PARAMS);
    const q = parseListQuery<'number'>(query, {
      sortable: ['number'],
      defaultSort: { field: 'number', direction: 'desc' },
    });
    await this.reader.readOne(this.db.manager, def, entryId);
    const found = await this.repo.page(this.db.manager, def.id, entryId, q.limit, q.offset);
    return listRecord(found.rows.map(toRecord), found.total, q);
  }

  /**
   * `GET .../versions/{versionId}`; with `compare` (another version's id, or `current`), also the
   * fields that differ: `from` is this version's value, `to` the compared one's.
   */
  async get(
    def: Definition,
    entryId: string,
    versionId: string,
    query: Record<string, unknown>,
    caller: Caller,
  ): Promise<VersionRecord & { changes?: Array<{ field: string; from: unknown; to: unknown }> }> {
    this.requireDrafts(def, caller);
    const unknown = Object.keys(query).filter((k) => k !== 'compare');
    if (unknown.length || (query.compare !== undefined && typeof query.compare !== 'string')) {
      throw ServiceError.validation([
        unknown.length
          ? {
              path: unknown[0],
              code: 'unknown_parameter',
              message: `${unknown[0]} is not a parameter of this route`,
            }
          : { path: 'compare', code: 'isString', message: 'compare must be a version id or "current"' },
      ]);
    }
    const version = await this.find(def, entryId, versionId);
    const record = toRecord(version);
    if (query.compare === undefined) {
      return record;
    }
    const other =
      query.compare === 'current'
        ? fieldData(def, await this.reader.readOne(this.db.manager, def, entryId))
        : (await this.find(def, entryId, parseId(query.compare, 'version'))).data;
    const changes = def.fields
      .map((f) => ({ field: f.name, from: version.data[f.name] ?? null, to: other[f.name] ?? null }))
      .filter((c) => !isDeepStrictEqual(c.from, c.to));
    return { ...record, changes };
  }

  /** The version, 404 when the entry has no such version; drafts right as for reads. */
  async find(def: Definition, entryId: string, versionId: string): Promise<VersionRow> {
    const found = await this.repo.find(this.db.manager, def.id, entryId, versionId);
    if (!found) {
      throw new ServiceError('NOT_FOUND', 'No such version');
    }
    return found;
  }

  requireDrafts(def: Definition, caller: Caller): void {
    if (this.access.mayReadDrafts(def, caller.auth)) {
      return;
    }
    if (!caller.auth) {
      throw new ServiceError('AUTH_REQUIRED', 'Sign in to see versions');
    }
    throw new ServiceError('FORBIDDEN', `Versions need the permission read-${def.slug}`);
  }
}

/** Every field of the entry, null when empty (status and timestamps are not fields). */
export function fieldData(def: Definition, entry: Entry): Record<string, unknown> {
  return Object.fromEntries(def.fields.map((f) => [f.name, entry[f.name] ?? null]));
}

function statusOf(def: Definition, entry: Entry): string | null {
  return def.drafts && typeof entry.status === 'string' ? entry.status : null;
}

function statusEvent(before: string | null | undefined, after: string | null): VersionEvent {
  if (after === 'published' && before !== 'published' && before !== undefined && before !== null) {
    return 'publish';
  }
  if (after === 'draft' && before === 'published') {
    return 'unpublish';
  }
  return 'update';
}

function toRecord(r: VersionRow): VersionRecord {
  return {
    id: r.id,
    entryId: r.entry_id,
    number: r.number,
    status: r.status,
    event: r.event,
    data: r.data,
    createdBy: r.created_by ? { id: r.created_by, name: r.created_by_name ?? '' } : null,
    createdAt: r.created_at,
  };
}
