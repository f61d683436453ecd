/**
 * Answer schemas of the audit routes (src/common/api-schema.ts), written from audit.types.ts
 * (`AuditItem`) and `toAuditItem` in audit.service.ts.
 */
import { MAX_EVENTS } from './audit.service';
import {
  ANY,
  DATE_TIME,
  namedSchema,
  NULLABLE_STRING,
  objectSchema,
  type QueryParameter,
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

/** The filters of the audit list and export (audit.service.ts `filters`). */
export const AUDIT_FILTERS: QueryParameter[] = [
  {
    name: 'event',
    description: `Only these events: one name (\`login-failed\`), or up to ${MAX_EVENTS} separated by commas`,
    schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9._:-]{0,63}(,[a-z0-9][a-z0-9._:-]{0,63})*$' },
  },
  { name: 'actorId', description: 'Only what this user did', schema: { type: 'string', format: 'uuid' } },
  {
    name: 'from',
    description: 'Only entries at or after this time (ISO 8601; a date alone is its midnight UTC)',
    schema: { type: 'string', maxLength: 40 },
  },
  {
    name: 'to',
    description: 'Only entries at or before this time (ISO 8601; a date alone is its midnight UTC)',
    schema: { type: 'string', maxLength: 40 },
  },
];

/** The export's format: CSV only. */
export const AUDIT_FORMAT: QueryParameter = {
  name: 'format',
  description: 'The file format',
  schema: { type: 'string', enum: ['csv'], default: 'csv' },
};
