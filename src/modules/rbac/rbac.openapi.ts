/**
 * Answer schemas of the RBAC routes (src/common/api-schema.ts), written from the mappers:
 * `Role` from role.mapper.ts, `Permission` from permission.mapper.ts. Other modules refer to
 * them by name (`schemaRef('Role')`).
 */
import {
  BOOLEAN,
  DATE_TIME,
  INTEGER,
  namedSchema,
  NULLABLE_STRING,
  objectSchema,
  STRING,
  UUID,
} from '../../common/api-schema';

/** A permission record (`toPermissionRecord`). */
export const PERMISSION = namedSchema(
  'Permission',
  objectSchema({
    id: UUID,
    slug: STRING,
    action: STRING,
    resource: STRING,
    name: STRING,
    description: NULLABLE_STRING,
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
  }),
);

/** A role record (`toRoleRecord`): `permissions` are the role's own rows, not inherited ones. */
export const ROLE = namedSchema(
  'Role',
  objectSchema({
    id: UUID,
    name: STRING,
    slug: STRING,
    level: INTEGER,
    description: NULLABLE_STRING,
    isSystem: BOOLEAN,
    permissions: { type: 'array', items: objectSchema({ id: UUID, slug: STRING }) },
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
  }),
);
