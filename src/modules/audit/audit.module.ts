import { Module } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { AuditClientInterceptor } from './audit-client';
import { AuditCoreModule } from './audit-core.module';
import { AuditController } from './audit.controller';

/**
 * The audit log (CONTRACTS 14.3): AuditService.record for every module that changes something
 * (AuditCoreModule), `GET /audit` and its CSV export, and the interceptor that gives the rows
 * written during a request its client's IP and User-Agent. The retention purge is a job
 * (src/jobs/audit-purge.job.ts).
 */
@Module({
  imports: [AuditCoreModule],
  controllers: [AuditController],
  providers: [{ provide: APP_INTERCEPTOR, useClass: AuditClientInterceptor }],
  exports: [AuditCoreModule],
})
export class AuditModule {}
