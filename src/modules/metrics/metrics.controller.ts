import { Get, Inject, Req, Res } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { Public } from '../../common/access/public.decorator';
import { SvcController } from '../../common/access/svc-controller';
import { ServiceError } from '../../common/errors';
import { SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { MetricsService } from './metrics.service';

/**
 * `GET /api/metrics`: the Prometheus text format, for `Authorization: Bearer <metricsToken>` and
 * nothing else (no session, key, cookie or query value); 404 while metrics are off.
 */
@SvcController('api/metrics', { absolute: true })
export class MetricsController {
  private readonly token?: Buffer;

  constructor(
    private readonly metrics: MetricsService,
    @Inject(SVC_OPTIONS) options: SvcOptions,
  ) {
    this.token =
      options.metricsToken === undefined ? undefined : Buffer.from(`Bearer ${options.metricsToken}`);
  }

  @Get()
  @Public()
  @ApiOkResponse({
    description: 'The Prometheus text format (version 0.0.4)',
    content: { 'text/plain': {} },
  })
  async scrape(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (!this.token) {
      throw new ServiceError('NOT_FOUND', 'No such route');
    }
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== this.token.length || !timingSafeEqual(given, this.token)) {
      throw new ServiceError('AUTH_REQUIRED', 'The metrics need their bearer token');
    }
    const body = await this.metrics.registry.metrics();
    res.setHeader('Content-Type', this.metrics.registry.contentType);
    res.setHeader('Cache-Control', 'no-store');
    res.end(body);
  }
}
