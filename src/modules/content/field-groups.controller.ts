import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { ApiListQuery, itemAnswer, listOf } from '../../common/api-schema';
import { SvcController } from '../../common/access/svc-controller';
import type { AuthContext } from '../../common/access/auth-context';
import { CurrentAuth, RequirePermission } from '../../common/access/auth.decorators';
import {
  FIELD_GROUP_DEFINITION,
  FIELD_GROUP_INPUT,
  FIELD_GROUP_SCHEMA_INPUT,
  FIELD_GROUP_UPDATE,
  SCHEMA_PREVIEW,
  schemaApplied,
} from './content.openapi';
import { DEFINITION_SORTABLE, definitionList, toDefinitionRecord } from './definition.mapper';
import { SchemaService } from './schema.service';

/** `/admin/api/field-groups`: reusable field sets embedded by component fields (SPEC 4.2). */
@SvcController('field-groups')
export class FieldGroupsController {
  constructor(private readonly schema: SchemaService) {}

  @Get()
  @ApiOkResponse({ schema: listOf(FIELD_GROUP_DEFINITION) })
  @ApiListQuery({ sortable: DEFINITION_SORTABLE, search: true })
  async list(@Query() query: Record<string, unknown>) {
    return definitionList(await this.schema.all('field-group'), query);
  }

  @Post()
  @RequirePermission('manage-settings')
  @ApiBody({ schema: FIELD_GROUP_INPUT, description: 'A field group definition' })
  @ApiCreatedResponse({ schema: itemAnswer(FIELD_GROUP_DEFINITION) })
  async create(@Body() body: unknown, @CurrentAuth() auth: AuthContext) {
    const item = await this.schema.create('field-group', body, auth);
    return { message: 'Field group created', item: toDefinitionRecord(item) };
  }

  @Post('schema/:slug/preview')
  @HttpCode(200)
  @RequirePermission('manage-settings')
  @ApiBody({ schema: FIELD_GROUP_SCHEMA_INPUT, description: 'The fields the field group would have' })
  @ApiOkResponse({ schema: SCHEMA_PREVIEW })
  preview(@Param('slug') slug: string, @Body() body: unknown) {
    return this.schema.preview('field-group', slug, body);
  }

  @Post('schema/:slug/apply')
  @HttpCode(200)
  @RequirePermission('manage-settings')
  @ApiBody({ schema: FIELD_GROUP_SCHEMA_INPUT, description: 'The fields the field group is to have' })
  @ApiOkResponse({ schema: schemaApplied(FIELD_GROUP_DEFINITION) })
  async apply(@Param('slug') slug: string, @Body() body: unknown, @CurrentAuth() auth: AuthContext) {
    const { item, changes } = await this.schema.apply('field-group', slug, body, auth);
    return { message: 'Schema applied', item: toDefinitionRecord(item), changes };
  }

  @Get(':slug')
  @ApiOkResponse({ schema: FIELD_GROUP_DEFINITION })
  async get(@Param('slug') slug: string) {
    return toDefinitionRecord(await this.schema.get('field-group', slug));
  }

  @Patch(':slug')
  @RequirePermission('manage-settings')
  @ApiBody({ schema: FIELD_GROUP_UPDATE, description: 'The keys to change; a fields change is applied' })
  @ApiOkResponse({ schema: itemAnswer(FIELD_GROUP_DEFINITION) })
  async update(@Param('slug') slug: string, @Body() body: unknown, @CurrentAuth() auth: AuthContext) {
    const item = await this.schema.update('field-group', slug, body, auth);
    return { message: 'Field group updated', item: toDefinitionRecord(item) };
  }

  @Delete(':slug')
  @RequirePermission('manage-settings')
  @ApiOkResponse({ schema: itemAnswer(FIELD_GROUP_DEFINITION) })
  async remove(@Param('slug') slug: string, @CurrentAuth() auth: AuthContext) {
    const item = await this.schema.remove('field-group', slug, auth);
    return { message: 'Field group deleted', item: toDefinitionRecord(item) };
  }
}
