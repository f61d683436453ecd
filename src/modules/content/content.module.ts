import { Module } from '@nestjs/common';
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
import { FieldGroupsController } from './field-groups.controller';
import { AuditModule } from '../audit/audit.module';
import { JournalController } from './journal.controller';
import { MediaHooks } from './media-hooks.service';
import { SchemaApplier } from './schema-applier';
import { SchemaService } from './schema.service';
import { SinglesController } from './singles.controller';

/** Collections, singles, field groups and their entries (SPEC 1.6, 4.1-4.3, 5.4.2). */
@Module({
  imports: [RbacModule, AuditModule],
  controllers: [
    CollectionsController,
    EntriesController,
    SinglesController,
    FieldGroupsController,
    JournalController,
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
    EntryCounts,
    MediaHooks,
  ],
  // MediaHooks: the media module registers its upload/presentation handler there.
  exports: [SchemaService, EntriesService, ContentAccessService, MediaHooks],
})
export class ContentModule {}
