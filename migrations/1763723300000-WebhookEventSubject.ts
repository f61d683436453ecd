import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The delivery worker checks, for each first attempt, whether an earlier event of the same
 * subject to the same endpoint still waits: by the subject's own events rather than by every
 * pending delivery of the endpoint (a backlog of thousands made that check quadratic).
 */
export class WebhookEventSubject1763723300000 implements MigrationInterface {
  name = 'WebhookEventSubject1763723300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX webhook_events_subject_idx ON webhook_events (subject)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX webhook_events_subject_idx`);
  }
}
