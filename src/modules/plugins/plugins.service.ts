import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  DEFAULT_IPV6_SUBNET_PREFIX,
  InjectThrottlerStorage,
  normalizeIp,
  ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { DataSource, EntityManager } from 'typeorm';
import type { AuthContext, SessionUser } from '../../common/access/auth-context';
import { ServiceError } from '../../common/errors';
import { SecretBox } from '../../common/secret-box';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { MIGRATION_LOCK, sessionLock, sessionUnlock } from '../../database/locks';
import { rows } from '../../database/sql';
import { countersUnavailable, setRateLimitHeaders, signInBudgetSpent } from '../../common/rate-limit';
import { AccountsService } from '../accounts/accounts.service';
import type { AccountState } from '../accounts/accounts.types';
import { UsersAdminService } from '../accounts/users-admin.service';
import { AuditService } from '../audit/audit.service';
import { EmailService } from '../email/email.service';
import { SettingsService } from '../settings/settings.service';
import { mergeClaims } from './claims';
import { PLUGIN_HOST, PluginHost, type PluginRuntime } from './plugin-host';
import type {
  ChallengeRequest,
  CompleteLoginOptions,
  EnrolmentClaim,
  HookUser,
  PluginAccount,
  PluginChallenge,
  PluginContext,
  PluginDb,
  PluginDefinition,
  PluginHooks,
  PluginLogger,
  PendingStep,
} from './plugin.types';

/**
 * The throttler of the core's sign-in budget: AUTH_THROTTLER of the auth module's
 * AuthRateLimitGuard (which this layer may not import); its keys are `auth:<tracker>`.
 */
const AUTH_THROTTLER = 'auth';

/** What `completeLogin` runs: the auth module's, registered at its start (it builds on this one). */
export type LoginCompleter = (
  plugin: PluginDefinition,
  userId: string,
  options: CompleteLoginOptions,
) => Promise<void>;

export interface ChallengeStep {
  plugin: PluginDefinition;
  challenge: PluginChallenge;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** What a plugin's audit event may be called (`mfa-enrolled`). */
const AUDIT_EVENT = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** What the sessions lend the plugin context (registered by AuthService at its start). */
export interface SessionBridge {
  claimEnrolment(em: EntityManager, pendingToken: string): Promise<EnrolmentClaim>;
  requireRecentSignIn(auth: AuthContext | undefined): Promise<void>;
}

/** The EntityManager behind a PluginDb (see `pluginDb`). */
const PLUGIN_EM = Symbol('svc:plugin-em');

/**
 * The installed plugins at run time (SPEC 6, CONTRACTS 10): their hooks, run in plugin order
 * with the error rules, their challenges, the login-page UI, and what each plugin's context
 * reaches (database, sealed secrets, `completeLogin`). Hooks run outside the core's transactions
 * except `afterLogin`, which runs inside the transaction that minted the session (so a throw
 * leaves no session): it must not write the account's row.
 */
@Injectable()
export class PluginsService implements OnModuleInit {
  private readonly logger = new Logger('Plugins');
  private completer: LoginCompleter | null = null;
  private pendingReader: ((token: string | undefined) => Promise<PendingStep | null>) | null = null;
  private enrolmentFinisher: PluginRuntime['finishEnrolment'] | null = null;
  private sessionBridge: SessionBridge | null = null;
  private readonly userFieldNames: ReadonlySet<string>;

