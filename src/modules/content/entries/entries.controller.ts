import { Body, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBody, ApiOkResponse } from '@nestjs/swagger';
import { IdPipe } from '../../../common/id.pipe';
import { ApiEntryVersion } from '../../../common/api-schema';
import { SvcController } from '../../../common/access/svc-controller';
import { Caller, ContentRoute, CurrentCaller, CurrentDefinition } from '../content-route';
import {
  ApiContentQuery,
  BULK_DELETE_INPUT,
  BULK_RESULT,
  BULK_UPDATE_INPUT,
  ENTRY_COUNT,
  LIST_QUERY,
  UPDATE_WHERE_INPUT,
} from '../content.openapi';
import type { Definition } from '../content.types';
import { withTag } from '../entry-tag';
import { COUNT_PARAMS, EntriesService, READ_PARAMS } from './entries.service';

const EntryId = () => Param('id', new IdPipe('entry'));

/** `/admin/api/collections/{slug}/entries` (SPEC 4.1, 4.2, 4.3). */
@SvcController('collections/:slug/entries')
export class EntriesController {
  constructor(private readonly entries: EntriesService) {}

  @Get()
  @ContentRoute('collection', 'read')
  @ApiContentQuery(LIST_QUERY)
  list(
    @CurrentDefinition() def: Definition,
    @Query() query: Record<string, unknown>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.entries.list(def, query, caller);
  }

  @Post()
  @ContentRoute('collection', 'create')
  async create(@CurrentDefinition() def: Definition, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    return { message: 'Entry created', item: await this.entries.create(def, body, caller) };
  }

  @Patch()
  @ContentRoute('collection', 'update')
  @ApiBody({
    schema: UPDATE_WHERE_INPUT,
    description: 'Update every entry `where` matches (read access needed)',
  })
  @ApiOkResponse({ schema: BULK_RESULT })
  updateWhere(@CurrentDefinition() def: Definition, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    return this.entries.updateWhere(def, body, caller);
  }

  @Get('count')
  @ContentRoute('collection', 'read')
  @ApiOkResponse({ schema: ENTRY_COUNT })
  @ApiContentQuery(COUNT_PARAMS)
  count(
    @CurrentDefinition() def: Definition,
    @Query() query: Record<string, unknown>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.entries.count(def, query, caller);
  }

  @Post('bulk-delete')
  @HttpCode(200)
  @ContentRoute('collection', 'delete')
  @ApiBody({ schema: BULK_DELETE_INPUT })
  @ApiOkResponse({ schema: BULK_RESULT })
  bulkDelete(@CurrentDefinition() def: Definition, @Body() body: unknown) {
    return this.entries.bulkDelete(def, body);
  }

  @Post('bulk-update')
  @HttpCode(200)
  @ContentRoute('collection', 'update')
  @ApiBody({ schema: BULK_UPDATE_INPUT })
  @ApiOkResponse({ schema: BULK_RESULT })
  bulkUpdate(@CurrentDefinition() def: Definition, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    return this.entries.bulkUpdate(def, body, caller);
  }

  /**
   * The entry with its `ETag`; Express answers 304 to an `If-None-Match` naming it. The content
   * read lane calls this without `res` and does both itself.
   */
  @Get(':id')
  @ContentRoute('collection', 'read')
  @ApiEntryVersion('read')
  @ApiContentQuery(READ_PARAMS)
  async get(
    @CurrentDefinition() def: Definition,
    @EntryId() id: string,
    @Query() query: Record<string, unknown>,
    @CurrentCaller() caller: Caller,
    @Res({ passthrough: true }) res?: Response,
  ) {
    return withTag(res, await this.entries.get(def, id, query, caller));
  }

  @Patch(':id')
  @ContentRoute('collection', 'update')
  @ApiEntryVersion('write')
  async update(
    @CurrentDefinition() def: Definition,
    @EntryId() id: string,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) res: Response,
  ) {
    const item = withTag(res, await this.entries.update(def, id, body, caller, ifMatch));
    return { message: 'Entry updated', item };
  }

  @Delete(':id')
  @ContentRoute('collection', 'delete')
  @ApiEntryVersion('delete')
  async remove(
    @CurrentDefinition() def: Definition,
    @EntryId() id: string,
    @CurrentCaller() caller: Caller,
    @Headers('if-match') ifMatch: string | undefined,
  ) {
    return { message: 'Entry deleted', item: await this.entries.remove(def, id, caller, ifMatch) };
  }

  /** Needs read access beside `create-<slug>` (checked by the service: CONTRACTS 12). */
  @Post(':id/duplicate')
  @ContentRoute('collection', 'create')
  async duplicate(
    @CurrentDefinition() def: Definition,
    @EntryId() id: string,
    @CurrentCaller() caller: Caller,
  ) {
    return { message: 'Entry duplicated', item: await this.entries.duplicate(def, id, caller) };
  }
}
