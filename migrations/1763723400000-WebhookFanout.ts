import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A write with subscribed endpoints records only its event and who it is for (the endpoints
 * enabled and subscribed when it happened), in a narrow fan-out row, instead of a delivery and a
 * job per endpoint: the delivery worker turns fan-out rows into deliveries and jobs in batches,
 * off the write's path (`seq` keeps the order the events happened in). What only deliveries need
 * moves to them, so an event row is cheap to write:
 * - the subject (what the event is about: events of one subject reach an endpoint in order) is
 *   written with each delivery and indexed among the deliveries not yet attempted, where the
 *   order check looks, instead of being computed and indexed for every event;
 * - events are purged by age through a BRIN index (rows arrive in time order), not a b-tree.
 */
export class WebhookFanout1763723400000 implements MigrationInterface {
  name = 'WebhookFanout1763723400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE webhook_fanout (
      seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      event_id text NOT NULL,
      endpoint_ids uuid[] NOT NULL
    )`);
    await q.query(`ALTER TABLE webhook_deliveries ADD COLUMN subject text`);
    await q.query(
      `UPDATE webhook_deliveries d SET subject = e.subject
         FROM webhook_events e WHERE e.id = d.event_id AND d.status = 'pending'`,
    );
    await q.query(`DROP INDEX webhook_deliveries_pending_idx`);
    await q.query(
      `CREATE INDEX webhook_deliveries_subject_idx ON webhook_deliveries (endpoint_id, subject, seq)
        WHERE status = 'pending' AND attempts = 0`,
    );
    await q.query(`DROP INDEX webhook_events_subject_idx`);
    await q.query(`ALTER TABLE webhook_events DROP COLUMN subject`);
    await q.query(`DROP INDEX webhook_events_created_idx`);
    await q.query(`CREATE INDEX webhook_events_created_idx ON webhook_events USING brin (created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_events_created_idx`);
    await q.query(`CREATE INDEX webhook_events_created_idx ON webhook_events (created_at)`);
    await q.query(
      `ALTER TABLE webhook_events ADD COLUMN subject text GENERATED ALWAYS AS (${SUBJECT_SQL}) STORED`,
    );
    await q.query(`CREATE INDEX webhook_events_subject_idx ON webhook_events (subject)`);
    await q.query(`DROP INDEX webhook_deliveries_subject_idx`);
    await q.query(
      `CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (endpoint_id, seq) WHERE status = 'pending'`,
    );
    await q.query(`ALTER TABLE webhook_deliveries DROP COLUMN subject`);
    await q.query(`DROP TABLE webhook_fanout`);
  }
}

/** An event's subject from its type and payload (as the fan-out computes it). */
const SUBJECT_SQL = `CASE
  WHEN type LIKE 'entry.%' THEN 'entry:' || (payload #>> '{data,collection}') || '/' || (payload #>> '{data,id}')
  WHEN type LIKE 'single.%' THEN 'single:' || (payload #>> '{data,single}')
  WHEN type LIKE 'media.%' THEN 'media:' || (payload #>> '{data,id}')
  WHEN type LIKE 'user.%' THEN 'user:' || (payload #>> '{data,user,id}')
END`;
