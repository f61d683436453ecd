import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { AuditService } from '../modules/audit/audit.service';
import { SVC_OPTIONS, SvcOptions } from '../config/svc-options';
import { JobsService, QueueSpec } from './jobs.service';

/**
 * The audit log's retention purge (CONTRACTS 14.3, `auth.auditRetentionDays`). Three attempts a
 * minute or two apart; an attempt is cut off after 15 minutes; a run not started within an hour
 * is dropped (the next hour's takes its place).
 */
export const AUDIT_PURGE: QueueSpec = {
  name: 'audit-purge',
  retryLimit: 2,
  retryDelaySeconds: 60,
  expireInSeconds: 15 * 60,
  retentionMinutes: 60,
};

/** A purge is queued once an hour (the slot is shared by every instance: one job per hour). */
export const AUDIT_PURGE_EVERY_SECONDS = 60 * 60;

/**
 * Deletes audit rows older than `auth.auditRetentionDays` days, in bounded batches (one short
 * DELETE of at most 5000 rows each, AuditService.purgeOlderThan). Every instance asks for a run
 * at boot and then hourly; pg-boss keeps one job per hour slot (`sendOncePer`) and hands it to
 * one instance, so the instances share the work and a run survives a restart.
 */
@Injectable()
export class AuditPurgeJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Audit');
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly jobs: JobsService,
    private readonly audit: AuditService,
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.work(AUDIT_PURGE, () => this.run().then(() => undefined));
    this.timer = setInterval(() => void this.schedule(), AUDIT_PURGE_EVERY_SECONDS * 1000);
    this.timer.unref();
    await this.schedule();
  }

  beforeApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** The handler: rows older than the retention go; answers how many. */
  async run(now = new Date()): Promise<number> {
    const days = this.options.config.auth.auditRetentionDays;
    const before = new Date(now.getTime() - days * 24 * 60 * 60 * 1000);
    const deleted = await this.audit.purgeOlderThan(before);
    if (deleted) {
      this.logger.log({ deleted, before: before.toISOString(), retentionDays: days }, 'audit rows purged');
    }
    return deleted;
  }

  private async schedule(): Promise<void> {
    try {
      await this.jobs.sendOncePer(AUDIT_PURGE, AUDIT_PURGE.name, AUDIT_PURGE_EVERY_SECONDS);
    } catch (e) {
      this.logger.warn({ err: (e as Error).message }, 'audit purge not queued');
    }
  }
}
