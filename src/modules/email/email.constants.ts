import { SLUG_PATTERN } from '../../fields';
/**
 * Slugs of the built-in templates (CONTRACTS 7), seeded by the Email migration; `magic-link` (the
 * shipped magicLinkPlugin's, CONTRACTS 14.5) by MagicLinkTemplate. They can be edited, never
 * renamed or deleted.
 */
export const EMAIL_TEMPLATES = {
  verifyEmail: 'verify-email',
  resetPassword: 'reset-password',
  invite: 'invite',
  passwordChanged: 'password-changed',
  magicLink: 'magic-link',
} as const;

export type BuiltInTemplateSlug = (typeof EMAIL_TEMPLATES)[keyof typeof EMAIL_TEMPLATES];

export const BUILT_IN_TEMPLATE_SLUGS: readonly string[] = Object.values(EMAIL_TEMPLATES);

/** Template slugs: the same form as collection slugs (CONTRACTS 6). */
export const TEMPLATE_SLUG_PATTERN = SLUG_PATTERN;

/** What a stored provider password is answered as (CONTRACTS 7). Sent back in a PATCH it means "keep". */
export const PASSWORD_MASK = '********';

/**
 * Bounds on one SMTP delivery, so a slow or silent server never holds a request: each phase has
 * its own timeout, and the whole send (connect, greeting, auth, envelope, data) a deadline.
 */
export const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 10_000,
  dnsTimeout: 10_000,
  deadline: 20_000,
} as const;

export type SmtpTimeouts = { [K in keyof typeof SMTP_TIMEOUTS]: number };
