import { authenticator as totp } from 'otplib';
import type { ParsedMail } from 'mailparser';
import { magicLinkPlugin } from '../../src/plugins/magic-link';
import { passkeyPlugin } from '../../src/plugins/passkeys';
import { totpPlugin } from '../../src/plugins/totp';
import {
  Browser,
  browser,
  cookieValue,
  createUser,
  CreatedUser,
  heldSession,
  refreshWithToken,
  sessionWithoutPassword,
  setCookies,
  signIn,
} from '../utils/auth';
import { addresses, extractLink, startSmtp, TestSmtp, useTestSmtp } from '../utils/smtp';
import { createTestApp, TestApp } from '../utils/test-app';
import { SoftAuthenticator } from '../utils/webauthn-authenticator';

/**
 * Account security, round 2: each attack of the review as the sequence of requests that carried
 * it, now refused. Steps voided by a password write, a deactivation or the end of all sessions
 * (paused logins, enrolment steps, magic links); sensitive changes only from the browser session
 * with a recent sign-in (`POST /auth/reauthenticate`); second-factor codes limited per account;
 * API keys held to their type and scopes on routes no permission names; sessions that must now
 * hold a second factor; logout and refresh-token reuse.
 */
const API = '/admin/api';
const ORIGIN = 'http://localhost:3000';
const NEW_PASSWORD = 'Another-Horse-77';
const VERIFY = 'api/plugins/magic-link/verify';

