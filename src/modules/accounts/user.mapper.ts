import type { SessionUser } from '../../common/access/auth-context';
import type { AccountState, RoleRef } from './accounts.types';
import type { AccountRow, ListedAccountRow } from './users.repository';

/** The user record of CONTRACTS 4: never any password or token material. */
export interface UserRecord {
  id: string;
  email: string;
  name: string;
  image: string | null;
  isActive: boolean;
  emailVerified: boolean;
  roles: RoleRef[];
  lastLoginAt: string | null;
  createdAt: string;
  updatedAt: string;
  [customField: string]: unknown;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

/** Custom fields come first so no stored value can shadow a core field. */
export function toUserRecord(
  a: ListedAccountRow,
  custom: Record<string, unknown> = a.custom ?? {},
): UserRecord {
  return {
    ...custom,
    id: a.id,
    email: a.email,
    name: a.name,
    image: a.image,
    isActive: a.is_active,
    emailVerified: a.email_verified_at !== null,
    roles: a.roles,
    lastLoginAt: iso(a.last_login_at),
    createdAt: iso(a.created_at)!,
    updatedAt: iso(a.updated_at)!,
  };
}

/**
 * What AccountsService answers for an account row: its state without the password hash and the
 * failure counter (named field by field, so a new column stays in the repository until chosen).
 */
export function toAccountState(a: AccountRow): AccountState {
  return {
    id: a.id,
    email: a.email,
    name: a.name,
    image: a.image,
    email_verified_at: a.email_verified_at,
    is_active: a.is_active,
    locked_until: a.locked_until,
    ver: a.ver,
    step_ver: a.step_ver,
    must_change_password: a.must_change_password,
    custom: a.custom,
    last_login_at: a.last_login_at,
    created_at: a.created_at,
    updated_at: a.updated_at,
    roles: a.roles,
    sessions: a.sessions,
  };
}

/** `custom`: the configured (code-defined) user fields only, as SPEC 2.1 puts them on the session user. */
export function toSessionUser(
  a: AccountState,
  custom: Record<string, unknown>,
  roleIds = a.roles.map((r) => r.id),
): SessionUser {
  return { ...custom, id: a.id, email: a.email, name: a.name, image: a.image, roleIds };
}
