import { withoutStatementTimeout } from '../../database/data-source';
import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { ServiceError, ValidationIssue } from '../../common/errors';
import { listRecord, ListRecord, parseListQuery } from '../../common/pagination';
import type { AccessRule, CollectionConfig, FieldConfig, SingleConfig } from '../../config/config.types';
import { ConfigError } from '../../config/env';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../svc.options';
import type { AuthContext } from '../auth/auth-context';
import { RbacService } from '../rbac/rbac.service';
import { checkLabel } from '../user-fields/user-field-values';
import {
  CONTENT_ACTIONS,
  ContentAction,
  Definition,
  DefinitionKind,
  DefinitionSource,
  StoredDefinition,
  tableOf,
} from './content.types';
import { DefinitionRow, DefinitionsRepository } from './definitions.repository';
import { EntryCounts } from './entries/entry-counts';
import { MEDIA_FIELDS, MEDIA_SLUG } from './media.definition';
import { toDefinitionRecord } from './definition.mapper';
import {
  Change,
  createTablePlan,
  ddlFor,
  draftsDdl,
  dropTableDdl,
  EXPANSION_LIMITS,
  expandFields,
  ExpansionLimits,
  indexUpgradeDdl,
  FieldWithId,
  findGroupCycle,
  measureExpansion,
  planSchemaChange,
  reachesGroup,
  relationNames,
  summarize,
  validateDefinition,
} from './schema';

/** Bound on staleness of the registry: other instances' schema changes are seen within 5 s. */
const REGISTRY_TTL_MS = 5000;

const KIND_WORD: Record<DefinitionKind, string> = {
  collection: 'collection',
  single: 'single',
  'field-group': 'field group',
};

type ChangeRecord =
  Change | { kind: 'alter'; field: 'status'; from: object; to: object; destructive: boolean };

interface Snapshot {
  at: number;
  byKey: Map<string, Definition>;
}

const key = (kind: DefinitionKind, slug: string): string => `${kind}:${slug}`;
/** Collections and singles share one slug space (and so one lock); field groups have their own. */
const lockKey = (kind: DefinitionKind, slug: string): string =>
  kind === 'field-group' ? `group:${slug}` : `entries:${slug}`;
/**
 * The field-group graph: taken exclusively by field-group writes, shared by collection and single
 * writes and the boot sync, always after the target's own lock. The cycle and size checks read
 * every group, so two writes that each pass alone (a -> b, then b -> a) cannot commit together.
 */
const GROUPS_LOCK = 'field-groups';

function notFound(kind: DefinitionKind): ServiceError {
  return new ServiceError('NOT_FOUND', `No such ${KIND_WORD[kind]}`);
}

/**
 * Collections, singles and field groups: the registry every content request reads, the REST
 * schema builder, and the boot-time sync of code-defined definitions. Every schema change runs
 * its DDL, the definition row and a journal row in one transaction under an advisory lock per
 * target (DESIGN 9); the planner decides what is destructive.
 *
 * Registry cache: all definitions, loaded in one query. Bound on staleness: a snapshot is used
 * for at most 5 s, and every write on this instance reloads it before answering; a load that
 * started before a write is not kept (generation).
 */
