import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sessions (CONTRACTS 14.1): a session is one sign-in, the chain of its refresh tokens. Each
 * rotation's row carries the session's id, strategy and start, so a session is live while it has
 * an unconsumed, unexpired row, and every write that deletes refresh-token rows (logout, password
 * write, deactivation, deletion) ends sessions without knowing about them. The access tokens
 * carry the id as `sid`; the account check refuses one whose session is no longer live.
 */
export class Sessions1763722700000 implements MigrationInterface {
  name = 'Sessions1763722700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE refresh_tokens
        ADD COLUMN session_id uuid,
        ADD COLUMN strategy text,
        ADD COLUMN session_created_at timestamptz`);
    // Tokens issued before: each its own session (their rotations were not linked).
    await q.query(`
      UPDATE refresh_tokens
         SET session_id = gen_random_uuid(), strategy = 'password', session_created_at = created_at`);
    await q.query(`
      ALTER TABLE refresh_tokens
        ALTER COLUMN session_id SET NOT NULL,
        ALTER COLUMN strategy SET NOT NULL,
        ALTER COLUMN session_created_at SET NOT NULL`);
    await q.query(`CREATE INDEX refresh_tokens_session_idx ON refresh_tokens (session_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS refresh_tokens_session_idx`);
    await q.query(`
      ALTER TABLE refresh_tokens
        DROP COLUMN IF EXISTS session_id,
        DROP COLUMN IF EXISTS strategy,
        DROP COLUMN IF EXISTS session_created_at`);
  }
}
