import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { ApiListQuery, itemAnswer, listOf } from '../../common/api-schema';
import { SvcController } from '../../common/access/svc-controller';
import type { AuthContext } from '../../common/access/auth-context';
import { CurrentAuth, RequirePermission } from '../../common/access/auth.decorators';
import { ContentRoute, CurrentDefinition } from './content-route';
import {
  COLLECTION_DEFINITION,
  COLLECTION_INPUT,
  COLLECTION_UPDATE,
  ENRICHED_COLLECTION,
  SCHEMA_INPUT,
  SCHEMA_PREVIEW,
  schemaApplied,
} from './content.openapi';
import type { Definition } from './content.types';
import { DEFINITION_SORTABLE, definitionList, toDefinitionRecord } from './definition.mapper';
import { SchemaService } from './schema.service';

/** `/admin/api/collections`: the schema builder (SPEC 4.2, CONTRACTS 6). */
@SvcController('collections')
export class CollectionsController {
  constructor(private readonly schema: SchemaService) {}

  @Get()
  @ApiOkResponse({ schema: listOf(COLLECTION_DEFINITION) })
  @ApiListQuery({ sortable: DEFINITION_SORTABLE, search: true })
  async list(@Query() query: Record<string, unknown>) {
    return definitionList(await this.schema.all('collection'), query);
  }

  @Post()
  @RequirePermission('manage-settings')
  @ApiBody({
    schema: COLLECTION_INPUT,
    description: 'A collection definition: its slug, labels, drafts, fields, access and versions',
  })
  @ApiCreatedResponse({ schema: itemAnswer(COLLECTION_DEFINITION) })
  async create(@Body() body: unknown, @CurrentAuth() auth: AuthContext) {
    const item = await this.schema.create('collection', body, auth);
    return { message: 'Collection created', item: toDefinitionRecord(item) };
  }

  @Get('schema/:slug')
  @ContentRoute('collection', 'read')
  @ApiOkResponse({ schema: ENRICHED_COLLECTION })
  enriched(@CurrentDefinition() def: Definition) {
    return this.schema.enriched(def);
  }

  @Post('schema/:slug/preview')
  @HttpCode(200)
  @RequirePermission('manage-settings')
  @ApiBody({ schema: SCHEMA_INPUT, description: 'The fields (and drafts) the collection would have' })
  @ApiOkResponse({ schema: SCHEMA_PREVIEW })
  preview(@Param('slug') slug: string, @Body() body: unknown) {
    return this.schema.preview('collection', slug, body);
  }

  @Post('schema/:slug/apply')
  @HttpCode(200)
  @RequirePermission('manage-settings')
  @ApiBody({ schema: SCHEMA_INPUT, description: 'The fields (and drafts) the collection is to have' })
  @ApiOkResponse({ schema: schemaApplied(COLLECTION_DEFINITION) })
  async apply(@Param('slug') slug: string, @Body() body: unknown, @CurrentAuth() auth: AuthContext) {
    const { item, changes } = await this.schema.apply('collection', slug, body, auth);
    return { message: 'Schema applied', item: toDefinitionRecord(item), changes };
  }

  @Get(':slug')
  @ContentRoute('collection', 'read')
  @ApiOkResponse({ schema: COLLECTION_DEFINITION })
  get(@CurrentDefinition() def: Definition) {
    return toDefinitionRecord(def);
  }

  @Patch(':slug')
  @RequirePermission('manage-settings')
  @ApiBody({
    schema: COLLECTION_UPDATE,
    description: 'The keys to change; a fields or drafts change is applied',
  })
  @ApiOkResponse({ schema: itemAnswer(COLLECTION_DEFINITION) })
  async update(@Param('slug') slug: string, @Body() body: unknown, @CurrentAuth() auth: AuthContext) {
    const item = await this.schema.update('collection', slug, body, auth);
    return { message: 'Collection updated', item: toDefinitionRecord(item) };
  }

  @Delete(':slug')
  @RequirePermission('manage-settings')
  @ApiOkResponse({ schema: itemAnswer(COLLECTION_DEFINITION) })
  async remove(@Param('slug') slug: string, @CurrentAuth() auth: AuthContext) {
    const item = await this.schema.remove('collection', slug, auth);
    return { message: 'Collection deleted', item: toDefinitionRecord(item) };
  }
}
