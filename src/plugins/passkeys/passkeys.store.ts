import type { PluginDb } from '../api';

/** Challenges live 5 minutes (CONTRACTS 13.2.3). */
export const CHALLENGE_TTL_SECONDS = 300;

export type ChallengePurpose = 'register' | 'second-factor' | 'login';

export interface StoredCredential {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  backedUp: boolean;
  deviceType: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** What the routes answer about a passkey: never key material. */
export interface CredentialItem {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

interface RawCredential {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: string | number;
  transports: unknown;
  backed_up: boolean;
  device_type: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

function toCredential(r: RawCredential): StoredCredential {
  return {
    id: r.id,
    userId: r.user_id,
    credentialId: r.credential_id,
    publicKey: r.public_key,
    counter: Number(r.counter),
    transports: Array.isArray(r.transports)
      ? r.transports.filter((t): t is string => typeof t === 'string')
      : [],
    backedUp: r.backed_up,
    deviceType: r.device_type,
    name: r.name,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
  };
}

export function toItem(
  c: Pick<StoredCredential, 'id' | 'name' | 'createdAt' | 'lastUsedAt'>,
): CredentialItem {
  return {
    id: c.id,
    name: c.name,
    createdAt: new Date(c.createdAt).toISOString(),
    lastUsedAt: c.lastUsedAt ? new Date(c.lastUsedAt).toISOString() : null,
  };
}

/**
 * All SQL of the plugin (tables of `migrations.ts`). A challenge is used up by the one statement
 * that deletes it, and a signature counter moves forward only in a conditional update, so the
 * database settles two requests racing with one challenge or one assertion.
 */
export class PasskeyStore {
  constructor(private readonly db: PluginDb) {}

  /** Records a challenge handed out; answers its row id (a passwordless login's `flowId`). */
  async issueChallenge(purpose: ChallengePurpose, challenge: string, userId: string | null): Promise<string> {
    const [row] = await this.db.query<{ id: string }>(
      `INSERT INTO plugin_passkey_challenges (user_id, purpose, challenge, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4)) RETURNING id`,
      [userId, purpose, challenge, CHALLENGE_TTL_SECONDS],
    );
    return row.id;
  }

  /** Uses up a registration challenge of this user; false when unknown, used or expired. */
  async consumeRegistration(userId: string, challenge: string): Promise<boolean> {
    const rows = await this.db.query(
      `DELETE FROM plugin_passkey_challenges
        WHERE purpose = 'register' AND user_id = $1 AND challenge = $2 AND expires_at > now()
       RETURNING id`,
      [userId, challenge],
    );
    return rows.length > 0;
  }

  /**
   * Uses up a second-factor challenge: one issued for this user, or one issued without a user
   * (the assertion still has to come from this user's passkey).
   */
  async consumeSecondFactor(userId: string, challenge: string): Promise<boolean> {
    const rows = await this.db.query(
      `DELETE FROM plugin_passkey_challenges
        WHERE purpose = 'second-factor' AND (user_id = $1 OR user_id IS NULL) AND challenge = $2
          AND expires_at > now()
       RETURNING id`,
      [userId, challenge],
    );
    return rows.length > 0;
  }

  /** Uses up a passwordless login's flow; its challenge, or null when unknown, used or expired. */
  async consumeLoginFlow(flowId: string): Promise<string | null> {
    const [row] = await this.db.query<{ challenge: string }>(
      `DELETE FROM plugin_passkey_challenges
        WHERE id = $1 AND purpose = 'login' AND expires_at > now()
       RETURNING challenge`,
      [flowId],
    );
    return row?.challenge ?? null;
  }

  async purgeExpired(): Promise<void> {
    await this.db.query(`DELETE FROM plugin_passkey_challenges WHERE expires_at <= now()`);
  }

  async hasCredentials(userId: string): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM plugin_passkey_credentials WHERE user_id = $1 LIMIT 1`, [
      userId,
    ]);
    return rows.length > 0;
  }

  async listForUser(userId: string): Promise<StoredCredential[]> {
    const rows = await this.db.query<RawCredential>(
      `SELECT * FROM plugin_passkey_credentials WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    );
    return rows.map(toCredential);
  }

  async page(
    userId: string,
    limit: number,
    offset: number,
  ): Promise<{ total: number; items: StoredCredential[] }> {
    const [count] = await this.db.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM plugin_passkey_credentials WHERE user_id = $1`,
      [userId],
    );
    const rows = await this.db.query<RawCredential>(
      `SELECT * FROM plugin_passkey_credentials WHERE user_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      [userId, limit, offset],
    );
    return { total: count.total, items: rows.map(toCredential) };
  }

  async findByCredentialId(credentialId: string): Promise<StoredCredential | null> {
    const [row] = await this.db.query<RawCredential>(
      `SELECT * FROM plugin_passkey_credentials WHERE credential_id = $1`,
      [credentialId],
    );
    return row ? toCredential(row) : null;
  }

  /** Stores a verified registration; null when the credential id is registered already. */
  async insert(c: {
    userId: string;
    credentialId: string;
    publicKey: string;
    counter: number;
    transports: string[];
    backedUp: boolean;
    deviceType: string;
    aaguid: string | null;
    name: string;
  }): Promise<StoredCredential | null> {
    const [row] = await this.db.query<RawCredential>(
      `INSERT INTO plugin_passkey_credentials
         (user_id, credential_id, public_key, counter, transports, backed_up, device_type, aaguid, name)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9)
       ON CONFLICT (credential_id) DO NOTHING
       RETURNING *`,
      [
        c.userId,
        c.credentialId,
        c.publicKey,
        c.counter,
        JSON.stringify(c.transports),
        c.backedUp,
        c.deviceType,
        c.aaguid,
        c.name,
      ],
    );
    return row ? toCredential(row) : null;
  }

  /**
   * Records a verified assertion: the new counter (only forward, or 0 -> 0 for authenticators
   * that keep no counter), the backup flags and the time; false when another assertion moved the
   * counter past it meanwhile (a replay or a cloned authenticator).
   */
  async recordUse(
    id: string,
    counter: { seen: number; next: number },
    flags: { backedUp: boolean; deviceType: string },
  ): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE plugin_passkey_credentials
          SET counter = $2, backed_up = $3, device_type = $4, last_used_at = now()
        WHERE id = $1 AND counter = $5 AND (counter < $2 OR (counter = 0 AND $2 = 0))
       RETURNING id`,
      [id, counter.next, flags.backedUp, flags.deviceType, counter.seen],
    );
    return rows.length > 0;
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const rows = await this.db.query(
      `DELETE FROM plugin_passkey_credentials WHERE id = $1 AND user_id = $2 RETURNING id`,
      [id, userId],
    );
    return rows.length > 0;
  }
}
