import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { Request, Response } from 'express';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { SessionUser } from '../../common/access/auth-context';
import { newHashedToken, sha256Hex } from '../../common/crypto';
import { ServiceError } from '../../common/errors';
import { safeNext } from '../../common/redirects';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { AccountLifecycleService } from '../accounts/account-lifecycle.service';
import { AccountsService, PASSWORD_LOCKOUT } from '../accounts/accounts.service';
import type { AccountState, CheckedPassword } from '../accounts/accounts.types';
import { AuditService } from '../audit/audit.service';
import { REFRESH_TTL_MS, TokensService } from '../identity/tokens.service';
import { UserFieldsService } from '../user-fields/user-fields.service';
import {
  type CompleteLoginOptions,
  type EnrolmentClaim,
  type EnrolmentOutcome,
  type HookUser,
  MFA_ENROL,
  type PluginDefinition,
} from '../plugins/plugin.types';
import { PluginsService } from '../plugins/plugins.service';
import { clearPendingCookie, setPendingCookie, setSessionCookies } from './cookies';
import { CredentialsRepository, type SessionRef } from './credentials.repository';
import { PendingChallenge, PendingLoginsService, SET_INITIAL_PASSWORD } from './pending-logins.service';
import type { PendingLoginRow } from './pending-logins.repository';
import { ReauthService } from './reauth.service';

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

export type RefusalReason =
  | 'invalid-credentials'
  | 'locked'
  | 'deactivated'
  | 'unverified'
  /** `completeLogin` with an id that names no account. */
  | 'unknown-user'
  /** A plugin hook refused the login with a 4xx error. */
  | 'blocked'
  /** A plugin's sign-in link issued before a password write, deactivation or end of all sessions. */
  | 'voided';

/** The proofs a login holds so far, checked again under the account's row lock before a session. */
interface Proof {
  /** The account counter they were made under (null: not checked). */
  ver: number | null;
  /** The step counter they were made under (null: not checked). */
  stepVer: number | null;
  /** A second factor is among them. */
  multiFactor: boolean;
}

/** What `claimEnrolment` hands a plugin: the used-up `mfa-enrol` step, for `finishEnrolment`. */
const enrolmentClaims = new WeakMap<EnrolmentClaim, PendingLoginRow>();

/** What the `mfa-enrol` step says (the plugins installed decide which factors the page offers). */
export const MFA_ENROL_HINT = 'Set up a second factor to continue';

/** Where `completeLogin` sends the browser (SPEC 5.7.4). */
export const LOGIN_PAGE_REFUSED = '/admin/login?error=signin-failed';
export const LOGIN_PAGE_RESUME = '/admin/login?resume=1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const REFUSED = () => new ServiceError('AUTH_INVALID_CREDENTIALS', 'Invalid email or password');

