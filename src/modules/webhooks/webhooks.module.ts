import { Module } from '@nestjs/common';
import { SVC_OPTIONS } from '../../config/svc-options';
import { JobsModule } from '../../jobs/jobs.module';
import { AuditModule } from '../audit/audit.module';
import { WebhookDeliveryJob } from './webhook-delivery.job';
import { WebhookOutboxRepository } from './webhook-outbox.repository';
import { WebhookOutbox } from './webhook-outbox.service';
import { WebhookRetentionJob } from './webhook-retention.job';
import { WEBHOOK_SECRET_BOX, webhookSecretBox } from './webhook-secrets';
import { WebhooksController } from './webhooks.controller';
import { WebhooksRepository } from './webhooks.repository';
import { WebhooksService } from './webhooks.service';

/**
 * Outbound webhooks: the outbox the other modules report their events to (in the transaction of
 * their change), the endpoints and their routes, and the delivery of each event by the job queue
 * (one job per attempt, several at once per instance), with the purge of deliveries after 30 days.
 */
@Module({
  imports: [JobsModule, AuditModule],
  controllers: [WebhooksController],
  providers: [
    { provide: WEBHOOK_SECRET_BOX, inject: [SVC_OPTIONS], useFactory: webhookSecretBox },
    WebhookOutboxRepository,
    WebhookOutbox,
    WebhooksRepository,
    WebhooksService,
    WebhookDeliveryJob,
    WebhookRetentionJob,
  ],
  exports: [WebhookOutbox],
})
export class WebhooksModule {}
