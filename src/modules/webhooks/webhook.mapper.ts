import type {
  AttemptLogEntry,
  DeliveryDetailRow,
  DeliveryRow,
  DeliveryStatus,
  EndpointRow,
} from './webhooks.repository';

/** An endpoint as the API answers it: never its secret. */
export interface WebhookRecord {
  id: string;
  name: string;
  url: string;
  events: string[];
  collections: string[] | null;
  enabled: boolean;
  description: string | null;
  /** Deliveries failed in a row; a succeeded one resets it. */
  failureCount: number;
  disabledReason: string | null;
  lastDeliveryAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryRecord {
  id: string;
  endpointId: string;
  /** The `webhook-id` every attempt sends. */
  eventId: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

export interface DeliveryDetail extends DeliveryRecord {
  attemptsLog: AttemptLogEntry[];
  payload: Record<string, unknown>;
}

const iso = (d: Date | string): string => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null): string | null => (d === null ? null : iso(d));

export function toWebhookRecord(row: Omit<EndpointRow, 'secret'>): WebhookRecord {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: row.events,
    collections: row.collections,
    enabled: row.enabled,
    description: row.description,
    failureCount: row.failure_count,
    disabledReason: row.disabled_reason,
    lastDeliveryAt: isoOrNull(row.last_delivery_at),
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

export function toDeliveryRecord(row: DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.last_status_code,
    lastError: row.last_error,
    nextAttemptAt: isoOrNull(row.next_attempt_at),
    createdAt: iso(row.created_at),
    deliveredAt: isoOrNull(row.delivered_at),
  };
}

export function toDeliveryDetail(row: DeliveryDetailRow): DeliveryDetail {
  return { ...toDeliveryRecord(row), attemptsLog: row.attempts_log, payload: row.payload };
}
