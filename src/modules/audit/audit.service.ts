import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ServiceError, type ValidationIssue } from '../../common/errors';
import { listRecord, type ListRecord, parseListQuery } from '../../common/pagination';
import { SVC_CONNECTION } from '../../config/svc-options';
import { currentClient } from '../../common/request-logging';
import {
  type AuditCursor,
  type AuditEntry,
  type AuditFilters,
  AuditRepository,
  type AuditRow,
} from './audit.repository';
import type { AuditItem } from './audit.types';

export type { AuditEntry, AuditFilters } from './audit.repository';

/** Rows per statement of the CSV export: what it holds in memory at once. */
export const EXPORT_BATCH = 1000;
/** Rows per DELETE of the retention purge. */
export const PURGE_BATCH = 5000;

/** `event` values: the names the service writes (`user-created`, `api-key-rotated`...). */
const EVENT_NAME = /^[a-z0-9][a-z0-9._:-]{0,63}$/;
export const MAX_EVENTS = 50;
/** What the audit list sorts by (newest first by default; it has no search). */
export const AUDIT_SORTABLE = ['createdAt'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** An ISO 8601 date, or date-time with an optional zone (none: UTC). */
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * The audit log (CONTRACTS 14.3): append-only rows, written inside the caller's transaction when
 * given one, so a row exists exactly when the change it records does; read newest first with
 * filters, exported as CSV in batches, purged past `auth.auditRetentionDays` by the jobs.
 */
@Injectable()
export class AuditService {
  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: AuditRepository,
  ) {}

  /**
   * Appends a row. Inside an HTTP request, the client's IP and User-Agent fill the row when the
   * entry does not name them (the actor never: an anonymous event stays anonymous). Never a
   * secret in `metadata` (password, token, key, hash).
   */
  record(entry: AuditEntry, em: EntityManager = this.db.manager): Promise<void> {
    const client = currentClient();
    return this.repo.insert(em, {
      ...entry,
      ip: entry.ip ?? client?.ip ?? null,
      userAgent: entry.userAgent ?? client?.userAgent ?? null,
    });
  }

  /**
   * The signed-in caller of the HTTP request being handled (an API key's creator), or null: the
   * actor for a service that is not handed the AuthContext (the email settings).
   */
  requestActorId(): string | null {
    return currentClient()?.actorId ?? null;
  }

  /** `GET /audit`: the List of rows under the query's filters, newest first (`sort=createdAt`: oldest). */
  async list(query: Record<string, unknown>): Promise<ListRecord<AuditItem>> {
    const filters = this.filters(query);
    if (query.search !== undefined) {
      throw ServiceError.validation([
        { path: 'search', code: 'notAllowed', message: 'the audit log has no search; filter with event' },
      ]);
    }
    const q = parseListQuery(query, {
      sortable: AUDIT_SORTABLE,
      defaultSort: { field: 'createdAt', direction: 'desc' },
    });
    const { rows, total } = await this.repo.list(this.db.manager, filters, {
      limit: q.limit,
      offset: q.offset,
      ascending: q.sort.direction === 'asc',
    });
    return listRecord(rows.map(toAuditItem), total, q);
  }

  /**
   * The filters of a list or export query: `event` (one name, comma-separated names, or the
   * parameter repeated), `actorId` (a user id), `from` and `to` (ISO 8601, both inclusive; a date
   * alone is its midnight UTC). Every problem at once: 400 VALIDATION_ERROR, one entry per path.
   */
  filters(query: Record<string, unknown>): AuditFilters {
    const issues: ValidationIssue[] = [];
    const filters: AuditFilters = {};
    if (query.event !== undefined) {
      const parts = (Array.isArray(query.event) ? query.event : [query.event]).flatMap((v) =>
        typeof v === 'string' ? v.split(',').map((s) => s.trim()) : [null],
      );
      if (parts.some((p) => p === null || !EVENT_NAME.test(p)) || parts.length > MAX_EVENTS) {
        issues.push({
          path: 'event',
          code: 'isEventList',
          message: `event must be one event name or up to ${MAX_EVENTS} comma-separated ones`,
        });
      } else {
        filters.events = [...new Set(parts as string[])];
      }
    }
    if (query.actorId !== undefined) {
      if (typeof query.actorId !== 'string' || !UUID.test(query.actorId)) {
        issues.push({ path: 'actorId', code: 'isUuid', message: 'actorId must be a user id (UUID)' });
      } else {
        filters.actorId = query.actorId.toLowerCase();
      }
    }
    for (const key of ['from', 'to'] as const) {
      if (query[key] === undefined) {
        continue;
      }
      const at = parseInstant(query[key]);
      if (!at) {
        issues.push({ path: key, code: 'isISO8601', message: `${key} must be an ISO 8601 date-time` });
      } else {
        filters[key] = at;
      }
    }
    if (filters.from && filters.to && filters.from > filters.to) {
      issues.push({ path: 'to', code: 'min', message: 'to must not be before from' });
    }
    if (issues.length) {
      throw ServiceError.validation(issues, 'The audit query is not valid');
    }
    return filters;
  }

  /**
   * Every row under `filters`, newest first, in batches of EXPORT_BATCH read one at a time (each
   * after the last row of the previous one), so an export of any size holds one batch in memory.
   */
  async *exportBatches(filters: AuditFilters): AsyncGenerator<AuditItem[]> {
    let cursor: AuditCursor | null = null;
    for (;;) {
      const batch = await this.repo.exportBatch(this.db.manager, filters, cursor, EXPORT_BATCH);
      if (batch.length) {
        yield batch.map(toAuditItem);
      }
      if (batch.length < EXPORT_BATCH) {
        return;
      }
      const last = batch[batch.length - 1];
      cursor = { at: last.cursor_at, id: last.id };
    }
  }

  /**
   * Deletes the rows older than `before` in batches of `batch` rows, each its own short
   * statement, up to `maxBatches` of them (the rest waits for the next run); answers how many went.
   */
  async purgeOlderThan(before: Date, batch = PURGE_BATCH, maxBatches = 200): Promise<number> {
    let total = 0;
    for (let i = 0; i < maxBatches; i++) {
      const deleted = await this.repo.purgeBatch(this.db.manager, before, batch);
      total += deleted;
      if (deleted < batch) {
        break;
      }
    }
    return total;
  }
}

