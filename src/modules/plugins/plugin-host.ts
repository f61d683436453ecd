import type { AuthContext } from '../../common/access/auth-context';
import { PLUGIN_ROUTE, SVC_ROUTE } from '../../common/access/svc-controller';
import type { SecretBox } from '../../common/secret-box';
import type { ResolvedConfig } from '../../config/config.types';
import type { GeneralSettings } from '../settings/settings.types';
import { SERVICE_VERSION } from '../../common/version';
import { pendingTokenOf } from '../../common/pending-token';
import { ServiceError } from '../../common/errors';
import { checkPlugins } from './plugin-checks';
import { MFA_ENROL } from './plugin.types';
import type {
  CompleteLoginOptions,
  EnrolmentClaim,
  EnrolmentOutcome,
  PluginContext,
  PluginAccount,
  PluginDb,
  PluginDefinition,
  PluginLogger,
  PendingStep,
} from './plugin.types';
import type { Request, Response } from 'express';

export const PLUGIN_HOST = Symbol('svc:plugin-host');

/** What the contexts reach once the service runs (bound by PluginsService). */
export interface PluginRuntime {
  completeLogin(plugin: PluginDefinition, userId: string, options: CompleteLoginOptions): Promise<void>;
  pendingChallenge(token: string | undefined): Promise<PendingStep | null>;
  finishEnrolment(
    token: string | EnrolmentClaim | undefined,
    options: { request: Request; response: Response },
  ): Promise<EnrolmentOutcome>;
  claimEnrolment(pendingToken: string, db: PluginDb): Promise<EnrolmentClaim>;
  requireRecentSignIn(auth: AuthContext | undefined): Promise<void>;
  accountStamp(userId: string): Promise<string | null>;
  secondFactorAttempt(userId: string, check: () => Promise<boolean>, request?: Request): Promise<boolean>;
  db: PluginDb;
  box(slug: string): SecretBox;
  logger(slug: string): PluginLogger;
  assertManageable(auth: AuthContext, userId: string): Promise<void>;
  findByEmail(email: string): Promise<PluginAccount | null>;
  findById(userId: string): Promise<PluginAccount | null>;
  audit(
    plugin: PluginDefinition,
    entry: Parameters<PluginContext['audit']['record']>[0],
    db?: PluginDb,
  ): Promise<void>;
  createUser(plugin: PluginDefinition, input: NewPluginAccount): Promise<PluginAccount>;
  consume(
    plugin: PluginDefinition,
    key: string,
    budget: { max: number; windowSeconds: number },
    response: Response,
  ): Promise<void>;
  consumeSignIn(request: Request, response: Response): Promise<void>;
  sendTemplate(input: { to: string; template: string; variables?: Record<string, string> }): Promise<{
    messageId: string | null;
  }>;
  settings(): Promise<Readonly<GeneralSettings>>;
}

export type NewPluginAccount = Parameters<PluginContext['users']['create']>[0];

/**
 * The checked plugins of one service instance and their contexts. Made when the module is built
 * (a plugin's `module(ctx)` needs its context then); the context's parts work once the service
 * has started and bound its runtime.
 */
export class PluginHost {
  readonly plugins: PluginDefinition[];
  readonly droppedProviders: string[];
  private readonly contexts = new Map<string, PluginContext>();
  private runtime: PluginRuntime | null = null;
  /** Whether `modules()` ran: a plugin's routes are mounted only when the module is built with it. */
  private mounted = false;

  constructor(config: ResolvedConfig, publicUrl: string) {
    const checked = checkPlugins(config.plugins, SERVICE_VERSION);
    this.plugins = checked.plugins;
    const mfa = config.auth.mfa;
    if ((mfa.requiredForAll || mfa.requiredForRoles.length) && !this.plugins.some((p) => p.secondFactor)) {
      throw new Error(
        '"auth.mfa" requires a second factor, but no second-factor plugin is installed (add totpPlugin() or passkeyPlugin(...) to plugins)',
      );
    }

    this.droppedProviders = checked.droppedProviders;
    for (const p of this.plugins) {
      this.contexts.set(p.slug, this.makeContext(p, config, publicUrl));
    }
  }

