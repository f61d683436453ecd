import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ConfigError } from '../../config/env';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { withoutStatementTimeout } from '../../database/data-source';
import { RbacService } from '../rbac/rbac.service';
import { KIND_WORD, changedOptions, describeChanges } from './definition-checks';
import { codeDefinitions, configPath, planCodeSync } from './code-sync';
import { tableOf } from './content.types';
import { DefinitionRegistry } from './definition-registry';
import { DefinitionsRepository } from './definitions.repository';
import { GROUPS_LOCK, lockKey, SchemaApplier } from './schema-applier';
import { indexUpgradeDdl, planSchemaChange } from './schema';

/**
 * The boot-time sync of code-defined collections and singles (and the built-in media
 * collection), before the registry's first load: the plan (`planCodeSync`, pure) of the stored
 * definitions read under the locks, then carried out through the schema applier, all in one
 * transaction under a global lock (two instances booting at once take turns). Any problem of the
 * plan stops the boot, naming all of them. Every single ends with its one row (one made before
 * singles got theirs at creation gets it here), and old indexes are replaced.
 */
@Injectable()
export class CodeSyncService implements OnModuleInit {
  private readonly logger = new Logger('Content');

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
    private readonly repo: DefinitionsRepository,
    private readonly applier: SchemaApplier,
    private readonly registry: DefinitionRegistry,
    private readonly rbac: RbacService,
  ) {}

  async onModuleInit(): Promise<void> {
    await this.syncCode();
    await this.registry.load();
  }

  async syncCode(): Promise<void> {
    const wanted = codeDefinitions(this.options.config.collections, this.options.config.singles);
    const summary: string[] = [];
    await this.db.transaction(async (em) => {
      await withoutStatementTimeout(em);
      await this.repo.lock(em, '*');
      // Singles created over REST are locked too: a missing row is added to them below; and so
      // are collections created over REST: their old indexes are replaced below.
      const uiTargets = (await this.repo.all(em)).filter(
        (r) => r.kind !== 'field-group' && r.source === 'ui',
      );
      const keys = new Set([
        ...wanted.map((w) => lockKey(w.kind, w.slug)),
        ...uiTargets.map((r) => lockKey(r.kind, r.slug)),
      ]);
      for (const k of [...keys].sort()) {
        await this.repo.lock(em, k);
      }
      await this.repo.lock(em, GROUPS_LOCK, 'shared');
      const stored = await this.repo.all(em);
      const { problems, creates, updates, removed } = planCodeSync(wanted, stored, {
        acceptDestructive: this.options.acceptDestructiveSchema,
      });
      if (problems.length) {
        throw new ConfigError(problems);
      }

      // Tables first, then foreign keys between them (new collections may reference each other).
      const links: string[] = [];
      for (const { w, def } of creates) {
        const { takenPermissions } = await this.applier.insertTarget(
          em,
          w.kind,
          w.slug,
          w.source,
          def,
          links,
        );
        if (takenPermissions.length) {
          problems.push(
            `${configPath(w)}: the permissions ` +
              `${takenPermissions.join(', ')} exist already and do not belong to it (created over ` +
              '/admin/api/permissions or by a plugin); delete them or rename it',
          );
        }
        await this.applier.record(em, w.kind, w.slug, planSchemaChange([], def.fields), null, {
          options: changedOptions(undefined, def),
        });
        summary.push(`created ${KIND_WORD[w.kind]} ${w.slug}`);
      }
      if (problems.length) {
        throw new ConfigError(problems);
      }
      await this.applier.runDdl(em, links);
      for (const { row, def } of updates) {
        const changes = await this.applier.applyTo(em, row, def, { confirm: true, appliedBy: null });
        await this.repo.update(em, row.id, def);
        const said = [
          ...(changes.length ? [describeChanges(changes)] : []),
          ...changedOptions(row.definition, def).map((o) => `${o} changed`),
        ];
        if (said.length) {
          summary.push(`${KIND_WORD[row.kind]} ${row.slug}: ${said.join(', ')}`);
        }
      }
      for (const r of removed) {
        await this.applier.refuseReferenced(em, r);
        await this.applier.dropTarget(em, r, null);
        summary.push(`dropped ${KIND_WORD[r.kind]} ${r.slug}`);
      }
      for (const r of stored.filter((x) => x.kind === 'single' && keys.has(lockKey(x.kind, x.slug)))) {
        const drafts = (updates.find((u) => u.row === r)?.def ?? r.definition).drafts === true;
        await this.repo.insertSingleRow(em, tableOf(r), r.id, drafts);
      }
      // Indexes made before they served the list tiebreaker (ddl.ts): (field) -> (field, id).
      const kept = stored.filter(
        (r) => r.kind === 'collection' && !removed.includes(r) && keys.has(lockKey(r.kind, r.slug)),
      );
      const catalog = await this.repo.indexes(em, kept.map(tableOf));
      for (const r of kept) {
        const fields = (updates.find((u) => u.row === r)?.def ?? r.definition).fields;
        const upgrade = indexUpgradeDdl(tableOf(r), fields, catalog.get(tableOf(r)) ?? []);
        if (upgrade.length) {
          await this.applier.runDdl(em, upgrade);
          summary.push(`collection ${r.slug}: indexes on (field, id)`);
        }
      }
    });
    // The content stage of the boot log: one line, whether or not anything changed.
    const { collections, singles } = this.options.config;
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
    const ready = `content ready (${count(collections.length, 'collection')} and ${count(singles.length, 'single')} in the configuration)`;
    if (summary.length) {
      this.logger.log(`${ready}; synchronised: ${summary.join('; ')}`);
      this.registry.changed();
      this.rbac.invalidate();
    } else {
      this.logger.log(`${ready}; schema unchanged`);
    }
  }
}
