import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ServiceError } from '../../common/errors';
import { SVC_CONNECTION } from '../../config/svc-options';
import { RbacService } from '../rbac/rbac.service';
import { AccountRow, UsersRepository } from './users.repository';

/** How long a read account row may be reused (SPEC 3.2: at most one read per 5 s per account). */
export const ACCOUNT_TTL_MS = 5000;
const MAX_CACHED_ACCOUNTS = 10_000;

/**
 * Account state for every session read. Bound on staleness: an entry lives 5 s, and every write
 * made through this instance drops it at once; other instances see a change within 5 s, inside
 * the 10 s SPEC 3.2 allows. Bound on size: 10,000 accounts, oldest evicted first.
 */
@Injectable()
export class AccountsService {
  private readonly logger = new Logger('Accounts');
  private readonly cache = new Map<string, { at: number; account: AccountRow | null }>();
  /** Bumped by every invalidation; see getAccount. */
  private generation = 0;

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly users: UsersRepository,
    private readonly rbac: RbacService,
  ) {}

  /** The account (or null when deleted). A database failure is a 500 DATABASE_ERROR, never "signed out". */
  async getAccount(userId: string): Promise<AccountRow | null> {
    const hit = this.cache.get(userId);
    if (hit && Date.now() - hit.at < ACCOUNT_TTL_MS) {
      return hit.account;
    }
    // A read that began before an invalidation must not store what it read (it may predate the write).
    const generation = this.generation;
    let account: AccountRow | null;
    try {
      account = await this.users.findAccountById(this.db.manager, userId);
    } catch (e) {
      this.logger.error({ err: e, userId }, 'account state could not be read');
      throw new ServiceError('DATABASE_ERROR', 'The session could not be checked; try again');
    }
    if (generation !== this.generation) {
      return account;
    }
    this.cache.delete(userId);
    if (this.cache.size >= MAX_CACHED_ACCOUNTS) {
      this.cache.delete(this.cache.keys().next().value as string);
    }
    this.cache.set(userId, { at: Date.now(), account });
    return account;
  }

  /**
   * The signed-in caller's own account (`GET /me`): the row the guard has just read for this
   * request, from the cache. NOT_FOUND if it was deleted since.
   */
  async currentAccount(userId: string): Promise<AccountRow> {
    const account = await this.getAccount(userId);
    if (!account) {
      throw new ServiceError('NOT_FOUND', 'No such user');
    }
    return account;
  }

  /** Read fresh, bypassing the cache (login, refresh: paths that end in a new session). */
  async loadAccount(em: EntityManager, userId: string): Promise<AccountRow | null> {
    return this.users.findAccountById(em, userId);
  }

  /**
   * The account's row locked until the caller's commit, then read as it is now (null: deleted).
   * Taken first by every path that mints a session and by every administrative write to an
   * account. Every session-ending write (password write, deactivation, deletion) updates that
   * row before it deletes refresh tokens, so a session being minted either sees it committed or
   * makes it wait and then have the new token deleted as well (SPEC 3.1, 3.3).
   */
  async lockAccount(em: EntityManager, userId: string): Promise<AccountRow | null> {
    return this.users.lockAccountById(em, userId);
  }

  async findByEmail(em: EntityManager, email: string): Promise<AccountRow | null> {
    return this.users.findAccountByEmail(em, email);
  }

  async anyUserExists(em: EntityManager): Promise<boolean> {
    return this.users.anyUserExists(em);
  }

  /** Creates an account with the given roles, inside the caller's transaction. */
  async createUser(
    em: EntityManager,
    u: { email: string; name: string; passwordHash: string | null; verified: boolean; roleIds?: string[] },
  ): Promise<string> {
    const id = await this.users.insertUser(em, u);
    for (const roleId of u.roleIds ?? []) {
      await this.users.addRole(em, id, roleId);
    }
    return id;
  }

  /**
   * A super-admin whose address counts as verified (first-run setup, `seed:admin`), inside the
   * caller's transaction.
   */
  async createSuperAdmin(
    em: EntityManager,
    u: { email: string; name: string; passwordHash: string },
  ): Promise<string> {
    const superAdmin = await this.rbac.superAdminRoleId(em);
    if (!superAdmin) {
      throw new ServiceError('INTERNAL_ERROR', 'The Super Admin role is missing; run the migrations');
    }
    return this.createUser(em, { ...u, verified: true, roleIds: [superAdmin] });
  }

  /**
   * `seed:admin` (seedSuperAdmin): a super-admin whatever accounts exist already; DUPLICATE when
   * the address is taken.
   */
  async seedSuperAdmin(u: { email: string; name: string; passwordHash: string }): Promise<string> {
    return this.db.transaction(async (em) => {
      if (await this.findByEmail(em, u.email)) {
        throw new ServiceError('DUPLICATE', `A user with the email ${u.email} already exists`);
      }
      return this.createSuperAdmin(em, u);
    });
  }

  /**
   * A failed password attempt, counted in the statement that decides the lock (SPEC 5.2.4);
   * false when the account is locked (the attempt is not counted).
   */
  recordFailedLogin(
    em: EntityManager,
    userId: string,
    maxAttempts: number,
    lockMinutes: number,
  ): Promise<boolean> {
    return this.users.recordFailedLogin(em, userId, maxAttempts, lockMinutes);
  }

  /**
   * A correct password, claimed under the account's row lock: `ok` only while the account is not
   * locked and still has the hash the password was checked against.
   */
  claimPasswordLogin(
    em: EntityManager,
    userId: string,
    checkedHash: string,
  ): Promise<'ok' | 'locked' | 'changed'> {
    return this.users.claimPasswordLogin(em, userId, checkedHash);
  }

  recordSuccessfulLogin(em: EntityManager, userId: string): Promise<void> {
    return this.users.recordSuccessfulLogin(em, userId);
  }

  invalidate(userId: string): void {
    this.generation += 1;
    this.cache.delete(userId);
  }

  /**
   * Ends every session of an account: the counter goes up (access tokens refused at the next
   * check) and its refresh tokens are deleted, inside the caller's transaction.
   */
  async revokeSessions(em: EntityManager, userId: string): Promise<void> {
    await this.users.revokeSessions(em, userId);
    this.invalidate(userId);
  }

  /** Deactivation (SPEC 3.1): inactive, counter raised and refresh tokens deleted in one transaction. */
  async setActive(userId: string, active: boolean, em?: EntityManager): Promise<void> {
    const run = async (tx: EntityManager) => {
      // The row before the super-admin lock, the order every account write takes them in.
      await this.users.lockAccountById(tx, userId);
      if (!active) {
        await this.assertNotLastSuperAdmin(tx, userId);
      }
      if (!(await this.users.setActive(tx, userId, active))) {
        throw new ServiceError('NOT_FOUND', 'No such user');
      }
      if (!active) {
        await this.users.revokeSessions(tx, userId);
      }
    };
    await (em ? run(em) : this.db.transaction(run));
    this.invalidate(userId);
  }

  /**
   * The last-super-admin rule (SPEC 3.1): the last active account holding `Super Admin` itself
   * cannot be deactivated, deleted or lose the role. Called inside the writing transaction; the
   * advisory lock makes concurrent removals wait for each other, so two can never remove the
   * last two.
   */
  async assertNotLastSuperAdmin(em: EntityManager, userId: string): Promise<void> {
    await this.users.lockSuperAdmins(em);
    const superAdmin = await this.rbac.superAdminRoleId(em);
    if (!superAdmin) {
      return;
    }
    const holders = await this.users.activeHoldersOf(em, superAdmin);
    if (holders.length === 1 && holders[0] === userId) {
      throw new ServiceError(
        'CONFLICT',
        'This is the last active super-admin: make another user super-admin first',
      );
    }
  }

  /** A profile write inside the caller's transaction. */
  async setProfile(
    em: EntityManager,
    userId: string,
    p: { name?: string; image?: string | null; custom?: Record<string, unknown> },
  ): Promise<void> {
    await this.users.updateProfile(em, userId, p);
    this.invalidate(userId);
  }

  async updateProfile(
    userId: string,
    p: { name?: string; image?: string | null; custom?: Record<string, unknown> },
  ): Promise<AccountRow> {
    await this.users.updateProfile(this.db.manager, userId, p);
    this.invalidate(userId);
    const account = await this.getAccount(userId);
    if (!account) {
      throw new ServiceError('NOT_FOUND', 'No such user');
    }
    return account;
  }
}
