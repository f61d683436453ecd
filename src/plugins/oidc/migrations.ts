import type { PluginMigration } from '../api';

/**
 * The plugin's own tables, shared by every installed instance (rows keyed by slug). Migrations are
 * recorded per plugin slug, so each instance runs them: every statement is idempotent (`IF NOT
 * EXISTS`), and a later migration must be too. One statement per migration.
 *
 * - `plugin_oidc_transactions`: the SHA-256 of each sign-in's `state` from `start` until its
 *   callback deletes it (single use); expired rows are removed as sign-ins go on.
 * - `plugin_oidc_links`: which account a provider subject signs in as, per instance, and whether
 *   the provider reported the address verified when the link was made (rows from before that
 *   column: false, unknown).
 */
export const OIDC_MIGRATIONS: PluginMigration[] = [
  {
    name: '001-transactions',
    up: `CREATE TABLE IF NOT EXISTS plugin_oidc_transactions (
  state_hash text PRIMARY KEY,
  slug text NOT NULL,
  expires_at timestamptz NOT NULL
)`,
  },
  {
    name: '002-transactions-expiry',
    up: `CREATE INDEX IF NOT EXISTS plugin_oidc_transactions_expires_idx ON plugin_oidc_transactions (expires_at)`,
  },
  {
    name: '003-links',
    up: `CREATE TABLE IF NOT EXISTS plugin_oidc_links (
  slug text NOT NULL,
  sub text NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (slug, sub)
)`,
  },
  {
    name: '004-links-user',
    up: `CREATE INDEX IF NOT EXISTS plugin_oidc_links_user_idx ON plugin_oidc_links (user_id)`,
  },
  {
    name: '005-links-email-verified',
    up: `ALTER TABLE plugin_oidc_links ADD COLUMN IF NOT EXISTS email_verified boolean NOT NULL DEFAULT false`,
  },
];
