import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ListQuery } from '../../common/pagination';
import { pagedRows, rows } from '../../database/sql';
import type { ImageFit, ImageFormat } from './media.types';

export interface ImageSizeRow {
  id: string;
  name: string;
  width: number | null;
  height: number | null;
  fit: ImageFit;
  format: ImageFormat | null;
  quality: number | null;
  created_at: Date;
  updated_at: Date;
}

export interface ImageSizeValues {
  name: string;
  width: number | null;
  height: number | null;
  fit: ImageFit;
  format: ImageFormat | null;
  quality: number | null;
}

export type ImageSizeSortField = 'name' | 'width' | 'height' | 'createdAt';

const SORT_COLUMNS: Record<ImageSizeSortField, string> = {
  name: 'name',
  width: 'width',
  height: 'height',
  createdAt: 'created_at',
};

/** All SQL on image_sizes. */
@Injectable()
export class ImageSizesRepository {
  list(
    em: EntityManager,
    q: ListQuery<ImageSizeSortField>,
  ): Promise<{ rows: ImageSizeRow[]; total: number }> {
    return pagedRows<ImageSizeRow>(em, {
      from: 'image_sizes s',
      alias: 's',
      columns: 's.*',
      where: q.search ? `s.name ILIKE $1 ESCAPE '\\'` : '',
      params: q.search ? [`%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`] : [],
      orderBy: `s.${SORT_COLUMNS[q.sort.field]} ${q.sort.direction === 'desc' ? 'DESC' : 'ASC'} NULLS LAST, s.id ASC`,
      limit: q.limit,
      offset: q.offset,
    });
  }

  /** Every size, by name: what an upload makes. */
  all(em: EntityManager): Promise<ImageSizeRow[]> {
    return rows<ImageSizeRow>(em, `SELECT * FROM image_sizes ORDER BY name`);
  }

  async count(em: EntityManager): Promise<number> {
    const found = await rows<{ n: string }>(em, `SELECT count(*) AS n FROM image_sizes`);
    return Number(found[0].n);
  }

  async findById(em: EntityManager, id: string, forUpdate = false): Promise<ImageSizeRow | null> {
    const found = await rows<ImageSizeRow>(
      em,
      `SELECT * FROM image_sizes WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return found[0] ?? null;
  }

  async insert(em: EntityManager, v: ImageSizeValues): Promise<ImageSizeRow> {
    const found = await rows<ImageSizeRow>(
      em,
      `INSERT INTO image_sizes (name, width, height, fit, format, quality)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
      [v.name, v.width, v.height, v.fit, v.format, v.quality],
    );
    return found[0];
  }

  async update(em: EntityManager, id: string, v: ImageSizeValues): Promise<ImageSizeRow> {
    const found = await rows<ImageSizeRow>(
      em,
      `UPDATE image_sizes SET name = $2, width = $3, height = $4, fit = $5, format = $6, quality = $7,
         updated_at = now()
       WHERE id = $1 RETURNING *`,
      [id, v.name, v.width, v.height, v.fit, v.format, v.quality],
    );
    return found[0];
  }

  async delete(em: EntityManager, id: string): Promise<void> {
    await em.query(`DELETE FROM image_sizes WHERE id = $1`, [id]);
  }

  /** Serialises writes of image sizes (the count cap, renames) across instances. */
  async lockAll(em: EntityManager): Promise<void> {
    await em.query(`LOCK TABLE image_sizes IN SHARE ROW EXCLUSIVE MODE`);
  }
}
