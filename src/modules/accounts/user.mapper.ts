import type { SessionUser } from '../../common/access/auth-context';
import type { AccountRow, ListedAccountRow, RoleRef } from './users.repository';

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

/** `custom`: the configured (code-defined) user fields only, as SPEC 2.1 puts them on the session user. */
export function toSessionUser(
  a: AccountRow,
  custom: Record<string, unknown>,
  roleIds = a.roles.map((r) => r.id),
): SessionUser {
  return { ...custom, id: a.id, email: a.email, name: a.name, image: a.image, roleIds };
}
