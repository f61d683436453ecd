import { authenticator as totp } from 'otplib';
import type request from 'supertest';
import { passkeyPlugin } from '../../src/plugins/passkeys';
import { totpPlugin } from '../../src/plugins/totp';
import {
  accessTokenFor,
  bearerFor,
  browser,
  cookieValue,
  createUser,
  CreatedUser,
  sessionCookieFor,
  setCookies,
} from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';
import { SoftAuthenticator, strayKey } from '../utils/webauthn-authenticator';

/**
 * The shipped passkey plugin (`passkeyPlugin(...)`, slug `passkeys`, CONTRACTS 13.2.3) end to end,
 * with a software authenticator: registration, the list and removal, the `passkey` second factor
 * after a password, passwordless sign-in through `completeLogin`, and the refusals (origin, RP id,
 * replayed challenges, user verification, signature counters, API keys).
 */

const BASE = '/admin/api/plugins/passkeys';
const ORIGIN = 'http://localhost:3000';
const RP_ID = 'localhost';
const PROBLEM = /^application\/problem\+json/;
const UI_HINT = 'Confirm with your passkey';

type Res = request.Response;
type Headers = Record<string, string>;

function expectProblem(res: Res, status: number, code: string): Record<string, unknown> | undefined {
  expect({ status: res.status, body: res.body as unknown }).toMatchObject({
    status,
    body: { error: { code } },
  });
  expect(res.headers['content-type']).toMatch(PROBLEM);
  return (res.body as { error: { data?: Record<string, unknown> } }).error.data;
}

describe('passkeyPlugin: options checked at definition time', () => {
  const good = { rpId: 'example.com', rpName: 'Acme', origins: ['https://admin.example.com'] };

  it('accepts good options and refuses ones that cannot work', () => {
    expect(() => passkeyPlugin(good)).not.toThrow();
    expect(() =>
      passkeyPlugin({ ...good, rpId: 'localhost', origins: ['http://localhost:3000'] }),
    ).not.toThrow();
    const bad: object[] = [
      { ...good, rpId: 'https://example.com' },
      { ...good, rpId: '10.0.0.1' },
      { ...good, rpId: '' },
      { ...good, rpName: ' ' },
      { ...good, origins: [] },
      { ...good, origins: 'https://admin.example.com' },
      { ...good, origins: ['https://admin.example.com/'] },
      { ...good, origins: ['ftp://admin.example.com'] },
      { ...good, origins: ['https://example.org'] },
      { ...good, secondFactor: 'yes' },
      { ...good, unknown: true },
    ];
    for (const options of bad) {
      expect(() => passkeyPlugin(options as never)).toThrow(/^passkeyPlugin: /);
    }
  });
});

