import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { rows } from '../../../database/sql';

export interface VersionRow {
  id: string;
  entry_id: string;
  number: number;
  status: string | null;
  event: string;
  data: Record<string, unknown>;
  created_by: string | null;
  created_by_name: string | null;
  created_at: Date;
}

export interface NewVersion {
  entryId: string;
  number: number;
  status: string | null;
  event: string;
  data: Record<string, unknown>;
  createdBy: string | null;
}

const SELECT = `SELECT v.id, v.entry_id, v.number, v.status, v.event, v.data, v.created_by,
                       u.name AS created_by_name, v.created_at
                  FROM content_versions v LEFT JOIN users u ON u.id = v.created_by`;

/** SQL of `content_versions`: the versions of entries, by definition and entry. */
@Injectable()
export class VersionsRepository {
  /** The newest version of each of `entryIds` that has one. */
  async latest(em: EntityManager, definitionId: string, entryIds: readonly string[]): Promise<VersionRow[]> {
    return rows<VersionRow>(
      em,
      `SELECT DISTINCT ON (entry_id) entry_id, number, status, data
         FROM content_versions
        WHERE definition_id = $1 AND entry_id = ANY($2::uuid[])
        ORDER BY entry_id, number DESC`,
      [definitionId, entryIds],
    );
  }

  async insert(em: EntityManager, definitionId: string, versions: readonly NewVersion[]): Promise<void> {
    if (!versions.length) {
      return;
    }
    await em.query(
      `INSERT INTO content_versions (definition_id, entry_id, number, status, event, data, created_by)
       SELECT $1, v.entry_id, v.number, v.status, v.event, v.data, v.created_by
         FROM jsonb_to_recordset($2::jsonb)
           AS v(entry_id uuid, number integer, status text, event text, data jsonb, created_by uuid)`,
      [
        definitionId,
        JSON.stringify(
          versions.map((v) => ({
            entry_id: v.entryId,
            number: v.number,
            status: v.status,
            event: v.event,
            data: v.data,
            created_by: v.createdBy,
          })),
        ),
      ],
    );
  }

  /** Removes all but the newest `keep` versions of each of `entryIds`. */
  async prune(
    em: EntityManager,
    definitionId: string,
    entryIds: readonly string[],
    keep: number,
  ): Promise<void> {
    await em.query(
      `DELETE FROM content_versions v
        USING (SELECT entry_id, max(number) AS top FROM content_versions
                WHERE definition_id = $1 AND entry_id = ANY($2::uuid[]) GROUP BY entry_id) t
        WHERE v.definition_id = $1 AND v.entry_id = t.entry_id AND v.number <= t.top - $3`,
      [definitionId, entryIds, keep],
    );
  }

  async removeOf(em: EntityManager, definitionId: string, entryIds: readonly string[]): Promise<void> {
    if (entryIds.length) {
      await em.query(`DELETE FROM content_versions WHERE definition_id = $1 AND entry_id = ANY($2::uuid[])`, [
        definitionId,
        entryIds,
      ]);
    }
  }

  async page(
    em: EntityManager,
    definitionId: string,
    entryId: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: VersionRow[]; total: number }> {
    const [found, counted] = await Promise.all([
      rows<VersionRow>(
        em,
        `${SELECT} WHERE v.definition_id = $1 AND v.entry_id = $2 ORDER BY v.number DESC LIMIT $3 OFFSET $4`,
        [definitionId, entryId, limit, offset],
      ),
      rows<{ total: string }>(
        em,
        `SELECT count(*) AS total FROM content_versions WHERE definition_id = $1 AND entry_id = $2`,
        [definitionId, entryId],
      ),
    ]);
    return { rows: found, total: Number(counted[0].total) };
  }

  async find(
    em: EntityManager,
    definitionId: string,
    entryId: string,
    versionId: string,
  ): Promise<VersionRow | undefined> {
    const found = await rows<VersionRow>(
      em,
      `${SELECT} WHERE v.definition_id = $1 AND v.entry_id = $2 AND v.id = $3`,
      [definitionId, entryId, versionId],
    );
    return found[0];
  }
}
