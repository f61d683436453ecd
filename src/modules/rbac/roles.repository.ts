import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { containsPattern, ListQuery } from '../../common/pagination';
import { Page, pagedRows, rows } from '../../database/sql';
import { SUPER_ADMIN_SLUG } from './rbac.repository';

export interface RoleRow {
  id: string;
  name: string;
  slug: string;
  level: number;
  description: string | null;
  is_system: boolean;
  /** The role's own permission rows (not inherited ones), sorted by slug. */
  permissions: Array<{ id: string; slug: string }>;
  created_at: Date;
  updated_at: Date;
}

export interface RoleValues {
  name: string;
  slug: string;
  level: number;
  description: string | null;
}

export interface LockedRole {
  id: string;
  name: string;
  slug: string;
  is_system: boolean;
}

export type RoleSortField = 'name' | 'slug' | 'level' | 'createdAt';

/** Sort fields to columns: identifiers in ORDER BY only ever come from this table. */
const SORT_COLUMNS: Record<RoleSortField, string> = {
  name: 'r.name',
  slug: 'r.slug',
  level: 'r.level',
  createdAt: 'r.created_at',
};

/** Which roles a list covers: all, the direct children of a role, or every ancestor of one. */
export type RoleScope = { childrenOf: string } | { ancestorsOf: string } | null;

const ROLE_COLUMNS = `r.id, r.name, r.slug, r.level, r.description, r.is_system, r.created_at, r.updated_at,
  COALESCE(
    (SELECT json_agg(json_build_object('id', p.id, 'slug', p.slug) ORDER BY p.slug)
       FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
      WHERE rp.role_id = r.id),
    '[]'::json) AS permissions`;

/** A listed role (RoleRow), read from the page (`r`) and PAGE_PERMISSIONS. */
const LIST_COLUMNS = `r.id, r.name, r.slug, r.level, r.description, r.is_system, r.created_at, r.updated_at,
  COALESCE(page_permissions.permissions, '[]'::json) AS permissions`;

/**
 * The permission rows of every role on the page (the CTE `page`), in one join and aggregate over
 * the page rather than a subquery per row; ordered as ROLE_COLUMNS orders them.
 */
const PAGE_PERMISSIONS = `LEFT JOIN (
    SELECT rp.role_id, json_agg(json_build_object('id', p.id, 'slug', p.slug) ORDER BY p.slug) AS permissions
      FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
     WHERE rp.role_id IN (SELECT id FROM page)
     GROUP BY rp.role_id
  ) page_permissions ON page_permissions.role_id = r.id`;

/** Every role `$1` inherits from, transitively (not itself). UNION stops on a cycle. */
const ANCESTORS = `WITH RECURSIVE ancestors(id) AS (
    SELECT parent_id FROM role_inherits WHERE child_id = $1
    UNION
    SELECT ri.parent_id FROM role_inherits ri JOIN ancestors a ON ri.child_id = a.id
  )`;

/** All SQL on roles, role_permissions and role_inherits. Methods take the caller's EntityManager. */
@Injectable()
export class RolesRepository {
  /**
   * One statement: the page, its count and the page's permission rows (one join, not a subquery
   * per row). With a scope, `exists` says whether its role exists.
   */
  async list(
    em: EntityManager,
    q: ListQuery<RoleSortField>,
    scope: RoleScope = null,
  ): Promise<Page<RoleRow>> {
    const params: unknown[] = [];
    const conditions: string[] = [];
    let cte = '';
    if (scope && 'childrenOf' in scope) {
      params.push(scope.childrenOf);
      conditions.push(`r.id IN (SELECT child_id FROM role_inherits WHERE parent_id = $1)`);
    } else if (scope && 'ancestorsOf' in scope) {
      params.push(scope.ancestorsOf);
      cte = ANCESTORS;
      conditions.push(`r.id IN (SELECT id FROM ancestors)`);
    }
    if (q.search) {
      params.push(containsPattern(q.search));
      const n = params.length;
      conditions.push(`(r.name ILIKE $${n} ESCAPE '\\' OR r.slug ILIKE $${n} ESCAPE '\\')`);
    }
    return pagedRows<RoleRow>(em, {
      with: cte,
      from: 'roles r',
      alias: 'r',
      columns: LIST_COLUMNS,
      join: PAGE_PERMISSIONS,
      exists: scope ? `EXISTS (SELECT 1 FROM roles WHERE id = $1)` : undefined,
      where: conditions.join(' AND '),
      params,
      orderBy: `${SORT_COLUMNS[q.sort.field]} ${q.sort.direction === 'desc' ? 'DESC' : 'ASC'}, r.slug ASC`,
      limit: q.limit,
      offset: q.offset,
    });
  }

  async findById(em: EntityManager, id: string): Promise<RoleRow | null> {
    const found = await rows<RoleRow>(em, `SELECT ${ROLE_COLUMNS} FROM roles r WHERE r.id = $1`, [id]);
    return found[0] ?? null;
  }

