import { Body, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiQuery } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import {
  DATE_TIME,
  INTEGER,
  itemAnswer,
  listOf,
  namedSchema,
  NULLABLE_STRING,
  objectSchema,
  STRING,
} from '../../../common/api-schema';
import { IdPipe } from '../../../common/id.pipe';
import { SvcController } from '../../../common/access/svc-controller';
import { Caller, ContentRoute, CurrentCaller, CurrentDefinition } from '../content-route';
import type { Definition } from '../content.types';
import { EntrySchedules } from './entry-schedules.service';

const SCHEDULE = namedSchema(
  'EntrySchedule',
  objectSchema({
    id: { type: 'string', format: 'uuid' },
    entryId: { type: 'string', format: 'uuid' },
    action: { type: 'string', enum: ['publish', 'unpublish'] },
    at: DATE_TIME,
    status: { type: 'string', enum: ['pending', 'done', 'failed', 'cancelled'] },
    createdBy: {
      oneOf: [objectSchema({ id: { type: 'string', format: 'uuid' }, name: STRING }), { type: 'null' }],
    },
    error: { ...NULLABLE_STRING, description: 'Why a failed schedule failed' },
  }),
);

const SCHEDULE_INPUT = objectSchema({
  action: { type: 'string', enum: ['publish', 'unpublish'] },
  at: { ...DATE_TIME, description: 'When: in the future, within a year' },
});

const PAGING = () =>
  applyDecorators(
    ApiQuery({ name: 'page', required: false, schema: { ...INTEGER, minimum: 1 } }),
    ApiQuery({ name: 'limit', required: false, schema: { ...INTEGER, minimum: 1, maximum: 500 } }),
  );

const ScheduleId = () => Param('scheduleId', new IdPipe('schedule'));
const EntryId = () => Param('id', new IdPipe('entry'));

/** `/admin/api/collections/{slug}/entries/{id}/schedule`: publishing and unpublishing at a time. */
@SvcController('collections/:slug/entries/:id/schedule')
export class EntrySchedulesController {
  constructor(private readonly schedules: EntrySchedules) {}

  @Post()
  @ContentRoute('collection', 'update')
  @ApiBody({ schema: SCHEDULE_INPUT })
  @ApiCreatedResponse({ schema: itemAnswer(SCHEDULE) })
  async create(
    @CurrentDefinition() def: Definition,
    @EntryId() id: string,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller,
  ) {
    return { message: 'Change scheduled', item: await this.schedules.create(def, id, body, caller) };
  }

  @Get()
  @ContentRoute('collection', 'read')
  @ApiOkResponse({ schema: listOf(SCHEDULE) })
  @PAGING()
  list(
    @CurrentDefinition() def: Definition,
    @EntryId() id: string,
    @Query() query: Record<string, unknown>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.schedules.list(def, id, query, caller);
  }

  @Delete(':scheduleId')
  @ContentRoute('collection', 'update')
  @ApiOkResponse({ schema: itemAnswer(SCHEDULE) })
  async cancel(
    @CurrentDefinition() def: Definition,
    @EntryId() id: string,
    @ScheduleId() scheduleId: string,
    @CurrentCaller() caller: Caller,
  ) {
    return { message: 'Schedule cancelled', item: await this.schedules.cancel(def, id, scheduleId, caller) };
  }
}

/** `/admin/api/singles/{slug}/schedule`: the same for a single. */
@SvcController('singles/:slug/schedule')
export class SingleSchedulesController {
  constructor(private readonly schedules: EntrySchedules) {}

  @Post()
  @ContentRoute('single', 'update')
  @ApiBody({ schema: SCHEDULE_INPUT })
  @ApiCreatedResponse({ schema: itemAnswer(SCHEDULE) })
  async create(@CurrentDefinition() def: Definition, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    return { message: 'Change scheduled', item: await this.schedules.create(def, def.id, body, caller) };
  }

  @Get()
  @ContentRoute('single', 'read')
  @ApiOkResponse({ schema: listOf(SCHEDULE) })
  @PAGING()
  list(
    @CurrentDefinition() def: Definition,
    @Query() query: Record<string, unknown>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.schedules.list(def, def.id, query, caller);
  }

  @Delete(':scheduleId')
  @ContentRoute('single', 'update')
  @ApiOkResponse({ schema: itemAnswer(SCHEDULE) })
  async cancel(
    @CurrentDefinition() def: Definition,
    @ScheduleId() scheduleId: string,
    @CurrentCaller() caller: Caller,
  ) {
    return {
      message: 'Schedule cancelled',
      item: await this.schedules.cancel(def, def.id, scheduleId, caller),
    };
  }
}
