import { authenticator } from 'otplib';
import type request from 'supertest';
import { login } from '../../src/modules/auth/in-process';
import { totpPlugin } from '../../src/plugins/totp';
import {
  accessTokenFor,
  bearerFor,
  browser,
  Browser,
  cookieValue,
  createUser,
  CreatedUser,
  sessionCookieFor,
  signIn,
  setCookies,
  userWithPermissions,
} from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * The shipped TOTP plugin (`totpPlugin()`, slug `totp`) end to end: enrolment under
 * `/admin/api/plugins/totp/`, the `totp` challenge of the password login, replay and recovery
 * codes, disabling, the administrator reset, and what is kept of the secrets.
 */

const BASE = '/admin/api/plugins/totp';
const STEP_MS = 30_000;
const PROBLEM = /^application\/problem\+json/;
const UI_HINT = 'Enter the 6-digit code from your authenticator app';

type Res = request.Response;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const stepNow = () => Math.floor(Date.now() / STEP_MS);

/** What an authenticator app shows for `secret` during RFC 6238 time step `step`. */
const codeFor = (secret: string, step: number) =>
  authenticator.clone({ epoch: step * STEP_MS + 1_000 }).generate(secret);

/** A code that is none of the window's: the current one shifted by one digit value. */
function wrongCode(secret: string): string {
  const taken = new Set([-1, 0, 1].map((d) => codeFor(secret, stepNow() + d)));
  let n = Number(codeFor(secret, stepNow()));
  let code: string;
  do {
    n = (n + 1) % 1_000_000;
    code = String(n).padStart(6, '0');
  } while (taken.has(code));
  return code;
}

/** Waits, when needed, until at least `needMs` remain in the current time step; answers that step. */
async function freshStep(needMs = 15_000): Promise<number> {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < needMs) {
    await sleep(left + 50);
  }
  return stepNow();
}

function expectProblem(res: Res, status: number, code: string): Record<string, unknown> | undefined {
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({
    status,
    body: { error: { code } },
  });
  expect(res.headers['content-type']).toMatch(PROBLEM);
  return (res.body as { error: { data?: Record<string, unknown> } }).error.data;
}

