import type { DynamicModule } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { AuthContext, SessionUser } from '../../common/access/auth-context';
import type { ResolvedConfig } from '../../config/config.types';
import type { GeneralSettings } from '../settings/settings.types';

/**
 * The plugin surface (SPEC 1.7, 5.7, 6; CONTRACTS 10). Experimental: it may change between
 * releases, and a plugin says the oldest service it works with (`minServiceVersion`).
 */

/** The user the login hooks see: the session user plus the two account flags (CONTRACTS 10). */
export interface HookUser extends SessionUser {
  isActive: boolean;
  emailVerified: boolean;
}

/** What `afterAuthenticate` may return to pause the login at a second factor. */
export interface ChallengeRequest {
  challenge: { id: string; userId: string };
}

/**
 * The auth-flow hooks of SPEC 6, all optional. Each gets the plugin's context last. A hook blocks
 * by throwing: a `ServiceError` with a 4xx code keeps its code; anything else is answered 500
 * INTERNAL_ERROR with a generic message (the cause goes to the log).
 */
export interface PluginHooks {
  /** Before any strategy runs (in `completeLogin`: after the account check). */
  beforeLogin?(input: { email?: string; strategy: string; request: Request }, ctx: PluginContext): unknown;
  /**
   * After a strategy identified the user: `undefined` keeps the user, a user (same id) replaces
   * it, `{ challenge: { id, userId } }` pauses the login at that challenge.
   */
  afterAuthenticate?(
    user: HookUser,
    ctx: PluginContext,
  ): HookUser | ChallengeRequest | undefined | void | Promise<HookUser | ChallengeRequest | undefined | void>;
  /** After the session is minted, before the success audit row and the answer; a throw fails the login. */
  afterLogin?(user: HookUser, ctx: PluginContext): unknown;
  /** Before a user is created by registration: may return a changed payload (never the password). */
  beforeRegister?(
    data: { email: string; name: string; [customField: string]: unknown },
    ctx: PluginContext,
  ): unknown;
  afterRegister?(user: SessionUser, ctx: PluginContext): unknown;
  beforeLogout?(input: { request: Request }, ctx: PluginContext): unknown;
  afterLogout?(input: { userId: string | null; request: Request }, ctx: PluginContext): unknown;
  /** `GET /auth/session` only: a session user, or null to let the cookie session decide. */
  determineUser?(
    request: Request,
    ctx: PluginContext,
  ): SessionUser | null | undefined | Promise<SessionUser | null | undefined>;
  /** Building an access token (login, refresh): returns the claims to use; may only add claims. */
  customizeClaims?(
    claims: Record<string, unknown>,
    user: SessionUser,
    ctx: PluginContext,
  ): Record<string, unknown> | void | Promise<Record<string, unknown> | void>;
}

export type ChallengeResult = { ok: true } | { ok: false; reason?: string };

/** A second factor (SPEC 6): `resolve` checks the answer sent to `POST /auth/challenge/resolve`. */
export interface PluginChallenge {
  id: string;
  uiHint?: string;
  resolve(
    input: { userId: string; response: unknown },
    ctx: PluginContext,
  ): ChallengeResult | Promise<ChallengeResult>;
}

/** A login-page button (SPEC 5.7.7): `href` a same-origin path, or a component name. */
export interface ProviderButton {
  strategy: string;
  label: string;
  href?: string;
  component?: string;
}

export interface PluginUi {
  providers?: ProviderButton[];
  /** Per challenge id, opaque to the core: answered by `GET /auth/ui`. */
  challengeViews?: Record<string, object>;
  slots?: Record<string, unknown>;
}

/** A schema change of the plugin's own tables, applied once at boot in list order. */
export interface PluginMigration {
  /** Unique within the plugin; recorded once applied. */
  name: string;
  /** SQL, run in one transaction. */
  up: string;
}

export interface PluginDefinition {
  /** `^[a-z][a-z0-9-]{1,40}$`; routes live under `/admin/api/plugins/<slug>/`. */
  slug: string;
  version: string;
  minServiceVersion: string;
  /** `auth.login` lets the plugin call `ctx.auth.completeLogin`. */
  capabilities?: string[];
  hooks?: PluginHooks;
  challenges?: PluginChallenge[];
  ui?: PluginUi;
  migrations?: PluginMigration[];
  /** A Nest module; its controllers are mounted under the plugin's prefix. */
  module?: (ctx: PluginContext) => DynamicModule;
  /**
   * Where the module's routes are mounted instead of `/admin/api/plugins/<slug>`: only an address
   * the specification reserves for a plugin (SPEC 4.2 note 3: `admin/api/forms` for
   * `form-builder`); any other value refuses the boot.
   */
  mountPath?: string;
  /**
   * A second factor this plugin gives users (TOTP, passkeys): whether a user has it set up. With
   * `auth.mfa` (CONTRACTS 14.2) a user who must have a second factor and has none of any plugin's
   * is sent to enrol (`mfa-enrol`); a boot that requires one with no such plugin stops.
   */
  secondFactor?: {
    isEnrolled(userId: string, ctx: PluginContext): boolean | Promise<boolean>;
    /**
     * Checks a code of this factor (a current TOTP code, a recovery code) for
     * `POST /auth/reauthenticate { code }`; true uses it as a sign-in would. The core counts the
     * attempt toward the account's second-factor limit around this call.
     */
    verifyCode?(userId: string, code: string, ctx: PluginContext): boolean | Promise<boolean>;
  };
}

