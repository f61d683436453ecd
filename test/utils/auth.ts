import type { Server } from 'node:http';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';
import { AuthService } from '../../src/modules/auth/auth.service';
import { hashPassword } from '../../src/modules/accounts/passwords';
import { TokensService } from '../../src/modules/identity/tokens.service';
import { AccountsService } from '../../src/modules/accounts/accounts.service';
import { toSessionUser } from '../../src/modules/accounts/user.mapper';
import { UsersRepository } from '../../src/modules/accounts/users.repository';
import type { TestApp } from './test-app';

export const PASSWORD = 'Correct-Horse-9';

/** A cookie-keeping client that fetched a CSRF token, the way a browser admin UI does. */
export interface Browser {
  agent: TestAgent;
  csrf: string;
  post(path: string, body?: object): request.Test;
  patch(path: string, body?: object): request.Test;
}

export async function browser(t: TestApp | { app: { getHttpServer(): Server } }): Promise<Browser> {
  const agent = request.agent(t.app.getHttpServer());
  const res = await agent.get('/admin/api/auth/csrf').expect(200);
  const csrf = res.body.csrfToken as string;
  return {
    agent,
    csrf,
    post: (path, body) =>
      agent
        .post(`/admin/api${path}`)
        .set('X-CSRF-Token', csrf)
        .send(body ?? {}),
    patch: (path, body) =>
      agent
        .patch(`/admin/api${path}`)
        .set('X-CSRF-Token', csrf)
        .send(body ?? {}),
  };
}

export interface CreatedUser {
  id: string;
  email: string;
  password: string;
}

let counter = 0;

/**
 * bcrypt(12) is about a quarter of a second of CPU: the factory hashes each password once per test
 * file and gives its users that hash (sign-ins still compare against a real bcrypt(12) hash).
 */
const hashes = new Map<string, Promise<string>>();
function hashOnce(password: string): Promise<string> {
  let hash = hashes.get(password);
  if (!hash) {
    hash = hashPassword(password);
    hashes.set(password, hash);
  }
  return hash;
}

/** Factory: a user straight in the database (roles by slug). */
export async function createUser(
  t: TestApp,
  o: {
    email?: string;
    password?: string;
    name?: string;
    verified?: boolean;
    active?: boolean;
    roles?: string[];
  } = {},
): Promise<CreatedUser> {
  const email = o.email ?? `user${++counter}-${Date.now()}@example.com`;
  const password = o.password ?? PASSWORD;
  const rows: Array<{ id: string }> = await t.db.query(
    `INSERT INTO users (email, name, password_hash, email_verified_at, is_active)
     VALUES ($1, $2, $3, CASE WHEN $4::boolean THEN now() END, $5) RETURNING id`,
    [email, o.name ?? 'Test User', await hashOnce(password), o.verified ?? true, o.active ?? true],
  );
  for (const slug of o.roles ?? []) {
    await t.db.query(`INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE slug = $2`, [
      rows[0].id,
      slug,
    ]);
  }
  return { id: rows[0].id, email, password };
}

/** Signs in through HTTP; returns the browser (cookies kept) and the login body. */
export async function signIn(t: TestApp, user: { email: string; password: string }) {
  const b = await browser(t);
  const res = await b.post('/auth/login', { email: user.email, password: user.password });
  if (res.status !== 200) {
    throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { browser: b, body: res.body as { token: string; exp: number; user: { id: string } }, res };
}

/** Cookie values from a response's Set-Cookie headers, by name. */
export function setCookies(res: { headers: Record<string, unknown> }): Record<string, string> {
  const raw = (res.headers['set-cookie'] as string[] | undefined) ?? [];
  return Object.fromEntries(raw.map((c) => [c.split('=')[0], c]));
}

export function cookieValue(setCookie: string): string {
  return decodeURIComponent(setCookie.split(';')[0].split('=').slice(1).join('='));
}

export function decodeJwt(token: string): {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
} {
  const [h, p] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(h, 'base64url').toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>,
  };
}

/** A freshly signed access token for a user, as login mints it (skips the 500 ms login floor). */
export async function accessTokenFor(t: TestApp, userId: string): Promise<string> {
  const account = await t.app.get(UsersRepository).findAccountById(t.db.manager, userId);
  return t.app.get(TokensService).signAccess(toSessionUser(account!, {}), account!.ver).token;
}

