import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API key rotation and scopes (CONTRACTS 14.4). A rotation gives the record a new key value and
 * keeps the old value's hash, working until `previous_key_expires_at` (the grace period). Scopes
 * narrow a key's permissions to the listed slugs; null means the key's type decides alone.
 */
export class ApiKeyRotation1763722800000 implements MigrationInterface {
  name = 'ApiKeyRotation1763722800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE api_keys
        ADD COLUMN previous_key_hash char(64),
        ADD COLUMN previous_key_expires_at timestamptz,
        ADD COLUMN scopes text[]`);
    await q.query(`
      CREATE UNIQUE INDEX api_keys_previous_hash_key ON api_keys (previous_key_hash)
       WHERE previous_key_hash IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS api_keys_previous_hash_key`);
    await q.query(`
      ALTER TABLE api_keys
        DROP COLUMN IF EXISTS previous_key_hash,
        DROP COLUMN IF EXISTS previous_key_expires_at,
        DROP COLUMN IF EXISTS scopes`);
  }
}
