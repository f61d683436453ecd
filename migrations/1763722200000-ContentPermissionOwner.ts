import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Which content definition created a permission. A collection or single registers
 * `<action>-<slug>` permissions; without an owner, deleting it deleted whatever permissions bore
 * those slugs, including a custom one created before it over POST /permissions (and every role's
 * grant of it). Owned rows go with their definition (ON DELETE CASCADE); others are never touched.
 *
 * Backfill: the four permissions of every collection and single that exists are taken as its own.
 * A custom permission adopted before this migration cannot be told apart from one the definition
 * created, and the definition has used it as its own since.
 */
export class ContentPermissionOwner1763722200000 implements MigrationInterface {
  name = 'ContentPermissionOwner1763722200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE permissions
        ADD COLUMN content_definition_id uuid REFERENCES content_definitions (id) ON DELETE CASCADE`);
    await q.query(
      `CREATE INDEX permissions_content_definition_idx ON permissions (content_definition_id)
        WHERE content_definition_id IS NOT NULL`,
    );
    await q.query(`
      UPDATE permissions p SET content_definition_id = d.id
        FROM content_definitions d
       WHERE d.kind <> 'field-group'
         AND p.slug IN ('create-' || d.slug, 'read-' || d.slug, 'update-' || d.slug, 'delete-' || d.slug)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE permissions DROP COLUMN IF EXISTS content_definition_id`);
  }
}
