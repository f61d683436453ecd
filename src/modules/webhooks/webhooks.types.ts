/** Every event type an endpoint may subscribe to (`"*"`: all of them). */
export const WEBHOOK_EVENTS = [
  'entry.created',
  'entry.updated',
  'entry.deleted',
  'entry.published',
  'entry.unpublished',
  'single.updated',
  'single.published',
  'media.created',
  'media.deleted',
  'user.created',
  'user.updated',
  'user.deleted',
  'user.deactivated',
  'user.activated',
  'user.password-changed',
  'schema.applied',
  'webhook.test',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/**
 * An event as a module reports it, inside the transaction of its change (`WebhookOutbox.emit`).
 * `collection`: the collection of an `entry.*` event, which an endpoint's `collections` narrows.
 */
export interface WebhookEventInput {
  type: WebhookEventType;
  data: Record<string, unknown>;
  collection?: string;
}
