import type { PluginDb } from '../api';

/**
 * All SQL of the plugin (tables of `migrations.ts`), for one instance (`slug`). What two requests
 * could race on (a state used, a subject linked) is one conditional statement.
 */
export class OidcStore {
  constructor(
    private readonly db: PluginDb,
    private readonly slug: string,
  ) {}

  /** Records a new sign-in's state (hashed) until it expires. */
  async begin(stateHash: string, ttlSeconds: number): Promise<void> {
    await this.db.query(
      `INSERT INTO plugin_oidc_transactions (state_hash, slug, expires_at)
       VALUES ($1, $2, now() + make_interval(secs => $3))`,
      [stateHash, this.slug, ttlSeconds],
    );
  }

  /** Uses a state once: true when it was recorded for this instance and has not expired. */
  async consume(stateHash: string): Promise<boolean> {
    const rows = await this.db.query<{ live: boolean }>(
      `DELETE FROM plugin_oidc_transactions WHERE state_hash = $1 AND slug = $2
       RETURNING expires_at > now() AS live`,
      [stateHash, this.slug],
    );
    return rows.length > 0 && rows[0].live === true;
  }

  /** Removes expired states (of every instance); answers how many. */
  async purgeExpired(): Promise<number> {
    const rows = await this.db.query(
      `DELETE FROM plugin_oidc_transactions WHERE expires_at <= now() RETURNING state_hash`,
    );
    return rows.length;
  }

  /**
   * The account linked to the provider subject `sub`, and whether the provider reported the
   * address verified when the link was made; or null.
   */
  async linkedUser(sub: string): Promise<{ userId: string; emailVerified: boolean } | null> {
    const [row] = await this.db.query<{ user_id: string; email_verified: boolean }>(
      `SELECT user_id, email_verified FROM plugin_oidc_links WHERE slug = $1 AND sub = $2`,
      [this.slug, sub],
    );
    return row ? { userId: row.user_id, emailVerified: row.email_verified } : null;
  }

  /**
   * Links `sub` to `userId` unless it is linked already; answers the account `sub` is linked to
   * afterwards (the other one when a parallel sign-in linked it first). Links are only made from
   * an address the provider reports verified.
   */
  async link(sub: string, userId: string): Promise<string> {
    const inserted = await this.db.query<{ user_id: string }>(
      `INSERT INTO plugin_oidc_links (slug, sub, user_id, email_verified) VALUES ($1, $2, $3, true)
       ON CONFLICT (slug, sub) DO NOTHING
       RETURNING user_id`,
      [this.slug, sub, userId],
    );
    // On a conflict the other row has committed (the insert waited for it): a new statement sees it.
    const linked = inserted[0]?.user_id ?? (await this.linkedUser(sub))?.userId;
    if (!linked) {
      throw new Error('the link was neither inserted nor found');
    }
    return linked;
  }

  /** Removes the link of `sub` to `userId` if it was not made from a verified address. */
  async unlinkUnverified(sub: string, userId: string): Promise<void> {
    await this.db.query(
      `DELETE FROM plugin_oidc_links WHERE slug = $1 AND sub = $2 AND user_id = $3 AND NOT email_verified`,
      [this.slug, sub, userId],
    );
  }
}
