import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { rows } from '../../database/sql';
import { tableOf } from '../content/content.types';
import type { StoredSize, StoredSizes } from './media.types';

/** What serving and regeneration read of a media row. */
export interface MediaFileRow {
  id: string;
  filename: string;
  mimeType: string;
  filesize: number;
  sizes: StoredSizes | null;
  created_at: Date;
}

/** `c_media`: the built-in media collection's table (content creates and syncs it at boot). */
const TABLE = `"${tableOf({ kind: 'collection', slug: 'media' })}"`;

/**
 * SQL on the media rows' file description: what serving and regeneration read, and the `sizes`
 * column they write. Entries themselves (insert, update, delete) are written by content's
 * EntriesService, which keeps its count cache and access rules.
 */
@Injectable()
export class MediaRepository {
  async findFile(em: EntityManager, id: string): Promise<MediaFileRow | null> {
    const found = await rows<MediaFileRow>(
      em,
      `SELECT id, filename, "mimeType", filesize, sizes, created_at FROM ${TABLE} WHERE id = $1`,
      [id],
    );
    return found[0] ?? null;
  }

  /** Media rows of these types after `cursor` (by id), at most `limit`. */
  async filesAfter(
    em: EntityManager,
    types: readonly string[],
    cursor: string | null,
    limit: number,
  ): Promise<MediaFileRow[]> {
    return rows<MediaFileRow>(
      em,
      `SELECT id, filename, "mimeType", filesize, sizes, created_at FROM ${TABLE}
       WHERE "mimeType" = ANY($1::text[]) AND ($2::uuid IS NULL OR id > $2::uuid)
       ORDER BY id LIMIT $3`,
      [types, cursor, limit],
    );
  }

  async countOfTypes(em: EntityManager, types: readonly string[]): Promise<number> {
    const found = await rows<{ n: string }>(
      em,
      `SELECT count(*) AS n FROM ${TABLE} WHERE "mimeType" = ANY($1::text[])`,
      [types],
    );
    return Number(found[0].n);
  }

  /** Sets a row's sizes; false when the row is gone. */
  async setSizes(em: EntityManager, id: string, sizes: StoredSizes): Promise<boolean> {
    const found = await rows<{ id: string }>(
      em,
      `UPDATE ${TABLE} SET sizes = $2::jsonb WHERE id = $1 RETURNING id`,
      [id, JSON.stringify(sizes)],
    );
    return found.length > 0;
  }

  /** Drops the size `name` from every row holding it; answers what was dropped (to remove its files). */
  async dropSize(em: EntityManager, name: string): Promise<StoredSize[]> {
    const found = await rows<{ size: StoredSize }>(
      em,
      `WITH old AS (SELECT id, sizes -> $1 AS size FROM ${TABLE} WHERE sizes ? $1 FOR UPDATE)
       UPDATE ${TABLE} m SET sizes = m.sizes - $1 FROM old WHERE m.id = old.id RETURNING old.size`,
      [name],
    );
    return found.map((r) => r.size);
  }

  /** Renames the size `from` to `to` in every row (the stored files keep their keys). */
  async renameSize(em: EntityManager, from: string, to: string): Promise<void> {
    await em.query(
      `UPDATE ${TABLE} SET sizes = (sizes - $1::text) || jsonb_build_object($2::text, sizes -> $1::text)
       WHERE sizes ? $1::text`,
      [from, to],
    );
  }
}
