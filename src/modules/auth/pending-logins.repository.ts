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
}

/** SQL for paused logins (pending_logins). */
@Injectable()
export class PendingLoginsRepository {
  async insertPendingLogin(
    em: EntityManager,
    p: { userId: string; kind: string; strategy: string; maxAttempts: number; expiresAt: Date },
  ): Promise<string> {
    // Housekeeping: the account's finished or expired paused logins are of no further use.
    await em.query(
      `DELETE FROM pending_logins WHERE user_id = $1 AND (completed_at IS NOT NULL OR expires_at <= now())`,
      [p.userId],
    );
    const found = await rows<{ id: string }>(
      em,
      `INSERT INTO pending_logins (user_id, kind, strategy, max_attempts, expires_at)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [p.userId, p.kind, p.strategy, p.maxAttempts, p.expiresAt],
    );
    return found[0].id;
  }

  async findPendingLogin(em: EntityManager, id: string): Promise<PendingLoginRow | null> {
    const found = await rows<PendingLoginRow>(em, `SELECT * FROM pending_logins WHERE id = $1`, [id]);
    return found[0] ?? null;
  }

  /** Finishes a paused login once: a second use (or a spent or expired one) finds nothing. */
  async completePendingLogin(em: EntityManager, id: string): Promise<PendingLoginRow | null> {
    const found = await rows<PendingLoginRow>(
      em,
      `UPDATE pending_logins SET completed_at = now()
        WHERE id = $1 AND completed_at IS NULL AND attempts < max_attempts AND expires_at > now()
        RETURNING *`,
      [id],
    );
    return found[0] ?? null;
  }
}
