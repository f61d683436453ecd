import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AuthContext } from '../../common/access/auth-context';
import { ServiceError } from '../../common/errors';
import { listRecord, type ListRecord } from '../../common/pagination';
import { SVC_CONNECTION } from '../../config/svc-options';
import { AccountsService } from '../accounts/accounts.service';
import { UsersAdminService } from '../accounts/users-admin.service';
import { AuditService } from '../audit/audit.service';
import { CredentialsRepository, type SessionRow } from './credentials.repository';

/** A session as CONTRACTS 14.1 answers it. */
export interface SessionRecord {
  id: string;
  current: boolean;
  strategy: string;
  ip: string | null;
  userAgent: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The sessions a user can see and end (CONTRACTS 14.1): each one sign-in, live while its refresh
 * token chain is. Ending one deletes its rows with the account row locked, so a rotation racing
 * the end either commits first (and its new row is deleted too) or finds its token gone; the
 * account check then refuses the session's access tokens (at once here, 10 s elsewhere).
 */
@Injectable()
export class SessionsService {
  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly credentials: CredentialsRepository,
    private readonly accounts: AccountsService,
    private readonly usersAdmin: UsersAdminService,
    private readonly audit: AuditService,
  ) {}

  /** The caller's live sessions, newest first (`current` marks the caller's). */
  async mine(auth: AuthContext): Promise<ListRecord<SessionRecord>> {
    return this.list(auth.user.id, auth.sessionId);
  }

  /** An administrator's view of a user's sessions (`current` always false). */
  async ofUser(userId: string): Promise<ListRecord<SessionRecord>> {
    if (!UUID.test(userId) || !(await this.accounts.loadAccount(this.db.manager, userId))) {
      throw new ServiceError('NOT_FOUND', 'No such user');
    }
    return this.list(userId, undefined);
  }

  /** Ends one of the caller's sessions; another user's id or an ended session is NOT_FOUND. */
  async endMine(auth: AuthContext, sessionId: string, ip: string | null): Promise<void> {
    const userId = auth.user.id;
    const ended = UUID.test(sessionId)
      ? await this.db.transaction(async (em) => {
          await this.credentials.lockAccountSessions(em, userId);
          return this.end(em, auth, userId, [sessionId], undefined, ip, 'ended-by-owner');
        })
      : [];
    if (!ended.length) {
      throw new ServiceError('NOT_FOUND', 'No such session');
    }
    this.accounts.invalidate(userId);
  }

  assertRecentSignIn(auth: AuthContext): Promise<void> {
    return this.accounts.assertRecentSignIn(auth);
  }

  /**
   * Ends every session of the caller but the current one; answers how many ended. Paused
   * sign-ins and emailed sign-in links of the account die too (CONTRACTS 14.6).
   */
  async endOthers(auth: AuthContext, ip: string | null): Promise<number> {
    const userId = auth.user.id;
    const ended = await this.db.transaction(async (em) => {
      await this.credentials.lockAccountSessions(em, userId);
      await this.accounts.voidSteps(em, userId);
      return this.end(em, auth, userId, null, auth.sessionId, ip, 'ended-by-owner');
    });
    this.forgetIfEnded(userId, ended);
    return ended.length;
  }

  /** An administrator ends all of a user's sessions (the super-admin rules of users apply). */
  async endAllOfUser(auth: AuthContext, userId: string, ip: string | null): Promise<number> {
    if (!UUID.test(userId)) {
      throw new ServiceError('NOT_FOUND', 'No such user');
    }
    const ended = await this.usersAdmin.whileManageable(auth, userId, async (em) => {
      await this.accounts.voidSteps(em, userId);
      return this.end(em, auth, userId, null, undefined, ip, 'ended-by-administrator');
    });
    this.forgetIfEnded(userId, ended);
    return ended.length;
  }

  /** After the commit: this instance and the others forget the account's cached sessions. */
  private forgetIfEnded(userId: string, ended: string[]): void {
    if (ended.length) {
      this.accounts.invalidate(userId);
    }
  }

  private async end(
    em: EntityManager,
    auth: AuthContext,
    userId: string,
    ids: string[] | null,
    keep: string | undefined,
    ip: string | null,
    reason: string,
  ): Promise<string[]> {
    const ended = await this.credentials.endSessions(em, userId, ids, keep);
    for (const id of ended) {
      await this.audit.record(
        {
          event: 'session-ended',
          actorId: auth.user.id,
          target: `user:${userId}`,
          metadata: { sessionId: id, reason },
          ip,
        },
        em,
      );
    }
    return ended;
  }

  private async list(userId: string, current: string | undefined): Promise<ListRecord<SessionRecord>> {
    const sessions = (await this.credentials.liveSessions(this.db.manager, userId)).map((s) =>
      toRecord(s, current),
    );
    return listRecord(sessions, sessions.length, { page: 1, limit: Math.max(sessions.length, 1) });
  }
}

function toRecord(s: SessionRow, current: string | undefined): SessionRecord {
  return {
    id: s.id,
    current: s.id === current,
    strategy: s.strategy,
    ip: s.ip,
    userAgent: s.user_agent,
    createdAt: s.created_at,
    lastUsedAt: s.last_used_at,
    expiresAt: s.expires_at,
  };
}
