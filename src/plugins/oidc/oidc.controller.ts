import { Get, Inject, Req, Res } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { CookieOptions, Request, Response } from 'express';
import { ServiceError, type PluginContext } from '../api';
import { accountFor } from './oidc.accounts';
import { OidcProvider, SignInFailure } from './oidc.client';
import type { ResolvedOidcOptions } from './oidc.options';
import { OidcStore } from './oidc.store';
import {
  cookieName,
  cookiePath,
  hashState,
  parseTransaction,
  sameOriginNext,
  sameString,
  serializeTransaction,
  SIGNIN_FAILED,
  TRANSACTION_TTL_SECONDS,
  type Transaction,
} from './oidc.transaction';

/** The DI token of an instance's runtime (each instance has its own module and controller class). */
export const OIDC_RUNTIME = Symbol('oidc:runtime');

/** What an instance's routes work with. */
export interface OidcRuntime {
  ctx: PluginContext;
  options: ResolvedOidcOptions;
  provider: OidcProvider;
  store: OidcStore;
  /** Whether the transaction cookie is `Secure` (the callback is served over https). */
  secureCookie(): boolean;
}

/** Expired states are purged at most this often per instance, by a sign-in's start. */
const PURGE_EVERY_MS = 60_000;
/** Runs of 20+ token characters in a library's error message (states, nonces, codes) are not logged. */
const OPAQUE = /[A-Za-z0-9_~.+/=-]{20,}/g;

/** Why a sign-in failed, for the log: a short message, never a token, code or state. */
function reasonOf(e: unknown): Record<string, unknown> {
  if (e instanceof SignInFailure) {
    return { reason: e.reason };
  }
  const err = e as { name?: unknown; message?: unknown; error?: unknown; code?: unknown };
  const message =
    typeof err?.message === 'string' ? err.message.replace(OPAQUE, '[redacted]').slice(0, 300) : '';
  return {
    reason: message || 'unknown error',
    error: typeof err?.name === 'string' ? err.name : typeof e,
    ...(typeof err?.error === 'string' && { providerError: err.error.slice(0, 64) }),
    ...(typeof err?.code === 'string' && { code: err.code.slice(0, 64) }),
  };
}

/**
 * `GET /admin/api/plugins/<slug>/start` and `/callback` (CONTRACTS 13.2.1), for visitors: plugin
 * routes are never refused by the core. Each installed instance mounts a subclass of its own.
 */
export class OidcRoutes {
  private lastPurge = 0;

  constructor(@Inject(OIDC_RUNTIME) private readonly rt: OidcRuntime) {}

  private cookieOptions(): CookieOptions {
    return {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.rt.secureCookie(),
      path: cookiePath(this.rt.options.slug),
    };
  }

  private fail(res: Response, stage: string, e: unknown, level: 'warn' | 'error' = 'warn'): void {
    this.rt.ctx.logger[level]({ stage, ...reasonOf(e) }, 'external sign-in failed');
    if (!res.headersSent) {
      res.redirect(302, SIGNIN_FAILED);
    }
  }

  private async purgeExpired(): Promise<void> {
    if (Date.now() - this.lastPurge < PURGE_EVERY_MS) {
      return;
    }
    this.lastPurge = Date.now();
    try {
      await this.rt.store.purgeExpired();
    } catch (e) {
      this.rt.ctx.logger.warn({ err: reasonOf(e) }, 'expired sign-in states could not be purged');
    }
  }

  /** Starts a sign-in: a new transaction (cookie + recorded state) and a 302 to the provider. */
  @Get('start')
  @ApiResponse({
    status: 302,
    description: 'To the provider (the transaction cookie set); a failure, to the login page with its error',
  })
  async start(@Req() req: Request, @Res() res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    const { ctx, options, provider, store } = this.rt;
    const next = sameOriginNext(req.query.next);
    let url: string;
    let tx: Transaction;
    try {
      await this.purgeExpired();
      const secrets = OidcProvider.newSecrets();
      url = await provider.authorizationUrl(secrets);
      tx = { ...secrets, next, exp: Math.floor(Date.now() / 1000) + TRANSACTION_TTL_SECONDS };
      await store.begin(hashState(tx.state), TRANSACTION_TTL_SECONDS);
    } catch (e) {
      return this.fail(res, 'start', e);
    }
    res.cookie(cookieName(options.slug), ctx.secrets.seal(serializeTransaction(options.slug, tx)), {
      ...this.cookieOptions(),
      maxAge: TRANSACTION_TTL_SECONDS * 1000,
    });
    res.redirect(302, url);
  }

  /**
   * The provider's answer: the transaction cookie is cleared whatever happens; state (cookie,
   * query, single use), code exchange and ID token are checked; the account is found, linked or
   * created; `completeLogin` answers. Any failure is a 302 to the login page's error.
   */
  @Get('callback')
  @ApiResponse({
    status: 302,
    description:
      '`completeLogin`: signed in, to `next`; a second factor, to the login page to resume; a failure or a refused account, to the login page with its error',
  })
  async callback(@Req() req: Request, @Res() res: Response): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    const { ctx, options, provider, store } = this.rt;
    const name = cookieName(options.slug);
    const sealed: unknown = (req.cookies as Record<string, unknown> | undefined)?.[name];
    res.cookie(name, '', { ...this.cookieOptions(), maxAge: 0 });

    let userId: string;
    let next: string;
    try {
      if (typeof sealed !== 'string' || sealed === '') {
        throw new SignInFailure('no transaction cookie (expired, or started in another browser)');
      }
      let opened: string;
      try {
        opened = ctx.secrets.open(sealed);
      } catch {
        throw new SignInFailure('the transaction cookie does not open');
      }
      const tx = parseTransaction(options.slug, opened, Math.floor(Date.now() / 1000));
      if (!tx) {
        throw new SignInFailure('the transaction cookie is expired or not this instance’s');
      }
      // The state is used up whatever follows.
      const live = await store.consume(hashState(tx.state));
      const { error, state } = req.query;
      if (error !== undefined) {
        const code = typeof error === 'string' ? error.replace(/[^\w.-]/g, '').slice(0, 64) : 'malformed';
        throw new SignInFailure(`the provider answered error "${code}"`);
      }
      if (typeof state !== 'string' || !sameString(state, tx.state)) {
        throw new SignInFailure('state missing or not the one of the transaction cookie');
      }
      if (!live) {
        throw new SignInFailure('state already used or expired');
      }
      const identity = await provider.exchange(req.query as Record<string, unknown>, tx);
      userId = await accountFor(ctx, store, options, identity);
      next = tx.next;
    } catch (e) {
      // A fault of the service (the database, a role in defaultRoles that does not exist) is an error.
      const fault = e instanceof ServiceError && e.status >= 500;
      return this.fail(res, 'callback', e, fault ? 'error' : 'warn');
    }
    try {
      await ctx.auth.completeLogin(userId, {
        request: req,
        response: res,
        strategy: `${options.slug}:oidc`,
        next,
      });
    } catch (e) {
      // SPEC 5.7.5: what completeLogin throws is a fault (a hook's, or the plugin's), not a refusal.
      this.fail(res, 'completeLogin', e, 'error');
    }
  }
}
