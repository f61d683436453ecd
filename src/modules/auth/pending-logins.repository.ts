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
  /** The account's step counter when the step was issued (null: rows from before it was kept). */
  step_ver: number | null;
  /** A second factor was proven before the login paused. */
  multi_factor: boolean;
}

/** The row is still of the account's current steps: no password write, deactivation or end of all sessions since. */
const CURRENT_STEP = `step_ver = (SELECT u.step_ver FROM users u WHERE u.id = pending_logins.user_id)`;

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
      stepVer: number;
      multiFactor: boolean;
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
      `INSERT INTO pending_logins
         (user_id, kind, strategy, max_attempts, expires_at, account_ver, attempts, step_ver, multi_factor)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [
        p.userId,
        p.kind,
        p.strategy,
        p.maxAttempts,
        p.expiresAt,
        p.accountVer,
        p.attempts ?? 0,
        p.stepVer,
        p.multiFactor,
      ],
    );
    return found[0].id;
  }

  /** A paused login still of the account's current steps (voided ones are not found). */
  async findPendingLogin(em: EntityManager, id: string): Promise<PendingLoginRow | null> {
    const found = await rows<PendingLoginRow>(
      em,
      `SELECT * FROM pending_logins WHERE id = $1 AND ${CURRENT_STEP}`,
      [id],
    );
    return found[0] ?? null;
  }

  /**
   * Uses a paused login once, when it is of `kind` (or, with `kind` null, of any kind but
   * `notKind`): a second use, a spent, expired, voided or other-kind one finds nothing and
   * changes nothing.
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
          AND (kind = ANY($2::text[])) = $3 AND ${CURRENT_STEP}
        RETURNING *`,
      [id, 'is' in kind ? [kind.is] : kind.isNot, 'is' in kind],
    );
    return found[0] ?? null;
  }
}
