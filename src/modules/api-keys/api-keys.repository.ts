import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { containsPattern, ListQuery } from '../../common/pagination';
import { pagedRows, rows } from '../../database/sql';
import type { ApiKeySortField } from './api-keys.types';

export type ApiKeyType = 'read-only' | 'full-access' | 'role-based';

export interface ApiKeyRow {
  id: string;
  user_id: string;
  name: string;
  description: string | null;
  type: ApiKeyType;
  role_id: string | null;
  key_prefix: string;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** The permission slugs the key is narrowed to (CONTRACTS 14.4); null: its type decides alone. */
  scopes: string[] | null;
  /** Until when the value replaced by the last rotation still works. */
  previous_key_expires_at: Date | null;
}

/** A key found by the hash of a value: `by_current` false when it is the previous (rotated) value. */
export type FoundApiKey = ApiKeyRow & { by_current: boolean };

const SORT_COLUMNS: Record<ApiKeySortField, string> = {
  name: 'lower(name)',
  createdAt: 'created_at',
  lastUsedAt: 'last_used_at',
  expiresAt: 'expires_at',
};
/** Every column but the hash: no key material leaves the repository. */
const COLUMNS = `id, user_id, name, description, type, role_id, key_prefix, expires_at, revoked_at, last_used_at,
  created_at, updated_at, scopes, previous_key_expires_at`;

@Injectable()
export class ApiKeysRepository {
  async insert(
    em: EntityManager,
    k: {
      userId: string;
      name: string;
      description: string | null;
      type: ApiKeyType;
      roleId: string | null;
      hash: string;
      prefix: string;
      expiresAt: Date | null;
      scopes: string[] | null;
    },
  ): Promise<ApiKeyRow> {
    const found = await rows<ApiKeyRow>(
      em,
      `INSERT INTO api_keys (user_id, name, description, type, role_id, key_hash, key_prefix, expires_at, scopes)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
      [k.userId, k.name, k.description, k.type, k.roleId, k.hash, k.prefix, k.expiresAt, k.scopes],
    );
    return found[0];
  }

  /**
   * A new value for a live key; the value it replaces keeps working for `graceSeconds` (none at
   * 0). Null when the key is revoked or expired (or gone).
   */
  async rotate(
    em: EntityManager,
    id: string,
    k: { hash: string; prefix: string; graceSeconds: number },
  ): Promise<ApiKeyRow | null> {
    const found = await rows<ApiKeyRow>(
      em,
      `UPDATE api_keys
          SET previous_key_hash = CASE WHEN $4::int > 0 THEN key_hash END,
              previous_key_expires_at = CASE WHEN $4::int > 0 THEN now() + make_interval(secs => $4::int) END,
              key_hash = $2, key_prefix = $3, updated_at = now()
        WHERE id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
        RETURNING ${COLUMNS}`,
      [id, k.hash, k.prefix, k.graceSeconds],
    );
    return found[0] ?? null;
  }

  async listForUser(
    em: EntityManager,
    userId: string,
    q: ListQuery<ApiKeySortField>,
  ): Promise<{ items: ApiKeyRow[]; total: number }> {
    const direction = q.sort.direction === 'desc' ? 'DESC NULLS LAST' : 'ASC NULLS FIRST';
    const page = await pagedRows<ApiKeyRow>(em, {
      from: 'api_keys k',
      alias: 'k',
      columns: COLUMNS,
      where: q.search ? `user_id = $1 AND name ILIKE $2 ESCAPE '\\'` : 'user_id = $1',
      params: q.search ? [userId, containsPattern(q.search)] : [userId],
      orderBy: `${SORT_COLUMNS[q.sort.field]} ${direction}, id`,
      limit: q.limit,
      offset: q.offset,
    });
    return { items: page.rows, total: page.total };
  }

  async findForUser(em: EntityManager, userId: string, id: string): Promise<ApiKeyRow | null> {
    const found = await rows<ApiKeyRow>(
      em,
      `SELECT ${COLUMNS} FROM api_keys WHERE id = $1 AND user_id = $2`,
      [id, userId],
    );
    return found[0] ?? null;
  }

  /** The key whose current value, or previous value (a rotation's grace), has this hash. */
  async findByHash(em: EntityManager, hash: string): Promise<FoundApiKey | null> {
    const found = await rows<FoundApiKey>(
      em,
      `SELECT ${COLUMNS}, key_hash = $1 AS by_current FROM api_keys
        WHERE key_hash = $1 OR previous_key_hash = $1`,
      [hash],
    );
    return found[0] ?? null;
  }

  async update(
    em: EntityManager,
    id: string,
    p: { name?: string; description?: string | null },
  ): Promise<void> {
    await em.query(
      `UPDATE api_keys SET name = COALESCE($2, name),
         description = CASE WHEN $3::boolean THEN $4 ELSE description END, updated_at = now()
       WHERE id = $1`,
      [id, p.name ?? null, p.description !== undefined, p.description ?? null],
    );
  }

  async revoke(em: EntityManager, id: string): Promise<void> {
    await em.query(
      `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()), previous_key_hash = NULL,
              previous_key_expires_at = NULL, updated_at = now()
        WHERE id = $1`,
      [id],
    );
  }

  async touch(em: EntityManager, id: string): Promise<void> {
    await em.query(`UPDATE api_keys SET last_used_at = now() WHERE id = $1`, [id]);
  }
}
