/**
 * Answer schemas of the audit routes (src/common/api-schema.ts), written from audit.types.ts
 * (`AuditItem`) and `toAuditItem` in audit.service.ts.
 */
import {
  ANY,
  DATE_TIME,
  namedSchema,
  NULLABLE_STRING,
  objectSchema,
  STRING,
  UUID,
} from '../../common/api-schema';

/** An item of `GET /audit` (CONTRACTS 14.3). */
export const AUDIT_ENTRY = namedSchema(
  'AuditEntry',
  objectSchema({
    id: { type: 'string', pattern: '^[0-9]+$', description: 'The audit row id (a bigint, as text)' },
    event: STRING,
    actor: { anyOf: [objectSchema({ id: UUID, name: STRING }), { type: 'null' }] },
    target: {
      anyOf: [objectSchema({ type: STRING, id: NULLABLE_STRING }), { type: 'null' }],
      description: 'The stored `<type>:<id>` split at its first colon (`user:<id>` -> { type: "user", id })',
    },
    ip: NULLABLE_STRING,
    userAgent: NULLABLE_STRING,
    strategy: NULLABLE_STRING,
    metadata: { type: 'object', additionalProperties: ANY },
    createdAt: DATE_TIME,
  }),
);
