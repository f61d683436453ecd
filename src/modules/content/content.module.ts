import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { IdentityModule } from '../identity/identity.module';
import { RbacModule } from '../rbac/rbac.module';
import { CodeSyncService } from './code-sync.service';
import { CollectionsController } from './collections.controller';
import { ContentAccessService } from './content-access.service';
import { ContentAccessGuard } from './content-route';
import { DefinitionRegistry } from './definition-registry';
import { DefinitionsRepository } from './definitions.repository';
import { EntriesController } from './entries/entries.controller';
import { EntriesRepository } from './entries/entries.repository';
import { EntriesService } from './entries/entries.service';
import { EntryCounts } from './entries/entry-counts';
import { EntryReader } from './entries/entry-reader';
import { EntryVersions } from './entries/entry-versions.service';
import { VersionsRepository } from './entries/versions.repository';
import { EntrySchedules } from './entries/entry-schedules.service';
import { SchedulesRepository } from './entries/schedules.repository';
import { EntrySchedulesController, SingleSchedulesController } from './entries/schedules.controller';
import { JobsModule } from '../../jobs/jobs.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { EntryVersionsController, SingleVersionsController } from './entries/versions.controller';
import { FieldGroupsController } from './field-groups.controller';
import { AuditModule } from '../audit/audit.module';
import { JournalController } from './journal.controller';
import { MediaHooks } from './media-hooks.service';
import { PreviewController } from './preview/preview.controller';
import { PreviewService } from './preview/preview.service';
import { SchemaApplier } from './schema-applier';
import { SchemaService } from './schema.service';
import { SinglesController } from './singles.controller';

/** Collections, singles, field groups and their entries (SPEC 1.6, 4.1-4.3, 5.4.2). */
@Module({
  imports: [RbacModule, AuditModule, AccountsModule, IdentityModule, JobsModule, WebhooksModule],
  controllers: [
    CollectionsController,
    EntriesController,
    SinglesController,
    FieldGroupsController,
    JournalController,
    PreviewController,
    EntryVersionsController,
    SingleVersionsController,
    EntrySchedulesController,
    SingleSchedulesController,
  ],
  providers: [
    DefinitionsRepository,
    DefinitionRegistry,
    SchemaApplier,
    CodeSyncService,
    SchemaService,
    ContentAccessService,
    ContentAccessGuard,
    EntriesRepository,
    EntryReader,
    EntriesService,
    EntryVersions,
    VersionsRepository,
    EntrySchedules,
    SchedulesRepository,
    EntryCounts,
    MediaHooks,
    PreviewService,
  ],
  // MediaHooks: the media module registers its upload/presentation handler there.
  exports: [SchemaService, EntriesService, ContentAccessService, MediaHooks],
})
export class ContentModule {}
