import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type Job, JobsService, type QueueSpec } from '../../jobs/jobs.service';
import type { MediaStorage } from './storage/media-storage';
import { MEDIA_STORAGE } from './storage/media-storage.token';

/**
 * The removal of deleted media items' files. Ten retries from 10 s, each delay doubled (plus up
 * to as much again at random): a storage outage of three hours or more is ridden out. An attempt
 * is cut off after 10 minutes (a process that died mid-removal); a job not done within a day is
 * dropped.
 */
export const MEDIA_REMOVAL: QueueSpec = {
  name: 'media-removal',
  retryLimit: 10,
  retryDelaySeconds: 10,
  expireInSeconds: 10 * 60,
  retentionMinutes: 24 * 60,
};

/**
 * The request removes the files right after its commit; the job waits this long first, so it
 * does not race that attempt and, when it succeeded, finds nothing left to do.
 */
const JOB_DELAY_SECONDS = 5;

interface RemovalJob {
  ids: string[];
}

/**
 * Deleted media items' files go for sure: `queue` inserts a job in the transaction that deletes
 * the rows, so the removal exists exactly when the delete commits, even if the process dies right
 * after; `now` tries at once after the commit. Removing an item that has no files left is a
 * success, so the job may run after the first try, or twice, to no harm.
 */
@Injectable()
export class MediaRemoval implements OnApplicationBootstrap {
  private readonly logger = new Logger('Media');

  constructor(
    private readonly jobs: JobsService,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.work<RemovalJob>(MEDIA_REMOVAL, (job) => this.work(job));
  }

  /** Inside the delete's transaction. */
  async queue(em: EntityManager, ids: readonly string[]): Promise<void> {
    await this.jobs.send(em, MEDIA_REMOVAL, { ids: [...ids] } satisfies RemovalJob, {
      startAfterSeconds: JOB_DELAY_SECONDS,
    });
  }

  /** After the commit; never throws (what fails is left to the job). */
  async now(ids: readonly string[]): Promise<void> {
    for (const id of ids) {
      try {
        await this.storage.removeItem(id);
      } catch (e) {
        this.logger.warn(
          { err: (e as Error).message, mediaId: id },
          'media files not removed yet: will retry',
        );
      }
    }
  }

  private async work(job: Job<RemovalJob>): Promise<void> {
    const failed: string[] = [];
    let reason = '';
    for (const id of job.data.ids) {
      try {
        await this.storage.removeItem(id);
      } catch (e) {
        failed.push(id);
        reason = (e as Error).message;
      }
    }
    if (!failed.length) {
      return;
    }
    const fields = { err: reason, mediaIds: failed, attempt: job.retryCount + 1 };
    if (job.retryCount >= job.retryLimit) {
      this.logger.error(fields, 'media files not removed: every attempt failed');
    } else {
      this.logger.warn(fields, 'media files not removed yet: will retry');
    }
    throw new Error(`media files not removed: ${reason}`);
  }
}
