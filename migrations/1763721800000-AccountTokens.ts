import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Single-use emailed tokens (verification, reset, invite; a row is deleted when used) and paused
 * logins (pending tokens).
 */
export class AccountTokens1763721800000 implements MigrationInterface {
  name = 'AccountTokens1763721800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE account_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        kind text NOT NULL CONSTRAINT account_tokens_kind_check
          CHECK (kind IN ('verify-email', 'reset-password', 'invite')),
        token_hash char(64) NOT NULL CONSTRAINT account_tokens_hash_key UNIQUE,
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX account_tokens_user_kind_idx ON account_tokens (user_id, kind)`);
    await q.query(`
      CREATE TABLE pending_logins (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        kind text NOT NULL,
        strategy text NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        max_attempts integer NOT NULL,
        expires_at timestamptz NOT NULL,
        completed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX pending_logins_user_idx ON pending_logins (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS pending_logins`);
    await q.query(`DROP TABLE IF EXISTS account_tokens`);
  }
}
