import type { PluginDb } from '../api';
import { hashRecoveryCode, matchStep, normalizeRecoveryCode, normalizeTotpCode } from './totp.codes';

export interface FactorRow {
  secretSealed: string;
  confirmed: boolean;
  lastStep: number | null;
}

export interface TotpStatus {
  enabled: boolean;
  pending: boolean;
  recoveryCodesRemaining: number;
}

interface RawFactor {
  secret_sealed: string;
  confirmed: boolean;
  last_step: string | number | null;
}

/**
 * All SQL of the plugin (tables of `migrations.ts`). Every decision that two requests could race
 * on (a time step accepted, a recovery code used, an enrolment confirmed) is one conditional
 * statement, so the database settles it.
 */
export class TotpStore {
  constructor(private readonly db: PluginDb) {}

  async find(userId: string): Promise<FactorRow | null> {
    const [row] = await this.db.query<RawFactor>(
      `SELECT secret_sealed, confirmed_at IS NOT NULL AS confirmed, last_step
         FROM plugin_totp_factors WHERE user_id = $1`,
      [userId],
    );
    if (!row) {
      return null;
    }
    return {
      secretSealed: row.secret_sealed,
      confirmed: row.confirmed,
      lastStep: row.last_step === null ? null : Number(row.last_step),
    };
  }

  async isEnabled(userId: string): Promise<boolean> {
    const rows = await this.db.query(
      `SELECT 1 FROM plugin_totp_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL`,
      [userId],
    );
    return rows.length > 0;
  }

  async status(userId: string): Promise<TotpStatus> {
    const [row] = await this.db.query<{ enabled: boolean; remaining: number }>(
      `SELECT f.confirmed_at IS NOT NULL AS enabled,
              (SELECT count(*)::int FROM plugin_totp_recovery_codes r WHERE r.user_id = f.user_id) AS remaining
         FROM plugin_totp_factors f WHERE f.user_id = $1`,
      [userId],
    );
    if (!row) {
      return { enabled: false, pending: false, recoveryCodesRemaining: 0 };
    }
    return {
      enabled: row.enabled,
      pending: !row.enabled,
      recoveryCodesRemaining: row.enabled ? row.remaining : 0,
    };
  }

  /** Stores a new unconfirmed secret (replacing an unconfirmed one); false when TOTP is enabled. */
  async startEnrolment(userId: string, secretSealed: string): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO plugin_totp_factors (user_id, secret_sealed) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE
         SET secret_sealed = EXCLUDED.secret_sealed, last_step = NULL, created_at = now(), updated_at = now()
         WHERE plugin_totp_factors.confirmed_at IS NULL
       RETURNING user_id`,
      [userId, secretSealed],
    );
    return rows.length > 0;
  }

  /**
   * Records `step` as the last accepted one, when it is later than the last (replay guard) and the
   * factor is still the one checked (same sealed secret, confirmed).
   */
  async acceptStep(userId: string, step: number, secretSealed: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE plugin_totp_factors SET last_step = $2, updated_at = now()
        WHERE user_id = $1 AND secret_sealed = $3 AND confirmed_at IS NOT NULL
          AND (last_step IS NULL OR last_step < $2)
       RETURNING user_id`,
      [userId, step, secretSealed],
    );
    return rows.length > 0;
  }

  /** Uses a recovery code (by hash) once; false when there is no such unused code. */
  async consumeRecoveryCode(userId: string, codeHash: string): Promise<boolean> {
    const rows = await this.db.query(
      `DELETE FROM plugin_totp_recovery_codes WHERE user_id = $1 AND code_hash = $2 RETURNING user_id`,
      [userId, codeHash],
    );
    return rows.length > 0;
  }

  /**
   * Confirms the pending enrolment whose code matched `step` and stores the recovery code hashes,
   * in one transaction; false when it was confirmed, replaced or the step used meanwhile.
   */
  async confirm(
    userId: string,
    step: number,
    secretSealed: string,
    codeHashes: string[],
    also: (tx: PluginDb) => Promise<unknown> = async () => undefined,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE plugin_totp_factors SET confirmed_at = now(), last_step = $2, updated_at = now()
          WHERE user_id = $1 AND secret_sealed = $3 AND confirmed_at IS NULL
            AND (last_step IS NULL OR last_step < $2)
         RETURNING user_id`,
        [userId, step, secretSealed],
      );
      if (rows.length === 0) {
        return false;
      }
      await tx.query(`DELETE FROM plugin_totp_recovery_codes WHERE user_id = $1`, [userId]);
      await tx.query(
        `INSERT INTO plugin_totp_recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])`,
        [userId, codeHashes],
      );
      await also(tx);
      return true;
    });
  }

  /** Removes the factor and its recovery codes; false when there was none. */
  async remove(userId: string): Promise<boolean> {
    const rows = await this.db.query(`DELETE FROM plugin_totp_factors WHERE user_id = $1 RETURNING user_id`, [
      userId,
    ]);
    return rows.length > 0;
  }
}

/**
 * Checks a second-factor answer of an enabled account and uses it up: a current code (within
 * `window` steps, later than the last accepted step) or an unused recovery code.
 */
export async function acceptSecondFactor(
  store: TotpStore,
  open: (sealed: string) => string,
  userId: string,
  code: string,
  window: number,
): Promise<boolean> {
  if (code.length > 64) {
    return false;
  }
  if (normalizeTotpCode(code)) {
    const factor = await store.find(userId);
    if (!factor?.confirmed) {
      return false;
    }
    const step = matchStep(open(factor.secretSealed), code, { window, lastStep: factor.lastStep });
    return step !== null && (await store.acceptStep(userId, step, factor.secretSealed));
  }
  if (normalizeRecoveryCode(code)) {
    return (
      (await store.isEnabled(userId)) && (await store.consumeRecoveryCode(userId, hashRecoveryCode(code)))
    );
  }
  return false;
}
