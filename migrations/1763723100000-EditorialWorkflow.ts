import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The editorial workflow.
 * - `publish-<slug>` for every collection and single with drafts, owned by its definition (an
 *   application's own permission of that slug is adopted), granted to every role that holds
 *   `update-<slug>`: publishing used to need only that, and nobody loses a right on upgrade.
 * - `content_versions`: a version of an entry at every write that changes it (for definitions
 *   with versions on), numbered per entry and never renumbered.
 * - `content_schedules`: publishing and unpublishing planned for a time, run by the job queue;
 *   a row stays after its entry is deleted (it ends `failed`, saying so).
 */
export class EditorialWorkflow1763723100000 implements MigrationInterface {
  name = 'EditorialWorkflow1763723100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      INSERT INTO permissions (slug, action, resource, name, content_definition_id)
      SELECT 'publish-' || d.slug, 'publish', d.slug, 'Publish ' || d.slug, d.id
        FROM content_definitions d
       WHERE d.kind IN ('collection', 'single') AND (d.definition ->> 'drafts')::boolean IS TRUE
      ON CONFLICT (slug) DO UPDATE SET content_definition_id = EXCLUDED.content_definition_id
        WHERE permissions.content_definition_id IS NULL`);
    await q.query(`
      INSERT INTO role_permissions (role_id, permission_id)
      SELECT rp.role_id, p.id
        FROM content_definitions d
        JOIN permissions p ON p.slug = 'publish-' || d.slug AND p.content_definition_id = d.id
        JOIN permissions u ON u.slug = 'update-' || d.slug
        JOIN role_permissions rp ON rp.permission_id = u.id
       WHERE d.kind IN ('collection', 'single')
      ON CONFLICT DO NOTHING`);
    await q.query(`
      CREATE TABLE content_versions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        definition_id uuid NOT NULL REFERENCES content_definitions (id) ON DELETE CASCADE,
        entry_id uuid NOT NULL,
        number integer NOT NULL,
        status text,
        event text NOT NULL,
        data jsonb NOT NULL,
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT content_versions_number_key UNIQUE (definition_id, entry_id, number)
      )`);
    await q.query(`
      CREATE TABLE content_schedules (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        definition_id uuid NOT NULL REFERENCES content_definitions (id) ON DELETE CASCADE,
        entry_id uuid NOT NULL,
        action text NOT NULL CHECK (action IN ('publish', 'unpublish')),
        at timestamptz NOT NULL,
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'done', 'failed', 'cancelled')),
        error text,
        created_by uuid REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX content_schedules_entry_idx ON content_schedules (definition_id, entry_id, at)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS content_schedules`);
    await q.query(`DROP TABLE IF EXISTS content_versions`);
    await q.query(`DELETE FROM permissions WHERE action = 'publish' AND content_definition_id IS NOT NULL`);
  }
}
