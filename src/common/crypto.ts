import { hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The small crypto helpers more than one module uses (token hashes, opaque tokens, secret
 * comparison), in one place so no module reaches into another's internals for them.
 */

/** One-shot `crypto.hash`: a quarter of the CPU of a Hash object (every API-key request hashes). */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

/** 32 random bytes, base64url: the secret of every opaque token (links, refresh, CSRF, API keys). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A single-use opaque token (32 random bytes) whose SHA-256 alone is stored, with its expiry. */
export function newHashedToken(ttlMs: number): { token: string; hash: string; expiresAt: Date } {
  const token = randomToken();
  return { token, hash: sha256Hex(token), expiresAt: new Date(Date.now() + ttlMs) };
}

/** Constant-time comparison (lengths are compared first; the token length is not a secret). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
