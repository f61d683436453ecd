import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { AUTH_CONTEXT, RequestWithAuth } from '../../../common/access/auth-context';
import { andThen, type Awaitable } from '../../../common/cache';
import { COOKIE_ONLY, OPTIONAL_AUTH } from '../../../common/access/auth.decorators';
import { IS_PUBLIC } from '../../../common/access/public.decorator';
import { RouteMetadata } from '../../../common/access/route-metadata';
import { PLUGIN_ROUTE, SVC_ROUTE } from '../../../common/access/svc-controller';
import { ServiceError } from '../../../common/errors';
import { ApiKeysService } from '../../api-keys/api-keys.service';
import { AuthenticationService } from '../authentication.service';
import { OriginCheckService } from '../origin-check.service';

const SAFE_METHODS = ['GET', 'HEAD', 'OPTIONS'];

/**
 * Global guard (APP_GUARD): every route of the service needs credentials unless marked
 * @Public(), so a forgotten decorator fails closed. A host application's routes are not touched.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  private readonly routes: RouteMetadata<{
    svc: boolean;
    isPublic: boolean;
    cookieOnly: boolean;
    optional: boolean;
    plugin: boolean;
  }>;

  constructor(
    reflector: Reflector,
    private readonly auth: AuthenticationService,
    private readonly apiKeys: ApiKeysService,
    private readonly origins: OriginCheckService,
  ) {
    this.routes = new RouteMetadata((targets) => ({
      svc: reflector.getAllAndOverride<boolean>(SVC_ROUTE, targets) === true,
      // Plugin routes are open like public ones: credentials that come along are checked, and
      // the plugin decides (CONTRACTS 10).
      isPublic:
        reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets) === true ||
        reflector.getAllAndOverride<boolean>(PLUGIN_ROUTE, targets) === true,
      cookieOnly: reflector.getAllAndOverride<boolean>(COOKIE_ONLY, targets) === true,
      optional: reflector.getAllAndOverride<boolean>(OPTIONAL_AUTH, targets) === true,
      plugin: reflector.getAllAndOverride<boolean>(PLUGIN_ROUTE, targets) === true,
    }));
  }

  /** Synchronous for a warm API key counted in memory: no promise on the way (see `andThen`). */
  canActivate(context: ExecutionContext): Awaitable<boolean> {
    if (context.getType() !== 'http') {
      return true;
    }
    const route = this.routes.of(context);
    if (!route.svc) {
      return true;
    }
    const req = context.switchToHttp().getRequest<Request & RequestWithAuth>();
    // Cookie-only routes refuse any Authorization header before looking at it, so a key or token
    // there is never authenticated, rate-counted or marked used (SPEC 4.2 note 1).
    if (req.headers.authorization !== undefined && route.cookieOnly) {
      throw new ServiceError(
        'AUTH_REQUIRED',
        'This route accepts only a browser session, not a Bearer credential',
      );
    }
    if (route.isPublic) {
      return this.open(req, route.plugin, context.switchToHttp().getResponse<Response>());
    }
    return andThen(this.auth.authenticate(req), (ctx) => {
      if (!ctx && route.optional) {
        req[AUTH_CONTEXT] = null;
        return true;
      }
      if (!ctx) {
        throw new ServiceError('AUTH_REQUIRED', 'Sign in to use this route');
      }
      // Defence in depth beyond CONTRACTS 3.1 (which puts tokens on /auth only): a write carried by
      // the session cookie must not come from a foreign page. SameSite=Lax already blocks most.
      if (ctx.method === 'session' && !SAFE_METHODS.includes(req.method)) {
        this.origins.checkOrigin(req);
      }
      const key = ctx.apiKey;
      if (!key) {
        req[AUTH_CONTEXT] = ctx;
        return true;
      }
      return andThen(
        this.apiKeys.consumeRateLimit(key.id, context.switchToHttp().getResponse<Response>()),
        () => {
          // A read-only key writes nothing, not even through a route that needs no permission (PATCH /me).
          if (key.type === 'read-only' && !SAFE_METHODS.includes(req.method)) {
            throw new ServiceError('FORBIDDEN', 'A read-only API key cannot change anything');
          }
          req[AUTH_CONTEXT] = ctx;
          return true;
        },
      );
    });
  }

  /**
   * Open routes still see who is calling when valid credentials come along. Only a refused
   * credential (401) makes the caller a visitor; a failure to check it (the database, the key
   * store) fails the request instead (SPEC 3.2: never answered as signed in or out).
   */
  private async open(req: Request & RequestWithAuth, plugin: boolean, res: Response): Promise<boolean> {
    try {
      req[AUTH_CONTEXT] = await this.auth.authenticate(req);
    } catch (e) {
      if (!(e instanceof ServiceError && e.status === 401)) {
        throw e;
      }
      req[AUTH_CONTEXT] = null;
    }
    const key = req[AUTH_CONTEXT]?.apiKey;
    if (key) {
      await this.apiKeys.consumeRateLimit(key.id, res);
    }
    if (plugin && req[AUTH_CONTEXT] && !SAFE_METHODS.includes(req.method)) {
      this.pluginWrite(req);
    }
    return true;
  }

  /**
   * The core's write rules on a plugin route, which is open to visitors: a session cookie sent
   * from a foreign page is dropped (the caller is a visitor there: a public form on a sibling
   * site still posts, an admin write is not made in the user's name), and a read-only key is
   * refused as on every other route.
   */
  private pluginWrite(req: Request & RequestWithAuth): void {
    const ctx = req[AUTH_CONTEXT]!;
    if (ctx.method === 'session') {
      try {
        this.origins.checkOrigin(req);
      } catch {
        req[AUTH_CONTEXT] = null;
      }
    } else if (ctx.apiKey?.type === 'read-only') {
      throw new ServiceError('FORBIDDEN', 'A read-only API key cannot change anything');
    }
  }
}
