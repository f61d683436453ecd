import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ServiceError, ValidationIssue } from '../../common/errors';
import { listRecord, ListRecord, parseListQuery, unknownParameters } from '../../common/pagination';
import type { SecretBox } from '../../common/secret-box';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { AuditService } from '../audit/audit.service';
import { AUDIT_EVENTS } from '../audit/audit.types';
import type { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook.dto';
import { readWebhookUrl } from './webhook-address';
import {
  DeliveryDetail,
  DeliveryRecord,
  toDeliveryDetail,
  toDeliveryRecord,
  toWebhookRecord,
  WebhookRecord,
} from './webhook.mapper';
import { eventId, WebhookOutbox } from './webhook-outbox.service';
import { WEBHOOK_SECRET_BOX } from './webhook-secrets';
import { newSecret } from './webhook-sender';
import {
  DELIVERY_STATUSES,
  DeliveryStatus,
  EndpointSortField,
  WebhooksRepository,
} from './webhooks.repository';
import { WEBHOOK_EVENTS } from './webhooks.types';

export const SORTABLE: readonly EndpointSortField[] = ['name', 'createdAt'];
export { DELIVERY_STATUSES };
/** What the delivery list reads from its query; anything else is refused. */
const DELIVERY_PARAMS = ['page', 'limit', 'status', 'event'];

const notFound = () => new ServiceError('NOT_FOUND', 'No such webhook');
const deliveryNotFound = () => new ServiceError('NOT_FOUND', 'No such delivery');

/**
 * Webhook endpoints over REST: their CRUD (the signing secret answered by the create and by a
 * rotation only, sealed in the database), the test event, the delivery log and replays. Writes
 * are audited as `settings-changed` (`webhook:<id>`), never with the secret.
 */
@Injectable()
export class WebhooksService {
  private readonly logger = new Logger('Webhooks');

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: WebhooksRepository,
    private readonly outbox: WebhookOutbox,
    private readonly audit: AuditService,
    @Inject(WEBHOOK_SECRET_BOX) private readonly box: SecretBox,
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
  ) {}

  async list(query: Record<string, unknown>): Promise<ListRecord<WebhookRecord>> {
    const q = parseListQuery(query, {
      sortable: SORTABLE,
      defaultSort: { field: 'createdAt', direction: 'asc' },
    });
    const { rows, total } = await this.repo.list(this.db.manager, q);
    return listRecord(rows.map(toWebhookRecord), total, q);
  }

  async get(id: string): Promise<WebhookRecord> {
    const row = await this.repo.findById(this.db.manager, id);
    if (!row) {
      throw notFound();
    }
    return toWebhookRecord(row);
  }

  async create(dto: CreateWebhookDto): Promise<{ item: WebhookRecord; secret: string }> {
    const url = this.readUrl(dto.url);
    const secret = newSecret();
    const row = await this.db.transaction(async (em) => {
      const created = await this.repo.insert(em, {
        name: dto.name,
        url,
        events: unique(dto.events),
        collections: dto.collections ? unique(dto.collections) : null,
        enabled: dto.enabled ?? true,
        description: emptyToNull(dto.description),
        failureCount: 0,
        disabledReason: null,
        secret: this.box.seal(secret),
      });
      await this.recordAudit(em, 'webhook-created', created.id, {
        origin: originOf(created.url),
        events: created.events,
      });
      return created;
    });
    this.outbox.invalidate();
    this.logger.log({ webhookId: row.id }, 'webhook endpoint created');
    return { item: toWebhookRecord(row), secret };
  }

  /** Partial. Enabling a disabled endpoint clears its failure count and the reason it was disabled. */
  async update(id: string, dto: UpdateWebhookDto): Promise<WebhookRecord> {
    const url = dto.url === undefined ? undefined : this.readUrl(dto.url);
    const row = await this.db.transaction(async (em) => {
      const current = await this.repo.findById(em, id, { forUpdate: true });
      if (!current) {
        throw notFound();
      }
      const enabled = dto.enabled ?? current.enabled;
      const enabledAgain = enabled && !current.enabled;
      const updated = await this.repo.update(em, id, {
        name: dto.name ?? current.name,
        url: url ?? current.url,
        events: dto.events ? unique(dto.events) : current.events,
        collections:
          dto.collections === undefined
            ? current.collections
            : dto.collections === null
              ? null
              : unique(dto.collections),
        enabled,
        description: dto.description === undefined ? current.description : emptyToNull(dto.description),
        failureCount: enabledAgain ? 0 : current.failure_count,
        disabledReason: enabled ? null : current.disabled_reason,
      });
      const fields = (['name', 'url', 'events', 'collections', 'enabled', 'description'] as const).filter(
        (k) => dto[k] !== undefined,
      );
      await this.recordAudit(em, 'webhook-updated', id, { fields });
      return updated!;
    });
    this.outbox.invalidate();
    this.logger.log({ webhookId: id }, 'webhook endpoint updated');
    return toWebhookRecord(row);
  }

  /** Its deliveries go with it, pending ones included: nothing more is sent to it. */
  async delete(id: string): Promise<WebhookRecord> {
    const row = await this.db.transaction(async (em) => {
      const deleted = await this.repo.delete(em, id);
      if (deleted) {
        await this.recordAudit(em, 'webhook-deleted', id, { origin: originOf(deleted.url) });
      }
      return deleted;
    });
    if (!row) {
      throw notFound();
    }
    this.outbox.invalidate();
    this.logger.log({ webhookId: id }, 'webhook endpoint deleted');
    return toWebhookRecord(row);
  }

  /** A new secret: every attempt from now on, retries of earlier deliveries included, signs with it. */
  async rotateSecret(id: string): Promise<string> {
    const secret = newSecret();
    const done = await this.db.transaction(async (em) => {
      if (!(await this.repo.setSecret(em, id, this.box.seal(secret)))) {
        return false;
      }
      await this.recordAudit(em, 'webhook-secret-rotated', id, {});
      return true;
    });
    if (!done) {
      throw notFound();
    }
    this.logger.log({ webhookId: id }, 'webhook secret rotated');
    return secret;
  }

  /** A `webhook.test` event to this endpoint only, whatever it subscribes to; answers its id. */
  async sendTest(id: string): Promise<string> {
    const event = eventId();
    await this.db.transaction(async (em) => {
      if (!(await this.repo.findById(em, id, { forUpdate: true }))) {
        throw notFound();
      }
      const payload = { type: 'webhook.test', timestamp: new Date().toISOString(), data: { webhookId: id } };
      await this.outbox.queue(
        em,
        [{ id: event, type: 'webhook.test', payload }],
        [{ endpointId: id, eventId: event, event: 'webhook.test' }],
      );
    });
    this.outbox.wake();
    return event;
  }

  /** Newest first; `status` and `event` (one type or several, comma-separated) filter. */
  async listDeliveries(id: string, query: Record<string, unknown>): Promise<ListRecord<DeliveryRecord>> {
    const issues: ValidationIssue[] = unknownParameters(query, DELIVERY_PARAMS);
    const filters: { status?: DeliveryStatus; events?: string[] } = {};
    if (query.status !== undefined) {
      if (
        typeof query.status !== 'string' ||
        !(DELIVERY_STATUSES as readonly string[]).includes(query.status)
      ) {
        issues.push({
          path: 'status',
          code: 'isIn',
          message: `status must be one of ${DELIVERY_STATUSES.join(', ')}`,
        });
      } else {
        filters.status = query.status as DeliveryStatus;
      }
    }
    if (query.event !== undefined) {
      const events = typeof query.event === 'string' ? query.event.split(',').map((s) => s.trim()) : [];
      if (!events.length || events.some((e) => !(WEBHOOK_EVENTS as readonly string[]).includes(e))) {
        issues.push({
          path: 'event',
          code: 'isIn',
          message: `event must be an event type, or several comma-separated: ${WEBHOOK_EVENTS.join(', ')}`,
        });
      } else {
        filters.events = unique(events);
      }
    }
    if (issues.length) {
      throw ServiceError.validation(issues, 'The list query is not valid');
    }
    const q = parseListQuery(
      { page: query.page, limit: query.limit },
      { sortable: ['createdAt'], defaultSort: { field: 'createdAt', direction: 'desc' } },
    );
    const page = await this.repo.listDeliveries(this.db.manager, id, filters, q);
    if (!page.exists) {
      throw notFound();
    }
    return listRecord(page.rows.map(toDeliveryRecord), page.total, q);
  }

  async getDelivery(id: string, deliveryId: string): Promise<DeliveryDetail> {
    const row = await this.repo.findDelivery(this.db.manager, id, deliveryId);
    if (!row) {
      throw (await this.repo.findById(this.db.manager, id)) ? deliveryNotFound() : notFound();
    }
    return toDeliveryDetail(row);
  }

  /** A new delivery of the delivery's event (the same `webhook-id`), attempted at once; answers its id. */
  async replay(id: string, deliveryId: string): Promise<string> {
    const [created] = await this.db.transaction(async (em) => {
      if (!(await this.repo.findById(em, id, { forUpdate: true }))) {
        throw notFound();
      }
      const found = await this.repo.findDelivery(em, id, deliveryId);
      if (!found) {
        throw deliveryNotFound();
      }
      return this.outbox.queue(em, [], [{ endpointId: id, eventId: found.event_id, event: found.event }]);
    });
    this.outbox.wake();
    this.logger.log({ webhookId: id, deliveryId, replayId: created }, 'webhook delivery replayed');
    return created;
  }

  /** The URL as stored, or 400 VALIDATION_ERROR naming `url`. */
  private readUrl(value: string): string {
    const read = readWebhookUrl(value, this.options.config.webhooks.allowPrivateNetworks);
    if ('issue' in read) {
      throw ServiceError.validation([read.issue]);
    }
    return read.url;
  }

  private recordAudit(em: EntityManager, action: string, id: string, details: Record<string, unknown>) {
    return this.audit.record(
      {
        event: AUDIT_EVENTS.settingsChanged,
        actorId: this.audit.requestActorId(),
        target: `webhook:${id}`,
        metadata: { action, ...details },
      },
      em,
    );
  }
}

/** The URL's scheme, host and port: what an audit row says of it (never a path, a query or credentials). */
const originOf = (url: string): string => new URL(url).origin;

const unique = (values: readonly string[]): string[] => [...new Set(values)];

function emptyToNull(v: string | null | undefined): string | null {
  return v === undefined || v === null || v.trim() === '' ? null : v;
}
