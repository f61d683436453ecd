import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ServiceError } from '../../common/errors';
import { listRecord, ListRecord, parseListQuery } from '../../common/pagination';
import { SVC_CONNECTION } from '../../config/svc-options';
import { AuditService } from '../audit/audit.service';
import { AUDIT_EVENTS } from '../audit/audit.types';
import { isUniqueViolation } from '../../database/pg-errors';
import type { AuthContext } from '../../common/access/auth-context';
import type {
  AddChildRoleDto,
  AddRolePermissionsDto,
  CreateRoleDto,
  ReplaceRolePermissionsDto,
  UpdateRoleDto,
} from './dto/role.dto';
import { PermissionRecord, toPermissionRecord } from './permission.mapper';
import { PermissionSortField, PermissionsRepository } from './permissions.repository';
import { roleNotFound, unknownPermissions } from './rbac-errors';
import { RbacService } from './rbac.service';
import { RoleRecord, toRoleRecord } from './role.mapper';
import { deriveRoleSlug, emptyToNull } from './rbac-names';
import { RoleScope, RoleSortField, RolesRepository } from './roles.repository';

export const ROLE_SORTABLE: readonly RoleSortField[] = ['name', 'slug', 'level', 'createdAt'];
export const PERMISSION_SORTABLE: readonly PermissionSortField[] = [
  'slug',
  'resource',
  'action',
  'createdAt',
];

/**
 * Roles, their permission rows and inheritance (CONTRACTS 4). A child role inherits every
 * permission of its parents, transitively; a role built on `Super Admin` is a super-admin.
 *
 * Every write runs in one transaction with its audit row (event `role-changed`, CONTRACTS 14.3,
 * with `metadata.action` saying which: `role-created`, `role-updated`, `role-deleted`,
 * `role-permissions-added`..., target `role:<id>`) and clears the permission
 * cache after commit (`RbacService.invalidate()`), so it applies at once on this instance and
 * within the cache's 5 s bound on the others.
 */
