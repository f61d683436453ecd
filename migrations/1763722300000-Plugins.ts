import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which migrations of which plugin ran (`migrations` of a plugin definition): a plugin's own
 * tables are created when it is first installed and changed as it is upgraded. A paused login
 * keeps the account counter it began with: a password write or a deactivation in between ends it.
 */
export class Plugins1763722300000 implements MigrationInterface {
  name = 'Plugins1763722300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE svc_plugin_migrations (
        plugin text NOT NULL,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (plugin, name)
      )`);
    await q.query(`ALTER TABLE pending_logins ADD COLUMN account_ver integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE pending_logins DROP COLUMN IF EXISTS account_ver`);
    await q.query(`DROP TABLE IF EXISTS svc_plugin_migrations`);
  }
}
