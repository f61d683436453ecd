import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { rows } from '../../database/sql';

export interface RegenerationRow {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  total: number;
  processed: number;
  failed: number;
  cursor: string | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  updated_at: Date;
}

/** All SQL on media_regenerations (one queued or running run at a time: a partial unique index). */
@Injectable()
export class MediaRegenerationRepository {
  async latest(em: EntityManager): Promise<RegenerationRow | null> {
    const found = await rows<RegenerationRow>(
      em,
      `SELECT * FROM media_regenerations ORDER BY created_at DESC, id DESC LIMIT 1`,
    );
    return found[0] ?? null;
  }

  async findById(em: EntityManager, id: string): Promise<RegenerationRow | null> {
    const found = await rows<RegenerationRow>(em, `SELECT * FROM media_regenerations WHERE id = $1`, [id]);
    return found[0] ?? null;
  }

  /** A run that made no progress for `stalledMinutes` (its job chain was lost) is marked failed. */
  async failStalled(em: EntityManager, stalledMinutes: number): Promise<void> {
    await em.query(
      `UPDATE media_regenerations SET status = 'failed', error = 'stalled: no progress', finished_at = now(),
         updated_at = now()
       WHERE status IN ('queued', 'running') AND updated_at < now() - make_interval(mins => $1)`,
      [stalledMinutes],
    );
  }

  async insert(em: EntityManager, total: number, requestedBy: string | null): Promise<RegenerationRow> {
    const found = await rows<RegenerationRow>(
      em,
      `INSERT INTO media_regenerations (total, requested_by) VALUES ($1, $2) RETURNING *`,
      [total, requestedBy],
    );
    return found[0];
  }

  async markRunning(em: EntityManager, id: string): Promise<void> {
    await em.query(
      `UPDATE media_regenerations SET status = 'running', started_at = coalesce(started_at, now()),
         updated_at = now()
       WHERE id = $1 AND status = 'queued'`,
      [id],
    );
  }

  /** One more media item handled (`ok` or failed), `cursor` the last one. */
  async progress(em: EntityManager, id: string, cursor: string, ok: boolean): Promise<void> {
    await em.query(
      `UPDATE media_regenerations SET processed = processed + 1, failed = failed + $3::int, cursor = $2,
         total = greatest(total, processed + 1), updated_at = now()
       WHERE id = $1`,
      [id, cursor, ok ? 0 : 1],
    );
  }

  async finish(
    em: EntityManager,
    id: string,
    status: 'done' | 'failed',
    error: string | null,
  ): Promise<void> {
    await em.query(
      `UPDATE media_regenerations SET status = $2, error = $3, finished_at = now(), updated_at = now()
       WHERE id = $1 AND status IN ('queued', 'running')`,
      [id, status, error],
    );
  }
}
