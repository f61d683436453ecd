import {
  Inject,
  MiddlewareConsumer,
  Module,
  NestModule,
  OnModuleDestroy,
  OnModuleInit,
  RequestMethod,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ThrottlerModule } from '@nestjs/throttler';
import type { NextFunction, Request, Response } from 'express';
import { MemoryCounterStore } from '../../common/memory-counter-store';
import { RedisThrottlerStorage } from '../../common/redis-throttler-storage';
import { JobsModule } from '../../jobs/jobs.module';
import { SVC_OPTIONS, SvcOptions } from '../../svc.options';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AuditModule } from '../audit/audit.module';
import { EmailModule } from '../email/email.module';
import { UserFieldsModule } from '../user-fields/user-fields.module';
import { RbacModule } from '../rbac/rbac.module';
import { RbacService } from '../rbac/rbac.service';
import { UsersModule } from '../users/users.module';
import { AccountLifecycleService } from './account-lifecycle.service';
import { AccountTokensRepository } from './account-tokens.repository';
import { AccountController } from './account.controller';
import { AuthController } from './auth.controller';
import { PendingLoginsService } from './pending-logins.service';
import { AuthService } from './auth.service';
import { AuthenticationService } from './authentication.service';
import { CredentialsRepository } from './credentials.repository';
import { CsrfService } from './csrf.service';
import { AUTH_THROTTLER, AuthRateLimitGuard } from './guards/auth-rate-limit.guard';
import { AuthenticationGuard } from './guards/authentication.guard';
import { CsrfGuard } from './guards/csrf.guard';
import { PermissionGuard } from './guards/permission.guard';
import { addInProcessRuntime, removeInProcessRuntime, Runtime } from './in-process';
import { TokensService } from './tokens.service';

/** SPEC 4: every /auth response is sent with no-store cache headers. */
function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  next();
}

@Module({
  imports: [
    UsersModule,
    RbacModule,
    AuditModule,
    EmailModule,
    JobsModule,
    UserFieldsModule,
    ApiKeysModule,
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
  controllers: [AuthController, AccountController],
  providers: [
    TokensService,
    CsrfService,
    CredentialsRepository,
    AccountTokensRepository,
    PendingLoginsService,
    AccountLifecycleService,
    AuthenticationService,
    AuthService,
    AuthRateLimitGuard,
    CsrfGuard,
    { provide: APP_GUARD, useClass: AuthenticationGuard },
    { provide: APP_GUARD, useClass: PermissionGuard },
  ],
  exports: [AuthenticationService, AuthService, TokensService, AccountLifecycleService],
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
