import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthContext } from '../../common/access/auth-context';
import { ServiceError } from '../../common/errors';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { AccountsService, BROWSER_SESSION_ONLY, PASSWORD_LOCKOUT } from '../accounts/accounts.service';
import { AuditService } from '../audit/audit.service';
import { PluginsService } from '../plugins/plugins.service';
import { CredentialsRepository } from './credentials.repository';

/**
 * `POST /auth/reauthenticate` (CONTRACTS 14.6): the owner of a browser session proves a factor
 * again, which opens sensitive changes for `auth.reauthWindowSeconds` (the check itself is
 * AccountsService.assertRecentSignIn, where every module reaches it).
 */
@Injectable()
export class ReauthService {
  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
    private readonly accounts: AccountsService,
    private readonly credentials: CredentialsRepository,
    private readonly plugins: PluginsService,
    private readonly audit: AuditService,
  ) {}

  private get windowMs(): number {
    return this.options.config.auth.reauthWindowSeconds * 1000;
  }

  /** Throws 401 AUTH_REQUIRED without a browser session, 403 REAUTH_REQUIRED without a recent proof. */
  assertRecentProof(auth: AuthContext | undefined): Promise<void> {
    return this.accounts.assertRecentSignIn(auth);
  }

  /**
   * `POST /auth/reauthenticate`: the password (a wrong one counts toward the account's lockout)
   * or a second-factor code (counted toward the account's code limit) proves the owner again;
   * the session may make sensitive changes until the answered time.
   */
  async reauthenticate(
    auth: AuthContext | undefined,
    input: { password?: string; code?: string },
    client: { ip: string | null },
  ): Promise<{ until: Date }> {
    const session = browserSession(auth);
    const byCode = input.code !== undefined;
    if (byCode) {
      const code = input.code!;
      const right = await this.accounts.secondFactorAttempt(
        session.userId,
        () => this.plugins.verifySecondFactorCode(session.userId, code),
        client,
      );
      if (!right) {
        throw wrong('code', 'The code is not valid');
      }
    } else {
      const checked = await this.accounts.recheckPassword(session.userId, input.password!, PASSWORD_LOCKOUT);
      if (checked === 'locked') {
        throw ServiceError.rateLimited('reauth', 'Too many wrong passwords; try again later', {
          retryAfterSeconds: PASSWORD_LOCKOUT.lockMinutes * 60,
        });
      }
      if (checked === 'wrong') {
        throw wrong('password', 'The password is not correct');
      }
    }
    const provedAt = await this.db.transaction(async (em) => {
      await this.credentials.lockAccountSessions(em, session.userId);
      const at = await this.credentials.markSessionProved(em, session.userId, session.id, byCode);
      if (at) {
        await this.audit.record(
          {
            event: 'reauthenticated',
            actorId: session.userId,
            target: `user:${session.userId}`,
            metadata: { sessionId: session.id, method: byCode ? 'code' : 'password' },
            ip: client.ip,
          },
          em,
        );
      }
      return at;
    });
    if (!provedAt) {
      throw BROWSER_SESSION_ONLY();
    }
    return { until: new Date(provedAt.getTime() + this.windowMs) };
  }
}

/** The caller's browser session (the session cookie), or 401 AUTH_REQUIRED. */
function browserSession(auth: AuthContext | undefined): { userId: string; id: string } {
  if (!auth || auth.method !== 'session' || !auth.sessionId) {
    throw BROWSER_SESSION_ONLY();
  }
  return { userId: auth.user.id, id: auth.sessionId };
}

function wrong(path: string, message: string): ServiceError {
  return new ServiceError('INVALID_INPUT', message, { errors: [{ path, code: 'incorrect', message }] });
}
