import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { andThen, type Awaitable } from '../../common/cache';
import type { AccessRule, FieldConfig } from '../../config/config.types';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import type { ContentAction, Definition, DefinitionKind } from './content.types';
import { openAccessOf } from './definition-body';
import { notFound } from './definition-checks';
import { isMediaDefinition } from './media.definition';
import { DefinitionRow, DefinitionsRepository } from './definitions.repository';
import { EntryCounts } from './entries/entry-counts';
import { ChangeBus } from '../cluster/change-bus.service';

/** Bound on staleness of the registry: other instances' schema changes are seen within 5 s. */
const REGISTRY_TTL_MS = 5000;

interface Snapshot {
  at: number;
  byKey: Map<string, Definition>;
}

const key = (kind: DefinitionKind, slug: string): string => `${kind}:${slug}`;

/**
 * The definitions every content request reads: collections, singles and field groups, with the
 * code-defined access rules and preview URL of the configuration joined in (a definition made
 * over REST has the open access stored with it).
 *
 * Cache: all definitions, loaded in one query. Bound on staleness: a snapshot is used for at most
 * 5 s, and every write on this instance reloads it before answering (`refresh`); a load that
 * started before a write is not kept (generation). Not common/cache.ts: one snapshot, whose
 * concurrent loads share one query, and which `peek()` still reads after an invalidation.
 */
@Injectable()
export class DefinitionRegistry {
  private snapshot: Snapshot | null = null;
  /** The newest loaded snapshot, kept through invalidate(): for lookups that must not query. */
  private last: Snapshot | null = null;
  private loading: Promise<Snapshot> | null = null;
  private generation = 0;
  private readonly codeAccess = new Map<string, Partial<Record<ContentAction, AccessRule>>>();
  private readonly codePreview = new Map<string, { url: string }>();
  /** The built-in media collection's rules: `read: true` when media is public (SVC_MEDIA_PUBLIC). */
  private readonly mediaAccess: Partial<Record<ContentAction, AccessRule>>;

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    @Inject(SVC_OPTIONS) options: SvcOptions,
    private readonly repo: DefinitionsRepository,
    private readonly counts: EntryCounts,
    @Optional() @Inject(ChangeBus) private readonly changes: ChangeBus | null,
  ) {
    changes?.on('definitions', () => this.invalidate());
    const code = [
      ...options.config.collections.map((c) => ({ k: key('collection', c.slug), c })),
      ...options.config.singles.map((s) => ({ k: key('single', s.slug), c: s })),
    ];
    for (const { k, c } of code) {
      this.codeAccess.set(k, c.access ?? {});
      if (c.preview) {
        this.codePreview.set(k, { url: c.preview.url });
      }
    }
    this.mediaAccess = options.media.public ? { read: true } : {};
  }

  /** At once while the snapshot is fresh (every request of a content route asks). */
  find(kind: DefinitionKind, slug: string): Awaitable<Definition | undefined> {
    return andThen(this.current(), (s) => s.byKey.get(key(kind, slug)));
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
   * Forget the snapshot (another instance changed a table under this one), and every cached
   * entry total: called after this instance's schema changes commit, and when a table changed
   * under it.
   */
  invalidate(): void {
    this.generation++;
    this.snapshot = null;
    this.counts.bumpAll();
  }

  /** After a schema change of this instance committed: the other instances forget theirs too. */
  changed(): void {
    this.invalidate();
    this.changes?.publish('definitions');
  }

  /** After a schema change of this instance committed: the next answer already sees it. */
  async refresh(): Promise<void> {
    this.changed();
    await this.reload();
  }

  /** Loads the definitions now (at boot, after the code sync). */
  async load(): Promise<void> {
    await this.reload();
  }

  /** Loads a snapshot (one load at a time; concurrent callers share it). */
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

  /**
   * A stored row as the rest of the module reads it. Access: a code-defined definition's is the
   * code's (only the code changes it); one made over REST has its stored open access (`true` only).
   */
  toDefinition(row: DefinitionRow): Definition {
    const d = row.definition;
    const preview = row.source === 'code' ? this.codePreview.get(key(row.kind, row.slug)) : undefined;
    return {
      id: row.id,
      kind: row.kind,
      slug: row.slug,
      source: row.source,
      labels: d.labels,
      label: d.label,
      drafts: d.drafts === true,
      fields: d.fields,
      access:
        row.source === 'code'
          ? (this.codeAccess.get(key(row.kind, row.slug)) ?? {})
          : isMediaDefinition(row)
            ? this.mediaAccess
            : { ...openAccessOf(d.access) },
      ...(d.versions ? { versions: { max: d.versions.max } } : {}),
      ...(preview ? { preview } : {}),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  private current(): Awaitable<Snapshot> {
    const s = this.snapshot;
    if (s && Date.now() - s.at < REGISTRY_TTL_MS) {
      return s;
    }
    return this.reload();
  }
}
