import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { rows } from '../../database/sql';

export interface PendingLoginRow {
  id: string;
  user_id: string;
  kind: string;
  strategy: string;
  attempts: number;
  max_attempts: number;
  expires_at: Date;
  completed_at: Date | null;
  /** The account counter when the login paused (null: rows from before it was kept). */
  account_ver: number | null;
}

/** SQL for paused logins (pending_logins). */
@Injectable()
export class PendingLoginsRepository {
  async insertPendingLogin(
    em: EntityManager,
    p: {
      userId: string;
      kind: string;
      strategy: string;
      maxAttempts: number;
      expiresAt: Date;
      accountVer: number | null;
      attempts?: number;
    },
  ): Promise<string> {
    // Housekeeping: the account's finished or expired paused logins are of no further use.
    await em.query(
      `DELETE FROM pending_logins WHERE user_id = $1 AND (completed_at IS NOT NULL OR expires_at <= now())`,
      [p.userId],
    );
    const found = await rows<{ id: string }>(
      em,
      `INSERT INTO pending_logins (user_id, kind, strategy, max_attempts, expires_at, account_ver, attempts)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
      [p.userId, p.kind, p.strategy, p.maxAttempts, p.expiresAt, p.accountVer, p.attempts ?? 0],
    );
    return found[0].id;
  }

  async findPendingLogin(em: EntityManager, id: string): Promise<PendingLoginRow | null> {
    const found = await rows<PendingLoginRow>(em, `SELECT * FROM pending_logins WHERE id = $1`, [id]);
    return found[0] ?? null;
  }

  /**
   * Uses a paused login once, when it is of `kind` (or, with `kind` null, of any kind but
   * `notKind`): a second use, a spent, expired or other-kind one finds nothing and changes nothing.
   */
  async completePendingLogin(
    em: EntityManager,
    id: string,
    kind: { is: string } | { isNot: string[] },
  ): Promise<PendingLoginRow | null> {
    const found = await rows<PendingLoginRow>(
      em,
      `UPDATE pending_logins SET completed_at = now()
        WHERE id = $1 AND completed_at IS NULL AND attempts < max_attempts AND expires_at > now()
          AND (kind = ANY($2::text[])) = $3
        RETURNING *`,
      [id, 'is' in kind ? [kind.is] : kind.isNot, 'is' in kind],
    );
    return found[0] ?? null;
  }
}
