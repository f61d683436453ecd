import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { LRUCache } from 'lru-cache';
import { andThen, type Awaitable } from '../../common/cache';
import { AuthContext } from '../../common/access/auth-context';
import { ServiceError } from '../../common/errors';
import { recordPrincipal } from '../../common/request-logging';
import { AccountsService } from '../accounts/accounts.service';
import { API_KEY_PREFIX, ApiKeysService } from '../api-keys/api-keys.service';
import { RbacService } from '../rbac/rbac.service';
import { UserFieldsService } from '../user-fields/user-fields.service';
import { TokensService } from './tokens.service';

/** The cookie carrying the access token (set by the sessions, auth/cookies.ts; read here). */
export const SESSION_COOKIE = 'svc_session';

/** How long a session id found ended after a fresh read is refused without reading again. */
const ENDED_TTL_MS = 60_000;
const MAX_ENDED = 10_000;

/**
 * Turns the credentials a request carries into one AuthContext. A token is honoured only while
 * the account is active and its counter matches the token's (SPEC 3.2).
 */
@Injectable()
export class AuthenticationService {
  constructor(
    private readonly tokens: TokensService,
    private readonly accounts: AccountsService,
    private readonly rbac: RbacService,
    private readonly userFields: UserFieldsService,
    private readonly apiKeys: ApiKeysService,
  ) {}

  /**
   * Session ids that were not live in an account row read after their token arrived: ended for
   * good (a session never comes back), so their tokens are refused without another read.
   */
  private readonly ended = new LRUCache<string, true>({ max: MAX_ENDED, ttl: ENDED_TTL_MS });

  /**
   * null: no credentials. Throws AUTH_REQUIRED for a bad or revoked token,
   * AUTH_INVALID_CREDENTIALS for an unknown API key, DATABASE_ERROR when the account cannot be read.
   */
  authenticate(req: Request): Awaitable<AuthContext | null> {
    return andThen(this.credentials(req), (ctx) => {
      // Ids only (user, API key), for the request's access line.
      recordPrincipal(req, ctx);
      return ctx;
    });
  }

  /** Synchronous for a warm API key (its caches hit); an access token is checked in a promise. */
  private credentials(req: Request): Awaitable<AuthContext | null> {
    const header = req.headers.authorization;
    if (typeof header === 'string' && header !== '') {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!m) {
        throw new ServiceError('AUTH_REQUIRED', 'The Authorization header must be "Bearer <token>"');
      }
      if (m[1].startsWith(API_KEY_PREFIX)) {
        return this.apiKeys.authenticate(m[1]);
      }
      return this.fromAccessToken(m[1], 'bearer');
    }
    const cookie = (req.cookies as Record<string, string> | undefined)?.[SESSION_COOKIE];
    return cookie ? this.fromAccessToken(cookie, 'session') : null;
  }

  async fromAccessToken(token: string, method: 'session' | 'bearer'): Promise<AuthContext> {
    const claims = this.tokens.verifyAccess(token);
    if (!claims) {
      throw new ServiceError('AUTH_REQUIRED', 'The session is not valid or has expired');
    }
    const sid = claims.sid;
    let account = await this.accounts.getAccount(claims.sub);
    if (
      account &&
      (claims.ver > account.ver ||
        (sid !== undefined && !account.sessions.includes(sid) && this.ended.get(sid) === undefined))
    ) {
      // A token newer than the cached row (minted after a password write, or in a session opened,
      // on another instance): the cache is behind, not the token. Read the row again rather than
      // refuse a fresh login; a session still missing then has ended (and is remembered so).
      this.accounts.reread(claims.sub);
      account = await this.accounts.getAccount(claims.sub);
      if (account && sid !== undefined && !account.sessions.includes(sid)) {
        this.ended.set(sid, true);
      }
    }
    if (
      !account ||
      !account.is_active ||
      account.ver !== claims.ver ||
      (sid !== undefined && !account.sessions.includes(sid))
    ) {
      throw new ServiceError('AUTH_REQUIRED', 'The session has ended; sign in again');
    }
    // Permissions follow the account's current roles; the session user shows the token's claims.
    const roleIds = account.roles.map((r) => r.id);
    const { isSuperAdmin, permissions } = await this.rbac.resolve(roleIds);
    return {
      method,
      user: this.accounts.sessionUser(account, this.userFields.present(account.custom), claims.roleIds),
      roleIds,
      permissions,
      isSuperAdmin,
      exp: claims.exp,
      ...(sid !== undefined ? { sessionId: sid } : {}),
    };
  }

  /**
   * The rights a user holds now, for work done on their behalf outside a request (a scheduled
   * publish): read fresh, null when the account is gone or deactivated.
   */
  async forUser(userId: string): Promise<AuthContext | null> {
    this.accounts.reread(userId);
    const account = await this.accounts.getAccount(userId);
    if (!account || !account.is_active) {
      return null;
    }
    const roleIds = account.roles.map((r) => r.id);
    const { isSuperAdmin, permissions } = await this.rbac.resolve(roleIds);
    return {
      method: 'bearer',
      user: this.accounts.sessionUser(account, this.userFields.present(account.custom), roleIds),
      roleIds,
      permissions,
      isSuperAdmin,
    };
  }
}
