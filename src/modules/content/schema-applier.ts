import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ServiceError } from '../../common/errors';
import { SVC_CONNECTION } from '../../config/svc-options';
import { withoutStatementTimeout } from '../../database/data-source';
import { isUniqueViolation, PG_ERROR, pgError } from '../../database/pg-errors';
import { AuditService } from '../audit/audit.service';
import { WebhookOutbox } from '../webhooks/webhook-outbox.service';
import { AUDIT_EVENTS } from '../audit/audit.types';
import { RbacService } from '../rbac/rbac.service';
import {
  CONTENT_ACTIONS,
  DefinitionKind,
  DefinitionSource,
  StoredDefinition,
  tableOf,
} from './content.types';
import { DefinitionInput, storedFrom } from './definition-body';
import {
  ChangeRecord,
  changedOptions,
  conflictWith,
  KIND_WORD,
  notFound,
  planFull,
  refuse,
  refuseNonUi,
  sameMeta,
  validateAgainst,
} from './definition-checks';
import { DefinitionRow, DefinitionsRepository } from './definitions.repository';
import {
  Change,
  createTablePlan,
  ddlFor,
  draftsDdl,
  dropTableDdl,
  lockTableDdl,
  planSchemaChange,
} from './schema';

/** Collections and singles share one slug space (and so one lock); field groups have their own. */
export const lockKey = (kind: DefinitionKind, slug: string): string =>
  kind === 'field-group' ? `group:${slug}` : `entries:${slug}`;
/**
 * The field-group graph: taken exclusively by field-group writes, shared by collection and single
 * writes and the boot sync, always after the target's own lock. The cycle and size checks read
 * every group, so two writes that each pass alone (a -> b, then b -> a) cannot commit together.
 */
export const GROUPS_LOCK = 'field-groups';

/**
 * Carries out schema changes: every change runs its DDL, the definition row and a journal row in
 * one transaction under an advisory lock per target (DESIGN 9); the planner decides what is
 * destructive. The REST operations (SchemaService) and the code sync (CodeSyncService) write
 * through it; the caller refreshes the registry and the permission cache after the commit.
 */
/** Changes listed in a `schema-applied` audit row (the journal keeps them all). */
const AUDITED_CHANGES = 100;

