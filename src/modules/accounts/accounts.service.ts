import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { SessionUser } from '../../common/access/auth-context';
import { type Awaitable, TtlCache } from '../../common/cache';
import { ServiceError } from '../../common/errors';
import { SVC_CONNECTION } from '../../config/svc-options';
import { RbacService } from '../rbac/rbac.service';
import type { AccountState, LockoutPolicy, PasswordCheck, PasswordClaim } from './accounts.types';
import { hashPassword, verifyPassword } from './passwords';
import { toAccountState, toSessionUser } from './user.mapper';
import { UsersRepository } from './users.repository';
import { AuditService } from '../audit/audit.service';
import { AUDIT_EVENTS } from '../audit/audit.types';

/** How long a read account row may be reused (SPEC 3.2: at most one read per 5 s per account). */
export const ACCOUNT_TTL_MS = 5000;
const MAX_CACHED_ACCOUNTS = 10_000;

/**
 * The hash each claim's password was checked against (checkPassword -> claimPasswordLogin), kept
 * here rather than on the claim, so the claim other modules hold carries no password material.
 */
const checkedHashes = new WeakMap<PasswordClaim, string>();

/**
 * Account state for every session read. Bound on staleness: an entry lives 5 s, and every write
 * made through this instance drops it at once; other instances see a change within 5 s, inside
 * the 10 s SPEC 3.2 allows. Bound on size: 10,000 accounts, least recently used evicted first.
 */
@Injectable()
export class AccountsService {
  private readonly logger = new Logger('Accounts');
  private readonly cache = new TtlCache<string, AccountState | null>({
    max: MAX_CACHED_ACCOUNTS,
    ttlMs: ACCOUNT_TTL_MS,
  });

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly users: UsersRepository,
    private readonly rbac: RbacService,
    private readonly audit: AuditService,
  ) {}

  /** The account (or null when deleted). A database failure is a 500 DATABASE_ERROR, never "signed out". */
  getAccount(userId: string): Awaitable<AccountState | null> {
    // A read that began before an invalidation does not store what it read (it may predate the write).
    return this.cache.getOrLoad(userId, async () => {
      try {
        return await this.loadAccount(this.db.manager, userId);
      } catch (e) {
        this.logger.error({ err: e, userId }, 'account state could not be read');
        throw new ServiceError('DATABASE_ERROR', 'The session could not be checked; try again');
      }
    });
  }

  /**
   * The signed-in caller's own account (`GET /me`): the row the guard has just read for this
   * request, from the cache. NOT_FOUND if it was deleted since.
   */
  async currentAccount(userId: string): Promise<AccountState> {
    const account = await this.getAccount(userId);
    if (!account) {
      throw new ServiceError('NOT_FOUND', 'No such user');
    }
    return account;
  }

  /** Read fresh, bypassing the cache (login, refresh: paths that end in a new session). */
  async loadAccount(em: EntityManager, userId: string): Promise<AccountState | null> {
    const row = await this.users.findAccountById(em, userId);
    return row && toAccountState(row);
  }

  /**
   * The account's row locked until the caller's commit, then read as it is now (null: deleted).
   * Taken first by every path that mints a session and by every administrative write to an
   * account. Every session-ending write (password write, deactivation, deletion) updates that
   * row before it deletes refresh tokens, so a session being minted either sees it committed or
   * makes it wait and then have the new token deleted as well (SPEC 3.1, 3.3).
   */
  async lockAccount(em: EntityManager, userId: string): Promise<AccountState | null> {
    const row = await this.users.lockAccountById(em, userId);
    return row && toAccountState(row);
  }

  async findByEmail(em: EntityManager, email: string): Promise<AccountState | null> {
    const row = await this.users.findAccountByEmail(em, email);
    return row && toAccountState(row);
  }

  /** A bcrypt(12) hash of a new password (about 200 ms): run it outside any transaction. */
  hashPassword(password: string): Promise<string> {
    return hashPassword(password);
  }

  /**
   * The password strategy's check (SPEC 5.2), outside any transaction: always one bcrypt
   * comparison, against a dummy hash when there is no account or no password. A failure is
   * counted in the statement that decides the lock (`lockout`: SPEC 5.2.4); a success is only
   * claimed later, under the row lock (`claimPasswordLogin`, with the answered claim). The caller
   * applies its own account gate (active, verified) to the answered account.
   */
  async checkPassword(email: string, password: string, lockout: LockoutPolicy): Promise<PasswordCheck> {
    const account = await this.users.findAccountByEmail(this.db.manager, email);
    const passwordOk = await verifyPassword(password, account?.password_hash ?? null);
    if (!account) {
      return { refused: 'invalid-credentials' };
    }
    if (account.locked_until && account.locked_until.getTime() > Date.now()) {
      return { refused: 'locked' };
    }
    if (!passwordOk) {
      const counted = await this.users.recordFailedLogin(
        this.db.manager,
        account.id,
        lockout.maxAttempts,
        lockout.lockMinutes,
      );
      return { refused: counted ? 'invalid-credentials' : 'locked' };
    }
    const claim: PasswordClaim = Object.freeze({ userId: account.id });
    // verifyPassword is true only against a stored hash.
    checkedHashes.set(claim, account.password_hash!);
    return { account: toAccountState(account), claim };
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
   * A correct password (a claim from `checkPassword`), claimed under the account's row lock: `ok`
   * only while the account is not locked and still has the hash the password was checked against.
   */
  claimPasswordLogin(em: EntityManager, claim: PasswordClaim): Promise<'ok' | 'locked' | 'changed'> {
    const checkedHash = checkedHashes.get(claim);
    if (checkedHash === undefined) {
      throw new Error('claimPasswordLogin: not a claim answered by checkPassword');
    }
    return this.users.claimPasswordLogin(em, claim.userId, checkedHash);
  }

  /**
   * The session user of an account (SPEC 2.1): `custom` holds the configured user fields only
   * (UserFieldsService.present); `roleIds` default to the account's roles.
   */
  sessionUser(account: AccountState, custom: Record<string, unknown>, roleIds?: string[]): SessionUser {
    return toSessionUser(account, custom, roleIds);
  }

  recordSuccessfulLogin(em: EntityManager, userId: string): Promise<void> {
    return this.users.recordSuccessfulLogin(em, userId);
  }

  invalidate(userId: string): void {
    this.cache.invalidate(userId);
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
  ): Promise<AccountState> {
    const fields = [
      ...(['name', 'image'] as const).filter((k) => p[k] !== undefined),
      ...Object.keys(p.custom ?? {}).map((k) => `custom.${k}`),
    ];
    await this.db.transaction(async (em) => {
      await this.users.updateProfile(em, userId, p);
      if (fields.length) {
        await this.audit.record(
          {
            event: AUDIT_EVENTS.userUpdated,
            actorId: userId,
            target: `user:${userId}`,
            metadata: { fields },
          },
          em,
        );
      }
    });
    this.invalidate(userId);
    const account = await this.getAccount(userId);
    if (!account) {
      throw new ServiceError('NOT_FOUND', 'No such user');
    }
    return account;
  }
}