  constructor(
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
    @Inject(PLUGIN_HOST) private readonly host: PluginHost,
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly usersAdmin: UsersAdminService,
    private readonly accounts: AccountsService,
    private readonly settings: SettingsService,
    private readonly email: EmailService,
    private readonly audit: AuditService,
    @InjectThrottlerStorage() private readonly counters: ThrottlerStorage,
  ) {
    this.userFieldNames = new Set(options.config.users.fields.map((f) => f.name));
    host.bind({
      completeLogin: (plugin, userId, opts) => {
        if (!this.completer) {
          throw new Error('completeLogin was called before the service started');
        }
        return this.completer(plugin, userId, opts);
      },
      finishEnrolment: (token, options) => {
        if (!this.enrolmentFinisher) {
          throw new Error('finishEnrolment was called before the service started');
        }
        return this.enrolmentFinisher(token, options);
      },
      claimEnrolment: (token, db) => {
        const em = (db as PluginDb & { [PLUGIN_EM]?: EntityManager })?.[PLUGIN_EM];
        if (!em?.queryRunner?.isTransactionActive) {
          throw new Error('claimEnrolment takes the db of ctx.db.transaction (the one saving the factor)');
        }
        return this.bridge().claimEnrolment(em, token);
      },
      requireRecentSignIn: (auth) => this.bridge().requireRecentSignIn(auth),
      accountStamp: async (userId) => {
        const account = UUID_PATTERN.test(userId)
          ? await this.accounts.loadAccount(this.db.manager, userId)
          : null;
        return account ? String(account.step_ver) : null;
      },
      secondFactorAttempt: (userId, check, request) =>
        this.accounts.secondFactorAttempt(userId, check, { ip: request?.ip ?? null }),
      pendingChallenge: (token) => {
        if (!this.pendingReader) {
          throw new Error('pendingChallenge was called before the service started');
        }
        return this.pendingReader(token);
      },
      db: this.pluginDb(this.db.manager),
      box: (slug) =>
        new SecretBox(options.secret, { keyLabel: `svc plugin secret ${slug}`, aad: `svc:plugin:${slug}` }),
      logger: (slug) => pluginLogger(new Logger(`plugin:${slug}`)),
      assertManageable: (auth: AuthContext, userId: string) => this.usersAdmin.assertManageable(auth, userId),
      audit: async (plugin, entry, db) => {
        if (typeof entry?.event !== 'string' || !AUDIT_EVENT.test(entry.event)) {
          throw new Error(`plugin "${plugin.slug}": an audit event is lower-case words joined by "-"`);
        }
        const em = (db as (PluginDb & { [PLUGIN_EM]?: EntityManager }) | undefined)?.[PLUGIN_EM];
        await this.audit.record(
          {
            event: entry.event,
            actorId: entry.actorId ?? null,
            target: entry.userId ? `user:${entry.userId}` : null,
            metadata: { ...entry.metadata, plugin: plugin.slug },
          },
          em ?? this.db.manager,
        );
      },
      findById: async (userId) => {
        const account = UUID_PATTERN.test(userId)
          ? await this.accounts.loadAccount(this.db.manager, userId)
          : null;
        return account && pluginAccount(account);
      },
      findByEmail: async (email) => {
        const account = await this.accounts.findByEmail(this.db.manager, email);
        return account && pluginAccount(account);
      },
      createUser: async (plugin, input) =>
        pluginAccount(
          await this.usersAdmin.createForPlugin(plugin.slug, {
            email: input.email,
            name: input.name,
            emailVerified: input.emailVerified === true,
            roles: input.roles ?? [],
          }),
        ),
      consume: (plugin, key, budget, response) => this.consume(plugin, key, budget, response),
      consumeSignIn: (request, response) => this.consumeSignIn(request, response),
      sendTemplate: (input) => this.email.sendTemplate(input),
      settings: () => this.settings.get(),
    });
  }

  async onModuleInit(): Promise<void> {
    for (const line of this.host.droppedProviders) {
      this.logger.warn(line);
    }
    const applied = await this.migrate();
    const slugs = this.host.plugins.map((p) => p.slug);
    if (slugs.length) {
      const migrations = applied ? `; ${applied} migration${applied === 1 ? '' : 's'} applied` : '';
      this.logger.log(`plugins ready: ${slugs.join(', ')}${migrations}`);
    }
  }

