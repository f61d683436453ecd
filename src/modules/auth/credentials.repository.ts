import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { lockKey, xactLock } from '../../database/locks';
import { rows } from '../../database/sql';

/**
 * SQL for the refresh tokens, the sessions' own credential. Login counters and passwords live on
 * the users table, which the accounts module owns (UsersRepository, through AccountsService).
 */
@Injectable()
export class CredentialsRepository {
  /**
   * Serialises concurrent setup calls until the caller's commit; the database decides which one
   * creates the first user.
   */
  lockSetup(em: EntityManager): Promise<void> {
    return xactLock(em, lockKey('setup'));
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
