import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { fixedRows, rows } from '../../database/sql';

/**
 * The CTEs that write the events of the relation `ev` (id, type, payload, collection, ord): the
 * pairs of an event and an enabled endpoint subscribed to it, the events that have one
 * (`stored`), a delivery per pair (`delivered`, their ids), and with `insertJobs` (an INSERT from
 * the relation `new_jobs`, `JobsService.insertJobsSql`) a job per delivery. To follow `ev AS
 * (...), ` in a WITH.
 */
export function outboxCtes(insertJobs: string | null): string {
  return `pairs AS (
         SELECT ev.id AS event_id, ev.type, w.id AS endpoint_id, ev.ord
           FROM ev JOIN webhook_endpoints w
             ON w.enabled AND ('*' = ANY (w.events) OR ev.type = ANY (w.events))
            AND (ev.collection IS NULL OR w.collections IS NULL OR ev.collection = ANY (w.collections))
       ), stored AS (
         INSERT INTO webhook_events (id, type, payload)
         SELECT id, type, payload FROM ev WHERE id IN (SELECT event_id FROM pairs) ORDER BY ord
       ), delivered AS (
         INSERT INTO webhook_deliveries (endpoint_id, event_id, event)
         SELECT endpoint_id, event_id, type FROM pairs ORDER BY ord, endpoint_id
         RETURNING id
       )${
         insertJobs === null
           ? ''
           : `, new_jobs AS (
         SELECT jsonb_build_object('deliveryId', id) AS data FROM delivered
       ), queued AS (${insertJobs})`
       }`;
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

  async enabledCount(): Promise<number> {
    const found = await rows<{ n: number }>(
      this.db.manager,
      `SELECT count(*)::int AS n FROM webhook_endpoints WHERE enabled`,
    );
    return found[0].n;
  }

  /**
   * In one statement: the events (in their order) that an enabled endpoint subscribes to, a
   * delivery per such endpoint, and with `insertJobs` (an INSERT from the relation `new_jobs`) a
   * job per delivery. Answers the deliveries' ids.
   */
  async writeEvents(
    em: EntityManager,
    events: ReadonlyArray<{ id: string; type: string; payload: object; collection: string | null }>,
    insertJobs: string | null,
  ): Promise<string[]> {
    // One text per queue setup: prepared once per connection (planning five CTEs is not free).
    const found = await fixedRows<{ id: string }>(
      em,
      `WITH ev AS (
         SELECT x.e->>'id' AS id, x.e->>'type' AS type, x.e->'payload' AS payload,
                x.e->>'collection' AS collection, x.ord
           FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS x(e, ord)
       ), ${outboxCtes(insertJobs)}
       SELECT id FROM delivered`,
      [JSON.stringify(events)],
      this.prepare,
    );
    return found.map((r) => r.id);
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
      `INSERT INTO webhook_deliveries (endpoint_id, event_id, event)
       SELECT d."endpointId", d."eventId", d.event
         FROM jsonb_to_recordset($1::jsonb) AS d("endpointId" uuid, "eventId" text, event text)
       RETURNING id`,
      [JSON.stringify(deliveries)],
    );
    return found.map((r) => r.id);
  }
}
