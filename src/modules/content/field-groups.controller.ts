import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { SvcController } from '../../common/access/svc-controller';
import type { AuthContext } from '../../common/access/auth-context';
import { CurrentAuth, RequirePermission } from '../../common/access/auth.decorators';
import { definitionList, toDefinitionRecord } from './definition.mapper';
import { SchemaService } from './schema.service';

/** `/admin/api/field-groups`: reusable field sets embedded by component fields (SPEC 4.2). */
@SvcController('field-groups')
export class FieldGroupsController {
  constructor(private readonly schema: SchemaService) {}

  @Get()
  async list(@Query() query: Record<string, unknown>) {
    return definitionList(await this.schema.all('field-group'), query);
  }

  @Post()
  @RequirePermission('manage-settings')
  async create(@Body() body: unknown, @CurrentAuth() auth: AuthContext) {
    const item = await this.schema.create('field-group', body, auth);
    return { message: 'Field group created', item: toDefinitionRecord(item) };
  }

  @Post('schema/:slug/preview')
  @HttpCode(200)
  @RequirePermission('manage-settings')
  preview(@Param('slug') slug: string, @Body() body: unknown) {
    return this.schema.preview('field-group', slug, body);
  }

  @Post('schema/:slug/apply')
  @HttpCode(200)
  @RequirePermission('manage-settings')
  async apply(@Param('slug') slug: string, @Body() body: unknown, @CurrentAuth() auth: AuthContext) {
    const { item, changes } = await this.schema.apply('field-group', slug, body, auth);
    return { message: 'Schema applied', item: toDefinitionRecord(item), changes };
  }

  @Get(':slug')
  async get(@Param('slug') slug: string) {
    return toDefinitionRecord(await this.schema.get('field-group', slug));
  }

  @Patch(':slug')
  @RequirePermission('manage-settings')
  async update(@Param('slug') slug: string, @Body() body: unknown, @CurrentAuth() auth: AuthContext) {
    const item = await this.schema.update('field-group', slug, body, auth);
    return { message: 'Field group updated', item: toDefinitionRecord(item) };
  }

  @Delete(':slug')
  @RequirePermission('manage-settings')
  async remove(@Param('slug') slug: string, @CurrentAuth() auth: AuthContext) {
    const item = await this.schema.remove('field-group', slug, auth);
    return { message: 'Field group deleted', item: toDefinitionRecord(item) };
  }
}
