import { Module } from '@nestjs/common';
import { AuditCoreModule } from '../audit/audit-core.module';
import { AccountsModule } from '../accounts/accounts.module';
import { EmailModule } from '../email/email.module';
import { SettingsModule } from '../settings/settings.module';
import { PluginsService } from './plugins.service';

/**
 * The plugin host at run time (SPEC 1.7, 6; CONTRACTS 10): hooks, challenges, login-page UI and
 * the plugins' own migrations. The checked plugins come from PLUGIN_HOST (SvcModule provides it,
 * globally); the sessions (auth) build on this module and register `completeLogin` with it.
 */
@Module({
  imports: [AuditCoreModule, AccountsModule, EmailModule, SettingsModule],
  providers: [PluginsService],
  exports: [PluginsService],
})
export class PluginsModule {}
