import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newHashedToken, sha256Hex } from '../../common/crypto';
import { ServiceError } from '../../common/errors';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { isUniqueViolation } from '../../database/pg-errors';
import { AccountMailJob } from '../../jobs/account-mail.job';
import { AuditService } from '../audit/audit.service';
import { AUDIT_EVENTS } from '../audit/audit.types';
import { AccountTokenKind, AccountTokensRepository } from './account-tokens.repository';
import { AccountsService } from './accounts.service';
import type { AccountState } from './accounts.types';
import { hashPassword, verifyPassword } from './passwords';
import { UsersRepository } from './users.repository';
import { UserEvents } from './user-events.service';

const HOUR = 60 * 60 * 1000;
/** Lifetimes of emailed links (SPEC 8: 24 h for reset; issue 4: 48 h verification, 7 days invites). */
export const ACCOUNT_TOKEN_TTL_MS: Record<AccountTokenKind, number> = {
  'verify-email': 48 * HOUR,
  'reset-password': 24 * HOUR,
  invite: 7 * 24 * HOUR,
};
/** Emailed links: `${NEXT_PUBLIC_APP_URL}/admin/<action>?token=<raw token>` (CONTRACTS 3.4). */
const LINK_ACTION: Record<AccountTokenKind, string> = {
  'verify-email': 'verify-email',
  'reset-password': 'reset-password',
  invite: 'accept-invite',
};

/**
 * The floor of `/auth/register`, `/auth/verify-email/resend` and `/auth/forgot-password` (held by
 * `responseFloor` in SvcModule), so an existing address cannot be told from an unknown one by
 * time. The most work behind any of them is register's: one bcrypt(12) hash (about 210 ms on the
 * 2-core reference machine, done for a taken address too), then one transaction that, for a new
 * address only, writes the user, its link, the audit row and the mail job (10-30 ms more). 600 ms
 * is nearly three times that, so a machine busy enough to double it still answers at the floor.
 */
export const ACCOUNT_ANSWER_FLOOR_MS = 600;

/** One message for every bad link, whatever the reason (CONTRACTS 3.3). */
const BAD_LINK = () => new ServiceError('INVALID_INPUT', 'This link is invalid or has expired');

/**
 * Account lifecycle (SPEC 3.1, 5.6): registration, verification, password reset and change,
 * invitations and administrator-set passwords. The forced first password ends in a session, so the
 * sessions drive it (AuthService.setInitialPassword, through `writePassword`). Every password
 * write hashes with bcrypt(12), raises the account counter, deletes the refresh tokens and queues
 * the `password-changed` email in one transaction. Every email is a job queued in the transaction
 * that issued its link (AccountMailJob): it exists exactly when the token does, and survives a
 * crash.
 */
