export interface OidcOptions {
  /** `^[a-z][a-z0-9-]{1,40}$` (default `oidc`): routes under `/admin/api/plugins/<slug>/`. */
  slug?: string;
  /** The provider's issuer URL; discovery reads `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  /** Without it the client is public (`token_endpoint_auth_method: none`; PKCE still applies). */
  clientSecret?: string;
  /** The login-page button's label (default `Sign in with <issuer host>`). */
  label?: string;
  /** Default `['openid', 'email', 'profile']`; must hold `openid`. */
  scopes?: string[];
  /** Create an account for a first sign-in that matches none (default false). */
  allowSignup?: boolean;
  /** Role slugs given to accounts the plugin creates (default none). */
  defaultRoles?: string[];
  /** Default `${NEXT_PUBLIC_APP_URL}/admin/api/plugins/<slug>/callback`. */
  redirectUri?: string;
}

export interface ResolvedOidcOptions {
  slug: string;
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  label: string;
  scopes: string[];
  allowSignup: boolean;
  defaultRoles: string[];
  redirectUri: string | undefined;
}

const SLUG = /^[a-z][a-z0-9-]{1,40}$/;
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
const ROLE_SLUG = /^[a-z0-9][a-z0-9-]*$/;
const KNOWN = new Set([
  'slug',
  'issuer',
  'clientId',
  'clientSecret',
  'label',
  'scopes',
  'allowSignup',
  'defaultRoles',
  'redirectUri',
]);

function httpUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password
      ? url
      : null;
  } catch {
    return null;
  }
}

function fail(message: string): never {
  throw new Error(`oidcPlugin: ${message}`);
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** The options with defaults filled in; throws at definition time on a value that cannot work. */
export function resolveOidcOptions(options: OidcOptions): ResolvedOidcOptions {
  if (!options || typeof options !== 'object') {
    fail('options { issuer, clientId } are required');
  }
  const unknown = Object.keys(options).filter((k) => !KNOWN.has(k));
  if (unknown.length) {
    fail(`unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}`);
  }
  const slug = options.slug ?? 'oidc';
  if (typeof slug !== 'string' || !SLUG.test(slug)) {
    fail(`slug must match ${SLUG.source} (got ${JSON.stringify(slug)})`);
  }
  if (!nonEmpty(options.issuer)) {
    fail('issuer is required (the provider URL, e.g. "https://accounts.example.com")');
  }
  const issuerUrl = httpUrl(options.issuer);
  if (!issuerUrl || issuerUrl.search || issuerUrl.hash) {
    fail(`issuer must be an http(s) URL without query or fragment (got "${options.issuer}")`);
  }
  if (!nonEmpty(options.clientId)) {
    fail('clientId is required');
  }
  if (options.clientSecret !== undefined && !nonEmpty(options.clientSecret)) {
    fail('clientSecret, when given, must be a non-empty string');
  }
  if (options.label !== undefined && !nonEmpty(options.label)) {
    fail('label, when given, must be a non-empty string');
  }
  const scopes = options.scopes ?? ['openid', 'email', 'profile'];
  if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && SCOPE.test(s))) {
    fail('scopes must be a list of scope names (no spaces)');
  }
  if (!scopes.includes('openid')) {
    fail('scopes must include "openid"');
  }
  const allowSignup = options.allowSignup ?? false;
  if (typeof allowSignup !== 'boolean') {
    fail('allowSignup must be true or false');
  }
  const defaultRoles = options.defaultRoles ?? [];
  if (
    !Array.isArray(defaultRoles) ||
    !defaultRoles.every((r) => typeof r === 'string' && ROLE_SLUG.test(r))
  ) {
    fail('defaultRoles must be a list of role slugs');
  }
  if (options.redirectUri !== undefined) {
    const url = nonEmpty(options.redirectUri) ? httpUrl(options.redirectUri) : null;
    if (!url || url.hash) {
      fail(
        `redirectUri must be an http(s) URL without fragment (got ${JSON.stringify(options.redirectUri)})`,
      );
    }
  }
  return {
    slug,
    issuer: options.issuer,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    label: options.label ?? `Sign in with ${issuerUrl!.host}`,
    scopes: [...new Set(scopes)],
    allowSignup,
    defaultRoles: [...new Set(defaultRoles)],
    redirectUri: options.redirectUri,
  };
}
