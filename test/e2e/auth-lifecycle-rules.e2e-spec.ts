import { createHash } from 'node:crypto';
import type { ParsedMail } from 'mailparser';
import type request from 'supertest';
import {
  bearerFor,
  browser,
  createUser,
  HeldSession,
  heldSession,
  pollUntilRefused,
  refreshWithToken,
  sessionWithoutPassword,
  setCookies,
  signIn,
} from '../utils/auth';
import { addresses, extractLink, startSmtp, TestSmtp, useTestSmtp } from '../utils/smtp';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * Account rules of SPEC 3.1-3.3, 2.4a and 5.6 that cut across routes: every password write ends
 * the earlier sessions (here and on a second instance), a reset link does not outlive a
 * deactivation, and the lifetimes of refresh tokens and reset links.
 */

const NEW_PASSWORD = 'Brand-New-Pass-7';
const ADMIN_SET = 'Admin-Chosen-4';
/** SPEC 3.2: every other instance refuses a revoked access token within 10 s. */
const OTHER_INSTANCE_MS = 10_000;
const DAY_S = 24 * 60 * 60;

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
let seq = 0;
const uniqueEmail = (what: string) => `${what}-${++seq}-${Date.now()}@example.com`;

describe('account rules across routes and instances', () => {
  let smtp: TestSmtp;
  let a: TestApp;
  let b: TestApp;
  let adminAuth: Record<string, string>;
  const used = new Set<ParsedMail>();

  beforeAll(async () => {
    smtp = await startSmtp();
    a = await createTestApp();
    b = await createTestApp({ database: a.database });
    await useTestSmtp(a, smtp);
    adminAuth = await bearerFor(a, (await createUser(a, { roles: ['super-admin'] })).id);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await smtp.close();
  });

  /**
   * The token of the next `action` link mailed to `to` that no test used yet. Mails are jobs sent
   * after the answer: this waits for the SMTP delivery, never a fixed time.
   */
  async function nextLink(to: string, action: string): Promise<string> {
    const mail = await smtp.waitFor(
      (m) => !used.has(m) && addresses(m).includes(to.toLowerCase()) && extractLink(m, action) !== null,
      15_000,
    );
    used.add(mail);
    return tokenOf(extractLink(mail, action)!);
  }

  const me = (t: TestApp, token: string) =>
    t.http.get('/admin/api/me').set('Authorization', `Bearer ${token}`);

  const accountVer = async (id: string): Promise<number> =>
    (await a.db.query(`SELECT ver FROM users WHERE id = $1`, [id]))[0].ver;

  async function signInTwice(user: { email: string; password: string }): Promise<HeldSession[]> {
    return [heldSession((await signIn(a, user)).res), heldSession((await signIn(a, user)).res)];
  }

  describe('every password write ends the earlier sessions (SPEC 3.1, 3.2, 3.3)', () => {
    interface Prepared {
      userId: string;
      email: string;
      /** Sessions open before the write. */
      earlier: HeldSession[];
      /** The password write, on instance A. */
      write(): Promise<request.Response>;
    }

    const cases: Array<{ route: string; prepare(): Promise<Prepared> }> = [
      {
        route: 'PATCH /auth/change-password',
        async prepare() {
          const user = await createUser(a);
          const first = await signIn(a, user);
          const second = await signIn(a, user);
          return {
            userId: user.id,
            email: user.email,
            // The caller's own session ends too (CONTRACTS 9).
            earlier: [heldSession(first.res), heldSession(second.res)],
            write: () =>
              first.browser.patch('/auth/change-password', {
                currentPassword: user.password,
                newPassword: NEW_PASSWORD,
              }),
          };
        },
      },
      {
        route: 'PATCH /users/{id}/password (by an administrator)',
        async prepare() {
          const user = await createUser(a);
          return {
            userId: user.id,
            email: user.email,
            earlier: await signInTwice(user),
            write: () =>
              a.http
                .patch(`/admin/api/users/${user.id}/password`)
                .set(adminAuth)
                .send({ password: NEW_PASSWORD }),
          };
        },
      },
      {
        route: 'POST /auth/accept-invite',
        async prepare() {
          const email = uniqueEmail('invitee');
          const created = await a.http
            .post('/admin/api/users')
            .set(adminAuth)
            .send({ email, name: 'Invitee', sendInvite: true, emailVerified: true });
          expect(created.status).toBe(201);
          const token = await nextLink(email, 'accept-invite');
          const userId = created.body.item.id as string;
          // An invited account has no password, so it cannot sign in with one before accepting;
          // the only session it can hold is an external sign-in (SPEC 5.7), which ends in core's
          // finishLogin: two such sessions are minted through it.
          const earlier = [await sessionWithoutPassword(a, userId), await sessionWithoutPassword(a, userId)];
          const invitee = await browser(a);
          return {
            userId,
            email,
            earlier,
            write: () => invitee.post('/auth/accept-invite', { token, password: NEW_PASSWORD }),
          };
        },
      },
      {
        route: 'POST /auth/set-initial-password',
        async prepare() {
          const user = await createUser(a);
          const set = await a.http
            .patch(`/admin/api/users/${user.id}/password`)
            .set(adminAuth)
            .send({ password: ADMIN_SET, requirePasswordChange: true });
          expect(set.status).toBe(200);
          const paused = await browser(a);
          const login = await paused.post('/auth/login', { email: user.email, password: ADMIN_SET });
          expect(login.body).toMatchObject({ status: 'challenge', challengeType: 'set-initial-password' });
          // No real path leaves this account a session here: the administrator's write ended every
          // earlier one and a login pauses until the new password is set. So the sessions below are
          // minted at the current counter by core's finishLogin, standing for any session the
          // account could hold; they make "counter raised, refresh rows deleted" observable.
          const earlier = [
            await sessionWithoutPassword(a, user.id),
            await sessionWithoutPassword(a, user.id),
          ];
          return {
            userId: user.id,
            email: user.email,
            earlier,
            write: () =>
              paused.post('/auth/set-initial-password', {
                pendingToken: login.body.pendingToken,
                newPassword: NEW_PASSWORD,
              }),
          };
        },
      },
      {
        route: 'POST /auth/reset-password',
        async prepare() {
          const user = await createUser(a);
          const earlier = await signInTwice(user);
          const client = await browser(a);
          expect((await client.post('/auth/forgot-password', { email: user.email })).status).toBe(200);
          const token = await nextLink(user.email, 'reset-password');
          return {
            userId: user.id,
            email: user.email,
            earlier,
            write: () => client.post('/auth/reset-password', { token, password: NEW_PASSWORD }),
          };
        },
      },
    ];

    it.each(cases)(
      '$route: old refresh tokens REFRESH_FAILED, old access tokens 401 at once here and within 10 s on a warm second instance',
      async ({ prepare }) => {
        const p = await prepare();
        for (const s of p.earlier) {
          expect((await me(a, s.token)).status).toBe(200);
          // Instance B serves the token now, so its account cache holds the pre-write state.
          expect((await me(b, s.token)).status).toBe(200);
        }
        const verBefore = await accountVer(p.userId);

        const written = await p.write();
        const writtenAt = Date.now();
        expect(written.status).toBe(200);

        // The instance that made the write refuses at once.
        for (const s of p.earlier) {
          const res = await me(a, s.token);
          expect({ status: res.status, code: res.body.error?.code }).toEqual({
            status: 401,
            code: 'AUTH_REQUIRED',
          });
          const refreshed = await refreshWithToken(a, s.refresh);
          expect({ status: refreshed.status, code: refreshed.body.error?.code }).toEqual({
            status: 401,
            code: 'REFRESH_FAILED',
          });
        }
        // Behind it: the counter raised and the refresh rows gone, in the write's transaction.
        expect(await accountVer(p.userId)).toBeGreaterThan(verBefore);
        const left = await a.db.query(`SELECT 1 FROM refresh_tokens WHERE token_hash = ANY($1)`, [
          p.earlier.map((s) => sha256(s.refresh)),
        ]);
        expect(left).toHaveLength(0);

        // The other instance: refresh reads the database (at once); the access token within 10 s.
        expect((await refreshWithToken(b, p.earlier[0].refresh)).body.error?.code).toBe('REFRESH_FAILED');
        for (const s of p.earlier) {
          const seen = await pollUntilRefused(b, s.token, writtenAt, OTHER_INSTANCE_MS);
          expect({ status: seen.status, code: seen.code }).toEqual({ status: 401, code: 'AUTH_REQUIRED' });
          expect(seen.afterMs).toBeLessThanOrEqual(OTHER_INSTANCE_MS);
        }

        // A session that begins after the write works on both instances.
        const fresh = await signIn(a, { email: p.email, password: NEW_PASSWORD });
        expect((await me(a, fresh.body.token)).status).toBe(200);
        expect((await me(b, fresh.body.token)).status).toBe(200);
      },
      40_000,
    );
  });

  it('refuses a reset link issued before a deactivation (422 INVALID_INPUT); the password stays as it was', async () => {
    const user = await createUser(a);
    const client = await browser(a);
    expect((await client.post('/auth/forgot-password', { email: user.email })).status).toBe(200);
    const token = await nextLink(user.email, 'reset-password');
    const [before] = await a.db.query(`SELECT password_hash FROM users WHERE id = $1`, [user.id]);

    const deactivate = await a.http
      .patch(`/admin/api/users/${user.id}`)
      .set(adminAuth)
      .send({ isActive: false });
    expect(deactivate.status).toBe(200);
    const refused = await client.post('/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(refused.status).toBe(422);
    expect(refused.body.error.code).toBe('INVALID_INPUT');
    const [after] = await a.db.query(`SELECT password_hash FROM users WHERE id = $1`, [user.id]);
    expect(after.password_hash).toBe(before.password_hash);

    const reactivate = await a.http
      .patch(`/admin/api/users/${user.id}`)
      .set(adminAuth)
      .send({ isActive: true });
    expect(reactivate.status).toBe(200);
    expect((await signIn(a, user)).res.status).toBe(200);
    const withNew = await (
      await browser(a)
    ).post('/auth/login', { email: user.email, password: NEW_PASSWORD });
    expect(withNew.status).toBe(401);
    expect(withNew.body.error.code).toBe('AUTH_INVALID_CREDENTIALS');
  });

  describe('lifetimes (SPEC 2.4a, 5.1, 5.6; CONTRACTS 3.2)', () => {
    it('a refresh token lives 7 days: its row and the svc_refresh cookie (path /admin/api/auth, HttpOnly, SameSite=Lax)', async () => {
      const user = await createUser(a);
      const { res } = await signIn(a, user);
      const cookie = setCookies(res).svc_refresh;
      expect(cookie).toMatch(/; Max-Age=604800;/);
      expect(cookie).toMatch(/; Path=\/admin\/api\/auth;/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      const expires = Date.parse(/; Expires=([^;]+)/.exec(cookie)![1]);
      const answeredAt = Date.parse(res.headers.date as string);
      // HTTP dates have whole seconds.
      expect(Math.abs(expires - answeredAt - 7 * DAY_S * 1000)).toBeLessThanOrEqual(2000);

      const [row] = await a.db.query(
        `SELECT extract(epoch FROM expires_at - created_at)::float8 AS lifetime, expires_at
           FROM refresh_tokens WHERE token_hash = $1`,
        [sha256(heldSession(res).refresh)],
      );
      // The expiry is stamped by the app and created_at by the database when the transaction
      // began: equal to within the milliseconds between the two.
      expect(Math.abs(row.lifetime - 7 * DAY_S)).toBeLessThan(1);
      expect(Math.abs(new Date(row.expires_at).getTime() - expires)).toBeLessThanOrEqual(2000);
    });

    it('a refresh row one minute before its expiry renews; one whose expires_at has passed is 401 REFRESH_FAILED', async () => {
      const user = await createUser(a);
      const live = heldSession((await signIn(a, user)).res);
      await a.db.query(
        `UPDATE refresh_tokens SET expires_at = now() + interval '1 minute' WHERE token_hash = $1`,
        [sha256(live.refresh)],
      );
      const renewed = await refreshWithToken(a, live.refresh);
      expect(renewed.status).toBe(200);

      const next = heldSession(renewed);
      await a.db.query(
        `UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
        [sha256(next.refresh)],
      );
      const expired = await refreshWithToken(a, next.refresh);
      expect(expired.status).toBe(401);
      expect(expired.body.error.code).toBe('REFRESH_FAILED');
      expect(expired.headers['set-cookie']).toBeUndefined();
    });

    it('a reset link lives 24 hours: accepted one minute before its expiry, refused at it', async () => {
      const user = await createUser(a);
      const client = await browser(a);
      const resetRow = async () =>
        (
          await a.db.query(
            `SELECT extract(epoch FROM expires_at - created_at)::float8 AS lifetime,
                    extract(epoch FROM now() - created_at)::float8 AS age
               FROM account_tokens WHERE user_id = $1 AND kind = 'reset-password'`,
            [user.id],
          )
        )[0] as { lifetime: number; age: number };
      /** Moves the row's issue and expiry back together (the database clock) so it expires `left` from now. */
      const expiresIn = (left: string) =>
        a.db.query(
          `UPDATE account_tokens
              SET created_at = created_at - (expires_at - now() - $2::interval),
                  expires_at = now() + $2::interval
            WHERE user_id = $1 AND kind = 'reset-password'`,
          [user.id, left],
        );

      expect((await client.post('/auth/forgot-password', { email: user.email })).status).toBe(200);
      const first = await nextLink(user.email, 'reset-password');
      // Expiry stamped by the app, issue time by the database: 24 h to within a second.
      expect(Math.abs((await resetRow()).lifetime - DAY_S)).toBeLessThan(1);
      await expiresIn('1 minute');
      const moved = await resetRow();
      expect(Math.abs(moved.lifetime - DAY_S)).toBeLessThan(1);
      expect(Math.abs(moved.age - (DAY_S - 60))).toBeLessThan(1);
      expect(
        (await client.post('/auth/reset-password', { token: first, password: NEW_PASSWORD })).status,
      ).toBe(200);

      expect((await client.post('/auth/forgot-password', { email: user.email })).status).toBe(200);
      const second = await nextLink(user.email, 'reset-password');
      await expiresIn('0 seconds');
      const atExpiry = await client.post('/auth/reset-password', { token: second, password: 'Third-Pass-8' });
      expect(atExpiry.status).toBe(422);
      expect(atExpiry.body.error.code).toBe('INVALID_INPUT');
      // Nothing was written: the password is still the one the first link set.
      expect((await signIn(a, { email: user.email, password: NEW_PASSWORD })).res.status).toBe(200);
    });
  });
});
