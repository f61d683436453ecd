import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ServiceError } from '../../common/errors';
import { ListQuery, ListRecord, listRecord } from '../../common/pagination';
import { SVC_CONNECTION } from '../../config/svc-options';
import { isUniqueViolation } from '../../database/pg-errors';
import type { AuthContext } from '../../common/access/auth-context';
import { AuditService } from '../audit/audit.service';
import { AUDIT_EVENTS } from '../audit/audit.types';
import { AccountLifecycleService } from './account-lifecycle.service';
import { hashPassword } from './passwords';
import { RbacService } from '../rbac/rbac.service';
import { UserFieldsService } from '../user-fields/user-fields.service';
import { AccountsService } from './accounts.service';
import type { AccountState, RoleRef, UserSortField } from './accounts.types';
import { toUserRecord, UserRecord } from './user.mapper';
import { AccountRow, ListedAccountRow, UsersRepository } from './users.repository';
import { UserEvents } from './user-events.service';

export interface CreateUserInput {
  email: string;
  name: string;
  password?: string;
  roleIds?: string[];
  isActive?: boolean;
  emailVerified?: boolean;
  requirePasswordChange?: boolean;
  sendInvite?: boolean;
  custom: Record<string, unknown>;
}

export interface UpdateUserInput {
  email?: string;
  name?: string;
  image?: string | null;
  isActive?: boolean;
  emailVerified?: boolean;
  custom: Record<string, unknown>;
}

const DUPLICATE_EMAIL = () => new ServiceError('DUPLICATE', 'A user with this email address already exists');

/**
 * The `/users` administration (SPEC 4.2, CONTRACTS 4). Guards that keep it safe: only a
 * super-admin may grant `Super Admin` or touch a super-admin's account, and the last active
 * account holding `Super Admin` cannot be removed (AccountsService.assertNotLastSuperAdmin).
 */
