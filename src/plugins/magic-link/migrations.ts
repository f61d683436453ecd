import type { PluginMigration } from '../api';

/**
 * The plugin's own table. One statement per migration, applied once at boot in this order.
 *
 * - `plugin_magic_link_tokens`: every emailed link: the SHA-256 of its token (hex; never the
 *   token), the account, the `next` path asked for, when it expires and when it was used. A link
 *   is used by one conditional UPDATE (`used_at IS NULL AND expires_at > now()`), so it signs in
 *   once. Rows go with their user.
 */
export const MAGIC_LINK_MIGRATIONS: PluginMigration[] = [
  {
    name: '001-tokens',
    up: `CREATE TABLE IF NOT EXISTS plugin_magic_link_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  next text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
)`,
  },
  {
    name: '002-tokens-expiry',
    up: `CREATE INDEX IF NOT EXISTS plugin_magic_link_tokens_expires_idx ON plugin_magic_link_tokens (expires_at)`,
  },
  {
    name: '003-tokens-user',
    up: `CREATE INDEX IF NOT EXISTS plugin_magic_link_tokens_user_idx ON plugin_magic_link_tokens (user_id)`,
  },
  {
    // The account's stamp when the link was issued: a password write, a deactivation or the end
    // of all sessions since then voids the link (completeLogin compares it).
    name: '004-tokens-account-stamp',
    up: `ALTER TABLE plugin_magic_link_tokens ADD COLUMN IF NOT EXISTS account_stamp text`,
  },
];
