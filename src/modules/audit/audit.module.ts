import { Module } from '@nestjs/common';
import { AuditCoreModule } from './audit-core.module';
import { AuditController } from './audit.controller';

/**
 * The audit log (CONTRACTS 14.3): AuditService.record for every module that changes something
 * (AuditCoreModule), `GET /audit` and its CSV export. Rows written during a request take its
 * client's IP and User-Agent from the request's store (common/request-logging.ts: no interceptor,
 * so the content read lane keeps running the same pipeline as Nest). The retention purge is a job
 * (src/jobs/audit-purge.job.ts).
 */
@Module({
  imports: [AuditCoreModule],
  controllers: [AuditController],
  exports: [AuditCoreModule],
})
export class AuditModule {}
