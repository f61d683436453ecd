import type { CookieOptions, Response } from 'express';
import { PENDING_COOKIE } from '../../common/pending-token';
import { SESSION_COOKIE } from '../identity/authentication.service';
import { ACCESS_TTL_SECONDS, REFRESH_TTL_MS } from '../identity/tokens.service';

export const REFRESH_COOKIE = 'svc_refresh';
export const CSRF_COOKIE = 'svc_csrf';
export { PENDING_COOKIE } from '../../common/pending-token';
export const SESSION_COOKIE_PATH = '/admin';
/** Both refresh and logout receive it (CONTRACTS 0). */
export const REFRESH_COOKIE_PATH = '/admin/api/auth';

function base(secure: boolean, path: string): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure, path };
}

export function setSessionCookies(
  res: Response,
  s: { accessToken: string; refreshToken: string },
  secure: boolean,
): void {
  res.cookie(SESSION_COOKIE, s.accessToken, {
    ...base(secure, SESSION_COOKIE_PATH),
    maxAge: ACCESS_TTL_SECONDS * 1000,
  });
  res.cookie(REFRESH_COOKIE, s.refreshToken, {
    ...base(secure, REFRESH_COOKIE_PATH),
    maxAge: REFRESH_TTL_MS,
  });
}

export function clearSessionCookies(res: Response, secure: boolean): void {
  res.clearCookie(SESSION_COOKIE, base(secure, SESSION_COOKIE_PATH));
  res.clearCookie(REFRESH_COOKIE, base(secure, REFRESH_COOKIE_PATH));
}

export function setCsrfCookie(res: Response, token: string, secure: boolean): void {
  res.cookie(CSRF_COOKIE, token, base(secure, SESSION_COOKIE_PATH));
}

/**
 * Where the pending token of a paused login goes (CONTRACTS 3.2): the auth routes (`GET
 * /auth/pending`, `/auth/challenge/resolve`), and, as the same cookie on a second path, the plugin
 * routes that take it too (a passkey challenge's options, second-factor enrolment, CONTRACTS
 * 13.2.3 and 14.2), which a cookie scoped to `/admin/api/auth` alone never reaches.
 */
export const PENDING_COOKIE_PATHS = [REFRESH_COOKIE_PATH, '/admin/api/plugins'] as const;

/** The pending token of a paused login (CONTRACTS 3.2), for `GET /auth/pending` and the next step. */
export function setPendingCookie(res: Response, token: string, expiresAt: Date, secure: boolean): void {
  for (const path of PENDING_COOKIE_PATHS) {
    res.cookie(PENDING_COOKIE, token, { ...base(secure, path), expires: expiresAt });
  }
}

export function clearPendingCookie(res: Response, secure: boolean): void {
  for (const path of PENDING_COOKIE_PATHS) {
    res.clearCookie(PENDING_COOKIE, base(secure, path));
  }
}
