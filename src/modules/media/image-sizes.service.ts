import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { ServiceError } from '../../common/errors';
import { listRecord, type ListRecord, parseListQuery } from '../../common/pagination';
import { isUniqueViolation } from '../../database/pg-errors';
import { SVC_CONNECTION } from '../../config/svc-options';
import type { CreateImageSizeDto, UpdateImageSizeDto } from './dto/image-size.dto';
import { toImageSizeRecord } from './image-size.mapper';
import {
  ImageSizesRepository,
  type ImageSizeSortField,
  type ImageSizeValues,
} from './image-sizes.repository';
import { MediaRepository } from './media.repository';
import type { ImageSizeRecord } from './media.types';
import { MEDIA_STORAGE } from './storage/media-storage.token';
import type { MediaStorage } from './storage/media-storage';

/** Every upload makes every size: a cap keeps an upload's work bounded. */
export const MAX_IMAGE_SIZES = 20;
export const SORTABLE: readonly ImageSizeSortField[] = ['name', 'width', 'height', 'createdAt'];

function notFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such image size');
}

/**
 * Image sizes (SPEC 4.2 `/admin/api/image-sizes`): the presets every uploaded raster image is made
 * in. A change applies to uploads from then on; stored media keep their variants until they are
 * regenerated (`POST /image-sizes/regenerate`), except that a renamed size's variants follow the
 * new name and a deleted size's variants are removed (rows and files).
 */
@Injectable()
export class ImageSizesService {
  private readonly logger = new Logger('Media');

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: ImageSizesRepository,
    private readonly media: MediaRepository,
    @Inject(MEDIA_STORAGE) private readonly storage: MediaStorage,
  ) {}

  async list(query: Record<string, unknown>): Promise<ListRecord<ImageSizeRecord>> {
    const q = parseListQuery(query, { sortable: SORTABLE, defaultSort: { field: 'name', direction: 'asc' } });
    const { rows, total } = await this.repo.list(this.db.manager, q);
    return listRecord(rows.map(toImageSizeRecord), total, q);
  }

  /** Every size, by name: what an upload or a regeneration makes. */
  async all(): Promise<ImageSizeRecord[]> {
    return (await this.repo.all(this.db.manager)).map(toImageSizeRecord);
  }

  async create(dto: CreateImageSizeDto): Promise<ImageSizeRecord> {
    const values = checked({
      name: dto.name,
      width: dto.width ?? null,
      height: dto.height ?? null,
      fit: dto.fit ?? 'inside',
      format: dto.format ?? null,
      quality: dto.quality ?? null,
    });
    const row = await this.write(async (em) => {
      if ((await this.repo.count(em)) >= MAX_IMAGE_SIZES) {
        throw new ServiceError('CONFLICT', `There may be at most ${MAX_IMAGE_SIZES} image sizes`);
      }
      return this.repo.insert(em, values);
    }, values.name);
    return toImageSizeRecord(row);
  }

  async update(id: string, dto: UpdateImageSizeDto): Promise<ImageSizeRecord> {
    const row = await this.write(async (em) => {
      const old = await this.repo.findById(em, id, true);
      if (!old) {
        throw notFound();
      }
      const values = checked({
        name: dto.name ?? old.name,
        width: dto.width === undefined ? old.width : dto.width,
        height: dto.height === undefined ? old.height : dto.height,
        fit: dto.fit ?? old.fit,
        format: dto.format === undefined ? old.format : dto.format,
        quality: dto.quality === undefined ? old.quality : dto.quality,
      });
      const updated = await this.repo.update(em, id, values);
      if (values.name !== old.name) {
        await this.media.renameSize(em, old.name, values.name);
      }
      return updated;
    }, dto.name);
    return toImageSizeRecord(row);
  }

  /** The size goes, and with it every stored variant of it (files removed after the commit). */
  async delete(id: string): Promise<ImageSizeRecord> {
    const { row, dropped } = await this.write(async (em) => {
      const found = await this.repo.findById(em, id, true);
      if (!found) {
        throw notFound();
      }
      await this.repo.delete(em, id);
      return { row: found, dropped: await this.media.dropSize(em, found.name) };
    });
    const keys = dropped.map((s) => s?.key).filter((k): k is string => typeof k === 'string');
    if (keys.length) {
      await this.storage.remove(keys).catch((e: unknown) => {
        this.logger.warn({ err: (e as Error).message, size: row.name }, 'image size files not removed');
      });
    }
    return toImageSizeRecord(row);
  }

  /** One transaction, image size writes one at a time (the cap, renames); a taken name is 409 DUPLICATE. */
  private async write<T>(work: (em: EntityManager) => Promise<T>, name?: string): Promise<T> {
    try {
      return await this.db.transaction(async (em) => {
        await this.repo.lockAll(em);
        return work(em);
      });
    } catch (e) {
      if (isUniqueViolation(e, 'image_sizes_name_key')) {
        throw new ServiceError('DUPLICATE', `An image size named "${name ?? ''}" exists already`, {
          errors: [{ path: 'name', code: 'unique', message: 'name is taken' }],
        });
      }
      throw e;
    }
  }
}

/** At least one of width and height (SPEC 4.2). */
function checked(v: ImageSizeValues): ImageSizeValues {
  if (v.width === null && v.height === null) {
    throw ServiceError.validation([
      { path: 'width', code: 'required', message: 'width or height is required (a positive integer)' },
    ]);
  }
  return v;
}
