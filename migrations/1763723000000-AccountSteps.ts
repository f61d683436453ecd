import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account security, round 2.
 * - `users.step_ver`: the account's step counter, raised by a password write, a deactivation and
 *   ending all sessions. A paused login, an enrolment step or a plugin's emailed sign-in link
 *   records it when issued and is void once it moved on.
 * - `users.mfa_failures`, `mfa_failures_since`, `mfa_locked_until`: the per-account limit on
 *   wrong second-factor codes (10 in 15 minutes, then 15 minutes of refusals).
 * - `pending_logins.step_ver` and `multi_factor` (a second factor was proven before the pause).
 * - `refresh_tokens.session_proved_at` (the last time the session's owner proved a factor: the
 *   sign-in, or a reauthentication) and `session_mfa` (the session was opened or re-proven with a
 *   second factor), carried along a session's rotations.
 */
export class AccountSteps1763723000000 implements MigrationInterface {
  name = 'AccountSteps1763723000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE users
        ADD COLUMN step_ver integer NOT NULL DEFAULT 0,
        ADD COLUMN mfa_failures integer NOT NULL DEFAULT 0,
        ADD COLUMN mfa_failures_since timestamptz,
        ADD COLUMN mfa_locked_until timestamptz`);
    await q.query(`
      ALTER TABLE pending_logins
        ADD COLUMN step_ver integer,
        ADD COLUMN multi_factor boolean NOT NULL DEFAULT false`);
    // Sessions opened before: proven when they started; no second factor on record.
    await q.query(`
      ALTER TABLE refresh_tokens
        ADD COLUMN session_proved_at timestamptz,
        ADD COLUMN session_mfa boolean NOT NULL DEFAULT false`);
    await q.query(`UPDATE refresh_tokens SET session_proved_at = session_created_at`);
    await q.query(`ALTER TABLE refresh_tokens ALTER COLUMN session_proved_at SET NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE refresh_tokens DROP COLUMN IF EXISTS session_proved_at, DROP COLUMN IF EXISTS session_mfa`);
    await q.query(`
      ALTER TABLE pending_logins DROP COLUMN IF EXISTS step_ver, DROP COLUMN IF EXISTS multi_factor`);
    await q.query(`
      ALTER TABLE users
        DROP COLUMN IF EXISTS step_ver,
        DROP COLUMN IF EXISTS mfa_failures,
        DROP COLUMN IF EXISTS mfa_failures_since,
        DROP COLUMN IF EXISTS mfa_locked_until`);
  }
}
