import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log's read side (CONTRACTS 14.3): the `read-audit` permission (a core one, held by no
 * role: super-admins pass every check), the client's `user_agent` and the sign-in `strategy` as
 * columns of their own (the strategy of older rows copied from `metadata.strategy`, where the
 * sign-in rows kept it), and indexes for the filters (`actorId`) and the retention purge
 * (`created_at`, already indexed).
 */
export class AuditLog1763722900000 implements MigrationInterface {
  name = 'AuditLog1763722900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE audit_log ADD COLUMN user_agent text, ADD COLUMN strategy text`);
    await q.query(`
      UPDATE audit_log SET strategy = metadata->>'strategy'
       WHERE jsonb_typeof(metadata->'strategy') = 'string'`);
    await q.query(`CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, created_at DESC)`);
    await q.query(
      `INSERT INTO permissions (slug, action, resource, name, description)
       VALUES ('read-audit', 'read', 'audit', 'Read audit', 'Read and export the audit log')
       ON CONFLICT (slug) DO NOTHING`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM permissions WHERE slug = 'read-audit'`);
    await q.query(`DROP INDEX IF EXISTS audit_log_actor_idx`);
    await q.query(`ALTER TABLE audit_log DROP COLUMN IF EXISTS user_agent, DROP COLUMN IF EXISTS strategy`);
  }
}