describe('plugin: passkeys', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      config: { plugins: [passkeyPlugin({ rpId: RP_ID, rpName: 'svc tests', origins: [ORIGIN] })] },
    });
  });
  afterAll(() => t.close());

  const client = (headers: Headers) => ({
    get: (p: string) => t.http.get(`${BASE}${p}`).set(headers),
    post: (p: string, body?: object) =>
      t.http
        .post(`${BASE}${p}`)
        .set(headers)
        .send(body ?? {}),
    delete: (p: string) => t.http.delete(`${BASE}${p}`).set(headers),
  });

  /**
   * The `svc_session` cookie of a fresh session of the user: registering a passkey is a sensitive
   * change, made over a browser session signed in recently (CONTRACTS 14.6), never a Bearer token.
   */
  const sessionOf = async (userId: string): Promise<Headers> => ({
    Cookie: await sessionCookieFor(t, userId),
  });

  /** Registers a passkey of `authenticator` for the user (over a fresh browser session). */
  async function register(user: CreatedUser, authenticator: SoftAuthenticator, name?: string) {
    const c = client(await sessionOf(user.id));
    const options = await c.post('/register/options');
    expect(options.status).toBe(200);
    const res = await c.post('/register/verify', { response: authenticator.create(options.body), name });
    expect(res.status).toBe(201);
    return res.body.item as { id: string; name: string; createdAt: string; lastUsedAt: string | null };
  }

  async function userWithPasskey(): Promise<{ user: CreatedUser; authenticator: SoftAuthenticator }> {
    const user = await createUser(t);
    const authenticator = new SoftAuthenticator(ORIGIN);
    await register(user, authenticator);
    return { user, authenticator };
  }

  const counterOf = async (credentialId: Buffer) =>
    Number(
      (
        await t.db.query(`SELECT counter FROM plugin_passkey_credentials WHERE credential_id = $1`, [
          credentialId.toString('base64url'),
        ])
      )[0].counter,
    );

  it('shows its login button and challenge view on GET /auth/ui', async () => {
    const res = await t.http.get('/admin/api/auth/ui');
    expect(res.status).toBe(200);
    expect(res.body.providers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ strategy: 'passkeys:webauthn', label: expect.any(String) }),
      ]),
    );
    expect(res.body.challengeViews.passkey).toMatchObject({ kind: 'webauthn' });
  });

  describe('registration, the list and removal', () => {
    it('offers creation options, registers, lists without key material, excludes what is registered', async () => {
      const user = await createUser(t, { name: 'Pat Key' });
      const c = client(await sessionOf(user.id));
      const authenticator = new SoftAuthenticator(ORIGIN, { backupEligible: true, backedUp: true });

      const options = await c.post('/register/options');
      expect(options.status).toBe(200);
      expect(options.headers['cache-control']).toBe('no-store');
      expect(options.body).toMatchObject({
        challenge: expect.any(String),
        rp: { id: RP_ID, name: 'svc tests' },
        user: {
          id: Buffer.from(user.id.replace(/-/g, ''), 'hex').toString('base64url'),
          name: user.email,
          displayName: 'Pat Key',
        },
        timeout: 300_000,
        attestation: 'none',
        excludeCredentials: [],
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      expect(options.body.pubKeyCredParams).toEqual(
        expect.arrayContaining([{ type: 'public-key', alg: -7 }]),
      );

      const verified = await c.post('/register/verify', {
        response: authenticator.create(options.body),
        name: 'Laptop',
      });
      expect(verified.status).toBe(201);
      expect(verified.body).toEqual({
        message: expect.any(String),
        item: { id: expect.any(String), name: 'Laptop', createdAt: expect.any(String), lastUsedAt: null },
      });
      const [row] = await t.db.query(
        `SELECT counter, backed_up, device_type, transports FROM plugin_passkey_credentials WHERE id = $1`,
        [verified.body.item.id],
      );
      expect(row).toMatchObject({ backed_up: true, device_type: 'multiDevice', transports: ['internal'] });

      // A second ceremony excludes the registered credential; a second passkey gets the default name.
      const again = await c.post('/register/options');
      expect(again.body.excludeCredentials).toEqual([
        {
          id: authenticator.credentials[0].id.toString('base64url'),
          type: 'public-key',
          transports: ['internal'],
        },
      ]);
      expect(() => authenticator.create(again.body)).toThrow(/excluded/);
      const other = new SoftAuthenticator(ORIGIN);
      const second = await c.post('/register/verify', { response: other.create(again.body) });
      expect(second.status).toBe(201);
      expect(second.body.item.name).toBe('Passkey');

      const list = await c.get('/credentials');
      expect(list.status).toBe(200);
      expect(list.body).toEqual({
        items: [verified.body.item, second.body.item],
        meta: { total: 2, page: 1, limit: 10, totalPages: 1, hasNext: false, hasPrev: false },
      });
      const paged = await c.get('/credentials?limit=1&page=2');
      expect(paged.body).toEqual({
        items: [second.body.item],
        meta: { total: 2, page: 2, limit: 1, totalPages: 2, hasNext: false, hasPrev: true },
      });
      expectProblem(await c.get('/credentials?page=0'), 400, 'VALIDATION_ERROR');

      // Another user neither sees nor deletes it; the owner does.
      const stranger = client(await bearerFor(t, (await createUser(t)).id));
      expect((await stranger.get('/credentials')).body.items).toEqual([]);
      expectProblem(
        await stranger.delete(`/credentials/${verified.body.item.id as string}`),
        404,
        'NOT_FOUND',
      );
      expectProblem(await c.delete('/credentials/not-a-uuid'), 404, 'NOT_FOUND');
      const removed = await c.delete(`/credentials/${verified.body.item.id as string}`);
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ message: expect.any(String) });
      expect((await c.get('/credentials')).body.items).toEqual([second.body.item]);
      expectProblem(await c.delete(`/credentials/${verified.body.item.id as string}`), 404, 'NOT_FOUND');
    });

    it('registers over the browser session only: a Bearer access token is refused with 401 AUTH_REQUIRED, though it still reads the list', async () => {
      const user = await createUser(t);
      const bearer = client(await bearerFor(t, user.id));
      // A cookie holding an access token that belongs to no session is no browser session either.
      const sessionless = client({ Cookie: `svc_session=${await accessTokenFor(t, user.id)}` });
      const cookie = client(await sessionOf(user.id));
      for (const c of [bearer, sessionless]) {
        expectProblem(await c.post('/register/options'), 401, 'AUTH_REQUIRED');
      }
      const options = await cookie.post('/register/options');
      expect(options.status).toBe(200);
      // The verify step refuses them too, even over options the session was handed.
      for (const c of [bearer, sessionless]) {
        expectProblem(
          await c.post('/register/verify', { response: new SoftAuthenticator(ORIGIN).create(options.body) }),
          401,
          'AUTH_REQUIRED',
        );
      }
      expect((await bearer.get('/credentials')).body.items).toEqual([]);
      const res = await cookie.post('/register/verify', {
        response: new SoftAuthenticator(ORIGIN).create(options.body),
      });
      expect(res.status).toBe(201);
      // Reading the list is no sensitive change: the Bearer access token still does it.
      const listed = await bearer.get('/credentials');
      expect(listed.status).toBe(200);
      expect(listed.body.items).toEqual([res.body.item]);
    });

    it.each([
      ['another origin', { origin: 'http://evil.localhost:3000' }],
      ['another RP id', { rpId: 'example.com' }],
      ['no user verification', { userVerified: false }],
      ['a challenge never handed out', { challenge: Buffer.from('made up').toString('base64url') }],
    ])('refuses a registration with %s: 422 INVALID_INPUT', async (_label, overrides) => {
      const user = await createUser(t);
      const c = client(await sessionOf(user.id));
      const options = await c.post('/register/options');
      const res = await c.post('/register/verify', {
        response: new SoftAuthenticator(ORIGIN).create(options.body, overrides),
      });
      expectProblem(res, 422, 'INVALID_INPUT');
      expect((await c.get('/credentials')).body.items).toEqual([]);
    });

    it('uses a registration challenge once, and only for the user it was given to', async () => {
      const user = await createUser(t);
      const c = client(await sessionOf(user.id));
      const options = await c.post('/register/options');
      const response = new SoftAuthenticator(ORIGIN).create(options.body);
      expect((await c.post('/register/verify', { response })).status).toBe(201);
      expectProblem(await c.post('/register/verify', { response }), 422, 'INVALID_INPUT');
      // A fresh credential over the used challenge is refused too.
      const replayed = new SoftAuthenticator(ORIGIN).create(options.body);
      expectProblem(await c.post('/register/verify', { response: replayed }), 422, 'INVALID_INPUT');

      const other = await createUser(t);
      const theirs = await client(await sessionOf(other.id)).post('/register/options');
      expect(theirs.status).toBe(200);
      const res = await c.post('/register/verify', {
        response: new SoftAuthenticator(ORIGIN).create(theirs.body),
      });
      expectProblem(res, 422, 'INVALID_INPUT');
    });

    it('refuses malformed bodies with 400 VALIDATION_ERROR', async () => {
      const c = client(await sessionOf((await createUser(t)).id));
      expectProblem(await c.post('/register/verify', {}), 400, 'VALIDATION_ERROR');
      expectProblem(await c.post('/register/verify', { response: { id: 'x' } }), 400, 'VALIDATION_ERROR');
      const options = await c.post('/register/options');
      const response = new SoftAuthenticator(ORIGIN).create(options.body);
      expectProblem(
        await c.post('/register/verify', { response, name: 'x'.repeat(101) }),
        400,
        'VALIDATION_ERROR',
      );
    });

    it('refuses visitors and API keys on the self-service routes: 401 AUTH_REQUIRED', async () => {
      const admin = await createUser(t, { roles: ['super-admin'] });
      const created = await t.http
        .post('/admin/api/api-keys')
        .set('Cookie', await sessionCookieFor(t, admin.id))
        .send({ name: 'passkey-probe', type: 'full-access' });
      expect(created.status).toBe(201);
      for (const c of [client({ Authorization: `Bearer ${created.body.key as string}` }), client({})]) {
        expectProblem(await c.post('/register/options'), 401, 'AUTH_REQUIRED');
        expectProblem(await c.post('/register/verify', { response: {} }), 401, 'AUTH_REQUIRED');
        expectProblem(await c.get('/credentials'), 401, 'AUTH_REQUIRED');
        expectProblem(
          await c.delete('/credentials/00000000-0000-4000-8000-000000000000'),
          401,
          'AUTH_REQUIRED',
        );
      }
    });
  });

  describe('second factor after the password', () => {
    async function challengeFor(user: CreatedUser) {
      const b = await browser(t);
      const res = await b.post('/auth/login', { email: user.email, password: user.password });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        status: 'challenge',
        challengeType: 'passkey',
        pendingToken: expect.any(String),
        uiHint: UI_HINT,
      });
      expect(setCookies(res).svc_session).toBeUndefined();
      return { b, pendingToken: res.body.pendingToken as string };
    }

    const optionsFor = (pendingToken: string) => client({}).post('/challenge/options', { pendingToken });

    function expectSignedIn(res: Res, user: CreatedUser): void {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ ok: true, user: { id: user.id }, token: expect.any(String) });
      expect(cookieValue(setCookies(res).svc_session)).toBe(res.body.token);
    }

    it('a user without a passkey signs in with the password alone', async () => {
      const user = await createUser(t);
      const b = await browser(t);
      const res = await b.post('/auth/login', { email: user.email, password: user.password });
      expect(res.status).toBe(200);
      expect(res.body.token).toEqual(expect.any(String));
    });

    it('asks for the passkey; an assertion over the issued challenge finishes the login', async () => {
      const { user, authenticator } = await userWithPasskey();
      const { b, pendingToken } = await challengeFor(user);
      const options = await optionsFor(pendingToken);
      expect(options.status).toBe(200);
      expect(options.body).toMatchObject({
        challenge: expect.any(String),
        rpId: RP_ID,
        userVerification: 'required',
        timeout: 300_000,
      });
      const assertion = authenticator.get(options.body);
      const res = await b.post('/auth/challenge/resolve', { pendingToken, response: { assertion } });
      expectSignedIn(res, user);
      expect(await counterOf(authenticator.credentials[0].id)).toBe(1);
      const listed = await client(await bearerFor(t, user.id)).get('/credentials');
      expect(listed.body.items[0].lastUsedAt).toEqual(expect.any(String));
    });

    it('refuses a wrong assertion with 401 and a new pending token; the right one then succeeds', async () => {
      const { user, authenticator } = await userWithPasskey();
      const { b, pendingToken } = await challengeFor(user);

      // A forged signature.
      const forged = authenticator.get((await optionsFor(pendingToken)).body, { signWith: strayKey() });
      const first = await b.post('/auth/challenge/resolve', {
        pendingToken,
        response: { assertion: forged },
      });
      const data = expectProblem(first, 401, 'AUTH_INVALID_CREDENTIALS');
      expect(data).toEqual({ pendingToken: expect.any(String), attemptsRemaining: 4 });

      // Another user's passkey.
      const other = await userWithPasskey();
      const token2 = data!.pendingToken as string;
      // (The options name the pending user's passkeys only; a hostile client signs anyway.)
      const foreign = other.authenticator.get((await optionsFor(token2)).body, {
        credential: other.authenticator.credentials[0],
      });
      const second = await b.post('/auth/challenge/resolve', {
        pendingToken: token2,
        response: { assertion: foreign },
      });
      const data2 = expectProblem(second, 401, 'AUTH_INVALID_CREDENTIALS');

      // No assertion at all; a challenge never handed out; the used token.
      const token3 = data2!.pendingToken as string;
      const empty = await b.post('/auth/challenge/resolve', { pendingToken: token3, response: {} });
      const token4 = expectProblem(empty, 401, 'AUTH_INVALID_CREDENTIALS')!.pendingToken as string;
      const madeUp = authenticator.get({
        challenge: Buffer.from('made up').toString('base64url'),
        rpId: RP_ID,
      });
      const stale = await b.post('/auth/challenge/resolve', {
        pendingToken: token4,
        response: { assertion: madeUp },
      });
      const token5 = expectProblem(stale, 401, 'AUTH_INVALID_CREDENTIALS')!.pendingToken as string;
      expectProblem(
        await b.post('/auth/challenge/resolve', { pendingToken, response: {} }),
        401,
        'AUTH_INVALID_CREDENTIALS',
      );

      const ok = await b.post('/auth/challenge/resolve', {
        pendingToken: token5,
        response: { assertion: authenticator.get((await optionsFor(token5)).body) },
      });
      expectSignedIn(ok, user);
    });

    it('uses a second-factor challenge once', async () => {
      const { user, authenticator } = await userWithPasskey();
      const first = await challengeFor(user);
      const options = await optionsFor(first.pendingToken);
      const assertion = authenticator.get(options.body);
      expectSignedIn(
        await first.b.post('/auth/challenge/resolve', {
          pendingToken: first.pendingToken,
          response: { assertion },
        }),
        user,
      );
      // The same challenge signed again (counter moved on) for a new login.
      const second = await challengeFor(user);
      const again = authenticator.get(options.body);
      const res = await second.b.post('/auth/challenge/resolve', {
        pendingToken: second.pendingToken,
        response: { assertion: again },
      });
      expectProblem(res, 401, 'AUTH_INVALID_CREDENTIALS');
    });

    it('refuses a signature counter that goes backwards', async () => {
      const { user, authenticator } = await userWithPasskey();
      const first = await challengeFor(user);
      const assertion = authenticator.get((await optionsFor(first.pendingToken)).body, { signCount: 10 });
      expectSignedIn(
        await first.b.post('/auth/challenge/resolve', {
          pendingToken: first.pendingToken,
          response: { assertion },
        }),
        user,
      );
      expect(await counterOf(authenticator.credentials[0].id)).toBe(10);

      for (const signCount of [9, 10]) {
        const { b, pendingToken } = await challengeFor(user);
        const cloned = authenticator.get((await optionsFor(pendingToken)).body, { signCount });
        expectProblem(
          await b.post('/auth/challenge/resolve', { pendingToken, response: { assertion: cloned } }),
          401,
          'AUTH_INVALID_CREDENTIALS',
        );
      }
      expect(await counterOf(authenticator.credentials[0].id)).toBe(10);
    });

    it('refuses an assertion without user verification', async () => {
      const { user, authenticator } = await userWithPasskey();
      const { b, pendingToken } = await challengeFor(user);
      const assertion = authenticator.get((await optionsFor(pendingToken)).body, { userVerified: false });
      expectProblem(
        await b.post('/auth/challenge/resolve', { pendingToken, response: { assertion } }),
        401,
        'AUTH_INVALID_CREDENTIALS',
      );
    });

    it('challenge options need a pending token: 401 AUTH_INVALID_CREDENTIALS without one', async () => {
      expectProblem(await client({}).post('/challenge/options', {}), 401, 'AUTH_INVALID_CREDENTIALS');
    });

    describe('the pending user (ctx.auth.pendingChallenge)', () => {
      it('answers options for the pending user’s credentials; refuses another step’s or an invalid token', async () => {
        const { user, authenticator } = await userWithPasskey();
        const second = new SoftAuthenticator(ORIGIN);
        await register(user, second);
        const { b, pendingToken } = await challengeFor(user);
        const options = await optionsFor(pendingToken);
        expect(options.status).toBe(200);
        expect((options.body.allowCredentials as Array<{ id: string }>).map((c) => c.id).sort()).toEqual(
          [authenticator.credentials[0].id, second.credentials[0].id]
            .map((id) => id.toString('base64url'))
            .sort(),
        );
        const [row] = await t.db.query(`SELECT user_id FROM plugin_passkey_challenges WHERE challenge = $1`, [
          options.body.challenge,
        ]);
        expect(row.user_id).toBe(user.id);
        expectSignedIn(
          await b.post('/auth/challenge/resolve', {
            pendingToken,
            response: { assertion: second.get(options.body) },
          }),
          user,
        );
        // Used now; a made-up token; a forced password change's token.
        expectProblem(await optionsFor(pendingToken), 401, 'AUTH_INVALID_CREDENTIALS');
        expectProblem(await optionsFor('not-a-token'), 401, 'AUTH_INVALID_CREDENTIALS');
        const forced = await createUser(t);
        await t.db.query(`UPDATE users SET must_change_password = true WHERE id = $1`, [forced.id]);
        const paused = await (
          await browser(t)
        ).post('/auth/login', { email: forced.email, password: forced.password });
        expect(paused.body.challengeType).toBe('set-initial-password');
        expectProblem(await optionsFor(paused.body.pendingToken as string), 401, 'AUTH_INVALID_CREDENTIALS');
      });
    });
  });

  it('never logs key material or challenges', async () => {
    const keys: Array<{ public_key: string; credential_id: string }> = await t.db.query(
      `SELECT public_key, credential_id FROM plugin_passkey_credentials`,
    );
    expect(keys.length).toBeGreaterThan(0);
    const text = t.logs.text();
    for (const k of keys) {
      expect(text).not.toContain(k.public_key);
      expect(text).not.toContain(k.credential_id);
    }
    expect(text).toContain('passkey registered');
  });

  describe('passwordless sign-in', () => {
    async function loginOptions() {
      const res = await client({}).post('/login/options');
      expect(res.status).toBe(200);
      return res.body as { flowId: string; options: { challenge: string; rpId: string } };
    }

    it('signs in with a discoverable passkey alone, through completeLogin (302 to next, session cookies)', async () => {
      const { user, authenticator } = await userWithPasskey();
      const { flowId, options } = await loginOptions();
      expect(flowId).toMatch(/^[0-9a-f-]{36}$/);
      expect(options).toMatchObject({
        challenge: expect.any(String),
        rpId: RP_ID,
        userVerification: 'required',
      });
      expect((options as { allowCredentials?: unknown[] }).allowCredentials ?? []).toEqual([]);

      const res = await client({}).post('/login/verify', {
        flowId,
        response: authenticator.get(options),
        next: '/admin/content',
      });
      expect(res.status).toBe(302);
      // The passkey is the second factor too: no `passkey` challenge follows.
      expect(res.headers.location).toBe('/admin/content');
      const cookies = setCookies(res);
      expect(cookies.svc_refresh).toBeDefined();
      const session = await t.http
        .get('/admin/api/auth/session')
        .set('Cookie', `svc_session=${cookieValue(cookies.svc_session)}`);
      expect(session.status).toBe(200);
      expect(session.body.user.id).toBe(user.id);
      expect(await counterOf(authenticator.credentials[0].id)).toBe(1);

      const audit = await t.db.query(
        `SELECT metadata FROM audit_log WHERE actor_id = $1 AND event = 'login-succeeded' ORDER BY id DESC LIMIT 1`,
        [user.id],
      );
      expect(audit[0].metadata).toMatchObject({ strategy: 'passkeys:webauthn' });
    });

    it('a next that is not a same-origin path goes to /admin', async () => {
      const { authenticator } = await userWithPasskey();
      const { flowId, options } = await loginOptions();
      const res = await client({}).post('/login/verify', {
        flowId,
        response: authenticator.get(options),
        next: 'https://evil.example/',
      });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/admin');
    });

    it('uses a flow once; an unknown flow is refused', async () => {
      const { authenticator } = await userWithPasskey();
      const { flowId, options } = await loginOptions();
      expect(
        (await client({}).post('/login/verify', { flowId, response: authenticator.get(options) })).status,
      ).toBe(302);
      expectProblem(
        await client({}).post('/login/verify', { flowId, response: authenticator.get(options) }),
        401,
        'AUTH_INVALID_CREDENTIALS',
      );
      expectProblem(
        await client({}).post('/login/verify', {
          flowId: '00000000-0000-4000-8000-000000000000',
          response: authenticator.get(options),
        }),
        401,
        'AUTH_INVALID_CREDENTIALS',
      );
      expectProblem(
        await client({}).post('/login/verify', { response: authenticator.get(options) }),
        400,
        'VALIDATION_ERROR',
      );
    });

    it.each([
      ['no user verification', { userVerified: false }],
      ['another origin', { origin: 'http://evil.localhost:3000' }],
      ['another RP id', { rpId: 'example.com' }],
      ['a forged signature', { signWith: strayKey() }],
      ['the challenge of another flow', { challenge: Buffer.from('other').toString('base64url') }],
    ])('refuses an assertion with %s: 401, no session', async (_label, overrides) => {
      const { authenticator } = await userWithPasskey();
      const { flowId, options } = await loginOptions();
      const res = await client({}).post('/login/verify', {
        flowId,
        response: authenticator.get(options, overrides),
      });
      expectProblem(res, 401, 'AUTH_INVALID_CREDENTIALS');
      expect(setCookies(res).svc_session).toBeUndefined();
    });

    it('refuses a counter that goes backwards', async () => {
      const { authenticator } = await userWithPasskey();
      const first = await loginOptions();
      const ok = await client({}).post('/login/verify', {
        flowId: first.flowId,
        response: authenticator.get(first.options, { signCount: 7 }),
      });
      expect(ok.status).toBe(302);
      const second = await loginOptions();
      const res = await client({}).post('/login/verify', {
        flowId: second.flowId,
        response: authenticator.get(second.options, { signCount: 3 }),
      });
      expectProblem(res, 401, 'AUTH_INVALID_CREDENTIALS');
    });

    it('a passkey of a deactivated account ends in the refusal redirect', async () => {
      const { user, authenticator } = await userWithPasskey();
      await t.db.query(`UPDATE users SET is_active = false WHERE id = $1`, [user.id]);
      const { flowId, options } = await loginOptions();
      const res = await client({}).post('/login/verify', { flowId, response: authenticator.get(options) });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/admin/login?error=signin-failed');
      expect(setCookies(res).svc_session).toBeUndefined();
    });

    it('a removed passkey signs in no more', async () => {
      const { user, authenticator } = await userWithPasskey();
      const c = client(await bearerFor(t, user.id));
      const [item] = (await c.get('/credentials')).body.items as Array<{ id: string }>;
      expect((await c.delete(`/credentials/${item.id}`)).status).toBe(200);
      const { flowId, options } = await loginOptions();
      expectProblem(
        await client({}).post('/login/verify', { flowId, response: authenticator.get(options) }),
        401,
        'AUTH_INVALID_CREDENTIALS',
      );
    });
  });
});