/** `user:<id>` -> `{ type: 'user', id }`; a target without `:` is a type alone. */
export function splitTarget(target: string | null): AuditItem['target'] {
  if (target === null) {
    return null;
  }
  const at = target.indexOf(':');
  return at < 0 ? { type: target, id: null } : { type: target.slice(0, at), id: target.slice(at + 1) };
}

function toAuditItem(r: AuditRow): AuditItem {
  return {
    id: r.id,
    event: r.event,
    actor: r.actor_id && r.actor_name !== null ? { id: r.actor_id, name: r.actor_name } : null,
    target: splitTarget(r.target),
    ip: r.ip,
    userAgent: r.user_agent,
    strategy: r.strategy,
    metadata: r.metadata ?? {},
    createdAt: new Date(r.created_at).toISOString(),
  };
}

/** An ISO 8601 date or date-time (checked field by field: no 31 February), or null. */
function parseInstant(value: unknown): Date | null {
  if (typeof value !== 'string') {
    return null;
  }
  const m = ISO_DATE_TIME.exec(value.trim());
  if (!m) {
    return null;
  }
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = m;
  const days = new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate();
  if (Number(mo) < 1 || Number(mo) > 12 || Number(d) < 1 || Number(d) > days) {
    return null;
  }
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    return null;
  }
  let text = value.trim().replace(' ', 'T');
  if (m[4] !== undefined && m[7] === undefined) {
    text += 'Z';
  } else if (m[7] && /^[+-]\d{4}$/.test(m[7])) {
    text = `${text.slice(0, -2)}:${text.slice(-2)}`;
  }
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? null : at;
}
