import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { SessionUser } from '../../common/access/auth-context';
import { newHashedToken, sha256Hex } from '../../common/crypto';
import { ServiceError } from '../../common/errors';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { AccountLifecycleService } from '../accounts/account-lifecycle.service';
import { AccountsService } from '../accounts/accounts.service';
import type { AccountState, CheckedPassword } from '../accounts/accounts.types';
import { AuditService } from '../audit/audit.service';
import { REFRESH_TTL_MS, TokensService } from '../identity/tokens.service';
import { UserFieldsService } from '../user-fields/user-fields.service';
import { CredentialsRepository } from './credentials.repository';
import { PendingChallenge, PendingLoginsService, SET_INITIAL_PASSWORD } from './pending-logins.service';

export const MAX_FAILED_LOGINS = 5;
export const LOCK_MINUTES = 15;
export const PASSWORD_STRATEGY = 'password';
/** SPEC 5.2.1: every login answer takes at least this long, whether or not the account exists. */
export const LOGIN_FLOOR_MS = 500;

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** A minted session: what the login-like routes answer and the cookies they set. */
export interface IssuedSession {
  user: SessionUser;
  token: string;
  exp: number;
  refreshToken: string;
}

export type LoginOutcome =
  { session: IssuedSession; challenge?: undefined } | { challenge: PendingChallenge; session?: undefined };

export type RefusalReason = 'invalid-credentials' | 'locked' | 'deactivated' | 'unverified';

const REFUSED = () => new ServiceError('AUTH_INVALID_CREDENTIALS', 'Invalid email or password');