@Injectable()
export class AuthService implements OnModuleInit {
  private readonly logger = new Logger('Auth');
  private readonly rotations = new RecentRotations();
  private readonly secureCookies: boolean;

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
    private readonly plugins: PluginsService,
    private readonly reauth: ReauthService,
  ) {
    this.secureCookies = options.publicUrl.startsWith('https:');
  }

  onModuleInit(): void {
    this.plugins.setLoginCompleter((plugin, userId, opts) => this.completeLogin(plugin, userId, opts));
    this.plugins.setEnrolmentFinisher((token, o) => this.finishEnrolment(token, o));
    this.plugins.setSessionBridge({
      claimEnrolment: (em, token) => this.claimEnrolment(em, token),
      requireRecentSignIn: (auth) => this.reauth.assertRecentProof(auth),
    });
    this.plugins.setPendingReader(async (token) => {
      const found = await this.pending.describe(token);
      return (
        found && { userId: found.row.user_id, challengeType: found.row.kind, expiresAt: found.row.expires_at }
      );
    });
  }

  /**
   * Email + password login (SPEC 5.2, 6). `beforeLogin` hooks first, then the password strategy:
   * bcrypt runs outside any transaction and what it decided is claimed under the account's row
   * lock (`claimPassword`), so a lockout, a password write or a deactivation committed in the
   * meantime wins. Then `afterAuthenticate` (outside any transaction: a plugin may query), and
   * the session or a paused step (`afterStrategy`), minted only while the account counter is the
   * one the password was claimed under.
   */
  async login(email: string, password: string, client: ClientInfo, request?: Request): Promise<LoginOutcome> {
    if (request) {
      await this.plugins.beforeLogin({ email, strategy: PASSWORD_STRATEGY, request });
      for (const strategy of this.options.config.auth.strategies) {
        const found = await this.plugins.guardedCall(strategy.name, () =>
          strategy.authenticate({ email, password, request }),
        );
        if (found) {
          return this.strategyLogin(strategy.name, found, client);
        }
      }
    }
    const checked = await this.checkPassword(email, password, client);
    const account = await this.db.transaction((em) => this.claimPassword(em, checked));
    if ('refused' in account) {
      return this.refuse(account.refused, client);
    }
    return this.afterStrategy(account, client, PASSWORD_STRATEGY);
  }

  /**
   * An app-level strategy named a user (SPEC 5.7.8): the account gate (a refusal answers like any
   * other, its reason audited under the strategy's name), then what follows any strategy.
   */
  private async strategyLogin(strategy: string, found: unknown, client: ClientInfo): Promise<LoginOutcome> {
    const userId = (found as { userId?: unknown }).userId;
    const account =
      typeof userId === 'string' && UUID.test(userId)
        ? await this.accounts.loadAccount(this.db.manager, userId)
        : null;
    const reason = account ? this.refusalReason(account) : 'unknown-user';
    if (reason || !account) {
      await this.auditRefusal(reason ?? 'unknown-user', client, strategy);
      throw REFUSED();
    }
    return this.afterStrategy(account, client, strategy);
  }

  /**
   * What follows a strategy that identified the account (SPEC 3.4, 6): `afterAuthenticate` hooks
   * (the first challenge pauses the login), then the forced password change or the session.
   */
  private async afterStrategy(
    account: AccountState,
    client: ClientInfo,
    strategy: string,
    multiFactor = false,
  ): Promise<LoginOutcome> {
    const decided = await this.plugins.afterAuthenticate(this.hookUser(account), multiFactor);
    if ('challenge' in decided) {
      const { challenge } = decided.challenge;
      const paused = await this.db.transaction((em) =>
        this.pending.start(em, {
          userId: account.id,
          kind: challenge.id,
          strategy,
          uiHint: challenge.uiHint ?? null,
          accountVer: account.ver,
          stepVer: account.step_ver,
          multiFactor,
        }),
      );
      return { challenge: paused };
    }
    if (!multiFactor) {
      const enrol = await this.db.transaction((em) => this.enrolmentStep(em, account, strategy));
      if (enrol) {
        return { challenge: enrol };
      }
    }
    return this.sessionOrPasswordChange(
      account.id,
      { ver: account.ver, stepVer: account.step_ver, multiFactor },
      client,
      strategy,
    );
  }

  /**
   * `auth.mfa` (CONTRACTS 14.2): whether the account must hold a second factor (`requiredForAll`,
   * or one of its roles' slugs listed; slugs of roles made later count once they exist).
   */
  private mfaRequired(account: AccountState): boolean {
    const { requiredForAll, requiredForRoles } = this.options.config.auth.mfa;
    return requiredForAll || account.roles.some((r) => requiredForRoles.includes(r.slug));
  }

  /**
   * The `mfa-enrol` step for an account that must hold a second factor and has none of any
   * second-factor plugin (null otherwise): its pending token opens only the plugins' enrolment
   * routes, never a session.
   */
  private async enrolmentStep(
    em: EntityManager,
    account: AccountState,
    strategy: string,
  ): Promise<PendingChallenge | null> {
    if (!this.mfaRequired(account) || (await this.plugins.hasSecondFactor(account.id))) {
      return null;
    }
    return this.pending.start(em, {
      userId: account.id,
      kind: MFA_ENROL,
      strategy,
      uiHint: MFA_ENROL_HINT,
      accountVer: account.ver,
      stepVer: account.step_ver,
    });
  }

  /**
   * `ctx.auth.finishEnrolment` (CONTRACTS 14.2): the `mfa-enrol` step is done once the user holds
   * a second factor; its token is used up and the sign-in goes on (forced password change, or the
   * session with its cookies).
   */
  async finishEnrolment(
    tokenOrClaim: string | EnrolmentClaim | undefined,
    o: { request: Request; response: Response },
  ): Promise<EnrolmentOutcome> {
    const claimed = typeof tokenOrClaim === 'object' ? enrolmentClaims.get(tokenOrClaim) : undefined;
    let row: PendingLoginRow;
    if (claimed) {
      enrolmentClaims.delete(tokenOrClaim as EnrolmentClaim);
      row = claimed;
    } else {
      const token = typeof tokenOrClaim === 'string' ? tokenOrClaim : undefined;
      const step = await this.pending.describe(token);
      if (!step || step.row.kind !== MFA_ENROL) {
        throw new ServiceError(
          'AUTH_INVALID_CREDENTIALS',
          'This sign-in step is not valid any more; sign in again',
        );
      }
      if (!(await this.plugins.hasSecondFactor(step.row.user_id))) {
        throw new ServiceError('CONFLICT', 'Set up a second factor first');
      }
      row = await this.db.transaction((em) => this.pending.complete(em, token, MFA_ENROL));
    }
    const client = { ip: o.request.ip ?? null, userAgent: o.request.headers['user-agent'] ?? null };
    // The factor just set up was proven to enrol it: the session holds a second factor.
    const outcome = await this.sessionOrPasswordChange(
      row.user_id,
      { ver: row.account_ver, stepVer: row.step_ver, multiFactor: true },
      client,
      row.strategy,
    );
    if (outcome.challenge) {
      setPendingCookie(
        o.response,
        outcome.challenge.pendingToken,
        outcome.challenge.expiresAt,
        this.secureCookies,
      );
      const { challengeType, pendingToken, uiHint } = outcome.challenge;
      return { challenge: { challengeType, pendingToken, uiHint } };
    }
    const s = outcome.session;
    setSessionCookies(o.response, { accessToken: s.token, refreshToken: s.refreshToken }, this.secureCookies);
    clearPendingCookie(o.response, this.secureCookies);
    return { session: { user: s.user, token: s.token, exp: s.exp } };
  }

  /**
   * `ctx.auth.claimEnrolment` (CONTRACTS 14.2, 14.6): uses up a live `mfa-enrol` step inside the
   * plugin's transaction that saves the new factor, so a step voided since it was read (a
   * password write, a deactivation, the end of all sessions) saves nothing: the throw rolls the
   * plugin's transaction back. The claim then goes to `finishEnrolment`.
   */
  async claimEnrolment(em: EntityManager, token: string | undefined): Promise<EnrolmentClaim> {
    const row = await this.pending.complete(em, token, MFA_ENROL);
    const claim = Object.freeze({ userId: row.user_id });
    enrolmentClaims.set(claim, row);
    return claim;
  }

  /**
   * The end of a login whose proofs are all in: under the account's row lock, refused unless the
   * account may sign in and its counters are still the proofs' (no password write, deactivation
   * or end of all sessions since), then the forced password change (SPEC 3.4) or the session.
   */
  private sessionOrPasswordChange(
    userId: string,
    proof: Proof,
    client: ClientInfo,
    strategy: string,
  ): Promise<LoginOutcome> {
    return this.db.transaction(async (em): Promise<LoginOutcome> => {
      const current = await this.accounts.lockAccount(em, userId);
      if (
        !current ||
        this.refusalReason(current) ||
        (proof.ver !== null && current.ver !== proof.ver) ||
        (proof.stepVer !== null && current.step_ver !== proof.stepVer)
      ) {
        throw REFUSED();
      }
      if (current.must_change_password) {
        const challenge = await this.pending.start(em, {
          userId,
          kind: SET_INITIAL_PASSWORD,
          strategy,
          accountVer: current.ver,
          stepVer: current.step_ver,
          multiFactor: proof.multiFactor,
        });
        return { challenge };
      }
      return { session: await this.openSession(em, current, client, strategy, proof.multiFactor) };
    });
  }

  /**
   * `POST /auth/challenge/resolve` (SPEC 3.4, CONTRACTS 3.3): the pending token is used up first
   * (so two answers racing with one token cannot both count), then the plugin's `resolve`. A
   * right answer goes on to the forced password change or the session; a wrong one gets a new
   * token while attempts remain, and none once the cap is reached (the flow ends; the account
   * is not locked).
   */
  async resolveChallenge(
    token: string | undefined,
    response: unknown,
    client: ClientInfo,
  ): Promise<LoginOutcome> {
    const row = await this.db.transaction((em) => this.pending.completeChallenge(em, token));
    const step = this.plugins.challenge(row.kind);
    if (!step) {
      throw new ServiceError(
        'AUTH_INVALID_CREDENTIALS',
        'This sign-in step is not valid any more; sign in again',
      );
    }
    // Counted per account whatever the IP (CONTRACTS 14.6): 10 wrong in 15 minutes lock codes.
    const right = await this.accounts.secondFactorAttempt(
      row.user_id,
      () => this.plugins.resolveChallenge(step, row.user_id, response),
      client,
    );
    if (!right) {
      const next = await this.db.transaction((em) => this.pending.retry(em, row));
      await this.audit.record({
        event: 'login-failed',
        metadata: { reason: 'challenge-failed', strategy: row.strategy, challenge: row.kind },
        ip: client.ip,
      });
      throw new ServiceError(
        'AUTH_INVALID_CREDENTIALS',
        next ? 'The answer is not right' : 'Too many wrong answers; sign in again',
        next ?? { attemptsRemaining: 0 },
      );
    }
    return this.sessionOrPasswordChange(
      row.user_id,
      { ver: row.account_ver, stepVer: row.step_ver, multiFactor: true },
      client,
      row.strategy,
    );
  }

  /**
   * `ctx.auth.completeLogin` (SPEC 5.7, CONTRACTS 10): an external sign-in a plugin has proved.
   * Every outcome is a 302 on `response`; the cases of SPEC 5.7.5 are thrown to the calling route.
   */
  async completeLogin(plugin: PluginDefinition, userId: string, o: CompleteLoginOptions): Promise<void> {
    if (!plugin.capabilities?.includes('auth.login')) {
      throw new Error(`plugin "${plugin.slug}" called completeLogin without the capability auth.login`);
    }
    const strategy = o?.strategy;
    if (
      typeof strategy !== 'string' ||
      !strategy.startsWith(`${plugin.slug}:`) ||
      strategy === `${plugin.slug}:`
    ) {
      throw new Error(`plugin "${plugin.slug}": the strategy must be named "${plugin.slug}:<name>"`);
    }
    const { request, response } = o;
    const client = { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
    const account =
      typeof userId === 'string' && UUID.test(userId)
        ? await this.accounts.loadAccount(this.db.manager, userId)
        : null;
    const voided = account && o.accountStamp !== undefined && o.accountStamp !== String(account.step_ver);
    const reason = account ? (this.refusalReason(account) ?? (voided ? 'voided' : null)) : 'unknown-user';
    if (reason || !account) {
      await this.auditRefusal(reason ?? 'unknown-user', client, strategy);
      response.redirect(302, LOGIN_PAGE_REFUSED);
      return;
    }
    let outcome: LoginOutcome;
    try {
      await this.plugins.beforeLogin({ email: account.email, strategy, request });
      outcome = await this.afterStrategy(account, client, strategy, o.multiFactor === true);
    } catch (e) {
      if (e instanceof ServiceError && e.status >= 400 && e.status < 500) {
        await this.auditRefusal('blocked', client, strategy);
        response.redirect(302, LOGIN_PAGE_REFUSED);
        return;
      }
      throw e;
    }
    if (outcome.challenge) {
      setPendingCookie(
        response,
        outcome.challenge.pendingToken,
        outcome.challenge.expiresAt,
        this.secureCookies,
      );
      response.redirect(302, LOGIN_PAGE_RESUME);
      return;
    }
    const s = outcome.session;
    setSessionCookies(response, { accessToken: s.token, refreshToken: s.refreshToken }, this.secureCookies);
    response.redirect(302, safeNext(o.next));
  }

  /**
   * `POST /auth/register` with the plugin hooks (SPEC 6): `beforeRegister` may change the email
   * and name (never sees the password); `afterRegister` runs only for an account created.
   */
  async register(
    input: { email: string; name: string; password: string },
    client: ClientInfo,
  ): Promise<void> {
    const data = await this.plugins.beforeRegister({ email: input.email, name: input.name });
    if (typeof data.email !== 'string' || !data.email || typeof data.name !== 'string' || !data.name) {
      throw new ServiceError('INTERNAL_ERROR', 'The registration could not be completed; try again later');
    }
    const id = await this.lifecycle.register(
      { email: data.email, name: data.name, password: input.password },
      client,
    );
    if (id && this.plugins.hasHook('afterRegister')) {
      const account = await this.accounts.loadAccount(this.db.manager, id);
      if (account) {
        await this.plugins.afterRegister(this.sessionUser(account));
      }
    }
  }

  /**
   * `GET /auth/session` with a `determineUser` hook (SPEC 6): the account the hook named, when it
   * may hold a session (the account gate), as the session user core builds from the account.
   */
  async determinedUser(request: Request): Promise<SessionUser | null> {
    const named = await this.plugins.determineUser(request);
    if (!named) {
      return null;
    }
    const account = UUID.test(named.id) ? await this.accounts.getAccount(named.id) : null;
    if (!account || !this.maySignIn(account)) {
      throw new ServiceError('AUTH_REQUIRED', 'Sign in to use this route');
    }
    return this.sessionUser(account);
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
    multiFactor = false,
  ): Promise<IssuedSession> {
    const current = await this.accounts.lockAccount(em, account.id);
    if (!current || this.refusalReason(current)) {
      throw REFUSED();
    }
    return this.openSession(em, current, client, strategy, multiFactor);
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
    const claimed = await this.db.transaction((em) => this.claimPassword(em, checked));
    if ('refused' in claimed) {
      return this.refuse(claimed.refused, client);
    }
    // A paused login cannot be answered in process: an account a plugin asks a second factor of
    // (or whose password must be replaced) signs in over HTTP, never around the factor.
    const decided = await this.plugins.afterAuthenticate(this.hookUser(claimed));
    if ('challenge' in decided) {
      throw new ServiceError('FORBIDDEN', 'This account signs in with a second factor; sign in over HTTP');
    }
    if (this.mfaRequired(claimed) && !(await this.plugins.hasSecondFactor(claimed.id))) {
      throw new ServiceError(
        'FORBIDDEN',
        'This account must set up a second factor first; sign in over HTTP',
      );
    }
    const account = await this.db.transaction(async (em) => {
      const current = await this.accounts.lockAccount(em, claimed.id);
      if (!current || this.refusalReason(current) || current.ver !== claimed.ver) {
        throw REFUSED();
      }
      if (current.must_change_password) {
        throw new ServiceError(
          'FORBIDDEN',
          'The password was set by an administrator and must be replaced first',
        );
      }
      await this.accounts.recordSuccessfulLogin(em, current.id);
      await this.auditLogin(em, current.id, 'direct-api', client);
      return current;
    });
    this.accounts.invalidate(account.id);
    const user = this.sessionUser(account);
    return { user, ...this.tokens.signAccess(user, account.ver, { direct: true }) };
  }

  /**
   * The password strategy (SPEC 5.2). Every refusal is the same error whatever the reason; only a
   * correct password on an unverified address says so. The reason goes to the log and to a
   * `login-failed` audit row that names no account. The password itself is checked by
   * AccountsService (always one bcrypt comparison; a failure counted in the statement that
   * decides the lock); a success is only claimed later, under the row lock (`claimPassword`).
   */
  private async checkPassword(email: string, password: string, client: ClientInfo): Promise<CheckedPassword> {
    const checked = await this.accounts.checkPassword(email, password, PASSWORD_LOCKOUT);
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
  ): Promise<LoginOutcome> {
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
      // With `auth.mfa` covering it, the first account too sets up a second factor before a session.
      const enrol = await this.enrolmentStep(em, account!, 'setup');
      return enrol
        ? { challenge: enrol }
        : { session: await this.finishLogin(em, account!, client, 'setup') };
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
        audit: { metadata: { via: 'initial' } },
      });
      const account = await this.accounts.loadAccount(em, step.user_id);
      if (!account || !this.maySignIn(account)) {
        throw new ServiceError('AUTH_INVALID_CREDENTIALS', 'Invalid email or password');
      }
      await this.lifecycle.queuePasswordChanged(em, account);
      return {
        session: await this.finishLogin(em, account, client, step.strategy, step.multi_factor),
        account,
      };
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
    // Set inside the transaction when the token was rotated before this request arrived.
    const replay: { of: { userId: string; sessionId: string } | null } = { of: null };
    // An account whose session this refresh ended: its cache is forgotten after the commit.
    let endedFor: string | undefined;
    const outcome = await this.db.transaction(async (em) => {
      // The account row first (shared): a session-ending write is then strictly before or after.
      await this.credentials.lockRefreshOwner(em, hash);
      const row = await this.credentials.consumeRefreshToken(em, hash);
      if (!row) {
        const seen = await this.credentials.consumedSinceArrival(em, hash, performance.now() - arrivedAt);
        replay.of = seen.reused;
        return seen.raced ? 'superseded' : 'not-found';
      }
      const account = await this.accounts.loadAccount(em, row.user_id);
      if (row.expired || !account || !this.maySignIn(account)) {
        await this.credentials.deleteRefreshToken(em, hash);
        return 'refused';
      }
      if (this.mfaRequired(account) && !row.session.mfa) {
        // The account must now hold a second factor (a role granted since the sign-in, CONTRACTS
        // 14.2) that this session never proved: the session ends; signing in asks for it.
        await this.credentials.endSessions(em, account.id, [row.session.id]);
        await this.audit.record(
          {
            event: 'session-ended',
            actorId: account.id,
            target: `user:${account.id}`,
            metadata: { sessionId: row.session.id, reason: 'second-factor-required' },
            ip: client.ip,
          },
          em,
        );
        endedFor = account.id;
        return 'refused';
      }
      const session = await this.mintSession(em, account, client, row.session);
      await this.credentials.pruneRefreshTokens(em, account.id);
      await this.credentials.restampConsumed(em, row.id);
      return session;
    });
    if (endedFor) {
      this.accounts.invalidate(endedFor);
    }
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
      const reused = replay.of;
      if (reused) {
        await this.endReusedSession(reused, client);
      }
      throw new ServiceError('REFRESH_FAILED', 'The refresh token is not valid; sign in again');
    }
    throw new ServiceError('REFRESH_FAILED', 'The session cannot be renewed; sign in again');
  }

  /**
   * A rotated refresh token presented again, not in a race (CONTRACTS 14.6): a copy of it is
   * somewhere else, so the session it belonged to ends (its current refresh token and its access
   * tokens), audited as `refresh-reused`.
   */
  private async endReusedSession(
    reused: { userId: string; sessionId: string },
    client: ClientInfo,
  ): Promise<void> {
    await this.db.transaction(async (em) => {
      if (!(await this.credentials.lockAccountSessions(em, reused.userId))) {
        return;
      }
      const ended = await this.credentials.endSessions(em, reused.userId, [reused.sessionId]);
      await this.audit.record(
        {
          event: 'refresh-reused',
          actorId: reused.userId,
          target: `user:${reused.userId}`,
          metadata: { sessionId: reused.sessionId, sessionEnded: ended.length > 0 },
          ip: client.ip,
        },
        em,
      );
    });
    this.accounts.invalidate(reused.userId);
  }

  /**
   * Ends the caller's session, between the logout hooks (SPEC 6): the one of the refresh token,
   * else the one of the access token (`sid`). Its refresh token is refused at once, and its access
   * tokens too (the account check: at once here, within 10 s on other instances, CONTRACTS 14.1).
   */
  async logout(
    refreshToken: string | undefined,
    client: ClientInfo,
    request?: Request,
    accessToken?: string,
  ): Promise<void> {
    if (request) {
      await this.plugins.beforeLogout(request);
    }
    const claims = accessToken ? this.tokens.verifyAccess(accessToken) : null;
    const userId = await this.db.transaction(async (em) => {
      // An unknown refresh cookie (stale, forged) falls back to the access token's session.
      const found =
        (refreshToken ? await this.credentials.sessionOfToken(em, sha256Hex(refreshToken)) : null) ??
        (typeof claims?.sid === 'string' ? { userId: claims.sub, sessionId: claims.sid } : null);
      if (!found || !(await this.credentials.lockAccountSessions(em, found.userId))) {
        return null;
      }
      const ended = await this.credentials.endSessions(em, found.userId, [found.sessionId]);
      return ended.length ? found.userId : null;
    });
    if (userId) {
      this.accounts.invalidate(userId);
      await this.audit.record({ event: 'logout', actorId: userId, target: `user:${userId}`, ip: client.ip });
    }
    if (request) {
      await this.plugins.afterLogout(userId ?? null, request);
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
    multiFactor: boolean,
  ): Promise<IssuedSession> {
    await this.accounts.recordSuccessfulLogin(em, account.id);
    const now = new Date();
    const session = await this.mintSession(em, account, client, {
      id: randomUUID(),
      strategy,
      createdAt: now,
      provedAt: now,
      mfa: multiFactor,
    });
    await this.capSessions(em, account.id, client);
    // SPEC 6: after the session is minted, before the success audit row; a throw rolls it back.
    await this.plugins.afterLogin(this.hookUser(account));
    await this.auditLogin(em, account.id, strategy, client);
    return session;
  }

  /**
   * `auth.maxSessions` (CONTRACTS 14.1): past the cap, the least recently used sessions end (the
   * one just opened is the most recent). Callers hold the account row, so sign-ins of one account
   * are counted one after the other.
   */
  private async capSessions(em: EntityManager, userId: string, client: ClientInfo): Promise<void> {
    const max = this.options.config.auth.maxSessions;
    if (max === null) {
      return;
    }
    const live = await this.credentials.liveSessions(em, userId);
    if (live.length <= max) {
      return;
    }
    const ended = await this.credentials.endSessions(
      em,
      userId,
      live.slice(max).map((s) => s.id),
    );
    for (const id of ended) {
      await this.audit.record(
        {
          event: 'session-ended',
          actorId: userId,
          target: `user:${userId}`,
          metadata: { sessionId: id, reason: 'max-sessions' },
          ip: client.ip,
        },
        em,
      );
    }
  }

  /**
   * Access token (with the session's `sid`) and the current roles, plus the session's next
   * refresh token row, in the caller's transaction.
   */
  private async mintSession(
    em: EntityManager,
    account: AccountState,
    client: ClientInfo,
    session: SessionRef,
  ): Promise<IssuedSession> {
    const user = this.sessionUser(account);
    const core = this.tokens.accessClaims(user, account.ver, { sid: session.id });
    const claims = this.plugins.hasHook('customizeClaims')
      ? await this.plugins.customizeClaims(core, user)
      : core;
    const { token, exp } = this.tokens.signClaims(claims);
    const refresh = newHashedToken(REFRESH_TTL_MS);
    await this.credentials.insertRefreshToken(em, {
      userId: account.id,
      hash: refresh.hash,
      expiresAt: refresh.expiresAt,
      userAgent: client.userAgent,
      ip: client.ip,
      session,
    });
    this.accounts.invalidate(account.id);
    return { user, token, exp, refreshToken: refresh.token };
  }

  private auditLogin(em: EntityManager, userId: string, strategy: string, client: ClientInfo): Promise<void> {
    return this.audit.record(
      {
        event: 'login-succeeded',
        actorId: userId,
        target: `user:${userId}`,
        metadata: { strategy },
        ip: client.ip,
      },
      em,
    );
  }

  private sessionUser(account: AccountState): SessionUser {
    return this.accounts.sessionUser(account, this.userFields.present(account.custom));
  }

  /** What the login hooks see (CONTRACTS 10): the session user and the two account flags. */
  private hookUser(account: AccountState): HookUser {
    return {
      ...this.sessionUser(account),
      isActive: account.is_active,
      emailVerified: account.email_verified_at !== null,
    };
  }

  private async refuse(reason: RefusalReason, client: ClientInfo): Promise<never> {
    await this.auditRefusal(reason, client);
    throw REFUSED();
  }

  private async auditRefusal(
    reason: RefusalReason,
    client: ClientInfo,
    strategy = PASSWORD_STRATEGY,
  ): Promise<void> {
    this.logger.log({ reason, strategy }, 'login refused');
    await this.audit.record({ event: 'login-failed', metadata: { reason, strategy }, ip: client.ip });
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
