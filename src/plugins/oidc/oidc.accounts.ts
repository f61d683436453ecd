import { ServiceError, type PluginContext } from '../api';
import { SignInFailure, type ProviderIdentity } from './oidc.client';
import type { ResolvedOidcOptions } from './oidc.options';
import type { OidcStore } from './oidc.store';

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MAX_EMAIL = 254;
const MAX_NAME = 200;

interface Profile {
  email: string | null;
  emailVerified: boolean;
  name: string;
}

const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/**
 * The address, whether the provider says it is verified, and a name: from the ID token, and from
 * userinfo when the ID token leaves the address or its verification out (many providers put the
 * `email` scope's claims in userinfo only). Only a literal `email_verified: true` counts, and only
 * for the address it comes with.
 */
async function profileOf(identity: ProviderIdentity): Promise<Profile> {
  const claims = identity.claims as Record<string, unknown>;
  let email = str(claims.email);
  let verified = email !== undefined && claims.email_verified === true;
  let info: Record<string, unknown> | null = null;
  if (email === undefined || claims.email_verified === undefined) {
    info = (await identity.userinfo()) as Record<string, unknown> | null;
    const infoEmail = str(info?.email);
    email ??= infoEmail;
    verified =
      email !== undefined &&
      infoEmail !== undefined &&
      infoEmail.toLowerCase() === email.toLowerCase() &&
      info?.email_verified === true;
  }
  const normalized = email?.toLowerCase();
  const usable = normalized !== undefined && normalized.length <= MAX_EMAIL && EMAIL.test(normalized);
  const given = [str(claims.given_name ?? info?.given_name), str(claims.family_name ?? info?.family_name)]
    .filter(Boolean)
    .join(' ');
  const name =
    str(claims.name) ??
    str(info?.name) ??
    (given || undefined) ??
    str(claims.preferred_username ?? info?.preferred_username) ??
    normalized?.split('@')[0] ??
    '';
  return {
    email: usable ? normalized : null,
    emailVerified: usable && verified,
    name: name.slice(0, MAX_NAME),
  };
}

/**
 * The account a provider subject signs in as (CONTRACTS 13.2.1, 14.6): the linked one; else, on a
 * first sign-in and only for an address the provider says is verified, the account with that
 * address (linked now), or with `allowSignup` a new account (linked now); else none (a
 * `SignInFailure`). An unverified claim never links or creates: otherwise whoever signs in first
 * with someone else's address would hold a way into the account its owner later proves. A link
 * made from an unverified address (before that rule) is dropped once the account's address is
 * verified another way, and the sign-in is a first one again. Never an id from the request.
 * Parallel first sign-ins of one subject end on one link: the link insert keeps the first, and a
 * sign-up that finds its address taken meanwhile starts over once.
 */
export async function accountFor(
  ctx: PluginContext,
  store: OidcStore,
  options: ResolvedOidcOptions,
  identity: ProviderIdentity,
): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const linked = await store.linkedUser(identity.sub);
    if (linked) {
      if (linked.emailVerified || !(await ctx.users.findById(linked.userId))?.emailVerified) {
        return linked.userId;
      }
      await store.unlinkUnverified(identity.sub, linked.userId);
      ctx.logger.warn(
        { userId: linked.userId },
        'link made from an unverified address dropped: the address has since been verified',
      );
    }
    const profile = await profileOf(identity);
    if (!profile.email) {
      throw new SignInFailure('first sign-in without a usable email address: no account to match or create');
    }
    if (!profile.emailVerified) {
      throw new SignInFailure(
        'first sign-in: the provider does not say the address is verified, so it is neither linked nor signed up',
      );
    }
    const existing = await ctx.users.findByEmail(profile.email);
    if (existing) {
      // An account whose address nobody proved may be someone else's pre-registration (its
      // password theirs): the owner proves the address (a reset link) before it is linked.
      if (!existing.emailVerified) {
        throw new SignInFailure(
          'first sign-in: an account has this address, but its address is not verified yet, so it is not linked',
        );
      }
      return store.link(identity.sub, existing.id);
    }
    if (!options.allowSignup) {
      throw new SignInFailure('first sign-in: no linked or matching account, and signup is off');
    }
    try {
      const created = await ctx.users.create({
        email: profile.email,
        name: profile.name,
        emailVerified: true,
        roles: options.defaultRoles,
      });
      ctx.logger.info({ userId: created.id }, 'account created by sign-in');
      return await store.link(identity.sub, created.id);
    } catch (e) {
      // The address was taken meanwhile (a parallel first sign-in): start over once.
      if (e instanceof ServiceError && e.code === 'DUPLICATE' && attempt < 2) {
        continue;
      }
      throw e;
    }
  }
}
