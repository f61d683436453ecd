import { createPrivateKey, createSign, generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type request from 'supertest';
import { oidcPlugin } from '../../src/plugins/oidc';
import { totpPlugin } from '../../src/plugins/totp';
import { browser, cookieValue, createUser, type CreatedUser, PASSWORD, setCookies } from '../utils/auth';
import { addresses, extractLink, startSmtp, type TestSmtp, useTestSmtp } from '../utils/smtp';
import { type OidcClient, type OidcProvider, startOidcProvider } from '../utils/oidc-test-provider';
import { createTestApp, type TestApp } from '../utils/test-app';

/**
 * The shipped OIDC plugin (`oidcPlugin`, CONTRACTS 13.2.1) against OpenID providers on loopback
 * (test/utils/oidc-test-provider.ts): the authorization code flow driven over HTTP through real
 * redirects, as a browser follows them, and every way the callback must fail.
 */

type Res = request.Response;

/** The public URL createTestApp gives the service: where the browser reaches it. */
const APP = 'http://localhost:3000';
const FAILED = '/admin/login?error=signin-failed';
const RESUME = '/admin/login?resume=1';
const DENY = '__deny__';

/** The claims the providers answer for each subject (set per test). */
interface Person {
  email?: string;
  email_verified?: boolean;
  name?: string;
}
const people = new Map<string, Person>();
let seq = 0;
const uniq = () => `${Date.now().toString(36)}-${++seq}`;

/** Per test: how the next ID token leaving idp's token endpoint is changed (re-signed). */
interface Tamper {
  claims?: Record<string, unknown>;
  /** Signed with a key the provider never published. */
  foreignKey?: boolean;
}
let tamper: Tamper | null = null;

const b64url = (v: object | Buffer) =>
  (Buffer.isBuffer(v) ? v : Buffer.from(JSON.stringify(v))).toString('base64url');

/** A JWT re-signed (RS256) with `claims` changed: what a hostile or broken provider could send. */
function resign(jwt: string, changes: Tamper, key: JsonWebKey): string {
  const [h, p] = jwt.split('.');
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as object;
  const payload = { ...(JSON.parse(Buffer.from(p, 'base64url').toString()) as object), ...changes.claims };
  const input = `${b64url(header)}.${b64url(payload)}`;
  const signingKey = changes.foreignKey
    ? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
    : createPrivateKey({ key, format: 'jwk' });
  const sig = createSign('RSA-SHA256').update(input).sign(signingKey);
  return `${input}.${b64url(sig)}`;
}

interface Idp {
  issuer: string;
  server: Server;
}

/** A server listening on a free loopback port, its handler set later. */
async function listen(handler: { fn?: (req: IncomingMessage, res: ServerResponse) => void }, port = 0) {
  const server = createServer((req, res) => handler.fn?.(req, res));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

/** A loopback port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const server = await listen({});
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * An OpenID provider: `clients` as registered, accounts from `people`, the interaction (sign-in
 * and consent) finished at once for the subject the browser names in `login=` (or refused with
 * access_denied for `login=__deny__`). `inIdToken`: the email and profile claims go into the ID
 * token too (otherwise only userinfo has them, as many providers do).
 */
async function startIdp(o: {
  clients: object[];
  inIdToken: boolean;
  tamperable?: boolean;
  port?: number;
}): Promise<Idp> {
  const provider: OidcProvider = await startOidcProvider({
    clients: o.clients as OidcClient[],
    claimsInIdToken: o.inIdToken,
    port: o.port,
    account: (sub) => people.get(sub),
    interact: async (_req, res, url, interaction) => {
      const sub = url.searchParams.get('login') ?? '';
      interaction.finish(
        res,
        sub === DENY ? { error: 'access_denied', error_description: 'The person said no' } : { sub },
      );
    },
    mapIdToken: o.tamperable ? (jwt) => (tamper ? resign(jwt, tamper, provider.key) : jwt) : undefined,
  });
  return { issuer: provider.issuer, server: provider.server };
}

const closeServer = (s: Server) =>
  new Promise<void>((r) => {
    s.closeAllConnections();
    s.close(() => r());
  });

const client = (id: string, slugs: string[], extra: object = {}) => ({
  client_id: id,
  client_secret: `${id}-secret-0123456789`,
  redirect_uris: slugs.map((s) => `${APP}/admin/api/plugins/${s}/callback`),
  grant_types: ['authorization_code'],
  response_types: ['code'],
  ...extra,
});

describe('plugin: oidc', () => {
  let t: TestApp;
  let idp: Idp; // claims in userinfo only; tamperable
  let idp2: Idp; // claims in the ID token
  let latePort: number;
  let late: Idp | undefined;
  let smtp: TestSmtp;
  const savedEnv = { url: process.env.NEXT_PUBLIC_APP_URL, port: process.env.PORT };

  beforeAll(async () => {
    delete process.env.NEXT_PUBLIC_APP_URL;
    delete process.env.PORT;
    idp = await startIdp({
      inIdToken: false,
      tamperable: true,
      clients: [
        client('svc', ['oidc']),
        client('pub', ['pub'], { client_secret: undefined, token_endpoint_auth_method: 'none' }),
        client('other', ['oidc']),
      ],
    });
    idp2 = await startIdp({
      inIdToken: true,
      clients: [client('corp', ['corp'], { token_endpoint_auth_method: 'client_secret_post' })],
    });
    latePort = await freePort();
    t = await createTestApp({
      config: {
        plugins: [
          oidcPlugin({ issuer: idp.issuer, clientId: 'svc', clientSecret: 'svc-secret-0123456789' }),
          oidcPlugin({
            slug: 'corp',
            issuer: idp2.issuer,
            clientId: 'corp',
            clientSecret: 'corp-secret-0123456789',
            label: 'Sign in with Corp',
            allowSignup: true,
            defaultRoles: ['oidc-staff'],
          }),
          oidcPlugin({ slug: 'pub', issuer: idp.issuer, clientId: 'pub' }),
          oidcPlugin({ slug: 'late', issuer: `http://127.0.0.1:${latePort}`, clientId: 'late' }),
          oidcPlugin({
            slug: 'sec',
            issuer: idp.issuer,
            clientId: 'sec',
            redirectUri: 'https://svc.example/admin/api/plugins/sec/callback',
          }),
          totpPlugin(),
        ],
      },
    });
    await t.db.query(`INSERT INTO roles (name, slug) VALUES ('OIDC Staff', 'oidc-staff')`);
    smtp = await startSmtp();
    await useTestSmtp(t, smtp);
  });

  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    for (const s of [idp, idp2, late]) {
      if (s) {
        await closeServer(s.server);
      }
    }
    for (const [k, v] of [
      ['NEXT_PUBLIC_APP_URL', savedEnv.url],
      ['PORT', savedEnv.port],
    ] as const) {
      if (v === undefined) {
        delete process.env[k];
      } else {
        process.env[k] = v;
      }
    }
  });

  afterEach(() => {
    tamper = null;
  });

  // ---- the browser ------------------------------------------------------------------------------

  interface Started {
    res: Res;
    /** `svc_oidc_<slug>=<value>` as the browser sends it back. */
    cookie: string;
    authUrl: URL;
  }

  const cookieNameOf = (slug: string) => `svc_oidc_${slug}`;

  async function start(slug = 'oidc', next?: string): Promise<Started> {
    const res = await t.http
      .get(`/admin/api/plugins/${slug}/start`)
      .query(next === undefined ? {} : { next });
    expect(res.status).toBe(302);
    const set = setCookies(res)[cookieNameOf(slug)];
    expect(set).toBeDefined();
    return { res, cookie: set.split(';')[0], authUrl: new URL(res.headers.location as string) };
  }

  /**
   * Follows the provider's redirects as a browser with a fresh cookie jar: authorization endpoint,
   * interaction (signing in as `sub`), resume; answers the URL the provider sends the browser back
   * to (the app's callback).
   */
  async function authorize(authUrl: URL | string, sub: string): Promise<URL> {
    const jar = new Map<string, string>();
    let url = new URL(authUrl);
    for (let hops = 0; hops < 10; hops++) {
      if (url.origin === APP) {
        return url;
      }
      if (url.pathname.startsWith('/interaction/')) {
        url.searchParams.set('login', sub);
      }
      const res = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = pair.indexOf('=');
        jar.set(pair.slice(0, i), pair.slice(i + 1));
      }
      const location = res.headers.get('location');
      if (res.status < 300 || res.status >= 400 || !location) {
        throw new Error(`the provider answered ${res.status}: ${await res.text()}`);
      }
      url = new URL(location, url);
    }
    throw new Error('too many redirects');
  }

  const callback = (url: URL, cookie?: string) => {
    const req = t.http.get(`${url.pathname}${url.search}`);
    return cookie ? req.set('Cookie', cookie) : req;
  };

  /** start → provider → callback, as `sub`. */
  async function signInFlow(sub: string, o: { slug?: string; next?: string } = {}) {
    const s = await start(o.slug ?? 'oidc', o.next);
    const back = await authorize(s.authUrl, sub);
    return { ...s, back, done: await callback(back, s.cookie) };
  }

  function person(p: Person): string {
    const sub = `sub-${uniq()}`;
    people.set(sub, p);
    return sub;
  }

  // ---- expectations -----------------------------------------------------------------------------

  function expectCookieCleared(res: Res, slug = 'oidc'): void {
    const set = setCookies(res)[cookieNameOf(slug)];
    expect(set).toBeDefined();
    expect(cookieValue(set)).toBe('');
    expect(set).toMatch(/; Max-Age=0(;|$)/);
    expect(set).toContain(`; Path=/admin/api/plugins/${slug}`);
    const expires = /; Expires=([^;]+)/.exec(set)?.[1];
    expect(expires && Date.parse(expires) <= Date.now()).toBe(true);
  }

  function expectFailed(res: Res, slug = 'oidc'): void {
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe(FAILED);
    const cookies = setCookies(res);
    expect(cookies.svc_session).toBeUndefined();
    expect(cookies.svc_refresh).toBeUndefined();
    expect(cookies.svc_pending).toBeUndefined();
    expectCookieCleared(res, slug);
  }

  async function expectSignedIn(res: Res, location: string, userId: string, slug = 'oidc'): Promise<void> {
    expect({ status: res.status, location: res.headers.location as unknown }).toEqual({
      status: 302,
      location,
    });
    const cookies = setCookies(res);
    expect(cookies.svc_session).toMatch(/; HttpOnly/i);
    expect(cookies.svc_refresh).toMatch(/; HttpOnly/i);
    expectCookieCleared(res, slug);
    const me = await t.http
      .get('/admin/api/me')
      .set('Cookie', `svc_session=${cookieValue(cookies.svc_session)}`);
    expect(me.status).toBe(200);
    expect(me.body.id ?? me.body.user?.id).toBe(userId);
  }

  /** The last warning the plugin logged for a failed sign-in (its reason). */
  function lastFailureReason(): string {
    const records = t.logs.records().filter((r) => r.msg === 'external sign-in failed');
    return JSON.stringify(records[records.length - 1] ?? null);
  }

  const lastAuditId = async (): Promise<number> =>
    ((await t.db.query(`SELECT coalesce(max(id), 0)::int AS id FROM audit_log`)) as Array<{ id: number }>)[0]
      .id;
  const auditSince = (
    id: number,
  ): Promise<Array<{ event: string; actor_id: string | null; metadata: object }>> =>
    t.db.query(`SELECT event, actor_id, metadata FROM audit_log WHERE id > $1 ORDER BY id`, [id]);
  const linksOf = (slug: string, sub: string): Promise<Array<{ user_id: string }>> =>
    t.db.query(`SELECT user_id FROM plugin_oidc_links WHERE slug = $1 AND sub = $2`, [slug, sub]);
  const usersWithEmail = (email: string): Promise<Array<{ id: string; name: string; verified: boolean }>> =>
    t.db.query(
      `SELECT id, name, email_verified_at IS NOT NULL AS verified FROM users WHERE lower(email) = lower($1)`,
      [email],
    );

  async function verifiedUser(o: { active?: boolean } = {}): Promise<CreatedUser & { sub: string }> {
    const user = await createUser(t, { email: `oidc-${uniq()}@example.com`, ...o });
    return { ...user, sub: person({ email: user.email, email_verified: true, name: 'Ada Provider' }) };
  }

  // ---- the factory --------------------------------------------------------------------------------

  describe('options', () => {
    it.each([
      ['no options', undefined, /issuer, clientId/],
      ['no issuer', { clientId: 'x' }, /issuer is required/],
      ['no clientId', { issuer: 'https://idp.example' }, /clientId is required/],
      ['a bad slug', { slug: 'Bad_Slug', issuer: 'https://idp.example', clientId: 'x' }, /slug must match/],
      [
        'an issuer that is no URL',
        { issuer: 'idp.example', clientId: 'x' },
        /issuer must be an http\(s\) URL/,
      ],
      [
        'scopes without openid',
        { issuer: 'https://idp.example', clientId: 'x', scopes: ['email'] },
        /openid/,
      ],
      [
        'an unknown option',
        { issuer: 'https://idp.example', clientId: 'x', clientSecrets: 'y' },
        /unknown option "clientSecrets"/,
      ],
      [
        'a bad redirectUri',
        { issuer: 'https://idp.example', clientId: 'x', redirectUri: '/cb' },
        /redirectUri/,
      ],
    ])('refuses %s with a clear error', (_what, options, message) => {
      expect(() => oidcPlugin(options as never)).toThrow(message);
      expect(() => oidcPlugin(options as never)).toThrow(/^oidcPlugin: /);
    });

    it('defines the plugin: slug, capability, the provider button', () => {
      const p = oidcPlugin({ issuer: 'https://accounts.example.com/', clientId: 'x' });
      expect(p).toMatchObject({
        slug: 'oidc',
        capabilities: ['auth.login'],
        ui: {
          providers: [
            {
              strategy: 'oidc:oidc',
              label: 'Sign in with accounts.example.com',
              href: '/admin/api/plugins/oidc/start',
            },
          ],
        },
      });
    });
  });

  // ---- start ----------------------------------------------------------------------------------

  describe('start', () => {
    it('every instance has its button on GET /auth/ui', async () => {
      const res = await t.http.get('/admin/api/auth/ui');
      expect(res.status).toBe(200);
      const host = new URL(idp.issuer).host;
      expect(res.body.providers).toEqual([
        { strategy: 'oidc:oidc', label: `Sign in with ${host}`, href: '/admin/api/plugins/oidc/start' },
        { strategy: 'corp:oidc', label: 'Sign in with Corp', href: '/admin/api/plugins/corp/start' },
        { strategy: 'pub:oidc', label: `Sign in with ${host}`, href: '/admin/api/plugins/pub/start' },
        {
          strategy: 'late:oidc',
          label: `Sign in with 127.0.0.1:${latePort}`,
          href: '/admin/api/plugins/late/start',
        },
        { strategy: 'sec:oidc', label: `Sign in with ${host}`, href: '/admin/api/plugins/sec/start' },
      ]);
    });

    it('302 to the authorization endpoint with code flow, PKCE S256, state and nonce; the sealed cookie', async () => {
      const { res, cookie, authUrl } = await start('oidc', '/admin/posts');
      expect(`${authUrl.origin}${authUrl.pathname}`).toBe(`${idp.issuer}/auth`);
      const q = Object.fromEntries(authUrl.searchParams);
      expect(q).toEqual({
        response_type: 'code',
        client_id: 'svc',
        redirect_uri: `${APP}/admin/api/plugins/oidc/callback`,
        scope: 'openid email profile',
        state: expect.stringMatching(/^[\w-]{43}$/),
        nonce: expect.stringMatching(/^[\w-]{43}$/),
        code_challenge: expect.stringMatching(/^[\w-]{43}$/),
        code_challenge_method: 'S256',
      });
      expect(res.headers['cache-control']).toBe('no-store');
      const set = setCookies(res).svc_oidc_oidc;
      expect(set).toMatch(/; HttpOnly/);
      expect(set).toMatch(/; SameSite=Lax/);
      expect(set).toContain('; Path=/admin/api/plugins/oidc;');
      expect(set).not.toMatch(/; Secure/);
      const maxAge = Number(/; Max-Age=(\d+)/.exec(set)?.[1]);
      expect(maxAge).toBeGreaterThan(0);
      expect(maxAge).toBeLessThanOrEqual(600);
      // Confidential: none of the transaction's values (nor the next) can be read from it.
      const value = decodeURIComponent(cookie.split('=').slice(1).join('='));
      for (const secret of [q.state, q.nonce, '/admin/posts']) {
        expect(value).not.toContain(secret);
      }
      const rows: Array<{ slug: string; ttl: number }> = await t.db.query(
        `SELECT slug, extract(epoch FROM expires_at - now())::int AS ttl FROM plugin_oidc_transactions
          WHERE state_hash = encode(sha256($1::bytea), 'hex')`,
        [q.state],
      );
      expect(rows).toEqual([{ slug: 'oidc', ttl: expect.any(Number) }]);
      expect(rows[0].ttl).toBeLessThanOrEqual(600);
    });

    it('the cookie is Secure when the callback is served over https (explicit redirectUri)', async () => {
      const { res, authUrl } = await start('sec');
      expect(authUrl.searchParams.get('redirect_uri')).toBe(
        'https://svc.example/admin/api/plugins/sec/callback',
      );
      expect(setCookies(res).svc_oidc_sec).toMatch(/; Secure/);
    });

    it('discovery that fails sends the browser to the error page, boot unharmed, and is retried', async () => {
      const first = await t.http.get('/admin/api/plugins/late/start');
      expect(first.status).toBe(302);
      expect(first.headers.location).toBe(FAILED);
      expect(setCookies(first).svc_oidc_late).toBeUndefined();
      expect(lastFailureReason()).toContain('"stage":"start"');
      late = await startIdp({ inIdToken: true, clients: [client('late', ['late'])], port: latePort });
      const again = await start('late');
      expect(`${again.authUrl.origin}${again.authUrl.pathname}`).toBe(`${late.issuer}/auth`);
    });
  });

  // ---- callback: success and linking ------------------------------------------------------------

  describe('callback', () => {
    it('signs in an existing account by its verified address (userinfo), links it, audits the strategy', async () => {
      const user = await verifiedUser();
      const since = await lastAuditId();
      const { done } = await signInFlow(user.sub, { next: '/admin/posts?x=1' });
      await expectSignedIn(done, '/admin/posts?x=1', user.id);
      expect(await linksOf('oidc', user.sub)).toEqual([{ user_id: user.id }]);
      expect(await auditSince(since)).toEqual([
        { event: 'login-succeeded', actor_id: user.id, metadata: { strategy: 'oidc:oidc' } },
      ]);
      // Later sign-ins go by the subject: the provider's address no longer matters.
      people.set(user.sub, { email: `changed-${uniq()}@example.com`, email_verified: false });
      const again = await signInFlow(user.sub);
      await expectSignedIn(again.done, '/admin', user.id);
    });

    it('signs in by the ID token’s verified address (client_secret_post) on a second instance', async () => {
      const user = await verifiedUser();
      const { done } = await signInFlow(user.sub, { slug: 'corp', next: '/admin/x' });
      await expectSignedIn(done, '/admin/x', user.id, 'corp');
      expect(await linksOf('corp', user.sub)).toEqual([{ user_id: user.id }]);
      expect(await linksOf('oidc', user.sub)).toEqual([]);
    });

    it('a public client (no secret) signs in too', async () => {
      const user = await verifiedUser();
      const { done } = await signInFlow(user.sub, { slug: 'pub' });
      await expectSignedIn(done, '/admin', user.id, 'pub');
      expect(await linksOf('pub', user.sub)).toEqual([{ user_id: user.id }]);
    });

    it('a deactivated account is refused and audited, no session', async () => {
      const user = await verifiedUser({ active: false });
      const since = await lastAuditId();
      const { done } = await signInFlow(user.sub);
      expectFailed(done);
      expect(await auditSince(since)).toEqual([
        { event: 'login-failed', actor_id: null, metadata: { reason: 'deactivated', strategy: 'oidc:oidc' } },
      ]);
    });

    it('an account with TOTP enabled goes to the second factor: resume page, svc_pending, no session', async () => {
      const user = await verifiedUser();
      await t.db.query(
        `INSERT INTO plugin_totp_factors (user_id, secret_sealed, confirmed_at) VALUES ($1, 'sealed', now())`,
        [user.id],
      );
      const { done } = await signInFlow(user.sub, { next: '/admin/posts' });
      expect(done.status).toBe(302);
      expect(done.headers.location).toBe(RESUME);
      const cookies = setCookies(done);
      expect(cookies.svc_session).toBeUndefined();
      expect(cookies.svc_refresh).toBeUndefined();
      expect(cookies.svc_pending).toMatch(/; HttpOnly/i);
      expectCookieCleared(done);
      const pending = await t.http
        .get('/admin/api/auth/pending')
        .set('Cookie', `svc_pending=${cookieValue(cookies.svc_pending)}`);
      expect(pending.body).toMatchObject({ challengeType: 'totp' });
    });

    it('an unverified address matching an account is not linked (signup off)', async () => {
      const user = await createUser(t, { email: `oidc-${uniq()}@example.com` });
      const sub = person({ email: user.email, email_verified: false });
      expectFailed((await signInFlow(sub)).done);
      expect(await linksOf('oidc', sub)).toEqual([]);
      expect(lastFailureReason()).toContain('does not say the address is verified');
    });

    it('a verified address matching an account nobody verified (a pre-registration) is not linked', async () => {
      // Someone registered the address with a password of theirs and never verified it.
      const squatted = await createUser(t, { email: `oidc-${uniq()}@example.com`, verified: false });
      const sub = person({ email: squatted.email, email_verified: true });
      expectFailed((await signInFlow(sub, { slug: 'corp' })).done, 'corp');
      expect(await linksOf('corp', sub)).toEqual([]);
      expect(await usersWithEmail(squatted.email)).toHaveLength(1);
      expect(lastFailureReason()).toContain('not verified yet');
    });

    it('an address without email_verified matching an account is not linked either', async () => {
      const user = await createUser(t, { email: `oidc-${uniq()}@example.com` });
      const sub = person({ email: user.email });
      expectFailed((await signInFlow(sub)).done);
      expect(await linksOf('oidc', sub)).toEqual([]);
    });

    it('an unverified address matching an account is not linked, nor duplicated, with signup on', async () => {
      const user = await createUser(t, { email: `oidc-${uniq()}@example.com` });
      const sub = person({ email: user.email.toUpperCase(), email_verified: false });
      expectFailed((await signInFlow(sub, { slug: 'corp' })).done, 'corp');
      expect(await linksOf('corp', sub)).toEqual([]);
      expect(await usersWithEmail(user.email)).toHaveLength(1);
    });

    it('signup off: an unknown person is refused and no account is created', async () => {
      const email = `new-${uniq()}@example.com`;
      const sub = person({ email, email_verified: true, name: 'New Person' });
      expectFailed((await signInFlow(sub)).done);
      expect(await usersWithEmail(email)).toEqual([]);
      expect(await linksOf('oidc', sub)).toEqual([]);
      expect(lastFailureReason()).toContain('signup is off');
    });

    it('signup on: creates the account (name, verified as the provider says, default roles) and signs in', async () => {
      const email = `New-${uniq()}@Example.com`;
      const sub = person({ email, email_verified: true, name: 'Grace Signup' });
      const since = await lastAuditId();
      const { done } = await signInFlow(sub, { slug: 'corp', next: '/admin/welcome' });
      const [created] = await usersWithEmail(email);
      expect(created).toEqual({ id: expect.any(String), name: 'Grace Signup', verified: true });
      await expectSignedIn(done, '/admin/welcome', created.id, 'corp');
      const roles: Array<{ slug: string }> = await t.db.query(
        `SELECT r.slug FROM user_roles ur JOIN roles r ON r.id = ur.role_id WHERE ur.user_id = $1`,
        [created.id],
      );
      expect(roles).toEqual([{ slug: 'oidc-staff' }]);
      expect(await linksOf('corp', sub)).toEqual([{ user_id: created.id }]);
      const audit = await auditSince(since);
      expect(audit).toContainEqual({ event: 'register', actor_id: created.id, metadata: { plugin: 'corp' } });
      expect(audit).toContainEqual({
        event: 'login-succeeded',
        actor_id: created.id,
        metadata: { strategy: 'corp:oidc' },
      });
    });

    it('signup on with an unverified address: refused, no account and no link', async () => {
      for (const claims of [{ email_verified: false }, {}]) {
        const email = `unverified-${uniq()}@example.com`;
        const sub = person({ email, ...claims, name: 'Una Verified' });
        expectFailed((await signInFlow(sub, { slug: 'corp' })).done, 'corp');
        expect(await usersWithEmail(email)).toEqual([]);
        expect(await linksOf('corp', sub)).toEqual([]);
        expect(lastFailureReason()).toContain('does not say the address is verified');
      }
    });

    it('two parallel first sign-ins of one person end on one account and one link', async () => {
      const email = `race-${uniq()}@example.com`;
      const sub = person({ email, email_verified: true, name: 'Racy' });
      const flows = await Promise.all(
        [0, 1].map(async () => {
          const s = await start('corp');
          return { ...s, back: await authorize(s.authUrl, sub) };
        }),
      );
      const done = await Promise.all(flows.map((f) => callback(f.back, f.cookie)));
      const users = await usersWithEmail(email);
      expect(users).toHaveLength(1);
      expect(await linksOf('corp', sub)).toEqual([{ user_id: users[0].id }]);
      for (const res of done) {
        await expectSignedIn(res, '/admin', users[0].id, 'corp');
      }
    });

    it.each([
      ['//evil.example/', '//evil.example/'],
      ['https://evil.example/', 'https://evil.example/'],
      ['/\\evil.example', '/\\evil.example'],
      ['javascript:alert(1)', 'javascript:alert(1)'],
      ['into the API', '/admin/api/plugins/magic-link/verify?token=abc'],
      ['into the API, upper case', '/admin/API/auth/session'],
      ['into the API by a dot segment', '/admin/%2e%2e/admin/api/auth/session'],
      ['not an admin page', '/administrator'],
    ])('a next that is no admin page (%s) ends at /admin', async (_what, next) => {
      const user = await verifiedUser();
      const { done } = await signInFlow(user.sub, { next });
      await expectSignedIn(done, '/admin', user.id);
    });
  });

  // ---- an address the provider does not report verified --------------------------------------------

  describe('pre-account takeover: an address the provider does not report verified', () => {
    const NEW_PASSWORD = 'Owner-Takes-Back-7';

    /** The token of the `/admin/<action>` link emailed to `email`. */
    async function emailedToken(email: string, action: string): Promise<string> {
      const mail = await smtp.waitFor(
        (m) => addresses(m).includes(email.toLowerCase()) && extractLink(m, action) !== null,
        10_000,
      );
      return new URL(extractLink(mail, action)!).searchParams.get('token')!;
    }

    /** The owner of `email` proves it another way: a password set through the emailed reset link. */
    async function ownerResets(email: string): Promise<void> {
      const b = await browser(t);
      expect((await b.post('/auth/forgot-password', { email })).status).toBe(200);
      const token = await emailedToken(email, 'reset-password');
      expect((await b.post('/auth/reset-password', { token, password: NEW_PASSWORD })).status).toBe(200);
    }

    /** ... or through the emailed verification link. */
    async function ownerVerifies(email: string): Promise<void> {
      const b = await browser(t);
      expect((await b.post('/auth/verify-email/resend', { email })).status).toBe(200);
      const token = await emailedToken(email, 'verify-email');
      expect((await b.post('/auth/verify-email', { token })).status).toBe(200);
    }

    /** A link as stored before links recorded whether the provider reported the address verified. */
    const legacyLink = (slug: string, sub: string, userId: string) =>
      t.db.query(`INSERT INTO plugin_oidc_links (slug, sub, user_id) VALUES ($1, $2, $3)`, [
        slug,
        sub,
        userId,
      ]);

    it('an attacker claiming the owner’s address never gets the owner’s session (the whole sequence)', async () => {
      const email = `victim-${uniq()}@example.com`;
      const attacker = person({ email, email_verified: false, name: 'Not The Owner' });
      // 1. The attacker signs in first (signup on) with a provider account claiming the address.
      expectFailed((await signInFlow(attacker, { slug: 'corp' })).done, 'corp');
      // 2. The owner registers, proves the address with a reset link and signs in with the password.
      const owner = await browser(t);
      expect(
        (await owner.post('/auth/register', { email, password: PASSWORD, name: 'The Owner' })).status,
      ).toBe(200);
      await ownerResets(email);
      const login = await owner.post('/auth/login', { email, password: NEW_PASSWORD });
      expect(login.status).toBe(200);
      // 3. The attacker signs in through the provider again: refused, no session of the owner.
      expectFailed((await signInFlow(attacker, { slug: 'corp' })).done, 'corp');
      expect(await linksOf('corp', attacker)).toEqual([]);
      const users = await usersWithEmail(email);
      expect(users).toEqual([{ id: login.body.user.id, name: 'The Owner', verified: true }]);
    });

    it.each([
      ['a reset link', ownerResets],
      ['a verification link', ownerVerifies],
    ])(
      'a link made from an unverified address is dropped once the owner proves the address by %s',
      async (_how, prove) => {
        const email = `legacy-${uniq()}@example.com`;
        const account = await createUser(t, { email, verified: false });
        const attacker = person({ email, email_verified: false });
        await legacyLink('corp', attacker, account.id);
        await prove(email);
        expectFailed((await signInFlow(attacker, { slug: 'corp' })).done, 'corp');
        expect(await linksOf('corp', attacker)).toEqual([]);
        expect(lastFailureReason()).toContain('does not say the address is verified');
      },
    );

    it('a link of an address not verified yet stays until it is', async () => {
      const account = await createUser(t, { email: `pending-${uniq()}@example.com`, verified: false });
      const sub = person({ email: account.email, email_verified: false });
      await legacyLink('oidc', sub, account.id);
      // Refused by the account gate (the address is not verified), the link kept.
      expectFailed((await signInFlow(sub)).done);
      expect(await linksOf('oidc', sub)).toEqual([{ user_id: account.id }]);
    });

    it('an old link of a verified account is made again when the provider reports the address verified', async () => {
      const user = await verifiedUser();
      await legacyLink('oidc', user.sub, user.id);
      await expectSignedIn((await signInFlow(user.sub)).done, '/admin', user.id);
      const rows: Array<{ user_id: string; email_verified: boolean }> = await t.db.query(
        `SELECT user_id, email_verified FROM plugin_oidc_links WHERE slug = 'oidc' AND sub = $1`,
        [user.sub],
      );
      expect(rows).toEqual([{ user_id: user.id, email_verified: true }]);
    });
  });

  // ---- callback: every failure ------------------------------------------------------------------

  describe('callback failures (302 to the error page, the transaction cookie cleared)', () => {
    it('no transaction cookie', async () => {
      const user = await verifiedUser();
      const s = await start();
      const back = await authorize(s.authUrl, user.sub);
      expectFailed(await callback(back));
      // The flow's state was not used up by that: with the cookie it still works once.
      await expectSignedIn(await callback(back, s.cookie), '/admin', user.id);
    });

    it('a state that is not the cookie’s', async () => {
      const user = await verifiedUser();
      const s = await start();
      const back = await authorize(s.authUrl, user.sub);
      back.searchParams.set('state', `${back.searchParams.get('state')}x`);
      expectFailed(await callback(back, s.cookie));
      expect(lastFailureReason()).toContain('state missing or not the one');
    });

    it('no state at all', async () => {
      const user = await verifiedUser();
      const s = await start();
      const back = await authorize(s.authUrl, user.sub);
      back.searchParams.delete('state');
      expectFailed(await callback(back, s.cookie));
    });

    it('the code of one flow with the cookie of another (state mismatch)', async () => {
      const user = await verifiedUser();
      const a = await start();
      const b = await start();
      const backA = await authorize(a.authUrl, user.sub);
      expectFailed(await callback(backA, b.cookie));
      // Both transactions are spent: B's state by that attempt; A's cookie still works once.
      await expectSignedIn(await callback(backA, a.cookie), '/admin', user.id);
    });

    it('a replayed callback (the same URL and cookie twice)', async () => {
      const user = await verifiedUser();
      const { back, cookie, done } = await signInFlow(user.sub);
      await expectSignedIn(done, '/admin', user.id);
      expectFailed(await callback(back, cookie));
      expect(lastFailureReason()).toContain('state already used or expired');
    });

    it('a replayed code (state made usable again: the provider refuses the code)', async () => {
      const user = await verifiedUser();
      const { back, cookie, done } = await signInFlow(user.sub);
      await expectSignedIn(done, '/admin', user.id);
      await t.db.query(
        `INSERT INTO plugin_oidc_transactions (state_hash, slug, expires_at)
         VALUES (encode(sha256($1::bytea), 'hex'), 'oidc', now() + interval '5 minutes')`,
        [back.searchParams.get('state')],
      );
      expectFailed(await callback(back, cookie));
      expect(lastFailureReason()).toContain('invalid_grant');
    });

    it('an expired transaction', async () => {
      const user = await verifiedUser();
      const s = await start();
      const back = await authorize(s.authUrl, user.sub);
      await t.db.query(
        `UPDATE plugin_oidc_transactions SET expires_at = now() - interval '1 second'
          WHERE state_hash = encode(sha256($1::bytea), 'hex')`,
        [back.searchParams.get('state')],
      );
      expectFailed(await callback(back, s.cookie));
    });

    it('a cookie changed by the browser does not open', async () => {
      const user = await verifiedUser();
      const s = await start();
      const back = await authorize(s.authUrl, user.sub);
      const [name, value] = [
        s.cookie.split('=')[0],
        decodeURIComponent(s.cookie.split('=').slice(1).join('=')),
      ];
      const c = value.at(-2);
      const flipped = value.slice(0, -2) + (c === 'A' ? 'B' : 'A') + value.slice(-1);
      expectFailed(await callback(back, `${name}=${encodeURIComponent(flipped)}`));
    });

    it('a cookie of another instance does not open here', async () => {
      const user = await verifiedUser();
      const s = await start('oidc');
      const pub = await start('pub');
      const back = await authorize(s.authUrl, user.sub);
      const foreign = `svc_oidc_oidc=${pub.cookie.split('=').slice(1).join('=')}`;
      expectFailed(await callback(back, foreign));
    });

    it('the provider answers an error (the person refused)', async () => {
      const s = await start();
      const back = await authorize(s.authUrl, DENY);
      expect(back.searchParams.get('error')).toBe('access_denied');
      expectFailed(await callback(back, s.cookie));
      expect(lastFailureReason()).toContain('access_denied');
    });

    it('a nonce that is not the transaction’s (the authorization request was changed)', async () => {
      const user = await verifiedUser();
      const s = await start();
      const changed = new URL(s.authUrl);
      changed.searchParams.set('nonce', 'a-nonce-the-browser-made-up-0123456789abcdef');
      const back = await authorize(changed, user.sub);
      expectFailed(await callback(back, s.cookie));
      expect(lastFailureReason()).toContain('nonce mismatch');
    });

    it('a code issued to another client is not exchanged', async () => {
      const user = await verifiedUser();
      const s = await start();
      const changed = new URL(s.authUrl);
      changed.searchParams.set('client_id', 'other');
      const back = await authorize(changed, user.sub);
      expectFailed(await callback(back, s.cookie));
      expect(lastFailureReason()).toContain('invalid_grant');
    });

    it.each([
      ['for another audience', { claims: { aud: 'other' } }, 'aud mismatch'],
      ['from another issuer', { claims: { iss: 'https://evil.example' } }, 'unexpected iss value'],
      ['expired', { claims: { exp: Math.floor(Date.now() / 1000) - 3600 } }, 'JWT expired'],
      [
        'with another nonce',
        { claims: { nonce: 'not-the-nonce-0123456789abcdefghijklmnop' } },
        'nonce mismatch',
      ],
      [
        'signed with a key the provider never published',
        { foreignKey: true },
        'failed to validate JWT signature',
      ],
    ])('an ID token %s', async (_what, change, reason) => {
      const user = await verifiedUser();
      const s = await start();
      const back = await authorize(s.authUrl, user.sub);
      tamper = change;
      expectFailed(await callback(back, s.cookie));
      expect(lastFailureReason()).toContain(reason);
      expect(await linksOf('oidc', user.sub)).toEqual([]);
    });

    it('the same flow untampered signs in (the tampering is what failed above)', async () => {
      const user = await verifiedUser();
      const s = await start();
      const back = await authorize(s.authUrl, user.sub);
      tamper = { claims: {} };
      await expectSignedIn(await callback(back, s.cookie), '/admin', user.id);
    });

    it('logs no code, state or token', async () => {
      const user = await verifiedUser();
      const s = await start();
      const back = await authorize(s.authUrl, user.sub);
      tamper = { claims: { aud: 'other' } };
      const from = t.logs.lines.length;
      expectFailed(await callback(back, s.cookie));
      const logged = t.logs.lines.slice(from).join('\n');
      expect(logged).toContain('external sign-in failed');
      for (const secret of [
        back.searchParams.get('code')!,
        back.searchParams.get('state')!,
        s.authUrl.searchParams.get('nonce')!,
      ]) {
        expect(logged).not.toContain(secret);
      }
    });
  });
});
