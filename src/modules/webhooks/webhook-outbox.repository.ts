import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SVC_CONNECTION } from '../../config/svc-options';
import { rows } from '../../database/sql';

export interface SubscribedEndpoint {
  id: string;
  events: string[];
  collections: string[] | null;
}

/** SQL of the outbox: events and their deliveries, written in the transaction of a change. */
@Injectable()
export class WebhookOutboxRepository {
  constructor(@InjectDataSource(SVC_CONNECTION) private readonly db: DataSource) {}

  async enabledCount(): Promise<number> {
    const found = await rows<{ n: number }>(
      this.db.manager,
      `SELECT count(*)::int AS n FROM webhook_endpoints WHERE enabled`,
    );
    return found[0].n;
  }

  enabledEndpoints(em: EntityManager): Promise<SubscribedEndpoint[]> {
    return rows<SubscribedEndpoint>(
      em,
      `SELECT id, events, collections FROM webhook_endpoints WHERE enabled`,
    );
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
