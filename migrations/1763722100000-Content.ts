import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The content engine's own tables (SPEC 2.3, 4.2; CONTRACTS 6). Collections and singles get a
 * real table each (`c_<slug>`, `s_<slug>`), created by the schema applier, not by migrations; these
 * tables hold their definitions and the journal of every schema change.
 */
export class Content1763722100000 implements MigrationInterface {
  name = 'Content1763722100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE content_definitions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        kind text NOT NULL CONSTRAINT content_definitions_kind_check
          CHECK (kind IN ('collection', 'single', 'field-group')),
        slug text NOT NULL,
        source text NOT NULL CONSTRAINT content_definitions_source_check CHECK (source IN ('code', 'ui', 'system')),
        definition jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Collections and singles share one slug space: both register <action>-<slug> permissions.
    await q.query(
      `CREATE UNIQUE INDEX content_definitions_slug_key ON content_definitions (slug) WHERE kind <> 'field-group'`,
    );
    await q.query(
      `CREATE UNIQUE INDEX content_definitions_group_key ON content_definitions (slug) WHERE kind = 'field-group'`,
    );
    await q.query(`
      CREATE TABLE schema_journal (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        target text NOT NULL CONSTRAINT schema_journal_target_check
          CHECK (target IN ('collection', 'single', 'field-group')),
        slug text NOT NULL,
        changes jsonb NOT NULL,
        applied_by uuid REFERENCES users (id) ON DELETE SET NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX schema_journal_applied_idx ON schema_journal (applied_at, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS schema_journal`);
    await q.query(`DROP TABLE IF EXISTS content_definitions`);
  }
}
