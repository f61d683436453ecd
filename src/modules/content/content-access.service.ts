import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { andThen, type Awaitable } from '../../common/cache';
import { ServiceError } from '../../common/errors';
import type { AuthContext } from '../../common/access/auth-context';
import type { ContentAction, Definition } from './content.types';

/**
 * Who may do what with a collection or single (SPEC 5.4.2). A code-defined rule for the action
 * decides: `true` lets anyone in, visitors included; `false` nobody (over HTTP); a function of
 * `{ user, auth, action, req }` answers for the caller (it checks the permission itself and may
 * narrow further). Without a rule the permission `<action>-<slug>` decides; super-admins pass.
 * Nothing here looks at role names, so a custom role or an API key holding the permission passes.
 */
@Injectable()
export class ContentAccessService {
  async can(
    def: Definition,
    action: ContentAction,
    auth: AuthContext | null,
    req: Request,
  ): Promise<boolean> {
    const rule = def.access[action];
    if (typeof rule === 'boolean') {
      return rule;
    }
    if (typeof rule === 'function') {
      return (await rule({ user: auth?.user ?? null, auth, action, req })) === true;
    }
    return this.allows(def, action, auth);
  }

  /** `can` without a rule function: a fixed rule or the permission decides. */
  private allows(def: Definition, action: ContentAction, auth: AuthContext | null): boolean {
    const rule = def.access[action];
    if (typeof rule === 'boolean') {
      return rule;
    }
    return auth !== null && (auth.isSuperAdmin || auth.permissions.includes(`${action}-${def.slug}`));
  }

  /**
   * Drafts (CONTRACTS 12): an access rule decides published entries only; drafts also need the
   * `read-<slug>` permission held through roles or the key, or a super-admin. So opening a
   * collection to visitors (`read: true`) or letting a rule function pass never shows drafts.
   */
  mayReadDrafts(def: Definition, auth: AuthContext | null): boolean {
    return auth !== null && (auth.isSuperAdmin || auth.permissions.includes(`read-${def.slug}`));
  }

  /** `publish-<slug>` held through roles or the key, or a super-admin (no access rule opens it). */
  mayPublish(def: Definition, auth: AuthContext | null): boolean {
    return auth !== null && (auth.isSuperAdmin || auth.permissions.includes(`publish-${def.slug}`));
  }

  /** Whether the caller may see this entry in full: read access, and drafts as above. */
  async maySee(
    def: Definition,
    entry: { status?: unknown },
    auth: AuthContext | null,
    req: Request,
  ): Promise<boolean> {
    if (def.drafts && entry.status !== 'published' && !this.mayReadDrafts(def, auth)) {
      return false;
    }
    return this.can(def, 'read', auth, req);
  }

  /**
   * Throws 401 for a visitor, 403 for a caller, when `can` says no: at once unless a rule
   * function decides (every request of a content route asks).
   */
  require(def: Definition, action: ContentAction, auth: AuthContext | null, req: Request): Awaitable<void> {
    const decided =
      typeof def.access[action] === 'function'
        ? this.can(def, action, auth, req)
        : this.allows(def, action, auth);
    return andThen(decided, (allowed) => {
      if (allowed) {
        return;
      }
      if (!auth) {
        throw new ServiceError('AUTH_REQUIRED', 'Sign in to use this route');
      }
      throw new ServiceError('FORBIDDEN', `This needs the permission ${action}-${def.slug}`);
    });
  }
}