  /**
   * `ctx.limits.consume`: one hit on the plugin's budget `key` (`plugin:<slug>:<key>` in the
   * service's counter store), with the headers and refusals of the service's own budgets.
   */
  private async consume(
    plugin: PluginDefinition,
    key: string,
    budget: { max: number; windowSeconds: number },
    res: Response,
  ): Promise<void> {
    const { max, windowSeconds } = budget;
    if (!Number.isInteger(max) || max < 1 || !Number.isInteger(windowSeconds) || windowSeconds < 1) {
      throw new Error(
        `plugin "${plugin.slug}": a budget needs whole numbers max >= 1 and windowSeconds >= 1`,
      );
    }
    const ms = windowSeconds * 1000;
    let record;
    try {
      record = await this.counters.increment(
        `plugin:${plugin.slug}:${key}`,
        ms,
        max,
        ms,
        `plugin:${plugin.slug}`,
      );
    } catch {
      throw countersUnavailable('This is unavailable for a moment; try again');
    }
    const resetIn = setRateLimitHeaders(res, max, record);
    if (record.isBlocked) {
      throw ServiceError.rateLimited('plugin', 'Too many requests; try again later', {
        retryAfterSeconds: Math.max(1, resetIn),
      });
    }
  }

  /**
   * `ctx.limits.consumeSignIn`: one hit on the core's per-IP sign-in budget, exactly as
   * AuthRateLimitGuard counts it (throttler `auth`, key `auth:<client IP, IPv6 by /64>`, window and
   * block of `security.authRateLimit`), so a plugin's sign-in route and `POST /auth/login` share
   * one counter per address, in Redis when REDIS_URL is set.
   */
  private async consumeSignIn(req: Request, res: Response): Promise<void> {
    const { max, windowSeconds } = this.options.config.security.authRateLimit;
    const ms = windowSeconds * 1000;
    const key = `${AUTH_THROTTLER}:${normalizeIp(req.ip ?? '', DEFAULT_IPV6_SUBNET_PREFIX)}`;
    let record;
    try {
      record = await this.counters.increment(key, ms, max, ms, AUTH_THROTTLER);
    } catch {
      throw countersUnavailable('Sign-in is unavailable for a moment; try again');
    }
    const resetIn = setRateLimitHeaders(res, max, record);
    if (record.isBlocked) {
      throw signInBudgetSpent(max, windowSeconds, resetIn);
    }
  }

  get plugins(): readonly PluginDefinition[] {
    return this.host.plugins;
  }

  setLoginCompleter(fn: LoginCompleter): void {
    this.completer = fn;
  }

  /** The sessions' end of an `mfa-enrol` step (`ctx.auth.finishEnrolment`), registered at their start. */
  setEnrolmentFinisher(fn: PluginRuntime['finishEnrolment']): void {
    this.enrolmentFinisher = fn;
  }

  /** The sessions' part of the plugin context (enrolment claims, recent sign-in), registered at their start. */
  setSessionBridge(bridge: SessionBridge): void {
    this.sessionBridge = bridge;
  }

  private bridge(): SessionBridge {
    if (!this.sessionBridge) {
      throw new Error('the plugin context was used before the service started');
    }
    return this.sessionBridge;
  }

  /**
   * `POST /auth/reauthenticate { code }`: whether a second-factor plugin the user has set up
   * accepts the code (`secondFactor.verifyCode`); false when none does.
   */
  async verifySecondFactorCode(userId: string, code: string): Promise<boolean> {
    for (const plugin of this.host.plugins) {
      const factor = plugin.secondFactor;
      if (!factor?.verifyCode) {
        continue;
      }
      const ctx = this.host.context(plugin.slug);
      const verify = factor.verifyCode.bind(factor);
      if (
        (await this.guarded(plugin, 'secondFactor.isEnrolled', () => factor.isEnrolled(userId, ctx))) ===
          true &&
        (await this.guarded(plugin, 'secondFactor.verifyCode', () => verify(userId, code, ctx))) === true
      ) {
        return true;
      }
    }
    return false;
  }

