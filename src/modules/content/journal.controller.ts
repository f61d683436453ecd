import { Get, Query } from '@nestjs/common';
import { SvcController } from '../../common/svc-controller';
import { CookieOnly, SuperAdminOnly } from '../auth/decorators/auth.decorators';
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
