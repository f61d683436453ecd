import { Body, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { ApiEntryVersion, ApiListQuery, itemAnswer, listOf } from '../../common/api-schema';
import type { Response } from 'express';
import { SvcController } from '../../common/access/svc-controller';
import type { AuthContext } from '../../common/access/auth-context';
import { CurrentAuth, RequirePermission } from '../../common/access/auth.decorators';
import { Caller, ContentRoute, CurrentCaller, CurrentDefinition } from './content-route';
import type { Definition } from './content.types';
import { withTag } from './entry-tag';
import {
  ApiContentQuery,
  ENRICHED_SINGLE,
  SCHEMA_INPUT,
  SCHEMA_PREVIEW,
  schemaApplied,
  SINGLE_DEFINITION,
  SINGLE_INPUT,
  SINGLE_UPDATE,
} from './content.openapi';
import { DEFINITION_SORTABLE, definitionList, toDefinitionRecord } from './definition.mapper';
import { EntriesService, READ_PARAMS } from './entries/entries.service';
import { SchemaService } from './schema.service';

/** `/admin/api/singles`: single definitions and their one-row content (SPEC 4.2). */
@SvcController('singles')
export class SinglesController {
  constructor(
    private readonly schema: SchemaService,
    private readonly entries: EntriesService,
  ) {}

  @Get()
  @ApiOkResponse({ schema: listOf(SINGLE_DEFINITION) })
  @ApiListQuery({ sortable: DEFINITION_SORTABLE, search: true })
  async list(@Query() query: Record<string, unknown>) {
    return definitionList(await this.schema.all('single'), query);
  }

  @Post()
  @RequirePermission('manage-settings')
  @ApiBody({ schema: SINGLE_INPUT, description: 'A single definition: its slug, label, drafts and fields' })
  @ApiCreatedResponse({ schema: itemAnswer(SINGLE_DEFINITION) })
  async create(@Body() body: unknown, @CurrentAuth() auth: AuthContext) {
    const item = await this.schema.create('single', body, auth);
    return { message: 'Single created', item: toDefinitionRecord(item) };
  }

  @Post('schema/:slug/preview')
  @HttpCode(200)
  @RequirePermission('manage-settings')
  @ApiBody({ schema: SCHEMA_INPUT, description: 'The fields (and drafts) the single would have' })
  @ApiOkResponse({ schema: SCHEMA_PREVIEW })
  preview(@Param('slug') slug: string, @Body() body: unknown) {
    return this.schema.preview('single', slug, body);
  }

  @Post('schema/:slug/apply')
  @HttpCode(200)
  @RequirePermission('manage-settings')
  @ApiBody({ schema: SCHEMA_INPUT, description: 'The fields (and drafts) the single is to have' })
  @ApiOkResponse({ schema: schemaApplied(SINGLE_DEFINITION) })
  async apply(@Param('slug') slug: string, @Body() body: unknown, @CurrentAuth() auth: AuthContext) {
    const { item, changes } = await this.schema.apply('single', slug, body, auth);
    return { message: 'Schema applied', item: toDefinitionRecord(item), changes };
  }

  @Get(':slug/schema')
  @ContentRoute('single', 'read')
  @ApiOkResponse({ schema: ENRICHED_SINGLE })
  schemaOf(@CurrentDefinition() def: Definition) {
    return this.schema.enriched(def);
  }

  @Patch(':slug/schema')
  @RequirePermission('manage-settings')
  @ApiBody({ schema: SINGLE_UPDATE, description: 'The keys to change; a fields or drafts change is applied' })
  @ApiOkResponse({ schema: itemAnswer(SINGLE_DEFINITION) })
  async updateSchema(@Param('slug') slug: string, @Body() body: unknown, @CurrentAuth() auth: AuthContext) {
    const item = await this.schema.update('single', slug, body, auth);
    return { message: 'Single updated', item: toDefinitionRecord(item) };
  }

  @Get(':slug')
  @ContentRoute('single', 'read')
  @ApiEntryVersion('read')
  @ApiContentQuery(READ_PARAMS)
  async get(
    @CurrentDefinition() def: Definition,
    @Query() query: Record<string, unknown>,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res: Response,
  ) {
    return withTag(res, await this.entries.getSingle(def, query, caller));
  }

  @Patch(':slug')
  @ContentRoute('single', 'update')
  @ApiEntryVersion('write')
  async update(
    @CurrentDefinition() def: Definition,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const item = withTag(res, await this.entries.updateSingle(def, body, caller, ifMatch));
    return { message: 'Single updated', item };
  }

  @Delete(':slug')
  @RequirePermission('manage-settings')
  @ApiOkResponse({ schema: itemAnswer(SINGLE_DEFINITION) })
  async remove(@Param('slug') slug: string, @CurrentAuth() auth: AuthContext) {
    const item = await this.schema.remove('single', slug, auth);
    return { message: 'Single deleted', item: toDefinitionRecord(item) };
  }
}
