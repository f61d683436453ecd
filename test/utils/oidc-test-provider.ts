import {
  createHash,
  createPrivateKey,
  createPublicKey,
  createSign,
  generateKeyPairSync,
  randomBytes,
} from 'node:crypto';
import type { JsonWebKey } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * OpenID providers for the tests, on loopback, in memory: discovery, JWKS, the authorization
 * endpoint (code flow, PKCE S256 required), the token endpoint (client_secret_basic or _post, or
 * none for a public client; a code is used once, by the client it was issued to, with its
 * redirect URI and verifier), RS256 ID tokens and userinfo. What happens between the
 * authorization request and the answer to the client (signing in, consenting) is the test's
 * `interact`. `startTestProvider` adds sign-in and consent pages for the browser tests.
 */

export interface OidcClient {
  client_id: string;
  client_secret?: string;
  redirect_uris: string[];
  /** `none`: a public client; otherwise the secret comes by HTTP Basic or in the body. */
  token_endpoint_auth_method?: 'client_secret_basic' | 'client_secret_post' | 'none';
}

/** Claims of a subject by scope: `email` gives email and email_verified, `profile` name. */
export interface OidcClaims {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/** An authorization request waiting for `finish`: signed in as `sub`, or refused with an error. */
export interface OidcInteraction {
  uid: string;
  /** The authorization request's parameters (client_id, scope, ...). */
  params: Record<string, string>;
  /** Set by the test's pages once someone signed in (`startTestProvider`). */
  sub?: string;
  finish(res: ServerResponse, result: { sub: string } | { error: string; error_description?: string }): void;
}

export interface OidcProviderOptions {
  clients: OidcClient[];
  /** The subject's claims, or undefined for an unknown subject. */
  account(sub: string): OidcClaims | undefined;
  /** Serves `/interaction/<uid>...` (GET and POST) for a pending authorization request. */
  interact(req: IncomingMessage, res: ServerResponse, url: URL, interaction: OidcInteraction): Promise<void>;
  /** The scope claims in the ID token too; otherwise only userinfo has them. */
  claimsInIdToken?: boolean;
  /** Changes each ID token the token endpoint answers (re-signed, say). */
  mapIdToken?: (jwt: string) => string;
  port?: number;
}

export interface OidcProvider {
  issuer: string;
  server: Server;
  /** The signing key (private JWK). */
  key: JsonWebKey & { kid: string };
  close(): Promise<void>;
}

interface Code {
  clientId: string;
  redirectUri: string;
  challenge: string;
  nonce?: string;
  scope: string[];
  sub: string;
  expires: number;
}

const SCOPE_CLAIMS: Record<string, Array<keyof OidcClaims>> = {
  email: ['email', 'email_verified'],
  profile: ['name'],
};
const TTL_SECONDS = 600;
const CODE_TTL_MS = 60_000;

const b64url = (v: object | Buffer) =>
  (Buffer.isBuffer(v) ? v : Buffer.from(JSON.stringify(v))).toString('base64url');
const random = () => randomBytes(24).toString('base64url');

/** A signed RS256 JWT. */
export function signJwt(payload: object, key: JsonWebKey & { kid: string }): string {
  const input = `${b64url({ alg: 'RS256', typ: 'JWT', kid: key.kid })}.${b64url(payload)}`;
  const sig = createSign('RSA-SHA256')
    .update(input)
    .sign(createPrivateKey({ key, format: 'jwk' }));
  return `${input}.${b64url(sig)}`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { Location: location, 'Cache-Control': 'no-store' });
  res.end();
}

function scopeClaims(claims: OidcClaims, scope: string[]): OidcClaims {
  const out: Record<string, unknown> = {};
  for (const name of scope.flatMap((s) => SCOPE_CLAIMS[s] ?? [])) {
    if (claims[name] !== undefined) {
      out[name] = claims[name];
    }
  }
  return out as OidcClaims;
}

