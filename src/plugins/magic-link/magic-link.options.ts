export interface MagicLinkOptions {
  /** How long an emailed link works, in minutes (default 15; 1 to 1440). */
  ttlMinutes?: number;
}

export type ResolvedMagicLinkOptions = Required<MagicLinkOptions>;

/** DI tokens of the plugin's module: its PluginContext and its resolved options. */
export const MAGIC_LINK_CONTEXT = Symbol('magic-link:context');
export const MAGIC_LINK_OPTIONS = Symbol('magic-link:options');

const KNOWN = new Set(['ttlMinutes']);

/** The options with defaults filled in; throws at definition time on a value that cannot work. */
export function resolveMagicLinkOptions(options: MagicLinkOptions = {}): ResolvedMagicLinkOptions {
  if (!options || typeof options !== 'object') {
    throw new Error('magicLinkPlugin: options must be an object');
  }
  const unknown = Object.keys(options).filter((k) => !KNOWN.has(k));
  if (unknown.length) {
    throw new Error(
      `magicLinkPlugin: unknown option${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')}`,
    );
  }
  const ttlMinutes = options.ttlMinutes ?? 15;
  if (!Number.isInteger(ttlMinutes) || ttlMinutes < 1 || ttlMinutes > 1440) {
    throw new Error('magicLinkPlugin: ttlMinutes must be an integer from 1 to 1440');
  }
  return { ttlMinutes };
}
