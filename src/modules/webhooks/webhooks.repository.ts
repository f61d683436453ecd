import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { containsPattern, ListQuery } from '../../common/pagination';
import { pagedRows, rows } from '../../database/sql';

/** Where a delivery stands. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface EndpointRow {
  id: string;
  name: string;
  url: string;
  events: string[];
  collections: string[] | null;
  enabled: boolean;
  description: string | null;
  /** The signing secret, sealed (SecretBox). */
  secret: string;
  failure_count: number;
  disabled_reason: string | null;
  last_delivery_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface EndpointValues {
  name: string;
  url: string;
  events: string[];
  collections: string[] | null;
  enabled: boolean;
  description: string | null;
  failureCount: number;
  disabledReason: string | null;
}

/** One attempt as `attempts_log` keeps it. */
export interface AttemptLogEntry {
  at: string;
  statusCode?: number;
  error?: string;
  durationMs: number;
  responseBody?: string;
}

export interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
  delivered_at: Date | null;
}

export interface DeliveryDetailRow extends DeliveryRow {
  attempts_log: AttemptLogEntry[];
  payload: Record<string, unknown>;
}

/** What an attempt needs: the delivery, its event's body and subject, and its endpoint. */
export interface AttemptTarget {
  id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  /** bigint, as text. */
  seq: string;
  payload: { type: string; timestamp: string; data: unknown };
  subject: string | null;
  url: string;
  secret: string;
  enabled: boolean;
}

/** An attempt's outcome, written over the delivery it was made for. */
export interface AttemptRecord {
  status: DeliveryStatus;
  statusCode: number | null;
  error: string | null;
  nextAttemptAt: Date | null;
  log: AttemptLogEntry;
}

export type EndpointSortField = 'name' | 'createdAt';
const SORT_COLUMNS: Record<EndpointSortField, string> = { name: 'name', createdAt: 'created_at' };

/** Every column of an endpoint but its secret. */
const ENDPOINT_COLUMNS = `id, name, url, events, collections, enabled, description, failure_count,
  disabled_reason, last_delivery_at, created_at, updated_at`;
const DELIVERY_COLUMNS = `id, endpoint_id, event_id, event, status, attempts, last_status_code, last_error,
  next_attempt_at, created_at, delivered_at`;

/** All SQL on webhook endpoints and deliveries (the outbox's writes are WebhookOutboxRepository's). */
@Injectable()
export class WebhooksRepository {
  list(
    em: EntityManager,
    q: ListQuery<EndpointSortField>,
  ): Promise<{ rows: Array<Omit<EndpointRow, 'secret'>>; total: number }> {
    return pagedRows<Omit<EndpointRow, 'secret'>>(em, {
      from: 'webhook_endpoints w',
      alias: 'w',
      columns: ENDPOINT_COLUMNS.replace(/(\w+)/g, 'w.$1'),
      where: q.search ? `(w.name ILIKE $1 ESCAPE '\\' OR w.url ILIKE $1 ESCAPE '\\')` : '',
      params: q.search ? [containsPattern(q.search)] : [],
      orderBy: `w.${SORT_COLUMNS[q.sort.field]} ${q.sort.direction === 'desc' ? 'DESC' : 'ASC'}, w.id ASC`,
      limit: q.limit,
      offset: q.offset,
    });
  }

  async findById(
    em: EntityManager,
    id: string,
    opts: { forUpdate?: boolean } = {},
  ): Promise<EndpointRow | null> {
    const found = await rows<EndpointRow>(
      em,
      `SELECT * FROM webhook_endpoints WHERE id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return found[0] ?? null;
  }

  async insert(em: EntityManager, v: EndpointValues & { secret: string }): Promise<EndpointRow> {
    const found = await rows<EndpointRow>(
      em,
      `INSERT INTO webhook_endpoints (name, url, events, collections, enabled, description, secret)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [v.name, v.url, v.events, v.collections, v.enabled, v.description, v.secret],
    );
    return found[0];
  }

