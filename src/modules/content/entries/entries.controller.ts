import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import { IdPipe } from '../../../common/id.pipe';
import { SvcController } from '../../../common/svc-controller';
import type { AuthContext } from '../../auth/auth-context';
import { CurrentAuth } from '../../auth/decorators/auth.decorators';
import { ContentRoute, CurrentDefinition } from '../content-route';
import type { Definition } from '../content.types';
import { EntriesService } from './entries.service';

const EntryId = () => Param('id', new IdPipe('entry'));

/** `/admin/api/collections/{slug}/entries` (SPEC 4.1, 4.2, 4.3). */
@SvcController('collections/:slug/entries')
export class EntriesController {
  constructor(private readonly entries: EntriesService) {}

  @Get()
  @ContentRoute('collection', 'read')
  list(
    @CurrentDefinition() def: Definition,
    @Query() query: Record<string, unknown>,
    @CurrentAuth() auth: AuthContext | undefined,
    @Req() req: Request,
  ) {
    return this.entries.list(def, query, { auth: auth ?? null, req });
  }

  @Post()
  @ContentRoute('collection', 'create')
  async create(@CurrentDefinition() def: Definition, @Body() body: unknown) {
    return { message: 'Entry created', item: await this.entries.create(def, body) };
  }

  @Patch()
  @ContentRoute('collection', 'update')
  updateWhere(@CurrentDefinition() def: Definition, @Body() body: unknown) {
    return this.entries.updateWhere(def, body);
  }

  @Get('count')
  @ContentRoute('collection', 'read')
  count(
    @CurrentDefinition() def: Definition,
    @Query() query: Record<string, unknown>,
    @CurrentAuth() auth: AuthContext | undefined,
    @Req() req: Request,
  ) {
    return this.entries.count(def, query, { auth: auth ?? null, req });
  }

  @Post('bulk-delete')
  @HttpCode(200)
  @ContentRoute('collection', 'delete')
  bulkDelete(@CurrentDefinition() def: Definition, @Body() body: unknown) {
    return this.entries.bulkDelete(def, body);
  }

  @Post('bulk-update')
  @HttpCode(200)
  @ContentRoute('collection', 'update')
  bulkUpdate(@CurrentDefinition() def: Definition, @Body() body: unknown) {
    return this.entries.bulkUpdate(def, body);
  }

  @Get(':id')
  @ContentRoute('collection', 'read')
  get(
    @CurrentDefinition() def: Definition,
    @EntryId() id: string,
    @Query() query: Record<string, unknown>,
    @CurrentAuth() auth: AuthContext | undefined,
    @Req() req: Request,
  ) {
    return this.entries.get(def, id, query, { auth: auth ?? null, req });
  }

  @Patch(':id')
  @ContentRoute('collection', 'update')
  async update(@CurrentDefinition() def: Definition, @EntryId() id: string, @Body() body: unknown) {
    return { message: 'Entry updated', item: await this.entries.update(def, id, body) };
  }

  @Delete(':id')
  @ContentRoute('collection', 'delete')
  async remove(@CurrentDefinition() def: Definition, @EntryId() id: string) {
    return { message: 'Entry deleted', item: await this.entries.remove(def, id) };
  }

  @Post(':id/duplicate')
  @ContentRoute('collection', 'create')
  async duplicate(@CurrentDefinition() def: Definition, @EntryId() id: string) {
    return { message: 'Entry duplicated', item: await this.entries.duplicate(def, id) };
  }
}
