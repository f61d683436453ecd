import { Body, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { IdPipe } from '../../common/id.pipe';
import { SvcController } from '../../common/access/svc-controller';
import { RequirePermission } from '../../common/access/auth.decorators';
import { CreateUserFieldDto, ReorderUserFieldsDto, UpdateUserFieldDto } from './dto/user-field.dto';
import { SORTABLE, UserFieldsService } from './user-fields.service';
import { ApiListQuery, itemAnswer, listOf } from '../../common/api-schema';
import { USER_FIELD } from './user-fields.openapi';

const FieldId = () => Param('id', new IdPipe('user field'));

/** `/admin/api/user-fields` (SPEC 4.2, CONTRACTS 12). */
@SvcController('user-fields')
export class UserFieldsController {
  constructor(private readonly fields: UserFieldsService) {}

  @Get()
  @RequirePermission('read-settings')
  @ApiOkResponse({ schema: listOf(USER_FIELD) })
  @ApiListQuery({ sortable: SORTABLE, search: true })
  list(@Query() query: Record<string, unknown>) {
    return this.fields.list(query);
  }

  @Post()
  @RequirePermission('create-settings')
  @ApiCreatedResponse({ schema: itemAnswer(USER_FIELD) })
  async create(@Body() dto: CreateUserFieldDto) {
    return { message: 'User field created', item: await this.fields.create(dto) };
  }

  // Before the `:id` routes, so `reorder` is never read as an id.
  @Patch('reorder')
  @RequirePermission('update-settings')
  @ApiOkResponse({ schema: listOf(USER_FIELD) })
  @ApiListQuery({ sortable: SORTABLE, search: true })
  reorder(@Body() dto: ReorderUserFieldsDto, @Query() query: Record<string, unknown>) {
    return this.fields.reorder(dto, query);
  }

  @Get(':id')
  @RequirePermission('read-settings')
  @ApiOkResponse({ schema: USER_FIELD })
  get(@FieldId() id: string) {
    return this.fields.get(id);
  }

  @Patch(':id')
  @RequirePermission('update-settings')
  @ApiOkResponse({ schema: itemAnswer(USER_FIELD) })
  async update(@FieldId() id: string, @Body() dto: UpdateUserFieldDto) {
    return { message: 'User field updated', item: await this.fields.update(id, dto) };
  }

  @Delete(':id')
  @RequirePermission('delete-settings')
  @ApiOkResponse({ schema: itemAnswer(USER_FIELD) })
  async remove(@FieldId() id: string) {
    return { message: 'User field deleted', item: await this.fields.remove(id) };
  }
}
