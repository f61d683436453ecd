import { Body, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { IdPipe } from '../../common/id.pipe';
import { SvcController } from '../../common/access/svc-controller';
import type { AuthContext } from '../../common/access/auth-context';
import { CurrentAuth, RequirePermission } from '../../common/access/auth.decorators';
import { CreatePermissionDto, UpdatePermissionDto } from './dto/permission.dto';
import { PermissionsService, SORTABLE } from './permissions.service';
import { ApiListQuery, itemAnswer, listOf } from '../../common/api-schema';
import { PERMISSION } from './rbac.openapi';

const PermissionId = () => Param('id', new IdPipe('permission'));

/** `/admin/api/permissions` (SPEC 4.2, CONTRACTS 4). */
@SvcController('permissions')
export class PermissionsController {
  constructor(private readonly permissions: PermissionsService) {}

  @Get()
  @RequirePermission('read-permissions', 'read-roles')
  @ApiOkResponse({ schema: listOf(PERMISSION) })
  @ApiListQuery({ sortable: SORTABLE, search: true })
  list(@CurrentAuth() auth: AuthContext, @Query() query: Record<string, unknown>) {
    return this.permissions.list(auth, query);
  }

  @Post()
  @RequirePermission('create-permissions')
  @ApiCreatedResponse({ schema: itemAnswer(PERMISSION) })
  async create(@CurrentAuth() auth: AuthContext, @Body() dto: CreatePermissionDto) {
    return { message: 'Permission created', item: await this.permissions.create(auth, dto) };
  }

  @Get(':id')
  @RequirePermission('read-permissions', 'read-roles')
  @ApiOkResponse({ schema: PERMISSION })
  get(@CurrentAuth() auth: AuthContext, @PermissionId() id: string) {
    return this.permissions.get(auth, id);
  }

  @Patch(':id')
  @RequirePermission('update-permissions')
  @ApiOkResponse({ schema: itemAnswer(PERMISSION) })
  async update(
    @CurrentAuth() auth: AuthContext,
    @PermissionId() id: string,
    @Body() dto: UpdatePermissionDto,
  ) {
    return { message: 'Permission updated', item: await this.permissions.update(auth, id, dto) };
  }

  @Delete(':id')
  @RequirePermission('delete-permissions')
  @ApiOkResponse({ schema: itemAnswer(PERMISSION) })
  async remove(@CurrentAuth() auth: AuthContext, @PermissionId() id: string) {
    return { message: 'Permission deleted', item: await this.permissions.delete(auth, id) };
  }
}
