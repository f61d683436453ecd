import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { IdPipe } from '../../common/id.pipe';
import { parseListQuery } from '../../common/pagination';
import { SvcController } from '../../common/access/svc-controller';
import type { AuthContext } from '../../common/access/auth-context';
import { CurrentAuth, RequirePermission } from '../../common/access/auth.decorators';
import { UserFieldsService } from '../user-fields/user-fields.service';
import { AssignRoleDto, CreateUserDto, SetUserPasswordDto, UpdateUserDto } from './dto/users.dto';
import { parseUserInput } from './user-input';
import { UsersAdminService } from './users-admin.service';
import type { UserSortField } from './accounts.types';
import { ApiBody, ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { ApiListQuery, itemAnswer, listOf, MESSAGE_ANSWER } from '../../common/api-schema';
import { ROLE_REF, USER } from './accounts.openapi';

const USER_ID = new IdPipe('user');
const SORTABLE: readonly UserSortField[] = ['email', 'name', 'createdAt', 'lastLoginAt'];

/** `/admin/api/users` (SPEC 4.2): the administration of accounts. */
@SvcController('users')
export class UsersController {
  constructor(
    private readonly users: UsersAdminService,
    private readonly userFields: UserFieldsService,
  ) {}

  @Get()
  @RequirePermission('read-users')
  @ApiOkResponse({ schema: listOf(USER) })
  @ApiListQuery({ sortable: SORTABLE, search: true })
  list(@Query() query: Record<string, unknown>) {
    return this.users.list(
      parseListQuery(query, { sortable: SORTABLE, defaultSort: { field: 'createdAt', direction: 'asc' } }),
    );
  }

  /** Core keys of CONTRACTS 4 plus custom user fields (untyped here: validated by parseUserInput). */
  @Post()
  @ApiBody({
    type: CreateUserDto,
    description:
      'The keys below, plus the custom user fields (their names and types: GET /admin/api/user-fields)',
  })
  @RequirePermission('create-users')
  @ApiCreatedResponse({ schema: itemAnswer(USER) })
  async create(@CurrentAuth() auth: AuthContext, @Body() body: Record<string, unknown>) {
    const { core, custom } = await parseUserInput(CreateUserDto, body, this.userFields, { partial: false });
    return { message: 'User created', item: await this.users.create(auth, { ...core, custom }) };
  }

  @Get(':id')
  @RequirePermission('read-users')
  @ApiOkResponse({ schema: USER })
  get(@Param('id', USER_ID) id: string) {
    return this.users.get(id);
  }

  @Patch(':id')
  @ApiBody({
    type: UpdateUserDto,
    description:
      'The keys below, plus the custom user fields (their names and types: GET /admin/api/user-fields)',
  })
  @RequirePermission('update-users')
  @ApiOkResponse({ schema: itemAnswer(USER) })
  async update(
    @CurrentAuth() auth: AuthContext,
    @Param('id', USER_ID) id: string,
    @Body() body: Record<string, unknown>,
  ) {
    const { core, custom } = await parseUserInput(UpdateUserDto, body, this.userFields, { partial: true });
    return { message: 'User updated', item: await this.users.update(auth, id, { ...core, custom }) };
  }

  @Delete(':id')
  @RequirePermission('delete-users')
  @ApiOkResponse({ schema: itemAnswer(USER) })
  async remove(@CurrentAuth() auth: AuthContext, @Param('id', USER_ID) id: string) {
    return { message: 'User deleted', item: await this.users.remove(auth, id) };
  }

  /** Ends that user's sessions; `requirePasswordChange` makes the next sign-in replace it. */
  @Patch(':id/password')
  @RequirePermission('update-users')
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async setPassword(
    @CurrentAuth() auth: AuthContext,
    @Param('id', USER_ID) id: string,
    @Body() dto: SetUserPasswordDto,
  ) {
    await this.users.setPassword(auth, id, dto.password, dto.requirePasswordChange ?? false);
    return { message: 'Password set; the user must sign in again' };
  }

  @Get(':id/roles')
  @RequirePermission('read-roles')
  @ApiOkResponse({ schema: listOf(ROLE_REF) })
  roles(@Param('id', USER_ID) id: string) {
    return this.users.roles(id);
  }

  @Post(':id/roles')
  @HttpCode(200)
  @RequirePermission('update-users')
  @ApiOkResponse({ schema: itemAnswer(USER) })
  async addRole(
    @CurrentAuth() auth: AuthContext,
    @Param('id', USER_ID) id: string,
    @Body() dto: AssignRoleDto,
  ) {
    return { message: 'Role assigned', item: await this.users.addRole(auth, id, dto.roleId) };
  }

  @Delete(':id/roles/:roleId')
  @RequirePermission('update-users')
  @ApiOkResponse({ schema: itemAnswer(USER) })
  async removeRole(
    @CurrentAuth() auth: AuthContext,
    @Param('id', USER_ID) id: string,
    @Param('roleId', new IdPipe('role')) roleId: string,
  ) {
    return { message: 'Role removed', item: await this.users.removeRole(auth, id, roleId) };
  }
}
