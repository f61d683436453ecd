import { Get, Query } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { ApiListQuery, listOf } from '../../common/api-schema';
import { SvcController } from '../../common/access/svc-controller';
import { CookieOnly, SuperAdminOnly } from '../../common/access/auth.decorators';
import { JOURNAL_RECORD } from './content.openapi';
import { JOURNAL_SORTABLE, SchemaService } from './schema.service';

/** `GET /admin/api/schema/journal`: every applied schema change (cookie session, super-admin). */
@SvcController('schema')
export class JournalController {
  constructor(private readonly schema: SchemaService) {}

  @Get('journal')
  @CookieOnly()
  @SuperAdminOnly()
  @ApiOkResponse({ schema: listOf(JOURNAL_RECORD) })
  @ApiListQuery({ sortable: JOURNAL_SORTABLE })
  journal(@Query() query: Record<string, unknown>) {
    return this.schema.journal(query);
  }
}
