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
import { MEDIA_FIELDS, MEDIA_SLUG } from './media.definition';
import {
  Change,
  createTablePlan,
  ddlFor,
  draftsDdl,
  dropTableDdl,
  FieldWithId,
  planSchemaChange,
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

  /** Forget the snapshot (another instance changed a table under this one). */
  invalidate(): void {
    this.generation++;
    this.snapshot = null;
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
      const next = storedFrom(input, []);
      await this.validate(em, kind, input.slug, next);
      const slug = input.slug as string;
      await this.repo.lock(em, lockKey(kind, slug));
      const taken =
        kind === 'field-group'
          ? await this.repo.find(em, kind, slug)
          : await this.repo.findEntryTarget(em, slug);
      if (taken) {
        throw new ServiceError(
          'CONFLICT',
          `The slug "${slug}" is already used by the ${KIND_WORD[taken.kind]} "${taken.slug}"`,
        );
      }
      const row = await this.insertTarget(em, kind, slug, 'ui', next);
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
    const issues = validateDefinition(
      { slug, fields: next.fields, drafts: next.drafts },
      await this.known(kind, slug),
    );
    if (issues.length) {
      throw ServiceError.validation(issues);
    }
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
      await this.repo.lock(em, lockKey(kind, slug));
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
      await this.repo.lock(em, lockKey(kind, slug));
      const row = await this.repo.find(em, kind, slug);
      if (!row) {
        throw notFound(kind);
      }
      refuseNonUi(row);
      const next = build(row.definition);
      await this.validate(em, kind, slug, next);
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
      const code = (e as { driverError?: { code?: string } }).driverError?.code;
      if (e instanceof QueryFailedError && code === '23505') {
        throw new ServiceError('CONFLICT', 'Stored values repeat, so the field cannot be made unique');
      }
      throw e;
    }
  }

  private async insertTarget(
    em: EntityManager,
    kind: DefinitionKind,
    slug: string,
    source: DefinitionSource,
    def: StoredDefinition,
  ): Promise<DefinitionRow> {
    const row = await this.repo.insert(em, { kind, slug, source, definition: def });
    if (kind !== 'field-group') {
      const plan = createTablePlan(tableOf({ kind, slug }), def.fields, { drafts: def.drafts === true });
      await this.runDdl(em, [...plan.create, ...plan.link]);
      await this.rbac.registerResource(em, slug, CONTENT_ACTIONS);
    }
    return row;
  }

  private async dropTarget(em: EntityManager, row: DefinitionRow, appliedBy: string | null): Promise<void> {
    if (row.kind !== 'field-group') {
      await this.repo.execute(em, dropTableDdl(tableOf(row), row.definition.fields));
      await this.rbac.removeResource(em, row.slug, CONTENT_ACTIONS);
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

  /** Definition rules plus what only the database knows (targets, field groups). */
  private async validate(
    em: EntityManager,
    kind: DefinitionKind,
    slug: unknown,
    def: StoredDefinition,
  ): Promise<void> {
    const issues = validateDefinition(
      { slug, fields: def.fields, drafts: kind === 'field-group' ? undefined : def.drafts },
      await this.known(kind, typeof slug === 'string' ? slug : '', em),
    );
    if (issues.length) {
      throw ServiceError.validation(issues);
    }
  }

  private async known(
    kind: DefinitionKind,
    slug: string,
    em: EntityManager = this.db.manager,
  ): Promise<{ knownCollections: string[]; knownFieldGroups: string[] }> {
    const found = await this.repo.all(em);
    return {
      // A collection may reference itself; a single or group is no relationship target.
      knownCollections: [
        ...found.filter((r) => r.kind === 'collection').map((r) => r.slug),
        ...(kind === 'collection' ? [slug] : []),
      ],
      // A group naming itself would nest forever.
      knownFieldGroups: found
        .filter((r) => r.kind === 'field-group' && !(kind === 'field-group' && r.slug === slug))
        .map((r) => r.slug),
    };
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
   * change stops the boot, naming it, unless acceptDestructiveSchema (SVC_SCHEMA_ACCEPT_DESTRUCTIVE).
   */
  async syncCode(): Promise<void> {
    const wanted = codeDefinitions(this.options.config.collections, this.options.config.singles);
    const problems: string[] = [];
    const summary: string[] = [];
    await this.db.transaction(async (em) => {
      await this.repo.lock(em, '*');
      for (const w of [...wanted].sort((a, b) =>
        lockKey(a.kind, a.slug).localeCompare(lockKey(b.kind, b.slug)),
      )) {
        await this.repo.lock(em, lockKey(w.kind, w.slug));
      }
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
                { knownCollections: collections, knownFieldGroups: groups },
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
      if (problems.length) {
        throw new ConfigError(problems);
      }

      // Tables first, then foreign keys between them (new collections may reference each other).
      const links: string[] = [];
      for (const { w, def } of creates) {
        const row = await this.repo.insert(em, {
          kind: w.kind,
          slug: w.slug,
          source: w.source,
          definition: def,
        });
        const plan = createTablePlan(tableOf(row), def.fields, { drafts: def.drafts === true });
        await this.runDdl(em, plan.create);
        links.push(...plan.link);
        await this.rbac.registerResource(em, w.slug, CONTENT_ACTIONS);
        await this.record(em, w.kind, w.slug, planSchemaChange([], def.fields), null);
        summary.push(`created ${KIND_WORD[w.kind]} ${w.slug}`);
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
    });
    if (summary.length) {
      this.logger.log(`Schema synchronised with the configuration: ${summary.join('; ')}`);
      this.invalidate();
      this.rbac.invalidate();
    }
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