  async update(em: EntityManager, id: string, v: EndpointValues): Promise<EndpointRow | null> {
    const found = await rows<EndpointRow>(
      em,
      `UPDATE webhook_endpoints
          SET name = $2, url = $3, events = $4, collections = $5, enabled = $6, description = $7,
              failure_count = $8, disabled_reason = $9, updated_at = now()
        WHERE id = $1 RETURNING *`,
      [
        id,
        v.name,
        v.url,
        v.events,
        v.collections,
        v.enabled,
        v.description,
        v.failureCount,
        v.disabledReason,
      ],
    );
    return found[0] ?? null;
  }

  async setSecret(em: EntityManager, id: string, sealed: string): Promise<boolean> {
    const found = await rows<{ id: string }>(
      em,
      `UPDATE webhook_endpoints SET secret = $2, updated_at = now() WHERE id = $1 RETURNING id`,
      [id, sealed],
    );
    return found.length > 0;
  }

  /** Deletes the endpoint; its deliveries go with it (ON DELETE CASCADE), pending ones included. */
  async delete(em: EntityManager, id: string): Promise<EndpointRow | null> {
    const found = await rows<EndpointRow>(em, `DELETE FROM webhook_endpoints WHERE id = $1 RETURNING *`, [
      id,
    ]);
    return found[0] ?? null;
  }

  /** A page of the endpoint's deliveries, newest first; `exists` false when there is no such endpoint. */
  listDeliveries(
    em: EntityManager,
    endpointId: string,
    filters: { status?: DeliveryStatus; events?: string[] },
    page: { limit: number; offset: number },
  ): Promise<{ rows: DeliveryRow[]; total: number; exists: boolean }> {
    const params: unknown[] = [endpointId];
    const where = ['d.endpoint_id = $1'];
    if (filters.status) {
      params.push(filters.status);
      where.push(`d.status = $${params.length}`);
    }
    if (filters.events) {
      params.push(filters.events);
      where.push(`d.event = ANY($${params.length}::text[])`);
    }
    return pagedRows<DeliveryRow>(em, {
      from: 'webhook_deliveries d',
      alias: 'd',
      columns: DELIVERY_COLUMNS.replace(/(\w+)/g, 'd.$1'),
      where: where.join(' AND '),
      params,
      orderBy: 'd.created_at DESC, d.seq DESC',
      limit: page.limit,
      offset: page.offset,
      exists: 'EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = $1)',
    });
  }

  async findDelivery(em: EntityManager, endpointId: string, id: string): Promise<DeliveryDetailRow | null> {
    const found = await rows<DeliveryDetailRow>(
      em,
      `SELECT ${DELIVERY_COLUMNS.replace(/(\w+)/g, 'd.$1')}, d.attempts_log, e.payload
         FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
        WHERE d.id = $1 AND d.endpoint_id = $2`,
      [id, endpointId],
    );
    return found[0] ?? null;
  }

  // -------------------------------------------------------------------------------------------
  // The delivery worker.

  /**
   * The delivery when an attempt is due: pending, and not waiting for a later time (a job of an
   * earlier attempt run again after its result was recorded finds its retry scheduled, and
   * leaves it to that retry's own job).
   */
  async attemptTarget(em: EntityManager, deliveryId: string): Promise<AttemptTarget | null> {
    const found = await rows<AttemptTarget>(
      em,
      `SELECT d.id, d.endpoint_id, d.event_id, d.attempts, d.seq, e.payload, e.subject, w.url, w.secret, w.enabled
         FROM webhook_deliveries d
         JOIN webhook_events e ON e.id = d.event_id
         JOIN webhook_endpoints w ON w.id = d.endpoint_id
        WHERE d.id = $1 AND d.status = 'pending' AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= now())`,
      [deliveryId],
    );
    return found[0] ?? null;
  }

