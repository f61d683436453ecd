/** An audit row as `GET /audit` answers it (CONTRACTS 14.3). */
export interface AuditItem {
  /** The row's id (a bigint, as text). */
  id: string;
  event: string;
  /** Who acted; null for an anonymous event (a failed sign-in) or an account deleted since. */
  actor: { id: string; name: string } | null;
  /** What the event is about: the stored `<type>:<id>` split at its first `:`. */
  target: { type: string; id: string | null } | null;
  ip: string | null;
  userAgent: string | null;
  /** The sign-in strategy (`password`, `oidc:<provider>`...), on sign-in rows. */
  strategy: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
}

/** The 14.3 events the service writes (the auth module's sign-in events are named there). */
export const AUDIT_EVENTS = {
  userCreated: 'user-created',
  userUpdated: 'user-updated',
  userDeactivated: 'user-deactivated',
  roleChanged: 'role-changed',
  permissionChanged: 'permission-changed',
  settingsChanged: 'settings-changed',
  schemaApplied: 'schema-applied',
  passwordReset: 'password-reset',
  passwordChanged: 'password-changed',
  mfaLocked: 'mfa-locked',
  entryPublished: 'entry-published',
  entryUnpublished: 'entry-unpublished',
  entryRestored: 'entry-restored',
  scheduleFailed: 'entry-schedule-failed',
} as const;