  bind(runtime: PluginRuntime): void {
    const unmounted = this.mounted ? [] : this.plugins.filter((p) => p.module);
    if (unmounted.length) {
      throw new Error(
        `plugin${unmounted.length > 1 ? 's' : ''} ${unmounted.map((p) => `"${p.slug}"`).join(', ')} serve routes: ` +
          'SvcModule.forRootAsync cannot mount them (Nest mounts modules before its factory runs); use SvcModule.forRoot',
      );
    }
    this.runtime = runtime;
  }

  context(slug: string): PluginContext {
    return this.contexts.get(slug)!;
  }

  /**
   * Each plugin's Nest module (from `module(ctx)`), its controllers marked as plugin routes, with
   * the path it is mounted on.
   */
  modules(): Array<{ path: string; module: ReturnType<NonNullable<PluginDefinition['module']>> }> {
    this.mounted = true;
    return this.plugins
      .filter((p) => p.module)
      .map((p) => {
        const module = p.module!(this.context(p.slug));
        const controllers = [
          ...(module.controllers ?? []),
          ...((Reflect.getMetadata('controllers', module.module) as unknown[] | undefined) ?? []),
        ];
        for (const c of controllers) {
          Reflect.defineMetadata(SVC_ROUTE, true, c as object);
          Reflect.defineMetadata(PLUGIN_ROUTE, true, c as object);
        }
        return { path: p.mountPath ?? `admin/api/plugins/${p.slug}`, module };
      });
  }

  private makeContext(plugin: PluginDefinition, config: ResolvedConfig, publicUrl: string): PluginContext {
    const rt = (): PluginRuntime => {
      if (!this.runtime) {
        throw new Error(`plugin "${plugin.slug}": the service has not started yet`);
      }
      return this.runtime;
    };
    let box: SecretBox | undefined;
    let logger: PluginLogger | undefined;
    const log = () => (logger ??= rt().logger(plugin.slug));
    return {
      slug: plugin.slug,
      config,
      publicUrl,
      logger: {
        debug: (obj, msg) => log().debug(obj, msg),
        info: (obj, msg) => log().info(obj, msg),
        warn: (obj, msg) => log().warn(obj, msg),
        error: (obj, msg) => log().error(obj, msg),
      },
      auth: {
        completeLogin: (userId, options) => rt().completeLogin(plugin, userId, options),
        pendingChallenge: (token) => rt().pendingChallenge(token),
        finishEnrolment: (token, options) => rt().finishEnrolment(token, options),
        claimEnrolment: (pendingToken, db) => rt().claimEnrolment(pendingToken, db),
        requireRecentSignIn: (auth) => rt().requireRecentSignIn(auth),
        accountStamp: (userId) => rt().accountStamp(userId),
        enrolment: async (request, body) => {
          const pendingToken = pendingTokenOf(request, body);
          if (!pendingToken) {
            return null;
          }
          // A voided step (password write, deactivation, end of all sessions) is not found.
          const step = await rt().pendingChallenge(pendingToken);
          const user = step?.challengeType === MFA_ENROL ? await rt().findById(step.userId) : null;
          if (!user || !user.isActive) {
            throw new ServiceError('AUTH_REQUIRED', 'Sign in first');
          }
          return { user, pendingToken };
        },
      },
      db: {
        query: (sql, params) => rt().db.query(sql, params),
        transaction: (fn) => rt().db.transaction(fn),
      },
      audit: { record: (entry, db) => rt().audit(plugin, entry, db) },
      secrets: {
        seal: (plaintext) => (box ??= rt().box(plugin.slug)).seal(plaintext),
        open: (sealed) => (box ??= rt().box(plugin.slug)).open(sealed),
      },
      users: {
        assertManageable: (auth, userId) => rt().assertManageable(auth, userId),
        findByEmail: (email) => rt().findByEmail(email),
        findById: (userId) => rt().findById(userId),
        create: (input) => rt().createUser(plugin, input),
      },
      limits: {
        consume: (key, budget, response) => rt().consume(plugin, key, budget, response),
        consumeSignIn: (request, response) => rt().consumeSignIn(request, response),
        secondFactor: (userId, check, request) => rt().secondFactorAttempt(userId, check, request),
      },
      email: { sendTemplate: (input) => rt().sendTemplate(input) },
      settings: { get: () => rt().settings() },
    };
  }
}