  /**
   * Locks a role row for the rest of the transaction and answers whether it exists and is a
   * system role. `update` blocks other writers of the row (and its deletion); `key-share` only
   * keeps it from being deleted (or its id changed) until commit.
   */
  async lock(
    em: EntityManager,
    id: string,
    mode: 'update' | 'no-key-update' | 'key-share',
  ): Promise<LockedRole | null> {
    const clause = {
      update: 'FOR UPDATE',
      'no-key-update': 'FOR NO KEY UPDATE',
      'key-share': 'FOR KEY SHARE',
    }[mode];
    const found = await rows<LockedRole>(
      em,
      `SELECT id, name, slug, is_system FROM roles WHERE id = $1 ${clause}`,
      [id],
    );
    return found[0] ?? null;
  }

  async insert(em: EntityManager, v: RoleValues): Promise<string> {
    const found = await rows<{ id: string }>(
      em,
      `INSERT INTO roles (name, slug, level, description) VALUES ($1, $2, $3, $4) RETURNING id`,
      [v.name, v.slug, v.level, v.description],
    );
    return found[0].id;
  }

  /** Absent (undefined) values keep the stored one; `description: null` clears it. */
  async update(em: EntityManager, id: string, v: Partial<RoleValues>): Promise<boolean> {
    const found = await rows<{ id: string }>(
      em,
      `UPDATE roles
          SET name = COALESCE($2, name),
              slug = COALESCE($3, slug),
              level = COALESCE($4, level),
              description = CASE WHEN $5::boolean THEN $6 ELSE description END,
              updated_at = now()
        WHERE id = $1 RETURNING id`,
      [
        id,
        v.name ?? null,
        v.slug ?? null,
        v.level ?? null,
        v.description !== undefined,
        v.description ?? null,
      ],
    );
    return found.length > 0;
  }

  async delete(em: EntityManager, id: string): Promise<boolean> {
    const found = await rows<{ id: string }>(em, `DELETE FROM roles WHERE id = $1 RETURNING id`, [id]);
    return found.length > 0;
  }

  async touch(em: EntityManager, id: string): Promise<void> {
    await em.query(`UPDATE roles SET updated_at = now() WHERE id = $1`, [id]);
  }

  // --- permissions of a role -------------------------------------------------------------------

  /** Of the given permission ids, those that exist, locked against deletion until commit. */
  async existingPermissionIds(em: EntityManager, ids: string[]): Promise<Set<string>> {
    const found = await rows<{ id: string }>(
      em,
      `SELECT id FROM permissions WHERE id = ANY($1::uuid[]) FOR KEY SHARE`,
      [ids],
    );
    return new Set(found.map((r) => r.id));
  }

  async addPermissions(em: EntityManager, roleId: string, permissionIds: string[]): Promise<void> {
    await em.query(
      `INSERT INTO role_permissions (role_id, permission_id)
       SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING`,
      [roleId, permissionIds],
    );
  }

  /** Deletes the role's rows for permissions outside `keep`. */
  async removePermissionsExcept(em: EntityManager, roleId: string, keep: string[]): Promise<void> {
    await em.query(`DELETE FROM role_permissions WHERE role_id = $1 AND permission_id <> ALL($2::uuid[])`, [
      roleId,
      keep,
    ]);
  }

  async removePermission(em: EntityManager, roleId: string, permissionId: string): Promise<boolean> {
    const found = await rows<{ role_id: string }>(
      em,
      `DELETE FROM role_permissions WHERE role_id = $1 AND permission_id = $2 RETURNING role_id`,
      [roleId, permissionId],
    );
    return found.length > 0;
  }

  // --- inheritance ---------------------------------------------------------------------------

  /** Whether `ancestorId` is `roleId` itself or one of the roles it inherits from, transitively. */
  async isSelfOrAncestor(em: EntityManager, roleId: string, ancestorId: string): Promise<boolean> {
    const found = await rows<{ found: boolean }>(
      em,
      `${ANCESTORS} SELECT ($1::uuid = $2::uuid OR EXISTS (SELECT 1 FROM ancestors WHERE id = $2)) AS found`,
      [roleId, ancestorId],
    );
    return found[0].found;
  }

  /** Whether the role is `Super Admin` or inherits from it (then it is a super-admin itself). */
  async isBuiltOnSuperAdmin(em: EntityManager, roleId: string): Promise<boolean> {
    const found = await rows<{ found: boolean }>(
      em,
      `${ANCESTORS}
       SELECT EXISTS (
         SELECT 1 FROM roles r
          WHERE (r.id = $1 OR r.id IN (SELECT id FROM ancestors)) AND r.slug = $2 AND r.is_system
       ) AS found`,
      [roleId, SUPER_ADMIN_SLUG],
    );
    return found[0].found;
  }

  /** false when the link was there already. */
  async link(em: EntityManager, parentId: string, childId: string): Promise<boolean> {
    const found = await rows<{ child_id: string }>(
      em,
      `INSERT INTO role_inherits (parent_id, child_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING child_id`,
      [parentId, childId],
    );
    return found.length > 0;
  }

  /** false when there was no such link. */
  async unlink(em: EntityManager, parentId: string, childId: string): Promise<boolean> {
    const found = await rows<{ child_id: string }>(
      em,
      `DELETE FROM role_inherits WHERE parent_id = $1 AND child_id = $2 RETURNING child_id`,
      [parentId, childId],
    );
    return found.length > 0;
  }
}