/** The pending step of a user who must set up a second factor first (CONTRACTS 14.2). */
export const MFA_ENROL = 'mfa-enrol';

/** A session a plugin's route hands out (`ctx.auth.finishEnrolment`): the login answer's parts. */
export type EnrolmentOutcome =
  | { session: { user: SessionUser; token: string; exp: number } }
  | { challenge: { challengeType: string; pendingToken: string; uiHint: string | null } };

export interface CompleteLoginOptions {
  request: Request;
  response: Response;
  /** `<plugin-slug>:<name>`; audit rows name it. */
  strategy: string;
  /** Where a successful sign-in goes: a same-origin path (anything else becomes `/admin`). */
  next?: string;
  /**
   * The strategy proved more than one factor itself (a passkey with user verification: a device
   * held, unlocked by biometrics or PIN): second-factor challenges that `afterAuthenticate` hooks
   * return are not asked (CONTRACTS 13.2.3). Hooks still run and may still replace the user.
   */
  multiFactor?: boolean;
  /**
   * For a sign-in link the plugin issued earlier (an emailed magic link): the account's stamp
   * (`ctx.auth.accountStamp`) when it was issued. A password write, a deactivation or the end of
   * all sessions since then changes the stamp, and the sign-in is refused.
   */
  accountStamp?: string;
}

/** What a query over the plugin's database connection answers with. */
export interface PluginDb {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs `fn` in one transaction; its queries go through the `PluginDb` it is given. */
  transaction<T>(fn: (db: PluginDb) => Promise<T>): Promise<T>;
}

export interface PluginLogger {
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}

