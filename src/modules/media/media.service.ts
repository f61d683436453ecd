import { randomUUID } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request, Response } from 'express';
import type { DataSource, EntityManager } from 'typeorm';
import type { AuthContext } from '../../common/access/auth-context';
import { ServiceError } from '../../common/errors';
import { isAllowedType } from '../../config/media-options';
import { SVC_CONNECTION, SVC_OPTIONS, type SvcOptions } from '../../config/svc-options';
import { ContentAccessService } from '../content/content-access.service';
import { type MediaHandler, MediaHooks, type ReceivedMedia } from '../content/media-hooks.service';
import { SchemaService } from '../content/schema.service';
import { ImageProcessor } from './image-processor';
import { ImageSizesService } from './image-sizes.service';
import { isRasterImage, type MadeVariant } from './media-images';
import { safeFilename } from './media-names';
import { presentMedia } from './media-presentation';
import { MediaRemoval } from './media-removal';
import { fileHeaders, notModified, rangeOf, type ServedFile } from './media-serving';
import { sniffType } from './media-sniff';
import { receiveMultipart } from './media-upload';
import { MediaRepository } from './media.repository';
import type { StoredSizes } from './media.types';
import type { MediaStorage } from './storage/media-storage';
import { MEDIA_STORAGE } from './storage/media-storage.token';

/**
 * Media files (CONTRACTS 11): uploads into the built-in media collection, their image sizes, the
 * files' storage and serving. Registered with content's MediaHooks, which calls `receive` for
 * `POST /collections/media/entries`, `present` for every media entry it answers and `removed`
 * after media entries are deleted; the rows are content's.
 *
 * An upload: the multipart body is streamed to a temporary file (capped at `media.maxBytes`,
 * 413 at the cap), its type decided from its bytes (415 outside `media.types`), a raster image
 * measured and made in every image size (sharp, at most 2 images at a time per process), then
 * the variants and the original stored under a new id, and the row inserted by content. Any
 * failure removes whatever was stored and the temporary files: no row without files, no files
 * without a row. A delete's files are removed after its commit, and by a job queued with the
 * delete while storage fails (MediaRemoval).
 */
