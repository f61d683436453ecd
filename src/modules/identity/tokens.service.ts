import { createSecretKey, hkdfSync, KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import type { SessionUser } from '../../common/access/auth-context';
import { JWT_CLAIM_NAMES } from '../../fields';

export const ACCESS_TYP = 'at+jwt';
export const PENDING_TYP = 'svc-pending+jwt';
export const PREVIEW_TYP = 'svc-preview+jwt';
export const ISSUER = 'svc';
export const ACCESS_AUDIENCE = 'svc:admin';
export const PENDING_AUDIENCE = 'svc:pending';
export const PREVIEW_AUDIENCE = 'svc-preview';
/** Fixed lifetimes (SPEC 8). */
export const ACCESS_TTL_SECONDS = 15 * 60;
export const DIRECT_ACCESS_TTL_SECONDS = 30 * 24 * 60 * 60;
export const REFRESH_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const MAX_VERIFIED_TOKENS = 10_000;

/** Claims of an access token (CONTRACTS 3.2). Configured user fields ride along. */
export interface AccessClaims {
  sub: string;
  email: string;
  name: string;
  roleIds: string[];
  ver: number;
  /** The session (CONTRACTS 14.1); absent from in-process (direct) tokens, which have none. */
  sid?: string;
  iat: number;
  exp: number;
  iss: string;
  aud: string;
  [customField: string]: unknown;
}

const RESERVED_CLAIMS = new Set(JWT_CLAIM_NAMES);

/**
 * What a preview token names: one entry of a collection (or a single, `entry` being the single's
 * id) and its issuer (`sub`) with the issuer's account counter when it was issued (`ver`): a
 * password write or a deactivation raises the counter, so the token dies with them for good.
 */
export interface PreviewClaims {
  sub: string;
  ver: number;
  kind: 'collection' | 'single';
  slug: string;
  entry: string;
  iat: number;
  exp: number;
}

/**
 * Signs and verifies the service's JWTs (access, pending and preview tokens). Each kind has its own key
 * derived from SVC_SECRET (HKDF) and its own audience and `typ`, so no token can pass for another
 * kind. In identity, beside the guard that verifies access tokens on every request; the sessions
 * (auth) sign through it. Opaque tokens (refresh, emailed links) are `newHashedToken` in
 * common/crypto.
 */
@Injectable()
export class TokensService {
  private readonly jwt = new JwtService({});
  // KeyObjects, not raw bytes: jsonwebtoken would otherwise build a KeyObject on every call,
  // which was a fifth of the CPU time of an authenticated request. (@nestjs/jwt types the secret
  // as string | Buffer but hands it to jsonwebtoken unchanged, which accepts a KeyObject.)
  private readonly accessKey: Buffer;
  readonly pendingKey: Buffer;
  private readonly previewKey: Buffer;

  /**
   * Access tokens whose signature and claims were checked already (token -> claims), so a
   * session's later requests skip the HMAC and JSON work. A token is immutable, so its verdict
   * cannot go stale; expiry is still checked on every use, and revocation is the account
   * check's job. Bound: 10,000 tokens, oldest evicted first.
   */
  private readonly verified = new Map<string, AccessClaims>();

  constructor(@Inject(SVC_OPTIONS) private readonly options: SvcOptions) {
    this.accessKey = deriveKey(options.secret, 'svc access token');
    this.pendingKey = deriveKey(options.secret, 'svc pending token');
    this.previewKey = deriveKey(options.secret, 'svc preview token');
  }

  /** An access token for this account; `direct` is the 30-day in-process token (no `typ` yet, SPEC 5.2.5). */
  signAccess(
    user: SessionUser,
    ver: number,
    opts: { direct?: boolean } = {},
  ): { token: string; exp: number } {
    return this.signClaims(this.accessClaims(user, ver, opts), opts);
  }

  /**
   * The claims core builds for an access token (CONTRACTS 3.2): configured user fields, then the
   * identity, `roleIds`, `ver`, `iat` and `exp` (plugins may add to them: `customizeClaims`).
   */
  accessClaims(
    user: SessionUser,
    ver: number,
    opts: { direct?: boolean; sid?: string } = {},
  ): Record<string, unknown> {
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + (opts.direct ? DIRECT_ACCESS_TTL_SECONDS : ACCESS_TTL_SECONDS);
    const claims: Record<string, unknown> = {};
    for (const field of this.options.config.users.fields) {
      const value = user[field.name];
      if (value !== undefined && !RESERVED_CLAIMS.has(field.name)) {
        claims[field.name] = value;
      }
    }
    return Object.assign(claims, {
      sub: user.id,
      email: user.email,
      name: user.name,
      roleIds: user.roleIds,
      ver,
      ...(opts.sid ? { sid: opts.sid } : {}),
      iat,
      exp,
    });
  }

  /** Signs claims from `accessClaims` (with a plugin's additions) as an access token. */
  signClaims(
    claims: Record<string, unknown>,
    opts: { direct?: boolean } = {},
  ): { token: string; exp: number } {
    const token = this.jwt.sign(claims, {
      secret: this.accessKey,
      algorithm: 'HS256',
      issuer: ISSUER,
      audience: ACCESS_AUDIENCE,
      // jsonwebtoken adds `typ: "JWT"` unless told otherwise: an explicit undefined leaves it out.
      header: { alg: 'HS256', typ: opts.direct ? undefined : ACCESS_TYP },
    });
    return { token, exp: claims.exp as number };
  }

  /** The claims of a valid access token, or null (bad signature, expired, wrong audience or `typ`). */
  verifyAccess(token: string): AccessClaims | null {
    const known = this.verified.get(token);
    if (known) {
      return known.exp * 1000 > Date.now() ? known : null;
    }
    const claims = this.verifyAccessToken(token);
    if (claims) {
      if (this.verified.size >= MAX_VERIFIED_TOKENS) {
        this.verified.delete(this.verified.keys().next().value as string);
      }
      this.verified.set(token, claims);
    }
    return claims;
  }

  private verifyAccessToken(token: string): AccessClaims | null {
    try {
      const { header, payload } = this.jwt.verify<{ header: { typ?: string }; payload: AccessClaims }>(
        token,
        {
          secret: this.accessKey,
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: ACCESS_AUDIENCE,
          complete: true,
        },
      );
      // No `typ` is still accepted in this release (SPEC 5.2.5); any other `typ` is not an access token.
      if (header.typ !== undefined && header.typ !== ACCESS_TYP) {
        return null;
      }
      if (
        typeof payload.sub !== 'string' ||
        typeof payload.ver !== 'number' ||
        !Array.isArray(payload.roleIds) ||
        (payload.sid !== undefined && typeof payload.sid !== 'string')
      ) {
        return null;
      }
      return payload;
    } catch {
      return null;
    }
  }

  /**
   * A pending token (CONTRACTS 3.2): proves only that this login paused at a step; its `jti` names
   * the pending_logins row that enforces single use and the attempt cap.
   */
  signPending(userId: string, jti: string, expiresAt: Date): string {
    return this.jwt.sign(
      { sub: userId, jti, exp: Math.floor(expiresAt.getTime() / 1000) },
      {
        secret: this.pendingKey,
        algorithm: 'HS256',
        issuer: ISSUER,
        audience: PENDING_AUDIENCE,
        header: { alg: 'HS256', typ: PENDING_TYP },
      },
    );
  }

  verifyPending(token: string): { sub: string; jti: string } | null {
    try {
      const { header, payload } = this.jwt.verify<{
        header: { typ?: string };
        payload: { sub: unknown; jti: unknown };
      }>(token, {
        secret: this.pendingKey,
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: PENDING_AUDIENCE,
        complete: true,
      });
      if (header.typ !== PENDING_TYP || typeof payload.sub !== 'string' || typeof payload.jti !== 'string') {
        return null;
      }
      return { sub: payload.sub, jti: payload.jti };
    } catch {
      return null;
    }
  }

  /** A preview token: read access to one entry's newest state, draft included, until `exp`. */
  signPreview(claims: Omit<PreviewClaims, 'iat'>): string {
    const { sub, ver, kind, slug, entry, exp } = claims;
    return this.jwt.sign(
      { sub, ver, kind, slug, entry, iat: Math.floor(Date.now() / 1000), exp },
      {
        secret: this.previewKey,
        algorithm: 'HS256',
        issuer: ISSUER,
        audience: PREVIEW_AUDIENCE,
        header: { alg: 'HS256', typ: PREVIEW_TYP },
      },
    );
  }

  /** The claims of a valid preview token, or null (bad signature, expired, another kind of token). */
  verifyPreview(token: string): PreviewClaims | null {
    try {
      const { header, payload } = this.jwt.verify<{
        header: { typ?: string };
        payload: Record<string, unknown>;
      }>(token, {
        secret: this.previewKey,
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: PREVIEW_AUDIENCE,
        complete: true,
      });
      if (
        header.typ !== PREVIEW_TYP ||
        typeof payload.sub !== 'string' ||
        typeof payload.ver !== 'number' ||
        (payload.kind !== 'collection' && payload.kind !== 'single') ||
        typeof payload.slug !== 'string' ||
        typeof payload.entry !== 'string' ||
        typeof payload.exp !== 'number'
      ) {
        return null;
      }
      return payload as unknown as PreviewClaims;
    } catch {
      return null;
    }
  }
}

function deriveKey(secret: string, label: string): Buffer {
  const key: KeyObject = createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'svc', label, 32)));
  return key as unknown as Buffer;
}
