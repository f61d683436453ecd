/**
 * What other modules see of an account (through AccountsService): its state, never password
 * material. The rows themselves (`UserRow`, `AccountRow`) stay in the accounts repository layer.
 */

export interface RoleRef {
  id: string;
  name: string;
  slug: string;
}

/**
 * An account as AccountsService answers it (`toAccountState`): the user row without its password
 * hash and failure counter, with its roles. What the session gate, the guards and the user
 * records read.
 */
export interface AccountState {
  id: string;
  email: string;
  name: string;
  image: string | null;
  email_verified_at: Date | null;
  is_active: boolean;
  locked_until: Date | null;
  /** The account counter: raised by every write that ends its sessions (SPEC 3.2). */
  ver: number;
  /**
   * The step counter: raised by a password write, a deactivation and ending all sessions; a
   * paused login, an enrolment step or an emailed sign-in link issued under another value is void.
   */
  step_ver: number;
  must_change_password: boolean;
  custom: Record<string, unknown>;
  last_login_at: Date | null;
  created_at: Date;
  updated_at: Date;
  roles: RoleRef[];
  /** Ids of the live sessions (refresh-token chains) when the row was read. */
  sessions: string[];
}

/**
 * A correct password, to be claimed in the login transaction (AccountsService.claimPasswordLogin).
 * Opaque on purpose: the hash the password was checked against stays inside AccountsService.
 */
export interface PasswordClaim {
  readonly userId: string;
}

/** A password that opens the account: the account as read, and its claim. */
export interface CheckedPassword {
  account: AccountState;
  claim: PasswordClaim;
}

/**
 * AccountsService.checkPassword's verdict: checked, or refused (`invalid-credentials`: no such
 * account or a wrong password counted; `locked`: the account is, or the failure found it, locked).
 */
export type PasswordCheck = CheckedPassword | { refused: 'invalid-credentials' | 'locked' };

/** The lockout rule a failed password counts against (SPEC 5.2.4). */
export interface LockoutPolicy {
  maxAttempts: number;
  lockMinutes: number;
}

export type UserSortField = 'email' | 'name' | 'createdAt' | 'lastLoginAt';