describe('security round 2', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let admin: Browser;

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      config: {
        plugins: [
          totpPlugin(),
          magicLinkPlugin(),
          passkeyPlugin({ rpId: 'localhost', rpName: 'svc tests', origins: [ORIGIN] }),
        ],
        auth: { mfa: { requiredForRoles: ['staff'] } },
        security: { authRateLimit: { max: 10_000, windowSeconds: 3600 } },
      },
    });
    await useTestSmtp(t, smtp);
    await t.db.query(`INSERT INTO roles (name, slug) VALUES ('Staff', 'staff')`);
    admin = (await signIn(t, await createUser(t, { roles: ['super-admin'] }))).browser;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  const grantStaff = (userId: string) =>
    t.db.query(`INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE slug = 'staff'`, [
      userId,
    ]);
  /** Makes the sign-in of every session of the user older than the reauthentication window. */
  const ageProof = (userId: string) =>
    t.db.query(
      `UPDATE refresh_tokens SET session_proved_at = now() - interval '11 minutes' WHERE user_id = $1`,
      [userId],
    );
  const auditEvents = async (userId: string, event: string) =>
    (
      (await t.db.query(`SELECT count(*)::int AS n FROM audit_log WHERE event = $1 AND target = $2`, [
        event,
        `user:${userId}`,
      ])) as Array<{ n: number }>
    )[0].n;

  const recoveryCodes = new Map<string, string[]>();
  /** Turns TOTP on for a user through the routes (a fresh browser session); answers the secret. */
  async function enableTotp(user: CreatedUser): Promise<string> {
    const { browser: b } = await signIn(t, user);
    const enrolled = await b.post('/plugins/totp/enroll');
    expect(enrolled.status).toBe(200);
    const secret = enrolled.body.secret as string;
    const confirmed = await b.post('/plugins/totp/enroll/confirm', { code: totp.generate(secret) });
    expect(confirmed.status).toBe(200);
    recoveryCodes.set(user.id, confirmed.body.recoveryCodes as string[]);
    return secret;
  }

  /** A code of `secret` the server has not accepted yet: the next step's (enrolment used this one). */
  function unusedCode(secret: string): string {
    totp.options = { epoch: Date.now() + 30_000 };
    const next = totp.generate(secret);
    totp.resetOptions();
    return next;
  }

  /**
   * The code of the step before the current one (an app whose clock is a little behind, within
   * the window): enrolling with it leaves the current code unused. Not generated in the last two
   * seconds of a step, so the server still finds it within one step of its own.
   */
  async function previousCode(secret: string): Promise<string> {
    const intoStep = Date.now() % 30_000;
    if (intoStep > 28_000) {
      await new Promise((r) => setTimeout(r, 30_000 - intoStep + 100));
    }
    totp.options = { epoch: Date.now() - 30_000 };
    const previous = totp.generate(secret);
    totp.resetOptions();
    return previous;
  }

  /** A browser signed in with the password and the TOTP code: the session and its answer. */
  async function signInWithCode(user: CreatedUser, secret: string) {
    const b = await browser(t);
    const paused = await b.post('/auth/login', { email: user.email, password: user.password });
    expect(paused.body.challengeType).toBe('totp');
    const res = await b.post('/auth/challenge/resolve', {
      pendingToken: paused.body.pendingToken,
      response: { code: unusedCode(secret) },
    });
    expect(res.status).toBe(200);
    return { b, res };
  }

  describe('steps voided by a password write, a deactivation or the end of all sessions', () => {
    it('a set-initial-password step dies with an administrator’s new password', async () => {
      const user = await createUser(t);
      const first = await admin.patch(`/users/${user.id}/password`, {
        password: 'First-Horse-11',
        requirePasswordChange: true,
      });
      expect(first.status).toBe(200);
      // The attacker knows the first password and holds the step.
      const attacker = await browser(t);
      const paused = await attacker.post('/auth/login', { email: user.email, password: 'First-Horse-11' });
      expect(paused.body).toMatchObject({ status: 'challenge', challengeType: 'set-initial-password' });
      // The administrator sets a new password.
      expect((await admin.patch(`/users/${user.id}/password`, { password: NEW_PASSWORD })).status).toBe(200);
      const taken = await attacker.post('/auth/set-initial-password', {
        pendingToken: paused.body.pendingToken,
        newPassword: 'Attacker-Horse-66',
      });
      expect([taken.status, taken.body.error?.code]).toEqual([401, 'AUTH_INVALID_CREDENTIALS']);
      expect(setCookies(taken).svc_session).toBeUndefined();
      // The administrator's password is the one that works.
      expect(
        (await (await browser(t)).post('/auth/login', { email: user.email, password: NEW_PASSWORD })).status,
      ).toBe(200);
    });

    async function staffPausedAtEnrolment() {
      const user = await createUser(t);
      await grantStaff(user.id);
      const b = await browser(t);
      const res = await b.post('/auth/login', { email: user.email, password: user.password });
      expect(res.body).toMatchObject({ status: 'challenge', challengeType: 'mfa-enrol' });
      return { user, b, token: res.body.pendingToken as string };
    }
    const confirmedFactors = async (userId: string) =>
      (
        (await t.db.query(
          `SELECT count(*)::int AS n FROM plugin_totp_factors WHERE user_id = $1 AND confirmed_at IS NOT NULL`,
          [userId],
        )) as Array<{ n: number }>
      )[0].n;

    it.each([
      ['a password write', (id: string) => admin.patch(`/users/${id}/password`, { password: NEW_PASSWORD })],
      ['a deactivation', (id: string) => admin.patch(`/users/${id}`, { isActive: false })],
      ['the end of all sessions', (id: string) => admin.agent.delete(`${API}/users/${id}/sessions`)],
    ])('an mfa-enrol step started before %s enrols nothing', async (_what, voidIt) => {
      const { user, b, token } = await staffPausedAtEnrolment();
      const started = await b.post('/plugins/totp/enroll', { pendingToken: token });
      expect(started.status).toBe(200);
      const secret = started.body.secret as string;
      expect((await voidIt(user.id)).status).toBe(200);

      const enroll = await b.post('/plugins/totp/enroll', { pendingToken: token });
      expect([enroll.status, enroll.body.error?.code]).toEqual([401, 'AUTH_REQUIRED']);
      const confirm = await b.post('/plugins/totp/enroll/confirm', {
        pendingToken: token,
        code: totp.generate(secret),
      });
      expect(confirm.status).toBe(401);
      expect(setCookies(confirm).svc_session).toBeUndefined();
      expect(await confirmedFactors(user.id)).toBe(0);
      expect((await b.agent.get(`${API}/auth/pending`)).status).toBe(204);
    });

    it('a passkey registered with an mfa-enrol step voided by a password write is not saved', async () => {
      const { user, b, token } = await staffPausedAtEnrolment();
      const authenticator = new SoftAuthenticator(ORIGIN);
      const options = await b.post('/plugins/passkeys/register/options', { pendingToken: token });
      expect(options.status).toBe(200);
      expect((await admin.patch(`/users/${user.id}/password`, { password: NEW_PASSWORD })).status).toBe(200);
      const verify = await b.post('/plugins/passkeys/register/verify', {
        pendingToken: token,
        response: authenticator.create(options.body),
      });
      expect(verify.status).toBe(401);
      expect(setCookies(verify).svc_session).toBeUndefined();
      const saved = await t.db.query(`SELECT 1 FROM plugin_passkey_credentials WHERE user_id = $1`, [
        user.id,
      ]);
      expect(saved).toHaveLength(0);
    });

    it('a confirm racing a password write saves no factor when the write wins', async () => {
      const { user, b, token } = await staffPausedAtEnrolment();
      const secret = (await b.post('/plugins/totp/enroll', { pendingToken: token })).body.secret as string;
      // The step is read valid by the route, then voided before the factor is saved: the claim
      // inside the saving transaction refuses it.
      await t.db.query(`UPDATE users SET step_ver = step_ver + 1 WHERE id = $1`, [user.id]);
      const confirm = await b.post('/plugins/totp/enroll/confirm', {
        pendingToken: token,
        code: totp.generate(secret),
      });
      expect(confirm.status).toBe(401);
      expect(await confirmedFactors(user.id)).toBe(0);
    });

    const mailTo = (email: string) => (m: ParsedMail) => addresses(m).includes(email.toLowerCase());
    async function magicLink(user: CreatedUser): Promise<string> {
      smtp.clear();
      expect(
        (await t.http.post(`${API}/plugins/magic-link/request`).send({ email: user.email })).status,
      ).toBe(200);
      const link = extractLink(
        await smtp.waitFor((m) => mailTo(user.email)(m) && extractLink(m, VERIFY) !== null),
        VERIFY,
      );
      const url = new URL(link!);
      return `${url.pathname}${url.search}`;
    }

    it.each([
      [
        'a password change',
        async (u: CreatedUser) => {
          const { browser: b } = await signIn(t, u);
          expect(
            (
              await b.patch('/auth/change-password', {
                currentPassword: u.password,
                newPassword: NEW_PASSWORD,
              })
            ).status,
          ).toBe(200);
        },
      ],
      [
        'an administrator ending all sessions',
        async (u: CreatedUser) => {
          expect((await admin.agent.delete(`${API}/users/${u.id}/sessions`)).status).toBe(200);
        },
      ],
      [
        'the owner ending the other sessions',
        async (u: CreatedUser) => {
          const { browser: b } = await signIn(t, u);
          expect((await b.agent.delete(`${API}/auth/sessions`)).status).toBe(200);
        },
      ],
    ])('a magic link sent before %s signs nobody in', async (_what, voidIt) => {
      const user = await createUser(t);
      const link = await magicLink(user);
      await voidIt(user);
      const res = await t.http.get(link);
      expect([res.status, res.headers.location]).toEqual([302, '/admin/login?error=signin-failed']);
      expect(setCookies(res).svc_session).toBeUndefined();
      // A link sent afterwards works.
      const fresh = await t.http.get(await magicLink(user));
      expect([fresh.status, fresh.headers.location]).toEqual([302, '/admin']);
    });

    it('a paused TOTP sign-in dies with the end of all sessions', async () => {
      const user = await createUser(t);
      const secret = await enableTotp(user);
      const b = await browser(t);
      const paused = await b.post('/auth/login', { email: user.email, password: user.password });
      expect(paused.body.challengeType).toBe('totp');
      expect((await admin.agent.delete(`${API}/users/${user.id}/sessions`)).status).toBe(200);
      const res = await b.post('/auth/challenge/resolve', {
        pendingToken: paused.body.pendingToken,
        response: { code: unusedCode(secret) },
      });
      expect([res.status, res.body.error?.code]).toEqual([401, 'AUTH_INVALID_CREDENTIALS']);
      expect(setCookies(res).svc_session).toBeUndefined();
    });
  });

  describe('sensitive changes need the browser session and a recent sign-in', () => {
    it('a stolen Bearer access token cannot add a passkey, enrol TOTP, make keys or end sessions', async () => {
      const user = await createUser(t);
      const { body } = await signIn(t, user);
      const bearer = { Authorization: `Bearer ${body.token}` };
      for (const [method, path] of [
        ['post', '/plugins/passkeys/register/options'],
        ['post', '/plugins/totp/enroll'],
        ['post', '/api-keys'],
        ['delete', '/auth/sessions'],
      ] as const) {
        const res = await t.http[method](`${API}${path}`).set(bearer).send({ name: 'k', type: 'read-only' });
        expect([path, res.status, res.body.error?.code]).toEqual([path, 401, 'AUTH_REQUIRED']);
      }
      expect(
        (
          await t.db.query(`SELECT count(*)::int AS n FROM plugin_passkey_challenges WHERE user_id = $1`, [
            user.id,
          ])
        )[0].n,
      ).toBe(0);
      expect(
        (await t.db.query(`SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1`, [user.id]))[0].n,
      ).toBe(0);
    });

    it('an old sign-in answers 403 REAUTH_REQUIRED until the password is proved again', async () => {
      const user = await createUser(t);
      const { browser: b } = await signIn(t, user);
      expect((await b.post('/plugins/passkeys/register/options')).status).toBe(200);
      await ageProof(user.id);
      const [key] = await t.db.query(
        `INSERT INTO api_keys (user_id, name, type, key_hash, key_prefix)
         VALUES ($1, 'old', 'read-only', repeat('a', 64), 'svc_live_aaa') RETURNING id`,
        [user.id],
      );
      for (const res of [
        await b.post('/plugins/passkeys/register/options'),
        await b.post('/plugins/totp/enroll'),
        await b.post('/api-keys', { name: 'k', type: 'read-only' }),
        await b.post(`/api-keys/${key.id}/rotate`, {}),
        await b.agent.delete(`${API}/auth/sessions`),
      ]) {
        expect([res.status, res.body.error?.code]).toEqual([403, 'REAUTH_REQUIRED']);
      }
      // No key made, and the old one not rotated.
      const keys = await t.db.query(`SELECT key_hash FROM api_keys WHERE user_id = $1`, [user.id]);
      expect(keys).toEqual([{ key_hash: 'a'.repeat(64) }]);

      const wrong = await b.post('/auth/reauthenticate', { password: 'Wrong-Horse-00' });
      expect([wrong.status, wrong.body.error?.code, wrong.body.error?.data?.errors?.[0]?.path]).toEqual([
        422,
        'INVALID_INPUT',
        'password',
      ]);
      const ok = await b.post('/auth/reauthenticate', { password: user.password });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ message: expect.any(String), until: expect.any(String) });
      const until = Date.parse(ok.body.until as string);
      expect(until - Date.now()).toBeGreaterThan(590_000);
      expect(until - Date.now()).toBeLessThanOrEqual(600_000);
      expect((await b.post('/api-keys', { name: 'k', type: 'read-only' })).status).toBe(201);
      expect((await b.post(`/api-keys/${key.id}/rotate`, {})).status).toBe(201);
      expect(await auditEvents(user.id, 'reauthenticated')).toBe(1);
    });

    it('reauthenticate takes a TOTP code, refuses Bearer tokens, and wrong passwords lock the account', async () => {
      const user = await createUser(t);
      const secret = await enableTotp(user);
      const { b, res: signedIn } = await signInWithCode(user, secret);
      await ageProof(user.id);
      expect((await b.post('/plugins/totp/disable', { code: 'x' })).body.error?.code).toBe('REAUTH_REQUIRED');
      const bearer = await t.http
        .post(`${API}/auth/reauthenticate`)
        .set('Authorization', `Bearer ${signedIn.body.token}`)
        .send({ password: user.password });
      expect([bearer.status, bearer.body.error?.code]).toEqual([401, 'AUTH_REQUIRED']);
      expect((await b.post('/auth/reauthenticate', { code: '000000' })).status).toBe(422);
      // The current and next steps are used up (enrolment, sign-in): a recovery code proves it.
      expect((await b.post('/auth/reauthenticate', { code: recoveryCodes.get(user.id)![0] })).status).toBe(
        200,
      );
      expect((await b.post('/plugins/totp/disable', { code: 'x' })).status).toBe(422);
      expect((await b.post('/auth/reauthenticate', { password: user.password, code: '1' })).status).toBe(400);

      for (let i = 0; i < 5; i++) {
        await b.post('/auth/reauthenticate', { password: 'Wrong-Horse-00' });
      }
      // Five wrong passwords lock the account like five failed sign-ins.
      const login = await (
        await browser(t)
      ).post('/auth/login', { email: user.email, password: user.password });
      expect([login.status, login.body.error?.code]).toEqual([401, 'AUTH_INVALID_CREDENTIALS']);
    });

    it('reauthenticate takes the current code of the authenticator app; then a key is made and other sessions end', async () => {
      const user = await createUser(t);
      const { browser: first } = await signIn(t, user);
      const enrolled = await first.post('/plugins/totp/enroll');
      expect(enrolled.status).toBe(200);
      const secret = enrolled.body.secret as string;
      const confirmed = await first.post('/plugins/totp/enroll/confirm', {
        code: await previousCode(secret),
      });
      expect(confirmed.status).toBe(200);
      // Signed in with a recovery code: the app's current code has never been used.
      const b = await browser(t);
      const paused = await b.post('/auth/login', { email: user.email, password: user.password });
      expect(paused.body.challengeType).toBe('totp');
      const signedIn = await b.post('/auth/challenge/resolve', {
        pendingToken: paused.body.pendingToken,
        response: { code: (confirmed.body.recoveryCodes as string[])[0] },
      });
      expect(signedIn.status).toBe(200);
      await ageProof(user.id);
      const refused = await b.post('/api-keys', { name: 'k', type: 'read-only' });
      expect([refused.status, refused.body.error?.code]).toEqual([403, 'REAUTH_REQUIRED']);

      const code = totp.generate(secret);
      const ok = await b.post('/auth/reauthenticate', { code });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ message: expect.any(String), until: expect.any(String) });
      const [row] = await t.db.query(
        `SELECT metadata->>'method' AS method FROM audit_log WHERE event = 'reauthenticated' AND target = $1`,
        [`user:${user.id}`],
      );
      expect(row.method).toBe('code');
      const key = await b.post('/api-keys', { name: 'k', type: 'read-only' });
      expect(key.status).toBe(201);
      expect((await b.agent.delete(`${API}/auth/sessions`)).status).toBe(200);
      expect((await first.agent.get(`${API}/me`)).status).toBe(401);
      // The code is used up: it proves nothing a second time.
      const replay = await b.post('/auth/reauthenticate', { code });
      expect([replay.status, replay.body.error?.code]).toEqual([422, 'INVALID_INPUT']);
    });
  });

  describe('a password write removes no factor the owner added, but ends the sessions', () => {
    it.each([
      [
        'the owner changes the password',
        async (user: CreatedUser, owner: Browser) => {
          const res = await owner.patch('/auth/change-password', {
            currentPassword: user.password,
            newPassword: NEW_PASSWORD,
          });
          expect(res.status).toBe(200);
        },
      ],
      [
        'an administrator sets a new password',
        async (user: CreatedUser) => {
          expect((await admin.patch(`/users/${user.id}/password`, { password: NEW_PASSWORD })).status).toBe(
            200,
          );
        },
      ],
    ])(
      'after %s, the TOTP factor and the passkey are still there and still sign in',
      async (_what, write) => {
        const user = await createUser(t);
        const { browser: b, res: signedIn } = await signIn(t, user);
        const held = heldSession(signedIn);
        const authenticator = new SoftAuthenticator(ORIGIN);
        const options = await b.post('/plugins/passkeys/register/options');
        expect(options.status).toBe(200);
        const registered = await b.post('/plugins/passkeys/register/verify', {
          response: authenticator.create(options.body),
        });
        expect(registered.status).toBe(201);
        const passkeyId = registered.body.item.id as string;
        const enrolled = await b.post('/plugins/totp/enroll');
        expect(enrolled.status).toBe(200);
        const secret = enrolled.body.secret as string;
        expect((await b.post('/plugins/totp/enroll/confirm', { code: totp.generate(secret) })).status).toBe(
          200,
        );

        await write(user, b);

        // The sessions ended.
        const me = await t.http.get(`${API}/me`).set('Authorization', `Bearer ${held.token}`);
        expect([me.status, me.body.error?.code]).toEqual([401, 'AUTH_REQUIRED']);
        const refreshed = await refreshWithToken(t, held.refresh);
        expect([refreshed.status, refreshed.body.error?.code]).toEqual([401, 'REFRESH_FAILED']);
        // The factors did not: the plugins' rows are all there.
        const [factor] = await t.db.query(
          `SELECT confirmed_at IS NOT NULL AS confirmed,
                (SELECT count(*)::int FROM plugin_totp_recovery_codes WHERE user_id = $1) AS codes
           FROM plugin_totp_factors WHERE user_id = $1`,
          [user.id],
        );
        expect(factor).toEqual({ confirmed: true, codes: 10 });
        const passkeys = await t.db.query(`SELECT id FROM plugin_passkey_credentials WHERE user_id = $1`, [
          user.id,
        ]);
        expect(passkeys).toEqual([{ id: passkeyId }]);
        // The new password still asks for the TOTP code, and the code signs in.
        const { b: again } = await signInWithCode({ ...user, password: NEW_PASSWORD }, secret);
        const status = await again.agent.get(`${API}/plugins/totp/status`);
        expect(status.body).toEqual({ enabled: true, pending: false, recoveryCodesRemaining: 10 });
        const listed = await again.agent.get(`${API}/plugins/passkeys/credentials`);
        expect(listed.body.items.map((p: { id: string }) => p.id)).toEqual([passkeyId]);
        // The passkey still signs in on its own.
        const started = await t.http.post(`${API}/plugins/passkeys/login/options`).send({});
        const viaPasskey = await t.http
          .post(`${API}/plugins/passkeys/login/verify`)
          .send({ flowId: started.body.flowId, response: authenticator.get(started.body.options) });
        expect([viaPasskey.status, viaPasskey.headers.location]).toEqual([302, '/admin']);
        expect(setCookies(viaPasskey).svc_session).toBeDefined();
      },
    );
  });

  describe('second-factor codes are limited per account', () => {
    it('10 wrong codes to reauthenticate, then even a right code gets 429 RATE_LIMITED with Retry-After', async () => {
      const user = await createUser(t);
      const secret = await enableTotp(user);
      const { b } = await signInWithCode(user, secret);
      await ageProof(user.id);
      for (let i = 0; i < 10; i++) {
        const res = await b.post('/auth/reauthenticate', { code: String(100000 + i) });
        expect([i, res.status, res.body.error?.code, res.body.error?.data?.errors?.[0]?.path]).toEqual([
          i,
          422,
          'INVALID_INPUT',
          'code',
        ]);
      }
      // An unused recovery code: right, but refused before it is checked.
      const right = await b.post('/auth/reauthenticate', { code: recoveryCodes.get(user.id)![0] });
      expect([right.status, right.body.error?.code]).toEqual([429, 'RATE_LIMITED']);
      const retryAfter = Number(right.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      expect(right.body.error.data).toEqual({ retryAfterSeconds: retryAfter });
      expect(setCookies(right).svc_session).toBeUndefined();
      expect(await auditEvents(user.id, 'mfa-locked')).toBe(1);
      expect(await auditEvents(user.id, 'reauthenticated')).toBe(0);
      expect(
        (
          await t.db.query(`SELECT count(*)::int AS n FROM plugin_totp_recovery_codes WHERE user_id = $1`, [
            user.id,
          ])
        )[0].n,
      ).toBe(10);
      // The session is still not proved: a sensitive change stays refused.
      const key = await b.post('/api-keys', { name: 'k', type: 'read-only' });
      expect([key.status, key.body.error?.code]).toEqual([403, 'REAUTH_REQUIRED']);
    });

    it('300 parallel wrong codes to disable TOTP: 10 tried, the rest and a right code get 429', async () => {
      const user = await createUser(t);
      const secret = await enableTotp(user);
      const { b: session } = await signInWithCode(user, secret);
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          session.post('/plugins/totp/disable', { code: String(100000 + i) }),
        ),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 422).length).toBeLessThanOrEqual(10);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(290);
      expect(statuses.every((s) => s === 422 || s === 429)).toBe(true);
      const right = await session.post('/plugins/totp/disable', { code: totp.generate(secret) });
      expect([right.status, right.body.error?.code]).toEqual([429, 'RATE_LIMITED']);
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
      expect(await auditEvents(user.id, 'mfa-locked')).toBe(1);
      expect(
        (
          await t.db.query(`SELECT count(*)::int AS n FROM plugin_totp_factors WHERE user_id = $1`, [user.id])
        )[0].n,
      ).toBe(1);
    });

    it('wrong answers across several sign-ins lock codes: a recovery code then gets 429', async () => {
      const user = await createUser(t);
      await enableTotp(user);
      let wrong = 0;
      let refusedAt = -1;
      for (let login = 0; login < 3 && refusedAt < 0; login++) {
        const b = await browser(t);
        const paused = await b.post('/auth/login', { email: user.email, password: user.password });
        expect(paused.body.challengeType).toBe('totp');
        let token = paused.body.pendingToken as string;
        for (let i = 0; i < 5 && token; i++) {
          const res = await b.post('/auth/challenge/resolve', {
            pendingToken: token,
            response: { code: '000000' },
          });
          if (res.status === 429) {
            refusedAt = wrong;
            break;
          }
          wrong++;
          token = res.body.error?.data?.pendingToken as string;
        }
      }
      expect(wrong).toBe(10);
      expect(refusedAt).toBe(10);
      // A correct password still gets its challenge; the answer, right or wrong, gets the 429.
      const b = await browser(t);
      const paused = await b.post('/auth/login', { email: user.email, password: user.password });
      expect(paused.body.challengeType).toBe('totp');
      const res = await b.post('/auth/challenge/resolve', {
        pendingToken: paused.body.pendingToken,
        response: { code: 'aaaa-bbbb-cccc' },
      });
      expect([res.status, res.body.error?.code]).toEqual([429, 'RATE_LIMITED']);
      expect(setCookies(res).svc_session).toBeUndefined();
      const [row] = await t.db.query(
        `SELECT actor_id FROM audit_log WHERE event = 'mfa-locked' AND target = $1`,
        [`user:${user.id}`],
      );
      expect(row.actor_id).toBe(user.id);
    });
  });

  describe('API keys are held to their type and scopes on routes no permission names', () => {
    it('a full-access key scoped to read-media cannot rename its creator; a read-only key sends no email', async () => {
      const user = await createUser(t, { roles: ['super-admin'], name: 'Creator' });
      const { browser: b } = await signIn(t, user);
      const scoped = await b.post('/api-keys', { name: 's', type: 'full-access', scopes: ['read-media'] });
      expect(scoped.status).toBe(201);
      const readOnly = await b.post('/api-keys', { name: 'r', type: 'read-only' });
      const patch = await t.http
        .patch(`${API}/me`)
        .set('Authorization', `Bearer ${scoped.body.key}`)
        .send({ name: 'Renamed by a key' });
      expect([patch.status, patch.body.error?.code]).toEqual([403, 'FORBIDDEN']);
      const full = await b.post('/api-keys', { name: 'f', type: 'full-access' });
      const byFull = await t.http
        .patch(`${API}/me`)
        .set('Authorization', `Bearer ${full.body.key}`)
        .send({ name: 'Renamed by a key' });
      expect([byFull.status, byFull.body.error?.code]).toEqual([401, 'AUTH_REQUIRED']);
      const [row] = await t.db.query(`SELECT name FROM users WHERE id = $1`, [user.id]);
      expect(row.name).toBe('Creator');
      const send = await t.http
        .post(`${API}/email/send`)
        .set('Authorization', `Bearer ${readOnly.body.key}`)
        .send({ to: 'x@example.com', subject: 's', html: '<p>x</p>' });
      expect([send.status, send.body.error?.code]).toEqual([403, 'FORBIDDEN']);
      const sessions = await t.http
        .get(`${API}/auth/sessions`)
        .set('Authorization', `Bearer ${scoped.body.key}`);
      expect([sessions.status, sessions.body.error?.code]).toEqual([401, 'AUTH_REQUIRED']);
    });
  });

  describe('the login page looks up its own messages only', () => {
    // The message shown for each is checked in a browser: pages-browser-login-params.e2e-spec.ts.
    it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
      'GET /admin/login?error=%s answers the app, the same as without it',
      async (error) => {
        const res = await t.http.get(`/admin/login?error=${error}`);
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.text).toBe((await t.http.get('/admin/login').expect(200)).text);
      },
    );
  });

  describe('sessions', () => {
    it('a session from before a role that needs a second factor ends at its next refresh', async () => {
      const user = await createUser(t);
      const { res } = await signIn(t, user);
      const held = heldSession(res);
      await grantStaff(user.id);
      const refreshed = await refreshWithToken(t, held.refresh);
      expect([refreshed.status, refreshed.body.error?.code]).toEqual([401, 'REFRESH_FAILED']);
      const me = await t.http.get(`${API}/me`).set('Authorization', `Bearer ${held.token}`);
      expect([me.status, me.body.error?.code]).toEqual([401, 'AUTH_REQUIRED']);
    });

    it('a session opened with the second factor keeps refreshing', async () => {
      const user = await createUser(t);
      const secret = await enableTotp(user);
      const { res: signedIn } = await signInWithCode(user, secret);
      await grantStaff(user.id);
      expect((await refreshWithToken(t, heldSession(signedIn).refresh)).status).toBe(200);
    });

    it('logout with an unknown refresh cookie ends the access token’s session', async () => {
      const user = await createUser(t);
      const { res, body } = await signIn(t, user);
      const session = cookieValue(setCookies(res).svc_session);
      const csrf = (await t.http.get(`${API}/auth/csrf`)).body.csrfToken as string;
      const out = await t.http
        .post(`${API}/auth/logout`)
        .set('Cookie', [`svc_session=${session}`, 'svc_refresh=not-a-token', `svc_csrf=${csrf}`])
        .set('X-CSRF-Token', csrf);
      expect(out.status).toBe(200);
      const me = await t.http.get(`${API}/me`).set('Authorization', `Bearer ${body.token}`);
      expect([me.status, me.body.error?.code]).toEqual([401, 'AUTH_REQUIRED']);
    });

    it('a rotated refresh token presented again ends its session', async () => {
      const user = await createUser(t);
      const { res } = await signIn(t, user);
      const first = heldSession(res);
      const rotated = await refreshWithToken(t, first.refresh);
      expect(rotated.status).toBe(200);
      const second = heldSession(rotated);
      // Well after the rotation: a copy of the old token, not a racing tab.
      await new Promise((r) => setTimeout(r, 1500));
      const replay = await refreshWithToken(t, first.refresh);
      expect([replay.status, replay.body.error?.code]).toEqual([401, 'REFRESH_FAILED']);
      const next = await refreshWithToken(t, second.refresh);
      expect([next.status, next.body.error?.code]).toEqual([401, 'REFRESH_FAILED']);
      const me = await t.http.get(`${API}/me`).set('Authorization', `Bearer ${second.token}`);
      expect([me.status, me.body.error?.code]).toEqual([401, 'AUTH_REQUIRED']);
      expect(await auditEvents(user.id, 'refresh-reused')).toBe(1);
    });
  });
});

