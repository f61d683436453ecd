import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real OpenID provider (oidc-provider 7, in memory) on loopback with its own sign-in and consent
 * pages, for the browser tests: a person signs in with an email address and password, then allows
 * the client, in the browser. (test/e2e/oidc-plugin.e2e-spec.ts drives its providers over HTTP
 * instead, finishing each interaction at once.)
 */

// oidc-provider 7 ships no types: the little of it used here.
interface Interaction {
  uid: string;
  prompt: { name: string; details: { missingOIDCScope?: string[]; missingOIDCClaims?: string[] } };
  params: Record<string, unknown>;
  session?: { accountId?: string };
  grantId?: string;
}
interface Grant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  save(): Promise<string>;
}
interface OidcProviderInstance {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: object,
    opts?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>;
  Grant: {
    new (o: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- CommonJS, untyped
const Provider = require('oidc-provider') as new (issuer: string, config: object) => OidcProviderInstance;

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

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Starts the provider with one confidential client whose one redirect URI is `redirectUri`. */
export async function startTestProvider(o: {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}): Promise<TestProvider> {
  let handle: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  const server: Server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const people = new Map<string, TestPerson>();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = { ...privateKey.export({ format: 'jwk' }), kid: 'browser-test', use: 'sig', alg: 'RS256' };
  // Its one warning: the in-memory adapter (what a test wants).
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: o.clientId,
        client_secret: o.clientSecret,
        redirect_uris: [o.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    jwks: { keys: [key] },
    cookies: { keys: ['browser-test-cookie-key-0123456789'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true, methods: ['S256'] },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 600,
      IdToken: 600,
      Interaction: 600,
      Session: 600,
    },
    findAccount: (_ctx: unknown, sub: string) => {
      const person = people.get(sub);
      return person
        ? {
            accountId: sub,
            claims: () => ({ sub, email: person.email, email_verified: true, name: person.name }),
          }
        : undefined;
    },
  });
  warn.mockRestore();
  const callback = provider.callback();

  /** The interaction pages: sign in (email and password), then allow the client. */
  async function interaction(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    const action = `/interaction/${details.uid}`;
    if (req.method === 'POST' && url.pathname.endsWith('/login')) {
      const body = await form(req);
      const person = people.get(body.get('email') ?? '');
      if (!person || person.password !== body.get('password')) {
        return loginPage(res, action, 'Unknown email address or wrong password.');
      }
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: person.email } },
        { mergeWithLastSubmission: false },
      );
    }
    if (req.method === 'POST' && url.pathname.endsWith('/confirm')) {
      const accountId = details.session?.accountId ?? '';
      const grant = details.grantId
        ? ((await provider.Grant.find(details.grantId)) as Grant)
        : new provider.Grant({ accountId, clientId: details.params.client_id as string });
      const missing = details.prompt.details;
      if (missing.missingOIDCScope?.length) {
        grant.addOIDCScope(missing.missingOIDCScope.join(' '));
      }
      if (missing.missingOIDCClaims?.length) {
        grant.addOIDCClaims(missing.missingOIDCClaims);
      }
      const grantId = await grant.save();
      return provider.interactionFinished(
        req,
        res,
        { consent: { grantId } },
        { mergeWithLastSubmission: true },
      );
    }
    if (details.prompt.name === 'login') {
      return loginPage(res, action);
    }
    const scopes = (details.prompt.details.missingOIDCScope ?? []).map((s) => `<li>${esc(s)}</li>`).join('');
    page(
      res,
      'Allow access',
      `<p>The application ${esc(String(details.params.client_id))} asks for:</p><ul>${scopes}</ul>
<form method="post" action="${action}/confirm"><button type="submit">Allow</button></form>`,
    );
  }

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

  handle = (req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (!url.pathname.startsWith('/interaction/')) {
      return callback(req, res);
    }
    interaction(req, res, url).catch((e: unknown) => page(res, 'Error', `<pre>${esc(String(e))}</pre>`, 500));
  };
  return {
    issuer,
    people,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
