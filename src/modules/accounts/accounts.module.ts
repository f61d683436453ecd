import { Module } from '@nestjs/common';
import { JobsModule } from '../../jobs/jobs.module';
import { AuditModule } from '../audit/audit.module';
import { RbacModule } from '../rbac/rbac.module';
import { UserFieldsModule } from '../user-fields/user-fields.module';
import { AccountLifecycleService } from './account-lifecycle.service';
import { AccountTokensRepository } from './account-tokens.repository';
import { AccountsService } from './accounts.service';
import { MeController } from './me.controller';
import { UsersAdminService } from './users-admin.service';
import { UsersController } from './users.controller';
import { UsersRepository } from './users.repository';
import { UserEvents } from './user-events.service';
import { WebhooksModule } from '../webhooks/webhooks.module';

/**
 * Users and their accounts (`/me`, `/users`), the account lifecycle (registration, emailed links,
 * password writes) and passwords: the only owner of the user row. Other modules go through
 * AccountsService and AccountLifecycleService, never the repositories. Builds on roles, user
 * fields, the audit log and the jobs queue; never on identity or the sessions (auth), which build
 * on it.
 */
@Module({
  imports: [RbacModule, UserFieldsModule, AuditModule, JobsModule, WebhooksModule],
  controllers: [MeController, UsersController],
  providers: [
    UsersRepository,
    AccountTokensRepository,
    AccountsService,
    AccountLifecycleService,
    UsersAdminService,
    UserEvents,
  ],
  exports: [AccountsService, AccountLifecycleService, UsersAdminService],
})
export class AccountsModule {}