describe('plugin: totp', () => {
  let t: TestApp;
  /** Every secret and recovery code handed out: none may reach the log. */
  const handedOut: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ config: { plugins: [totpPlugin()] } });
  });
  afterAll(() => t.close());

  const bearer = (headers: Record<string, string>) => ({
    get: (p: string) => t.http.get(`${BASE}${p}`).set(headers),
    post: (p: string, body?: object) =>
      t.http
        .post(`${BASE}${p}`)
        .set(headers)
        .send(body ?? {}),
  });

  async function passwordLogin(user: CreatedUser): Promise<{ b: Browser; res: Res }> {
    const b = await browser(t);
    const res = await b.post('/auth/login', { email: user.email, password: user.password });
    return { b, res };
  }

  /** A password login that must stop at the totp challenge: the pending token. */
  async function challengeFor(user: CreatedUser): Promise<{ b: Browser; pendingToken: string }> {
    const { b, res } = await passwordLogin(user);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'challenge',
      challengeType: 'totp',
      pendingToken: expect.any(String),
      uiHint: UI_HINT,
    });
    expect(setCookies(res).svc_session).toBeUndefined();
    return { b, pendingToken: res.body.pendingToken as string };
  }

  const resolve = (b: Browser, pendingToken: string, code: unknown) =>
    b.post('/auth/challenge/resolve', { pendingToken, response: { code } });

  /** A wrong answer: 401 AUTH_INVALID_CREDENTIALS; the pending token to go on with. */
  function expectRefused(res: Res, attemptsRemaining?: number): string {
    const data = expectProblem(res, 401, 'AUTH_INVALID_CREDENTIALS');
    expect(data?.pendingToken).toEqual(expect.any(String));
    expect(data?.attemptsRemaining).toEqual(attemptsRemaining ?? expect.any(Number));
    return data!.pendingToken as string;
  }

  function expectSignedIn(res: Res, user: CreatedUser): void {
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      ok: true,
      message: expect.any(String),
      user: { id: user.id, email: user.email },
      token: expect.any(String),
      exp: expect.any(Number),
    });
    const cookies = setCookies(res);
    expect(cookieValue(cookies.svc_session)).toBe(res.body.token);
    expect(cookies.svc_refresh).toBeDefined();
  }

  /**
   * The `svc_session` cookie of a fresh session of the user: enrolling and disabling TOTP are
   * sensitive changes, made over a browser session signed in recently (CONTRACTS 14.6).
   */
  const sessionOf = async (userId: string) => ({ Cookie: await sessionCookieFor(t, userId) });

  /** Enrols and confirms over a fresh browser session; answers the secret and the recovery codes. */
  async function enable(user: CreatedUser): Promise<{ secret: string; recoveryCodes: string[] }> {
    const c = bearer(await sessionOf(user.id));
    const enrolled = await c.post('/enroll');
    expect(enrolled.status).toBe(200);
    const secret = enrolled.body.secret as string;
    const confirmed = await c.post('/enroll/confirm', { code: codeFor(secret, stepNow()) });
    expect(confirmed.status).toBe(200);
    handedOut.push(secret, ...(confirmed.body.recoveryCodes as string[]));
    return { secret, recoveryCodes: confirmed.body.recoveryCodes as string[] };
  }

  describe('enrolment, the login challenge, recovery codes and disabling (one account)', () => {
    let user: CreatedUser;
    let session: Browser;
    let secret: string;
    let recoveryCodes: string[];
    /** The time step of the confirming code's neighbour: codes of N-1, N, N+1 are used in turn. */
    let n: number;

    const status = () => session.agent.get(`${BASE}/status`);

    beforeAll(async () => {
      user = await createUser(t);
      session = (await signIn(t, user)).browser; // the svc_session cookie
    });

    it('starts disabled', async () => {
      const res = await status();
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ enabled: false, pending: false, recoveryCodesRemaining: 0 });
    });

    it('enrols: a 160-bit base32 secret, its otpauth URL and a QR code; a second enrolment replaces it', async () => {
      const first = await session.post('/plugins/totp/enroll');
      expect(first.status).toBe(200);
      expect(first.headers['cache-control']).toBe('no-store');
      expect(first.body).toEqual({
        secret: expect.any(String),
        otpauthUrl: expect.any(String),
        qrSvg: expect.any(String),
      });
      expect(first.body.secret).toMatch(/^[A-Z2-7]{32}$/);
      handedOut.push(first.body.secret as string);
      expect((await status()).body).toEqual({ enabled: false, pending: true, recoveryCodesRemaining: 0 });

      const second = await session.post('/plugins/totp/enroll');
      expect(second.status).toBe(200);
      secret = second.body.secret as string;
      handedOut.push(secret);
      expect(secret).not.toBe(first.body.secret);

      const url = second.body.otpauthUrl as string;
      expect(url.startsWith(`otpauth://totp/svc:${encodeURIComponent(user.email)}?`)).toBe(true);
      expect(Object.fromEntries(new URLSearchParams(url.slice(url.indexOf('?') + 1)))).toEqual({
        secret,
        issuer: 'svc',
        algorithm: 'SHA1',
        digits: '6',
        period: '30',
      });
      expect(second.body.qrSvg).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);

      // The replaced secret's codes are no good any more.
      const stale = await session.post('/plugins/totp/enroll/confirm', {
        code: codeFor(first.body.secret as string, stepNow()),
      });
      expectProblem(stale, 422, 'INVALID_INPUT');
    });

    it('confirm validates the body and refuses a wrong code', async () => {
      for (const body of [{}, { code: 123456 }, { code: '' }, { code: null }]) {
        const res = await session.post('/plugins/totp/enroll/confirm', body);
        const data = expectProblem(res, 400, 'VALIDATION_ERROR');
        expect((data?.errors as Array<{ path: string }>).map((e) => e.path)).toContain('code');
      }
      expectProblem(
        await session.post('/plugins/totp/enroll/confirm', { code: wrongCode(secret) }),
        422,
        'INVALID_INPUT',
      );
      expectProblem(
        await session.post('/plugins/totp/enroll/confirm', { code: 'abcdef' }),
        422,
        'INVALID_INPUT',
      );
      expect((await status()).body).toEqual({ enabled: false, pending: true, recoveryCodesRemaining: 0 });
    });

    it('confirms with a code of the window: TOTP on, ten recovery codes shown once', async () => {
      n = await freshStep();
      const res = await session.post('/plugins/totp/enroll/confirm', { code: codeFor(secret, n - 1) });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({ message: expect.any(String), recoveryCodes: expect.any(Array) });
      recoveryCodes = res.body.recoveryCodes as string[];
      handedOut.push(...recoveryCodes);
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      for (const c of recoveryCodes) {
        expect(c).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
      }
      const after = await status();
      expect(after.body).toEqual({ enabled: true, pending: false, recoveryCodesRemaining: 10 });
      expect(JSON.stringify(after.body)).not.toContain(secret);

      // Enabled: no second enrolment, no second confirmation.
      expectProblem(await session.post('/plugins/totp/enroll'), 409, 'CONFLICT');
      expectProblem(
        await session.post('/plugins/totp/enroll/confirm', { code: codeFor(secret, n) }),
        409,
        'CONFLICT',
      );
    }, 60_000);

    it('keeps the secret sealed and the recovery codes hashed', async () => {
      const factors: Array<Record<string, unknown>> = await t.db.query(
        `SELECT * FROM plugin_totp_factors WHERE user_id = $1`,
        [user.id],
      );
      expect(factors).toHaveLength(1);
      expect(factors[0].confirmed_at).not.toBeNull();
      const row = JSON.stringify(factors[0]);
      expect(row).not.toContain(secret);
      expect(row.toLowerCase()).not.toContain(secret.toLowerCase());
      expect(row).not.toContain(Buffer.from(secret).toString('base64'));

      const codes: Array<{ code_hash: string }> = await t.db.query(
        `SELECT code_hash FROM plugin_totp_recovery_codes WHERE user_id = $1`,
        [user.id],
      );
      expect(codes).toHaveLength(10);
      const stored = JSON.stringify(codes);
      for (const c of recoveryCodes) {
        expect(stored).not.toContain(c);
        expect(stored).not.toContain(c.replace('-', ''));
      }
      for (const { code_hash } of codes) {
        expect(code_hash).toMatch(/^[0-9a-f]{64}$/);
      }
    });

    it('a password login stops at the totp challenge; a wrong or replayed code is refused, a current one signs in', async () => {
      const { b, pendingToken } = await challengeFor(user);

      let token = expectRefused(await resolve(b, pendingToken, wrongCode(secret)), 4);
      // The confirming code (step N-1) was used: replay.
      token = expectRefused(await resolve(b, token, codeFor(secret, n - 1)), 3);
      const res = await resolve(b, token, codeFor(secret, n));
      expectSignedIn(res, user);
      const me = await t.http.get('/admin/api/me').set('Authorization', `Bearer ${res.body.token}`);
      expect(me.status).toBe(200);
    }, 60_000);

    it('the in-process login cannot go around the factor', async () => {
      await expect(login({ email: user.email, password: user.password })).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringMatching(/second factor/),
      });
    });

    it('a code accepted once is refused on the next login; a later step of the window still passes', async () => {
      const { b, pendingToken } = await challengeFor(user);
      const token = expectRefused(await resolve(b, pendingToken, codeFor(secret, n)));
      expectSignedIn(await resolve(b, token, codeFor(secret, n + 1)), user);
    });

    it('a recovery code signs in once (any case, with or without its dash)', async () => {
      const first = await challengeFor(user);
      expectSignedIn(await resolve(first.b, first.pendingToken, recoveryCodes[0].toUpperCase()), user);
      expect((await status()).body).toMatchObject({ enabled: true, recoveryCodesRemaining: 9 });

      const again = await challengeFor(user);
      const token = expectRefused(await resolve(again.b, again.pendingToken, recoveryCodes[0]));
      expectSignedIn(await resolve(again.b, token, recoveryCodes[1].replace('-', '')), user);
      expect((await status()).body).toMatchObject({ enabled: true, recoveryCodesRemaining: 8 });
    });

    it('disable needs a current, unused code', async () => {
      expectProblem(await session.post('/plugins/totp/disable', {}), 400, 'VALIDATION_ERROR');
      expectProblem(
        await session.post('/plugins/totp/disable', { code: wrongCode(secret) }),
        422,
        'INVALID_INPUT',
      );
      // Used already: the step N+1 code (replay) and the first recovery code.
      expectProblem(
        await session.post('/plugins/totp/disable', { code: codeFor(secret, n + 1) }),
        422,
        'INVALID_INPUT',
      );
      expectProblem(
        await session.post('/plugins/totp/disable', { code: recoveryCodes[0] }),
        422,
        'INVALID_INPUT',
      );
      expect((await status()).body).toMatchObject({ enabled: true });

      const res = await session.post('/plugins/totp/disable', { code: recoveryCodes[2] });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.any(String) });
      expect((await status()).body).toEqual({ enabled: false, pending: false, recoveryCodesRemaining: 0 });
      expect(
        await t.db.query(`SELECT 1 FROM plugin_totp_factors WHERE user_id = $1`, [user.id]),
      ).toHaveLength(0);
      expect(
        await t.db.query(`SELECT 1 FROM plugin_totp_recovery_codes WHERE user_id = $1`, [user.id]),
      ).toHaveLength(0);

      // Off again: disabling twice is a conflict, and the password alone signs in.
      expectProblem(await session.post('/plugins/totp/disable', { code: recoveryCodes[3] }), 409, 'CONFLICT');
      const { res: login } = await passwordLogin(user);
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({ token: expect.any(String), user: { id: user.id } });
    });
  });

  describe('races', () => {
    it('one code and one recovery code sign in once each, however many logins send them at once', async () => {
      const user = await createUser(t);
      const { secret, recoveryCodes } = await enable(user); // uses the current step
      const next = stepNow() + 1;
      const logins = await Promise.all([1, 2, 3].map(() => challengeFor(user)));
      const byCode = await Promise.all(
        logins.map((l) => resolve(l.b, l.pendingToken, codeFor(secret, next))),
      );
      expect(byCode.map((r) => r.status).sort()).toEqual([200, 401, 401]);

      const again = await Promise.all([1, 2, 3].map(() => challengeFor(user)));
      const byRecovery = await Promise.all(again.map((l) => resolve(l.b, l.pendingToken, recoveryCodes[0])));
      expect(byRecovery.map((r) => r.status).sort()).toEqual([200, 401, 401]);
    }, 60_000);
  });

  describe('who may call', () => {
    it('a Bearer access token reads the status but is refused with 401 AUTH_REQUIRED on enrolment and disabling, while the cookie session works', async () => {
      const user = await createUser(t);
      const c = bearer(await bearerFor(t, user.id));
      // A cookie holding an access token that belongs to no session is no browser session either.
      const sessionless = bearer({ Cookie: `svc_session=${await accessTokenFor(t, user.id)}` });
      expect((await c.get('/status')).body).toEqual({
        enabled: false,
        pending: false,
        recoveryCodesRemaining: 0,
      });
      for (const caller of [c, sessionless]) {
        expectProblem(await caller.post('/enroll'), 401, 'AUTH_REQUIRED');
        expectProblem(await caller.post('/enroll/confirm', { code: '123456' }), 401, 'AUTH_REQUIRED');
      }
      // Nothing was started.
      expect((await c.get('/status')).body).toEqual({
        enabled: false,
        pending: false,
        recoveryCodesRemaining: 0,
      });

      // The cookie session enrols; the Bearer token then reads the new state.
      const { secret, recoveryCodes } = await enable(user);
      expect((await c.get('/status')).body).toEqual({
        enabled: true,
        pending: false,
        recoveryCodesRemaining: 10,
      });
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(recoveryCodes).toHaveLength(10);

      // Disabling with a right code is refused to them too: TOTP stays on, the code unspent.
      for (const caller of [c, sessionless]) {
        expectProblem(await caller.post('/disable', { code: recoveryCodes[0] }), 401, 'AUTH_REQUIRED');
      }
      expect((await c.get('/status')).body).toEqual({
        enabled: true,
        pending: false,
        recoveryCodesRemaining: 10,
      });
      const disabled = await bearer(await sessionOf(user.id)).post('/disable', { code: recoveryCodes[0] });
      expect(disabled.status).toBe(200);
      expect((await c.get('/status')).body).toEqual({
        enabled: false,
        pending: false,
        recoveryCodesRemaining: 0,
      });
    });

    it('a visitor and an API key are refused with 401 AUTH_REQUIRED', async () => {
      const user = await createUser(t, { roles: ['super-admin'] });
      const created = await t.http
        .post('/admin/api/api-keys')
        .set('Cookie', await sessionCookieFor(t, user.id))
        .send({ name: 'totp-probe', type: 'full-access' });
      expect(created.status).toBe(201);
      const withKey = bearer({ Authorization: `Bearer ${created.body.key as string}` });
      const visitor = bearer({});
      for (const c of [visitor, withKey]) {
        expectProblem(await c.get('/status'), 401, 'AUTH_REQUIRED');
        expectProblem(await c.post('/enroll'), 401, 'AUTH_REQUIRED');
        expectProblem(await c.post('/enroll/confirm', { code: '123456' }), 401, 'AUTH_REQUIRED');
        expectProblem(await c.post('/disable', { code: '123456' }), 401, 'AUTH_REQUIRED');
      }
      expect(
        await t.db.query(`SELECT 1 FROM plugin_totp_factors WHERE user_id = $1`, [user.id]),
      ).toHaveLength(0);
    });
  });

  it("names the site in the authenticator app when no issuer is configured (general settings' siteName)", async () => {
    const admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    const patched = await t.http
      .patch('/admin/api/general-settings')
      .set(admin)
      .send({ siteName: 'Acme: Admin' });
    expect(patched.status).toBe(200);
    try {
      const user = await createUser(t);
      const res = await bearer(await sessionOf(user.id)).post('/enroll');
      expect(res.status).toBe(200);
      handedOut.push(res.body.secret as string);
      // The ":" would split the label: it becomes a space.
      expect(new URL(res.body.otpauthUrl as string).searchParams.get('issuer')).toBe('Acme  Admin');
    } finally {
      await t.http.patch('/admin/api/general-settings').set(admin).send({ siteName: 'svc' });
    }
  });

  describe('DELETE /users/{id}: the administrator reset', () => {
    const reset = (headers: Record<string, string>, id: string) =>
      t.http.delete(`${BASE}/users/${id}`).set(headers);
    const enabledRows = async (id: string) =>
      (await t.db.query(`SELECT 1 FROM plugin_totp_factors WHERE user_id = $1`, [id])).length;

    it('clears a lost second factor for update-users; refuses without the permission', async () => {
      const target = await createUser(t);
      await enable(target);
      expect(await enabledRows(target.id)).toBe(1);

      expectProblem(await reset({}, target.id), 401, 'AUTH_REQUIRED');
      const reader = await userWithPermissions(t, ['read-users']);
      expectProblem(await reset(await bearerFor(t, reader.id), target.id), 403, 'FORBIDDEN');
      expect(await enabledRows(target.id)).toBe(1);

      const admin = await userWithPermissions(t, ['update-users']);
      const res = await reset(await bearerFor(t, admin.id), target.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.any(String) });
      expect(await enabledRows(target.id)).toBe(0);
      expect(
        await t.db.query(`SELECT 1 FROM plugin_totp_recovery_codes WHERE user_id = $1`, [target.id]),
      ).toHaveLength(0);
      const status = await bearer(await bearerFor(t, target.id)).get('/status');
      expect(status.body).toEqual({ enabled: false, pending: false, recoveryCodesRemaining: 0 });

      // The password alone signs in again.
      const { res: login } = await passwordLogin(target);
      expect(login.status).toBe(200);
      expect(login.body).toMatchObject({ token: expect.any(String) });

      // Unknown accounts are 404, as on the users routes.
      const headers = await bearerFor(t, admin.id);
      expectProblem(await reset(headers, '00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
      expectProblem(await reset(headers, 'not-a-uuid'), 404, 'NOT_FOUND');
    });

    it("follows the users routes' super-admin rule", async () => {
      const superAdmin = await createUser(t, { roles: ['super-admin'] });
      await enable(superAdmin);

      const admin = await userWithPermissions(t, ['update-users']);
      expectProblem(await reset(await bearerFor(t, admin.id), superAdmin.id), 403, 'FORBIDDEN');
      expect(await enabledRows(superAdmin.id)).toBe(1);

      const otherSuperAdmin = await createUser(t, { roles: ['super-admin'] });
      const res = await reset(await bearerFor(t, otherSuperAdmin.id), superAdmin.id);
      expect(res.status).toBe(200);
      expect(await enabledRows(superAdmin.id)).toBe(0);
    });
  });

  it('never logs a secret or a recovery code', () => {
    expect(handedOut.length).toBeGreaterThan(10);
    const text = t.logs.text();
    const lower = text.toLowerCase();
    for (const s of handedOut) {
      expect(text).not.toContain(s);
      expect(lower).not.toContain(s.toLowerCase().replace('-', ''));
    }
  });
});
