/**
 * Answer schemas of the API-key routes (src/common/api-schema.ts): `ApiKey` is the key record of
 * CONTRACTS 5 (`toApiKeyRecord` in api-key.mapper.ts), never the key or its hash.
 */
import {
  DATE_TIME,
  namedSchema,
  NULLABLE_DATE_TIME,
  NULLABLE_STRING,
  objectSchema,
  STRING,
  UUID,
} from '../../common/api-schema';

export const API_KEY = namedSchema(
  'ApiKey',
  objectSchema({
    id: UUID,
    name: STRING,
    description: NULLABLE_STRING,
    type: { type: 'string', enum: ['read-only', 'full-access', 'role-based'] },
    roleId: { type: ['string', 'null'], format: 'uuid' },
    keyPrefix: STRING,
    expiresAt: NULLABLE_DATE_TIME,
    revokedAt: NULLABLE_DATE_TIME,
    lastUsedAt: NULLABLE_DATE_TIME,
    status: { type: 'string', enum: ['active', 'expired', 'revoked'] },
    scopes: { type: ['array', 'null'], items: STRING },
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
  }),
);
