import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ServiceError } from '../../common/errors';
import { SVC_CONNECTION } from '../../config/svc-options';
import { PendingLoginRow, PendingLoginsRepository } from './pending-logins.repository';
import { TokensService } from '../identity/tokens.service';
import { MFA_ENROL } from '../plugins/plugin.types';

/** CONTRACTS 3.2: a pending token lives 10 minutes and allows 5 wrong answers. */
export const PENDING_TTL_MS = 10 * 60 * 1000;
export const PENDING_MAX_ATTEMPTS = 5;
export const SET_INITIAL_PASSWORD = 'set-initial-password';

export interface PendingChallenge {
  challengeType: string;
  pendingToken: string;
  uiHint: string | null;
  expiresAt: Date;
}

const SPENT = () =>
  new ServiceError('AUTH_INVALID_CREDENTIALS', 'This sign-in step is not valid any more; sign in again');

/**
 * Paused logins (a plugin's second factor, a forced password change). The JWT only names a
 * pending_logins row; the row enforces single use, expiry and the attempt cap, so a token can
 * never be replayed and is never a session.
 */
@Injectable()
export class PendingLoginsService {
  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: PendingLoginsRepository,
    private readonly tokens: TokensService,
  ) {}

  async start(
    em: EntityManager,
    p: {
      userId: string;
      kind: string;
      strategy: string;
      uiHint?: string | null;
      accountVer: number;
      /** The account's step counter the proofs so far were made under. */
      stepVer: number;
      /** A second factor is among the proofs so far. */
      multiFactor?: boolean;
    },
  ): Promise<PendingChallenge> {
    const expiresAt = new Date(Date.now() + PENDING_TTL_MS);
    const id = await this.repo.insertPendingLogin(em, {
      userId: p.userId,
      kind: p.kind,
      strategy: p.strategy,
      maxAttempts: PENDING_MAX_ATTEMPTS,
      expiresAt,
      accountVer: p.accountVer,
      stepVer: p.stepVer,
      multiFactor: p.multiFactor ?? false,
    });
    return {
      challengeType: p.kind,
      pendingToken: this.tokens.signPending(p.userId, id, expiresAt),
      uiHint: p.uiHint ?? null,
      expiresAt,
    };
  }

  /**
   * The outstanding step of a pending token, or null when there is none (invalid, used, expired,
   * spent, or voided by a password write, a deactivation or the end of all sessions).
   */
  async describe(
    token: string | undefined,
  ): Promise<{ row: PendingLoginRow; attemptsRemaining: number } | null> {
    const claims = token ? this.tokens.verifyPending(token) : null;
    if (!claims) {
      return null;
    }
    const row = await this.repo.findPendingLogin(this.db.manager, claims.jti);
    if (!row || row.user_id !== claims.sub || row.completed_at || row.expires_at.getTime() <= Date.now()) {
      return null;
    }
    const attemptsRemaining = Math.max(0, row.max_attempts - row.attempts);
    return attemptsRemaining > 0 ? { row, attemptsRemaining } : null;
  }

  /** Uses the token once for a step of `kind`, inside the caller's transaction. */
  complete(em: EntityManager, token: string | undefined, kind: string): Promise<PendingLoginRow> {
    return this.use(em, token, { is: kind });
  }

  /**
   * Uses the token once for a plugin's challenge: any step but the forced password change and the
   * second-factor enrolment (which only the enrolment routes of a second-factor plugin take).
   */
  completeChallenge(em: EntityManager, token: string | undefined): Promise<PendingLoginRow> {
    return this.use(em, token, { isNot: [SET_INITIAL_PASSWORD, MFA_ENROL] });
  }

  /**
   * After a wrong answer: the same step under a new token (the used one is spent), one attempt
   * fewer, the same expiry; null once the cap is reached (the flow ends; the account is not locked).
   */
  async retry(
    em: EntityManager,
    used: PendingLoginRow,
  ): Promise<{ pendingToken: string; attemptsRemaining: number } | null> {
    const attempts = used.attempts + 1;
    if (attempts >= used.max_attempts || used.expires_at.getTime() <= Date.now()) {
      return null;
    }
    const id = await this.repo.insertPendingLogin(em, {
      userId: used.user_id,
      kind: used.kind,
      strategy: used.strategy,
      maxAttempts: used.max_attempts,
      expiresAt: used.expires_at,
      accountVer: used.account_ver,
      stepVer: used.step_ver ?? -1,
      multiFactor: used.multi_factor,
      attempts,
    });
    return {
      pendingToken: this.tokens.signPending(used.user_id, id, used.expires_at),
      attemptsRemaining: used.max_attempts - attempts,
    };
  }

  private async use(
    em: EntityManager,
    token: string | undefined,
    kind: { is: string } | { isNot: string[] },
  ): Promise<PendingLoginRow> {
    const claims = token ? this.tokens.verifyPending(token) : null;
    if (!claims) {
      throw SPENT();
    }
    const row = await this.repo.completePendingLogin(em, claims.jti, kind);
    if (!row || row.user_id !== claims.sub) {
      throw SPENT();
    }
    return row;
  }
}
