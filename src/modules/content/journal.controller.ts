import { Get, Query } from '@nestjs/common';
import { SvcController } from '../../common/access/svc-controller';
import { CookieOnly, SuperAdminOnly } from '../../common/access/auth.decorators';
import { SchemaService } from './schema.service';

/** `GET /admin/api/schema/journal`: every applied schema change (cookie session, super-admin). */
@SvcController('schema')
export class JournalController {
  constructor(private readonly schema: SchemaService) {}

  @Get('journal')
  @CookieOnly()
  @SuperAdminOnly()
  journal(@Query() query: Record<string, unknown>) {
    return this.schema.journal(query);
  }
}
