import { createHash, randomBytes } from 'node:crypto';
import { authenticator } from 'otplib';

/**
 * The pure parts of the TOTP plugin: RFC 6238 codes (SHA-1, 6 digits, 30 s; otplib's
 * `authenticator` = TOTP with a base32 secret), the otpauth URL and the recovery codes. No
 * database, no secrets kept.
 */

export const PERIOD_SECONDS = 30;
export const DIGITS = 6;
/** 20 bytes = 160 bits (RFC 4226 recommends at least 128). */
export const SECRET_BYTES = 20;

/** A new shared secret, base32 (32 characters for 160 bits). */
export function newSecret(): string {
  return authenticator.generateSecret(SECRET_BYTES);
}

/**
 * `otpauth://totp/<issuer>:<account>?secret=...&period=30&digits=6&algorithm=SHA1&issuer=...`
 * (otplib's keyuri; issuer and account URI-encoded).
 */
export function otpauthUrl(issuer: string, account: string, secret: string): string {
  return authenticator.clone({ step: PERIOD_SECONDS, digits: DIGITS }).keyuri(account, issuer, secret);
}

/** The time step (RFC 6238 T) of a Unix time in seconds. */
export function timeStep(epochSeconds: number): number {
  return Math.floor(epochSeconds / PERIOD_SECONDS);
}

/** A TOTP code as typed: digits with optional spaces ("123 456"); null when it is not one. */
export function normalizeTotpCode(code: string): string | null {
  const c = code.replace(/\s+/g, '');
  return new RegExp(`^\\d{${DIGITS}}$`).test(c) ? c : null;
}

/**
 * The time step a code belongs to, within `window` steps on each side of `epochSeconds` (default
 * now) and strictly after `lastStep` (replay: a step accepted once is never accepted again), or
 * null. The caller still records the step atomically (the database settles a race).
 */
export function matchStep(
  secret: string,
  code: string,
  opts: { window: number; lastStep?: number | null; epochSeconds?: number },
): number | null {
  const token = normalizeTotpCode(code);
  if (!token) {
    return null;
  }
  const epochSeconds = opts.epochSeconds ?? Date.now() / 1000;
  const checker = authenticator.clone({
    step: PERIOD_SECONDS,
    digits: DIGITS,
    window: opts.window,
    epoch: Math.floor(epochSeconds * 1000),
  });
  // Steps away from the current one (negative: past), null when no step of the window matches.
  const delta = checker.checkDelta(token, secret);
  if (delta === null) {
    return null;
  }
  const step = timeStep(epochSeconds) + delta;
  const lastStep = opts.lastStep ?? null;
  return lastStep !== null && step <= lastStep ? null : step;
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const RECOVERY_CHARS = 10;

/** `count` recovery codes `xxxxx-xxxxx` (10 base32 characters: 50 random bits each), distinct. */
export function generateRecoveryCodes(count: number): string[] {
  const codes = new Set<string>();
  while (codes.size < count) {
    const bytes = randomBytes(RECOVERY_CHARS);
    // 256 is a multiple of 32: every character is uniform.
    const chars = Array.from(bytes, (b) => BASE32[b & 31]).join('');
    codes.add(`${chars.slice(0, 5)}-${chars.slice(5)}`);
  }
  return [...codes];
}

/** A recovery code as typed, compared lower-case without dashes or spaces; null when it is not one. */
export function normalizeRecoveryCode(code: string): string | null {
  const c = code.toLowerCase().replace(/[\s-]+/g, '');
  return new RegExp(`^[a-z2-7]{${RECOVERY_CHARS}}$`).test(c) ? c : null;
}

/** What is stored of a recovery code: SHA-256 (hex) of its normalized form. */
export function hashRecoveryCode(code: string): string {
  const normalized = normalizeRecoveryCode(code) ?? code;
  return createHash('sha256').update(normalized).digest('hex');
}
