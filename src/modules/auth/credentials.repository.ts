import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { lockKey, xactLock } from '../../database/locks';
import { rows } from '../../database/sql';

/** The session a refresh token belongs to (CONTRACTS 14.1), carried along its rotations. */
export interface SessionRef {
  id: string;
  strategy: string;
  createdAt: Date;
  /** When the owner last proved a factor in this session: the sign-in, or a reauthentication. */
  provedAt: Date;
  /** The session was opened (or re-proven) with a second factor. */
  mfa: boolean;
}

/** A live session as `liveSessions` reads it. */
export interface SessionRow {
  id: string;
  strategy: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
  last_used_at: Date;
  expires_at: Date;
}

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

  /** A refresh token of a session: its first (a sign-in) or the next of its chain (a rotation). */
  async insertRefreshToken(
    em: EntityManager,
    t: {
      userId: string;
      hash: string;
      expiresAt: Date;
      userAgent: string | null;
      ip: string | null;
      session: SessionRef;
    },
  ): Promise<void> {
    await em.query(
      `INSERT INTO refresh_tokens
         (user_id, token_hash, expires_at, user_agent, ip, session_id, strategy, session_created_at,
          session_proved_at, session_mfa)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [
        t.userId,
        t.hash,
        t.expiresAt,
        t.userAgent?.slice(0, 512) ?? null,
        t.ip,
        t.session.id,
        t.session.strategy,
        t.session.createdAt,
        t.session.provedAt,
        t.session.mfa,
      ],
    );
  }

  /**
   * The race-deciding step of a rotation: marks the row consumed only if nobody has. A concurrent
   * rotation of the same token waits on the row lock and then finds it consumed.
   */
  async consumeRefreshToken(
    em: EntityManager,
    hash: string,
  ): Promise<{ id: string; user_id: string; expired: boolean; session: SessionRef } | null> {
    const found = await rows<{
      id: string;
      user_id: string;
      expired: boolean;
      session_id: string;
      strategy: string;
      session_created_at: Date;
      session_proved_at: Date;
      session_mfa: boolean;
    }>(
      em,
      `UPDATE refresh_tokens SET consumed_at = clock_timestamp()
       WHERE token_hash = $1 AND consumed_at IS NULL
       RETURNING id, user_id, expires_at <= now() AS expired, session_id, strategy, session_created_at,
                 session_proved_at, session_mfa`,
      [hash],
    );
    const row = found[0];
    return row
      ? {
          id: row.id,
          user_id: row.user_id,
          expired: row.expired,
          session: {
            id: row.session_id,
            strategy: row.strategy,
            createdAt: row.session_created_at,
            provedAt: row.session_proved_at,
            mfa: row.session_mfa,
          },
        }
      : null;
  }

  /** The live sessions of a user, most recently used first: each one's newest unconsumed row. */
  async liveSessions(em: EntityManager, userId: string): Promise<SessionRow[]> {
    return rows<SessionRow>(
      em,
      `SELECT session_id AS id, strategy, ip, user_agent, session_created_at AS created_at,
              created_at AS last_used_at, expires_at
         FROM refresh_tokens
        WHERE user_id = $1 AND consumed_at IS NULL AND expires_at > now()
        -- Qualified: a bare created_at would name the output column (the session's start).
        ORDER BY refresh_tokens.created_at DESC, session_id`,
      [userId],
    );
  }

  /**
   * Locks the account row against session-minting paths (they hold it FOR SHARE or FOR NO KEY
   * UPDATE): a rotation of a session being ended then commits strictly before this transaction's
   * delete (which sees its new row) or waits and finds its token gone.
   */
  async lockAccountSessions(em: EntityManager, userId: string): Promise<boolean> {
    const found = await rows(em, `SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE`, [userId]);
    return found.length > 0;
  }

  /** Ends sessions of a user (all of them when `ids` is null); answers the ids ended. */
  async endSessions(
    em: EntityManager,
    userId: string,
    ids: string[] | null,
    keep?: string,
  ): Promise<string[]> {
    const ended = await rows<{ session_id: string }>(
      em,
      `DELETE FROM refresh_tokens
        WHERE user_id = $1 AND ($2::uuid[] IS NULL OR session_id = ANY($2::uuid[]))
          AND ($3::uuid IS NULL OR session_id <> $3::uuid)
       RETURNING session_id`,
      [userId, ids, keep ?? null],
    );
    return [...new Set(ended.map((r) => r.session_id))];
  }

  /**
   * A reauthentication: the session's rows record the proof (and a second factor, when `mfa`).
   * The caller holds the account row (lockAccountSessions), so a rotation of this session is
   * strictly before (its new row is updated here) or after (it copies the new values).
   */
  async markSessionProved(
    em: EntityManager,
    userId: string,
    sessionId: string,
    mfa: boolean,
  ): Promise<Date | null> {
    const found = await rows<{ proved_at: Date }>(
      em,
      `UPDATE refresh_tokens SET session_proved_at = now(), session_mfa = session_mfa OR $3
        WHERE user_id = $1 AND session_id = $2 AND consumed_at IS NULL AND expires_at > now()
        RETURNING session_proved_at AS proved_at`,
      [userId, sessionId, mfa],
    );
    return found[0]?.proved_at ?? null;
  }

  /** The owner and session of a refresh token (any state), for logout. */
  async sessionOfToken(
    em: EntityManager,
    hash: string,
  ): Promise<{ userId: string; sessionId: string } | null> {
    const found = await rows<{ user_id: string; session_id: string }>(
      em,
      `SELECT user_id, session_id FROM refresh_tokens WHERE token_hash = $1`,
      [hash],
    );
    return found[0] ? { userId: found[0].user_id, sessionId: found[0].session_id } : null;
  }

  /** The owner of a session (any of its rows), or null when it has no row left. */
  async ownerOfSession(em: EntityManager, sessionId: string): Promise<string | null> {
    const found = await rows<{ user_id: string }>(
      em,
      `SELECT user_id FROM refresh_tokens WHERE session_id = $1 LIMIT 1`,
      [sessionId],
    );
    return found[0]?.user_id ?? null;
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
  async consumedSinceArrival(
    em: EntityManager,
    hash: string,
    ageMs: number,
  ): Promise<{ raced: boolean; reused: { userId: string; sessionId: string } | null }> {
    const found = await rows<{ raced: boolean; user_id: string; session_id: string }>(
      em,
      `SELECT consumed_at >= clock_timestamp() - make_interval(secs => $2::float8 / 1000) AS raced,
              user_id, session_id
         FROM refresh_tokens WHERE token_hash = $1 AND consumed_at IS NOT NULL`,
      [hash, ageMs],
    );
    const row = found[0];
    // Consumed before this request arrived: a rotated token presented again (a replay).
    return {
      raced: row?.raced === true,
      reused: row && !row.raced ? { userId: row.user_id, sessionId: row.session_id } : null,
    };
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
