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
  /** A first attempt that gives way to an earlier one (see `attemptTargets`). */
  behind: boolean;
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
   * The deliveries among `ids` that have an attempt due: pending, and not waiting for a later
   * time (a job of an earlier attempt run again after its result was recorded finds its retry
   * scheduled, and leaves it to that retry's own job). In the order they were written. `behind`:
   * a first attempt with an earlier event of the same subject to the same endpoint still waiting
   * for its first attempt, leaving out the deliveries `besides` (the worker's own, which it sends
   * in order itself).
   */
  attemptTargets(
    em: EntityManager,
    ids: readonly string[],
    besides: readonly string[],
  ): Promise<AttemptTarget[]> {
    return rows<AttemptTarget>(
      em,
      `SELECT d.id, d.endpoint_id, d.event_id, d.attempts, d.seq, e.payload, d.subject, w.url, w.secret, w.enabled,
              d.attempts = 0 AND d.subject IS NOT NULL AND w.enabled AND EXISTS (
                SELECT 1 FROM webhook_deliveries o
                 WHERE o.endpoint_id = d.endpoint_id AND o.subject = d.subject AND o.status = 'pending'
                   AND o.attempts = 0 AND o.seq < d.seq AND o.id <> ALL ($2::uuid[])) AS behind
         FROM webhook_deliveries d
         JOIN webhook_events e ON e.id = d.event_id
         JOIN webhook_endpoints w ON w.id = d.endpoint_id
        WHERE d.id = ANY ($1::uuid[]) AND d.status = 'pending'
          AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= now())
        ORDER BY d.seq`,
      [ids, besides],
    );
  }

  /**
   * Writes each attempt over its delivery, if that is still pending with the attempts it had when
   * the attempt began; answers the ids written (a delivery another run of its job recorded first
   * is left out).
   */
  async recordAttempts(
    em: EntityManager,
    records: ReadonlyArray<AttemptRecord & { id: string; startedAt: number }>,
  ): Promise<Set<string>> {
    if (!records.length) {
      return new Set();
    }
    const found = await rows<{ id: string }>(
      em,
      `UPDATE webhook_deliveries d
          SET attempts = d.attempts + 1, status = r.status, last_status_code = r."statusCode",
              last_error = r.error, next_attempt_at = r."nextAttemptAt",
              attempts_log = d.attempts_log || jsonb_build_array(r.log),
              delivered_at = CASE WHEN r.status = 'succeeded' THEN now() END
         FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, "startedAt" int, status text, "statusCode" int,
              error text, "nextAttemptAt" timestamptz, log jsonb)
        WHERE d.id = r.id AND d.status = 'pending' AND d.attempts = r."startedAt"
        RETURNING d.id`,
      [JSON.stringify(records)],
    );
    return new Set(found.map((r) => r.id));
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

  /**
   * The endpoints' runs of failed deliveries after a worker's results: one that had a success
   * starts its run again from the failures after its last success (`reset`), others add their
   * `failures`; an endpoint is disabled with `gone` (a 410 answer) or when its run reaches
   * `limit`, with the reason. Answers the endpoints that were enabled and are not now.
   */
  async endpointResults(
    em: EntityManager,
    results: ReadonlyArray<{ id: string; reset: boolean; failures: number; gone: boolean }>,
    o: { limit: number; goneReason: string; limitReason: string },
  ): Promise<string[]> {
    if (!results.length) {
      return [];
    }
    const found = await rows<{ id: string; disabled: boolean }>(
      em,
      // The endpoints locked in one order first: two instances' workers never deadlock on them.
      `WITH r AS (
         SELECT r.*, w.enabled AS was_enabled,
                CASE WHEN r.reset THEN r.failures ELSE w.failure_count + r.failures END AS run
           FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, reset boolean, failures int, gone boolean)
           JOIN webhook_endpoints w ON w.id = r.id
          ORDER BY r.id
            FOR UPDATE OF w
       )
       UPDATE webhook_endpoints w
          SET failure_count = r.run,
              last_delivery_at = CASE WHEN r.reset THEN now() ELSE w.last_delivery_at END,
              enabled = w.enabled AND NOT r.gone AND r.run < $2,
              disabled_reason = CASE
                WHEN NOT w.enabled THEN w.disabled_reason
                WHEN r.gone THEN $3
                WHEN r.run >= $2 THEN $4
                ELSE w.disabled_reason END
         FROM r
        WHERE w.id = r.id
        RETURNING w.id, r.was_enabled AND NOT w.enabled AS disabled`,
      [JSON.stringify(results), o.limit, o.goneReason, o.limitReason],
    );
    return found.filter((r) => r.disabled).map((r) => r.id);
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

  /**
   * Deletes up to `batch` events made before `before` that no delivery refers to any more (and
   * that are not waiting for their deliveries).
   */
  async purgeEvents(em: EntityManager, before: Date, batch: number): Promise<number> {
    const found = await rows<{ n: number }>(
      em,
      `WITH gone AS (
         DELETE FROM webhook_events WHERE id IN (
           SELECT e.id FROM webhook_events e
            WHERE e.created_at < $1 AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id)
              AND NOT EXISTS (SELECT 1 FROM webhook_fanout f WHERE f.event_id = e.id)
            LIMIT $2)
         RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [before, batch],
    );
    return found[0].n;
  }
}