@Injectable()
export class SchemaService implements OnModuleInit {
  private readonly logger = new Logger('Content');
  private snapshot: Snapshot | null = null;
  /** The newest loaded snapshot, kept through invalidate(): for lookups that must not query. */
  private last: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;
  private generation = 0;
  private readonly codeAccess = new Map<string, Partial<Record<ContentAction, AccessRule>>>();

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
    private readonly repo: DefinitionsRepository,
    private readonly rbac: RbacService,
    private readonly counts: EntryCounts,
  ) {
    for (const c of options.config.collections) {
      this.codeAccess.set(key('collection', c.slug), c.access ?? {});
    }
    for (const s of options.config.singles) {
      this.codeAccess.set(key('single', s.slug), s.access ?? {});
    }
  }

  async onModuleInit(): Promise<void> {
    await this.syncCode();
    await this.reload();
  }

  // -------------------------------------------------------------------------------------------
  // Registry

  async find(kind: DefinitionKind, slug: string): Promise<Definition | undefined> {
    return (await this.current()).byKey.get(key(kind, slug));
  }

  async get(kind: DefinitionKind, slug: string): Promise<Definition> {
    const def = await this.find(kind, slug);
    if (!def) {
      throw notFound(kind);
    }
    return def;
  }

  async all(kind: DefinitionKind): Promise<Definition[]> {
    return [...(await this.current()).byKey.values()].filter((d) => d.kind === kind);
  }

  /**
   * A definition from the newest loaded snapshot, without a query: for code holding a connection
   * in a transaction (a reload there would need a second connection, and a pool full of such
   * transactions would wait for one forever). Callers awaited a registry read before.
   */
  peek(kind: DefinitionKind, slug: string): Definition | undefined {
    return this.last?.byKey.get(key(kind, slug));
  }

  /** The fields of a field group from the newest snapshot (callers awaited a registry read first). */
  fieldGroupFields(slug: string): readonly FieldConfig[] | undefined {
    return this.peek('field-group', slug)?.fields;
  }

  /**
   * The definition record with every component field carrying its group's fields, nested
   * (`GET /collections/schema/{slug}`, `/singles/{slug}/schema`), within EXPANSION_LIMITS.
   */
  enriched(def: Definition): Record<string, unknown> {
    return {
      ...toDefinitionRecord(def),
      fields: expandFields(def.fields, (slug) => this.fieldGroupFields(slug)),
    };
  }

  /**
   * Forget the snapshot (another instance changed a table under this one), and every cached
   * entry total: called after this instance's schema changes commit, and when a table changed
   * under it.
   */
  invalidate(): void {
    this.generation++;
    this.snapshot = null;
    this.counts.bumpAll();
  }

  private async current(): Promise<Snapshot> {
    const s = this.snapshot;
    if (s && Date.now() - s.at < REGISTRY_TTL_MS) {
      return s;
    }
    return this.reload();
  }

  private reload(): Promise<Snapshot> {
    if (!this.loading) {
      const generation = this.generation;
      this.loading = this.repo
        .all(this.db.manager)
        .then((found) => {
          const snap: Snapshot = { at: Date.now(), byKey: new Map() };
          for (const row of found) {
            snap.byKey.set(key(row.kind, row.slug), this.toDefinition(row));
          }
          if (generation === this.generation) {
            this.snapshot = snap;
          }
          this.last = snap;
          return snap;
        })
        .finally(() => {
          this.loading = null;
        });
    }
    return this.loading;
  }

  private async afterWrite(): Promise<void> {
    this.invalidate();
    await this.reload();
  }

  private toDefinition(row: DefinitionRow): Definition {
    const d = row.definition;
    return {
      id: row.id,
      kind: row.kind,
      slug: row.slug,
      source: row.source,
      labels: d.labels,
      label: d.label,
      drafts: d.drafts === true,
      fields: d.fields,
      access: row.source === 'code' ? (this.codeAccess.get(key(row.kind, row.slug)) ?? {}) : {},
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  // -------------------------------------------------------------------------------------------
  // REST: create, update, delete, preview, apply, journal

  async create(kind: DefinitionKind, body: unknown, auth: AuthContext): Promise<Definition> {
    const input = readBody(body, kind, 'create');
    const stored = await this.db.transaction(async (em) => {
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
      await this.record(em, kind, slug, planSchemaChange([], next.fields), auth.user.id);
      return row;
    });
    await this.afterWrite();
    if (kind !== 'field-group') {
      this.rbac.invalidate();
    }
    return this.toDefinition(stored);
  }

  /**
   * PATCH of a definition: labels (collections), label (singles, field groups), drafts and fields;
   * a fields or drafts change is applied like `apply` (destructive ones need confirmDestructive).
   */
  async update(kind: DefinitionKind, slug: string, body: unknown, auth: AuthContext): Promise<Definition> {
    const input = readBody(body, kind, 'update');
    return this.change(kind, slug, auth, (current) => storedFrom(input, current.fields, current), {
      confirm: input.confirmDestructive === true,
    }).then((r) => r.item);
  }

  async preview(kind: DefinitionKind, slug: string, body: unknown): Promise<ReturnType<typeof summarize>> {
    const input = readBody(body, kind, 'schema');
    const def = await this.get(kind, slug);
    const current = storedOf(def);
    const next = storedFrom(input, current.fields, current);
    // What apply would refuse, read without its locks (a preview changes nothing).
    const rows = await this.repo.all(this.db.manager);
    validateAgainst(rows, kind, slug, next, true);
    refuse(conflictWith(rows, { kind, slug, definition: next }));
    const changes = planFull(current, next);
    return { changes, destructive: changes.some((c) => c.destructive) };
  }

  async apply(
    kind: DefinitionKind,
    slug: string,
    body: unknown,
    auth: AuthContext,
  ): Promise<{ item: Definition; changes: ChangeRecord[] }> {
    const input = readBody(body, kind, 'schema');
    return this.change(kind, slug, auth, (current) => storedFrom(input, current.fields, current), {
      confirm: input.confirmDestructive === true,
    });
  }

  async remove(kind: DefinitionKind, slug: string, auth: AuthContext): Promise<Definition> {
    const removed = await this.db.transaction(async (em) => {
      await withoutStatementTimeout(em);
      // A field group's users are read below: the graph lock keeps new ones from appearing.
      await this.lockTarget(em, kind, slug);
      const row = await this.repo.find(em, kind, slug);
      if (!row) {
        throw notFound(kind);
      }
      refuseNonUi(row);
      await this.refuseReferenced(em, row);
      await this.dropTarget(em, row, auth.user.id);
      return row;
    });
    await this.afterWrite();
    if (kind !== 'field-group') {
      this.rbac.invalidate();
    }
    return this.toDefinition(removed);
  }

  async journal(query: Record<string, unknown>): Promise<ListRecord<JournalRecord>> {
    const q = parseListQuery<'appliedAt'>(query, {
      sortable: ['appliedAt'],
      defaultSort: { field: 'appliedAt', direction: 'desc' },
    });
    if (q.search !== undefined) {
      throw ServiceError.validation([
        { path: 'search', code: 'notAllowed', message: 'the journal has no search' },
      ]);
    }
    const found = await this.repo.listJournal(this.db.manager, {
      limit: q.limit,
      offset: q.offset,
      direction: q.sort.direction,
    });
    return listRecord(
      found.rows.map((r) => ({
        id: r.id,
        target: r.target,
        slug: r.slug,
        changes: r.changes,
        appliedBy: r.applied_by,
        appliedAt: r.applied_at,
      })),
      found.total,
      q,
    );
  }

  // -------------------------------------------------------------------------------------------
  // The applier

  private async change(
    kind: DefinitionKind,
    slug: string,
    auth: AuthContext,
    build: (current: StoredDefinition) => StoredDefinition,
    opts: { confirm: boolean },
  ): Promise<{ item: Definition; changes: ChangeRecord[] }> {
    const result = await this.db.transaction(async (em) => {
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
      const changes = await this.applyTo(em, row, next, { confirm: opts.confirm, appliedBy: auth.user.id });
      const updated =
        changes.length || !sameMeta(row.definition, next) ? await this.repo.update(em, row.id, next) : row;
      return { row: updated, changes };
    });
    await this.afterWrite();
    return { item: this.toDefinition(result.row), changes: result.changes };
  }

  /** Plans and runs the DDL of `row` -> `next` and journals it; the caller holds the lock. */
  private async applyTo(
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
        ddl.push(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
      }
      await this.runDdl(em, [...ddl, ...drafts]);
    }
    await this.record(em, row.kind, row.slug, changes, opts.appliedBy);
    return changes;
  }

  private async runDdl(em: EntityManager, statements: string[]): Promise<void> {
    try {
      await this.repo.execute(em, statements);
    } catch (e) {
      const driver = (e as { driverError?: { code?: string; message?: string } }).driverError;
      if (e instanceof QueryFailedError && driver?.code === '23505') {
        throw new ServiceError('CONFLICT', 'Stored values repeat, so the field cannot be made unique');
      }
      // A name conflictWith could not foresee: a table outside the content engine, or two of one
      // definition's own shortened names meeting (a hash collision). Still the caller's choice.
      if (e instanceof QueryFailedError && (driver?.code === '42P07' || driver?.code === '42710')) {
        throw new ServiceError(
          'CONFLICT',
          `A table, index or constraint name this definition needs is taken (${driver.message}); ` +
            'choose another slug or field name',
        );
      }
      throw e;
    }
  }

  /** The target's own lock, then the field-group graph's (exclusive for a field group). */
  private async lockTarget(em: EntityManager, kind: DefinitionKind, slug: string): Promise<void> {
    await this.repo.lock(em, lockKey(kind, slug));
    await this.repo.lock(em, GROUPS_LOCK, kind === 'field-group' ? 'exclusive' : 'shared');
  }

  /**
   * The definition row, and for a collection or single its table, its permissions and (a single)
   * its one row. Foreign keys to other tables are run here, or pushed onto `links` for the caller
   * to run once every new table exists. Answers the permission slugs that existed already (none
   * written): the caller refuses, rolling back.
   */
  private async insertTarget(
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
    return { row, takenPermissions };
  }

  private async dropTarget(em: EntityManager, row: DefinitionRow, appliedBy: string | null): Promise<void> {
    if (row.kind !== 'field-group') {
      await this.repo.execute(em, dropTableDdl(tableOf(row), row.definition.fields));
      await this.rbac.removeResource(em, row.id);
    }
    await this.repo.delete(em, row.id);
    await this.record(em, row.kind, row.slug, planSchemaChange(row.definition.fields, []), appliedBy);
  }

  private async record(
    em: EntityManager,
    target: DefinitionKind,
    slug: string,
    changes: readonly ChangeRecord[],
    appliedBy: string | null,
  ): Promise<void> {
    if (changes.length) {
      await this.repo.insertJournal(em, { target, slug, changes: [...changes], appliedBy });
    }
  }

  private async refuseReferenced(em: EntityManager, row: DefinitionRow): Promise<void> {
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

  // -------------------------------------------------------------------------------------------
  // Boot sync of code-defined collections and singles (and the built-in media collection)

  /**
   * Brings the database to the code's definitions through the same planner and DDL as REST, in
   * one transaction under a global lock (two instances booting at once take turns). A destructive
   * change stops the boot, naming it, unless acceptDestructiveSchema (SVC_SCHEMA_ACCEPT_DESTRUCTIVE),
   * and so does every problem REST would answer 4xx for (all of them in one message). Every single
   * ends with its one row (one made before singles got theirs at creation gets it here).
   */
  async syncCode(): Promise<void> {
    const wanted = codeDefinitions(this.options.config.collections, this.options.config.singles);
    const problems: string[] = [];
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
      const storedByKey = new Map(stored.map((r) => [key(r.kind, r.slug), r]));
      const groups = stored.filter((r) => r.kind === 'field-group').map((r) => r.slug);
      const collections = [
        ...new Set([
          ...stored.filter((r) => r.kind === 'collection' && r.source === 'ui').map((r) => r.slug),
          ...wanted.filter((w) => w.kind === 'collection').map((w) => w.slug),
        ]),
      ];

      const creates: Array<{ w: CodeDefinition; def: StoredDefinition }> = [];
      const updates: Array<{ w: CodeDefinition; row: DefinitionRow; def: StoredDefinition }> = [];
      for (const w of wanted) {
        const where = `${w.kind === 'collection' ? 'collections' : 'singles'}[${w.slug}]`;
        const other = stored.find((r) => r.slug === w.slug && r.kind !== 'field-group' && r.source === 'ui');
        if (other) {
          problems.push(
            `${where}: the slug is taken by the ${KIND_WORD[other.kind]} created over REST; rename one of them`,
          );
          continue;
        }
        const row = storedByKey.get(key(w.kind, w.slug));
        const def = storedFrom(w.input, row?.definition.fields ?? [], row?.definition);
        // The built-in definitions are constants of this codebase (and `media` is a reserved slug).
        const issues =
          w.source === 'system'
            ? []
            : validateDefinition(
                { slug: w.slug, fields: def.fields, drafts: def.drafts },
                { knownCollections: collections, knownFieldGroups: groups, storedSlug: row !== undefined },
              );
        problems.push(...issues.map((i) => `${where}.${i.path}: ${i.message}`));
        if (issues.length) {
          continue;
        }
        if (!row) {
          creates.push({ w, def });
          continue;
        }
        const changes = planFull(row.definition, def);
        if (changes.some((c) => c.destructive) && !this.options.acceptDestructiveSchema) {
          problems.push(
            `${where}: destructive schema change (${describe(changes.filter((c) => c.destructive))}); ` +
              'apply it with SVC_SCHEMA_ACCEPT_DESTRUCTIVE=true, or undo it in the configuration',
          );
          continue;
        }
        if (changes.length || !sameMeta(row.definition, def)) {
          updates.push({ w, row, def });
        }
      }
      const removed = stored.filter(
        (r) => r.source === 'code' && !wanted.some((w) => w.kind === r.kind && w.slug === r.slug),
      );
      if (removed.length && !this.options.acceptDestructiveSchema) {
        for (const r of removed) {
          problems.push(
            `${KIND_WORD[r.kind]} "${r.slug}" was removed from the configuration; dropping its table deletes ` +
              'its entries: set SVC_SCHEMA_ACCEPT_DESTRUCTIVE=true to drop it, or put it back',
          );
        }
      }
      // Field groups and table names, checked against the definitions as they will be.
      const after: DefinitionLike[] = [
        ...stored.filter((r) => !removed.includes(r) && !updates.some((u) => u.row === r)),
        ...[...creates, ...updates].map(({ w, def }) => ({ kind: w.kind, slug: w.slug, definition: def })),
      ];
      for (const { w, def } of [...creates, ...updates]) {
        const conflict = conflictWith(after, { kind: w.kind, slug: w.slug, definition: def });
        if (conflict) {
          problems.push(
            `${w.kind === 'collection' ? 'collections' : 'singles'}[${w.slug}]: ${conflict.message}`,
          );
        }
      }
      if (problems.length) {
        throw new ConfigError(problems);
      }

      // Tables first, then foreign keys between them (new collections may reference each other).
      const links: string[] = [];
      for (const { w, def } of creates) {
        const { takenPermissions } = await this.insertTarget(em, w.kind, w.slug, w.source, def, links);
        if (takenPermissions.length) {
          problems.push(
            `${w.kind === 'collection' ? 'collections' : 'singles'}[${w.slug}]: the permissions ` +
              `${takenPermissions.join(', ')} exist already and do not belong to it (created over ` +
              '/admin/api/permissions or by a plugin); delete them or rename it',
          );
        }
        await this.record(em, w.kind, w.slug, planSchemaChange([], def.fields), null);
        summary.push(`created ${KIND_WORD[w.kind]} ${w.slug}`);
      }
      if (problems.length) {
        throw new ConfigError(problems);
      }
      await this.runDdl(em, links);
      for (const { row, def } of updates) {
        const changes = await this.applyTo(em, row, def, { confirm: true, appliedBy: null });
        await this.repo.update(em, row.id, def);
        if (changes.length) {
          summary.push(`${KIND_WORD[row.kind]} ${row.slug}: ${describe(changes)}`);
        }
      }
      for (const r of removed) {
        await this.refuseReferenced(em, r);
        await this.dropTarget(em, r, null);
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
          await this.runDdl(em, upgrade);
          summary.push(`collection ${r.slug}: indexes on (field, id)`);
        }
      }
    });
    if (summary.length) {
      this.logger.log(`Schema synchronised with the configuration: ${summary.join('; ')}`);
      this.invalidate();
      this.rbac.invalidate();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Checks against the stored definitions

/** What the checks read of a definition (a stored row, or one about to be written). */
type DefinitionLike = Pick<DefinitionRow, 'kind' | 'slug'> & { definition: Pick<StoredDefinition, 'fields'> };

interface Conflict {
  message: string;
  data: Record<string, unknown>;
}

/** The definition rules, with the slugs `rows` hold as the known targets: 400 VALIDATION_ERROR. */
function validateAgainst(
  rows: readonly DefinitionLike[],
  kind: DefinitionKind,
  slug: unknown,
  def: StoredDefinition,
  storedSlug: boolean,
): void {
  const issues = validateDefinition(
    { slug, fields: def.fields, drafts: kind === 'field-group' ? undefined : def.drafts },
    {
      // A collection may reference itself; a single or group is no relationship target.
      knownCollections: [
        ...rows.filter((r) => r.kind === 'collection').map((r) => r.slug),
        ...(kind === 'collection' && typeof slug === 'string' ? [slug] : []),
      ],
      // A group naming itself would nest forever (cycles through others: conflictWith).
      knownFieldGroups: rows
        .filter((r) => r.kind === 'field-group' && !(kind === 'field-group' && r.slug === slug))
        .map((r) => r.slug),
      storedSlug,
    },
  );
  if (issues.length) {
    throw ServiceError.validation(issues);
  }
}

/**
 * Why `next` cannot join `rows` (409 CONFLICT), or null. Both depend on the other definitions,
 * not on `next` alone, hence a conflict rather than a validation error:
 * - a cycle of field groups reachable from it (named `a -> b -> a`);
 * - an expansion over EXPANSION_LIMITS, of `next` or (for a field group) of any definition that
 *   embeds it, so an enriched schema is bounded when written, not only when read;
 * - a table or index name that another collection or single holds (shortened long names meet).
 */
function conflictWith(rows: readonly DefinitionLike[], next: DefinitionLike): Conflict | null {
  const isGroup = next.kind === 'field-group';
  const groups = new Map(
    rows.filter((r) => r.kind === 'field-group').map((r) => [r.slug, r.definition.fields]),
  );
  if (isGroup) {
    groups.set(next.slug, next.definition.fields);
  }
  const lookup = (slug: string): readonly FieldConfig[] | undefined => groups.get(slug);

  const cycle = findGroupCycle(next.definition.fields, lookup, isGroup ? next.slug : undefined);
  if (cycle) {
    return {
      message: `Field groups cannot embed each other in a cycle: ${cycle.join(' -> ')}`,
      data: { cycle },
    };
  }
  const same = (r: DefinitionLike): boolean => r.kind === next.kind && r.slug === next.slug;
  const affected = [
    next,
    ...(isGroup ? rows.filter((r) => !same(r) && reachesGroup(r.definition.fields, lookup, next.slug)) : []),
  ];
  for (const d of affected) {
    const over = measureExpansion(d.definition.fields, lookup).over;
    if (over) {
      return {
        message:
          `The ${KIND_WORD[d.kind]} "${d.slug}" would expand to ${LIMIT_WORDS[over]} with the field groups ` +
          'it embeds' +
          (same(d) ? '' : ` (it embeds the field group "${next.slug}")`),
        data: { definition: { kind: d.kind, slug: d.slug }, limit: over, limits: EXPANSION_LIMITS },
      };
    }
  }

  if (isGroup) {
    return null;
  }
  const mine = new Set(relationNames(tableOf(next), next.definition.fields));
  for (const r of rows) {
    if (r.kind === 'field-group' || r.slug === next.slug) {
      continue;
    }
    const name = relationNames(tableOf(r), r.definition.fields).find((n) => mine.has(n));
    if (name !== undefined) {
      return {
        message:
          `The table or index name "${name}" of the ${KIND_WORD[next.kind]} "${next.slug}" is already used by ` +
          `the ${KIND_WORD[r.kind]} "${r.slug}" (names over 63 bytes are shortened with a hash); ` +
          'choose another slug or field name',
        data: { name, usedBy: { kind: r.kind, slug: r.slug } },
      };
    }
  }
  return null;
}

const LIMIT_WORDS: Record<keyof ExpansionLimits, string> = {
  depth: `more than ${EXPANSION_LIMITS.depth} levels of fields`,
  fields: `more than ${EXPANSION_LIMITS.fields} fields`,
  chars: `more than ${EXPANSION_LIMITS.chars} characters of field definitions`,
};

function refuse(conflict: Conflict | null): void {
  if (conflict) {
    throw new ServiceError('CONFLICT', conflict.message, conflict.data);
  }
}

// ---------------------------------------------------------------------------------------------
// Bodies and definitions

export interface JournalRecord {
  id: string;
  target: DefinitionKind;
  slug: string;
  changes: unknown[];
  appliedBy: string | null;
  appliedAt: Date;
}

interface DefinitionInput {
  slug?: unknown;
  labels?: unknown;
  label?: unknown;
  drafts?: unknown;
  fields?: unknown;
  confirmDestructive?: unknown;
}

const BODY_KEYS: Record<DefinitionKind, Record<'create' | 'update' | 'schema', readonly string[]>> = {
  collection: {
    create: ['slug', 'labels', 'fields', 'drafts'],
    update: ['labels', 'fields', 'drafts', 'confirmDestructive'],
    schema: ['fields', 'drafts', 'confirmDestructive'],
  },
  single: {
    create: ['slug', 'label', 'fields', 'drafts'],
    update: ['label', 'fields', 'drafts', 'confirmDestructive'],
    schema: ['fields', 'drafts', 'confirmDestructive'],
  },
  'field-group': {
    create: ['slug', 'label', 'fields'],
    update: ['label', 'fields', 'confirmDestructive'],
    schema: ['fields', 'confirmDestructive'],
  },
};

/** Checks the envelope of a definition body; field rules are validateDefinition's. */
function readBody(
  body: unknown,
  kind: DefinitionKind,
  mode: 'create' | 'update' | 'schema',
): DefinitionInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ServiceError.validation([
      { path: '', code: 'isObject', message: 'the body must be a JSON object' },
    ]);
  }
  const input = body as Record<string, unknown>;
  const allowed = BODY_KEYS[kind][mode];
  const issues: ValidationIssue[] = [];
  for (const k of Object.keys(input)) {
    if (!allowed.includes(k)) {
      issues.push({
        path: k,
        code: 'unknown_field',
        message:
          k === 'access'
            ? 'access rules are functions and can only be defined in the configuration file'
            : `"${k}" is not accepted here (allowed: ${allowed.join(', ')})`,
      });
    }
  }
  if (mode === 'schema' && input.fields === undefined) {
    issues.push({ path: 'fields', code: 'required', message: 'fields is required' });
  }
  if (input.labels !== undefined) {
    const l = input.labels as Record<string, unknown> | null;
    if (typeof l !== 'object' || l === null || Array.isArray(l)) {
      issues.push({ path: 'labels', code: 'isObject', message: 'labels must be { singular, plural }' });
    } else {
      for (const k of Object.keys(l)) {
        if (k !== 'singular' && k !== 'plural') {
          issues.push({
            path: `labels.${k}`,
            code: 'unknown_field',
            message: 'labels holds singular and plural only',
          });
        }
      }
      for (const k of ['singular', 'plural'] as const) {
        const sink: ValidationIssue[] = [];
        if (typeof l[k] !== 'string' || (l[k] as string).trim() === '') {
          sink.push({ path: 'label', code: 'isString', message: `${k} must be a non-empty string` });
        } else {
          checkLabel(l[k], sink);
        }
        issues.push(...sink.map((i) => ({ ...i, path: `labels.${k}` })));
      }
    }
  }
  if (input.label !== undefined) {
    const sink: ValidationIssue[] = [];
    checkLabel(input.label, sink);
    issues.push(...sink);
  }
  if (input.confirmDestructive !== undefined && typeof input.confirmDestructive !== 'boolean') {
    issues.push({
      path: 'confirmDestructive',
      code: 'isBoolean',
      message: 'confirmDestructive must be a boolean',
    });
  }
  if (issues.length) {
    throw ServiceError.validation(issues);
  }
  return input;
}

