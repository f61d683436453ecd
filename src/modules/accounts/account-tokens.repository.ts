import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { rows } from '../../database/sql';

export type AccountTokenKind = 'verify-email' | 'reset-password' | 'invite';

/** SQL for emailed single-use tokens (verification, reset, invite). */
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
}
