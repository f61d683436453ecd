import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import type { AuthContext } from '../../common/access/auth-context';
import { TtlCache } from '../../common/cache';
import { ServiceError } from '../../common/errors';
import { ListQuery, listRecord, ListRecord, parseListQuery } from '../../common/pagination';
import { SVC_CONNECTION } from '../../config/svc-options';
import { ContentAccessService } from '../content/content-access.service';
import { type Definition, tableOf } from '../content/content.types';
import { SchemaService } from '../content/schema.service';
import {
  type ActivityScope,
  type ContentSource,
  DashboardRepository,
  type RecentSource,
  type StatsRow,
} from './dashboard.repository';
import type { ActivityItem, CollectionStats, DashboardStats, RecentEntry } from './dashboard.types';

/**
 * How long the figures of one visibility (which collections, media, users) are used. Bound on
 * staleness: writes anywhere (this instance included) show in the stats within STATS_TTL_MS (5 s);
 * collection definitions are read fresh, so a new or deleted collection changes the key at once.
 */
export const STATS_TTL_MS = 5000;

/** The built-in media collection (content's `media.definition.ts`), counted under `media`. */
const MEDIA_SLUG = 'media';
/** Field types whose value reads as a one-line title. */
const TITLE_TYPES = new Set(['text', 'textarea', 'email', 'select']);
/** Targets of audit rows a permission lets a caller see (beside their own actions and account). */
const TARGETS_BY_PERMISSION: ReadonlyArray<[permission: string, pattern: string]> = [
  ['read-users', 'user:%'],
  ['read-roles', 'role:%'],
  ['manage-settings', 'settings:%'],
];

interface Readable {
  /** Readable collections (not media), by slug, with whether the caller sees their drafts. */
  collections: Array<{ def: Definition; draftsVisible: boolean }>;
  media: Definition | null;
}

/**
 * The admin dashboard: figures, recent entries and activity, each limited to what the caller
 * may read:
 * - a collection counts when the caller may read it (`ContentAccessService.can`: the `read-<slug>`
 *   permission, a super-admin, or a code-defined `read` rule); its drafts only with draft access
 *   (`read-<slug>` or super-admin: `mayReadDrafts`), else it shows published entries only;
 * - `users` needs `read-users` (or a super-admin), `media` read access to the media collection;
 *   either is null otherwise;
 * - activity: super-admins see every audit row; others their own actions, rows about their own
 *   account, rows whose target their permissions cover (`user:` with read-users, `role:` with
 *   read-roles, `settings:` with manage-settings) and `collection:<slug>[:...]` rows of
 *   collections they may read (but not `schema-applied`: schema changes, like the schema
 *   journal, are for super-admins). Failed sign-ins (no actor, no target) are super-admins' only.
 *   No item carries the IP or the metadata of its row.
 */
