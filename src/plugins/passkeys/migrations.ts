import type { PluginMigration } from '../api';

/**
 * The plugin's own tables. One statement per migration, applied once at boot in this order.
 *
 * - `plugin_passkey_credentials`: a user's registered passkeys: the credential id and COSE public
 *   key (base64url), the signature counter (a counter that goes backwards refuses the assertion),
 *   the backup flags, the transports the browser reported, and the name the user gave it.
 * - `plugin_passkey_challenges`: every challenge handed out (registration, second factor,
 *   passwordless login), single use and 5 minutes; `user_id` is null for a passwordless login's
 *   challenge (whose row id is its `flowId`) and for a second-factor challenge issued without
 *   knowing the pending login's user.
 */
export const PASSKEY_MIGRATIONS: PluginMigration[] = [
  {
    name: '001-credentials',
    up: `CREATE TABLE IF NOT EXISTS plugin_passkey_credentials (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  credential_id text NOT NULL UNIQUE,
  public_key text NOT NULL,
  counter bigint NOT NULL DEFAULT 0,
  transports jsonb NOT NULL DEFAULT '[]'::jsonb,
  backed_up boolean NOT NULL DEFAULT false,
  device_type text NOT NULL,
  aaguid text,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
)`,
  },
  {
    name: '002-credentials-user',
    up: `CREATE INDEX IF NOT EXISTS plugin_passkey_credentials_user_idx ON plugin_passkey_credentials (user_id, created_at)`,
  },
  {
    name: '003-challenges',
    up: `CREATE TABLE IF NOT EXISTS plugin_passkey_challenges (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid REFERENCES users(id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('register', 'second-factor', 'login')),
  challenge text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`,
  },
  {
    name: '004-challenges-expiry',
    up: `CREATE INDEX IF NOT EXISTS plugin_passkey_challenges_expires_idx ON plugin_passkey_challenges (expires_at)`,
  },
];
