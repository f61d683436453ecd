import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { requestsInFlight } from '../../common/request-load';
import type { SecretBox } from '../../common/secret-box';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { Job, JobsService } from '../../jobs/jobs.service';
import { GiveWay } from './give-way';
import { WebhookOutboxRepository } from './webhook-outbox.repository';
import { WEBHOOK_DELIVERY, WebhookOutbox } from './webhook-outbox.service';
import { WEBHOOK_SECRET_BOX } from './webhook-secrets';
import { attempt, AttemptResult } from './webhook-sender';
import { AttemptLogEntry, AttemptTarget, WebhooksRepository } from './webhooks.repository';
import { MetricsService } from '../metrics/metrics.service';

/** Attempts one instance makes at once (each job fetched holds a place until it is recorded). */
export const WEBHOOK_CONCURRENCY = 32;
/** Jobs taken at most per fetch. */
const FETCH_BATCH = 50;
/** Recorded events turned into deliveries at most per statement. */
const FANOUT_BATCH = 500;
/**
 * How often an idle worker looks for events to fan out and due jobs (another instance's, retries,
 * crashed ones).
 */
const POLL_MS = 2000;
/**
 * How long a wake (a commit that recorded events) waits before fanning out and fetching, so the
 * wakes of a busy moment share one fan-out, one fetch, one load and one record instead of each
 * paying for its own.
 */
const WAKE_DELAY_MS = 50;
/**
 * Deliveries give way to a burst of requests (GiveWay): while this instance answers at least
 * BUSY_REQUESTS requests at once, the worker neither fans out nor fetches (it looks again every
 * BUSY_RECHECK_MS), until the work it put off is MAX_GIVE_WAY_MS old; then it delivers at full
 * speed whatever the load until nothing is due.
 */
const BUSY_REQUESTS = 4;
const BUSY_RECHECK_MS = 250;
const MAX_GIVE_WAY_MS = 5000;
/** The longest wait between two attempts of a delivery. */
export const MAX_RETRY_DELAY_MS = 6 * 3600 * 1000;
/**
 * How long a first attempt gives way to an earlier event of the same subject to the same endpoint
 * that has not had its first attempt (in flight on another instance, or not fetched yet); past it,
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

/** A fetched job once its work is done, waiting to be recorded and completed. */
interface Finished {
  jobId: string;
  /** The delivery, when this job holds it (not when another job of it was in hand already). */
  deliveryId?: string;
  /** The attempt made, or the delivery dropped (endpoint disabled); neither: nothing to record. */
  attempt?: { target: AttemptTarget; result: AttemptResult };
  dropped?: AttemptTarget;
}

/**
 * The delivery worker. A write records its events and the endpoints each is for (fan-out rows,
 * WebhookOutbox); the worker turns them into deliveries and jobs in batches, in the order they
 * happened, one instance at a time. One job (`{ deliveryId }`) is one attempt. The worker takes
 * due jobs in batches, up to WEBHOOK_CONCURRENCY at a time, loads their deliveries in one query,
 * and makes each signed request outside any transaction (the events of one subject to one
 * endpoint in the order they happened). Finished attempts are recorded together: one transaction writes every
 * result that is waiting (each only if its delivery still is pending with the attempts it had, so
 * a job run twice, say after its process was taken for dead, records once), the endpoints' failure
 * runs, resets and disablings, and the retries' jobs; then one statement completes the jobs. A
 * process that dies before that leaves its jobs active: after 30 s they are attempted again, with
 * the same `webhook-id`.
 */
