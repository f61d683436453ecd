import {
  generators,
  Issuer,
  type BaseClient,
  type IdTokenClaims,
  type UserinfoResponse,
} from 'openid-client';
import type { ResolvedOidcOptions } from './oidc.options';
import type { Transaction } from './oidc.transaction';

/** A sign-in that cannot go on; `reason` goes to the log (never a token or a code). */
export class SignInFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SignInFailure';
  }
}

/** What the callback learnt about the person: verified ID token claims, userinfo when needed. */
export interface ProviderIdentity {
  sub: string;
  claims: IdTokenClaims;
  /** Fetches userinfo (its `sub` checked against the ID token's); null without a userinfo endpoint. */
  userinfo(): Promise<UserinfoResponse | null>;
}

/** The parameters of the authorization response a code flow reads; nothing else is passed on. */
const CALLBACK_PARAMS = ['code', 'state', 'iss', 'error', 'error_description'] as const;

/** The asymmetric algorithms accepted for ID tokens when the provider does not offer RS256. */
const ASYMMETRIC = /^(RS|PS|ES)(256|384|512)$|^EdDSA$/;

/**
 * The provider as the plugin uses it (openid-client 5): discovery on first use, cached (a failed
 * discovery is tried again by the next sign-in), the authorization URL of a transaction, and the
 * code exchange with the ID token checks (signature, `iss`, `aud`, `exp`, `iat`, `nonce`, PKCE).
 */
export class OidcProvider {
  private client: Promise<BaseClient> | null = null;

  constructor(
    private readonly options: ResolvedOidcOptions,
    /** The redirect URI, decided when first needed (the public URL is known once the service runs). */
    private readonly redirectUri: () => string,
  ) {}

  private discover(): Promise<BaseClient> {
    this.client ??= this.build().catch((e: unknown) => {
      this.client = null;
      throw e;
    });
    return this.client;
  }

  private async build(): Promise<BaseClient> {
    const configured = this.options.issuer;
    const issuer = await Issuer.discover(
      `${configured.replace(/\/+$/, '')}/.well-known/openid-configuration`,
    );
    // OpenID Connect Discovery 1.0, 4.3: the document must name the issuer it was fetched for.
    const found = issuer.metadata.issuer;
    if (found !== configured && found.replace(/\/+$/, '') !== configured.replace(/\/+$/, '')) {
      throw new SignInFailure(`discovery: the document names issuer "${found}", not "${configured}"`);
    }
    if (!issuer.metadata.authorization_endpoint || !issuer.metadata.token_endpoint) {
      throw new SignInFailure('discovery: the provider has no authorization or token endpoint');
    }
    const authMethods = issuer.metadata.token_endpoint_auth_methods_supported as string[] | undefined;
    const algs = issuer.metadata.id_token_signing_alg_values_supported as string[] | undefined;
    const alg = !algs || algs.includes('RS256') ? 'RS256' : algs.find((a) => ASYMMETRIC.test(a));
    if (!alg) {
      throw new SignInFailure(`discovery: no supported ID token algorithm among ${JSON.stringify(algs)}`);
    }
    const secret = this.options.clientSecret;
    return new issuer.Client({
      client_id: this.options.clientId,
      ...(secret
        ? {
            client_secret: secret,
            token_endpoint_auth_method:
              authMethods &&
              !authMethods.includes('client_secret_basic') &&
              authMethods.includes('client_secret_post')
                ? 'client_secret_post'
                : 'client_secret_basic',
          }
        : { token_endpoint_auth_method: 'none' }),
      redirect_uris: [this.redirectUri()],
      response_types: ['code'],
      id_token_signed_response_alg: alg,
    });
  }

  /** A new transaction's secrets: state, nonce and PKCE verifier (each 256 random bits). */
  static newSecrets(): Pick<Transaction, 'state' | 'nonce' | 'verifier'> {
    return { state: generators.state(), nonce: generators.nonce(), verifier: generators.codeVerifier() };
  }

  /** The provider's authorization URL for a transaction (code flow, PKCE S256). */
  async authorizationUrl(tx: Pick<Transaction, 'state' | 'nonce' | 'verifier'>): Promise<string> {
    const client = await this.discover();
    return client.authorizationUrl({
      response_type: 'code',
      redirect_uri: this.redirectUri(),
      scope: this.options.scopes.join(' '),
      state: tx.state,
      nonce: tx.nonce,
      code_challenge: generators.codeChallenge(tx.verifier),
      code_challenge_method: 'S256',
    });
  }

  /**
   * Exchanges the code of the authorization response `query` for tokens and checks the ID token
   * against the transaction; throws on any failure (the provider's `error` included).
   */
  async exchange(query: Record<string, unknown>, tx: Transaction): Promise<ProviderIdentity> {
    const client = await this.discover();
    const params: Record<string, string> = {};
    for (const name of CALLBACK_PARAMS) {
      const value = query[name];
      if (typeof value === 'string') {
        params[name] = value;
      } else if (value !== undefined) {
        throw new SignInFailure(`callback: the parameter ${name} is not a single value`);
      }
    }
    const tokens = await client.callback(this.redirectUri(), params, {
      response_type: 'code',
      state: tx.state,
      nonce: tx.nonce,
      code_verifier: tx.verifier,
    });
    if (!tokens.id_token) {
      throw new SignInFailure('token response: no ID token');
    }
    const claims = tokens.claims();
    if (typeof claims.sub !== 'string' || claims.sub === '' || claims.sub.length > 255) {
      throw new SignInFailure('ID token: no usable sub');
    }
    let userinfo: Promise<UserinfoResponse | null> | undefined;
    return {
      sub: claims.sub,
      claims,
      userinfo: () =>
        (userinfo ??=
          client.issuer.metadata.userinfo_endpoint && tokens.access_token
            ? client.userinfo(tokens)
            : Promise.resolve(null)),
    };
  }
}
