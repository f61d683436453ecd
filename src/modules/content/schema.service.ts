import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthContext } from '../../common/access/auth-context';
import { ServiceError } from '../../common/errors';
import { listRecord, ListRecord, parseListQuery } from '../../common/pagination';
import { SVC_CONNECTION } from '../../config/svc-options';
import { RbacService } from '../rbac/rbac.service';
import type { Definition, DefinitionKind, StoredDefinition } from './content.types';
import { readBody, storedFrom, storedOf } from './definition-body';
import { type ChangeRecord, refuseNonUi } from './definition-checks';
import { toDefinitionRecord } from './definition.mapper';
import { DefinitionRegistry } from './definition-registry';
import { DefinitionsRepository } from './definitions.repository';
import { SchemaApplier } from './schema-applier';
import { expandFields } from './schema';

export interface JournalRecord {
  id: string;
  target: DefinitionKind;
  slug: string;
  changes: unknown[];
  appliedBy: string | null;
  appliedAt: Date;
}

/** What the journal sorts by (it has no search). */
export const JOURNAL_SORTABLE = ['appliedAt'] as const;

/**
 * The REST schema builder of collections, singles and field groups (SPEC 4.2, CONTRACTS 6): reads
 * from the registry (DefinitionRegistry), bodies read by the definition body reader, writes
 * carried out by the schema applier (one transaction per change, DESIGN 9), after which the
 * registry and the permission cache are brought up to date before answering. The boot-time sync
 * of code-defined definitions is CodeSyncService's.
 */
@Injectable()
export class SchemaService {
  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: DefinitionsRepository,
    private readonly registry: DefinitionRegistry,
    private readonly applier: SchemaApplier,
    private readonly rbac: RbacService,
  ) {}

  // -------------------------------------------------------------------------------------------
  // Reads

  all(kind: DefinitionKind): Promise<Definition[]> {
    return this.registry.all(kind);
  }

  get(kind: DefinitionKind, slug: string): Promise<Definition> {
    return this.registry.get(kind, slug);
  }

  /**
   * The definition record with every component field carrying its group's fields, nested
   * (`GET /collections/schema/{slug}`, `/singles/{slug}/schema`), within EXPANSION_LIMITS.
   */
  enriched(def: Definition): Record<string, unknown> {
    return {
      ...toDefinitionRecord(def),
      fields: expandFields(def.fields, (slug) => this.registry.fieldGroupFields(slug)),
    };
  }

  /** Forget the cached definitions (a table changed under this instance): see the registry. */
  invalidate(): void {
    this.registry.invalidate();
  }

  // -------------------------------------------------------------------------------------------
  // Writes: create, update, delete, preview, apply

  async create(kind: DefinitionKind, body: unknown, auth: AuthContext): Promise<Definition> {
    const input = readBody(body, kind, 'create');
    const stored = await this.applier.create(kind, input, auth.user.id);
    await this.registry.refresh();
    if (kind !== 'field-group') {
      this.rbac.invalidate();
    }
    return this.registry.toDefinition(stored);
  }

  /**
   * PATCH of a definition: labels (collections), label (singles, field groups), drafts, fields,
   * access and versions (collections, singles); a fields or drafts change is applied like `apply`
   * (destructive ones need confirmDestructive). Access and versions change no table: they are
   * stored with the definition, audited and not journalled.
   */
  async update(kind: DefinitionKind, slug: string, body: unknown, auth: AuthContext): Promise<Definition> {
    const input = readBody(body, kind, 'update');
    return this.change(kind, slug, auth, (current) => storedFrom(input, current.fields, current), {
      confirm: input.confirmDestructive === true,
    }).then((r) => r.item);
  }

  async preview(
    kind: DefinitionKind,
    slug: string,
    body: unknown,
  ): Promise<{ changes: ChangeRecord[]; destructive: boolean }> {
    const input = readBody(body, kind, 'schema');
    const def = await this.registry.get(kind, slug);
    // Answered as apply would: a preview of a change that can never be applied misleads.
    refuseNonUi(def);
    const current = storedOf(def);
    return this.applier.preview(kind, slug, current, storedFrom(input, current.fields, current));
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
    const removed = await this.applier.remove(kind, slug, auth.user.id);
    await this.registry.refresh();
    if (kind !== 'field-group') {
      this.rbac.invalidate();
    }
    return this.registry.toDefinition(removed);
  }

  // -------------------------------------------------------------------------------------------
  // Journal

  async journal(query: Record<string, unknown>): Promise<ListRecord<JournalRecord>> {
    const q = parseListQuery<'appliedAt'>(query, {
      sortable: JOURNAL_SORTABLE,
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

  private async change(
    kind: DefinitionKind,
    slug: string,
    auth: AuthContext,
    build: (current: StoredDefinition) => StoredDefinition,
    opts: { confirm: boolean },
  ): Promise<{ item: Definition; changes: ChangeRecord[] }> {
    const result = await this.applier.change(kind, slug, auth.user.id, build, opts);
    await this.registry.refresh();
    if (kind !== 'field-group') {
      // Turning drafts on or off makes or removes publish-<slug>.
      this.rbac.invalidate();
    }
    return { item: this.registry.toDefinition(result.row), changes: result.changes };
  }
}
