import { applyDecorators, Body, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiQuery } from '@nestjs/swagger';
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
import { EntriesService } from './entries.service';
import { EntryVersions } from './entry-versions.service';

/** A field's value as entries hold it: any JSON. */
const FIELD_VALUE = {
  type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
  items: {},
  description: "The field's value (null when empty)",
};

const VERSION_PROPERTIES = {
  id: { type: 'string', format: 'uuid' },
  entryId: { type: 'string', format: 'uuid' },
  number: { ...INTEGER, minimum: 1, description: '1, 2, ... per entry; never reused' },
  status: { ...NULLABLE_STRING, description: '`draft` or `published` (null without drafts)' },
  event: { type: 'string', enum: ['create', 'update', 'publish', 'unpublish', 'restore'] },
  data: { type: 'object', description: 'Every field of the entry, null when empty' },
  createdBy: {
    oneOf: [objectSchema({ id: { type: 'string', format: 'uuid' }, name: STRING }), { type: 'null' }],
  },
  createdAt: DATE_TIME,
};

const VERSION = namedSchema('EntryVersion', objectSchema(VERSION_PROPERTIES));

const VERSION_COMPARED = namedSchema(
  'EntryVersionCompared',
  objectSchema(
    {
      ...VERSION_PROPERTIES,
      changes: {
        type: 'array',
        description: 'With `compare`: the fields that differ; `from` is this version, `to` the compared one',
        items: objectSchema({ field: STRING, from: FIELD_VALUE, to: FIELD_VALUE }),
      },
    },
    ['changes'],
  ),
);

const RESTORE_INPUT = objectSchema(
  { publish: { type: 'boolean', description: 'Also publish a draft (needs the publish permission)' } },
  ['publish'],
);

const ENTRY = { type: 'object', description: 'The entry as restored' };

const VersionId = () => Param('versionId', new IdPipe('version'));
const PAGING = () =>
  applyDecorators(
    ApiQuery({ name: 'page', required: false, schema: { ...INTEGER, minimum: 1 } }),
    ApiQuery({ name: 'limit', required: false, schema: { ...INTEGER, minimum: 1, maximum: 500 } }),
  );
const COMPARE = () =>
  ApiQuery({
    name: 'compare',
    required: false,
    description: 'Another version id of the entry, or `current`',
    schema: { type: 'string' },
  });

/** `/admin/api/collections/{slug}/entries/{id}/versions`: an entry's versions and restoring one. */
@SvcController('collections/:slug/entries/:id/versions')
export class EntryVersionsController {
  constructor(
    private readonly versions: EntryVersions,
    private readonly entries: EntriesService,
  ) {}

  @Get()
  @ContentRoute('collection', 'read')
  @ApiOkResponse({ schema: listOf(VERSION) })
  @PAGING()
  list(
    @CurrentDefinition() def: Definition,
    @Param('id', new IdPipe('entry')) id: string,
    @Query() query: Record<string, unknown>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.versions.list(def, id, query, caller);
  }

  @Get(':versionId')
  @ContentRoute('collection', 'read')
  @ApiOkResponse({ schema: VERSION_COMPARED })
  @COMPARE()
  get(
    @CurrentDefinition() def: Definition,
    @Param('id', new IdPipe('entry')) id: string,
    @VersionId() versionId: string,
    @Query() query: Record<string, unknown>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.versions.get(def, id, versionId, query, caller);
  }

  @Post(':versionId/restore')
  @HttpCode(200)
  @ContentRoute('collection', 'update')
  @ApiBody({ schema: RESTORE_INPUT, required: false })
  @ApiOkResponse({ schema: itemAnswer(ENTRY) })
  async restore(
    @CurrentDefinition() def: Definition,
    @Param('id', new IdPipe('entry')) id: string,
    @VersionId() versionId: string,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller,
  ) {
    return {
      message: 'Version restored',
      item: await this.entries.restore(def, id, versionId, body, caller),
    };
  }
}

/** `/admin/api/singles/{slug}/versions`: the single's versions and restoring one. */
@SvcController('singles/:slug/versions')
export class SingleVersionsController {
  constructor(
    private readonly versions: EntryVersions,
    private readonly entries: EntriesService,
  ) {}

  @Get()
  @ContentRoute('single', 'read')
  @ApiOkResponse({ schema: listOf(VERSION) })
  @PAGING()
  list(
    @CurrentDefinition() def: Definition,
    @Query() query: Record<string, unknown>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.versions.list(def, def.id, query, caller);
  }

  @Get(':versionId')
  @ContentRoute('single', 'read')
  @ApiOkResponse({ schema: VERSION_COMPARED })
  @COMPARE()
  get(
    @CurrentDefinition() def: Definition,
    @VersionId() versionId: string,
    @Query() query: Record<string, unknown>,
    @CurrentCaller() caller: Caller,
  ) {
    return this.versions.get(def, def.id, versionId, query, caller);
  }

  @Post(':versionId/restore')
  @HttpCode(200)
  @ContentRoute('single', 'update')
  @ApiBody({ schema: RESTORE_INPUT, required: false })
  @ApiOkResponse({ schema: itemAnswer(ENTRY) })
  async restore(
    @CurrentDefinition() def: Definition,
    @VersionId() versionId: string,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller,
  ) {
    return {
      message: 'Version restored',
      item: await this.entries.restore(def, def.id, versionId, body, caller),
    };
  }
}