describe('plugin: passkeys with secondFactor and passwordless off', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        plugins: [
          passkeyPlugin({
            rpId: RP_ID,
            rpName: 'svc tests',
            origins: [ORIGIN],
            secondFactor: false,
            passwordless: false,
          }),
        ],
      },
    });
  });
  afterAll(() => t.close());

  it('registers passkeys but asks for none after the password, and serves no sign-in routes', async () => {
    const user = await createUser(t);
    const headers = { Cookie: await sessionCookieFor(t, user.id) };
    const options = await t.http.post(`${BASE}/register/options`).set(headers).send({});
    expect(options.status).toBe(200);
    const verified = await t.http
      .post(`${BASE}/register/verify`)
      .set(headers)
      .send({ response: new SoftAuthenticator(ORIGIN).create(options.body) });
    expect(verified.status).toBe(201);

    const b = await browser(t);
    const login = await b.post('/auth/login', { email: user.email, password: user.password });
    expect(login.status).toBe(200);
    expect(login.body.token).toEqual(expect.any(String));

    expectProblem(await t.http.post(`${BASE}/login/options`).send({}), 404, 'NOT_FOUND');
    expectProblem(await t.http.post(`${BASE}/login/verify`).send({}), 404, 'NOT_FOUND');
    expectProblem(
      await t.http.post(`${BASE}/challenge/options`).send({ pendingToken: 'x' }),
      404,
      'NOT_FOUND',
    );
  });
});

