import { Body, Header, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse } from '@nestjs/swagger';
import { DATE_TIME, objectSchema, STRING } from '../../../common/api-schema';
import { SvcController } from '../../../common/access/svc-controller';
import { IdPipe } from '../../../common/id.pipe';
import { Caller, ContentRoute, CurrentCaller, CurrentDefinition } from '../content-route';
import type { Definition } from '../content.types';
import { PreviewTokenDto } from './preview-token.dto';
import { PREVIEW_DEFAULT_SECONDS, PreviewService } from './preview.service';

const PREVIEW_TOKEN = objectSchema(
  {
    token: { ...STRING, description: 'Present it as `X-Preview-Token` or as the query parameter `preview`' },
    expiresAt: DATE_TIME,
    url: { ...STRING, description: "The definition's preview page, when it has one, with the token in it" },
  },
  ['url'],
);

/**
 * Preview tokens of an entry (`/admin/api/collections/{slug}/entries/{id}/preview-token`) and of
 * a single (`/admin/api/singles/{slug}/preview-token`). The content guard lets in callers with
 * read access; the service asks for the draft permission. The answer holds a token: never cached.
 */
@SvcController('')
export class PreviewController {
  constructor(private readonly previews: PreviewService) {}

  @Post('collections/:slug/entries/:id/preview-token')
  @ContentRoute('collection', 'read')
  @Header('Cache-Control', 'no-store')
  @ApiCreatedResponse({ schema: PREVIEW_TOKEN })
  collectionToken(
    @CurrentDefinition() def: Definition,
    @Param('id', new IdPipe('entry')) id: string,
    @Body() dto: PreviewTokenDto,
    @CurrentCaller() caller: Caller,
  ) {
    return this.previews.issue(def, id, dto.expiresInSeconds ?? PREVIEW_DEFAULT_SECONDS, caller);
  }

  @Post('singles/:slug/preview-token')
  @ContentRoute('single', 'read')
  @Header('Cache-Control', 'no-store')
  @ApiCreatedResponse({ schema: PREVIEW_TOKEN })
  singleToken(
    @CurrentDefinition() def: Definition,
    @Body() dto: PreviewTokenDto,
    @CurrentCaller() caller: Caller,
  ) {
    return this.previews.issue(def, def.id, dto.expiresInSeconds ?? PREVIEW_DEFAULT_SECONDS, caller);
  }
}