describe('a passwordless passkey and a second factor required by role', () => {
  let t: TestApp;
  const PASSKEYS = `${API}/plugins/passkeys`;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        // Passkeys are not a second factor here: only the passwordless sign-in is on.
        plugins: [
          totpPlugin(),
          passkeyPlugin({ rpId: 'localhost', rpName: 'svc tests', origins: [ORIGIN], secondFactor: false }),
        ],
        auth: { mfa: { requiredForRoles: ['staff'] } },
      },
    });
    await t.db.query(`INSERT INTO roles (name, slug) VALUES ('Staff', 'staff')`);
  });
  afterAll(() => t.close());

  async function staffWithPasskey() {
    const user = await createUser(t);
    const cookie = `svc_session=${(await sessionWithoutPassword(t, user.id)).token}`;
    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = await t.http.post(`${PASSKEYS}/register/options`).set('Cookie', cookie).send({});
    expect(options.status).toBe(200);
    const registered = await t.http
      .post(`${PASSKEYS}/register/verify`)
      .set('Cookie', cookie)
      .send({ response: authenticator.create(options.body) });
    expect(registered.status).toBe(201);
    await t.db.query(
      `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE slug = 'staff'`,
      [user.id],
    );
    return { user, authenticator };
  }

  it('with user verification it is both factors: a session, no enrolment step, and it refreshes', async () => {
    const { user, authenticator } = await staffWithPasskey();
    const started = await t.http.post(`${PASSKEYS}/login/options`).send({});
    const res = await t.http
      .post(`${PASSKEYS}/login/verify`)
      .send({ flowId: started.body.flowId, response: authenticator.get(started.body.options) });
    expect([res.status, res.headers.location]).toEqual([302, '/admin']);
    const cookies = setCookies(res);
    expect(cookies.svc_session).toBeDefined();
    const refresh = cookieValue(cookies.svc_refresh);
    const [row] = await t.db.query(
      `SELECT session_mfa FROM refresh_tokens WHERE user_id = $1 AND strategy = 'passkeys:webauthn'`,
      [user.id],
    );
    expect(row.session_mfa).toBe(true);
    expect((await refreshWithToken(t, refresh)).status).toBe(200);
  });

  it('without user verification it signs nobody in', async () => {
    const { user, authenticator } = await staffWithPasskey();
    const started = await t.http.post(`${PASSKEYS}/login/options`).send({});
    const res = await t.http.post(`${PASSKEYS}/login/verify`).send({
      flowId: started.body.flowId,
      response: authenticator.get(started.body.options, { userVerified: false }),
    });
    expect(res.status).toBe(401);
    expect(setCookies(res).svc_session).toBeUndefined();
    const live = await t.db.query(
      `SELECT 1 FROM refresh_tokens WHERE user_id = $1 AND strategy = 'passkeys:webauthn'`,
      [user.id],
    );
    expect(live).toHaveLength(0);
  });
});