@Injectable()
export class MediaService implements MediaHandler, OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Media');
  private readonly options: SvcOptions['media'];

  constructor(
    @Inject(SVC_OPTIONS) options: SvcOptions,
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
    private readonly repo: MediaRepository,
    private readonly images: ImageProcessor,
    private readonly sizes: ImageSizesService,
    private readonly schema: SchemaService,
    private readonly access: ContentAccessService,
    private readonly removal: MediaRemoval,
    hooks: MediaHooks,
  ) {
    this.options = options.media;
    hooks.register(this);
  }

  /**
   * Temporary folders a process left behind when it died mid-upload: removed at boot once older
   * than STALE_TMP_MS (no request lives that long), in the background.
   */
  onApplicationBootstrap(): void {
    void this.removeStaleTemporaryFiles();
  }

  onApplicationShutdown(): void {
    this.storage.close();
  }

  private async removeStaleTemporaryFiles(): Promise<void> {
    try {
      const names = await readdir(this.options.tmpDir).catch(() => [] as string[]);
      for (const name of names) {
        const path = join(this.options.tmpDir, name);
        const info = await stat(path).catch(() => null);
        if (info && Date.now() - info.mtimeMs > STALE_TMP_MS) {
          await rm(path, { recursive: true, force: true });
        }
      }
    } catch (e) {
      this.logger.warn({ err: (e as Error).message }, 'stale temporary media files not removed');
    }
  }

  // -------------------------------------------------------------------------------------------
  // MediaHandler

  async receive(
    req: Request,
    checkFields: (fields: Record<string, unknown>) => Record<string, unknown>,
  ): Promise<ReceivedMedia> {
    const form = await receiveMultipart(req, {
      maxBytes: this.options.maxBytes,
      tmpDir: this.options.tmpDir,
    });
    try {
      const file = form.file;
      if (!file) {
        throw ServiceError.validation(
          [
            {
              path: 'file',
              code: 'required',
              message: 'file is required: send the file as the multipart field "file"',
            },
          ],
          'The upload has no file',
        );
      }
      const text = checkFields(form.fields);
      if (file.size === 0) {
        throw ServiceError.validation([{ path: 'file', code: 'empty', message: 'file is empty' }]);
      }
      const filename = safeFilename(file.clientName);
      const mimeType = await sniffType(file.path, file.size, filename);
      if (!isAllowedType(mimeType, this.options.types)) {
        throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', `Files of type ${mimeType} may not be uploaded`, {
          mimeType,
        });
      }
      let width: number | null = null;
      let height: number | null = null;
      let made: MadeVariant[] = [];
      if (isRasterImage(mimeType)) {
        try {
          ({ width, height } = await this.images.dimensions(file.path));
          made = await this.images.variants(file.path, mimeType, filename, await this.sizes.all(), form.dir);
        } catch (e) {
          this.logger.warn(
            { err: (e as Error).message, mimeType },
            'upload refused: the image could not be processed',
          );
          throw ServiceError.validation([
            { path: 'file', code: 'image', message: `the ${mimeType} image could not be read or resized` },
          ]);
        }
      }
      const id = randomUUID();
      const sizes: StoredSizes = {};
      try {
        const generatedAt = new Date().toISOString();
        for (const v of made) {
          const key = `${id}/${v.preset}/${v.filename}`;
          await this.storage.put(key, v.path, v.mimeType);
          const { width: w, height: h, mimeType: type, filesize, etag, filename: name } = v;
          sizes[v.preset] = {
            key,
            filename: name,
            width: w,
            height: h,
            mimeType: type,
            filesize,
            etag,
            generatedAt,
          };
        }
        await this.storage.put(`${id}/${filename}`, file.path, mimeType);
      } catch (e) {
        await this.discard(id);
        throw e;
      }
      return {
        id,
        values: {
          filename,
          mimeType,
          filesize: file.size,
          width,
          height,
          sizes: JSON.stringify(sizes),
          ...text,
        },
        discard: () => this.discard(id),
      };
    } finally {
      await form.cleanup();
    }
  }

  present(entry: Record<string, unknown>): Record<string, unknown> {
    return presentMedia(entry);
  }

  removing(em: EntityManager, ids: readonly string[]): Promise<void> {
    return this.removal.queue(em, ids);
  }

  removed(ids: readonly string[]): Promise<void> {
    return this.removal.now(ids);
  }

  /** Removes every stored file of one media item; a failure is logged (the files stay orphaned). */
  private async discard(id: string): Promise<void> {
    try {
      await this.storage.removeItem(id);
    } catch (e) {
      this.logger.error({ err: (e as Error).message, mediaId: id }, 'media files not removed');
    }
  }

  // -------------------------------------------------------------------------------------------
  // Serving

  /**
   * `GET /admin/api/media/{id}/{filename}` and `.../{id}/{size}/{filename}`, under the media
   * collection's `read` rule (the `read-media` permission, or anyone when media is public): 401
   * for a visitor, 403 for a caller without it, before anything is looked up. An unknown id or
   * size, or a filename that is not the stored one, is 404.
   */
  async serve(
    req: Request,
    res: Response,
    auth: AuthContext | null,
    id: string,
    size: string | null,
    filename: string,
  ): Promise<void> {
    const def = await this.schema.get('collection', 'media');
    await this.access.require(def, 'read', auth, req);
    const file = await this.lookup(id, size, filename);
    const publicRead = def.access.read === true;
    const headers = fileHeaders(file, publicRead);
    if (notModified(req.headers, file)) {
      res.status(304);
      for (const k of ['ETag', 'Last-Modified', 'Cache-Control']) {
        res.setHeader(k, headers[k]);
      }
      res.end();
      return;
    }
    const range = rangeOf(req.headers, file);
    if (range.kind === 'unsatisfiable') {
      res.status(416);
      res.setHeader('Content-Range', `bytes */${file.size}`);
      res.setHeader('Accept-Ranges', 'bytes');
      res.end();
      return;
    }
    const body = await this.storage.open(file.key, range.kind === 'partial' ? range : undefined);
    if (!body) {
      this.logger.warn({ mediaId: id, key: file.key }, 'media file missing from storage');
      throw notFound();
    }
    for (const [k, v] of Object.entries(headers)) {
      res.setHeader(k, v);
    }
    if (range.kind === 'partial') {
      res.status(206);
      res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
      res.setHeader('Content-Length', String(range.end - range.start + 1));
    } else {
      res.status(200);
      res.setHeader('Content-Length', String(file.size));
    }
    if (req.method === 'HEAD') {
      body.close();
      res.end();
      return;
    }
    try {
      await body.send(res);
    } catch (e) {
      // The client went away, or storage failed mid-file: the answer is cut off (nothing else to send).
      if (!res.writableFinished && !req.destroyed) {
        this.logger.warn({ err: (e as Error).message, mediaId: id }, 'media file answer cut off');
      }
      res.destroy();
    }
  }

  private async lookup(id: string, size: string | null, filename: string): Promise<ServedFile> {
    const row = await this.repo.findFile(this.db.manager, id);
    if (!row) {
      throw notFound();
    }
    if (size === null) {
      if (row.filename !== filename) {
        throw notFound();
      }
      return {
        key: `${row.id}/${row.filename}`,
        filename: row.filename,
        mimeType: row.mimeType,
        size: Number(row.filesize),
        // The bytes under an id never change: the id is their version.
        etag: `"${row.id}"`,
        lastModified: row.created_at,
      };
    }
    const stored =
      row.sizes && Object.prototype.hasOwnProperty.call(row.sizes, size) ? row.sizes[size] : undefined;
    if (!stored || stored.filename !== filename) {
      throw notFound();
    }
    return {
      key: stored.key,
      filename: stored.filename,
      mimeType: stored.mimeType,
      size: stored.filesize,
      etag: `"${stored.etag}"`,
      lastModified: new Date(stored.generatedAt),
    };
  }
}

/** Longer than any request may take (SVC_REQUEST_TIMEOUT_MS is at most an hour). */
const STALE_TMP_MS = 2 * 60 * 60 * 1000;

function notFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such media file');
}
