/**
 * Answer schemas of the webhook routes (src/common/api-schema.ts), written from the mappers
 * (webhook.mapper.ts) and the controller's answers.
 */
import {
  ANY,
  BOOLEAN,
  DATE_TIME,
  INTEGER,
  namedSchema,
  NULLABLE_DATE_TIME,
  NULLABLE_STRING,
  objectSchema,
  STRING,
  UUID,
} from '../../common/api-schema';
import { DELIVERY_STATUSES } from './webhooks.repository';
import { WEBHOOK_EVENTS } from './webhooks.types';

const EVENT_TYPE = { type: 'string', enum: [...WEBHOOK_EVENTS] };
const SECRET = {
  type: 'string',
  pattern: '^whsec_[A-Za-z0-9+/]{43}=$',
  description: 'The signing secret: `whsec_` and the base64 of 32 random bytes. Shown only here',
};

/** An endpoint: never its secret. */
export const WEBHOOK = namedSchema(
  'Webhook',
  objectSchema({
    id: UUID,
    name: STRING,
    url: STRING,
    events: {
      type: 'array',
      items: { type: 'string', enum: [...WEBHOOK_EVENTS, '*'] },
      description: 'The event types sent to it; `*` for all',
    },
    collections: {
      type: ['array', 'null'],
      items: STRING,
      description: 'The collections whose `entry.*` events it receives; null for all',
    },
    enabled: BOOLEAN,
    description: NULLABLE_STRING,
    failureCount: { ...INTEGER, description: 'Deliveries failed in a row; a succeeded one resets it' },
    disabledReason: { ...NULLABLE_STRING, description: 'Why the service disabled it, if it did' },
    lastDeliveryAt: NULLABLE_DATE_TIME,
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
  }),
);

const DELIVERY_FIELDS = {
  id: UUID,
  endpointId: UUID,
  eventId: { ...STRING, description: 'The `webhook-id` header of every attempt' },
  event: EVENT_TYPE,
  status: { type: 'string', enum: [...DELIVERY_STATUSES] },
  attempts: INTEGER,
  lastStatusCode: {
    type: ['integer', 'null'],
    description: "The last attempt's answer status; null without one",
  },
  lastError: NULLABLE_STRING,
  nextAttemptAt: NULLABLE_DATE_TIME,
  createdAt: DATE_TIME,
  deliveredAt: NULLABLE_DATE_TIME,
};

export const WEBHOOK_DELIVERY = namedSchema('WebhookDelivery', objectSchema(DELIVERY_FIELDS));

const WEBHOOK_ATTEMPT = namedSchema(
  'WebhookAttempt',
  objectSchema(
    {
      at: DATE_TIME,
      statusCode: INTEGER,
      error: STRING,
      durationMs: INTEGER,
      responseBody: { ...STRING, description: 'The first 2 KiB of the answer' },
    },
    ['statusCode', 'error', 'responseBody'],
  ),
);

/** A delivery with its attempts and the body every attempt sends. */
export const WEBHOOK_DELIVERY_DETAIL = namedSchema(
  'WebhookDeliveryDetail',
  objectSchema({
    ...DELIVERY_FIELDS,
    attemptsLog: { type: 'array', items: WEBHOOK_ATTEMPT },
    payload: objectSchema({
      type: EVENT_TYPE,
      timestamp: DATE_TIME,
      data: { type: 'object', additionalProperties: ANY },
    }),
  }),
);

/** `POST /webhooks`: the endpoint and, this once, its secret. */
export const WEBHOOK_CREATED = objectSchema({ message: STRING, item: WEBHOOK, secret: SECRET });
/** `POST /webhooks/{id}/rotate-secret`. */
export const WEBHOOK_SECRET_ROTATED = objectSchema({ message: STRING, secret: SECRET });
/** `POST /webhooks/{id}/test`. */
export const WEBHOOK_TEST_QUEUED = objectSchema({
  message: STRING,
  eventId: { ...STRING, description: 'The `webhook-id` of the test event' },
});
/** `POST /webhooks/{id}/deliveries/{deliveryId}/replay`. */
export const WEBHOOK_REPLAY_QUEUED = objectSchema({ message: STRING, deliveryId: UUID });
