import { MigrationInterface, QueryRunner } from 'typeorm';

/** API keys (SPEC 2.4, CONTRACTS 5): only the SHA-256 of a key and a display prefix are stored. */
export class ApiKeys1763722000000 implements MigrationInterface {
  name = 'ApiKeys1763722000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL,
        description text,
        type text NOT NULL CONSTRAINT api_keys_type_check CHECK (type IN ('read-only', 'full-access', 'role-based')),
        role_id uuid REFERENCES roles (id) ON DELETE SET NULL,
        key_hash char(64) NOT NULL CONSTRAINT api_keys_hash_key UNIQUE,
        key_prefix text NOT NULL,
        expires_at timestamptz,
        revoked_at timestamptz,
        last_used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at)`);
    await q.query(`CREATE INDEX api_keys_role_idx ON api_keys (role_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS api_keys`);
  }
}