  /** Whether an earlier event of the same subject to the same endpoint waits for its first attempt. */
  async earlierPending(em: EntityManager, t: AttemptTarget): Promise<boolean> {
    if (t.subject === null) {
      return false;
    }
    const found = await rows<{ waiting: boolean }>(
      em,
      `SELECT EXISTS (
         SELECT 1 FROM webhook_deliveries o JOIN webhook_events e ON e.id = o.event_id
          WHERE o.endpoint_id = $1 AND o.status = 'pending' AND o.seq < $2 AND o.attempts = 0
            AND e.subject = $3
       ) AS waiting`,
      [t.endpoint_id, t.seq, t.subject],
    );
    return found[0].waiting;
  }

  /**
   * Writes an attempt over the delivery, if it is still pending with the attempts it had when the
   * attempt began: false when another run of the same job got there first (nothing written).
   */
  async recordAttempt(em: EntityManager, id: string, startedAt: number, r: AttemptRecord): Promise<boolean> {
    const found = await rows<{ id: string }>(
      em,
      `UPDATE webhook_deliveries
          SET attempts = attempts + 1, status = $3, last_status_code = $4, last_error = $5,
              next_attempt_at = $6, attempts_log = attempts_log || jsonb_build_array($7::jsonb),
              delivered_at = CASE WHEN $3 = 'succeeded' THEN now() END
        WHERE id = $1 AND status = 'pending' AND attempts = $2
        RETURNING id`,
      [id, startedAt, r.status, r.statusCode, r.error, r.nextAttemptAt, JSON.stringify(r.log)],
    );
    return found.length > 0;
  }

  /** Ends a pending delivery `failed` without an attempt (its endpoint is disabled). */
  async endUnattempted(em: EntityManager, id: string, startedAt: number, error: string): Promise<boolean> {
    const found = await rows<{ id: string }>(
      em,
      `UPDATE webhook_deliveries SET status = 'failed', last_error = $3, next_attempt_at = NULL
        WHERE id = $1 AND status = 'pending' AND attempts = $2
        RETURNING id`,
      [id, startedAt, error],
    );
    return found.length > 0;
  }

  async endpointSucceeded(em: EntityManager, id: string): Promise<void> {
    await em.query(`UPDATE webhook_endpoints SET failure_count = 0, last_delivery_at = now() WHERE id = $1`, [
      id,
    ]);
  }

  /**
   * One more delivery failed in a row: the endpoint is disabled with `gone` (a 410 answer) or when
   * the run reaches `limit`, with the reason. Answers the endpoint's state after it.
   */
  async endpointFailed(
    em: EntityManager,
    id: string,
    o: { gone: boolean; limit: number; goneReason: string; limitReason: string },
  ): Promise<{ enabled: boolean; failure_count: number } | null> {
    const found = await rows<{ enabled: boolean; failure_count: number }>(
      em,
      `UPDATE webhook_endpoints
          SET failure_count = failure_count + 1,
              enabled = enabled AND NOT $2 AND failure_count + 1 < $3,
              disabled_reason = CASE
                WHEN NOT enabled THEN disabled_reason
                WHEN $2 THEN $4
                WHEN failure_count + 1 >= $3 THEN $5
                ELSE disabled_reason END
        WHERE id = $1
        RETURNING enabled, failure_count`,
      [id, o.gone, o.limit, o.goneReason, o.limitReason],
    );
    return found[0] ?? null;
  }

  // -------------------------------------------------------------------------------------------
  // Retention.

  /** Deletes up to `batch` deliveries made before `before`; answers how many. */
  async purgeDeliveries(em: EntityManager, before: Date, batch: number): Promise<number> {
    const found = await rows<{ n: number }>(
      em,
      `WITH gone AS (
         DELETE FROM webhook_deliveries WHERE id IN (
           SELECT id FROM webhook_deliveries WHERE created_at < $1 LIMIT $2)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before, batch],
    );
    return found[0].n;
  }

  /** Deletes up to `batch` events made before `before` that no delivery refers to any more. */
  async purgeEvents(em: EntityManager, before: Date, batch: number): Promise<number> {
    const found = await rows<{ n: number }>(
      em,
      `WITH gone AS (
         DELETE FROM webhook_events WHERE id IN (
           SELECT e.id FROM webhook_events e
            WHERE e.created_at < $1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
            LIMIT $2)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before, batch],
    );
    return found[0].n;
  }
}
