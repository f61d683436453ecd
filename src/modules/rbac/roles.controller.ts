import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { IdPipe } from '../../common/id.pipe';
import { SvcController } from '../../common/access/svc-controller';
import type { AuthContext } from '../../common/access/auth-context';
import { CurrentAuth, RequirePermission } from '../../common/access/auth.decorators';
import {
  AddChildRoleDto,
  AddRolePermissionsDto,
  CreateRoleDto,
  ReplaceRolePermissionsDto,
  UpdateRoleDto,
} from './dto/role.dto';
import { PERMISSION_SORTABLE, ROLE_SORTABLE, RolesService } from './roles.service';
import { ApiListQuery, itemAnswer, listOf } from '../../common/api-schema';
import { PERMISSION, ROLE } from './rbac.openapi';

const RoleId = () => Param('id', new IdPipe('role'));

type ListParams = Record<string, unknown>;

/** `/admin/api/roles` (SPEC 4.2, CONTRACTS 4). */
@SvcController('roles')
export class RolesController {
  constructor(private readonly roles: RolesService) {}

  @Get()
  @RequirePermission('read-roles')
  @ApiOkResponse({ schema: listOf(ROLE) })
  @ApiListQuery({ sortable: ROLE_SORTABLE, search: true })
  list(@CurrentAuth() auth: AuthContext, @Query() query: ListParams) {
    return this.roles.list(auth, query);
  }

  @Post()
  @RequirePermission('create-roles')
  @ApiCreatedResponse({ schema: itemAnswer(ROLE) })
  async create(@CurrentAuth() auth: AuthContext, @Body() dto: CreateRoleDto) {
    return { message: 'Role created', item: await this.roles.create(auth, dto) };
  }

  @Get(':id')
  @RequirePermission('read-roles')
  @ApiOkResponse({ schema: ROLE })
  get(@CurrentAuth() auth: AuthContext, @RoleId() id: string) {
    return this.roles.get(auth, id);
  }

  @Patch(':id')
  @RequirePermission('update-roles')
  @ApiOkResponse({ schema: itemAnswer(ROLE) })
  async update(@CurrentAuth() auth: AuthContext, @RoleId() id: string, @Body() dto: UpdateRoleDto) {
    return { message: 'Role updated', item: await this.roles.update(auth, id, dto) };
  }

  @Delete(':id')
  @RequirePermission('delete-roles')
  @ApiOkResponse({ schema: itemAnswer(ROLE) })
  async remove(@CurrentAuth() auth: AuthContext, @RoleId() id: string) {
    return { message: 'Role deleted', item: await this.roles.delete(auth, id) };
  }

  @Get(':id/permissions')
  @RequirePermission('read-roles', 'read-permissions')
  @ApiOkResponse({ schema: listOf(PERMISSION) })
  @ApiListQuery({ sortable: PERMISSION_SORTABLE, search: true })
  listPermissions(@CurrentAuth() auth: AuthContext, @RoleId() id: string, @Query() query: ListParams) {
    return this.roles.listPermissions(auth, id, query);
  }

  @Post(':id/permissions')
  @HttpCode(200)
  @RequirePermission('update-roles')
  @ApiOkResponse({ schema: itemAnswer(ROLE) })
  async addPermissions(
    @CurrentAuth() auth: AuthContext,
    @RoleId() id: string,
    @Body() dto: AddRolePermissionsDto,
  ) {
    return { message: 'Permissions added to the role', item: await this.roles.addPermissions(auth, id, dto) };
  }

  @Patch(':id/permissions')
  @RequirePermission('update-roles')
  @ApiOkResponse({ schema: itemAnswer(ROLE) })
  async replacePermissions(
    @CurrentAuth() auth: AuthContext,
    @RoleId() id: string,
    @Body() dto: ReplaceRolePermissionsDto,
  ) {
    return { message: 'Role permissions replaced', item: await this.roles.replacePermissions(auth, id, dto) };
  }

  @Delete(':id/permissions/:permissionId')
  @RequirePermission('update-roles')
  @ApiOkResponse({ schema: itemAnswer(ROLE) })
  async removePermission(
    @CurrentAuth() auth: AuthContext,
    @RoleId() id: string,
    @Param('permissionId', new IdPipe('permission')) permissionId: string,
  ) {
    return {
      message: 'Permission removed from the role',
      item: await this.roles.removePermission(auth, id, permissionId),
    };
  }

  @Get(':id/children')
  @RequirePermission('read-roles')
  @ApiOkResponse({ schema: listOf(ROLE) })
  @ApiListQuery({ sortable: ROLE_SORTABLE, search: true })
  listChildren(@CurrentAuth() auth: AuthContext, @RoleId() id: string, @Query() query: ListParams) {
    return this.roles.listChildren(auth, id, query);
  }

  @Post(':id/children')
  @HttpCode(200)
  @RequirePermission('update-roles')
  @ApiOkResponse({ schema: itemAnswer(ROLE) })
  async addChild(@CurrentAuth() auth: AuthContext, @RoleId() id: string, @Body() dto: AddChildRoleDto) {
    return { message: 'Child role added', item: await this.roles.addChild(auth, id, dto) };
  }

  @Delete(':id/children/:childId')
  @RequirePermission('update-roles')
  @ApiOkResponse({ schema: itemAnswer(ROLE) })
  async removeChild(
    @CurrentAuth() auth: AuthContext,
    @RoleId() id: string,
    @Param('childId', new IdPipe('child role')) childId: string,
  ) {
    return { message: 'Child role removed', item: await this.roles.removeChild(auth, id, childId) };
  }

  @Get(':id/parents')
  @RequirePermission('read-roles')
  @ApiOkResponse({ schema: listOf(ROLE) })
  @ApiListQuery({ sortable: ROLE_SORTABLE, search: true })
  listParents(@CurrentAuth() auth: AuthContext, @RoleId() id: string, @Query() query: ListParams) {
    return this.roles.listParents(auth, id, query);
  }
}
