import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { rows } from '../../database/sql';

export type AccountTokenKind = 'verify-email' | 'reset-password' | 'invite';

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

/** SQL for emailed single-use tokens and paused logins. */
@Injectable()
export class AccountTokensRepository {
  /** A new link replaces the account's earlier links of the same kind (used, expired or open). */
  async issue(
    em: EntityManager,
    t: { userId: string; kind: AccountTokenKind; hash: string; expiresAt: Date },
  ): Promise<void> {
    await this.closeOpen(em, t.userId, t.kind);
    await em.query(
      `INSERT INTO account_tokens (user_id, kind, token_hash, expires_at) VALUES ($1, $2, $3, $4)`,
      [t.userId, t.kind, t.hash, t.expiresAt],
    );
  }

  /** Uses a token once (its row goes): only an unexpired token of that kind yields its account. */
  async consume(em: EntityManager, hash: string, kind: AccountTokenKind): Promise<string | null> {
    const found = await rows<{ user_id: string }>(
      em,
      `DELETE FROM account_tokens WHERE token_hash = $1 AND kind = $2 AND expires_at > now() RETURNING user_id`,
      [hash, kind],
    );
    return found[0]?.user_id ?? null;
  }

  /** Removes the account's links of a kind (a password write makes reset links worthless). */
  async closeOpen(em: EntityManager, userId: string, kind: AccountTokenKind): Promise<void> {
    await em.query(`DELETE FROM account_tokens WHERE user_id = $1 AND kind = $2`, [userId, kind]);
  }

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