@Injectable()
export class DashboardService {
  /** Figures by visibility key (see `stats`); bounded like every cache of the service. */
  private readonly statsCache = new TtlCache<string, StatsRow[]>({ max: 1000, ttlMs: STATS_TTL_MS });

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: DashboardRepository,
    private readonly schema: SchemaService,
    private readonly access: ContentAccessService,
  ) {}

  /**
   * Figures in one statement, cached per visibility: the readable collections (id, slug, drafts),
   * media and users. Drafts are counted for every readable collection and hidden afterwards from
   * a caller without draft access, so callers who read the same collections share an entry.
   */
  async stats(auth: AuthContext, req: Request): Promise<DashboardStats> {
    const { collections, media } = await this.readable(auth, req);
    const users = auth.isSuperAdmin || auth.permissions.includes('read-users');
    const sources: ContentSource[] = collections.map(({ def }) => ({
      slug: def.slug,
      table: tableOf(def),
      drafts: def.drafts,
      publishedOnly: false,
    }));
    const key = JSON.stringify([
      collections.map(({ def }) => `${def.id}:${def.slug}:${def.drafts ? 1 : 0}`),
      media ? `${media.id}:${media.slug}` : null,
      users,
    ]);
    const found = await this.statsCache.getOrLoad(key, () =>
      this.repo.stats(this.db.manager, sources, media ? tableOf(media) : null, users),
    );
    const bySlug = new Map(found.filter((r) => r.kind === 'collection').map((r) => [r.slug, r]));
    const usersRow = found.find((r) => r.kind === 'users');
    const mediaRow = found.find((r) => r.kind === 'media');
    return {
      collections: collections.map(({ def, draftsVisible }): CollectionStats => {
        const row = bySlug.get(def.slug);
        const total = Number(row?.total ?? 0);
        const published = Number(row?.published ?? 0);
        return {
          slug: def.slug,
          label: def.labels?.plural ?? def.slug,
          total: draftsVisible ? total : published,
          published,
          drafts: draftsVisible ? total - published : null,
        };
      }),
      users: usersRow ? { total: Number(usersRow.total), active: Number(usersRow.published) } : null,
      media: mediaRow ? { total: Number(mediaRow.total), bytes: Number(mediaRow.bytes ?? 0) } : null,
    };
  }

  /**
   * Entries of every readable collection (the media collection aside), newest `updatedAt` first,
   * in one statement. Title: the field named `title`, else `name`, else the first text field (of
   * type text, textarea, email or single select); null when there is none.
   */
  async recentEntries(
    auth: AuthContext,
    req: Request,
    query: Record<string, unknown>,
  ): Promise<ListRecord<RecentEntry>> {
    const q = feedQuery(query);
    const { collections } = await this.readable(auth, req);
    const sources: RecentSource[] = collections.map(({ def, draftsVisible }) => ({
      slug: def.slug,
      table: tableOf(def),
      drafts: def.drafts,
      publishedOnly: !draftsVisible,
      titleColumn: titleField(def),
    }));
    const found = await this.repo.recent(this.db.manager, sources, q.limit, q.offset);
    return listRecord(
      found.rows.map((r) => ({
        collection: r.collection,
        id: r.id,
        title: r.title,
        status: r.status,
        updatedAt: r.updated_at,
      })),
      found.total,
      q,
    );
  }

  /** Audit rows the caller may see (the rule above), newest first, within the newest 10,000. */
  async activity(
    auth: AuthContext,
    req: Request,
    query: Record<string, unknown>,
  ): Promise<ListRecord<ActivityItem>> {
    const q = feedQuery(query);
    let scope: ActivityScope = { all: true };
    if (!auth.isSuperAdmin) {
      const { collections, media } = await this.readable(auth, req);
      scope = {
        all: false,
        userId: auth.user.id,
        targetPatterns: TARGETS_BY_PERMISSION.filter(([p]) => auth.permissions.includes(p)).map(
          ([, pattern]) => pattern,
        ),
        collections: [...collections.map(({ def }) => def.slug), ...(media ? [media.slug] : [])],
      };
    }
    const found = await this.repo.activity(this.db.manager, scope, q.limit, q.offset);
    return listRecord(
      found.rows.map((r) => ({
        id: r.id,
        event: r.event,
        actor: r.actor_id ? { id: r.actor_id, name: r.actor_name ?? '' } : null,
        target: r.target,
        createdAt: r.created_at,
      })),
      found.total,
      q,
    );
  }

  /** The collections the caller may read, by slug; the media collection apart. */
  private async readable(auth: AuthContext, req: Request): Promise<Readable> {
    const out: Readable = { collections: [], media: null };
    const defs = [...(await this.schema.all('collection'))].sort((a, b) => (a.slug < b.slug ? -1 : 1));
    for (const def of defs) {
      if (!(await this.access.can(def, 'read', auth, req))) {
        continue;
      }
      if (def.source === 'system' && def.slug === MEDIA_SLUG) {
        out.media = def;
      } else {
        out.collections.push({ def, draftsVisible: !def.drafts || this.access.mayReadDrafts(def, auth) });
      }
    }
    return out;
  }
}

/** `page` and `limit` only: both feeds are newest first and have no search. */
function feedQuery(query: Record<string, unknown>): ListQuery<'createdAt'> {
  const refused = ['search', 'sort'].filter((k) => query[k] !== undefined);
  if (refused.length) {
    throw ServiceError.validation(
      refused.map((k) => ({
        path: k,
        code: 'notAllowed',
        message: `this list has no ${k}; it is newest first`,
      })),
    );
  }
  return parseListQuery<'createdAt'>(query, {
    sortable: ['createdAt'],
    defaultSort: { field: 'createdAt', direction: 'desc' },
  });
}

/** The column shown as an entry's title (see `recentEntries`), or null. */
function titleField(def: Definition): string | null {
  const candidates = def.fields.filter((f) => TITLE_TYPES.has(f.type) && !f.hasMany);
  return (
    candidates.find((f) => f.name === 'title')?.name ??
    candidates.find((f) => f.name === 'name')?.name ??
    candidates[0]?.name ??
    null
  );
}
