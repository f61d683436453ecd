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

/** Random bytes for event ids, drawn in blocks: a `randomBytes` call per id cost 60 µs (profile). */
const ID_BYTES = 26;
let randomPool = Buffer.alloc(0);
let randomAt = 0;

/** The `webhook-id` of an event: `msg_` and 26 base32 characters of randomness, as Standard Webhooks suggests. */
export function eventId(): string {
  if (randomAt + ID_BYTES > randomPool.length) {
    randomPool = randomBytes(ID_BYTES * 256);
    randomAt = 0;
  }
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let out = 'msg_';
  for (let i = randomAt; i < randomAt + ID_BYTES; i++) {
    out += alphabet[randomPool[i] & 31];
  }
  randomAt += ID_BYTES;
  return out;
}

/**
 * The outbox: a module reports its events inside the transaction of its change (`emit`), which
 * writes each event an enabled endpoint subscribes to and the endpoints it is for (a fan-out row),
 * in that transaction: a rolled-back change sends nothing, a committed one is delivered whatever
 * happens to this process afterwards (any instance's delivery worker turns fan-out rows into
 * deliveries and jobs). Call `wake` after the commit.
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
   * Whether any endpoint is enabled, for a writer that would take a cheaper path (no transaction,
   * no outbox statement) when nothing can be delivered. Bound: an endpoint enabled on this
   * instance counts at once (`invalidate`), one enabled on another within ACTIVE_TTL_MS. Inside a
   * transaction pass its `em`: a miss is read on the transaction's own connection, never by
   * waiting for another one of the pool (writers holding every connection while they wait for
   * a row this one has locked would never give one back).
   */
  active(em?: EntityManager): Awaitable<boolean> {
    return this.activeCache.getOrLoad('active', async () => (await this.repo.enabledCount(em)) > 0);
  }

  /** An endpoint was created, enabled, disabled or removed on this instance. */
  invalidate(): void {
    this.activeCache.invalidate();
  }

  /**
   * Writes the events an enabled endpoint subscribes to, and who each is for, in one statement of
   * the caller's transaction (the endpoints are read there too), when `active` says an endpoint
   * is enabled: one enabled on another instance gets events from this one within ACTIVE_TTL_MS.
   * The delivery worker makes their deliveries after the commit.
   */
  async emit(em: EntityManager, events: readonly WebhookEventInput[]): Promise<void> {
    // No enabled endpoint (as `active` knows it): no statement at all, the common case.
    if (!events.length || !(await this.active(em))) {
      return;
    }
    const timestamp = new Date().toISOString();
    const written = await this.repo.writeEvents(
      em,
      events.map((e) => ({
        id: eventId(),
        type: e.type,
        payload: { type: e.type, timestamp, data: e.data },
        collection: e.collection ?? null,
      })),
    );
    if (written) {
      this.queued = true;
    }
  }

  /**
   * For a writer that writes its change and its events in one statement, with no transaction: the
   * CTEs that write the events of its relation `ev` (id, type, payload, collection, ord: see
   * `outboxCtes`), to follow `ev AS (...), `; the relation `fanned` then has a row per event
   * written, whose count it passes to `queuedInline` after the statement.
   */
  inlineCtes(): string {
    return outboxCtes();
  }

  /** A statement made with `inlineCtes` wrote `events`: see `wake`. */
  queuedInline(events: number): void {
    if (events > 0) {
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
   * After the commit: this instance's worker fans the new events out now rather than at its next
   * poll. Free when nothing was queued (most writes: no endpoint subscribed).
   */
  wake(): void {
    if (this.queued) {
      this.queued = false;
      this.jobs.wake(WEBHOOK_DELIVERY);
    }
  }
}
