import { Module } from '@nestjs/common';
import { bodyRules } from '../../common/validation';
import { AuditModule } from '../audit/audit.module';
import { UpdateGeneralSettingsDto } from './dto/general-settings.dto';
import { checkSettingsPatch } from './settings-input';
import { SettingsController } from './settings.controller';
import { SettingsRepository } from './settings.repository';
import { SettingsService } from './settings.service';

/**
 * General settings over REST, and SettingsService (`get()`) for the rest of the service. Depends
 * only on the audit module, so every module after it in the layers can read the settings.
 */
@Module({
  imports: [AuditModule],
  controllers: [SettingsController],
  providers: [SettingsRepository, SettingsService],
  exports: [SettingsService],
})
export class SettingsModule {}

// A body with an unknown key is answered with the problems of its known keys too.
bodyRules(UpdateGeneralSettingsDto, (body) => checkSettingsPatch(body).issues);
