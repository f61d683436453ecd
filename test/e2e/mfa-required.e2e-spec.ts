import { authenticator as totp } from 'otplib';
import { passkeyPlugin } from '../../src/plugins/passkeys';
import { totpPlugin } from '../../src/plugins/totp';
import {
  bearerFor,
  browser,
  cookieValue,
  createUser,
  CreatedUser,
  sessionCookieFor,
  setCookies,
} from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';
import { SoftAuthenticator } from '../utils/webauthn-authenticator';

/**
 * Second factor required by role (issue 22, CONTRACTS 14.2): a user who must hold one and has
 * none gets the `mfa-enrol` step after a correct first factor, whose pending token opens only
 * the enrolment routes of the second-factor plugins; finishing enrolment answers the session.
 */
const API = '/admin/api';
const ORIGIN = 'http://localhost:3000';

describe('auth.mfa: a second factor required by role', () => {
  let t: TestApp;
  let sso: ((email: string) => { userId: string } | null) | null = null;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        plugins: [totpPlugin(), passkeyPlugin({ rpId: 'localhost', rpName: 'svc tests', origins: [ORIGIN] })],
        auth: {
          // `staff` does not exist at boot: a role made later counts once it exists.
          mfa: { requiredForRoles: ['staff'] },
          strategies: [{ name: 'sso', authenticate: ({ email }) => (sso ? sso(String(email)) : null) }],
        },
      },
    });
    await t.db.query(`INSERT INTO roles (name, slug) VALUES ('Staff', 'staff')`);
  });
  afterAll(() => t.close());

  async function staffUser(): Promise<CreatedUser> {
    const user = await createUser(t);
    await t.db.query(
      `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE slug = 'staff'`,
      [user.id],
    );
    return user;
  }

  /** A password login that stops at `mfa-enrol`: the token, and the browser holding its cookie. */
  async function pausedAtEnrolment(user: CreatedUser) {
    const b = await browser(t);
    const res = await b.post('/auth/login', { email: user.email, password: user.password });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'challenge',
      challengeType: 'mfa-enrol',
      pendingToken: expect.any(String),
      uiHint: expect.any(String),
    });
    const cookies = setCookies(res);
    expect(cookies.svc_session).toBeUndefined();
    expect(cookies.svc_refresh).toBeUndefined();
    return { b, token: res.body.pendingToken as string };
  }

  it('asks nothing of a user whose roles are not listed', async () => {
    const user = await createUser(t);
    const b = await browser(t);
    const res = await b.post('/auth/login', { email: user.email, password: user.password });
    expect(res.status).toBe(200);
    expect(res.body.token).toEqual(expect.any(String));
  });

  it('sends a listed role’s holder to enrol; the token opens nothing but the enrolment routes', async () => {
    const user = await staffUser();
    const { b, token } = await pausedAtEnrolment(user);
    expect((await b.agent.get(`${API}/auth/pending`)).body).toMatchObject({
      challengeType: 'mfa-enrol',
      uiHint: 'Set up a second factor to continue',
    });

    const resolve = await b.post('/auth/challenge/resolve', { pendingToken: token, response: { code: '1' } });
    expect([resolve.status, resolve.body.error.code]).toEqual([401, 'AUTH_INVALID_CREDENTIALS']);
    const setPassword = await b.post('/auth/set-initial-password', {
      pendingToken: token,
      newPassword: 'Another-Horse-77',
    });
    expect(setPassword.status).toBe(401);
    expect((await t.http.get(`${API}/me`).set('Authorization', `Bearer ${token}`)).status).toBe(401);
    expect((await b.agent.get(`${API}/me`)).status).toBe(401);
    expect((await b.agent.get(`${API}/plugins/totp/status`)).status).toBe(401);
    expect((await b.agent.get(`${API}/plugins/passkeys/credentials`)).status).toBe(401);
    // The token is still good for enrolment: resolve did not use it up.
    expect((await b.post('/plugins/totp/enroll', { pendingToken: token })).status).toBe(200);
  });

  it('TOTP enrolment with the pending token answers the session; the next login asks for the code', async () => {
    const user = await staffUser();
    const { b, token } = await pausedAtEnrolment(user);
    // The svc_pending cookie reaches the plugin routes: no token in the body.
    const enrolled = await b.post('/plugins/totp/enroll', {});
    expect(enrolled.status).toBe(200);
    const secret = enrolled.body.secret as string;
    const confirmed = await b.post('/plugins/totp/enroll/confirm', {
      pendingToken: token,
      code: totp.generate(secret),
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({
      message: expect.any(String),
      user: expect.objectContaining({ id: user.id }),
      token: expect.any(String),
      exp: expect.any(Number),
      recoveryCodes: expect.any(Array),
    });
    const cookies = setCookies(confirmed);
    expect(cookieValue(cookies.svc_session)).toBe(confirmed.body.token);
    expect(cookies.svc_refresh).toBeDefined();
    expect(
      (await t.http.get(`${API}/me`).set('Authorization', `Bearer ${confirmed.body.token}`)).status,
    ).toBe(200);
    // The step is used up.
    const again = await t.http
      .post(`${API}/plugins/totp/enroll/confirm`)
      .send({ pendingToken: token, code: totp.generate(secret) });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.body.token).toBeUndefined();

    const next = await (await browser(t)).post('/auth/login', { email: user.email, password: user.password });
    expect(next.body).toMatchObject({ status: 'challenge', challengeType: 'totp' });
  });

  it('a passkey registered with the pending token answers the session too', async () => {
    const user = await staffUser();
    const { token } = await pausedAtEnrolment(user);
    const options = await t.http
      .post(`${API}/plugins/passkeys/register/options`)
      .send({ pendingToken: token });
    expect(options.status).toBe(200);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const res = await t.http
      .post(`${API}/plugins/passkeys/register/verify`)
      .send({ pendingToken: token, response: authenticator.create(options.body) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      item: { id: expect.any(String) },
      user: { id: user.id },
      token: expect.any(String),
    });
    expect((await t.http.get(`${API}/me`).set('Authorization', `Bearer ${res.body.token}`)).status).toBe(200);
  });

  it('finishing without a factor set up is refused and keeps the step', async () => {
    const user = await staffUser();
    const { b, token } = await pausedAtEnrolment(user);
    const wrong = await b.post('/plugins/totp/enroll/confirm', { pendingToken: token, code: '000000' });
    expect(wrong.status).toBe(409); // no enrolment started
    const enrolled = await b.post('/plugins/totp/enroll', { pendingToken: token });
    const ok = await b.post('/plugins/totp/enroll/confirm', {
      pendingToken: token,
      code: totp.generate(enrolled.body.secret as string),
    });
    expect(ok.status).toBe(200);
  });

  it('applies to every path that ends in a session: an app-level strategy too', async () => {
    const user = await staffUser();
    sso = (email) => (email === user.email ? { userId: user.id } : null);
    try {
      const res = await (await browser(t)).post('/auth/login', { email: user.email, password: 'whatever' });
      expect(res.body).toMatchObject({ status: 'challenge', challengeType: 'mfa-enrol' });
    } finally {
      sso = null;
    }
  });

  it('records mfa-enrolled and mfa-disabled audit rows with the factor (CONTRACTS 14.3)', async () => {
    const user = await createUser(t);
    // Enrolling and registering are sensitive changes: a fresh browser session (CONTRACTS 14.6).
    const headers = { Cookie: await sessionCookieFor(t, user.id) };
    const enrolled = await t.http.post(`${API}/plugins/totp/enroll`).set(headers).send({}).expect(200);
    const secret = enrolled.body.secret as string;
    await t.http
      .post(`${API}/plugins/totp/enroll/confirm`)
      .set(headers)
      .send({ code: totp.generate(secret) })
      .expect(200);
    const options = await t.http
      .post(`${API}/plugins/passkeys/register/options`)
      .set(headers)
      .send({})
      .expect(200);
    const registered = await t.http
      .post(`${API}/plugins/passkeys/register/verify`)
      .set(headers)
      .send({ response: new SoftAuthenticator(ORIGIN).create(options.body) })
      .expect(201);
    await t.http
      .delete(`${API}/plugins/passkeys/credentials/${registered.body.item.id as string}`)
      .set(headers)
      .expect(200);
    const admin = await createUser(t, { roles: ['super-admin'] });
    await t.http
      .delete(`${API}/plugins/totp/users/${user.id}`)
      .set(await bearerFor(t, admin.id))
      .expect(200);
    const rows = await t.db.query(
      `SELECT event, actor_id, metadata FROM audit_log WHERE target = $1 AND event LIKE 'mfa-%' ORDER BY id`,
      [`user:${user.id}`],
    );
    expect(rows).toEqual([
      { event: 'mfa-enrolled', actor_id: user.id, metadata: { factor: 'totp', plugin: 'totp' } },
      {
        event: 'mfa-enrolled',
        actor_id: user.id,
        metadata: { factor: 'passkey', passkeyId: registered.body.item.id, plugin: 'passkeys' },
      },
      {
        event: 'mfa-disabled',
        actor_id: user.id,
        metadata: { factor: 'passkey', passkeyId: registered.body.item.id, plugin: 'passkeys' },
      },
      {
        event: 'mfa-disabled',
        actor_id: admin.id,
        metadata: { factor: 'totp', reset: true, plugin: 'totp' },
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain(secret);
  });

  it('a user who holds a factor is asked for it, not to enrol', async () => {
    // TOTP set up over a browser session before the user's role came to require a second factor.
    const user = await createUser(t);
    const headers = { Cookie: await sessionCookieFor(t, user.id) };
    const enrolled = await t.http.post(`${API}/plugins/totp/enroll`).set(headers).send({}).expect(200);
    await t.http
      .post(`${API}/plugins/totp/enroll/confirm`)
      .set(headers)
      .send({ code: totp.generate(enrolled.body.secret as string) })
      .expect(200);
    await t.db.query(
      `INSERT INTO user_roles (user_id, role_id) SELECT $1, id FROM roles WHERE slug = 'staff'`,
      [user.id],
    );
    const res = await (await browser(t)).post('/auth/login', { email: user.email, password: user.password });
    expect(res.body).toMatchObject({ status: 'challenge', challengeType: 'totp' });
  });
});

describe('auth.mfa: requiredForAll', () => {
  it('stops the boot when no second-factor plugin is installed, naming the key', async () => {
    await expect(createTestApp({ config: { auth: { mfa: { requiredForAll: true } } } })).rejects.toThrow(
      /auth\.mfa/,
    );
    await expect(
      createTestApp({ config: { auth: { mfa: { requiredForRoles: 'x' as never } } } }),
    ).rejects.toThrow(/auth\.mfa/);
  });

  it('the first account made by setup enrols before it gets a session', async () => {
    const t = await createTestApp({
      config: { plugins: [totpPlugin()], auth: { mfa: { requiredForAll: true } } },
    });
    try {
      const b = await browser(t);
      const res = await b.post('/auth/setup', {
        email: 'root@example.com',
        name: 'Root',
        password: 'Correct-Horse-9-Battery',
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ status: 'challenge', challengeType: 'mfa-enrol' });
      expect(setCookies(res).svc_session).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});
