import { Get, Header, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { Public } from '../../common/access/public.decorator';
import { SvcController } from '../../common/access/svc-controller';
import { ServiceError } from '../../common/errors';
import { OpenApiService } from './openapi.service';
import { DOCS_CSP, DOCS_HTML, docsAsset } from './swagger-ui';
import { ApiExcludeEndpoint } from '@nestjs/swagger';

/** `GET /admin/api/openapi.json` (the OpenAPI 3.1 document) and Swagger UI at `/admin/api/docs`. */
@SvcController('')
export class OpenApiController {
  constructor(private readonly openapi: OpenApiService) {}

  @Get('openapi.json')
  @Public()
  @Header('Cache-Control', 'no-cache')
  @ApiExcludeEndpoint()
  document() {
    return this.openapi.document();
  }

  @Get('docs')
  @Public()
  @ApiExcludeEndpoint()
  docs(@Res() res: Response): void {
    this.requireDocs();
    res
      .status(200)
      .set({ 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': DOCS_CSP })
      .set('Cache-Control', 'no-cache')
      .send(DOCS_HTML);
  }

  @Get('docs/:asset')
  @Public()
  @ApiExcludeEndpoint()
  asset(@Param('asset') name: string, @Res() res: Response): void {
    this.requireDocs();
    const asset = docsAsset(name);
    if (!asset) {
      throw new ServiceError('NOT_FOUND', 'No such file');
    }
    res
      .status(200)
      .set({ 'Content-Type': asset.type, 'X-Content-Type-Options': 'nosniff' })
      .set('Cache-Control', 'public, max-age=3600')
      .send(asset.body);
  }

  /** Off in production unless SVC_API_DOCS=true: then the routes answer as unknown ones do. */
  private requireDocs(): void {
    if (!this.openapi.docsEnabled) {
      throw new ServiceError('NOT_FOUND', 'No such route');
    }
  }
}