@Injectable()
export class AuthService {
  private readonly logger = new Logger('Auth');
  private readonly rotations = new RecentRotations();

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
    private readonly accounts: AccountsService,
    private readonly credentials: CredentialsRepository,
    private readonly tokens: TokensService,
    private readonly audit: AuditService,
    private readonly pending: PendingLoginsService,
    private readonly userFields: UserFieldsService,
    private readonly lifecycle: AccountLifecycleService,
  ) {}

  /**
   * Email + password login (SPEC 5.2). Right credentials end in a session, or pause at a step (an
   * administrator-set password must be replaced first: SPEC 3.4). bcrypt runs outside any
   * transaction; what it decided is then claimed under the account's row lock (see
   * `claimPasswordLogin`), so a lockout, a password write or a deactivation that committed in
   * the meantime wins, and one that comes later waits for this session and then ends it.
   */
  async login(email: string, password: string, client: ClientInfo): Promise<LoginOutcome> {
    const checked = await this.checkPassword(email, password, client);
    const outcome = await this.db.transaction(
      async (em): Promise<LoginOutcome | { refused: RefusalReason }> => {
        const account = await this.claimPassword(em, checked);
        if ('refused' in account) {
          return account;
        }
        if (account.must_change_password) {
          const challenge = await this.pending.start(em, {
            userId: account.id,
            kind: SET_INITIAL_PASSWORD,
            strategy: PASSWORD_STRATEGY,
          });
          return { challenge };
        }
        return { session: await this.openSession(em, account, client, PASSWORD_STRATEGY) };
      },
    );
    return 'refused' in outcome ? this.refuse(outcome.refused, client) : outcome;
  }

  /**
   * The last step of the login paths that already hold a proof (setup, the forced password
   * change): the account row is locked and read again, and the session minted only while it may
   * hold one. Runs in the caller's transaction.
   */
  async finishLogin(
    em: EntityManager,
    account: AccountState,
    client: ClientInfo,
    strategy: string,
  ): Promise<IssuedSession> {
    const current = await this.accounts.lockAccount(em, account.id);
    if (!current || this.refusalReason(current)) {
      throw REFUSED();
    }
    return this.openSession(em, current, client, strategy);
  }

  /**
   * Direct API (in-process) login: the same checks, answered with a 30-day access token and no
   * refresh token (SPEC 2.4a).
   */
  async directLogin(
    email: string,
    password: string,
  ): Promise<{ user: SessionUser; token: string; exp: number }> {
    const client = { ip: null, userAgent: 'direct-api' };
    const checked = await this.checkPassword(email, password, client);
    const outcome = await this.db.transaction(async (em) => {
      const account = await this.claimPassword(em, checked);
      if ('refused' in account || account.must_change_password) {
        return account;
      }
      await this.accounts.recordSuccessfulLogin(em, account.id);
      await this.auditLogin(em, account.id, 'direct-api', client);
      return account;
    });
    if ('refused' in outcome) {
      return this.refuse(outcome.refused, client);
    }
    if (outcome.must_change_password) {
      throw new ServiceError(
        'FORBIDDEN',
        'The password was set by an administrator and must be replaced first',
      );
    }
    this.accounts.invalidate(outcome.id);
    const user = this.sessionUser(outcome);
    return { user, ...this.tokens.signAccess(user, outcome.ver, { direct: true }) };
  }

  /**
   * The password strategy (SPEC 5.2). Every refusal is the same error whatever the reason; only a
   * correct password on an unverified address says so. The reason goes to the log and to a
   * `login-failed` audit row that names no account. The password itself is checked by
   * AccountsService (always one bcrypt comparison; a failure counted in the statement that
   * decides the lock); a success is only claimed later, under the row lock (`claimPassword`).
   */
  private async checkPassword(email: string, password: string, client: ClientInfo): Promise<CheckedPassword> {
    const checked = await this.accounts.checkPassword(email, password, {
      maxAttempts: MAX_FAILED_LOGINS,
      lockMinutes: LOCK_MINUTES,
    });
    if ('refused' in checked) {
      return this.refuse(checked.refused, client);
    }
    const { account } = checked;
    if (!account.is_active) {
      return this.refuse('deactivated', client);
    }
    if (this.options.config.auth.requireEmailVerification && !account.email_verified_at) {
      await this.auditRefusal('unverified', client);
      throw new ServiceError('EMAIL_NOT_VERIFIED', 'Verify your email address before signing in');
    }
    return checked;
  }

  /**
   * Claims a checked password under the account's row lock: counters reset only if the account
   * is not locked and still has the checked hash; then the account as it is now (locked until
   * commit), or why it may not sign in.
   */
  private async claimPassword(
    em: EntityManager,
    checked: CheckedPassword,
  ): Promise<AccountState | { refused: RefusalReason }> {
    const claim = await this.accounts.claimPasswordLogin(em, checked.claim);
    if (claim !== 'ok') {
      return { refused: claim === 'locked' ? 'locked' : 'invalid-credentials' };
    }
    const account = await this.accounts.lockAccount(em, checked.account.id);
    const reason = account ? this.refusalReason(account) : 'invalid-credentials';
    return reason ? { refused: reason } : account!;
  }

  /** `POST /auth/setup`: creates the first super-admin, once, however many calls race. */
  async setup(
    input: { email: string; name: string; password: string },
    client: ClientInfo,
  ): Promise<IssuedSession> {
    // Cheap refusal first: after setup no call may cost a bcrypt hash (checked again under the lock).
    if (await this.accounts.anyUserExists(this.db.manager)) {
      throw new ServiceError('SETUP_COMPLETE', 'Setup has already been completed');
    }
    const passwordHash = await this.accounts.hashPassword(input.password);
    return this.db.transaction(async (em) => {
      await this.credentials.lockSetup(em);
      if (await this.accounts.anyUserExists(em)) {
        throw new ServiceError('SETUP_COMPLETE', 'Setup has already been completed');
      }
      const id = await this.accounts.createSuperAdmin(em, {
        email: input.email,
        name: input.name,
        passwordHash,
      });
      const account = await this.accounts.loadAccount(em, id);
      await this.audit.record({ event: 'setup', actorId: id, target: `user:${id}`, ip: client.ip }, em);
      return this.finishLogin(em, account!, client, 'setup');
    });
  }

  async setupCompleted(): Promise<boolean> {
    return this.accounts.anyUserExists(this.db.manager);
  }

  /**
   * Finishes a login paused for a forced password change: new password (the accounts' password
   * write, in this transaction), then the session.
   */
  async setInitialPassword(
    pendingToken: string | undefined,
    newPassword: string,
    client: ClientInfo,
  ): Promise<IssuedSession> {
    const passwordHash = await this.accounts.hashPassword(newPassword);
    const { session, account } = await this.db.transaction(async (em) => {
      const step = await this.pending.complete(em, pendingToken, SET_INITIAL_PASSWORD);
      await this.lifecycle.writePassword(em, step.user_id, passwordHash, {
        mustChange: false,
        markVerified: false,
      });
      const account = await this.accounts.loadAccount(em, step.user_id);
      if (!account || !this.maySignIn(account)) {
        throw new ServiceError('AUTH_INVALID_CREDENTIALS', 'Invalid email or password');
      }
      await this.lifecycle.queuePasswordChanged(em, account);
      return { session: await this.finishLogin(em, account, client, step.strategy), account };
    });
    this.lifecycle.passwordChanged(account);
    return session;
  }

  /**
   * Rotation in one transaction (SPEC 3.3). The conditional update decides a race: a request
   * that arrived before the winning rotation committed gets REFRESH_SUPERSEDED; a token matching
   * no live row otherwise (replayed, revoked, never issued) is REFRESH_FAILED.
   */
  async refresh(
    refreshToken: string | undefined,
    client: ClientInfo,
    arrivedAt: number,
  ): Promise<IssuedSession> {
    if (!refreshToken) {
      throw new ServiceError('REFRESH_FAILED', 'No refresh token; sign in again');
    }
    const hash = sha256Hex(refreshToken);
    const outcome = await this.db.transaction(async (em) => {
      // The account row first (shared): a session-ending write is then strictly before or after.
      await this.credentials.lockRefreshOwner(em, hash);
      const row = await this.credentials.consumeRefreshToken(em, hash);
      if (!row) {
        const raced = await this.credentials.consumedSinceArrival(em, hash, performance.now() - arrivedAt);
        return raced ? 'superseded' : 'not-found';
      }
      const account = await this.accounts.loadAccount(em, row.user_id);
      if (row.expired || !account || !this.maySignIn(account)) {
        await this.credentials.deleteRefreshToken(em, hash);
        return 'refused';
      }
      const session = await this.mintSession(em, account, client);
      await this.credentials.pruneRefreshTokens(em, account.id);
      await this.credentials.restampConsumed(em, row.id);
      return session;
    });
    if (typeof outcome === 'object') {
      this.rotations.record(hash);
      return outcome;
    }
    // The database's verdict can only err towards "not found" (the check's own latency makes the
    // request look later than it was); a rotation made here is compared on one monotonic clock.
    if (
      outcome === 'superseded' ||
      (outcome === 'not-found' && this.rotations.finishedAfter(hash, arrivedAt))
    ) {
      throw new ServiceError(
        'REFRESH_SUPERSEDED',
        'Another request refreshed this session first; retry once',
      );
    }
    if (outcome === 'not-found') {
      this.logger.warn('refresh-token-not-found');
      throw new ServiceError('REFRESH_FAILED', 'The refresh token is not valid; sign in again');
    }
    throw new ServiceError('REFRESH_FAILED', 'The session cannot be renewed; sign in again');
  }

  /** Deletes the session's refresh token row (when there is one). */
  async logout(refreshToken: string | undefined, client: ClientInfo): Promise<void> {
    if (!refreshToken) {
      return;
    }
    const userId = await this.credentials.deleteRefreshToken(this.db.manager, sha256Hex(refreshToken));
    if (userId) {
      await this.audit.record({ event: 'logout', actorId: userId, target: `user:${userId}`, ip: client.ip });
    }
  }

  /** The account gate of SPEC 3.1: active, verified (when required) and not locked. */
  maySignIn(account: AccountState): boolean {
    return this.refusalReason(account) === null;
  }

  private refusalReason(account: AccountState): RefusalReason | null {
    if (!account.is_active) {
      return 'deactivated';
    }
    if (this.options.config.auth.requireEmailVerification && account.email_verified_at === null) {
      return 'unverified';
    }
    if (account.locked_until && account.locked_until.getTime() > Date.now()) {
      return 'locked';
    }
    return null;
  }

  /**
   * Counters, session and the success audit row naming the strategy (SPEC 6), for an account
   * whose row this transaction has locked and read since.
   */
  private async openSession(
    em: EntityManager,
    account: AccountState,
    client: ClientInfo,
    strategy: string,
  ): Promise<IssuedSession> {
    await this.accounts.recordSuccessfulLogin(em, account.id);
    const session = await this.mintSession(em, account, client);
    await this.auditLogin(em, account.id, strategy, client);
    return session;
  }

  /** Access token with the current roles, plus a new refresh token row, in the caller's transaction. */
  private async mintSession(
    em: EntityManager,
    account: AccountState,
    client: ClientInfo,
  ): Promise<IssuedSession> {
    const user = this.sessionUser(account);
    const { token, exp } = this.tokens.signAccess(user, account.ver);
    const refresh = newHashedToken(REFRESH_TTL_MS);
    await this.credentials.insertRefreshToken(em, {
      userId: account.id,
      hash: refresh.hash,
      expiresAt: refresh.expiresAt,
      userAgent: client.userAgent,
      ip: client.ip,
    });
    this.accounts.invalidate(account.id);
    return { user, token, exp, refreshToken: refresh.token };
  }

  private auditLogin(em: EntityManager, userId: string, strategy: string, client: ClientInfo): Promise<void> {
    return this.audit.record(
      { event: 'login', actorId: userId, target: `user:${userId}`, metadata: { strategy }, ip: client.ip },
      em,
    );
  }

  private sessionUser(account: AccountState): SessionUser {
    return this.accounts.sessionUser(account, this.userFields.present(account.custom));
  }

  private async refuse(reason: RefusalReason, client: ClientInfo): Promise<never> {
    await this.auditRefusal(reason, client);
    throw REFUSED();
  }

  private async auditRefusal(reason: RefusalReason, client: ClientInfo): Promise<void> {
    this.logger.log({ reason }, 'login refused');
    await this.audit.record({
      event: 'login-failed',
      metadata: { reason, strategy: PASSWORD_STRATEGY },
      ip: client.ip,
    });
  }
}

/**
 * Rotations this instance finished in the last minute (token hash -> monotonic time), bounded to
 * 10,000 entries: a request that arrived before the rotation of its token finished was in flight
 * at the same time, so it lost a race (REFRESH_SUPERSEDED) rather than replayed an old token.
 */
class RecentRotations {
  private readonly finished = new Map<string, number>();

  record(hash: string): void {
    const now = performance.now();
    for (const [key, at] of this.finished) {
      if (now - at < 60_000 && this.finished.size < 10_000) {
        break;
      }
      this.finished.delete(key);
    }
    this.finished.set(hash, now);
  }

  finishedAfter(hash: string, arrivedAt: number): boolean {
    const at = this.finished.get(hash);
    return at !== undefined && arrivedAt <= at;
  }
}
