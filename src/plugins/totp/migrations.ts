import type { PluginMigration } from '../api';

/**
 * The plugin's own tables. One statement per migration, applied once at boot in this order.
 * A factor row is the user's secret (sealed with the plugin's key), confirmed once the first code
 * matched; `last_step` is the last accepted RFC 6238 time step (replay guard). Recovery codes are
 * stored as SHA-256 hashes and go with the factor.
 */
export const TOTP_MIGRATIONS: PluginMigration[] = [
  {
    name: '001-factors',
    up: `CREATE TABLE plugin_totp_factors (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret_sealed text NOT NULL,
  confirmed_at timestamptz,
  last_step bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
)`,
  },
  {
    name: '002-recovery-codes',
    up: `CREATE TABLE plugin_totp_recovery_codes (
  user_id uuid NOT NULL REFERENCES plugin_totp_factors(user_id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, code_hash)
)`,
  },
];
