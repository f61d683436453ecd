import { ROLE_SLUG_MAX_LENGTH, ROLE_SLUG_PATTERN } from './rbac.constants';

/**
 * The slug of a role created without one: the name lower-cased, accents dropped (`É` -> `e`),
 * every run of other non-alphanumerics turned into one `-`, trimmed of `-` at both ends and cut
 * to 63 characters. Null when that is not a valid slug (empty, or not starting with a letter):
 * the caller must then send a slug.
 */
export function deriveRoleSlug(name: string): string | null {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, ROLE_SLUG_MAX_LENGTH)
    .replace(/-+$/, '');
  return ROLE_SLUG_PATTERN.test(slug) ? slug : null;
}

/** `read` + `users` -> `read-users` (SPEC 2.3). */
export function permissionSlug(action: string, resource: string): string {
  return `${action}-${resource}`;
}

/** The name a permission gets when none is given: `read` + `users` -> `Read users` (as the seed names them). */
export function defaultPermissionName(action: string, resource: string): string {
  return `${action.charAt(0).toUpperCase()}${action.slice(1)} ${resource}`;
}

/** A blank description is no description. */
export function emptyToNull(v: string | null | undefined): string | null {
  return v === undefined || v === null || v.trim() === '' ? null : v;
}
