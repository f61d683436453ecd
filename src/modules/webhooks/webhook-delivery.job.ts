import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { SecretBox } from '../../common/secret-box';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { JobsService } from '../../jobs/jobs.service';
import { WEBHOOK_DELIVERY, WebhookOutbox } from './webhook-outbox.service';
import { WEBHOOK_SECRET_BOX } from './webhook-secrets';
import { attempt, AttemptResult } from './webhook-sender';
import { AttemptLogEntry, AttemptTarget, WebhooksRepository } from './webhooks.repository';

/** Deliveries one instance attempts at once (each a pg-boss worker of its own). */
export const WEBHOOK_CONCURRENCY = 5;
/** The longest wait between two attempts of a delivery. */
export const MAX_RETRY_DELAY_MS = 6 * 3600 * 1000;
/**
 * How long a first attempt gives way to an earlier event of the same subject to the same endpoint
 * that has not had its first attempt (in flight on another worker, or not fetched yet); past it,
 * it goes anyway (the earlier one's process may have died: its job comes back after 30 s).
 */
const ORDER_WAIT_MS = 10_000;
/** How soon a delivery that gave way looks again. */
const ORDER_RECHECK_MS = 100;
/** A retry due within this long is fetched on time by a timer of this instance, not by the 2 s poll. */
const WAKE_WITHIN_MS = 60_000;

/** `baseDelayMs * 2^(n-1)` after the n-th failed attempt, ±20%, at most 6 hours. */
export function retryDelay(baseDelayMs: number, failedAttempts: number, random = Math.random()): number {
  const delay = baseDelayMs * 2 ** (failedAttempts - 1) * (0.8 + 0.4 * random);
  return Math.round(Math.min(delay, MAX_RETRY_DELAY_MS));
}

/** A job of the queue: the delivery, and since when it gives way to earlier events (ms). */
interface DeliveryJob {
  deliveryId: string;
  waitingSince?: number;
}

/**
 * The delivery worker: one job (`{ deliveryId }`) is one attempt. It loads the delivery (pending
 * and due, else nothing to do), makes the signed request outside any transaction, then writes the
 * result in one transaction that first checks the delivery still is pending with the attempts it
 * had (a job run twice, say after its process was taken for dead, records once), together with
 * what follows: the endpoint's failure run or its reset, its disabling, or the retry's job.
 */
