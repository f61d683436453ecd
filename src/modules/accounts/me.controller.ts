import { ServiceError } from '../../common/errors';
import { Body, Get, Patch } from '@nestjs/common';
import { SvcController } from '../../common/access/svc-controller';
import type { AuthContext } from '../../common/access/auth-context';
import { CurrentAuth } from '../../common/access/auth.decorators';
import { RbacService } from '../rbac/rbac.service';
import { AccountsService } from './accounts.service';
import { UserFieldsService } from '../user-fields/user-fields.service';
import { UpdateMeDto } from './dto/me.dto';
import { parseUserInput } from './user-input';
import { toUserRecord } from './user.mapper';
import { ApiBody, ApiOkResponse } from '@nestjs/swagger';
import { itemAnswer } from '../../common/api-schema';
import { MY_PERMISSIONS, USER } from './accounts.openapi';

/** The signed-in user's own record (cookie or Bearer). */
@SvcController('me')
export class MeController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly rbac: RbacService,
    private readonly userFields: UserFieldsService,
  ) {}

  /** Served from the account the guard has just read (AccountsService's 5 s cache): no query once warm. */
  @Get()
  @ApiOkResponse({ schema: USER })
  async me(@CurrentAuth() auth: AuthContext) {
    const account = await this.accounts.currentAccount(auth.user.id);
    return toUserRecord(account, await this.userFields.present(account.custom ?? {}));
  }

  /** Own name, image and custom user fields (not email, roles or status). */
  @Patch()
  @ApiBody({
    type: UpdateMeDto,
    description:
      'The keys below, plus the custom user fields (their names and types: GET /admin/api/user-fields)',
  })
  @ApiOkResponse({ schema: itemAnswer(USER) })
  async update(@CurrentAuth() auth: AuthContext, @Body() body: Record<string, unknown>) {
    // A profile is the person's: an API key acts for its creator but never edits them (their
    // name and custom fields ride in their tokens).
    if (auth.apiKey) {
      throw new ServiceError('AUTH_REQUIRED', 'Sign in to change your profile; API keys cannot');
    }
    const { core, custom } = await parseUserInput(UpdateMeDto, body, this.userFields, { partial: true });
    const account = await this.accounts.updateProfile(auth.user.id, { ...core, custom });
    return {
      message: 'Profile updated',
      item: toUserRecord(account, await this.userFields.present(account.custom ?? {})),
    };
  }

  @Get('permissions')
  @ApiOkResponse({ schema: MY_PERMISSIONS })
  async permissions(@CurrentAuth() auth: AuthContext) {
    return { isSuperAdmin: auth.isSuperAdmin, permissions: await this.rbac.held(auth) };
  }
}
