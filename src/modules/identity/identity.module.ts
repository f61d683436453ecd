import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccountsModule } from '../accounts/accounts.module';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { RbacModule } from '../rbac/rbac.module';
import { UserFieldsModule } from '../user-fields/user-fields.module';
import { AuthenticationService } from './authentication.service';
import { AuthenticationGuard } from './guards/authentication.guard';
import { PermissionGuard } from './guards/permission.guard';
import { OriginCheckService } from './origin-check.service';
import { TokensService } from './tokens.service';

/**
 * Who is calling: cookie JWT | Bearer JWT | API key -> one AuthContext (common/access), and the
 * two global guards that fail closed on every route of the service (DESIGN 1, 2). Builds on the
 * accounts, roles, API keys and user fields; the sessions (auth) and content build on it, and
 * nothing below it does.
 */
@Module({
  imports: [AccountsModule, RbacModule, ApiKeysModule, UserFieldsModule],
  providers: [
    TokensService,
    OriginCheckService,
    AuthenticationService,
    { provide: APP_GUARD, useClass: AuthenticationGuard },
    { provide: APP_GUARD, useClass: PermissionGuard },
  ],
  exports: [AuthenticationService, TokensService, OriginCheckService],
})
export class IdentityModule {}