/** What the core hands each plugin (CONTRACTS 10), to its module, hooks and challenges. */
export interface PluginContext {
  slug: string;
  logger: PluginLogger;
  config: Readonly<ResolvedConfig>;
  /** The service's public URL (`NEXT_PUBLIC_APP_URL` or the module's `publicUrl`), no trailing slash. */
  publicUrl: string;
  auth: {
    /**
     * Finishes an external sign-in (SPEC 5.7): answers the response with a 302 (success to
     * `next`, a pending step to `/admin/login?resume=1`, a refusal to
     * `/admin/login?error=signin-failed`), or throws to the calling route (SPEC 5.7.5).
     */
    completeLogin(userId: string, options: CompleteLoginOptions): Promise<void>;
    /**
     * The step a pending token (from a paused login) waits for, read without using the token up
     * (what `GET /auth/pending` reads): null when it is invalid, used, expired or out of answers.
     */
    pendingChallenge(token: string | undefined): Promise<PendingStep | null>;
    /**
     * Ends an `mfa-enrol` pending login once the user has set up this plugin's second factor
     * (CONTRACTS 14.2): the token is used up and the sign-in goes on as the login would (a forced
     * password change, else the session, its cookies set on `response`). Throws
     * AUTH_INVALID_CREDENTIALS for a token that is not such a step, CONFLICT when no second
     * factor is set up yet.
     */
    finishEnrolment(
      token: string | EnrolmentClaim | undefined,
      options: { request: Request; response: Response },
    ): Promise<EnrolmentOutcome>;
    /**
     * Uses up the `mfa-enrol` step of `pendingToken` inside the plugin's transaction `db` that
     * saves the new factor: a step voided since it was read (a password write, a deactivation, the
     * end of all sessions) throws AUTH_INVALID_CREDENTIALS, so the transaction rolls back and
     * nothing is saved. Pass the claim to `finishEnrolment` after the commit.
     */
    claimEnrolment(pendingToken: string, db: PluginDb): Promise<EnrolmentClaim>;
    /**
     * For a sensitive change (a new second factor, turning one off): throws 401 AUTH_REQUIRED
     * unless the caller is signed in with the browser session (not a Bearer token or API key), and
     * 403 REAUTH_REQUIRED unless they proved a factor within `auth.reauthWindowSeconds` (signing
     * in or `POST /auth/reauthenticate`).
     */
    requireRecentSignIn(auth: AuthContext | undefined): Promise<void>;
    /**
     * The account's stamp, for a sign-in link the plugin issues (see `completeLogin`'s
     * `accountStamp`); null when there is no such account.
     */
    accountStamp(userId: string): Promise<string | null>;
    /**
     * For a second-factor plugin's enrolment routes (CONTRACTS 14.2): the user of the `mfa-enrol`
     * step whose pending token the request carries (body `pendingToken`, else the `svc_pending`
     * cookie), with that token; null when it carries none. Throws AUTH_REQUIRED for a token that
     * is not a live `mfa-enrol` step.
     */
    enrolment(request: Request, body: unknown): Promise<{ user: PluginAccount; pendingToken: string } | null>;
  };
  /** The service's database (the plugin's own tables come from `migrations`). */
  db: PluginDb;
  /**
   * An audit row (CONTRACTS 14.3; `GET /audit`), its metadata naming the plugin. Pass the `db` of
   * `ctx.db.transaction` to write it in the transaction of the change it records. `event`: lower
   * case words with `-` (the core's names: `mfa-enrolled`, `mfa-disabled`...). Never a secret in
   * `metadata`. The request's IP and User-Agent are added for a write request.
   */
  audit: {
    record(
      entry: { event: string; actorId?: string | null; userId?: string; metadata?: Record<string, unknown> },
      db?: PluginDb,
    ): Promise<void>;
  };
  /** AES-256-GCM with a key derived from SVC_SECRET for this plugin alone: secrets at rest. */
  secrets: { seal(plaintext: string): string; open(sealed: string): string };
  /** The general settings (`GET /general-settings`), as stored now (cached a few seconds). */
  settings: { get(): Promise<Readonly<GeneralSettings>> };
  users: {
    /**
     * Throws as the users routes do when `auth` may not manage the account `userId`: 404
     * NOT_FOUND when there is none, 403 FORBIDDEN when it is a super-admin's and `auth` is not a
     * super-admin. The permission itself (`update-users`) is the route's to require.
     */
    assertManageable(auth: AuthContext, userId: string): Promise<void>;
    /** The account with this address (compared as stored: lower case), or null. */
    findByEmail(email: string): Promise<PluginAccount | null>;
    /** The account with this id, or null. */
    findById(userId: string): Promise<PluginAccount | null>;
    /**
     * Creates an account without a password (it signs in through the plugin, or sets one by
     * "forgot password"), with the roles of these slugs, in one transaction with its audit row
     * (`user.create`, no actor). Throws 409 DUPLICATE when the address is taken, and refuses an
     * unknown role slug or one that grants super-admin (a plugin's sign-up never makes one).
     */
    create(input: {
      email: string;
      name: string;
      emailVerified: boolean;
      roles?: string[];
    }): Promise<PluginAccount>;
  };
  /**
   * A budget of the plugin's own (`key` is scoped to the plugin): one hit, `X-RateLimit-*` set on
   * `response`; throws 429 RATE_LIMITED with Retry-After once spent, and 503 SERVICE_UNAVAILABLE
   * while the counter store (Redis) is down. Counted where the service's budgets are (Redis when
   * REDIS_URL is set), so instances share it.
   */
  limits: {
    consume(key: string, budget: { max: number; windowSeconds: number }, response: Response): Promise<void>;
    /**
     * One hit on the service's own per-IP sign-in budget (`security.authRateLimit`), the very
     * counter `POST /auth/login`, `/auth/register` and `/auth/forgot-password` draw on (same store,
     * same key: the client IP, IPv6 by /64), so a plugin's sign-in route and the core's share one
     * budget per address. Sets `X-RateLimit-*` on `response`; throws 429 RATE_LIMITED with
     * Retry-After once spent, 503 SERVICE_UNAVAILABLE while the counter store is down.
     */
    consumeSignIn(request: Request, response: Response): Promise<void>;
    /**
     * One second-factor code check of an account (`check` answers whether the code is right),
     * limited per account whatever the IP: after 10 wrong codes in 15 minutes every code is
     * refused for 15 minutes (throws 429 RATE_LIMITED with Retry-After), audited `mfa-locked`.
     */
    secondFactor(userId: string, check: () => Promise<boolean>, request?: Request): Promise<boolean>;
  };
  /** The email module (SPEC 8): a stored template by slug, through the default provider. */
  email: {
    sendTemplate(input: {
      to: string;
      template: string;
      variables?: Record<string, string>;
    }): Promise<{ messageId: string | null }>;
  };
}

/** A used-up `mfa-enrol` step (`ctx.auth.claimEnrolment`), for `ctx.auth.finishEnrolment`. */
export interface EnrolmentClaim {
  readonly userId: string;
}

/** A paused login's outstanding step. */
export interface PendingStep {
  userId: string;
  challengeType: string;
  expiresAt: Date;
}

/** An account as a plugin sees it: never a password hash or a counter. */
export interface PluginAccount {
  id: string;
  email: string;
  name: string;
  isActive: boolean;
  emailVerified: boolean;
}