@Injectable()
export class UsersAdminService {
  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: UsersRepository,
    private readonly accounts: AccountsService,
    private readonly rbac: RbacService,
    private readonly lifecycle: AccountLifecycleService,
    private readonly userFields: UserFieldsService,
    private readonly audit: AuditService,
    private readonly events: UserEvents,
  ) {}

  async list(q: ListQuery<UserSortField>): Promise<ListRecord<UserRecord>> {
    const { items, total } = await this.repo.list(this.db.manager, q);
    return listRecord(
      items.map((a) => this.record(a)),
      total,
      q,
    );
  }

  async get(id: string): Promise<UserRecord> {
    return this.record(await this.load(id));
  }

  async create(auth: AuthContext, input: CreateUserInput): Promise<UserRecord> {
    const roleIds = [...new Set(input.roleIds ?? [])];
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    const { id, invite } = await this.db
      .transaction(async (em) => {
        await this.assertRolesGrantable(em, auth, roleIds);
        if (await this.accounts.findByEmail(em, input.email)) {
          throw DUPLICATE_EMAIL();
        }
        const id = await this.accounts.createUser(em, {
          email: input.email,
          name: input.name,
          passwordHash,
          verified: input.emailVerified ?? false,
          roleIds,
        });
        await this.repo.update(em, id, { custom: input.custom });
        if (input.isActive === false) {
          await this.repo.setActive(em, id, false);
        }
        if (passwordHash && input.requirePasswordChange) {
          await this.repo.setMustChangePassword(em, id, true);
        }
        // No password: the invitation lets the person choose one (the link proves the address).
        const invite = !passwordHash && input.sendInvite ? await this.lifecycle.invite(id, em) : null;
        await this.audit.record(
          {
            event: AUDIT_EVENTS.userCreated,
            actorId: auth.user.id,
            target: `user:${id}`,
            metadata: {
              roleIds,
              isActive: input.isActive !== false,
              emailVerified: input.emailVerified ?? false,
              passwordSet: passwordHash !== null,
              invited: invite !== null,
            },
          },
          em,
        );
        await this.events.report(em, ['user.created'], id);
        return { id, invite };
      })
      .catch(rethrowDuplicate);
    this.events.wake();
    invite?.send();
    return this.get(id);
  }

  /**
   * An account made by a plugin's sign-in (CONTRACTS 10: `ctx.users.create`): no password, the
   * roles of these slugs, its `register` audit row naming the plugin, one transaction. The roles
   * are the operator's configuration, so an unknown slug or one granting super-admin is a
   * configuration error (500 INTERNAL_ERROR, logged), never a sign-up made super-admin.
   */
  async createForPlugin(
    plugin: string,
    input: { email: string; name: string; emailVerified: boolean; roles: readonly string[] },
  ): Promise<AccountState> {
    const id = await this.db
      .transaction(async (em) => {
        const roleIds = await this.rbac.roleIdsForSlugs(em, [...new Set(input.roles)]);
        if (!roleIds) {
          throw new ServiceError('INTERNAL_ERROR', `plugin "${plugin}": a role it grants does not exist`);
        }
        if (roleIds.length && (await this.rbac.grantsSuperAdmin(em, roleIds))) {
          throw new ServiceError(
            'INTERNAL_ERROR',
            `plugin "${plugin}": its sign-up may not grant Super Admin`,
          );
        }
        if (await this.accounts.findByEmail(em, input.email)) {
          throw DUPLICATE_EMAIL();
        }
        const id = await this.accounts.createUser(em, {
          email: input.email,
          name: input.name,
          passwordHash: null,
          verified: input.emailVerified,
          roleIds,
        });
        await this.audit.record(
          { event: 'register', actorId: id, target: `user:${id}`, metadata: { plugin } },
          em,
        );
        await this.events.report(em, ['user.created'], id);
        return id;
      })
      .catch(rethrowDuplicate);
    this.events.wake();
    return this.accounts.currentAccount(id);
  }

  async update(auth: AuthContext, id: string, input: UpdateUserInput): Promise<UserRecord> {
    await this.db
      .transaction(async (em) => {
        const target = await this.lockManageable(em, auth, id);
        if (input.email && input.email.toLowerCase() !== target.email.toLowerCase()) {
          const other = await this.accounts.findByEmail(em, input.email);
          if (other && other.id !== id) {
            throw DUPLICATE_EMAIL();
          }
        }
        await this.repo.update(em, id, input);
        const deactivated = input.isActive === false && target.is_active;
        if (input.isActive !== undefined && input.isActive !== target.is_active) {
          await this.accounts.setActive(id, input.isActive, em);
        }
        await this.auditUpdate(em, auth, id, input, deactivated);
        const changed =
          (['email', 'name', 'image', 'emailVerified'] as const).some((k) => input[k] !== undefined) ||
          Object.keys(input.custom ?? {}).length > 0;
        const activated = input.isActive === true && !target.is_active;
        await this.events.report(
          em,
          [
            ...(changed ? (['user.updated'] as const) : []),
            ...(deactivated ? (['user.deactivated'] as const) : []),
            ...(activated ? (['user.activated'] as const) : []),
          ],
          id,
        );
      })
      .catch(rethrowDuplicate);
    this.events.wake();
    this.accounts.invalidate(id);
    return this.get(id);
  }

  /** Removes the user; their refresh tokens, emailed links and (later) API keys go with them. */
  async remove(auth: AuthContext, id: string): Promise<UserRecord> {
    const target = await this.db.transaction(async (em) => {
      const target = await this.lockManageable(em, auth, id);
      await this.accounts.assertNotLastSuperAdmin(em, id);
      await this.events.reportRecord(em, ['user.deleted'], this.record(target));
      await this.repo.delete(em, id);
      await this.audit.record({ event: 'user-deleted', actorId: auth.user.id, target: `user:${id}` }, em);
      return target;
    });
    this.events.wake();
    this.accounts.invalidate(id);
    return this.record(target);
  }

  async setPassword(
    auth: AuthContext,
    id: string,
    password: string,
    requirePasswordChange: boolean,
  ): Promise<void> {
    await this.lifecycle.setPasswordByAdmin(
      id,
      password,
      requirePasswordChange,
      (em) => this.lockManageable(em, auth, id),
      auth.user.id,
    );
  }

  /**
   * The users routes' rule for another account, for a plugin route acting on it (CONTRACTS 13.1:
   * a reset of someone's second factor): NOT_FOUND when there is none, FORBIDDEN for a
   * super-admin's account unless `auth` is a super-admin.
   */
  async assertManageable(auth: AuthContext, id: string): Promise<void> {
    await this.db.transaction((em) => this.lockManageable(em, auth, id));
  }

  /**
   * `fn` in the transaction that checked (and locked) the account as `assertManageable` does, so
   * the account cannot become a super-admin's between the check and the write.
   */
  async whileManageable<T>(auth: AuthContext, id: string, fn: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(async (em) => {
      await this.lockManageable(em, auth, id);
      return fn(em);
    });
  }

  async roles(id: string): Promise<ListRecord<RoleRef>> {
    const { roles } = await this.load(id);
    return listRecord(roles, roles.length, { page: 1, limit: Math.max(roles.length, 1) });
  }

  async addRole(auth: AuthContext, id: string, roleId: string): Promise<UserRecord> {
    await this.db.transaction(async (em) => {
      await this.lockManageable(em, auth, id);
      await this.assertRolesGrantable(em, auth, [roleId]);
      await this.repo.addRole(em, id, roleId);
      await this.auditRoles(em, auth, id, 'user-role-added', roleId);
    });
    this.accounts.invalidate(id);
    return this.get(id);
  }

  async removeRole(auth: AuthContext, id: string, roleId: string): Promise<UserRecord> {
    await this.db.transaction(async (em) => {
      await this.lockManageable(em, auth, id);
      if (roleId === (await this.rbac.superAdminRoleId(em))) {
        await this.accounts.assertNotLastSuperAdmin(em, id);
      }
      if (!(await this.repo.removeRole(em, id, roleId))) {
        throw new ServiceError('NOT_FOUND', 'The user does not hold this role');
      }
      await this.auditRoles(em, auth, id, 'user-role-removed', roleId);
    });
    this.accounts.invalidate(id);
    return this.get(id);
  }

  /**
   * The audit rows of a user update, in its transaction: `user-updated` naming the fields sent
   * (custom fields as `custom.<name>`; never their values), and `user-deactivated` when the
   * account went from active to inactive (alone when nothing else was sent).
   */
  private async auditUpdate(
    em: EntityManager,
    auth: AuthContext,
    id: string,
    input: UpdateUserInput,
    deactivated: boolean,
  ): Promise<void> {
    const fields = [
      ...(['email', 'name', 'image', 'isActive', 'emailVerified'] as const).filter(
        (k) => input[k] !== undefined && !(k === 'isActive' && deactivated),
      ),
      ...Object.keys(input.custom ?? {}).map((k) => `custom.${k}`),
    ];
    const target = `user:${id}`;
    if (fields.length) {
      await this.audit.record(
        { event: AUDIT_EVENTS.userUpdated, actorId: auth.user.id, target, metadata: { fields } },
        em,
      );
    }
    if (deactivated) {
      await this.audit.record({ event: AUDIT_EVENTS.userDeactivated, actorId: auth.user.id, target }, em);
    }
  }

  /** `role-changed` about a user's roles (CONTRACTS 14.3), target the user. */
  private auditRoles(
    em: EntityManager,
    auth: AuthContext,
    id: string,
    action: 'user-role-added' | 'user-role-removed',
    roleId: string,
  ): Promise<void> {
    return this.audit.record(
      {
        event: AUDIT_EVENTS.roleChanged,
        actorId: auth.user.id,
        target: `user:${id}`,
        metadata: { action, roleId },
      },
      em,
    );
  }

  private async load(id: string): Promise<AccountRow> {
    const account = await this.repo.findAccountById(this.db.manager, id);
    if (!account) {
      throw new ServiceError('NOT_FOUND', 'No such user');
    }
    return account;
  }

  /** Synchronous: the custom fields come from the loaded definitions (UserFieldsService.present). */
  private record(a: ListedAccountRow): UserRecord {
    return toUserRecord(a, this.userFields.present(a.custom));
  }

  /**
   * Every role must exist (and is kept from deletion until commit); `Super Admin` or a role built
   * on it only from a super-admin (SPEC 5.4.1). Inside the writing transaction, role inheritance
   * held still, so what was checked is what gets granted.
   */
  private async assertRolesGrantable(em: EntityManager, auth: AuthContext, roleIds: string[]): Promise<void> {
    if (!roleIds.length) {
      return;
    }
    if ((await this.rbac.lockRoles(em, roleIds)).length !== roleIds.length) {
      throw ServiceError.validation([
        { path: 'roleIds', code: 'exists', message: 'every role id must name a role' },
      ]);
    }
    if (!auth.isSuperAdmin && (await this.rbac.grantsSuperAdmin(em, roleIds))) {
      throw new ServiceError('FORBIDDEN', 'Only a super-admin can grant the Super Admin role');
    }
  }

  /**
   * The target account, its row locked until commit; a super-admin's account is changed only by
   * a super-admin (else anyone with update-users could take it over). Decided under the row lock
   * (role assignments wait for it) with role inheritance held still, so the check cannot be
   * outrun by a grant of `Super Admin` committed in between.
   */
  private async lockManageable(em: EntityManager, auth: AuthContext, id: string): Promise<AccountState> {
    const target = await this.accounts.lockAccount(em, id);
    if (!target) {
      throw new ServiceError('NOT_FOUND', 'No such user');
    }
    if (
      !auth.isSuperAdmin &&
      (await this.rbac.grantsSuperAdmin(
        em,
        target.roles.map((r) => r.id),
      ))
    ) {
      throw new ServiceError('FORBIDDEN', "Only a super-admin can change a super-admin's account");
    }
    return target;
  }
}

/** A concurrent insert or update of the same address: the unique index decides. */
function rethrowDuplicate(e: unknown): never {
  if (isUniqueViolation(e)) {
    throw DUPLICATE_EMAIL();
  }
  throw e;
}