@Injectable()
export class AccountLifecycleService {
  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
    private readonly accounts: AccountsService,
    private readonly users: UsersRepository,
    private readonly tokenRows: AccountTokensRepository,
    private readonly audit: AuditService,
    private readonly mail: AccountMailJob,
    private readonly events: UserEvents,
  ) {}

  /**
   * Public registration. Unless `auth.revealRegistrationConflict`, a taken address gets exactly
   * the answer a new one gets, after the same bcrypt work and lookup; both answers are held to the
   * same floor (ACCOUNT_ANSWER_FLOOR_MS), so the extra writes cannot be timed.
   */
  async register(
    input: { email: string; name: string; password: string },
    client: { ip: string | null },
  ): Promise<string | null> {
    const passwordHash = await hashPassword(input.password);
    const created = await this.db
      .transaction(async (em): Promise<string | null> => {
        if (await this.accounts.findByEmail(em, input.email)) {
          return null;
        }
        const id = await this.accounts.createUser(em, {
          email: input.email,
          name: input.name,
          passwordHash,
          verified: false,
        });
        const link = await this.issueToken(em, id, 'verify-email');
        await this.audit.record({ event: 'register', actorId: id, target: `user:${id}`, ip: client.ip }, em);
        await this.events.report(em, ['user.created'], id);
        await this.mail.enqueue(em, { template: 'verify-email', to: input.email, name: input.name, link });
        return id;
      })
      .catch((e: unknown) => {
        // Two registrations of one address at once: the unique index decides; the loser looks taken.
        if (isUniqueViolation(e)) {
          return null;
        }
        throw e;
      });
    if (!created) {
      if (this.options.config.auth.revealRegistrationConflict) {
        throw new ServiceError('DUPLICATE', 'An account with this email address already exists');
      }
      return null;
    }
    this.mail.wake();
    return created;
  }

  /** Verifies the address; a deactivated account's address is verified too, and nothing is sent. */
  async verifyEmail(token: string): Promise<void> {
    await this.db.transaction(async (em) => {
      const userId = await this.tokenRows.consume(em, sha256Hex(token), 'verify-email');
      if (!userId) {
        throw BAD_LINK();
      }
      await this.users.markVerified(em, userId);
      await this.accounts.invalidateIn(em, userId);
    });
  }

  /**
   * Always answers the same; a new link only for an existing, active, unverified account. Any
   * address gets the same transaction and lookup, and the answer is held to a floor
   * (ACCOUNT_ANSWER_FLOOR_MS), so the link's writes cannot be timed; the email goes after it.
   */
  async resendVerification(email: string): Promise<void> {
    await this.issueAndMail(email, 'verify-email', (a) => !a.email_verified_at && a.is_active);
  }

  /** Always answers the same, in the same time (as `resendVerification`). */
  async forgotPassword(email: string): Promise<void> {
    await this.issueAndMail(email, 'reset-password', (a) => a.is_active);
  }

  /** A new link for the account of `email` when `eligible`, its email queued in the same transaction. */
  private async issueAndMail(
    email: string,
    kind: 'verify-email' | 'reset-password',
    eligible: (account: AccountState) => boolean,
  ): Promise<void> {
    const queued = await this.db.transaction(async (em) => {
      const account = await this.accounts.findByEmail(em, email);
      if (!account || !eligible(account)) {
        return false;
      }
      const link = await this.issueToken(em, account.id, kind);
      await this.mail.enqueue(em, { template: kind, to: account.email, name: account.name, link });
      return true;
    });
    if (queued) {
      this.mail.wake();
    }
  }

  async resetPassword(token: string, password: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    const account = await this.db.transaction(async (em) => {
      const userId = await this.tokenRows.consume(em, sha256Hex(token), 'reset-password');
      const account = userId ? await this.accounts.loadAccount(em, userId) : null;
      if (!account || !account.is_active) {
        throw BAD_LINK();
      }
      // The emailed link proves the address.
      await this.writePassword(em, account.id, passwordHash, {
        mustChange: false,
        markVerified: true,
        audit: { event: AUDIT_EVENTS.passwordReset, metadata: { via: 'reset-link' } },
      });
      await this.queuePasswordChanged(em, account);
      return account;
    });
    this.passwordChanged(account);
  }

  /** The signed-in user's own change: the current password is checked; every session ends. */
  async changePassword(userId: string, currentPassword: string, newPassword: string): Promise<void> {
    const account = await this.users.findAccountById(this.db.manager, userId);
    if (!account || !(await verifyPassword(currentPassword, account.password_hash))) {
      throw new ServiceError('INVALID_INPUT', 'The current password is not correct', {
        errors: [{ path: 'currentPassword', code: 'incorrect', message: 'currentPassword is not correct' }],
      });
    }
    const passwordHash = await hashPassword(newPassword);
    await this.db.transaction(async (em) => {
      await this.writePassword(em, userId, passwordHash, {
        mustChange: false,
        markVerified: false,
        audit: { metadata: { via: 'self' } },
      });
      await this.queuePasswordChanged(em, account);
    });
    this.passwordChanged(account);
  }

  /**
   * Invites an account without a password (7-day link); used by `POST /users` with `sendInvite`.
   * The link and its email are written in the caller's transaction when given one (else in one of
   * their own), so the email goes exactly when that transaction commits; `send()` after the
   * commit starts it at once (without it, the worker's next poll sends it).
   */
  async invite(userId: string, em?: EntityManager): Promise<{ send: () => void }> {
    const queue = async (tx: EntityManager) => {
      const account = await this.accounts.loadAccount(tx, userId);
      if (!account) {
        throw new ServiceError('NOT_FOUND', 'No such user');
      }
      const link = await this.issueToken(tx, userId, 'invite');
      await this.mail.enqueue(tx, { template: 'invite', to: account.email, name: account.name, link });
    };
    await (em ? queue(em) : this.db.transaction(queue));
    return { send: () => this.mail.wake() };
  }

  /** Sets the password from an invite link; the address counts as verified. */
  async acceptInvite(token: string, password: string, name?: string): Promise<void> {
    const passwordHash = await hashPassword(password);
    const account = await this.db.transaction(async (em) => {
      const userId = await this.tokenRows.consume(em, sha256Hex(token), 'invite');
      const account = userId ? await this.accounts.loadAccount(em, userId) : null;
      if (!account || !account.is_active) {
        throw BAD_LINK();
      }
      await this.writePassword(em, account.id, passwordHash, {
        mustChange: false,
        markVerified: true,
        audit: { metadata: { via: 'invite' } },
      });
      if (name) {
        await this.accounts.setProfile(em, account.id, { name });
      }
      await this.queuePasswordChanged(em, account);
      return account;
    });
    this.passwordChanged(account);
  }

  /** An administrator sets a password (`PATCH /users/{id}/password`); it may have to be replaced at next sign-in. */
  /**
   * `lockTarget` locks and answers the account inside the write (or throws: unknown, not
   * manageable by the caller), so the caller's permission check and the write are one decision.
   */
  async setPasswordByAdmin(
    userId: string,
    password: string,
    requirePasswordChange: boolean,
    lockTarget: (em: EntityManager) => Promise<AccountState> = (em) => this.lockExisting(em, userId),
    actorId: string | null = null,
  ): Promise<void> {
    const passwordHash = await hashPassword(password);
    const account = await this.db.transaction(async (em) => {
      const account = await lockTarget(em);
      await this.writePassword(em, userId, passwordHash, {
        mustChange: requirePasswordChange,
        markVerified: false,
        audit: { actorId, metadata: { via: 'admin', requirePasswordChange } },
      });
      await this.queuePasswordChanged(em, account);
      return account;
    });
    this.passwordChanged(account);
  }

  /**
   * Every password write: hash, flag, counter raised, refresh tokens and open reset links gone.
   * In the caller's transaction, followed there by `queuePasswordChanged` and after the commit by
   * `passwordChanged`. Audited in the same transaction: `password-changed` by default (the
   * account itself acting), or what `opts.audit` says (`password-reset`, an administrator as
   * actor); the metadata says how (`via`), never anything of the password.
   */
  async writePassword(
    em: EntityManager,
    userId: string,
    hash: string,
    opts: {
      mustChange: boolean;
      markVerified: boolean;
      audit?: { event?: string; actorId?: string | null; metadata?: Record<string, unknown> };
    },
  ): Promise<void> {
    await this.users.setPassword(em, userId, {
      hash,
      mustChange: opts.mustChange,
      markVerified: opts.markVerified,
    });
    await this.accounts.revokeSessions(em, userId);
    await this.tokenRows.closeOpen(em, userId, 'reset-password');
    await this.audit.record(
      {
        event: opts.audit?.event ?? AUDIT_EVENTS.passwordChanged,
        actorId: opts.audit?.actorId ?? userId,
        target: `user:${userId}`,
        metadata: opts.audit?.metadata ?? {},
      },
      em,
    );
    await this.events.report(em, ['user.password-changed'], userId);
  }

  private async lockExisting(em: EntityManager, userId: string): Promise<AccountState> {
    const account = await this.accounts.lockAccount(em, userId);
    if (!account) {
      throw new ServiceError('NOT_FOUND', 'No such user');
    }
    return account;
  }

  private async issueToken(em: EntityManager, userId: string, kind: AccountTokenKind): Promise<string> {
    const t = newHashedToken(ACCOUNT_TOKEN_TTL_MS[kind]);
    await this.tokenRows.issue(em, { userId, kind, hash: t.hash, expiresAt: t.expiresAt });
    return `${this.options.publicUrl}/admin/${LINK_ACTION[kind]}?token=${encodeURIComponent(t.token)}`;
  }

  /** In the password write's transaction: the `password-changed` email exists when the new password does. */
  queuePasswordChanged(em: EntityManager, account: AccountState): Promise<void> {
    return this.mail.enqueue(em, { template: 'password-changed', to: account.email, name: account.name });
  }

  /** After a password write committed: the account cache and the queued email. */
  passwordChanged(account: AccountState): void {
    this.accounts.invalidate(account.id);
    this.mail.wake();
  }
}
