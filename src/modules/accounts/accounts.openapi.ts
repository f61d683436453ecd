/**
 * Answer schemas of the accounts routes (`/users`, `/me`; src/common/api-schema.ts), written from
 * user.mapper.ts: `User` is `toUserRecord`, `RoleRef` a role as an account holds it. Other
 * modules refer to them by name (`schemaRef('User')`).
 */
import {
  BOOLEAN,
  DATE_TIME,
  namedSchema,
  NULLABLE_DATE_TIME,
  NULLABLE_STRING,
  objectSchema,
  STRING,
  UUID,
} from '../../common/api-schema';
import { FIELD_NAME_PATTERN } from '../../fields/names';

/** A role held by an account (`RoleRef` of accounts.types.ts). */
export const ROLE_REF = namedSchema('RoleRef', objectSchema({ id: UUID, name: STRING, slug: STRING }));

/**
 * The user record of CONTRACTS 4 (`toUserRecord`): the core keys, then one key per configured
 * user field (`GET /user-fields`), its value or null. Never password or token material.
 */
export const USER = namedSchema('User', {
  ...objectSchema({
    id: UUID,
    email: STRING,
    name: STRING,
    image: NULLABLE_STRING,
    isActive: BOOLEAN,
    emailVerified: BOOLEAN,
    roles: { type: 'array', items: ROLE_REF },
    lastLoginAt: NULLABLE_DATE_TIME,
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
  }),
  patternProperties: {
    [FIELD_NAME_PATTERN.source]: {
      description: 'A custom user field (`GET /user-fields`): its value, or null',
    },
  },
});

/** `GET /me/permissions`: a super-admin holds every permission of the catalogue. */
export const MY_PERMISSIONS = objectSchema({
  isSuperAdmin: BOOLEAN,
  permissions: { type: 'array', items: STRING },
});
