import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { containsPattern, ListQuery } from '../../common/pagination';
import { Page, pagedRows, rows } from '../../database/sql';

export interface PermissionRow {
  id: string;
  slug: string;
  action: string;
  resource: string;
  name: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

export type PermissionSortField = 'slug' | 'resource' | 'action' | 'createdAt';

/** Sort fields to columns: identifiers in ORDER BY only ever come from this table. */
const SORT_COLUMNS: Record<PermissionSortField, string> = {
  slug: 'p.slug',
  resource: 'p.resource',
  action: 'p.action',
  createdAt: 'p.created_at',
};

const COLUMNS = `p.id, p.slug, p.action, p.resource, p.name, p.description, p.created_at, p.updated_at`;

/** All SQL on permissions. Methods take the EntityManager of the caller's transaction. */
@Injectable()
export class PermissionsRepository {
  /**
   * Every permission, or (with `roleId`) the role's own permission rows, in one statement; with
   * `roleId`, `exists` says whether the role exists.
   */
  async list(
    em: EntityManager,
    q: ListQuery<PermissionSortField>,
    scope: { roleId: string } | null = null,
  ): Promise<Page<PermissionRow>> {
    const params: unknown[] = [];
    const conditions: string[] = [];
    if (scope) {
      params.push(scope.roleId);
      conditions.push(`p.id IN (SELECT permission_id FROM role_permissions WHERE role_id = $1)`);
    }
    if (q.search) {
      params.push(containsPattern(q.search));
      const n = params.length;
      conditions.push(`(p.slug ILIKE $${n} ESCAPE '\\' OR p.name ILIKE $${n} ESCAPE '\\')`);
    }
    return pagedRows<PermissionRow>(em, {
      from: 'permissions p',
      alias: 'p',
      columns: COLUMNS,
      exists: scope ? `EXISTS (SELECT 1 FROM roles WHERE id = $1)` : undefined,
      where: conditions.join(' AND '),
      params,
      orderBy: `${SORT_COLUMNS[q.sort.field]} ${q.sort.direction === 'desc' ? 'DESC' : 'ASC'}, p.slug ASC`,
      limit: q.limit,
      offset: q.offset,
    });
  }

  async findById(
    em: EntityManager,
    id: string,
    opts: { forUpdate?: boolean } = {},
  ): Promise<PermissionRow | null> {
    const found = await rows<PermissionRow>(
      em,
      `SELECT ${COLUMNS} FROM permissions p WHERE p.id = $1${opts.forUpdate ? ' FOR UPDATE' : ''}`,
      [id],
    );
    return found[0] ?? null;
  }

  async insert(
    em: EntityManager,
    v: { slug: string; action: string; resource: string; name: string; description: string | null },
  ): Promise<PermissionRow> {
    const found = await rows<PermissionRow>(
      em,
      `INSERT INTO permissions (slug, action, resource, name, description)
       VALUES ($1, $2, $3, $4, $5) RETURNING *`,
      [v.slug, v.action, v.resource, v.name, v.description],
    );
    return found[0];
  }

  /** Absent (undefined) values keep the stored one; `description: null` clears it. */
  async update(
    em: EntityManager,
    id: string,
    v: { name?: string; description?: string | null },
  ): Promise<PermissionRow | null> {
    const found = await rows<PermissionRow>(
      em,
      `UPDATE permissions
          SET name = COALESCE($2, name),
              description = CASE WHEN $3::boolean THEN $4 ELSE description END,
              updated_at = now()
        WHERE id = $1 RETURNING *`,
      [id, v.name ?? null, v.description !== undefined, v.description ?? null],
    );
    return found[0] ?? null;
  }

  /** Deletes the permission; its role rows go with it (ON DELETE CASCADE). */
  /** The content definition (collection or single) a permission belongs to, or null. */
  async ownerOf(em: EntityManager, id: string): Promise<string | null> {
    const found = await rows<{ slug: string }>(
      em,
      `SELECT d.slug FROM permissions p JOIN content_definitions d ON d.id = p.content_definition_id
        WHERE p.id = $1`,
      [id],
    );
    return found[0]?.slug ?? null;
  }

  async delete(em: EntityManager, id: string): Promise<PermissionRow | null> {
    const found = await rows<PermissionRow>(em, `DELETE FROM permissions WHERE id = $1 RETURNING *`, [id]);
    return found[0] ?? null;
  }
}
