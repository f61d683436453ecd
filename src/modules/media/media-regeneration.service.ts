import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { AuthContext } from '../../common/access/auth-context';
import { ServiceError } from '../../common/errors';
import { isUniqueViolation } from '../../database/pg-errors';
import { SVC_CONNECTION, SVC_OPTIONS, type SvcOptions } from '../../config/svc-options';
import { type Job, JobsService, type QueueSpec } from '../../jobs/jobs.service';
import { ImageProcessor } from './image-processor';
import { ImageSizesService } from './image-sizes.service';
import { RASTER_TYPES } from './media-images';
import { type RegenerationRow, MediaRegenerationRepository } from './media-regeneration.repository';
import { type MediaFileRow, MediaRepository } from './media.repository';
import type { ImageSizeRecord, RegenerationRecord, StoredSizes } from './media.types';
import type { MediaStorage } from './storage/media-storage';
import { MEDIA_STORAGE } from './storage/media-storage.token';

/**
 * One batch of a regeneration per job; the batch queues the next one, so no job runs long (an
 * attempt cut off after 15 minutes is retried from the run's cursor). Three retries 10 s, 20 s
 * and 40 s apart (plus jitter).
 */
export const MEDIA_REGENERATION: QueueSpec = {
  name: 'media-regeneration',
  retryLimit: 3,
  retryDelaySeconds: 10,
  expireInSeconds: 15 * 60,
  retentionMinutes: 24 * 60,
};
const BATCH = 20;
/** A queued or running run without progress this long lost its job chain: a new run may start. */
const STALLED_MINUTES = 30;

interface RegenerationJob {
  runId: string;
}

/**
 * `POST /image-sizes/regenerate` and `GET /image-sizes/regeneration-status`: every stored raster
 * image made again in the current image sizes, as a background job (pg-boss) with its progress
 * in `media_regenerations`. Per item: the original is fetched from storage, every size made and
 * stored, the row's `sizes` replaced, and the files of sizes it no longer has removed. An item
 * that fails is counted in `failed` and keeps its variants; the run goes on.
 */
@Injectable()
export class MediaRegenerationService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Media');
  private readonly tmpDir: string;

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    @Inject(SVC_OPTIONS) options: SvcOptions,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
    private readonly jobs: JobsService,
    private readonly runs: MediaRegenerationRepository,
    private readonly media: MediaRepository,
    private readonly sizes: ImageSizesService,
    private readonly images: ImageProcessor,
  ) {
    this.tmpDir = options.media.tmpDir;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.work<RegenerationJob>(MEDIA_REGENERATION, (job) => this.work(job));
  }

  async status(): Promise<RegenerationRecord> {
    const row = await this.runs.latest(this.db.manager);
    return row ? toRecord(row) : IDLE;
  }

  /** Queues a run; 409 CONFLICT while one is queued or running. */
  async start(auth: AuthContext): Promise<RegenerationRecord> {
    let row: RegenerationRow;
    try {
      row = await this.db.transaction(async (em) => {
        await this.runs.failStalled(em, STALLED_MINUTES);
        const run = await this.runs.insert(em, await this.media.countOfTypes(em, RASTER_TYPES), auth.user.id);
        await this.jobs.send(em, MEDIA_REGENERATION, { runId: run.id } satisfies RegenerationJob);
        return run;
      });
    } catch (e) {
      if (isUniqueViolation(e, 'media_regenerations_one_active')) {
        throw new ServiceError(
          'CONFLICT',
          'A regeneration of image sizes is queued or running already: see GET /admin/api/image-sizes/regeneration-status',
        );
      }
      throw e;
    }
    this.jobs.wake(MEDIA_REGENERATION);
    return toRecord(row);
  }

  private async work(job: Job<RegenerationJob>): Promise<void> {
    const { runId } = job.data;
    try {
      await this.batch(runId);
    } catch (e) {
      if (job.retryCount >= job.retryLimit) {
        await this.runs.finish(this.db.manager, runId, 'failed', (e as Error).message.slice(0, 500));
        this.logger.error({ err: (e as Error).message, runId }, 'regeneration of image sizes failed');
      }
      throw e;
    }
  }

  /** Up to BATCH items after the run's cursor; queues the next batch, or ends the run. */
  private async batch(runId: string): Promise<void> {
    const run = await this.runs.findById(this.db.manager, runId);
    if (!run || run.status === 'done' || run.status === 'failed') {
      return;
    }
    await this.runs.markRunning(this.db.manager, runId);
    const sizes = await this.sizes.all();
    const items = await this.media.filesAfter(this.db.manager, RASTER_TYPES, run.cursor, BATCH);
    for (const item of items) {
      let ok = true;
      try {
        await this.regenerate(item, sizes);
      } catch (e) {
        ok = false;
        this.logger.warn(
          { err: (e as Error).message, mediaId: item.id, runId },
          'image sizes not made again',
        );
      }
      await this.runs.progress(this.db.manager, runId, item.id, ok);
    }
    if (items.length < BATCH) {
      await this.runs.finish(this.db.manager, runId, 'done', null);
      return;
    }
    await this.db.transaction((em) =>
      this.jobs.send(em, MEDIA_REGENERATION, { runId } satisfies RegenerationJob),
    );
    this.jobs.wake(MEDIA_REGENERATION);
  }

  private async regenerate(item: MediaFileRow, sizes: readonly ImageSizeRecord[]): Promise<void> {
    await mkdir(this.tmpDir, { recursive: true });
    const dir = await mkdtemp(join(this.tmpDir, 'regen-'));
    try {
      const source = join(dir, 'original');
      if (!(await this.storage.download(`${item.id}/${item.filename}`, source))) {
        throw new Error('the original file is missing from storage');
      }
      const made = await this.images.variants(source, item.mimeType, item.filename, sizes, dir);
      const generatedAt = new Date().toISOString();
      const next: StoredSizes = {};
      for (const v of made) {
        const key = `${item.id}/${v.preset}/${v.filename}`;
        await this.storage.put(key, v.path, v.mimeType);
        next[v.preset] = {
          key,
          filename: v.filename,
          width: v.width,
          height: v.height,
          mimeType: v.mimeType,
          filesize: v.filesize,
          etag: v.etag,
          generatedAt,
        };
      }
      if (!(await this.media.setSizes(this.db.manager, item.id, next))) {
        // Deleted meanwhile: what was just stored goes too.
        await this.storage.removeItem(item.id);
        return;
      }
      const kept = new Set(Object.values(next).map((s) => s.key));
      const stale = Object.values(item.sizes ?? {})
        .map((s) => s?.key)
        .filter((k): k is string => typeof k === 'string' && !kept.has(k));
      if (stale.length) {
        await this.storage.remove(stale);
      }
    } finally {
      await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}

const IDLE: RegenerationRecord = {
  id: null,
  status: 'idle',
  total: 0,
  processed: 0,
  failed: 0,
  error: null,
  createdAt: null,
  startedAt: null,
  finishedAt: null,
};

function toRecord(row: RegenerationRow): RegenerationRecord {
  return {
    id: row.id,
    status: row.status,
    total: row.total,
    processed: row.processed,
    failed: row.failed,
    error: row.error,
    createdAt: row.created_at.toISOString(),
    startedAt: row.started_at?.toISOString() ?? null,
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}
