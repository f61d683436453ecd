import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SVC_CONNECTION } from '../../config/svc-options';
import { JobsService, QueueSpec } from '../../jobs/jobs.service';
import { WebhooksRepository } from './webhooks.repository';

/** The purge of old deliveries and events: as the audit purge, three attempts, one run an hour. */
export const WEBHOOK_PURGE: QueueSpec = {
  name: 'webhook-purge',
  retryLimit: 2,
  retryDelaySeconds: 60,
  expireInSeconds: 15 * 60,
  retentionMinutes: 60,
};

export const WEBHOOK_PURGE_EVERY_SECONDS = 60 * 60;
/** Days a delivery (with its attempt log) and an event are kept. */
export const WEBHOOK_RETENTION_DAYS = 30;
const PURGE_BATCH = 5000;
const MAX_BATCHES = 200;

/**
 * Deliveries older than 30 days go, then the events older than 30 days that no delivery refers
 * to any more (an old event replayed lately stays with its replay). Each batch is one short
 * DELETE. Every instance asks for a run at boot and hourly; pg-boss keeps one per hour
 * (`sendOncePer`) and hands it to one instance.
 */
@Injectable()
export class WebhookRetentionJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: WebhooksRepository,
    private readonly jobs: JobsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.work(WEBHOOK_PURGE, () => this.run().then(() => undefined));
    this.timer = setInterval(() => void this.schedule(), WEBHOOK_PURGE_EVERY_SECONDS * 1000);
    this.timer.unref();
    await this.schedule();
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** The handler: answers how many deliveries and events went. */
  async run(now = new Date()): Promise<{ deliveries: number; events: number }> {
    const before = new Date(now.getTime() - WEBHOOK_RETENTION_DAYS * 24 * 3600 * 1000);
    const purged = { deliveries: 0, events: 0 };
    for (const [key, purge] of [
      ['deliveries', (n: number) => this.repo.purgeDeliveries(this.db.manager, before, n)],
      ['events', (n: number) => this.repo.purgeEvents(this.db.manager, before, n)],
    ] as const) {
      for (let i = 0; i < MAX_BATCHES; i++) {
        const deleted = await purge(PURGE_BATCH);
        purged[key] += deleted;
        if (deleted < PURGE_BATCH) {
          break;
        }
      }
    }
    if (purged.deliveries || purged.events) {
      this.logger.log({ ...purged, before: before.toISOString() }, 'webhook deliveries purged');
    }
    return purged;
  }

  private async schedule(): Promise<void> {
    try {
      await this.jobs.sendOncePer(WEBHOOK_PURGE, WEBHOOK_PURGE.name, WEBHOOK_PURGE_EVERY_SECONDS);
    } catch (e) {
      this.logger.warn({ err: (e as Error).message }, 'webhook purge not queued');
    }
  }
}
