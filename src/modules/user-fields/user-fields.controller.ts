import { Body, Delete, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { IdPipe } from '../../common/id.pipe';
import { SvcController } from '../../common/access/svc-controller';
import { RequirePermission } from '../../common/access/auth.decorators';
import { CreateUserFieldDto, ReorderUserFieldsDto, UpdateUserFieldDto } from './dto/user-field.dto';
import { UserFieldsService } from './user-fields.service';

const FieldId = () => Param('id', new IdPipe('user field'));

/** `/admin/api/user-fields` (SPEC 4.2, CONTRACTS 12). */
@SvcController('user-fields')
export class UserFieldsController {
  constructor(private readonly fields: UserFieldsService) {}

  @Get()
  @RequirePermission('read-settings')
  list(@Query() query: Record<string, unknown>) {
    return this.fields.list(query);
  }

  @Post()
  @RequirePermission('create-settings')
  async create(@Body() dto: CreateUserFieldDto) {
    return { message: 'User field created', item: await this.fields.create(dto) };
  }

  // Before the `:id` routes, so `reorder` is never read as an id.
  @Patch('reorder')
  @RequirePermission('update-settings')
  reorder(@Body() dto: ReorderUserFieldsDto, @Query() query: Record<string, unknown>) {
    return this.fields.reorder(dto, query);
  }

  @Get(':id')
  @RequirePermission('read-settings')
  get(@FieldId() id: string) {
    return this.fields.get(id);
  }

  @Patch(':id')
  @RequirePermission('update-settings')
  async update(@FieldId() id: string, @Body() dto: UpdateUserFieldDto) {
    return { message: 'User field updated', item: await this.fields.update(id, dto) };
  }

  @Delete(':id')
  @RequirePermission('delete-settings')
  async remove(@FieldId() id: string) {
    return { message: 'User field deleted', item: await this.fields.remove(id) };
  }
}
