import { Logger } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import { ServiceError } from '../../common/errors';
import type { RbacService } from '../rbac/rbac.service';
import type { SessionUser } from '../../common/access/auth-context';
import { type AuthenticationService, SESSION_COOKIE } from '../identity/authentication.service';
import type { AuthService } from './auth.service';

/**
 * A request's session as the in-process helpers see it. For an API key, `user` is the key's
 * creator but `user.roleIds` are the key's own roles (its role for a role-based key, none for
 * the other types), so `hasRole` answers for the key; `apiKey` names it; `permissions` are what
 * `GET /me/permissions` answers for the same credential.
 */
export interface Session {
  user: SessionUser;
  exp?: number;
  method: 'session' | 'bearer' | 'api-key';
  isSuperAdmin: boolean;
  permissions: string[];
  apiKey?: { id: string; type: 'read-only' | 'full-access' | 'role-based'; roleId: string | null };
}

export interface Runtime {
  authentication: AuthenticationService;
  auth: AuthService;
  rbac: RbacService;
}

/**
 * Every service instance running in this process (each AuthModule adds its own on start and
 * removes it on stop); the helpers use the most recently started one.
 */
const runtimes: Runtime[] = [];

export function addInProcessRuntime(r: Runtime): void {
  runtimes.push(r);
}

export function removeInProcessRuntime(r: Runtime): void {
  const i = runtimes.indexOf(r);
  if (i >= 0) {
    runtimes.splice(i, 1);
  }
}

function need(helper: string): Runtime {
  const runtime = runtimes[runtimes.length - 1];
  if (!runtime) {
    new Logger('svc').error(
      `${helper}() was called in a process where the service is not initialised. Import ` +
        'SvcModule.forRoot(...) into this Nest application (or start it with startServer()) and ' +
        'call it after the application has started.',
    );
    throw new ServiceError('INTERNAL_ERROR', 'The service is not initialised in this process');
  }
  return runtime;
}

/** Cookie header parsing for requests that did not pass the service's own cookie middleware. */
function withCookies(req: IncomingMessage | Request): Request {
  const r = req as Request;
  if (r.cookies === undefined && typeof req.headers.cookie === 'string') {
    const cookies: Record<string, string> = {};
    for (const part of req.headers.cookie.split(';')) {
      const eq = part.indexOf('=');
      if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) {
        cookies[SESSION_COOKIE] = safeDecode(part.slice(eq + 1).trim());
      }
    }
    r.cookies = cookies;
  }
  return r;
}

/** Like cookie-parser: a value that is not valid percent-encoding is kept as it is. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The session of a request (cookie or Bearer access token), or null. The account is checked in
 * the database (at most every 5 s), so a database failure throws DATABASE_ERROR.
 */
export async function getSession(req: IncomingMessage | Request): Promise<Session | null> {
  const { authentication, rbac } = need('getSession');
  try {
    const ctx = await authentication.authenticate(withCookies(req));
    if (!ctx) {
      return null;
    }
    return {
      user: ctx.user,
      exp: ctx.exp,
      method: ctx.method,
      isSuperAdmin: ctx.isSuperAdmin,
      permissions: await rbac.held(ctx),
      ...(ctx.apiKey ? { apiKey: ctx.apiKey } : {}),
    };
  } catch (e) {
    if (e instanceof ServiceError && e.status === 401) {
      return null;
    }
    throw e;
  }
}

/** Like getSession, but throws AUTH_REQUIRED when there is no valid session. */
export async function requireAuth(req: IncomingMessage | Request): Promise<Session> {
  const session = await getSession(req);
  if (!session) {
    throw new ServiceError('AUTH_REQUIRED', 'Sign in first');
  }
  return session;
}

async function roleKeys(session: Session | null, helper: string): Promise<Set<string>> {
  const { rbac } = need(helper);
  const ids = session?.user.roleIds ?? [];
  return new Set([...ids, ...(ids.length ? await rbac.roleSlugs(ids) : [])]);
}

/** Roles are named by id or by slug. */
export async function hasRole(session: Session | null, role: string): Promise<boolean> {
  return (await roleKeys(session, 'hasRole')).has(role);
}

export async function hasAnyRole(session: Session | null, roles: string[]): Promise<boolean> {
  const keys = await roleKeys(session, 'hasAnyRole');
  return roles.some((r) => keys.has(r));
}

export async function hasAllRoles(session: Session | null, roles: string[]): Promise<boolean> {
  const keys = await roleKeys(session, 'hasAllRoles');
  return roles.every((r) => keys.has(r));
}

/** Direct API login: every password rule, answered with a 30-day access token. */
export async function login(credentials: { email: string; password: string }) {
  return need('login').auth.directLogin(credentials.email, credentials.password);
}
