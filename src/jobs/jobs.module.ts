import { Module } from '@nestjs/common';
import { AuditModule } from '../modules/audit/audit.module';
import { EmailModule } from '../modules/email/email.module';
import { AccountMailJob } from './account-mail.job';
import { AuditPurgeJob } from './audit-purge.job';
import { JobsService } from './jobs.service';

/**
 * Durable background work on the service's own PostgreSQL (pg-boss): the queue, its start and
 * graceful stop, and the jobs themselves (account mail, the audit log's retention purge). One
 * instance per application, whoever imports it.
 */
@Module({
  imports: [EmailModule, AuditModule],
  providers: [JobsService, AccountMailJob, AuditPurgeJob],
  exports: [JobsService, AccountMailJob, AuditPurgeJob],
})
export class JobsModule {}
