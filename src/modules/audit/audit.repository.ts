import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { type Page, pagedRows, rows } from '../../database/sql';

export interface AuditEntry {
  event: string;
  actorId?: string | null;
  /** `<type>:<id>` (`user:<uuid>`, `role:<uuid>`, `settings:general`, `collection:<slug>`). */
  target?: string | null;
  /** Never a secret (password, token, key, hash): the log is readable and exported. */
  metadata?: Record<string, unknown>;
  ip?: string | null;
  userAgent?: string | null;
  /** The sign-in strategy; when absent, a string `metadata.strategy` fills it. */
  strategy?: string | null;
}

/** The filters of `GET /audit` and its export, validated (AuditService.filters). */
export interface AuditFilters {
  events?: string[];
  actorId?: string;
  from?: Date;
  to?: Date;
}

export interface AuditRow {
  id: string;
  event: string;
  actor_id: string | null;
  actor_name: string | null;
  target: string | null;
  ip: string | null;
  user_agent: string | null;
  strategy: string | null;
  metadata: Record<string, unknown>;
  created_at: Date;
}

/** Where the export's next batch starts: the last row sent (newest first). */
export interface AuditCursor {
  /** `created_at` as PostgreSQL writes it (microseconds kept: a JS Date would drop them). */
  at: string;
  id: string;
}

const COLUMNS = `a.id::text AS id, a.event, a.actor_id, u.name AS actor_name, a.target, a.ip,
                 a.user_agent, a.strategy, a.metadata, a.created_at`;

/** The WHERE of `filters` on alias `a`, its values appended to `params`. */
function whereOf(filters: AuditFilters, params: unknown[]): string[] {
  const where: string[] = [];
  if (filters.events?.length) {
    params.push(filters.events);
    where.push(`a.event = ANY($${params.length}::text[])`);
  }
  if (filters.actorId) {
    params.push(filters.actorId);
    where.push(`a.actor_id = $${params.length}::uuid`);
  }
  if (filters.from) {
    params.push(filters.from.toISOString());
    where.push(`a.created_at >= $${params.length}::timestamptz`);
  }
  if (filters.to) {
    params.push(filters.to.toISOString());
    where.push(`a.created_at <= $${params.length}::timestamptz`);
  }
  return where;
}

/** SQL of the audit log: append-only rows, read newest first, purged past the retention. */
@Injectable()
export class AuditRepository {
  async insert(em: EntityManager, entry: AuditEntry): Promise<void> {
    const fromMetadata = entry.metadata?.strategy;
    await em.query(
      `INSERT INTO audit_log (event, actor_id, target, metadata, ip, user_agent, strategy)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        entry.event,
        entry.actorId ?? null,
        entry.target ?? null,
        JSON.stringify(entry.metadata ?? {}),
        entry.ip ?? null,
        entry.userAgent ?? null,
        entry.strategy ?? (typeof fromMetadata === 'string' ? fromMetadata : null),
      ],
    );
  }

  /** A page of the rows under `filters`, newest first (or oldest with `ascending`), and their count. */
  list(
    em: EntityManager,
    filters: AuditFilters,
    page: { limit: number; offset: number; ascending: boolean },
  ): Promise<Page<AuditRow>> {
    const params: unknown[] = [];
    const dir = page.ascending ? 'ASC' : 'DESC';
    return pagedRows<AuditRow>(em, {
      from: 'audit_log a',
      alias: 'a',
      where: whereOf(filters, params).join(' AND '),
      params,
      orderBy: `a.created_at ${dir}, a.id ${dir}`,
      limit: page.limit,
      offset: page.offset,
      columns: COLUMNS,
      join: 'LEFT JOIN users u ON u.id = a.actor_id',
    });
  }

  /**
   * Up to `size` rows under `filters` after `cursor`, newest first (keyset: each batch is one
   * index range scan, however deep into the log), each with the cursor it ends at.
   */
  exportBatch(
    em: EntityManager,
    filters: AuditFilters,
    cursor: AuditCursor | null,
    size: number,
  ): Promise<Array<AuditRow & { cursor_at: string }>> {
    const params: unknown[] = [];
    const where = whereOf(filters, params);
    if (cursor) {
      params.push(cursor.at, cursor.id);
      where.push(`(a.created_at, a.id) < ($${params.length - 1}::timestamptz, $${params.length}::bigint)`);
    }
    params.push(size);
    return rows(
      em,
      `SELECT ${COLUMNS}, a.created_at::text AS cursor_at
         FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY a.created_at DESC, a.id DESC LIMIT $${params.length}`,
      params,
    );
  }

  /**
   * Deletes up to `batch` rows older than `before` (oldest first); answers how many went. One
   * short statement per batch, so the purge never holds many row locks or one long transaction.
   */
  async purgeBatch(em: EntityManager, before: Date, batch: number): Promise<number> {
    const deleted = await rows<{ id: string }>(
      em,
      `DELETE FROM audit_log WHERE id IN (
         SELECT id FROM audit_log WHERE created_at < $1::timestamptz ORDER BY created_at LIMIT $2)
       RETURNING id`,
      [before.toISOString(), batch],
    );
    return deleted.length;
  }
}
