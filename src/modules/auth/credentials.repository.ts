import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { rows } from '../../database/sql';

/**
 * SQL for credential state: login counters on the users table and the refresh tokens. Profile,
 * roles and activation belong to the users module.
 */
@Injectable()
export class CredentialsRepository {
  /**
   * Counts a failed password attempt atomically; the fifth in a row locks the account for 15
   * minutes and starts a fresh count. Attempts on a locked account are not counted: false then,
   * so the caller records the refusal as `locked`.
   */
  async recordFailedLogin(
    em: EntityManager,
    id: string,
    maxAttempts: number,
    lockMinutes: number,
  ): Promise<boolean> {
    const counted = await rows<{ id: string }>(
      em,
      `UPDATE users SET
         failed_login_count = CASE WHEN failed_login_count + 1 >= $2 THEN 0 ELSE failed_login_count + 1 END,
         locked_until = CASE WHEN failed_login_count + 1 >= $2 THEN now() + make_interval(mins => $3) ELSE locked_until END
       WHERE id = $1 AND (locked_until IS NULL OR locked_until <= now())
       RETURNING id`,
      [id, maxAttempts, lockMinutes],
    );
    return counted.length > 0;
  }

  /**
   * A correct password, decided in the statement that records it (SPEC 5.2.4): the counters are
   * reset only when the account is not locked and still has the hash the password was checked
   * against. The row stays locked until commit, so a failure that locks the account, or a
   * password write, is ordered strictly before or after this one. `changed`: the password (or
   * the account) changed while bcrypt ran, so the old password no longer opens it.
   */
  async claimPasswordLogin(
    em: EntityManager,
    id: string,
    checkedHash: string,
  ): Promise<'ok' | 'locked' | 'changed'> {
    const claimed = await rows<{ id: string }>(
      em,
      `UPDATE users SET failed_login_count = 0, locked_until = NULL
        WHERE id = $1 AND password_hash = $2 AND (locked_until IS NULL OR locked_until <= now())
        RETURNING id`,
      [id, checkedHash],
    );
    if (claimed.length) {
      return 'ok';
    }
    // Refused: a new statement (a fresh snapshot) tells the reason, for the log and audit row.
    const found = await rows<{ locked: boolean; same: boolean }>(
      em,
      `SELECT COALESCE(locked_until > now(), false) AS locked, password_hash IS NOT DISTINCT FROM $2 AS same
         FROM users WHERE id = $1`,
      [id, checkedHash],
    );
    return found[0]?.same && found[0].locked ? 'locked' : 'changed';
  }

  /**
   * A password write: new hash, the forced-change flag, lock counters cleared; `markVerified`
   * for flows that prove the address (an emailed reset or invite link).
   */
  async setPassword(
    em: EntityManager,
    id: string,
    p: { hash: string; mustChange: boolean; markVerified: boolean },
  ): Promise<void> {
    await em.query(
      `UPDATE users SET password_hash = $2, must_change_password = $3,
         email_verified_at = CASE WHEN $4::boolean THEN COALESCE(email_verified_at, now()) ELSE email_verified_at END,
         failed_login_count = 0, locked_until = NULL, updated_at = now()
       WHERE id = $1`,
      [id, p.hash, p.mustChange, p.markVerified],
    );
  }

  async markVerified(em: EntityManager, id: string): Promise<void> {
    await em.query(
      `UPDATE users SET email_verified_at = COALESCE(email_verified_at, now()), updated_at = now() WHERE id = $1`,
      [id],
    );
  }

  async recordSuccessfulLogin(em: EntityManager, id: string): Promise<void> {
    await em.query(`UPDATE users SET failed_login_count = 0, last_login_at = now() WHERE id = $1`, [id]);
  }

  /**
   * First step of a rotation: the owner's account row, locked FOR SHARE until commit. A write
   * that ends the account's sessions (password write, deactivation, deletion) updates that row
   * first, so it either committed before this lock (the rotation then sees the token gone or the
   * account refused) or waits for this commit and then deletes the new token too. Rotations of
   * one account do not wait for each other (shared locks).
   */
  async lockRefreshOwner(em: EntityManager, hash: string): Promise<void> {
    await em.query(
      `SELECT 1 FROM refresh_tokens t JOIN users u ON u.id = t.user_id
        WHERE t.token_hash = $1 FOR SHARE OF u`,
      [hash],
    );
  }

  async insertRefreshToken(
    em: EntityManager,
    t: { userId: string; hash: string; expiresAt: Date; userAgent: string | null; ip: string | null },
  ): Promise<void> {
    await em.query(
      `INSERT INTO refresh_tokens (user_id, token_hash, expires_at, user_agent, ip) VALUES ($1, $2, $3, $4, $5)`,
      [t.userId, t.hash, t.expiresAt, t.userAgent?.slice(0, 512) ?? null, t.ip],
    );
  }

  /**
   * The race-deciding step of a rotation: marks the row consumed only if nobody has. A concurrent
   * rotation of the same token waits on the row lock and then finds it consumed.
   */
  async consumeRefreshToken(
    em: EntityManager,
    hash: string,
  ): Promise<{ id: string; user_id: string; expired: boolean } | null> {
    const found = await rows<{ id: string; user_id: string; expired: boolean }>(
      em,
      `UPDATE refresh_tokens SET consumed_at = clock_timestamp()
       WHERE token_hash = $1 AND consumed_at IS NULL
       RETURNING id, user_id, expires_at <= now() AS expired`,
      [hash],
    );
    return found[0] ?? null;
  }

  /** Stamps the consumption again at the end of the rotation, so it marks (almost) the commit. */
  async restampConsumed(em: EntityManager, id: string): Promise<void> {
    await em.query(`UPDATE refresh_tokens SET consumed_at = clock_timestamp() WHERE id = $1`, [id]);
  }

  /**
   * For a token that could not be consumed: true when its rotation committed after this request
   * arrived (`ageMs` ago), i.e. the two raced. Only a duration crosses from the app to the
   * database, so the two clocks need not agree.
   */
  async consumedSinceArrival(em: EntityManager, hash: string, ageMs: number): Promise<boolean> {
    const found = await rows<{ raced: boolean }>(
      em,
      `SELECT consumed_at >= clock_timestamp() - make_interval(secs => $2::float8 / 1000) AS raced
         FROM refresh_tokens WHERE token_hash = $1`,
      [hash, ageMs],
    );
    return found[0]?.raced === true;
  }

  /** Housekeeping on each rotation: the user's expired tokens and tombstones older than a minute. */
  async pruneRefreshTokens(em: EntityManager, userId: string): Promise<void> {
    await em.query(
      `DELETE FROM refresh_tokens WHERE user_id = $1
         AND (expires_at <= now() OR consumed_at < now() - interval '1 minute')`,
      [userId],
    );
  }

  async deleteRefreshToken(em: EntityManager, hash: string): Promise<string | null> {
    const found = await rows<{ user_id: string }>(
      em,
      `DELETE FROM refresh_tokens WHERE token_hash = $1 RETURNING user_id`,
      [hash],
    );
    return found[0]?.user_id ?? null;
  }
}
