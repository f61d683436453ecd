import { Get, Header } from '@nestjs/common';
import { ServiceError } from '../../common/errors';
import { SvcController } from '../../common/access/svc-controller';
import { Public } from '../../common/access/public.decorator';
import { HealthReport, HealthService } from './health.service';
import { ApiOkResponse } from '@nestjs/swagger';
import { HEALTH_REPORT } from './health.openapi';

/** `GET` and `HEAD /api/health` (Express answers HEAD from the GET route, without a body). */
@SvcController('api/health', { absolute: true })
export class HealthController {
  constructor(private readonly health: HealthService) {}

  @Get()
  @Public()
  @Header('Cache-Control', 'public, max-age=60, stale-while-revalidate=30')
  @ApiOkResponse({ schema: HEALTH_REPORT })
  async get(): Promise<HealthReport> {
    const report = await this.health.check();
    if (this.health.draining) {
      // Shutting down: still serving, but a balancer must stop sending new requests here.
      throw new ServiceError('SERVICE_UNAVAILABLE', 'The instance is shutting down', {
        ...report,
        draining: true,
      });
    }
    if (!report.ok) {
      // The failure itself is not cached (the filter sends no-store): a balancer should see recovery at once.
      throw new ServiceError('SERVICE_UNAVAILABLE', 'The database probe failed', { ...report });
    }
    return report;
  }
}
