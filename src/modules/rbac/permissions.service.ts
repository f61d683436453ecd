import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ServiceError } from '../../common/errors';
import { listRecord, ListRecord, parseListQuery } from '../../common/pagination';
import { SVC_CONNECTION } from '../../config/svc-options';
import { isUniqueViolation } from '../../database/pg-errors';
import type { AuthContext } from '../../common/access/auth-context';
import { AuditService } from '../audit/audit.service';
import { AUDIT_EVENTS } from '../audit/audit.types';
import type { CreatePermissionDto, UpdatePermissionDto } from './dto/permission.dto';
import { PermissionRecord, toPermissionRecord } from './permission.mapper';
import { PermissionSortField, PermissionsRepository } from './permissions.repository';
import { permissionNotFound } from './rbac-errors';
import { CORE_PERMISSION_SLUGS } from './rbac.constants';
import { RbacService } from './rbac.service';
import { defaultPermissionName, emptyToNull, permissionSlug } from './rbac-names';

export const SORTABLE: readonly PermissionSortField[] = ['slug', 'resource', 'action', 'createdAt'];

/**
 * The permission catalogue. Creating or deleting a permission changes what super-admins hold and
 * what roles grant, so both clear the permission cache after commit. Every write is audited as
 * `permission-changed` (CONTRACTS 14.3; `metadata.action` created/updated/deleted, the slug) in
 * its transaction.
 */
@Injectable()
export class PermissionsService {
  private readonly logger = new Logger('Permissions');

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: PermissionsRepository,
    private readonly rbac: RbacService,
    private readonly audit: AuditService,
  ) {}

  async list(_auth: AuthContext, query: Record<string, unknown>): Promise<ListRecord<PermissionRecord>> {
    const q = parseListQuery(query, { sortable: SORTABLE, defaultSort: { field: 'slug', direction: 'asc' } });
    const { rows, total } = await this.repo.list(this.db.manager, q);
    return listRecord(rows.map(toPermissionRecord), total, q);
  }

  async get(_auth: AuthContext, id: string): Promise<PermissionRecord> {
    const row = await this.repo.findById(this.db.manager, id);
    if (!row) {
      throw permissionNotFound();
    }
    return toPermissionRecord(row);
  }

  /** The slug is `<action>-<resource>`; a taken one is 409 DUPLICATE. */
  async create(auth: AuthContext, dto: CreatePermissionDto): Promise<PermissionRecord> {
    const slug = permissionSlug(dto.action, dto.resource);
    let row;
    try {
      row = await this.db.transaction(async (em) => {
        const created = await this.repo.insert(em, {
          slug,
          action: dto.action,
          resource: dto.resource,
          name: dto.name ?? defaultPermissionName(dto.action, dto.resource),
          description: emptyToNull(dto.description),
        });
        await this.recordAudit(em, auth, 'permission-created', created.id, { slug });
        return created;
      });
    } catch (e) {
      if (isUniqueViolation(e, 'permissions_slug_key')) {
        throw new ServiceError('DUPLICATE', `The permission ${slug} exists already`, {
          errors: [{ path: 'resource', code: 'duplicate', message: `${slug} exists already` }],
        });
      }
      throw e;
    }
    this.rbac.invalidate();
    this.logger.log({ permissionId: row.id, slug, actorId: auth.user.id }, 'permission created');
    return toPermissionRecord(row);
  }

  /** Name and description only: the slug (and so action and resource) is what routes check. */
  async update(auth: AuthContext, id: string, dto: UpdatePermissionDto): Promise<PermissionRecord> {
    const row = await this.db.transaction(async (em) => {
      const updated = await this.repo.update(em, id, {
        name: dto.name,
        description: dto.description === undefined ? undefined : emptyToNull(dto.description),
      });
      if (!updated) {
        throw permissionNotFound();
      }
      const fields = Object.keys(dto).filter((k) => dto[k as keyof UpdatePermissionDto] !== undefined);
      await this.recordAudit(em, auth, 'permission-updated', id, { slug: updated.slug, fields });
      return updated;
    });
    this.logger.log({ permissionId: id, actorId: auth.user.id }, 'permission updated');
    return toPermissionRecord(row);
  }

  /**
   * Deletes the permission and every role's row of it. The permissions the service's own routes
   * check (CONTRACTS 12) and those of a content type cannot be deleted: 409 CONFLICT.
   */
  async delete(auth: AuthContext, id: string): Promise<PermissionRecord> {
    const row = await this.db.transaction(async (em) => {
      const current = await this.repo.findById(em, id, { forUpdate: true });
      if (!current) {
        throw permissionNotFound();
      }
      if (CORE_PERMISSION_SLUGS.has(current.slug)) {
        throw new ServiceError(
          'CONFLICT',
          `The core permission ${current.slug} is checked by the service's own routes and cannot be deleted`,
        );
      }
      // A collection's or single's own permission goes with its definition, never alone (the
      // content access checks would otherwise lose it while the definition stays).
      const owner = await this.repo.ownerOf(em, id);
      if (owner) {
        throw new ServiceError(
          'CONFLICT',
          `The permission ${current.slug} belongs to the content type "${owner}" and is deleted with it`,
        );
      }
      const deleted = await this.repo.delete(em, id);
      if (deleted) {
        await this.recordAudit(em, auth, 'permission-deleted', id, { slug: deleted.slug });
      }
      return deleted;
    });
    if (!row) {
      throw permissionNotFound();
    }
    this.rbac.invalidate();
    this.logger.log({ permissionId: id, slug: row.slug, actorId: auth.user.id }, 'permission deleted');
    return toPermissionRecord(row);
  }

  private recordAudit(
    em: EntityManager,
    auth: AuthContext,
    action: string,
    id: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.record(
      {
        event: AUDIT_EVENTS.permissionChanged,
        actorId: auth.user.id,
        target: `permission:${id}`,
        metadata: { action, ...details },
      },
      em,
    );
  }
}
