export interface PasskeyOptions {
  /** The WebAuthn relying party id: the site's host name (e.g. `example.com`), never an IP address. */
  rpId: string;
  /** The name authenticators show (e.g. `Acme Admin`). */
  rpName: string;
  /** Every origin the ceremonies run on (`https://admin.example.com`): host `rpId` or a subdomain of it. */
  origins: string[];
  /** A correct password of a user holding a passkey asks for it (challenge `passkey`); default true. */
  secondFactor?: boolean;
  /** Sign-in with a passkey alone (`/login/options`, `/login/verify`); default true. */
  passwordless?: boolean;
}

export type ResolvedPasskeyOptions = Required<PasskeyOptions>;

/** DI tokens of the plugin's module: its PluginContext and its resolved options. */
export const PASSKEY_CONTEXT = Symbol('passkeys:context');
export const PASSKEY_OPTIONS = Symbol('passkeys:options');

const KNOWN = new Set(['rpId', 'rpName', 'origins', 'secondFactor', 'passwordless']);
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

function fail(message: string): never {
  throw new Error(`passkeyPlugin: ${message}`);
}

/** A DNS host name in lower case (`localhost` included), not an IPv4 address. */
export function isHostname(value: string): boolean {
  if (value.length > 253 || value.endsWith('.')) {
    return false;
  }
  const labels = value.split('.');
  return labels.every((l) => LABEL.test(l)) && !/^[0-9]+$/.test(labels[labels.length - 1]);
}

/** The options with defaults filled in; throws at definition time on a value that cannot work. */
export function resolvePasskeyOptions(options: PasskeyOptions): ResolvedPasskeyOptions {
  if (!options || typeof options !== 'object') {
    fail('options { rpId, rpName, origins } are required');
  }
  const unknown = Object.keys(options).filter((k) => !KNOWN.has(k));
  if (unknown.length) {
    fail(`unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}`);
  }
  const { rpId, rpName, origins } = options;
  if (typeof rpId !== 'string' || !isHostname(rpId)) {
    fail(`rpId must be a lower-case host name such as "example.com" (got ${JSON.stringify(rpId)})`);
  }
  if (typeof rpName !== 'string' || rpName.trim() === '') {
    fail('rpName must be a non-empty string');
  }
  if (!Array.isArray(origins) || origins.length === 0) {
    fail('origins must be a non-empty list of http(s) origins such as "https://admin.example.com"');
  }
  for (const origin of origins) {
    let url: URL | null = null;
    try {
      url = typeof origin === 'string' ? new URL(origin) : null;
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== origin) {
      fail(
        `origins: ${JSON.stringify(origin)} is not an http(s) origin (scheme, host and port only, no "/")`,
      );
    }
    if (url.hostname !== rpId && !url.hostname.endsWith(`.${rpId}`)) {
      fail(`origins: ${origin} is not on rpId "${rpId}" (its host must be ${rpId} or a subdomain of it)`);
    }
  }
  const secondFactor = options.secondFactor ?? true;
  const passwordless = options.passwordless ?? true;
  if (typeof secondFactor !== 'boolean') {
    fail('secondFactor must be true or false');
  }
  if (typeof passwordless !== 'boolean') {
    fail('passwordless must be true or false');
  }
  return { rpId, rpName: rpName.trim(), origins: [...new Set(origins)], secondFactor, passwordless };
}