  /** Whether any second-factor plugin (CONTRACTS 14.2) has one set up for the user. */
  async hasSecondFactor(userId: string): Promise<boolean> {
    for (const plugin of this.host.plugins) {
      const factor = plugin.secondFactor;
      if (
        factor &&
        (await this.guarded(plugin, 'secondFactor.isEnrolled', () =>
          factor.isEnrolled(userId, this.host.context(plugin.slug)),
        )) === true
      ) {
        return true;
      }
    }
    return false;
  }

  /** The sessions' reader of pending tokens (`ctx.auth.pendingChallenge`), registered at their start. */
  setPendingReader(fn: (token: string | undefined) => Promise<PendingStep | null>): void {
    this.pendingReader = fn;
  }

  /** `GET /auth/ui` (CONTRACTS 3.3): every plugin's buttons, challenge views and slots, merged in order. */
  ui(): { providers: object[]; challengeViews: Record<string, object>; slots: Record<string, unknown> } {
    const providers: object[] = [];
    const challengeViews: Record<string, object> = {};
    const slots: Record<string, unknown> = {};
    for (const p of this.host.plugins) {
      providers.push(...(p.ui?.providers ?? []));
      Object.assign(challengeViews, p.ui?.challengeViews ?? {});
      Object.assign(slots, p.ui?.slots ?? {});
    }
    return { providers, challengeViews, slots };
  }

  challenge(id: string): ChallengeStep | null {
    for (const plugin of this.host.plugins) {
      const challenge = plugin.challenges?.find((c) => c.id === id);
      if (challenge) {
        return { plugin, challenge };
      }
    }
    return null;
  }

  /** Runs a challenge's `resolve` with the error rules of the hooks. */
  async resolveChallenge(step: ChallengeStep, userId: string, response: unknown): Promise<boolean> {
    const ctx = this.host.context(step.plugin.slug);
    const result = await this.guarded(step.plugin, `challenge ${step.challenge.id}`, () =>
      step.challenge.resolve({ userId, response }, ctx),
    );
    return typeof result === 'object' && result !== null && (result as { ok?: unknown }).ok === true;
  }

  /**
   * Runs app code that takes part in sign-in (an `auth.strategies` entry) under the hooks' error
   * rules: a typed 4xx ServiceError keeps its code, anything else is 500 INTERNAL_ERROR.
   */
  async guardedCall<T>(name: string, fn: () => T): Promise<Awaited<T>> {
    return this.run({ strategy: name }, fn);
  }

  async beforeLogin(input: { email?: string; strategy: string; request: Request }): Promise<void> {
    await this.each('beforeLogin', (hook, ctx) => hook(input, ctx));
  }

  /**
   * `afterAuthenticate` in plugin order: each sees the user the previous one left. The first
   * challenge pauses the login (later hooks do not run); a user with another id fails the login.
   * After a multi-factor strategy (`multiFactor`), a valid challenge is passed over instead.
   */
  async afterAuthenticate(
    user: HookUser,
    multiFactor = false,
  ): Promise<{ user: HookUser } | { challenge: ChallengeStep }> {
    let current = user;
    for (const plugin of this.host.plugins) {
      const hook = plugin.hooks?.afterAuthenticate;
      if (!hook) {
        continue;
      }
      const ctx = this.host.context(plugin.slug);
      const result: unknown = await this.guarded(plugin, 'afterAuthenticate', () => hook(current, ctx));
      if (result === undefined || result === null) {
        continue;
      }
      if (typeof result === 'object' && 'challenge' in result) {
        const asked = (result as ChallengeRequest).challenge;
        const step = typeof asked?.id === 'string' ? this.challenge(asked.id) : null;
        if (!step || asked.userId !== user.id) {
          throw this.internal(
            plugin,
            'afterAuthenticate',
            new Error('it returned an unknown challenge or another user'),
          );
        }
        if (multiFactor) {
          continue;
        }
        return { challenge: step };
      }
      const next = result as HookUser;
      if (typeof next !== 'object' || next.id !== user.id) {
        throw this.internal(plugin, 'afterAuthenticate', new Error('it returned another user'));
      }
      current = next;
    }
    return { user: current };
  }

