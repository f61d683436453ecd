import { Body, Get, Patch } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { itemAnswer } from '../../common/api-schema';
import type { AuthContext } from '../../common/access/auth-context';
import { CurrentAuth, RequirePermission } from '../../common/access/auth.decorators';
import { SvcController } from '../../common/access/svc-controller';
import { UpdateGeneralSettingsDto } from './dto/general-settings.dto';
import { SettingsService } from './settings.service';
import { GENERAL_SETTINGS } from './settings.openapi';

/** `/admin/api/general-settings`: the site's general settings, `manage-settings` only. */
@SvcController('general-settings')
export class SettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  @RequirePermission('manage-settings')
  @ApiOkResponse({ schema: GENERAL_SETTINGS })
  get() {
    return this.settings.get();
  }

  @Patch()
  @RequirePermission('manage-settings')
  @ApiOkResponse({ schema: itemAnswer(GENERAL_SETTINGS) })
  async update(@CurrentAuth() auth: AuthContext, @Body() dto: UpdateGeneralSettingsDto) {
    const item = await this.settings.update({ ...dto }, auth);
    return { message: 'General settings updated', item };
  }
}
