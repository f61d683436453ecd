export interface TotpOptions {
  /** The issuer shown by authenticator apps (default: the general settings' siteName, else `svc`). */
  issuer?: string;
  /** Time steps of 30 s accepted on each side of now (default 1). */
  window?: number;
  /** Recovery codes handed out when TOTP is enabled (default 10). */
  recoveryCodes?: number;
}

export type ResolvedTotpOptions = Required<Omit<TotpOptions, 'issuer'>> & { issuer: string | undefined };

/** DI tokens of the plugin's module: its PluginContext and its resolved options. */
export const TOTP_CONTEXT = Symbol('totp:context');
export const TOTP_OPTIONS = Symbol('totp:options');

/** The options with defaults filled in; throws at definition time on a value that cannot work. */
export function resolveTotpOptions(options: TotpOptions = {}): ResolvedTotpOptions {
  const issuer = options.issuer;
  const window = options.window ?? 1;
  const recoveryCodes = options.recoveryCodes ?? 10;
  if (issuer !== undefined && (typeof issuer !== 'string' || issuer.trim() === '' || issuer.includes(':'))) {
    throw new Error('totpPlugin: issuer must be a non-empty string without ":"');
  }
  if (!Number.isInteger(window) || window < 0 || window > 10) {
    throw new Error('totpPlugin: window must be an integer from 0 to 10');
  }
  if (!Number.isInteger(recoveryCodes) || recoveryCodes < 1 || recoveryCodes > 50) {
    throw new Error('totpPlugin: recoveryCodes must be an integer from 1 to 50');
  }
  return { issuer, window, recoveryCodes };
}
