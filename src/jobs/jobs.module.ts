import { Module } from '@nestjs/common';
import { EmailModule } from '../modules/email/email.module';
import { AccountMailJob } from './account-mail.job';
import { JobsService } from './jobs.service';

/**
 * Durable background work on the service's own PostgreSQL (pg-boss): the queue, its start and
 * graceful stop, and the jobs themselves (account mail). One instance per application, whoever
 * imports it.
 */
@Module({
  imports: [EmailModule],
  providers: [JobsService, AccountMailJob],
  exports: [JobsService, AccountMailJob],
})
export class JobsModule {}
