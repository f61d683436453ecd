import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { rows } from '../../../database/sql';

export interface ScheduleRow {
  id: string;
  definition_id: string;
  entry_id: string;
  action: 'publish' | 'unpublish';
  at: Date;
  status: 'pending' | 'done' | 'failed' | 'cancelled';
  error: string | null;
  created_by: string | null;
  created_by_name: string | null;
  created_at: Date;
}

const SELECT = `SELECT s.id, s.definition_id, s.entry_id, s.action, s.at, s.status, s.error, s.created_by,
                       u.name AS created_by_name, s.created_at
                  FROM content_schedules s LEFT JOIN users u ON u.id = s.created_by`;

/** SQL of `content_schedules`: publishing and unpublishing planned for a time. */
@Injectable()
export class SchedulesRepository {
  async insert(
    em: EntityManager,
    s: { definitionId: string; entryId: string; action: string; at: Date; createdBy: string | null },
  ): Promise<string> {
    const found = await rows<{ id: string }>(
      em,
      `INSERT INTO content_schedules (definition_id, entry_id, action, at, created_by)
       VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [s.definitionId, s.entryId, s.action, s.at.toISOString(), s.createdBy],
    );
    return found[0].id;
  }

  async find(em: EntityManager, id: string): Promise<ScheduleRow | undefined> {
    return (await rows<ScheduleRow>(em, `${SELECT} WHERE s.id = $1`, [id]))[0];
  }

  async page(
    em: EntityManager,
    definitionId: string,
    entryId: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: ScheduleRow[]; total: number }> {
    const found = await rows<ScheduleRow>(
      em,
      `${SELECT} WHERE s.definition_id = $1 AND s.entry_id = $2 ORDER BY s.at DESC, s.created_at DESC LIMIT $3 OFFSET $4`,
      [definitionId, entryId, limit, offset],
    );
    const counted = await rows<{ total: string }>(
      em,
      `SELECT count(*) AS total FROM content_schedules WHERE definition_id = $1 AND entry_id = $2`,
      [definitionId, entryId],
    );
    return { rows: found, total: Number(counted[0].total) };
  }

  /**
   * Locks a pending schedule for its run (SKIP LOCKED: another instance running it leaves it be);
   * answers it, or nothing when it is no longer pending or is being run.
   */
  async lockPending(em: EntityManager, id: string): Promise<ScheduleRow | undefined> {
    return (
      await rows<ScheduleRow>(
        em,
        `SELECT id, definition_id, entry_id, action, at, status, error, created_by, created_at
           FROM content_schedules WHERE id = $1 AND status = 'pending' FOR UPDATE SKIP LOCKED`,
        [id],
      )
    )[0];
  }

  /** Ends a pending schedule; answers false when it was not pending (any more). */
  async finish(
    em: EntityManager,
    id: string,
    status: 'done' | 'failed' | 'cancelled',
    error: string | null = null,
  ): Promise<boolean> {
    const found = await rows<{ id: string }>(
      em,
      `UPDATE content_schedules SET status = $2, error = $3, updated_at = now()
        WHERE id = $1 AND status = 'pending' RETURNING id`,
      [id, status, error],
    );
    return found.length > 0;
  }
}
