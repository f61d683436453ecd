import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { PARAMS_PROVIDER_TOKEN, type Params } from 'nestjs-pino';
import { Store, storage } from 'nestjs-pino/storage';
import PgBoss from 'pg-boss';
import type { Logger as PinoLogger } from 'pino';
import type { DataSource, EntityManager } from 'typeorm';
import { rootLoggerOf } from '../common/logger';
import { rows } from '../database/sql';
import { SVC_CONNECTION } from '../config/svc-options';
import { jobsConnectionOptions } from './jobs-connection';
import { reportJobEndingFailures } from './pg-boss-completion';

/**
 * pg-boss's tables live in a schema of the service's own rather than pg-boss's default `pgboss`:
 * a host application on the same database may run its own pg-boss, of another version.
 */
export const JOBS_SCHEMA = 'svc_pgboss';

/** How the jobs of one queue are retried and kept; applied to every job sent (code decides). */
export interface QueueSpec {
  name: string;
  /** Attempts after the first one. */
  retryLimit: number;
  /** Before the first retry; doubled for each later one, with up to 100% jitter (pg-boss backoff). */
  retryDelaySeconds: number;
  /** An attempt still active after this long counts as failed (the process died) and is retried. */
  expireInSeconds: number;
  /** A job not started within this long is dropped. */
  retentionMinutes: number;
}

/** A pg-boss job with its attempt count and retry limit, so a handler can tell its last try. */
export type Job<T> = PgBoss.JobWithMetadata<T>;

/**
 * pg-boss on the service's own database: jobs are rows, so one inserted through a transaction's
 * EntityManager exists exactly when that transaction commits, and a job whose process died is
 * picked up again (by this instance after a restart, or by any other). Every instance works every
 * queue; pg-boss hands each job to one of them (`FOR UPDATE SKIP LOCKED`).
 */
