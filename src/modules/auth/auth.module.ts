import {
  Inject,
  MiddlewareConsumer,
  Module,
  NestModule,
  OnModuleDestroy,
  OnModuleInit,
  RequestMethod,
} from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import type { NextFunction, Request, Response } from 'express';
import { MemoryCounterStore } from '../../common/memory-counter-store';
import { RedisThrottlerStorage } from '../../common/redis-throttler-storage';
import { SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { AccountsModule } from '../accounts/accounts.module';
import { AuditModule } from '../audit/audit.module';
import { AuthenticationService } from '../identity/authentication.service';
import { IdentityModule } from '../identity/identity.module';
import { RbacModule } from '../rbac/rbac.module';
import { RbacService } from '../rbac/rbac.service';
import { UserFieldsModule } from '../user-fields/user-fields.module';
import { AccountController } from './account.controller';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { CredentialsRepository } from './credentials.repository';
import { CsrfService } from './csrf.service';
import { SessionsController, UserSessionsController } from './sessions.controller';
import { SessionsService } from './sessions.service';
import { ReauthService } from './reauth.service';
import { AUTH_THROTTLER, AuthRateLimitGuard } from './guards/auth-rate-limit.guard';
import { CsrfGuard } from './guards/csrf.guard';
import { addInProcessRuntime, removeInProcessRuntime, Runtime } from './in-process';
import { PendingLoginsRepository } from './pending-logins.repository';
import { PendingLoginsService } from './pending-logins.service';
import { PluginsModule } from '../plugins/plugins.module';

/** SPEC 4: every /auth response is sent with no-store cache headers. */
function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  next();
}

/**
 * Sessions (SPEC 3, 5.2, 5.7): setup, login, refresh, logout, CSRF, pending steps (plugins'
 * challenges), `completeLogin` for plugins, the login-page UI and the account gate
 * over `/admin/api/auth/*`, and the runtime of the in-process helpers. Who is calling is
 * identity's job (its global guards); the accounts signed in are the accounts module's. The auth
 * budget's throttler storage registered here is global: API keys and the global limit count there.
 */
@Module({
  imports: [
    IdentityModule,
    AccountsModule,
    RbacModule,
    AuditModule,
    UserFieldsModule,
    PluginsModule,
    ThrottlerModule.forRootAsync({
      inject: [SVC_OPTIONS],
      useFactory: (o: SvcOptions) => ({
        throttlers: [
          {
            name: AUTH_THROTTLER,
            limit: o.config.security.authRateLimit.max,
            ttl: o.config.security.authRateLimit.windowSeconds * 1000,
          },
        ],
        setHeaders: false,
        // Shared by every instance when REDIS_URL is set (failing fast while Redis is down, see
        // REDIS_COUNTER_OPTIONS); per process otherwise, with the same rules (MemoryCounterStore).
        storage: o.redisUrl
          ? new RedisThrottlerStorage(o.redisUrl, { keyPrefix: o.redisPrefix })
          : new MemoryCounterStore(o.rateLimitMaxKeys),
      }),
    }),
  ],
  controllers: [AuthController, AccountController, SessionsController, UserSessionsController],
  providers: [
    CsrfService,
    CredentialsRepository,
    PendingLoginsRepository,
    PendingLoginsService,
    AuthService,
    SessionsService,
    ReauthService,
    AuthRateLimitGuard,
    CsrfGuard,
  ],
  exports: [AuthService, ReauthService],
})
export class AuthModule implements NestModule, OnModuleInit, OnModuleDestroy {
  constructor(
    private readonly authentication: AuthenticationService,
    private readonly auth: AuthService,
    private readonly rbac: RbacService,
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
  ) {}

  configure(consumer: MiddlewareConsumer): void {
    consumer
      .apply(noStore)
      .forRoutes(
        { path: 'admin/api/auth', method: RequestMethod.ALL },
        { path: 'admin/api/auth/{*path}', method: RequestMethod.ALL },
      );
  }

  private runtime: Runtime | undefined;

  onModuleInit(): void {
    this.runtime = { authentication: this.authentication, auth: this.auth, rbac: this.rbac };
    addInProcessRuntime(this.runtime);
  }

  onModuleDestroy(): void {
    if (this.runtime) {
      removeInProcessRuntime(this.runtime);
    }
  }
}