  async afterLogin(user: HookUser): Promise<void> {
    await this.each('afterLogin', (hook, ctx) => hook(user, ctx));
  }

  /** `beforeRegister` in order, each with the payload the previous one returned (never the password). */
  async beforeRegister<T extends { email: string; name: string }>(data: T): Promise<T> {
    let current = data;
    for (const plugin of this.host.plugins) {
      const hook = plugin.hooks?.beforeRegister;
      if (hook) {
        const ctx = this.host.context(plugin.slug);
        const result = await this.guarded(plugin, 'beforeRegister', () => hook({ ...current }, ctx));
        if (result !== undefined && result !== null) {
          if (typeof result !== 'object' || Array.isArray(result)) {
            throw this.internal(
              plugin,
              'beforeRegister',
              new Error('it returned something other than an object'),
            );
          }
          current = result as T;
        }
      }
    }
    return current;
  }

  async afterRegister(user: SessionUser): Promise<void> {
    await this.each('afterRegister', (hook, ctx) => hook(user, ctx));
  }

  async beforeLogout(request: Request): Promise<void> {
    await this.each('beforeLogout', (hook, ctx) => hook({ request }, ctx));
  }

  async afterLogout(userId: string | null, request: Request): Promise<void> {
    await this.each('afterLogout', (hook, ctx) => hook({ userId, request }, ctx));
  }

  /** `determineUser` in order: the first user a hook names, or null (the cookie session decides). */
  async determineUser(request: Request): Promise<SessionUser | null> {
    for (const plugin of this.host.plugins) {
      const hook = plugin.hooks?.determineUser;
      if (hook) {
        const ctx = this.host.context(plugin.slug);
        const user = await this.guarded(plugin, 'determineUser', () => hook(request, ctx));
        if (user) {
          if (typeof user !== 'object' || typeof user.id !== 'string') {
            throw this.internal(
              plugin,
              'determineUser',
              new Error('it returned something other than a user'),
            );
          }
          return user;
        }
      }
    }
    return null;
  }

  /** The access token's claims after every `customizeClaims` hook: additions only (`mergeClaims`). */
  async customizeClaims(core: Record<string, unknown>, user: SessionUser): Promise<Record<string, unknown>> {
    let claims = core;
    for (const plugin of this.host.plugins) {
      const hook = plugin.hooks?.customizeClaims;
      if (hook) {
        const ctx = this.host.context(plugin.slug);
        const given = structuredClone(claims);
        const returned = await this.guarded(plugin, 'customizeClaims', () => hook(given, user, ctx));
        const merged = mergeClaims(core, returned ?? given, this.userFieldNames);
        if (merged.dropped.length) {
          this.logger.warn(
            { plugin: plugin.slug, dropped: merged.dropped },
            'customizeClaims: claims left out',
          );
        }
        claims = merged.claims;
      }
    }
    return claims;
  }

  hasHook(name: keyof PluginHooks): boolean {
    return this.host.plugins.some((p) => typeof p.hooks?.[name] === 'function');
  }

  private async each<K extends keyof PluginHooks>(
    name: K,
    call: (hook: NonNullable<PluginHooks[K]>, ctx: PluginContext) => unknown,
  ): Promise<void> {
    for (const plugin of this.host.plugins) {
      const hook = plugin.hooks?.[name];
      if (hook) {
        const ctx = this.host.context(plugin.slug);
        await this.guarded(plugin, name, () =>
          call(hook.bind(plugin.hooks) as NonNullable<PluginHooks[K]>, ctx),
        );
      }
    }
  }

  /**
   * SPEC 6: a typed 4xx ServiceError keeps its code; anything else is 500 INTERNAL_ERROR with a
   * generic message, the cause in the log.
   */
  private guarded<T>(plugin: PluginDefinition, what: string, fn: () => T): Promise<Awaited<T>> {
    return this.run({ plugin: plugin.slug, hook: what }, fn);
  }

