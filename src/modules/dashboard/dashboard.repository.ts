import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { type Page, pagedRows, rows } from '../../database/sql';

/** A content table to count or list: names from validated definitions (`tableOf`). */
export interface ContentSource {
  /** Answered back as the row's key (the collection's slug). */
  slug: string;
  table: string;
  /** The table has a `status` column. */
  drafts: boolean;
  /** Only published rows (a caller without draft access). */
  publishedOnly: boolean;
}

export interface RecentSource extends ContentSource {
  /** The column shown as the entry's title, or null. */
  titleColumn: string | null;
}

export interface StatsRow {
  kind: 'collection' | 'media' | 'users';
  slug: string | null;
  total: string;
  published: string;
  bytes: number | null;
}

export interface RecentRow {
  collection: string;
  id: string;
  title: string | null;
  status: 'published' | 'draft' | null;
  updated_at: Date;
}

export interface ActivityRow {
  id: string;
  event: string;
  actor_id: string | null;
  actor_name: string | null;
  target: string | null;
  created_at: Date;
}

/** Who may see which audit rows (see DashboardService.activity). */
export type ActivityScope =
  | { all: true }
  | {
      all: false;
      userId: string;
      /** `LIKE` patterns of targets the caller may see (`user:%`, `role:%`): constants only. */
      targetPatterns: string[];
      /** Collections whose `collection:<slug>[:...]` targets the caller may see. */
      collections: string[];
    };

/** The feed pages through the newest ACTIVITY_WINDOW rows the caller may see, no further. */
export const ACTIVITY_WINDOW = 10_000;

/** `"name"`: table and column names come from validated definitions; quoted all the same. */
const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * SQL of the dashboard: figures and lists over every readable collection, each in one statement
 * (a UNION ALL over the collections' tables), and the audit feed. Reads tables other modules own
 * (content tables, users, audit_log) without writing any.
 */
@Injectable()
export class DashboardRepository {
  /**
   * One row per collection (total, published), the media collection (count, sum of `filesize`)
   * and the users (count, active), in one statement. Nothing to count: no statement.
   */
  async stats(
    em: EntityManager,
    collections: ContentSource[],
    media: string | null,
    users: boolean,
  ): Promise<StatsRow[]> {
    const params: unknown[] = [];
    const parts = collections.map((c) => {
      params.push(c.slug);
      const where = c.publishedOnly ? ` WHERE "status" = 'published'` : '';
      const published = c.drafts ? `count(*) FILTER (WHERE "status" = 'published')` : 'count(*)';
      return `SELECT 'collection'::text AS kind, $${params.length}::text AS slug, count(*) AS total,
                     ${published} AS published, NULL::float8 AS bytes FROM ${ident(c.table)}${where}`;
    });
    if (media) {
      parts.push(`SELECT 'media' AS kind, NULL::text AS slug, count(*) AS total, count(*) AS published,
                         coalesce(sum("filesize"), 0)::float8 AS bytes FROM ${ident(media)}`);
    }
    if (users) {
      parts.push(`SELECT 'users' AS kind, NULL::text AS slug, count(*) AS total,
                         count(*) FILTER (WHERE is_active) AS published, NULL::float8 AS bytes FROM users`);
    }
    if (!parts.length) {
      return [];
    }
    return rows<StatsRow>(em, parts.join('\nUNION ALL\n'), params);
  }

  /**
   * A page of entries of every source, newest `updated_at` first (then collection, then id), and
   * their count, in one statement: each table gives at most `offset + limit` rows (its newest),
   * the union is sorted and cut. No sources: an empty page.
   */
  async recent(
    em: EntityManager,
    sources: RecentSource[],
    limit: number,
    offset: number,
  ): Promise<{ rows: RecentRow[]; total: number }> {
    if (!sources.length) {
      return { rows: [], total: 0 };
    }
    const params: unknown[] = [limit, offset, offset + limit];
    const branches: string[] = [];
    const counts: string[] = [];
    for (const s of sources) {
      params.push(s.slug);
      const where = s.publishedOnly ? ` WHERE "status" = 'published'` : '';
      const title = s.titleColumn ? `${ident(s.titleColumn)}::text` : 'NULL::text';
      const status = s.drafts ? '"status"' : 'NULL::text';
      branches.push(
        `(SELECT $${params.length}::text AS collection, "id", ${title} AS title, ${status} AS status,
                 "updated_at" FROM ${ident(s.table)}${where}
           ORDER BY "updated_at" DESC, "id" DESC LIMIT $3)`,
      );
      counts.push(`(SELECT count(*) FROM ${ident(s.table)}${where})`);
    }
    // The union is a subquery of its own: with one source, `(SELECT ... ORDER BY ... LIMIT)`
    // followed by the page's ORDER BY would be one select with two ORDER BY clauses (an error).
    const found = await rows<RecentRow & { total: string }>(
      em,
      `WITH page AS (
         SELECT * FROM (
           ${branches.join('\n UNION ALL\n')}
         ) recent
         ORDER BY updated_at DESC, collection, id DESC LIMIT $1 OFFSET $2
       )
       SELECT t.total, page.* FROM (SELECT ${counts.join(' + ')} AS total) t
       LEFT JOIN page ON true
       ORDER BY page.updated_at DESC, page.collection, page.id DESC`,
      params,
    );
    const total = Number(found[0].total);
    if (found[0].id === null) {
      return { rows: [], total };
    }
    return {
      rows: found.map(({ total: _total, ...row }) => row),
      total,
    };
  }

  /** A page of the audit rows `scope` lets through (newest first, within ACTIVITY_WINDOW), and their count. */
  activity(
    em: EntityManager,
    scope: ActivityScope,
    limit: number,
    offset: number,
  ): Promise<Page<ActivityRow>> {
    const params: unknown[] = [];
    let where = '';
    if (!scope.all) {
      params.push(scope.userId, `user:${scope.userId}`, scope.targetPatterns, scope.collections);
      where = `WHERE a.actor_id = $1 OR a.target = $2 OR a.target LIKE ANY($3::text[])
                  OR (a.target LIKE 'collection:%' AND a.event <> 'schema-applied'
                      AND split_part(a.target, ':', 2) = ANY($4::text[]))`;
    }
    return pagedRows<ActivityRow>(em, {
      with: `WITH visible AS (
               SELECT a.id, a.event, a.actor_id, a.target, a.created_at FROM audit_log a ${where}
                ORDER BY a.created_at DESC, a.id DESC LIMIT ${ACTIVITY_WINDOW})`,
      from: 'visible v',
      alias: 'v',
      where: '',
      params,
      orderBy: 'v.created_at DESC, v.id DESC',
      limit,
      offset,
      columns: 'v.id::text AS id, v.event, v.actor_id, u.name AS actor_name, v.target, v.created_at',
      join: 'LEFT JOIN users u ON u.id = v.actor_id',
    });
  }
}
