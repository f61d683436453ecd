import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { lockKey } from '../../database/locks';
import { fixedRows, rows } from '../../database/sql';

/**
 * The CTEs that write the events of the relation `ev` (id, type, payload, collection, ord) that an
 * enabled endpoint subscribes to (`stored`), and per such event the endpoints it is for, in a
 * fan-out row (`fanned`, a row each) that the delivery worker turns into deliveries and jobs. To
 * follow `ev AS (...), ` in a WITH.
 */
export function outboxCtes(): string {
  return `pairs AS (
         SELECT ev.id AS event_id, w.id AS endpoint_id, ev.ord
           FROM ev JOIN webhook_endpoints w
             ON w.enabled AND ('*' = ANY (w.events) OR ev.type = ANY (w.events))
            AND (ev.collection IS NULL OR w.collections IS NULL OR ev.collection = ANY (w.collections))
       ), stored AS (
         INSERT INTO webhook_events (id, type, payload)
         SELECT id, type, payload FROM ev WHERE id IN (SELECT event_id FROM pairs) ORDER BY ord
       ), fanned AS (
         INSERT INTO webhook_fanout (event_id, endpoint_ids)
         SELECT event_id, array_agg(endpoint_id ORDER BY endpoint_id) FROM pairs
          GROUP BY event_id, ord ORDER BY ord
         RETURNING seq
       )`;
}

/**
 * What the event `e` (a row of webhook_events) is about: an entry, a single, a media item, a
 * user. Deliveries of one subject to one endpoint are made in the order their events happened.
 */
function subjectSql(e: string): string {
  return `CASE
    WHEN ${e}.type LIKE 'entry.%' THEN 'entry:' || (${e}.payload #>> '{data,collection}') || '/' || (${e}.payload #>> '{data,id}')
    WHEN ${e}.type LIKE 'single.%' THEN 'single:' || (${e}.payload #>> '{data,single}')
    WHEN ${e}.type LIKE 'media.%' THEN 'media:' || (${e}.payload #>> '{data,id}')
    WHEN ${e}.type LIKE 'user.%' THEN 'user:' || (${e}.payload #>> '{data,user,id}')
  END`;
}

/** SQL of the outbox: events and their deliveries, written in the transaction of a change. */
@Injectable()
export class WebhookOutboxRepository {
  private readonly prepare: boolean;

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    @Inject(SVC_OPTIONS) options: SvcOptions,
  ) {
    this.prepare = options.preparedStatements;
  }

  async enabledCount(em: EntityManager = this.db.manager): Promise<number> {
    const found = await rows<{ n: number }>(
      em,
      `SELECT count(*)::int AS n FROM webhook_endpoints WHERE enabled`,
    );
    return found[0].n;
  }

  /**
   * In one statement: the events (in their order) that an enabled endpoint subscribes to, and
   * their fan-out rows. Answers how many events were written.
   */
  async writeEvents(
    em: EntityManager,
    events: ReadonlyArray<{ id: string; type: string; payload: object; collection: string | null }>,
  ): Promise<number> {
    // One text: prepared once per connection (planning four CTEs is not free).
    const found = await fixedRows<{ n: number }>(
      em,
      `WITH ev AS (
         SELECT x.e->>'id' AS id, x.e->>'type' AS type, x.e->'payload' AS payload,
                x.e->>'collection' AS collection, x.ord
           FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, ord)
       ), ${outboxCtes()}
       SELECT count(*)::int AS n FROM fanned`,
      [JSON.stringify(events)],
      this.prepare,
    );
    return found[0].n;
  }

  /**
   * Turns up to `limit` fan-out rows, oldest first, into a delivery per endpoint that still
   * exists (in event order, so `seq` orders the deliveries of one subject as their events
   * happened) and, with `insertJobs` (an INSERT from the relation `new_jobs`), a job per delivery;
   * the rows are deleted in the same statement. One instance at a time (`got`: whether this one
   * held the lock; another one's fan-out under way does the work). Answers the rows taken and the
   * deliveries written.
   */
  async fanOut(
    em: EntityManager,
    insertJobs: string,
    limit: number,
  ): Promise<{ got: boolean; events: number; deliveries: number }> {
    const key = lockKey('webhookFanout');
    const found = await fixedRows<{ got: boolean; events: number; deliveries: number }>(
      em,
      `WITH lock AS (
         SELECT pg_try_advisory_xact_lock(${key.args}) AS got
       ), f AS (
         DELETE FROM webhook_fanout
          WHERE seq IN (SELECT seq FROM webhook_fanout WHERE (SELECT got FROM lock) ORDER BY seq LIMIT $3)
         RETURNING seq, event_id, endpoint_ids
       ), delivered AS (
         INSERT INTO webhook_deliveries (endpoint_id, event_id, event, subject)
         SELECT w.id, f.event_id, e.type, ${subjectSql('e')}
           FROM f JOIN webhook_events e ON e.id = f.event_id
          CROSS JOIN LATERAL unnest(f.endpoint_ids) WITH ORDINALITY AS u(endpoint_id, k)
           JOIN webhook_endpoints w ON w.id = u.endpoint_id
          ORDER BY f.seq, u.k
         RETURNING id
       ), new_jobs AS (
         SELECT jsonb_build_object('deliveryId', id) AS data FROM delivered
       ), queued AS (${insertJobs})
       SELECT (SELECT got FROM lock) AS got, (SELECT count(*) FROM f)::int AS events,
              (SELECT count(*) FROM delivered)::int AS deliveries`,
      [...key.params, limit],
      this.prepare,
    );
    return found[0];
  }

  async insertEvents(
    em: EntityManager,
    events: ReadonlyArray<{ id: string; type: string; payload: object }>,
  ): Promise<void> {
    await em.query(
      `INSERT INTO webhook_events (id, type, payload)
       SELECT e.id, e.type, e.payload FROM jsonb_to_recordset($1::jsonb) AS e(id text, type text, payload jsonb)`,
      [JSON.stringify(events)],
    );
  }

  /** Inserts the deliveries, answering their ids. */
  async insertDeliveries(
    em: EntityManager,
    deliveries: ReadonlyArray<{ endpointId: string; eventId: string; event: string }>,
  ): Promise<string[]> {
    const found = await rows<{ id: string }>(
      em,
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, event, subject)
       SELECT d."endpointId", d."eventId", d.event, ${subjectSql('e')}
         FROM jsonb_to_recordset($1::jsonb) AS d("endpointId" uuid, "eventId" text, event text)
         JOIN webhook_events e ON e.id = d."eventId"
       RETURNING id`,
      [JSON.stringify(deliveries)],
    );
    return found.map((r) => r.id);
  }
}
