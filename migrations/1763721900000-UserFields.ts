import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Custom user-field definitions: the UI-defined ones, and the code-defined ones (`users.fields`
 * of the config) synchronised at boot, so both kinds have ids and one order. Values live in
 * `users.custom`, keyed by field name.
 */
export class UserFields1763721900000 implements MigrationInterface {
  name = 'UserFields1763721900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE user_fields (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CONSTRAINT user_fields_name_key UNIQUE,
        type text NOT NULL CONSTRAINT user_fields_type_check
          CHECK (type IN ('text', 'textarea', 'email', 'number', 'checkbox', 'date', 'select', 'json')),
        label text NOT NULL,
        required boolean NOT NULL DEFAULT false,
        options jsonb,
        "order" integer NOT NULL,
        source text NOT NULL CONSTRAINT user_fields_source_check CHECK (source IN ('code', 'ui')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS user_fields`);
  }
}
