import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The sign-in transaction between `start` and `callback`: what the browser carries in the sealed
 * cookie `svc_oidc_<slug>` (state, nonce, PKCE verifier, next, expiry) and the pure checks on it.
 * The cookie is sealed with the plugin's own key (AES-256-GCM: neither readable nor changeable by
 * the browser); the state is also recorded, hashed, in `plugin_oidc_transactions` so it is used once.
 */

/** At most 10 minutes (CONTRACTS 13.2.1). */
export const TRANSACTION_TTL_SECONDS = 600;
export const DEFAULT_NEXT = '/admin';
export const SIGNIN_FAILED = '/admin/login?error=signin-failed';
/** A longer `next` is dropped (the cookie stays far below 4 KB). */
const MAX_NEXT_LENGTH = 1024;

export interface Transaction {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
  /** Unix seconds. */
  exp: number;
}

export const cookieName = (slug: string) => `svc_oidc_${slug}`;
export const cookiePath = (slug: string) => `/admin/api/plugins/${slug}`;

/** What is stored of a state: its SHA-256 (hex). */
export function hashState(state: string): string {
  return createHash('sha256').update(state).digest('hex');
}

/**
 * A `next` kept only when it is a path on this origin: one leading `/` (not `//`), no backslash,
 * no control character, not too long; anything else is the default `/admin`. `completeLogin`
 * narrows it further (only an admin page, never the API).
 */
export function sameOriginNext(value: unknown): string {
  if (
    typeof value !== 'string' ||
    value.length > MAX_NEXT_LENGTH ||
    !value.startsWith('/') ||
    value.startsWith('//') ||
    value.includes('\\') ||
    // eslint-disable-next-line no-control-regex -- control characters are what is refused
    /[\u0000-\u001f\u007f]/.test(value)
  ) {
    return DEFAULT_NEXT;
  }
  return value;
}

/** The cookie's plaintext (sealed by the caller). */
export function serializeTransaction(slug: string, tx: Transaction): string {
  return JSON.stringify({ v: 1, slug, s: tx.state, n: tx.nonce, cv: tx.verifier, nx: tx.next, exp: tx.exp });
}

/** The transaction of an opened cookie, or null when it is not one of this slug's or has expired. */
export function parseTransaction(slug: string, plaintext: string, nowSeconds: number): Transaction | null {
  let raw: unknown;
  try {
    raw = JSON.parse(plaintext);
  } catch {
    return null;
  }
  if (!raw || typeof raw !== 'object') {
    return null;
  }
  const o = raw as Record<string, unknown>;
  const strings = [o.s, o.n, o.cv, o.nx].every((v) => typeof v === 'string' && v !== '');
  if (o.v !== 1 || o.slug !== slug || !strings || typeof o.exp !== 'number' || o.exp <= nowSeconds) {
    return null;
  }
  return {
    state: o.s as string,
    nonce: o.n as string,
    verifier: o.cv as string,
    next: sameOriginNext(o.nx),
    exp: o.exp,
  };
}

/** Constant-time comparison of two strings. */
export function sameString(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
