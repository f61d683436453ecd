import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Outbound webhooks.
 * - `webhook_endpoints`: where events go, which ones, the signing secret (sealed), and the run of
 *   failed deliveries that disables an endpoint.
 * - `webhook_events`: the outbox. An event is written in the transaction of the change it reports
 *   (a rolled-back change leaves none); its id is the `webhook-id` every attempt sends.
 * - `webhook_deliveries`: one per event and endpoint, with the log of its attempts; a replay
 *   is another delivery of the same event. Both are purged after 30 days.
 * - The permissions `create/read/update/delete-webhooks`.
 */
export class Webhooks1763723200000 implements MigrationInterface {
  name = 'Webhooks1763723200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        url text NOT NULL,
        events text[] NOT NULL,
        collections text[],
        enabled boolean NOT NULL DEFAULT true,
        description text,
        secret text NOT NULL,
        failure_count integer NOT NULL DEFAULT 0,
        disabled_reason text,
        last_delivery_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE webhook_events (
        id text PRIMARY KEY,
        type text NOT NULL,
        payload jsonb NOT NULL,
        -- What the event is about (an entry, a single, a media item, a user): events of one
        -- subject are delivered to an endpoint in the order they happened.
        subject text GENERATED ALWAYS AS (
          CASE
            WHEN type LIKE 'entry.%' THEN 'entry:' || (payload #>> '{data,collection}') || '/' || (payload #>> '{data,id}')
            WHEN type LIKE 'single.%' THEN 'single:' || (payload #>> '{data,single}')
            WHEN type LIKE 'media.%' THEN 'media:' || (payload #>> '{data,id}')
            WHEN type LIKE 'user.%' THEN 'user:' || (payload #>> '{data,user,id}')
          END
        ) STORED,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        event_id text NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
        event text NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_status_code integer,
        last_error text,
        next_attempt_at timestamptz,
        attempts_log jsonb NOT NULL DEFAULT '[]',
        -- The order deliveries were written in (one transaction's share one created_at).
        seq bigint GENERATED ALWAYS AS IDENTITY,
        created_at timestamptz NOT NULL DEFAULT now(),
        delivered_at timestamptz
      )`);
    await q.query(
      `CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC)`,
    );
    await q.query(`CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id)`);
    // The wait for an earlier event of the same subject looks among an endpoint's pending ones.
    await q.query(
      `CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (endpoint_id, seq) WHERE status = 'pending'`,
    );
    // The retention purge: deliveries and events older than 30 days.
    await q.query(`CREATE INDEX webhook_deliveries_created_idx ON webhook_deliveries (created_at)`);
    await q.query(`CREATE INDEX webhook_events_created_idx ON webhook_events (created_at)`);
    await q.query(`
      INSERT INTO permissions (slug, action, resource, name, description)
      SELECT a || '-webhooks', a, 'webhooks', initcap(a) || ' webhooks', d
        FROM (VALUES ('create', 'Add webhook endpoints'),
                     ('read', 'See webhook endpoints and their deliveries'),
                     ('update', 'Change, test and replay webhook endpoints, and rotate their secrets'),
                     ('delete', 'Remove webhook endpoints')) AS p(a, d)
      ON CONFLICT (slug) DO NOTHING`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS webhook_deliveries`);
    await q.query(`DROP TABLE IF EXISTS webhook_events`);
    await q.query(`DROP TABLE IF EXISTS webhook_endpoints`);
    await q.query(`DELETE FROM permissions WHERE resource = 'webhooks' AND content_definition_id IS NULL`);
  }
}
