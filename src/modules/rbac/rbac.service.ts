import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { type Awaitable, TtlCache } from '../../common/cache';
import { SVC_CONNECTION } from '../../config/svc-options';
import { RbacRepository, SUPER_ADMIN_SLUG } from './rbac.repository';
import { ChangeBus } from '../cluster/change-bus.service';

export interface ResolvedPermissions {
  isSuperAdmin: boolean;
  permissions: string[];
}

/** Same bound as account state: other instances see a role or permission change within 5 s. */
const PERMISSIONS_TTL_MS = 5000;
const MAX_CACHED_ROLE_SETS = 5000;

/**
 * Permission resolution, cached per role set. Bound on staleness: 5 s, and every role,
 * permission or inheritance write on this instance clears the whole cache (`invalidate()`, called
 * after commit). A resolution that was already reading when the cache was cleared is answered but
 * not stored (the generation moved on), so it cannot put the old value back.
 */
@Injectable()
export class RbacService {
  private readonly cache = new TtlCache<string, ResolvedPermissions>({
    max: MAX_CACHED_ROLE_SETS,
    ttlMs: PERMISSIONS_TTL_MS,
    name: 'permissions',
  });
  /** The permission catalogue, one entry, under the same bound. */
  private readonly catalogueCache = new TtlCache<'all', string[]>({ max: 1, ttlMs: PERMISSIONS_TTL_MS });

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: RbacRepository,
    // Optional: the seeding command builds this service alone.
    @Optional() @Inject(ChangeBus) private readonly changes: ChangeBus | null,
  ) {
    changes?.on('rbac', () => this.forget());
  }

  resolve(roleIds: string[]): Awaitable<ResolvedPermissions> {
    const key = [...roleIds].sort().join(',');
    return this.cache.getOrLoad(key, async () =>
      roleIds.length ? this.repo.resolve(this.db.manager, roleIds) : { isSuperAdmin: false, permissions: [] },
    );
  }

  /** Every permission slug (what a super-admin holds), cached like role sets. */
  catalogue(): Awaitable<string[]> {
    return this.catalogueCache.getOrLoad('all', () => this.repo.allPermissionSlugs(this.db.manager));
  }

  /** The permission slugs a principal holds, sorted, as `GET /me/permissions` answers them. */
  async held(p: ResolvedPermissions): Promise<string[]> {
    return p.isSuperAdmin ? this.catalogue() : [...p.permissions].sort();
  }

  /** Forget every resolution; call after the commit of a write that changes what a role grants. */
  invalidate(): void {
    this.forget();
    this.changes?.publish('rbac');
  }

  private forget(): void {
    this.cache.invalidate();
    this.catalogueCache.invalidate();
  }

  /**
   * Inside a write that a super-admin check decides: whether these roles make a super-admin, read
   * in the caller's transaction (not from the cache) with role inheritance held still until
   * commit (shared lock; link writes take it exclusively).
   */
  async grantsSuperAdmin(em: EntityManager, roleIds: string[]): Promise<boolean> {
    await this.repo.lockInheritance(em, 'shared');
    return roleIds.length > 0 && (await this.repo.resolve(em, roleIds)).isSuperAdmin;
  }

  /** Held until commit by every role-inheritance write (see RbacRepository.lockInheritance). */
  lockInheritance(em: EntityManager): Promise<void> {
    return this.repo.lockInheritance(em, 'exclusive');
  }

  superAdminRoleId(em: EntityManager = this.db.manager): Promise<string | null> {
    return this.repo.findRoleIdBySlug(em, SUPER_ADMIN_SLUG);
  }

  /** Of these roles, the ids that exist, kept from deletion until the caller's commit. */
  lockRoles(em: EntityManager, roleIds: string[]): Promise<string[]> {
    return this.repo.lockRoles(em, roleIds);
  }

  roleSlugs(roleIds: string[]): Promise<string[]> {
    return this.repo.roleSlugs(this.db.manager, roleIds);
  }

  /**
   * The permissions of a content resource (a collection or single: SPEC 2.3), created in the
   * caller's transaction and owned by its definition row `ownerId`. Answers the slugs that existed
   * already (nothing is written for them): they belong to someone else, and the caller refuses
   * the definition (which rolls back the ones created). With `claimExisting`, unowned ones are
   * taken over instead: only for the built-in media collection, whose permissions the first
   * migration seeds. The caller invalidates after its commit.
   */
  async registerResource(
    em: EntityManager,
    ownerId: string,
    resource: string,
    actions: readonly string[],
    opts: { claimExisting?: boolean } = {},
  ): Promise<string[]> {
    const slugs = actions.map((a) => `${a}-${resource}`);
    if (opts.claimExisting) {
      await this.repo.claimPermissions(em, ownerId, slugs);
    }
    const created = new Set(await this.repo.insertResourcePermissions(em, ownerId, resource, actions));
    if (opts.claimExisting) {
      return [];
    }
    return slugs.filter((s) => !created.has(s));
  }

  /** The ids of the roles with these slugs, in order; null when one of them names no role. */
  async roleIdsForSlugs(em: EntityManager, slugs: readonly string[]): Promise<string[] | null> {
    const ids: string[] = [];
    for (const slug of slugs) {
      const id = await this.repo.findRoleIdBySlug(em, slug);
      if (!id) {
        return null;
      }
      ids.push(id);
    }
    return ids;
  }

  /**
   * `publish-<resource>` for a definition with drafts (turned off: it goes). Made, or adopted when
   * an application created that slug itself, and granted to the roles holding
   * `update-<resource>`, so editors keep publishing as they did before the right existed.
   */
  async setPublishPermission(
    em: EntityManager,
    ownerId: string,
    resource: string,
    on: boolean,
  ): Promise<void> {
    if (!on) {
      await this.repo.deleteOwnedPermission(em, ownerId, `publish-${resource}`);
      return;
    }
    await this.registerResource(em, ownerId, resource, ['publish'], { claimExisting: true });
    await this.repo.grantToHoldersOf(em, `publish-${resource}`, `update-${resource}`);
  }

  /** Deletes the permissions a content definition created, never others bearing its slugs. */
  removeResource(em: EntityManager, ownerId: string): Promise<void> {
    return this.repo.deleteOwnedPermissions(em, ownerId);
  }
}