describe('plugin: passkeys beside TOTP', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        plugins: [totpPlugin(), passkeyPlugin({ rpId: RP_ID, rpName: 'svc tests', origins: [ORIGIN] })],
      },
    });
  });
  afterAll(() => t.close());

  /** A user with TOTP on and a passkey registered (both over a fresh browser session). */
  async function userWithBoth(): Promise<{ user: CreatedUser; authenticator: SoftAuthenticator }> {
    const user = await createUser(t);
    const headers = { Cookie: await sessionCookieFor(t, user.id) };
    const enrolled = await t.http.post('/admin/api/plugins/totp/enroll').set(headers).send({});
    expect(enrolled.status).toBe(200);
    const code = totp.generate(enrolled.body.secret as string);
    const confirmed = await t.http.post('/admin/api/plugins/totp/enroll/confirm').set(headers).send({ code });
    expect(confirmed.status).toBe(200);
    const authenticator = new SoftAuthenticator(ORIGIN);
    const options = await t.http.post(`${BASE}/register/options`).set(headers).send({});
    expect(options.status).toBe(200);
    const verified = await t.http
      .post(`${BASE}/register/verify`)
      .set(headers)
      .send({ response: authenticator.create(options.body) });
    expect(verified.status).toBe(201);
    return { user, authenticator };
  }

  it('a passwordless passkey sign-in is both factors: the TOTP challenge is not asked', async () => {
    const { user, authenticator } = await userWithBoth();
    const started = await t.http.post(`${BASE}/login/options`).send({});
    const res = await t.http.post(`${BASE}/login/verify`).send({
      flowId: started.body.flowId,
      response: authenticator.get(started.body.options),
      next: '/admin',
    });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/admin');
    const cookies = setCookies(res);
    expect(cookies.svc_pending).toBeUndefined();
    const session = await t.http
      .get('/admin/api/auth/session')
      .set('Cookie', `svc_session=${cookieValue(cookies.svc_session)}`);
    expect(session.body.user.id).toBe(user.id);
  });

  it('the password still asks for the second factor (the first plugin with one: TOTP)', async () => {
    const { user } = await userWithBoth();
    const b = await browser(t);
    const login = await b.post('/auth/login', { email: user.email, password: user.password });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ status: 'challenge', challengeType: 'totp' });
    expect(login.body.token).toBeUndefined();
  });
});
