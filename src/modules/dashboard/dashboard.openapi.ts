/**
 * Answer schemas of the dashboard routes (src/common/api-schema.ts), written from
 * dashboard.types.ts and the records DashboardService builds.
 */
import { DATE_TIME, namedSchema, NULLABLE_STRING, objectSchema, STRING, UUID } from '../../common/api-schema';

const COUNT = { type: 'integer', minimum: 0 };

/** `GET /dashboard/stats`: `users` and `media` are null when the caller may not read them. */
export const DASHBOARD_STATS = namedSchema(
  'DashboardStats',
  objectSchema({
    collections: {
      type: 'array',
      items: objectSchema({
        slug: STRING,
        label: STRING,
        total: COUNT,
        published: COUNT,
        drafts: { type: ['integer', 'null'], minimum: 0 },
      }),
    },
    users: { anyOf: [objectSchema({ total: COUNT, active: COUNT }), { type: 'null' }] },
    media: {
      anyOf: [objectSchema({ total: COUNT, bytes: { type: 'number', minimum: 0 } }), { type: 'null' }],
    },
  }),
);

/** An item of `GET /dashboard/recent-entries`; `status` is null on a collection without drafts. */
export const RECENT_ENTRY = namedSchema(
  'RecentEntry',
  objectSchema({
    collection: STRING,
    id: UUID,
    title: NULLABLE_STRING,
    status: { type: ['string', 'null'], enum: ['published', 'draft', null] },
    updatedAt: DATE_TIME,
  }),
);

/** An item of `GET /dashboard/activity`: an audit row, never its IP nor its metadata. */
export const ACTIVITY_ITEM = namedSchema(
  'ActivityItem',
  objectSchema({
    id: { type: 'string', pattern: '^[0-9]+$', description: 'The audit row id (a bigint, as text)' },
    event: STRING,
    actor: { anyOf: [objectSchema({ id: UUID, name: STRING }), { type: 'null' }] },
    target: NULLABLE_STRING,
    createdAt: DATE_TIME,
  }),
);