@Injectable()
export class WebhookDeliveryJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopping = false;

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: WebhooksRepository,
    private readonly jobs: JobsService,
    private readonly outbox: WebhookOutbox,
    @Inject(WEBHOOK_SECRET_BOX) private readonly box: SecretBox,
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.work<DeliveryJob>(WEBHOOK_DELIVERY, (job) => this.run(job.data), {
      concurrency: WEBHOOK_CONCURRENCY,
    });
  }

  beforeApplicationShutdown(): void {
    this.stopping = true;
    for (const timer of this.timers) {
      clearTimeout(timer);
    }
    this.timers.clear();
  }

  /** The handler of one job. */
  async run(job: DeliveryJob): Promise<void> {
    const { deliveryId } = job;
    const target = await this.repo.attemptTarget(this.db.manager, deliveryId);
    if (!target) {
      return;
    }
    if (!target.enabled) {
      // Events that happen while an endpoint is disabled are never delivered to it.
      if (
        await this.repo.endUnattempted(
          this.db.manager,
          target.id,
          target.attempts,
          'The endpoint is disabled',
        )
      ) {
        this.logger.log(
          { deliveryId, webhookId: target.endpoint_id },
          'webhook delivery dropped: endpoint disabled',
        );
      }
      return;
    }
    if (target.attempts === 0 && (await this.givesWay(target, job.waitingSince ?? Date.now()))) {
      return;
    }
    const config = this.options.config.webhooks;
    let secret: string | null = null;
    try {
      secret = this.box.open(target.secret);
    } catch {
      this.logger.error({ webhookId: target.endpoint_id }, 'webhook signing secret cannot be decrypted');
    }
    const { type, timestamp, data } = target.payload;
    const result: AttemptResult = secret
      ? await attempt({
          url: target.url,
          eventId: target.event_id,
          // The body as the API shows the payload: type, timestamp, data (jsonb keeps keys its own way).
          body: JSON.stringify({ type, timestamp, data }),
          secret,
          timeoutMs: config.timeoutMs,
          allowPrivateNetworks: config.allowPrivateNetworks,
        })
      : {
          at: new Date(),
          durationMs: 0,
          ok: false,
          error: 'The signing secret cannot be decrypted (was SVC_SECRET changed?): rotate it',
        };
    await this.record(target, result);
  }

  /**
   * So the events of one entry arrive in the order they happened: while an earlier event of the
   * same subject to the same endpoint has not had its first attempt, this delivery's job is put
   * off by ORDER_RECHECK_MS (a job of its own, so no worker sits waiting for a job that no free
   * worker could fetch), up to ORDER_WAIT_MS after it first gave way. Answers whether it did.
   */
  private async givesWay(target: AttemptTarget, since: number): Promise<boolean> {
    if (
      target.subject === null ||
      this.stopping ||
      Date.now() - since >= ORDER_WAIT_MS ||
      !(await this.repo.earlierPending(this.db.manager, target))
    ) {
      return false;
    }
    await this.jobs.send(
      this.db.manager,
      WEBHOOK_DELIVERY,
      { deliveryId: target.id, waitingSince: since } satisfies DeliveryJob,
      { startAfter: new Date(Date.now() + ORDER_RECHECK_MS) },
    );
    this.wakeAfter(ORDER_RECHECK_MS);
    return true;
  }

  private async record(target: AttemptTarget, result: AttemptResult): Promise<void> {
    const { retry, disableAfterFailures } = this.options.config.webhooks;
    const made = target.attempts + 1;
    const gone = result.statusCode === 410;
    const again = !result.ok && !gone && made < retry.attempts;
    const delay = again ? retryDelay(retry.baseDelayMs, made) : 0;
    const next = again ? new Date(Date.now() + delay) : null;
    const log: AttemptLogEntry = {
      at: result.at.toISOString(),
      ...(result.statusCode === undefined ? {} : { statusCode: result.statusCode }),
      ...(result.error === undefined ? {} : { error: result.error }),
      durationMs: result.durationMs,
      ...(result.responseBody === undefined ? {} : { responseBody: result.responseBody }),
    };
    let disabledNow = false;
    const written = await this.db.transaction(async (em) => {
      const recorded = await this.repo.recordAttempt(em, target.id, target.attempts, {
        status: result.ok ? 'succeeded' : again ? 'pending' : 'failed',
        statusCode: result.statusCode ?? null,
        error: result.error ?? null,
        nextAttemptAt: next,
        log,
      });
      if (!recorded) {
        return false;
      }
      if (result.ok) {
        await this.repo.endpointSucceeded(em, target.endpoint_id);
      } else if (again) {
        await this.jobs.send(em, WEBHOOK_DELIVERY, { deliveryId: target.id }, { startAfter: next! });
      } else {
        const endpoint = await this.repo.endpointFailed(em, target.endpoint_id, {
          gone,
          limit: disableAfterFailures,
          goneReason: 'The endpoint answered 410 Gone',
          limitReason: `${disableAfterFailures} deliveries failed in a row`,
        });
        disabledNow = endpoint !== null && !endpoint.enabled;
      }
      return true;
    });
    const context = {
      deliveryId: target.id,
      webhookId: target.endpoint_id,
      eventId: target.event_id,
      attempt: made,
      statusCode: result.statusCode,
      durationMs: result.durationMs,
    };
    if (!written) {
      // Another run of this job recorded this attempt first.
      this.logger.debug(context, 'webhook attempt already recorded');
      return;
    }
    if (result.ok) {
      this.logger.log(context, 'webhook delivered');
    } else {
      this.logger.warn(
        { ...context, error: result.error, ...(again ? { retryInMs: delay } : {}) },
        again ? 'webhook attempt failed' : 'webhook delivery failed',
      );
    }
    if (disabledNow) {
      this.outbox.invalidate();
      this.logger.warn({ webhookId: target.endpoint_id, gone }, 'webhook endpoint disabled');
    }
    if (again && delay <= WAKE_WITHIN_MS) {
      this.wakeAfter(delay);
    }
  }

  /** The retry's job waits for its time; this instance's workers look for it then. */
  private wakeAfter(delay: number): void {
    if (this.stopping) {
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.jobs.wake(WEBHOOK_DELIVERY);
    }, delay + 20);
    timer.unref();
    this.timers.add(timer);
  }
}
