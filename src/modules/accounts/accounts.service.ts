import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AuthContext, SessionUser } from '../../common/access/auth-context';
import { type Awaitable, TtlCache } from '../../common/cache';
import { ServiceError } from '../../common/errors';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { RbacService } from '../rbac/rbac.service';
import type { AccountState, LockoutPolicy, PasswordCheck, PasswordClaim } from './accounts.types';
import { hashPassword, verifyPassword } from './passwords';
import { toAccountState, toSessionUser } from './user.mapper';
import { UsersRepository } from './users.repository';
import { AuditService } from '../audit/audit.service';
import { AUDIT_EVENTS } from '../audit/audit.types';
import { UserEvents } from './user-events.service';
import { ChangeBus } from '../cluster/change-bus.service';

/** SPEC 5.2.4: 5 wrong passwords in a row lock the account for 15 minutes (sign-in and reauthentication). */
export const PASSWORD_LOCKOUT: LockoutPolicy = { maxAttempts: 5, lockMinutes: 15 };

/** Wrong second-factor codes an account may send: `max` in `windowMinutes`, then `lockMinutes` of refusals. */
export const SECOND_FACTOR_LIMIT = { max: 10, windowMinutes: 15, lockMinutes: 15 };

/** A sensitive change made with anything but the browser session. */
export const BROWSER_SESSION_ONLY = () =>
  new ServiceError('AUTH_REQUIRED', 'Sign in with the browser session to make this change');