@Injectable()
export class WebhookDeliveryJob implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly timers = new Set<NodeJS.Timeout>();
  private poller: NodeJS.Timeout | undefined;
  private wakeTimer: NodeJS.Timeout | undefined;
  private stopping = false;
  /** Jobs fetched and not yet recorded. */
  private held = 0;
  /** The deliveries of those jobs. */
  private readonly local = new Set<string>();
  private fetching = false;
  private readonly requestsFirst = new GiveWay(BUSY_REQUESTS, MAX_GIVE_WAY_MS);
  /** The next look while giving way. */
  private busyTimer: NodeJS.Timeout | undefined;
  private fanning = false;
  /** A fan-out was asked for while one ran. */
  private fanAgain = false;
  /** A fetch was asked for while one ran or every place was taken (or the last fetch was full). */
  private wanted = false;
  private readonly finished: Finished[] = [];
  private flushing: Promise<void> | null = null;
  /** Per endpoint and subject, the last attempt of this instance: the next one waits for it. */
  private readonly chains = new Map<string, Promise<void>>();
  /** Work under way, for the shutdown to wait for. */
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: WebhooksRepository,
    private readonly jobs: JobsService,
    private readonly outbox: WebhookOutbox,
    private readonly fanout: WebhookOutboxRepository,
    @Inject(WEBHOOK_SECRET_BOX) private readonly box: SecretBox,
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
    private readonly metrics: MetricsService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.declare(WEBHOOK_DELIVERY);
    this.jobs.register(WEBHOOK_DELIVERY, { wake: () => this.wake(), stop: () => this.stop() });
    this.poller = setInterval(() => this.cycle(), POLL_MS);
    this.poller.unref();
    this.cycle();
  }

  beforeApplicationShutdown(): Promise<void> {
    return this.stop();
  }

  /**
   * No new fetch; attempts under way finish (each ends within its timeout) and are recorded.
   * Jobs fetched but not recorded stay active and are attempted again after their expiry.
   */
  private async stop(): Promise<void> {
    this.stopping = true;
    clearInterval(this.poller);
    clearTimeout(this.wakeTimer);
    clearTimeout(this.busyTimer);
    for (const timer of this.timers) {
      clearTimeout(timer);
    }
    this.timers.clear();
    while (this.running.size) {
      await Promise.allSettled([...this.running]);
    }
  }

  private track<T>(work: Promise<T>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }

  /** New events were committed: fan them out and fetch shortly (see WAKE_DELAY_MS). */
  private wake(): void {
    if (this.wakeTimer === undefined && !this.stopping) {
      this.wakeTimer = setTimeout(() => {
        this.wakeTimer = undefined;
        this.cycle();
      }, WAKE_DELAY_MS);
      this.wakeTimer.unref();
    }
  }

  /** Fans recorded events out, then fetches; one fan-out at a time (once more after it if asked). */
  private cycle(): void {
    if (this.stopping) {
      return;
    }
    if (this.fanning) {
      this.fanAgain = true;
      return;
    }
    if (this.givingWay()) {
      return;
    }
    this.fanning = true;
    this.fanAgain = false;
    this.track(
      this.fanOut()
        .catch((e: Error) => this.logger.warn({ err: e.message }, 'webhook events could not be fanned out'))
        .finally(() => {
          this.fanning = false;
          this.pump();
          if (this.fanAgain) {
            this.cycle();
          }
        }),
    );
  }

  /**
   * Turns fan-out rows into deliveries and their jobs, a batch per statement, until none is left
   * (or another instance holds the fan-out: it takes them). Before the job queue started: nothing.
   */
  private async fanOut(): Promise<void> {
    const insertJobs = this.jobs.insertJobsSql(WEBHOOK_DELIVERY, 'new_jobs');
    while (insertJobs !== null && !this.stopping) {
      const done = await this.fanout.fanOut(this.db.manager, insertJobs, FANOUT_BATCH);
      if (!done.got || done.events < FANOUT_BATCH) {
        return;
      }
    }
  }

  /**
   * Whether to wait because requests are busy (see MAX_GIVE_WAY_MS); then a fan-out and a fetch
   * are tried again BUSY_RECHECK_MS later.
   */
  private givingWay(): boolean {
    if (!this.requestsFirst.wait(requestsInFlight(), Date.now())) {
      return false;
    }
    if (this.busyTimer === undefined) {
      this.busyTimer = setTimeout(() => {
        this.busyTimer = undefined;
        this.cycle();
      }, BUSY_RECHECK_MS);
      this.busyTimer.unref();
    }
    return true;
  }

  /** Fetches due jobs into the free places, unless a fetch is under way (then once more after it). */
  private pump(): void {
    if (this.stopping) {
      return;
    }
    const free = WEBHOOK_CONCURRENCY - this.held;
    if (this.fetching || free <= 0) {
      this.wanted = true;
      return;
    }
    if (this.givingWay()) {
      return;
    }
    this.wanted = false;
    this.fetching = true;
    const count = Math.min(free, FETCH_BATCH);
    this.track(
      this.jobs
        .fetch<DeliveryJob>(WEBHOOK_DELIVERY, count)
        .then((jobs) => {
          this.fetching = false;
          if (!jobs.length && !this.fanning) {
            // Nothing due: what was put off is done; the next burst may put work off again.
            this.requestsFirst.caughtUp();
          }
          if (jobs.length) {
            this.held += jobs.length;
            this.track(this.jobs.inJobContext({ queue: WEBHOOK_DELIVERY.name }, () => this.start(jobs)));
          }
          if (jobs.length === count || this.wanted) {
            this.pump();
          }
        })
        .catch((e: Error) => {
          this.fetching = false;
          this.logger.warn({ err: e.message }, 'webhook jobs could not be fetched');
        }),
    );
  }

  /** Loads the jobs' deliveries and starts their attempts. */
  private async start(jobs: ReadonlyArray<Job<DeliveryJob>>): Promise<void> {
    const fresh: Array<Job<DeliveryJob>> = [];
    for (const job of jobs) {
      if (this.local.has(job.data.deliveryId)) {
        // Another job of this delivery is in hand here (a retry's and an expired one's, say).
        this.finish({ jobId: job.id });
      } else {
        this.local.add(job.data.deliveryId);
        fresh.push(job);
      }
    }
    let targets: AttemptTarget[];
    try {
      targets = await this.repo.attemptTargets(
        this.db.manager,
        fresh.map((j) => j.data.deliveryId),
        [...this.local],
      );
    } catch (e) {
      // The jobs stay active and come back after their expiry.
      this.logger.warn({ err: (e as Error).message }, 'webhook deliveries could not be loaded');
      this.release(fresh.map((j) => j.data.deliveryId));
      return;
    }
    const jobOf = new Map(fresh.map((j) => [j.data.deliveryId, j]));
    for (const job of fresh) {
      if (!targets.some((t) => t.id === job.data.deliveryId)) {
        // Not pending, or its retry is not due: nothing to do.
        this.finish({ jobId: job.id, deliveryId: job.data.deliveryId });
      }
    }
    // In the order the deliveries were written, so each chain of one subject is in that order.
    for (const target of targets) {
      const job = jobOf.get(target.id)!;
      const done: Finished = { jobId: job.id, deliveryId: target.id };
      if (!target.enabled) {
        // Events that happen while an endpoint is disabled are never delivered to it.
        this.finish({ ...done, dropped: target });
      } else if (target.behind && (await this.giveWay(target, job.data.waitingSince))) {
        this.finish(done);
      } else {
        this.chain(target, () =>
          this.attempt(target).then((result) => this.finish({ ...done, attempt: { target, result } })),
        );
      }
    }
  }

  /** Runs `work` after this instance's earlier attempt of the same subject to the same endpoint. */
  private chain(target: AttemptTarget, work: () => Promise<void>): void {
    if (target.subject === null) {
      void work();
      return;
    }
    const key = `${target.endpoint_id} ${target.subject}`;
    const next = (this.chains.get(key) ?? Promise.resolve()).then(work);
    this.chains.set(key, next);
    void next.finally(() => {
      if (this.chains.get(key) === next) {
        this.chains.delete(key);
      }
    });
  }

  /**
   * So the events of one entry arrive in the order they happened: while an earlier event of the
   * same subject to the same endpoint has not had its first attempt elsewhere, this delivery's job
   * is put off by ORDER_RECHECK_MS (a job of its own, so no place is held waiting), up to
   * ORDER_WAIT_MS after it first gave way. Answers whether it did.
   */
  private async giveWay(target: AttemptTarget, waitingSince: number | undefined): Promise<boolean> {
    const since = waitingSince ?? Date.now();
    if (this.stopping || Date.now() - since >= ORDER_WAIT_MS) {
      return false;
    }
    try {
      await this.jobs.send(
        this.db.manager,
        WEBHOOK_DELIVERY,
        { deliveryId: target.id, waitingSince: since } satisfies DeliveryJob,
        { startAfter: new Date(Date.now() + ORDER_RECHECK_MS) },
      );
    } catch {
      return false;
    }
    this.wakeAfter(ORDER_RECHECK_MS);
    return true;
  }

  /** One signed request; never throws. */
  private async attempt(target: AttemptTarget): Promise<AttemptResult> {
    const config = this.options.config.webhooks;
    let secret: string | null = null;
    try {
      secret = this.box.open(target.secret);
    } catch {
      this.logger.error({ webhookId: target.endpoint_id }, 'webhook signing secret cannot be decrypted');
    }
    if (!secret) {
      return {
        at: new Date(),
        durationMs: 0,
        ok: false,
        error: 'The signing secret cannot be decrypted (was SVC_SECRET changed?): rotate it',
      };
    }
    const { type, timestamp, data } = target.payload;
    return attempt({
      url: target.url,
      eventId: target.event_id,
      // The body as the API shows the payload: type, timestamp, data (jsonb keeps keys its own way).
      body: JSON.stringify({ type, timestamp, data }),
      secret,
      timeoutMs: config.timeoutMs,
      allowPrivateNetworks: config.allowPrivateNetworks,
    });
  }

  /** A job's work is done: it waits for the next record (one runs at a time; the next takes all that came). */
  private finish(done: Finished): void {
    this.finished.push(done);
    if (!this.flushing) {
      const flushing = this.flush().finally(() => {
        this.flushing = null;
      });
      this.flushing = flushing;
      this.track(flushing);
    }
  }

  private async flush(): Promise<void> {
    while (this.finished.length) {
      const batch = this.finished.splice(0);
      try {
        await this.record(batch);
        await this.jobs.complete(
          WEBHOOK_DELIVERY,
          batch.map((d) => d.jobId),
        );
      } catch (e) {
        // Unrecorded: the jobs stay active and the attempts are made again after their expiry.
        this.logger.warn({ err: (e as Error).message }, 'webhook attempts could not be recorded');
      }
      this.release(batch.map((d) => d.deliveryId));
    }
  }

  /** Frees the places of these jobs (by their deliveries), and fetches into them if jobs are waiting. */
  private release(deliveryIds: ReadonlyArray<string | undefined>): void {
    for (const id of deliveryIds) {
      if (id !== undefined) {
        this.local.delete(id);
      }
    }
    this.held -= deliveryIds.length;
    if (this.wanted) {
      this.pump();
    }
  }

  /** Writes a batch of results in one transaction, then logs each. */
  private async record(batch: readonly Finished[]): Promise<void> {
    const { retry, disableAfterFailures } = this.options.config.webhooks;
    const attempts = batch.flatMap((d) => (d.attempt ? [d.attempt] : []));
    const dropped = batch.flatMap((d) => (d.dropped ? [d.dropped] : []));
    if (!attempts.length && !dropped.length) {
      return;
    }
    const outcomes = attempts.map(({ target, result }) => {
      const made = target.attempts + 1;
      const gone = result.statusCode === 410;
      const again = !result.ok && !gone && made < retry.attempts;
      const delay = again ? retryDelay(retry.baseDelayMs, made) : 0;
      const log: AttemptLogEntry = {
        at: result.at.toISOString(),
        ...(result.statusCode === undefined ? {} : { statusCode: result.statusCode }),
        ...(result.error === undefined ? {} : { error: result.error }),
        durationMs: result.durationMs,
        ...(result.responseBody === undefined ? {} : { responseBody: result.responseBody }),
      };
      return {
        target,
        result,
        made,
        gone,
        again,
        delay,
        next: again ? new Date(Date.now() + delay) : null,
        log,
      };
    });
    const { written, droppedNow, disabled } = await this.db.transaction(async (em) => {
      const written = await this.repo.recordAttempts(
        em,
        outcomes.map((o) => ({
          id: o.target.id,
          startedAt: o.target.attempts,
          status: o.result.ok ? 'succeeded' : o.again ? 'pending' : 'failed',
          statusCode: o.result.statusCode ?? null,
          error: o.result.error ?? null,
          nextAttemptAt: o.next,
          log: o.log,
        })),
      );
      const droppedNow: AttemptTarget[] = [];
      for (const t of dropped) {
        if (await this.repo.endUnattempted(em, t.id, t.attempts, 'The endpoint is disabled')) {
          droppedNow.push(t);
        }
      }
      // Per endpoint, in the order the attempts ended: a success starts its failure run again;
      // a delivery that failed for good (no retry left, or 410) adds to it.
      const runs = new Map<string, { id: string; reset: boolean; failures: number; gone: boolean }>();
      for (const o of outcomes) {
        if (!written.has(o.target.id) || (!o.result.ok && o.again)) {
          continue;
        }
        const run = runs.get(o.target.endpoint_id) ?? {
          id: o.target.endpoint_id,
          reset: false,
          failures: 0,
          gone: false,
        };
        if (o.result.ok) {
          run.reset = true;
          run.failures = 0;
        } else {
          run.failures++;
          run.gone ||= o.gone;
        }
        runs.set(run.id, run);
      }
      const disabled = await this.repo.endpointResults(em, [...runs.values()], {
        limit: disableAfterFailures,
        goneReason: 'The endpoint answered 410 Gone',
        limitReason: `${disableAfterFailures} deliveries failed in a row`,
      });
      await this.jobs.sendMany(
        em,
        WEBHOOK_DELIVERY,
        outcomes
          .filter((o) => o.again && written.has(o.target.id))
          .map((o) => ({ data: { deliveryId: o.target.id } satisfies DeliveryJob, startAfter: o.next! })),
      );
      return { written, droppedNow, disabled };
    });
    for (const t of droppedNow) {
      this.logger.log(
        { deliveryId: t.id, webhookId: t.endpoint_id },
        'webhook delivery dropped: endpoint disabled',
      );
    }
    for (const o of outcomes) {
      if (written.has(o.target.id)) {
        this.metrics.delivery(o.result.ok ? 'delivered' : o.again ? 'retrying' : 'failed');
      }
      const context = {
        deliveryId: o.target.id,
        webhookId: o.target.endpoint_id,
        eventId: o.target.event_id,
        attempt: o.made,
        statusCode: o.result.statusCode,
        durationMs: o.result.durationMs,
      };
      if (!written.has(o.target.id)) {
        // Another run of this job recorded this attempt first.
        this.logger.debug(context, 'webhook attempt already recorded');
      } else if (o.result.ok) {
        this.logger.log(context, 'webhook delivered');
      } else {
        this.logger.warn(
          { ...context, error: o.result.error, ...(o.again ? { retryInMs: o.delay } : {}) },
          o.again ? 'webhook attempt failed' : 'webhook delivery failed',
        );
        if (o.again && o.delay <= WAKE_WITHIN_MS) {
          this.wakeAfter(o.delay);
        }
      }
    }
    if (disabled.length) {
      this.outbox.invalidate();
      for (const id of disabled) {
        this.logger.warn(
          { webhookId: id, gone: outcomes.some((o) => o.gone && o.target.endpoint_id === id) },
          'webhook endpoint disabled',
        );
      }
    }
  }

  /** A job that waits for its time: this instance looks for it then. */
  private wakeAfter(delay: number): void {
    if (this.stopping) {
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.pump();
    }, delay + 20);
    timer.unref();
    this.timers.add(timer);
  }
}
