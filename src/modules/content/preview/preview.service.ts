import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ServiceError } from '../../../common/errors';
import { SVC_CONNECTION } from '../../../config/svc-options';
import { AccountsService } from '../../accounts/accounts.service';
import { TokensService } from '../../identity/tokens.service';
import { RbacService } from '../../rbac/rbac.service';
import { ContentAccessService } from '../content-access.service';
import type { Caller } from '../content-route';
import { type Definition, tableOf } from '../content.types';
import { DefinitionRegistry } from '../definition-registry';
import { EntriesRepository } from '../entries/entries.repository';
import { entryNotFound, withEntryErrors } from '../entries/entry-errors';
import type { PreviewGrant } from '../preview-grant';

/** How long a preview token lasts unless asked otherwise, and at most (seconds). */
export const PREVIEW_DEFAULT_SECONDS = 3600;
export const PREVIEW_MAX_SECONDS = 7 * 24 * 60 * 60;

export interface PreviewTokenAnswer {
  token: string;
  expiresAt: string;
  url?: string;
}

/**
 * Preview tokens: a signed-in editor who may read a definition's drafts gets a token naming one
 * entry (or a single); whoever holds it reads that entry's newest state, draft included, with no
 * other credentials, until it expires.
 *
 * Decisions:
 * - The token is stateless (a JWT with its own key, audience and `typ`: TokensService). It names
 *   its issuer and the issuer's account counter at issue; a password write or a deactivation
 *   raises the counter, so the token dies with them and a reactivation does not revive it. The
 *   account is read through AccountsService's cache (dropped at once on the instance that made
 *   the change, at most 5 s old elsewhere).
 * - The token also dies when its issuer no longer may read that definition's drafts (a role
 *   changed): it never shows more than its issuer could see.
 * - API keys cannot issue one: a key's revocation would not reach a token issued by it, so a
 *   token could outlive the key. Front-ends get tokens from an editor's session (the admin app).
 */
@Injectable()
export class PreviewService {
  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly tokens: TokensService,
    private readonly accounts: AccountsService,
    private readonly rbac: RbacService,
    private readonly access: ContentAccessService,
    private readonly repo: EntriesRepository,
    private readonly registry: DefinitionRegistry,
  ) {}

  /** A token for entry `entryId` of `def` (a single: its own id), valid `seconds` from now. */
  async issue(
    def: Definition,
    entryId: string,
    seconds: number,
    caller: Caller,
  ): Promise<PreviewTokenAnswer> {
    const auth = caller.auth;
    if (!auth) {
      throw new ServiceError('AUTH_REQUIRED', 'Sign in to get a preview token');
    }
    if (auth.apiKey) {
      throw new ServiceError('FORBIDDEN', 'Preview tokens are issued to signed-in users, not to API keys');
    }
    if (!this.access.mayReadDrafts(def, auth)) {
      throw new ServiceError('FORBIDDEN', `Previews need the permission read-${def.slug}`);
    }
    const found = await withEntryErrors(
      def,
      () => this.repo.existing(this.db.manager, tableOf(def), [entryId]),
      () => this.registry.invalidate(),
    );
    if (!found.has(entryId)) {
      throw entryNotFound();
    }
    const account = await this.accounts.getAccount(auth.user.id);
    if (!account?.is_active) {
      throw new ServiceError('AUTH_REQUIRED', 'The session has ended; sign in again');
    }
    const exp = Math.floor(Date.now() / 1000) + seconds;
    const token = this.tokens.signPreview({
      sub: account.id,
      ver: account.ver,
      kind: def.kind === 'single' ? 'single' : 'collection',
      slug: def.slug,
      entry: entryId,
      exp,
    });
    const template = def.preview?.url;
    return {
      token,
      expiresAt: new Date(exp * 1000).toISOString(),
      ...(template ? { url: previewUrl(template, { slug: def.slug, id: entryId, token }) } : {}),
    };
  }

  /**
   * The grant of a token presented to read entry `entryId` of `def` (a single: its own id), or
   * 401 AUTH_REQUIRED: not a preview token (an access or pending token, a forged or expired
   * one), a token for another entry, or one its issuer's account no longer backs.
   */
  async admit(token: string, def: Definition, entryId: string | undefined): Promise<PreviewGrant> {
    const claims = this.tokens.verifyPreview(token);
    if (!claims || claims.kind !== def.kind || claims.slug !== def.slug || claims.entry !== entryId) {
      throw new ServiceError('AUTH_REQUIRED', 'The preview token is not valid for this entry or has expired');
    }
    let account = await this.accounts.getAccount(claims.sub);
    if (account && claims.ver > account.ver) {
      // Issued after a password write made on another instance: the cached row is behind.
      this.accounts.reread(claims.sub);
      account = await this.accounts.getAccount(claims.sub);
    }
    const revoked = () =>
      new ServiceError('AUTH_REQUIRED', 'The preview token is no longer valid; ask for a new one');
    if (!account || !account.is_active || account.ver !== claims.ver) {
      throw revoked();
    }
    // As ContentAccessService.mayReadDrafts, for the issuer's current roles.
    const { isSuperAdmin, permissions } = await this.rbac.resolve(account.roles.map((r) => r.id));
    if (!isSuperAdmin && !permissions.includes(`read-${def.slug}`)) {
      throw revoked();
    }
    return { kind: claims.kind, slug: claims.slug, entry: claims.entry, issuer: claims.sub };
  }
}

/** The definition's preview page: `{slug}`, `{id}` and `{token}` filled in, each URL-encoded. */
export function previewUrl(template: string, values: { slug: string; id: string; token: string }): string {
  return template.replace(/\{(slug|id|token)\}/g, (_m, name: keyof typeof values) =>
    encodeURIComponent(values[name]),
  );
}
