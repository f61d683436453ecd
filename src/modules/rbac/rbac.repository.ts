import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { lockKey, LockMode, xactLock } from '../../database/locks';
import { rows } from '../../database/sql';

export const SUPER_ADMIN_SLUG = 'super-admin';

@Injectable()
export class RbacRepository {
  /**
   * Effective permissions of a set of roles: their own and every ancestor's (a child inherits its
   * parents, transitively). UNION stops on a cycle. Super-admin when `Super Admin` is among them.
   */
  async resolve(
    em: EntityManager,
    roleIds: string[],
  ): Promise<{ isSuperAdmin: boolean; permissions: string[] }> {
    const found = await rows<{ is_super_admin: boolean | null; permissions: string[] }>(
      em,
      `WITH RECURSIVE lineage(id) AS (
         SELECT unnest($1::uuid[])
         UNION
         SELECT ri.parent_id FROM role_inherits ri JOIN lineage l ON ri.child_id = l.id
       )
       SELECT
         (SELECT bool_or(r.slug = $2 AND r.is_system) FROM roles r WHERE r.id IN (SELECT id FROM lineage)) AS is_super_admin,
         COALESCE((SELECT array_agg(DISTINCT p.slug ORDER BY p.slug)
                     FROM role_permissions rp JOIN permissions p ON p.id = rp.permission_id
                    WHERE rp.role_id IN (SELECT id FROM lineage)), '{}') AS permissions`,
      [roleIds, SUPER_ADMIN_SLUG],
    );
    return { isSuperAdmin: found[0]?.is_super_admin === true, permissions: found[0]?.permissions ?? [] };
  }

  /**
   * The advisory lock of role inheritance. Link writes take it exclusively (a cycle check then sees
   * every committed link, and who is a super-admin cannot change under a reader); a write decided
   * by "is this a super-admin" takes it shared, so lineage stays as it was read until commit.
   */
  lockInheritance(em: EntityManager, mode: LockMode): Promise<void> {
    return xactLock(em, lockKey('roleInheritance'), mode);
  }

  /**
   * Inserts `<action>-<resource>` for each action, owned by the content definition `ownerId`,
   * and answers the slugs it inserted. A slug that exists is left as it is and not answered: the
   * unique index decides, so a concurrent insert of the same slug (POST /permissions) is seen
   * whichever commits first.
   */
  async insertResourcePermissions(
    em: EntityManager,
    ownerId: string,
    resource: string,
    actions: readonly string[],
  ): Promise<string[]> {
    const found = await rows<{ slug: string }>(
      em,
      `INSERT INTO permissions (slug, action, resource, name, content_definition_id)
       SELECT a || '-' || $1, a, $1, upper(left(a, 1)) || substr(a, 2) || ' ' || $1, $3
         FROM unnest($2::text[]) AS a
       ON CONFLICT (slug) DO NOTHING
       RETURNING slug`,
      [resource, actions, ownerId],
    );
    return found.map((r) => r.slug);
  }

  /** Makes the unowned permissions among `slugs` owned by `ownerId`. */
  async claimPermissions(em: EntityManager, ownerId: string, slugs: readonly string[]): Promise<void> {
    await em.query(
      `UPDATE permissions SET content_definition_id = $1, updated_at = now()
        WHERE slug = ANY($2::text[]) AND content_definition_id IS NULL`,
      [ownerId, slugs],
    );
  }

  /** Deletes the permissions `ownerId` created; role grants go with them (ON DELETE CASCADE). */
  /**
   * Grants `slug` to every role granted `like` directly (inheritance carries it on): a new right
   * that splits off part of an existing one, so nobody loses what they could do.
   */
  async grantToHoldersOf(em: EntityManager, slug: string, like: string): Promise<void> {
    await em.query(
      `INSERT INTO role_permissions (role_id, permission_id)
       SELECT rp.role_id, p.id
         FROM permissions p, permissions l JOIN role_permissions rp ON rp.permission_id = l.id
        WHERE p.slug = $1 AND l.slug = $2
       ON CONFLICT DO NOTHING`,
      [slug, like],
    );
  }

  /** Deletes one permission a content definition owns (its grants go with it). */
  async deleteOwnedPermission(em: EntityManager, ownerId: string, slug: string): Promise<void> {
    await em.query(`DELETE FROM permissions WHERE content_definition_id = $1 AND slug = $2`, [ownerId, slug]);
  }

  async deleteOwnedPermissions(em: EntityManager, ownerId: string): Promise<void> {
    await em.query(`DELETE FROM permissions WHERE content_definition_id = $1`, [ownerId]);
  }

  async allPermissionSlugs(em: EntityManager): Promise<string[]> {
    const found = await rows<{ slug: string }>(em, `SELECT slug FROM permissions ORDER BY slug`);
    return found.map((r) => r.slug);
  }

  async findRoleIdBySlug(em: EntityManager, slug: string): Promise<string | null> {
    const found = await rows<{ id: string }>(em, `SELECT id FROM roles WHERE slug = $1`, [slug]);
    return found[0]?.id ?? null;
  }

  async lockRoles(em: EntityManager, roleIds: string[]): Promise<string[]> {
    const found = await rows<{ id: string }>(
      em,
      `SELECT id FROM roles WHERE id = ANY($1::uuid[]) FOR KEY SHARE`,
      [roleIds],
    );
    return found.map((r) => r.id);
  }

  async roleSlugs(em: EntityManager, roleIds: string[]): Promise<string[]> {
    const found = await rows<{ slug: string }>(em, `SELECT slug FROM roles WHERE id = ANY($1::uuid[])`, [
      roleIds,
    ]);
    return found.map((r) => r.slug);
  }
}
