/** The session user of SPEC 2.1: who the caller is, never any password, lock or token state. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  image: string | null;
  roleIds: string[];
  [customField: string]: unknown;
}

/**
 * What every credential (cookie JWT, Bearer JWT, API key) resolves to (DESIGN 2). A principal of
 * its own, never a database row: it reaches code-defined access rules (`{ user, auth }`), so no
 * password hash or lock state can leak through it. Whoever needs the account reads it through the
 * accounts service.
 */
export interface AuthContext {
  method: 'session' | 'bearer' | 'api-key';
  user: SessionUser;
  roleIds: string[];
  permissions: string[];
  isSuperAdmin: boolean;
  /** Expiry of the access token (Unix seconds), for session reads. */
  exp?: number;
  /** The session of the access token (its `sid`, CONTRACTS 14.1); none for API keys and in-process tokens. */
  sessionId?: string;
  /**
   * The key, when the credential is an API key. `user` is then its creator (on whose behalf it
   * acts) but `user.roleIds` and `roleIds` are the key's own: its role for a role-based key,
   * none for the other types; `permissions` are the key's.
   */
  apiKey?: {
    id: string;
    type: 'read-only' | 'full-access' | 'role-based';
    roleId: string | null;
    /** Scopes narrow the key to these permission slugs. */
    scoped?: boolean;
  };
}

export const AUTH_CONTEXT = Symbol('svc:auth');

export type RequestWithAuth = { [AUTH_CONTEXT]?: AuthContext | null };