export async function startOidcProvider(o: OidcProviderOptions): Promise<OidcProvider> {
  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) {
        json(res, 500, { error: 'server_error', error_description: String(e) });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(o.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = { ...privateKey.export({ format: 'jwk' }), kid: `k-${random()}` };
  const publicJwk = {
    ...createPublicKey(privateKey).export({ format: 'jwk' }),
    kid: key.kid,
    use: 'sig',
    alg: 'RS256',
  };
  const clients = new Map(o.clients.map((c) => [c.client_id, c]));
  const interactions = new Map<string, OidcInteraction>();
  const codes = new Map<string, Code>();
  const accessTokens = new Map<string, { sub: string; scope: string[]; expires: number }>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', issuer);
    const path = url.pathname;
    if (path === '/.well-known/openid-configuration') {
      return json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        userinfo_endpoint: `${issuer}/me`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
        code_challenge_methods_supported: ['S256'],
        scopes_supported: ['openid', 'email', 'profile'],
        claims_supported: ['sub', 'email', 'email_verified', 'name'],
      });
    }
    if (path === '/jwks') {
      return json(res, 200, { keys: [publicJwk] });
    }
    if (path === '/auth' && req.method === 'GET') {
      return authorize(res, url);
    }
    if (path === '/token' && req.method === 'POST') {
      return token(req, res);
    }
    if (path === '/me') {
      return userinfo(req, res);
    }
    const uid = /^\/interaction\/([\w-]+)/.exec(path)?.[1];
    const interaction = uid === undefined ? undefined : interactions.get(uid);
    if (interaction) {
      return o.interact(req, res, url, interaction);
    }
    json(res, 404, { error: 'invalid_request', error_description: 'unknown path' });
  }

  /** The authorization endpoint: a bad client or redirect URI is answered here, the rest at the client. */
  function authorize(res: ServerResponse, url: URL): void {
    const params = Object.fromEntries(url.searchParams);
    const client = clients.get(params.client_id ?? '');
    if (!client || !client.redirect_uris.includes(params.redirect_uri ?? '')) {
      return json(res, 400, {
        error: 'invalid_request',
        error_description: 'unknown client or redirect_uri',
      });
    }
    /** Sends the browser back to the client with `query` and the request's state. */
    const back = (to: ServerResponse, query: Record<string, string | undefined>) => {
      const target = new URL(params.redirect_uri);
      for (const [k, v] of Object.entries({ ...query, state: params.state })) {
        if (v !== undefined) {
          target.searchParams.set(k, v);
        }
      }
      redirect(to, target.href);
    };
    const scope = (params.scope ?? '').split(' ').filter(Boolean);
    if (params.response_type !== 'code') {
      return back(res, { error: 'unsupported_response_type' });
    }
    if (!scope.includes('openid')) {
      return back(res, { error: 'invalid_scope', error_description: 'openid scope missing' });
    }
    if (!params.code_challenge || params.code_challenge_method !== 'S256') {
      return back(res, { error: 'invalid_request', error_description: 'PKCE S256 is required' });
    }
    const uid = random();
    interactions.set(uid, {
      uid,
      params,
      finish(to, result) {
        interactions.delete(uid);
        if ('error' in result) {
          return back(to, { error: result.error, error_description: result.error_description });
        }
        const code = random();
        codes.set(code, {
          clientId: client.client_id,
          redirectUri: params.redirect_uri,
          challenge: params.code_challenge,
          nonce: params.nonce,
          scope,
          sub: result.sub,
          expires: Date.now() + CODE_TTL_MS,
        });
        back(to, { code });
      },
    });
    redirect(res, `${issuer}/interaction/${uid}`);
  }

  /** The client the request authenticates as (Basic or body secret; none for a public client). */
  function authenticate(req: IncomingMessage, body: URLSearchParams): OidcClient | undefined {
    let id = body.get('client_id') ?? undefined;
    let secret = body.get('client_secret') ?? undefined;
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (basic) {
      const [u, p] = Buffer.from(basic, 'base64').toString('utf8').split(':');
      [id, secret] = [decodeURIComponent(u), decodeURIComponent(p ?? '')];
    }
    const client = clients.get(id ?? '');
    if (!client) {
      return undefined;
    }
    if (client.token_endpoint_auth_method === 'none') {
      return secret === undefined ? client : undefined;
    }
    return secret !== undefined && secret === client.client_secret ? client : undefined;
  }

  async function token(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = new URLSearchParams(await readBody(req));
    const client = authenticate(req, body);
    if (!client) {
      return json(res, 401, { error: 'invalid_client', error_description: 'client authentication failed' });
    }
    const invalidGrant = (why: string) => json(res, 400, { error: 'invalid_grant', error_description: why });
    if (body.get('grant_type') !== 'authorization_code') {
      return json(res, 400, { error: 'unsupported_grant_type' });
    }
    const value = body.get('code') ?? '';
    const code = codes.get(value);
    codes.delete(value);
    if (!code || code.expires < Date.now()) {
      return invalidGrant('the code is unknown, used or expired');
    }
    if (code.clientId !== client.client_id) {
      return invalidGrant('the code was issued to another client');
    }
    if (code.redirectUri !== body.get('redirect_uri')) {
      return invalidGrant('redirect_uri mismatch');
    }
    const verifier = body.get('code_verifier') ?? '';
    if (createHash('sha256').update(verifier).digest('base64url') !== code.challenge) {
      return invalidGrant('PKCE verification failed');
    }
    const claims = o.account(code.sub);
    if (!claims) {
      return invalidGrant('the account is gone');
    }
    const now = Math.floor(Date.now() / 1000);
    const idToken = signJwt(
      {
        iss: issuer,
        sub: code.sub,
        aud: client.client_id,
        iat: now,
        exp: now + TTL_SECONDS,
        ...(code.nonce === undefined ? {} : { nonce: code.nonce }),
        ...(o.claimsInIdToken ? scopeClaims(claims, code.scope) : {}),
      },
      key,
    );
    const accessToken = random();
    accessTokens.set(accessToken, {
      sub: code.sub,
      scope: code.scope,
      expires: Date.now() + TTL_SECONDS * 1000,
    });
    json(res, 200, {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: TTL_SECONDS,
      scope: code.scope.join(' '),
      id_token: o.mapIdToken ? o.mapIdToken(idToken) : idToken,
    });
  }

  function userinfo(req: IncomingMessage, res: ServerResponse): void {
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '';
    const grant = accessTokens.get(bearer);
    const claims = grant && grant.expires > Date.now() ? o.account(grant.sub) : undefined;
    if (!grant || !claims) {
      return json(
        res,
        401,
        { error: 'invalid_token' },
        { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
      );
    }
    json(res, 200, { sub: grant.sub, ...scopeClaims(claims, grant.scope) });
  }

  return {
    issuer,
    server,
    key,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---- the browser tests' provider: its own sign-in and consent pages -----------------------------

export interface TestPerson {
  email: string;
  password: string;
  name: string;
}

export interface TestProvider {
  issuer: string;
  /** People who can sign in (by email), with a verified address. */
  people: Map<string, TestPerson>;
  close(): Promise<void>;
}

const esc = (v: string) =>
  v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(res: ServerResponse, title: string, body: string, status = 200): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head>
<body><main><h1>${esc(title)}</h1>${body}</main></body></html>`);
}

/**
 * A provider with one confidential client whose one redirect URI is `redirectUri`: a person signs
 * in with an email address and password (the subject is the address), then allows the client, in
 * the browser.
 */
export async function startTestProvider(o: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}): Promise<TestProvider> {
  const people = new Map<string, TestPerson>();
  const provider = await startOidcProvider({
    clients: [{ client_id: o.clientId, client_secret: o.clientSecret, redirect_uris: [o.redirectUri] }],
    account: (sub) => {
      const person = people.get(sub);
      return person ? { email: person.email, email_verified: true, name: person.name } : undefined;
    },
    interact: async (req, res, url, interaction) => {
      const action = `/interaction/${interaction.uid}`;
      if (req.method === 'POST' && url.pathname.endsWith('/login')) {
        const body = new URLSearchParams(await readBody(req));
        const person = people.get(body.get('email') ?? '');
        if (!person || person.password !== body.get('password')) {
          return loginPage(res, action, 'Unknown email address or wrong password.');
        }
        interaction.sub = person.email;
        return redirect(res, action);
      }
      if (req.method === 'POST' && url.pathname.endsWith('/confirm') && interaction.sub) {
        return interaction.finish(res, { sub: interaction.sub });
      }
      if (!interaction.sub) {
        return loginPage(res, action);
      }
      const scopes = (interaction.params.scope ?? '')
        .split(' ')
        .filter(Boolean)
        .map((s) => `<li>${esc(s)}</li>`)
        .join('');
      page(
        res,
        'Allow access',
        `<p>The application ${esc(interaction.params.client_id)} asks for:</p><ul>${scopes}</ul>
<form method="post" action="${action}/confirm"><button type="submit">Allow</button></form>`,
      );
    },
  });

  function loginPage(res: ServerResponse, action: string, error?: string): void {
    page(
      res,
      'Test provider sign-in',
      `${error ? `<p role="alert">${esc(error)}</p>` : ''}
<form method="post" action="${action}/login">
<p><label for="email">Email</label> <input id="email" name="email" type="email" required></p>
<p><label for="password">Password</label> <input id="password" name="password" type="password" required></p>
<button type="submit">Continue</button>
</form>`,
      error ? 401 : 200,
    );
  }

  return { issuer: provider.issuer, people, close: provider.close };
}