/**
 * The stored definition a body asks for: absent keys keep `current`'s, each field keeps the id of
 * the field it is paired with (its own id, else the stored field of the same name), new fields
 * get a new id.
 */
function storedFrom(
  input: DefinitionInput,
  currentFields: readonly FieldWithId[],
  current?: StoredDefinition,
): StoredDefinition {
  const out: StoredDefinition = { fields: currentFields.map((f) => ({ ...f })) };
  const labels = input.labels ?? current?.labels;
  if (labels) {
    out.labels = labels as StoredDefinition['labels'];
  }
  const label = input.label ?? current?.label;
  if (label !== undefined) {
    out.label = String(label).trim();
  }
  out.drafts = input.drafts !== undefined ? (input.drafts as boolean) : current?.drafts === true;
  if (input.fields !== undefined && !Array.isArray(input.fields)) {
    out.fields = input.fields as FieldWithId[]; // validateDefinition reports it
  } else if (input.fields !== undefined) {
    const given = input.fields as unknown[];
    const byName = new Map(currentFields.map((f) => [f.name, f]));
    const claimed = new Set(
      given.map((f) => (isObject(f) ? f.id : undefined)).filter((id) => typeof id === 'string'),
    );
    out.fields = given.map((f) => {
      if (!isObject(f)) {
        return f as FieldWithId; // validateDefinition reports it
      }
      const clean = cleanField(f as unknown as FieldWithId);
      if (clean.id === undefined && typeof clean.name === 'string') {
        const same = byName.get(clean.name)?.id;
        clean.id = same !== undefined && !claimed.has(same) ? same : randomUUID();
        claimed.add(clean.id);
      }
      return clean;
    });
  }
  return out;
}