@Injectable()
export class RolesService {
  private readonly logger = new Logger('Roles');

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly roles: RolesRepository,
    private readonly permissions: PermissionsRepository,
    private readonly rbac: RbacService,
    private readonly audit: AuditService,
  ) {}

  // --- roles -----------------------------------------------------------------------------------

  list(_auth: AuthContext, query: Record<string, unknown>): Promise<ListRecord<RoleRecord>> {
    return this.listRoles(query, null);
  }

  async get(_auth: AuthContext, id: string): Promise<RoleRecord> {
    return toRoleRecord(await this.mustFind(this.db.manager, id));
  }

  async create(auth: AuthContext, dto: CreateRoleDto): Promise<RoleRecord> {
    const slug = dto.slug ?? deriveRoleSlug(dto.name);
    if (!slug) {
      throw ServiceError.validation([
        {
          path: 'slug',
          code: 'required',
          message: 'The name gives no valid slug (it must start with a letter a-z); send a slug',
        },
      ]);
    }
    const permissionIds = unique(dto.permissionIds ?? []);
    return this.write(auth, 'role created', { slug }, async (em) => {
      await this.mustAllExist(em, [['permissionIds', permissionIds]]);
      const id = await this.roles.insert(em, {
        name: dto.name,
        slug,
        level: dto.level ?? 0,
        description: emptyToNull(dto.description),
      });
      await this.roles.addPermissions(em, id, permissionIds);
      return id;
    }).catch((e: unknown) => {
      throw duplicateSlug(e, slug);
    });
  }

  /** The system role (`Super Admin`) keeps its name and slug: 409 CONFLICT. */
  async update(auth: AuthContext, id: string, dto: UpdateRoleDto): Promise<RoleRecord> {
    const fields = Object.keys(dto).filter((k) => dto[k as keyof UpdateRoleDto] !== undefined);
    return this.write(auth, 'role updated', { fields }, async (em) => {
      const current = await this.mustLock(em, id, 'no-key-update');
      await this.assertMayChange(em, auth, [id]);
      if (
        current.is_system &&
        ((dto.name !== undefined && dto.name !== current.name) ||
          (dto.slug !== undefined && dto.slug !== current.slug))
      ) {
        throw new ServiceError(
          'CONFLICT',
          `The system role ${current.name} cannot be renamed or given another slug`,
        );
      }
      await this.roles.update(em, id, {
        name: dto.name,
        slug: dto.slug,
        level: dto.level,
        description: dto.description === undefined ? undefined : emptyToNull(dto.description),
      });
      return id;
    }).catch((e: unknown) => {
      throw duplicateSlug(e, dto.slug);
    });
  }

  /**
   * Deletes a role; its permission rows, inheritance links and user assignments go with it (the
   * roles that inherited from it lose what it granted). The system role: 409 CONFLICT.
   */
  async delete(auth: AuthContext, id: string): Promise<RoleRecord> {
    const row = await this.db.transaction(async (em) => {
      const current = await this.mustLock(em, id, 'update');
      if (current.is_system) {
        throw new ServiceError('CONFLICT', 'The system role Super Admin cannot be deleted');
      }
      await this.assertMayChange(em, auth, [id]);
      const before = await this.mustFind(em, id);
      await this.roles.delete(em, id);
      await this.recordAudit(em, auth, 'role deleted', id, { slug: before.slug });
      return before;
    });
    this.rbac.invalidate();
    this.logger.log({ roleId: id, actorId: auth.user.id }, 'role deleted');
    return toRoleRecord(row);
  }

  // --- permissions of a role -------------------------------------------------------------------

  /** The role's own permission rows as permission records (inherited ones: GET /me/permissions). */
  async listPermissions(
    _auth: AuthContext,
    id: string,
    query: Record<string, unknown>,
  ): Promise<ListRecord<PermissionRecord>> {
    const q = parseListQuery(query, {
      sortable: PERMISSION_SORTABLE,
      defaultSort: { field: 'slug', direction: 'asc' },
    });
    // The role is checked by the list statement itself (no statement of its own).
    const { rows, total, exists } = await this.permissions.list(this.db.manager, q, { roleId: id });
    if (!exists) {
      throw roleNotFound();
    }
    return listRecord(rows.map(toPermissionRecord), total, q);
  }

  /** Adds (already held ones are kept as they are). */
  async addPermissions(auth: AuthContext, id: string, dto: AddRolePermissionsDto): Promise<RoleRecord> {
    const sources: Array<[string, string[]]> = [
      ['permissionId', dto.permissionId ? [dto.permissionId] : []],
      ['permissionIds', dto.permissionIds ?? []],
    ];
    const ids = unique(sources.flatMap(([, list]) => list));
    return this.write(auth, 'role permissions added', { permissionIds: ids }, async (em) => {
      await this.mustLockEditablePermissions(em, auth, id);
      await this.mustAllExist(em, sources);
      await this.roles.addPermissions(em, id, ids);
      await this.roles.touch(em, id);
      return id;
    });
  }

  /** Replaces the whole set, in one transaction (the role row is locked, so replaces never mix). */
  async replacePermissions(
    auth: AuthContext,
    id: string,
    dto: ReplaceRolePermissionsDto,
  ): Promise<RoleRecord> {
    const ids = unique(dto.permissionIds);
    return this.write(auth, 'role permissions replaced', { permissionIds: ids }, async (em) => {
      await this.mustLockEditablePermissions(em, auth, id);
      await this.mustAllExist(em, [['permissionIds', ids]]);
      await this.roles.removePermissionsExcept(em, id, ids);
      await this.roles.addPermissions(em, id, ids);
      await this.roles.touch(em, id);
      return id;
    });
  }

  /** 404 NOT_FOUND when the role does not hold the permission itself. */
  async removePermission(auth: AuthContext, id: string, permissionId: string): Promise<RoleRecord> {
    return this.write(auth, 'role permission removed', { permissionIds: [permissionId] }, async (em) => {
      await this.mustLockEditablePermissions(em, auth, id);
      if (!(await this.roles.removePermission(em, id, permissionId))) {
        throw new ServiceError('NOT_FOUND', 'The role does not hold that permission');
      }
      await this.roles.touch(em, id);
      return id;
    });
  }

  // --- inheritance -----------------------------------------------------------------------------

  listChildren(
    _auth: AuthContext,
    id: string,
    query: Record<string, unknown>,
  ): Promise<ListRecord<RoleRecord>> {
    return this.listRoles(query, { childrenOf: id });
  }

  listParents(
    _auth: AuthContext,
    id: string,
    query: Record<string, unknown>,
  ): Promise<ListRecord<RoleRecord>> {
    return this.listRoles(query, { ancestorsOf: id });
  }

  /**
   * Makes `childId` inherit from role `id`. Decided in the database, without a race: every link is
   * added under one transaction-scoped advisory lock, so the cycle check always sees the links
   * committed before it and two opposite links can never both land.
   *
   * - unknown parent: 404; unknown child: 400 (`childId`);
   * - a role inheriting itself, `Super Admin` inheriting anything, or a cycle: 409 CONFLICT;
   * - only a super-admin may link under `Super Admin` or under a role built on it (SPEC 5.4.1):
   *   403 FORBIDDEN for anyone else.
   */
  async addChild(auth: AuthContext, id: string, dto: AddChildRoleDto): Promise<RoleRecord> {
    const childId = dto.childId;
    return this.write(auth, 'child role added', { childId }, async (em) => {
      await this.rbac.lockInheritance(em);
      // Both rows are kept from being deleted until commit (an FK error would be a 500).
      await this.mustLock(em, id, 'key-share');
      const child = await this.roles.lock(em, childId, 'key-share');
      if (!child) {
        throw ServiceError.validation([
          { path: 'childId', code: 'unknown_role', message: 'No role has this id' },
        ]);
      }
      if (childId === id) {
        throw new ServiceError('CONFLICT', 'A role cannot inherit from itself');
      }
      if (child.is_system) {
        throw new ServiceError(
          'CONFLICT',
          'The system role Super Admin holds every permission; it inherits from no role',
        );
      }
      if (!auth.isSuperAdmin && (await this.roles.isBuiltOnSuperAdmin(em, id))) {
        throw new ServiceError('FORBIDDEN', 'Only a super-admin can build a role on Super Admin');
      }
      await this.assertMayChange(em, auth, [childId]);
      if (await this.roles.isSelfOrAncestor(em, id, childId)) {
        throw new ServiceError(
          'CONFLICT',
          'The link would make a cycle: that role already inherits from this one',
        );
      }
      await this.roles.link(em, id, childId);
      return id;
    });
  }

  /**
   * 404 NOT_FOUND when `childId` is not a direct child of `id`. Unlinking a role from a lineage
   * that makes it a super-admin is a super-admin's change only (403 FORBIDDEN otherwise).
   */
  async removeChild(auth: AuthContext, id: string, childId: string): Promise<RoleRecord> {
    return this.write(auth, 'child role removed', { childId }, async (em) => {
      await this.rbac.lockInheritance(em);
      await this.mustFind(em, id);
      await this.assertMayChange(em, auth, [id, childId]);
      if (!(await this.roles.unlink(em, id, childId))) {
        throw new ServiceError('NOT_FOUND', 'That role does not inherit from this one');
      }
      return id;
    });
  }

  // --- helpers ---------------------------------------------------------------------------------

  private async listRoles(query: Record<string, unknown>, scope: RoleScope): Promise<ListRecord<RoleRecord>> {
    const q = parseListQuery(query, {
      sortable: ROLE_SORTABLE,
      defaultSort: { field: 'name', direction: 'asc' },
    });
    // The role of a scope is checked by the list statement itself (no statement of its own).
    const { rows, total, exists } = await this.roles.list(this.db.manager, q, scope);
    if (!exists) {
      throw roleNotFound();
    }
    return listRecord(rows.map(toRoleRecord), total, q);
  }

  /**
   * Runs a write in one transaction that answers the id of the role to return; reads that role
   * inside the transaction, then clears the permission cache once committed.
   */
  private async write(
    auth: AuthContext,
    event: string,
    details: Record<string, unknown>,
    fn: (em: EntityManager) => Promise<string>,
  ): Promise<RoleRecord> {
    const row = await this.db.transaction(async (em) => {
      const id = await fn(em);
      await this.recordAudit(em, auth, event, id, details);
      return this.mustFind(em, id);
    });
    this.rbac.invalidate();
    this.logger.log({ roleId: row.id, actorId: auth.user.id }, event);
    return toRoleRecord(row);
  }

  /**
   * The audit row of a role write: event `role-changed` (CONTRACTS 14.3), target `role:<id>`,
   * `metadata.action` the write (`role created` -> `role-created`) and its ids (never a secret).
   */
  private recordAudit(
    em: EntityManager,
    auth: AuthContext,
    action: string,
    roleId: string,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    return this.audit.record(
      {
        event: AUDIT_EVENTS.roleChanged,
        actorId: auth.user.id,
        target: `role:${roleId}`,
        metadata: { action: action.replace(/ /g, '-'), ...details },
      },
      em,
    );
  }

  private async mustFind(em: EntityManager, id: string) {
    const row = await this.roles.findById(em, id);
    if (!row) {
      throw roleNotFound();
    }
    return row;
  }

  private async mustLock(em: EntityManager, id: string, mode: 'update' | 'no-key-update' | 'key-share') {
    const row = await this.roles.lock(em, id, mode);
    if (!row) {
      throw roleNotFound();
    }
    return row;
  }

  /**
   * Locks the role for a change of its permission rows. `Super Admin` bypasses every check and
   * its rows are never read, so editing them would only mislead: 409 CONFLICT.
   */
  private async mustLockEditablePermissions(em: EntityManager, auth: AuthContext, id: string): Promise<void> {
    const role = await this.mustLock(em, id, 'no-key-update');
    if (role.is_system) {
      throw new ServiceError(
        'CONFLICT',
        'The system role Super Admin holds every permission; its permission rows cannot be edited',
      );
    }
    await this.assertMayChange(em, auth, [id]);
  }

  /**
   * Only a super-admin may change a role that is, or inherits, `Super Admin`: otherwise anyone
   * with update-roles or delete-roles could demote the super-admins built on it, whom they could
   * not touch directly. Decided inside the write, with role inheritance held still until commit.
   */
  private async assertMayChange(em: EntityManager, auth: AuthContext, roleIds: string[]): Promise<void> {
    if (!auth.isSuperAdmin && (await this.rbac.grantsSuperAdmin(em, roleIds))) {
      throw new ServiceError('FORBIDDEN', 'Only a super-admin can change a role built on Super Admin');
    }
  }

  /**
   * 400 VALIDATION_ERROR, one entry per body field, when an id names no permission. The found
   * ones stay locked against deletion until commit (an FK error would be a 500).
   */
  private async mustAllExist(em: EntityManager, sources: Array<[string, string[]]>): Promise<void> {
    const ids = unique(sources.flatMap(([, list]) => list));
    if (!ids.length) {
      return;
    }
    const found = await this.roles.existingPermissionIds(em, ids);
    const issues = sources
      .map(([path, list]) => ({ path, missing: list.filter((i) => !found.has(i)) }))
      .filter((s) => s.missing.length);
    if (issues.length) {
      throw unknownPermissions(issues);
    }
  }
}

function unique(ids: string[]): string[] {
  return [...new Set(ids)];
}

function duplicateSlug(e: unknown, slug: string | undefined): unknown {
  if (isUniqueViolation(e, 'roles_slug_key')) {
    return new ServiceError('DUPLICATE', `A role with the slug ${slug} exists already`, {
      errors: [{ path: 'slug', code: 'duplicate', message: 'slug is taken' }],
    });
  }
  return e;
}