export async function bearerFor(t: TestApp, userId: string): Promise<Record<string, string>> {
  return { Authorization: `Bearer ${await accessTokenFor(t, userId)}` };
}

let roleCounter = 0;

/** A fresh role holding exactly these permissions (by slug). */
export async function roleWithPermissions(t: TestApp, permissions: string[]): Promise<string> {
  const slug = `r-${++roleCounter}-${Date.now().toString(36)}`;
  const [role] = await t.db.query(`INSERT INTO roles (name, slug) VALUES ($1, $1) RETURNING id`, [slug]);
  if (permissions.length) {
    const added: unknown[] = await t.db.query(
      `INSERT INTO role_permissions (role_id, permission_id) SELECT $1, id FROM permissions WHERE slug = ANY($2) RETURNING permission_id`,
      [role.id, permissions],
    );
    if (added.length !== permissions.length) {
      throw new Error(`unknown permission among ${permissions.join(', ')}`);
    }
  }
  return role.id as string;
}

/** A user holding only a fresh role with exactly these permissions. */
export async function userWithPermissions(
  t: TestApp,
  permissions: string[],
): Promise<CreatedUser & { roleId: string }> {
  const roleId = await roleWithPermissions(t, permissions);
  const user = await createUser(t);
  await t.db.query(`INSERT INTO user_roles (user_id, role_id) VALUES ($1, $2)`, [user.id, roleId]);
  return { ...user, roleId };
}

/** One session as a client holds it: the access token and the refresh token. */
export interface HeldSession {
  token: string;
  refresh: string;
}

/** The session a successful login response carries (body token and `svc_refresh` cookie). */
export function heldSession(res: { body: { token: string }; headers: Record<string, unknown> }): HeldSession {
  return { token: res.body.token, refresh: cookieValue(setCookies(res).svc_refresh) };
}

/**
 * A session minted by core's last login step (`AuthService.finishLogin`: account gate, access token
 * at the current counter, refresh row), without a password: what an external sign-in ends in
 * (SPEC 5.7). For accounts that have no password yet.
 */
export async function sessionWithoutPassword(t: TestApp, userId: string): Promise<HeldSession> {
  const auth = t.app.get(AuthService);
  const accounts = t.app.get(AccountsService);
  const issued = await t.db.transaction(async (em) => {
    const account = await accounts.loadAccount(em, userId);
    return auth.finishLogin(em, account!, { ip: null, userAgent: 'test' }, 'test');
  });
  return { token: issued.token, refresh: issued.refreshToken };
}

/**
 * The `svc_session` cookie (as a `Cookie` header value) of a real session signed in just now: its
 * access token carries `sid`, and its refresh row records the sign-in as a recent proof of a
 * factor. What the sensitive changes of CONTRACTS 14.6 need (registering a passkey, TOTP, API
 * keys, ending the other sessions); `accessTokenFor` mints a token without a session, which they
 * refuse (401 AUTH_REQUIRED).
 */
export async function sessionCookieFor(t: TestApp, userId: string): Promise<string> {
  return `svc_session=${(await sessionWithoutPassword(t, userId)).token}`;
}

/** `POST /auth/refresh` with this refresh token as its cookie (and a fresh CSRF pair). */
export async function refreshWithToken(t: TestApp, refreshToken: string) {
  const csrf = (await t.http.get('/admin/api/auth/csrf')).body.csrfToken as string;
  return t.http
    .post('/admin/api/auth/refresh')
    .set('Cookie', [`svc_refresh=${refreshToken}`, `svc_csrf=${csrf}`])
    .set('X-CSRF-Token', csrf);
}

/**
 * Polls `GET /admin/api/me` with this access token (every 100 ms) until it is refused or `deadlineMs`
 * have passed since `since`; answers the last status and the milliseconds from `since` to it. A
 * bounded wait for another instance to see a revocation (SPEC 3.2), never a fixed sleep.
 */
export async function pollUntilRefused(
  t: TestApp,
  token: string,
  since: number,
  deadlineMs: number,
): Promise<{ status: number; code?: string; afterMs: number }> {
  for (;;) {
    const res = await t.http.get('/admin/api/me').set('Authorization', `Bearer ${token}`);
    const afterMs = Date.now() - since;
    if (res.status !== 200 || afterMs > deadlineMs) {
      return { status: res.status, code: res.body?.error?.code as string | undefined, afterMs };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
