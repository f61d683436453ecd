import { createHash, randomBytes } from 'node:crypto';
import type { PluginDb } from '../api';

/** A token: 32 random bytes, base64url (43 characters). */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** Rows are kept this long after they expire (for an operator's look), then removed. */
const KEEP_DAYS = 1;

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** All SQL of the plugin, on `plugin_magic_link_tokens`. */
export class MagicLinkStore {
  constructor(private readonly db: PluginDb) {}

  /**
   * A new single-use token for `userId`, valid `ttlMinutes`; only its SHA-256 is stored, with
   * the account's stamp (`ctx.auth.accountStamp`) of the moment.
   */
  async issue(
    userId: string,
    next: string | null,
    ttlMinutes: number,
    accountStamp: string,
  ): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    await this.db.query(
      `INSERT INTO plugin_magic_link_tokens (user_id, token_hash, next, expires_at, account_stamp)
       VALUES ($1, $2, $3, now() + make_interval(mins => $4), $5)`,
      [userId, hashToken(token), next, ttlMinutes, accountStamp],
    );
    return token;
  }

  /**
   * Uses the token: one conditional UPDATE, so of two requests with one link only one gets the
   * row. Null for an unknown, used or expired token.
   */
  async consume(
    token: string,
  ): Promise<{ userId: string; next: string | null; accountStamp: string | null } | null> {
    const rows = await this.db.query<{ user_id: string; next: string | null; account_stamp: string | null }>(
      `UPDATE plugin_magic_link_tokens SET used_at = now()
        WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
        RETURNING user_id, next, account_stamp`,
      [hashToken(token)],
    );
    const row = rows[0];
    return row ? { userId: row.user_id, next: row.next, accountStamp: row.account_stamp } : null;
  }

  /**
   * Removes rows expired more than a day ago, used or not (a link lives at most a day, so a used
   * row goes at most two days after its use). One indexed range on `expires_at`.
   */
  async prune(): Promise<void> {
    await this.db.query(
      `DELETE FROM plugin_magic_link_tokens WHERE expires_at < now() - make_interval(days => $1)`,
      [KEEP_DAYS],
    );
  }
}
