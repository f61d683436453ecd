import type { AccountRow } from '../users/users.repository';
import type { SessionUser } from '../users/user.mapper';

/** What every credential (cookie JWT, Bearer JWT, API key) resolves to (DESIGN 2). */
export interface AuthContext {
  method: 'session' | 'bearer' | 'api-key';
  user: SessionUser;
  account: AccountRow;
  roleIds: string[];
  permissions: string[];
  isSuperAdmin: boolean;
  /** Expiry of the access token (Unix seconds), for session reads. */
  exp?: number;
  /**
   * The key, when the credential is an API key. `user` is then its creator (on whose behalf it
   * acts) but `user.roleIds` and `roleIds` are the key's own: its role for a role-based key,
   * none for the other types; `permissions` are the key's.
   */
  apiKey?: { id: string; type: 'read-only' | 'full-access' | 'role-based'; roleId: string | null };
}

export const AUTH_CONTEXT = Symbol('svc:auth');

export type RequestWithAuth = { [AUTH_CONTEXT]?: AuthContext | null };