/** A field as stored: the keys given, undefined ones left out, label trimmed. */
function cleanField(f: FieldWithId): FieldWithId {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(f)) {
    if (v !== undefined) {
      out[k] = k === 'label' && typeof v === 'string' ? v.trim() : v;
    }
  }
  return out as unknown as FieldWithId;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function storedOf(def: Definition): StoredDefinition {
  return { labels: def.labels, label: def.label, drafts: def.drafts, fields: def.fields };
}

/** Field changes plus a drafts switch (as an alter of the `status` system field). */
function planFull(current: StoredDefinition, next: StoredDefinition): ChangeRecord[] {
  const changes: ChangeRecord[] = planSchemaChange(current.fields, next.fields);
  const from = current.drafts === true;
  const to = next.drafts === true;
  if (from !== to) {
    // Turning drafts off makes every draft public: destructive.
    changes.push({
      kind: 'alter',
      field: 'status',
      from: { drafts: from },
      to: { drafts: to },
      destructive: !to,
    });
  }
  return changes;
}

function sameMeta(a: StoredDefinition, b: StoredDefinition): boolean {
  return JSON.stringify([a.labels, a.label, a.fields]) === JSON.stringify([b.labels, b.label, b.fields]);
}

function refuseNonUi(row: DefinitionRow): void {
  if (row.source !== 'ui') {
    throw new ServiceError(
      'CONFLICT',
      row.source === 'system'
        ? `The ${KIND_WORD[row.kind]} "${row.slug}" is built into the service and cannot be changed`
        : `The ${KIND_WORD[row.kind]} "${row.slug}" is defined in the configuration file; change it there`,
    );
  }
}

function describe(changes: readonly ChangeRecord[]): string {
  return changes.map((c) => `${c.kind} ${c.field}`).join(', ');
}

interface CodeDefinition {
  kind: 'collection' | 'single';
  slug: string;
  source: DefinitionSource;
  input: DefinitionInput;
}

function codeDefinitions(collections: CollectionConfig[], singles: SingleConfig[]): CodeDefinition[] {
  return [
    {
      kind: 'collection',
      slug: MEDIA_SLUG,
      source: 'system',
      input: { labels: { singular: 'Media', plural: 'Media' }, fields: MEDIA_FIELDS, drafts: false },
    },
    ...collections.map((c): CodeDefinition => ({
      kind: 'collection',
      slug: c.slug,
      source: 'code',
      input: { labels: c.labels, fields: c.fields, drafts: c.drafts === true },
    })),
    ...singles.map((s): CodeDefinition => ({
      kind: 'single',
      slug: s.slug,
      source: 'code',
      input: { label: s.label, fields: s.fields, drafts: s.drafts === true },
    })),
  ];
}