function secondFactorLocked(until: Date): ServiceError {
  const retryAfterSeconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  return ServiceError.rateLimited('codes', 'Too many wrong codes for this account; try again later', {
    retryAfterSeconds,
  });
}

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
    name: 'accounts',
  });

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    // Optional: the seeding command builds this service alone, without the service's options.
    @Optional() @Inject(SVC_OPTIONS) private readonly options: SvcOptions | null,
    private readonly users: UsersRepository,
    private readonly rbac: RbacService,
    private readonly audit: AuditService,
    // Optional as the options: seeding builds this service without the webhooks.
    @Optional() @Inject(UserEvents) private readonly events: UserEvents | null,
    // Optional: seeding builds this service alone (one instance: nothing to tell).
    @Optional() @Inject(ChangeBus) private readonly changes: ChangeBus | null,
  ) {
    changes?.on('accounts', (userId) => this.cache.invalidate(userId));
  }

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

  /**
   * A signed-in user's password proved again (`POST /auth/reauthenticate`): one bcrypt
   * comparison; a wrong one counts toward the lockout like a failed sign-in (SPEC 5.2.4), a right
   * one resets the counters, and a locked account is refused either way.
   */
  async recheckPassword(
    userId: string,
    password: string,
    lockout: LockoutPolicy,
  ): Promise<'ok' | 'wrong' | 'locked'> {
    const account = await this.users.findAccountById(this.db.manager, userId);
    const passwordOk = await verifyPassword(password, account?.password_hash ?? null);
    if (!account) {
      return 'wrong';
    }
    if (account.locked_until && account.locked_until.getTime() > Date.now()) {
      return 'locked';
    }
    if (!passwordOk) {
      const counted = await this.users.recordFailedLogin(
        this.db.manager,
        account.id,
        lockout.maxAttempts,
        lockout.lockMinutes,
      );
      return counted ? 'wrong' : 'locked';
    }
    const claimed = await this.users.claimPasswordLogin(this.db.manager, account.id, account.password_hash!);
    return claimed === 'ok' ? 'ok' : claimed === 'locked' ? 'locked' : 'wrong';
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
    const id = await this.createUser(em, { ...u, verified: true, roleIds: [superAdmin] });
    await this.events?.report(em, ['user.created'], id);
    return id;
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

  /** After the commit of a write to the account: this instance and the others forget it. */
  invalidate(userId: string): void {
    this.cache.invalidate(userId);
    this.changes?.publish('accounts', userId);
  }

  /**
   * A write to the account inside `em`'s transaction: this instance forgets it now, the others
   * when the transaction commits.
   */
  async invalidateIn(em: EntityManager, userId: string): Promise<void> {
    this.cache.invalidate(userId);
    await this.changes?.publishIn(em, 'accounts', userId);
  }

  /** This instance reads the account again (its copy is behind a token); nothing changed. */
  reread(userId: string): void {
    this.cache.invalidate(userId);
  }

  /**
   * Ends every session of an account: the counter goes up (access tokens refused at the next
   * check) and its refresh tokens are deleted, inside the caller's transaction.
   */
  async revokeSessions(em: EntityManager, userId: string): Promise<void> {
    await this.users.revokeSessions(em, userId);
    await this.invalidateIn(em, userId);
  }

  /**
   * Recent sign-in for sensitive changes ("sudo mode", CONTRACTS 14.6): registering a passkey,
   * enrolling or disabling TOTP, creating or rotating an API key and ending the other sessions
   * need the browser session (a stolen Bearer token cannot make them: 401 AUTH_REQUIRED) whose
   * owner proved a factor within `auth.reauthWindowSeconds` (the sign-in, or
   * `POST /auth/reauthenticate`; else 403 REAUTH_REQUIRED). The proof is on the session's
   * refresh-token row, read here (one indexed row; these routes are rare).
   */
  async assertRecentSignIn(auth: AuthContext | undefined): Promise<void> {
    if (!auth || auth.method !== 'session' || !auth.sessionId) {
      throw BROWSER_SESSION_ONLY();
    }
    const provedAt = await this.users.sessionProvedAt(this.db.manager, auth.user.id, auth.sessionId);
    if (!provedAt) {
      throw BROWSER_SESSION_ONLY();
    }
    const windowSeconds = this.options?.config.auth.reauthWindowSeconds ?? 600;
    if (provedAt.getTime() + windowSeconds * 1000 <= Date.now()) {
      throw new ServiceError(
        'REAUTH_REQUIRED',
        'Confirm it is you: enter your password (or a code from your authenticator app) again',
        { reauthenticate: '/admin/api/auth/reauthenticate' },
      );
    }
  }

  /**
   * Ending all sessions voids the account's paused logins, enrolment steps and emailed sign-in
   * links too (the step counter), inside the caller's transaction.
   */
  async voidSteps(em: EntityManager, userId: string): Promise<void> {
    await this.users.voidSteps(em, userId);
    await this.invalidateIn(em, userId);
  }

  /**
   * One second-factor check of the account (a challenge answer, disabling TOTP, reauthenticating
   * by code), limited per account whatever the IP: after 10 wrong codes in 15 minutes every code
   * is refused for 15 minutes, right or wrong (429, audited `mfa-locked` once). The attempt is
   * counted before `check` runs, so parallel guesses cannot pass the limit; a right code starts
   * the count over.
   */
  async secondFactorAttempt(
    userId: string,
    check: () => Promise<boolean>,
    client: { ip: string | null } = { ip: null },
  ): Promise<boolean> {
    const reserved = await this.users.reserveSecondFactorAttempt(this.db.manager, userId, {
      max: SECOND_FACTOR_LIMIT.max,
      windowMinutes: SECOND_FACTOR_LIMIT.windowMinutes,
    });
    if ('refusedUntil' in reserved) {
      throw secondFactorLocked(reserved.refusedUntil);
    }
    const right = await check();
    if (right) {
      await this.users.resetSecondFactorAttempts(this.db.manager, userId);
      return true;
    }
    if (reserved.count >= SECOND_FACTOR_LIMIT.max) {
      await this.db.transaction(async (em) => {
        if (await this.users.lockSecondFactor(em, userId, SECOND_FACTOR_LIMIT.lockMinutes)) {
          this.logger.warn({ userId }, 'second-factor codes locked after too many wrong answers');
          await this.audit.record(
            {
              event: AUDIT_EVENTS.mfaLocked,
              actorId: userId,
              target: `user:${userId}`,
              metadata: { failures: reserved.count, lockMinutes: SECOND_FACTOR_LIMIT.lockMinutes },
              ip: client.ip,
            },
            em,
          );
        }
      });
    }
    return false;
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
    if (em) {
      await run(em);
      await this.invalidateIn(em, userId);
    } else {
      await this.db.transaction(run);
      this.invalidate(userId);
    }
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
    await this.invalidateIn(em, userId);
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
        await this.events?.report(em, ['user.updated'], userId);
      }
    });
    this.events?.wake();
    this.invalidate(userId);
    const account = await this.getAccount(userId);
    if (!account) {
      throw new ServiceError('NOT_FOUND', 'No such user');
    }
    return account;
  }
}
