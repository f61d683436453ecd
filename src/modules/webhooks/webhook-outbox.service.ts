import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { type Awaitable, TtlCache } from '../../common/cache';
import { JobsService, QueueSpec } from '../../jobs/jobs.service';
import { outboxCtes, WebhookOutboxRepository } from './webhook-outbox.repository';
import type { WebhookEventInput } from './webhooks.types';

/**
 * One attempt of one delivery per job. The queue's own retries cover a lost database or a crash
 * (an attempt still active after 30 s is taken as dead and made again, with the same
 * `webhook-id`); the delivery's retries after a failed answer are new jobs with their own delay.
 */
export const WEBHOOK_DELIVERY: QueueSpec = {
  name: 'webhook-delivery',
  retryLimit: 10,
  retryDelaySeconds: 2,
  expireInSeconds: 30,
  retentionMinutes: 7 * 24 * 60,
};

/** How long `active` trusts what it read. */
export const ACTIVE_TTL_MS = 1000;

/** The `webhook-id` of an event: `msg_` and 26 base32 characters of randomness, as Standard Webhooks suggests. */
export function eventId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = randomBytes(26);
  let out = 'msg_';
  for (const b of bytes) {
    out += alphabet[b & 31];
  }
  return out;
}

/**
 * The outbox: a module reports its events inside the transaction of its change (`emit`), which
 * writes each event, a delivery for every enabled endpoint subscribed to it, and a job per
 * delivery, all in that transaction: a rolled-back change sends nothing, a committed one is
 * delivered whatever happens to this process afterwards. Call `wake` after the commit.
 */
@Injectable()
export class WebhookOutbox {
  /** Deliveries were queued since the last `wake`: only then is there anything to fetch early. */
  private queued = false;
  /** Whether any endpoint is enabled: see `active`. */
  private readonly activeCache = new TtlCache<'active', boolean>({ ttlMs: ACTIVE_TTL_MS, max: 1 });

  constructor(
    private readonly repo: WebhookOutboxRepository,
    private readonly jobs: JobsService,
  ) {}

  /**
   * Whether any endpoint is enabled, for a writer that would take a cheaper path (no transaction)
   * when nothing can be delivered. Bound: an endpoint enabled on this instance counts at once
   * (`invalidate`), one enabled on another within ACTIVE_TTL_MS.
   */
  active(): Awaitable<boolean> {
    return this.activeCache.getOrLoad('active', async () => (await this.repo.enabledCount()) > 0);
  }

  /** An endpoint was created, enabled, disabled or removed on this instance. */
  invalidate(): void {
    this.activeCache.invalidate();
  }

  /**
   * Writes the events an enabled endpoint subscribes to, their deliveries and jobs, in one
   * statement of the caller's transaction (the endpoints are read there too: one enabled on
   * another instance a moment ago gets the event).
   */
  async emit(em: EntityManager, events: readonly WebhookEventInput[]): Promise<void> {
    if (!events.length) {
      return;
    }
    const timestamp = new Date().toISOString();
    const jobsSql = this.jobs.insertJobsSql(WEBHOOK_DELIVERY, 'new_jobs');
    const ids = await this.repo.writeEvents(
      em,
      events.map((e) => ({
        id: eventId(),
        type: e.type,
        payload: { type: e.type, timestamp, data: e.data },
        collection: e.collection ?? null,
      })),
      jobsSql,
    );
    if (ids.length) {
      this.queued = true;
      if (jobsSql === null) {
        // Before the job queue started (the schema sync at boot): its jobs in a statement of their own.
        await this.jobs.sendMany(
          em,
          WEBHOOK_DELIVERY,
          ids.map((deliveryId) => ({ data: { deliveryId } })),
        );
      }
    }
  }

  /**
   * For a writer that writes its change and its events in one statement, with no transaction: the
   * CTEs that write the events of its relation `ev` (id, type, payload, collection, ord: see
   * `outboxCtes`), to follow `ev AS (...), `; the relation `delivered` then has a row per
   * delivery, which it passes to `queuedInline` after the statement. Null before the job queue
   * started: then it writes the `emit` way.
   */
  inlineCtes(): string | null {
    const jobs = this.jobs.insertJobsSql(WEBHOOK_DELIVERY, 'new_jobs');
    return jobs === null ? null : outboxCtes(jobs);
  }

  /** A statement made with `inlineCtes` wrote `deliveries`: see `wake`. */
  queuedInline(deliveries: number): void {
    if (deliveries > 0) {
      this.queued = true;
    }
  }

  /**
   * Writes events and deliveries as given, with their jobs (the test event and replays name their
   * endpoint themselves). Answers the deliveries' ids.
   */
  async queue(
    em: EntityManager,
    events: ReadonlyArray<{ id: string; type: string; payload: object }>,
    deliveries: ReadonlyArray<{ endpointId: string; eventId: string; event: string }>,
  ): Promise<string[]> {
    if (!deliveries.length) {
      return [];
    }
    if (events.length) {
      await this.repo.insertEvents(em, events);
    }
    const ids = await this.repo.insertDeliveries(em, deliveries);
    this.queued = true;
    await this.jobs.sendMany(
      em,
      WEBHOOK_DELIVERY,
      ids.map((deliveryId) => ({ data: { deliveryId } })),
    );
    return ids;
  }

  /**
   * After the commit: this instance's worker fetches the new deliveries now rather than at its
   * next poll. Free when nothing was queued (most writes: no endpoint subscribed).
   */
  wake(): void {
    if (this.queued) {
      this.queued = false;
      this.jobs.wake(WEBHOOK_DELIVERY);
    }
  }
}
