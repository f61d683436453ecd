import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { lockKey, xactLock } from '../../database/locks';
import { rows } from '../../database/sql';
import type { UserFieldOption, UserFieldType } from './user-field-values';

export interface UserFieldRow {
  id: string;
  name: string;
  type: UserFieldType;
  label: string;
  required: boolean;
  options: UserFieldOption[] | null;
  order: number;
  source: 'code' | 'ui';
  created_at: Date;
  updated_at: Date;
}

export interface UserFieldValues {
  name: string;
  type: UserFieldType;
  label: string;
  required: boolean;
  options: UserFieldOption[] | null;
}

/** All SQL on user_fields. Methods take the EntityManager of the caller's transaction. */
@Injectable()
export class UserFieldsRepository {
  /** Every definition in display order (ties, which only a concurrent boot could make, by name). */
  async all(em: EntityManager): Promise<UserFieldRow[]> {
    return rows<UserFieldRow>(em, `SELECT * FROM user_fields ORDER BY "order", name`);
  }

  async findById(em: EntityManager, id: string): Promise<UserFieldRow | null> {
    const found = await rows<UserFieldRow>(em, `SELECT * FROM user_fields WHERE id = $1`, [id]);
    return found[0] ?? null;
  }

  async findByNameInsensitive(em: EntityManager, name: string): Promise<UserFieldRow | null> {
    const found = await rows<UserFieldRow>(
      em,
      `SELECT * FROM user_fields WHERE lower(name) = lower($1) ORDER BY name = $1 DESC LIMIT 1`,
      [name],
    );
    return found[0] ?? null;
  }

  async nextOrder(em: EntityManager): Promise<number> {
    const [{ next }] = await rows<{ next: number }>(
      em,
      `SELECT COALESCE(max("order") + 1, 0)::int AS next FROM user_fields`,
    );
    return next;
  }

  async insert(
    em: EntityManager,
    v: UserFieldValues & { order: number; source: 'code' | 'ui' },
  ): Promise<UserFieldRow> {
    const found = await rows<UserFieldRow>(
      em,
      `INSERT INTO user_fields (name, type, label, required, options, "order", source)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7) RETURNING *`,
      [v.name, v.type, v.label, v.required, jsonOrNull(v.options), v.order, v.source],
    );
    return found[0];
  }

  /**
   * Writes a definition; `updated_at` moves only when something changed. `source` is set too, so
   * a code-defined field can take over a UI-defined row of the same name.
   */
  async update(
    em: EntityManager,
    id: string,
    v: UserFieldValues & { source: 'code' | 'ui' },
  ): Promise<UserFieldRow | null> {
    const found = await rows<UserFieldRow>(
      em,
      `UPDATE user_fields
          SET name = $2, type = $3, label = $4, required = $5, options = $6::jsonb, source = $7,
              updated_at = CASE
                WHEN (name, type, label, required, source) IS DISTINCT FROM ($2, $3, $4, $5, $7)
                  OR options IS DISTINCT FROM $6::jsonb THEN now()
                ELSE updated_at END
        WHERE id = $1 RETURNING *`,
      [id, v.name, v.type, v.label, v.required, jsonOrNull(v.options), v.source],
    );
    return found[0] ?? null;
  }

  async delete(em: EntityManager, id: string): Promise<UserFieldRow | null> {
    const found = await rows<UserFieldRow>(em, `DELETE FROM user_fields WHERE id = $1 RETURNING *`, [id]);
    return found[0] ?? null;
  }

  /** Code-defined rows whose name the config no longer has; answers the removed rows. */
  async deleteCodeFieldsExcept(em: EntityManager, names: string[]): Promise<UserFieldRow[]> {
    return rows<UserFieldRow>(
      em,
      `DELETE FROM user_fields WHERE source = 'code' AND NOT (name = ANY($1::text[])) RETURNING *`,
      [names],
    );
  }

  /** Sets `order` to each id's position in `ids` (0-based). */
  async setOrder(em: EntityManager, ids: string[]): Promise<void> {
    await rows(
      em,
      `UPDATE user_fields f SET "order" = o.position - 1, updated_at = now()
         FROM unnest($1::uuid[]) WITH ORDINALITY AS o(id, position)
        WHERE f.id = o.id AND f."order" <> o.position - 1`,
      [ids],
    );
  }

  /** Renumbers the order 0, 1, 2, ... (after a delete), keeping the sequence. */
  async compactOrder(em: EntityManager): Promise<void> {
    await rows(
      em,
      `UPDATE user_fields f SET "order" = o.position
         FROM (SELECT id, (row_number() OVER (ORDER BY "order", name) - 1)::int AS position FROM user_fields) o
        WHERE f.id = o.id AND f."order" <> o.position`,
    );
  }

  /**
   * Serialises every write of definitions (REST writes and the boot synchronisation of several
   * instances): the case-insensitive name check and the order arithmetic read then write.
   * Held until the transaction ends.
   */
  lock(em: EntityManager): Promise<void> {
    return xactLock(em, lockKey('userFields'));
  }
}

function jsonOrNull(v: unknown): string | null {
  return v === null || v === undefined ? null : JSON.stringify(v);
}