@Injectable()
export class SchemaApplier {
  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: DefinitionsRepository,
    private readonly rbac: RbacService,
    private readonly audit: AuditService,
    private readonly outbox: WebhookOutbox,
  ) {}

  /** A new definition made over REST (source `ui`). */
  create(kind: DefinitionKind, input: DefinitionInput, appliedBy: string): Promise<DefinitionRow> {
    return this.db.transaction(async (em) => {
      await withoutStatementTimeout(em);
      const next = storedFrom(input, []);
      // Locked before reading anything: a slug that is no string is refused just below.
      await this.lockTarget(em, kind, String(input.slug));
      const rows = await this.repo.all(em);
      validateAgainst(rows, kind, input.slug, next, false);
      const slug = input.slug as string;
      const taken = rows.find(
        (r) => r.slug === slug && (r.kind === 'field-group') === (kind === 'field-group'),
      );
      if (taken) {
        throw new ServiceError(
          'CONFLICT',
          `The slug "${slug}" is already used by the ${KIND_WORD[taken.kind]} "${taken.slug}"`,
        );
      }
      refuse(conflictWith(rows, { kind, slug, definition: next }));
      const { row, takenPermissions } = await this.insertTarget(em, kind, slug, 'ui', next);
      if (takenPermissions.length) {
        throw new ServiceError(
          'CONFLICT',
          `The permissions ${takenPermissions.join(', ')} exist already and do not belong to a ` +
            `${KIND_WORD[kind]}; a ${KIND_WORD[kind]} "${slug}" would take them over. Delete them or choose another slug`,
          { permissions: takenPermissions },
        );
      }
      await this.record(em, kind, slug, planSchemaChange([], next.fields), appliedBy, {
        options: changedOptions(undefined, next),
      });
      return row;
    });
  }

  /**
   * What `change` would do to `current` -> `next` and what it would refuse, read without its
   * locks (a preview changes nothing).
   */
  async preview(
    kind: DefinitionKind,
    slug: string,
    current: StoredDefinition,
    next: StoredDefinition,
  ): Promise<{ changes: ChangeRecord[]; destructive: boolean }> {
    const rows = await this.repo.all(this.db.manager);
    validateAgainst(rows, kind, slug, next, true);
    refuse(conflictWith(rows, { kind, slug, definition: next }));
    const changes = planFull(current, next);
    return { changes, destructive: changes.some((c) => c.destructive) };
  }

  /** A change of a definition made over REST: `build` makes the new one from the stored one. */
  async change(
    kind: DefinitionKind,
    slug: string,
    appliedBy: string,
    build: (current: StoredDefinition) => StoredDefinition,
    opts: { confirm: boolean },
  ): Promise<{ row: DefinitionRow; changes: ChangeRecord[] }> {
    return this.db.transaction(async (em) => {
      await withoutStatementTimeout(em);
      await this.lockTarget(em, kind, slug);
      const row = await this.repo.find(em, kind, slug);
      if (!row) {
        throw notFound(kind);
      }
      refuseNonUi(row);
      const next = build(row.definition);
      const rows = await this.repo.all(em);
      validateAgainst(rows, kind, slug, next, true);
      refuse(conflictWith(rows, { kind, slug, definition: next }));
      const changes = await this.applyTo(em, row, next, { confirm: opts.confirm, appliedBy });
      const updated =
        changes.length || !sameMeta(row.definition, next) ? await this.repo.update(em, row.id, next) : row;
      return { row: updated, changes };
    });
  }

  /** A definition made over REST deleted, with its table, unless another one still uses it. */
  remove(kind: DefinitionKind, slug: string, appliedBy: string): Promise<DefinitionRow> {
    return this.db.transaction(async (em) => {
      await withoutStatementTimeout(em);
      // A field group's users are read below: the graph lock keeps new ones from appearing.
      await this.lockTarget(em, kind, slug);
      const row = await this.repo.find(em, kind, slug);
      if (!row) {
        throw notFound(kind);
      }
      refuseNonUi(row);
      await this.refuseReferenced(em, row);
      await this.dropTarget(em, row, appliedBy);
      return row;
    });
  }

  // -------------------------------------------------------------------------------------------
  // Steps, also run by the code sync inside its own transaction (it holds the locks)

  /** Plans and runs the DDL of `row` -> `next` and journals it; the caller holds the lock. */
  async applyTo(
    em: EntityManager,
    row: DefinitionRow,
    next: StoredDefinition,
    opts: { confirm: boolean; appliedBy: string | null },
  ): Promise<ChangeRecord[]> {
    const current = row.definition;
    const changes = planFull(current, next);
    if (changes.some((c) => c.destructive) && !opts.confirm) {
      throw new ServiceError(
        'CONFLICT',
        'These changes may delete stored values; send confirmDestructive: true to apply them',
        { changes, destructive: true },
      );
    }
    if (row.kind !== 'field-group') {
      const table = tableOf(row);
      const fieldChanges = changes.filter((c): c is Change => !(c.kind === 'alter' && c.field === 'status'));
      const ddl = ddlFor(table, fieldChanges, current.fields, next.fields);
      const drafts = draftsDdl(table, current.drafts === true, next.drafts === true);
      if (ddl.length === 0 && drafts.length) {
        ddl.push(lockTableDdl(table));
      }
      await this.runDdl(em, [...ddl, ...drafts]);
      if ((current.drafts === true) !== (next.drafts === true)) {
        await this.rbac.setPublishPermission(em, row.id, row.slug, next.drafts === true);
      }
    }
    await this.record(em, row.kind, row.slug, changes, opts.appliedBy, {
      options: changedOptions(current, next),
    });
    return changes;
  }

  async runDdl(em: EntityManager, statements: string[]): Promise<void> {
    try {
      await this.repo.execute(em, statements);
    } catch (e) {
      if (isUniqueViolation(e)) {
        throw new ServiceError('CONFLICT', 'Stored values repeat, so the field cannot be made unique');
      }
      // A name conflictWith could not foresee: a table outside the content engine, or two of one
      // definition's own shortened names meeting (a hash collision). Still the caller's choice.
      const pg = pgError(e);
      if (pg?.code === PG_ERROR.duplicateTable || pg?.code === PG_ERROR.duplicateObject) {
        throw new ServiceError(
          'CONFLICT',
          `A table, index or constraint name this definition needs is taken (${pg.message}); ` +
            'choose another slug or field name',
        );
      }
      throw e;
    }
  }

  /**
   * The definition row, and for a collection or single its table, its permissions and (a single)
   * its one row. Foreign keys to other tables are run here, or pushed onto `links` for the caller
   * to run once every new table exists. Answers the permission slugs that existed already (none
   * written): the caller refuses, rolling back.
   */
  async insertTarget(
    em: EntityManager,
    kind: DefinitionKind,
    slug: string,
    source: DefinitionSource,
    def: StoredDefinition,
    links?: string[],
  ): Promise<{ row: DefinitionRow; takenPermissions: string[] }> {
    const row = await this.repo.insert(em, { kind, slug, source, definition: def });
    if (kind === 'field-group') {
      return { row, takenPermissions: [] };
    }
    const table = tableOf(row);
    const plan = createTablePlan(table, def.fields, { drafts: def.drafts === true });
    await this.runDdl(em, links ? plan.create : [...plan.create, ...plan.link]);
    links?.push(...plan.link);
    if (kind === 'single') {
      await this.repo.insertSingleRow(em, table, row.id, def.drafts === true);
    }
    // The built-in media collection's permissions are seeded by the first migration: its own.
    const takenPermissions = await this.rbac.registerResource(em, row.id, slug, CONTENT_ACTIONS, {
      claimExisting: source === 'system',
    });
    if (def.drafts === true) {
      await this.rbac.setPublishPermission(em, row.id, slug, true);
    }
    return { row, takenPermissions };
  }

  async dropTarget(em: EntityManager, row: DefinitionRow, appliedBy: string | null): Promise<void> {
    if (row.kind !== 'field-group') {
      await this.repo.execute(em, dropTableDdl(tableOf(row), row.definition.fields));
      await this.rbac.removeResource(em, row.id);
    }
    await this.repo.delete(em, row.id);
    await this.record(em, row.kind, row.slug, planSchemaChange(row.definition.fields, []), appliedBy);
  }

  /**
   * The journal row of `changes` and its `schema-applied` audit row (CONTRACTS 14.3: target
   * `<kind>:<slug>`, actor the applier or none for the code sync, metadata the kind and field of
   * each change, at most AUDITED_CHANGES of them); none when nothing changed. `options` names the
   * definition options set or changed (`access`, `versions`): they change no table, so they get
   * the audit row (`options`, with `count: 0` when alone) and no journal row.
   */
  async record(
    em: EntityManager,
    target: DefinitionKind,
    slug: string,
    changes: readonly ChangeRecord[],
    appliedBy: string | null,
    { options = [] }: { options?: readonly string[] } = {},
  ): Promise<void> {
    if (changes.length) {
      await this.repo.insertJournal(em, { target, slug, changes: [...changes], appliedBy });
      await this.outbox.emit(em, [{ type: 'schema.applied', data: { target, slug, changes: [...changes] } }]);
    }
    if (changes.length || options.length) {
      await this.audit.record(
        {
          event: AUDIT_EVENTS.schemaApplied,
          actorId: appliedBy,
          target: `${target}:${slug}`,
          metadata: {
            count: changes.length,
            destructive: changes.some((c) => c.destructive),
            changes: changes
              .slice(0, AUDITED_CHANGES)
              .map((c) => ({ kind: c.kind, field: c.field, destructive: c.destructive })),
            ...(options.length ? { options: [...options] } : {}),
          },
        },
        em,
      );
    }
  }

  async refuseReferenced(em: EntityManager, row: DefinitionRow): Promise<void> {
    const users: string[] = [];
    for (const other of await this.repo.all(em)) {
      if (other.id === row.id) {
        continue;
      }
      for (const f of other.definition.fields) {
        const refers =
          row.kind === 'collection'
            ? (f.type === 'relationship' || f.type === 'upload') && f.relationTo === row.slug
            : row.kind === 'field-group' && f.type === 'component' && f.fieldGroup === row.slug;
        if (refers) {
          users.push(`${KIND_WORD[other.kind]} "${other.slug}" field "${f.name}"`);
        }
      }
    }
    if (users.length) {
      throw new ServiceError(
        'CONFLICT',
        `The ${KIND_WORD[row.kind]} "${row.slug}" is still used by ${users.join(', ')}; change those first`,
        { usedBy: users },
      );
    }
  }

  /** The target's own lock, then the field-group graph's (exclusive for a field group). */
  private async lockTarget(em: EntityManager, kind: DefinitionKind, slug: string): Promise<void> {
    await this.repo.lock(em, lockKey(kind, slug));
    await this.repo.lock(em, GROUPS_LOCK, kind === 'field-group' ? 'exclusive' : 'shared');
  }
}
