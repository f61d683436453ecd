import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * General settings (`/admin/api/general-settings`): one row (`id` is always true) whose `value`
 * holds the keys that were set; a key never set answers its default (src/modules/settings), so a
 * new setting needs no migration and the defaults live in one place.
 */
export class GeneralSettings1763722500000 implements MigrationInterface {
  name = 'GeneralSettings1763722500000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE general_settings (
        id boolean PRIMARY KEY DEFAULT true CONSTRAINT general_settings_one_row CHECK (id),
        value jsonb NOT NULL DEFAULT '{}'::jsonb
          CONSTRAINT general_settings_value_object CHECK (jsonb_typeof(value) = 'object'),
        updated_by uuid REFERENCES users (id) ON DELETE SET NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS general_settings`);
  }
}