@Injectable()
export class JobsService implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private readonly boss: PgBoss;
  private readonly rootLogger: PinoLogger;
  /** This instance's pg-boss worker per queue, for `wake`. */
  private readonly workers = new Map<string, string>();
  private started: Promise<unknown> | undefined;
  /** pg-boss has started: its schema exists. */
  private ready = false;
  /** The last queue creation asked for (see `work`). */
  private creating: Promise<unknown> = Promise.resolve();
  private stopping = false;
  /** Workers of their own (`register`), per queue. */
  private readonly ownWorkers = new Map<string, { wake: () => void; stop: () => Promise<void> }>();

  constructor(
    @InjectDataSource(SVC_CONNECTION) db: DataSource,
    @Inject(PARAMS_PROVIDER_TOKEN) logParams: Params,
  ) {
    this.rootLogger = rootLoggerOf(logParams);
    reportJobEndingFailures();
    this.boss = new PgBoss({
      ...jobsConnectionOptions(db.options),
      // Its own small pool: a poll every 2 s per queue and the maintenance run need no more.
      max: 2,
      application_name: 'svc-jobs',
      schema: JOBS_SCHEMA,
      // No cron schedules: skipping the timekeeper saves its queue, its worker and two timers.
      schedule: false,
      // Finished jobs move to the archive after an hour and leave it after a day: payloads hold
      // addresses (and sealed links), which should not pile up.
      archiveCompletedAfterSeconds: 60 * 60,
      deleteAfterDays: 1,
      // Maintenance (one instance at a time) also finds attempts past their queue's
      // `expireInSeconds`, e.g. of a process killed mid-job, and retries them: every 10 s rather
      // than pg-boss's 2 minutes, so a crashed scheduled publish runs again within seconds.
      maintenanceIntervalSeconds: 10,
    });
    // pg-boss reports failures of its pool, polls and maintenance here; without a listener an
    // EventEmitter 'error' would crash the process.
    this.boss.on('error', (e: Error) => this.logger.warn({ err: e.message }, 'job queue error'));
  }

  /**
   * Creates (or upgrades) the pg-boss schema under its own advisory lock, so instances may race.
   * At bootstrap, after every module's init succeeded: a boot that fails in a later module's init
   * (a destructive schema change, say) gets no shutdown hooks, and would leave pg-boss polling.
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.start();
  }

  /** Once: Nest runs the init hooks of one module's providers concurrently, so `work` waits on it too. */
  private start(): Promise<unknown> {
    this.started ??= this.boss.start().then((boss) => {
      this.ready = true;
      return boss;
    });
    return this.started;
  }

  /**
   * Declares the queue (idempotent) and works it on this instance, one job at a time. A handler
   * that throws fails the attempt; pg-boss retries it after the queue's backoff. Every line logged
   * while a job runs carries its `jobId` and `queue`, as request lines carry `reqId`, and goes to
   * this application's logger (outside a request, nestjs-pino would use the process's first one).
   * A queue that needs many jobs at once has a worker of its own (`fetch`, `complete`, `register`).
   */
  async work<T extends object>(queue: QueueSpec, handler: (job: Job<T>) => Promise<void>): Promise<void> {
    await this.declare(queue);
    const id: string = await this.boss.work<T>(queue.name, { includeMetadata: true }, async ([job]) => {
      if (this.stopping) {
        // A poll that was under way when the shutdown began: leave the job to the next run.
        throw new Error('shutting down');
      }
      const logger = this.rootLogger.child({ jobId: job.id, queue: queue.name });
      await storage.run(new Store(logger), () => handler(job));
    });
    this.workers.set(queue.name, id);
  }

  /** Creates the queue (idempotent), for a worker of its own that uses `fetch` and `complete`. */
  async declare(queue: QueueSpec): Promise<void> {
    await this.start();
    // One queue creation at a time: pg-boss creates each queue's partition table, and two
    // creations running at once (the bootstrap hooks run concurrently) can deadlock. Instances
    // booting together still can: PostgreSQL then rolls one back, which is tried again.
    const created = this.creating.then(() => retryDeadlocks(() => this.boss.createQueue(queue.name)));
    this.creating = created.catch(() => undefined);
    await created;
  }

  /**
   * Takes up to `count` jobs of the queue that are due (they become active: one `complete`
   * ends them; one left active past the queue's `expireInSeconds` is retried, on any instance).
   * Nothing once the shutdown began.
   */
  async fetch<T>(queue: QueueSpec, count: number): Promise<Job<T>[]> {
    if (this.stopping || count < 1) {
      return [];
    }
    return (await this.boss.fetch<T>(queue.name, { batchSize: count, includeMetadata: true })) ?? [];
  }

  /** Ends jobs taken by `fetch` as done, in one statement. */
  async complete(queue: QueueSpec, ids: readonly string[]): Promise<void> {
    if (ids.length) {
      await this.boss.complete(queue.name, [...ids]);
    }
  }

  /**
   * Runs `fn` with `fields` on every line it logs, in this application's logger (as a job
   * handler's lines carry its `jobId`).
   */
  inJobContext<T>(fields: Record<string, unknown>, fn: () => T): T {
    return storage.run(new Store(this.rootLogger.child(fields)), fn);
  }

  /**
   * A worker of its own for the queue (see `declare`): `wake` calls it, and the shutdown waits
   * for `stop` before pg-boss closes.
   */
  register(queue: QueueSpec, worker: { wake: () => void; stop: () => Promise<void> }): void {
    this.ownWorkers.set(queue.name, worker);
  }

  /**
   * Inserts a job through `em`: inside the caller's transaction, the job exists exactly when that
   * transaction commits. Call `wake` after the commit for the job to start at once, or give
   * `startAfterSeconds` for it to wait that long first (`startAfter`: until then).
   */
  async send(
    em: EntityManager,
    queue: QueueSpec,
    data: object,
    options: { startAfterSeconds?: number; startAfter?: Date } = {},
  ): Promise<string> {
    const startAfter = options.startAfter ?? options.startAfterSeconds;
    const id = await this.boss.send(queue.name, data, {
      db: { executeSql: async (text, values) => ({ rows: await rows(em, text, values) }) },
      ...(startAfter === undefined ? {} : { startAfter }),
      retryLimit: queue.retryLimit,
      retryDelay: queue.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: queue.expireInSeconds,
      retentionMinutes: queue.retentionMinutes,
    });
    if (!id) {
      // pg-boss inserts nothing (and answers null) for a queue that does not exist.
      throw new Error(`job queue ${queue.name} does not exist`);
    }
    return id;
  }

  /**
   * Inserts one job per payload through `em`, in one statement (as `send`, for many at once:
   * the deliveries of a bulk write's events, the retries of a worker's finished attempts).
   */
  async sendMany(
    em: EntityManager,
    queue: QueueSpec,
    jobs: ReadonlyArray<{ data: object; startAfter?: Date }>,
  ): Promise<void> {
    if (!jobs.length) {
      return;
    }
    await this.boss.insert(
      jobs.map(({ data, startAfter }) => ({
        name: queue.name,
        data,
        ...(startAfter === undefined ? {} : { startAfter }),
        retryLimit: queue.retryLimit,
        retryDelay: queue.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: queue.expireInSeconds,
        keepUntil: new Date(Date.now() + queue.retentionMinutes * 60_000),
      })),
      {
        db: {
          executeSql: async (text: string, values: unknown[]) => ({ rows: await rows(em, text, values) }),
        },
      } as never,
    );
  }

  /**
   * An INSERT of one job of `queue` per row of `source` (SQL naming a relation with a `data` jsonb
   * column), as `sendMany` would write them: for a writer that puts its jobs in the very statement
   * that writes what they are about (a data-modifying CTE), sparing a round trip. Null until
   * pg-boss has started (its tables may not exist yet): then use `sendMany`.
   */
  insertJobsSql(queue: QueueSpec, source: string): string | null {
    if (!this.ready) {
      return null;
    }
    const name = `'${queue.name.replaceAll("'", "''")}'`;
    return `INSERT INTO ${JOBS_SCHEMA}.job
        (name, data, retry_limit, retry_delay, retry_backoff, expire_in, keep_until, policy)
      SELECT ${name}, s.data, ${Math.trunc(queue.retryLimit)}, ${Math.max(1, Math.trunc(queue.retryDelaySeconds))},
             true, interval '${Math.trunc(queue.expireInSeconds)} seconds',
             now() + interval '${Math.trunc(queue.retentionMinutes)} minutes',
             (SELECT policy FROM ${JOBS_SCHEMA}.queue WHERE name = ${name})
        FROM ${source} s`;
  }

  /**
   * Inserts a job at most once per `windowSeconds` time slot under `key`, whichever instance asks
   * (pg-boss singleton: a unique index on the slot), outside any transaction: how a periodic job
   * is scheduled without pg-boss's cron timekeeper. Answers null when the slot has its job already.
   */
  async sendOncePer(
    queue: QueueSpec,
    key: string,
    windowSeconds: number,
    data: object = {},
  ): Promise<string | null> {
    await this.start();
    return this.boss.send(queue.name, data, {
      singletonKey: key,
      singletonSeconds: windowSeconds,
      retryLimit: queue.retryLimit,
      retryDelay: queue.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: queue.expireInSeconds,
      retentionMinutes: queue.retentionMinutes,
    });
  }

  /** This instance's workers fetch now instead of at their next poll (every 2 s). */
  wake(queue: QueueSpec): void {
    if (this.stopping) {
      return;
    }
    const id = this.workers.get(queue.name);
    if (id !== undefined) {
      this.boss.notifyWorker(id);
    }
    this.ownWorkers.get(queue.name)?.wake();
  }

  /**
   * Before the DataSource closes (handlers use it): no new fetches, running jobs get up to 25 s
   * (an SMTP send gives up after 20 s), then pg-boss marks what is still running as failed (retried
   * later) and closes its pool. With nothing running it returns at once.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.ownWorkers.values()].map((w) => w.stop()));
    await this.boss.stop({ graceful: true, timeout: 25_000, wait: true, close: true });
  }
}

/** Deadlocks (SQLSTATE 40P01) rolled back by PostgreSQL are tried again, up to 5 times. */
async function retryDeadlocks<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (e) {
      if ((e as { code?: unknown }).code !== '40P01' || attempt === 5) {
        throw e;
      }
      // Apart, so the instances that collided do not collide again.
      await new Promise((r) => setTimeout(r, 20 + Math.random() * 100 * attempt));
    }
  }
}
