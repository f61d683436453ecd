import { SLUG_PATTERN } from '../../fields';
/** Role slugs: the same form as collection slugs (CONTRACTS 6). */
export const ROLE_SLUG_PATTERN = SLUG_PATTERN;
export const ROLE_SLUG_MAX_LENGTH = 63;

/** Permission slug parts (`<action>-<resource>`): the action holds no `-`, so a slug splits one way only. */
export const PERMISSION_ACTION_PATTERN = /^[a-z][a-z0-9]*$/;
export const PERMISSION_RESOURCE_PATTERN = /^[a-z][a-z0-9-]*$/;
export const PERMISSION_ACTION_MAX_LENGTH = 32;
/** As long as a collection slug, so `<action>-<collection slug>` always fits. */
export const PERMISSION_RESOURCE_MAX_LENGTH = 63;

export const ROLE_LEVEL_MIN = 0;
export const ROLE_LEVEL_MAX = 1000;

/** At most this many ids in one `permissionIds` body. */
export const MAX_IDS_PER_REQUEST = 1000;

/**
 * Permissions the service's own routes check (CONTRACTS 12, seeded by the CoreSchema migration;
 * `read-audit` of CONTRACTS 14.3 by the AuditLog migration, the webhooks' by theirs):
 * they can be renamed and described but not deleted (409 CONFLICT), since deleting one would
 * silently make its routes super-admin-only and a re-created one would get a new id.
 */
export const CORE_PERMISSION_SLUGS: ReadonlySet<string> = new Set([
  ...[
    'users',
    'roles',
    'permissions',
    'settings',
    'email-providers',
    'email-templates',
    'media',
    'webhooks',
  ].flatMap((resource) => ['create', 'read', 'update', 'delete'].map((action) => `${action}-${resource}`)),
  'manage-settings',
  'read-audit',
]);
