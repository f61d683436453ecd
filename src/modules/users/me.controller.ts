import { Body, Get, Patch } from '@nestjs/common';
import { SvcController } from '../../common/svc-controller';
import type { AuthContext } from '../auth/auth-context';
import { CurrentAuth } from '../auth/decorators/auth.decorators';
import { RbacService } from '../rbac/rbac.service';
import { AccountsService } from './accounts.service';
import { UpdateMeDto } from './dto/me.dto';
import { toUserRecord } from './user.mapper';

/** The signed-in user's own record (cookie or Bearer). */
@SvcController('me')
export class MeController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly rbac: RbacService,
  ) {}

  /** Served from the account already read by the guard (5 s cache): no query once warm. */
  @Get()
  me(@CurrentAuth() auth: AuthContext) {
    return toUserRecord(auth.account);
  }

  @Patch()
  async update(@CurrentAuth() auth: AuthContext, @Body() dto: UpdateMeDto) {
    const account = await this.accounts.updateProfile(auth.user.id, dto);
    return { message: 'Profile updated', item: toUserRecord(account) };
  }

  @Get('permissions')
  async permissions(@CurrentAuth() auth: AuthContext) {
    const permissions = auth.isSuperAdmin ? await this.rbac.catalogue() : [...auth.permissions].sort();
    return { isSuperAdmin: auth.isSuperAdmin, permissions };
  }
}