  /**
   * SPEC 6: a typed 4xx ServiceError keeps its code; anything else is 500 INTERNAL_ERROR with a
   * generic message, the cause in the log (with `who`: the plugin and hook, or the strategy).
   */
  private async run<T>(who: Record<string, string>, fn: () => T): Promise<Awaited<T>> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof ServiceError && e.status >= 400 && e.status < 500) {
        throw e;
      }
      throw this.failure(who, e);
    }
  }

  private internal(plugin: PluginDefinition, what: string, cause: unknown): ServiceError {
    return this.failure({ plugin: plugin.slug, hook: what }, cause);
  }

  private failure(who: Record<string, string>, cause: unknown): ServiceError {
    this.logger.error({ err: cause, ...who }, 'sign-in extension failed');
    return new ServiceError('INTERNAL_ERROR', 'The sign-in could not be completed; try again later');
  }

  private pluginDb(em: EntityManager): PluginDb {
    const db: PluginDb = {
      // Rows for every statement (TypeORM answers an UPDATE/DELETE as [rows, count]).
      query: <T>(sql: string, params?: unknown[]) => rows<T>(em, sql, params ?? []),
      transaction: (fn) =>
        em.queryRunner?.isTransactionActive
          ? fn(this.pluginDb(em))
          : this.db.transaction((tx) => fn(this.pluginDb(tx))),
    };
    // Which transaction it is, for `ctx.audit.record(entry, db)`; not enumerable (not the plugin's).
    return Object.defineProperty(db, PLUGIN_EM, { value: em });
  }

  /**
   * The plugins' own migrations, applied at boot whenever a plugin is installed (SVC_AUTO_MIGRATE
   * governs the core's only): once each, in list order, each in its own transaction, recorded
   * in `svc_plugin_migrations`, under the core's migration lock so instances booting together
   * apply each once. Answers how many it applied.
   */
  private async migrate(): Promise<number> {
    const pending = this.host.plugins.filter((p) => p.migrations?.length);
    if (!pending.length) {
      return 0;
    }
    let applied = 0;
    const runner = this.db.createQueryRunner();
    await runner.connect();
    try {
      await runner.query('SET statement_timeout = 0');
      await sessionLock(runner, MIGRATION_LOCK);
      for (const plugin of pending) {
        const done = new Set(
          (
            (await runner.query(`SELECT name FROM svc_plugin_migrations WHERE plugin = $1`, [
              plugin.slug,
            ])) as Array<{
              name: string;
            }>
          ).map((r) => r.name),
        );
        for (const m of plugin.migrations ?? []) {
          if (done.has(m.name)) {
            continue;
          }
          await runner.startTransaction();
          try {
            await runner.query(m.up);
            await runner.query(`INSERT INTO svc_plugin_migrations (plugin, name) VALUES ($1, $2)`, [
              plugin.slug,
              m.name,
            ]);
            await runner.commitTransaction();
            applied++;
            this.logger.debug({ plugin: plugin.slug, migration: m.name }, 'plugin migration applied');
          } catch (e) {
            await runner.rollbackTransaction();
            throw new Error(`plugin "${plugin.slug}": migration "${m.name}" failed: ${(e as Error).message}`);
          }
        }
      }
    } finally {
      await runner.query('RESET statement_timeout').catch(() => undefined);
      await sessionUnlock(runner, MIGRATION_LOCK).catch(() => undefined);
      await runner.release();
    }
    return applied;
  }
}

function pluginLogger(logger: Logger): PluginLogger {
  return {
    debug: (obj, msg) => logger.debug(obj, msg),
    info: (obj, msg) => logger.log(obj, msg),
    warn: (obj, msg) => logger.warn(obj, msg),
    error: (obj, msg) => logger.error(obj, msg),
  };
}

function pluginAccount(a: AccountState): PluginAccount {
  return {
    id: a.id,
    email: a.email,
    name: a.name,
    isActive: a.is_active,
    emailVerified: a.email_verified_at !== null,
  };
}
