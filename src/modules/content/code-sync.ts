import type { ValidationIssue } from '../../common/errors';
import type { CollectionConfig, SingleConfig } from '../../config/config.types';
import type { DefinitionKind, DefinitionSource, StoredDefinition } from './content.types';
import { checkVersions, DefinitionInput, storedFrom } from './definition-body';
import {
  ChangeRecord,
  conflictWith,
  DefinitionLike,
  describeChanges,
  KIND_WORD,
  planFull,
  sameMeta,
} from './definition-checks';
import { MEDIA_FIELDS, MEDIA_SLUG } from './media.definition';
import { validateDefinition } from './schema';

/**
 * The plan step of the boot-time sync of code-defined collections and singles (and the built-in
 * media collection): what to create, change and drop to bring the stored definitions to the
 * code's, and every problem that stops the boot. Pure; CodeSyncService reads the stored rows
 * under its locks, then carries the plan out through the schema applier.
 */

/** A definition the code asks for. */
export interface CodeDefinition {
  kind: 'collection' | 'single';
  slug: string;
  source: DefinitionSource;
  input: DefinitionInput;
  /** The code-only `preview` option, checked here; the registry reads it from the configuration. */
  preview?: unknown;
}

/** What the plan reads of a stored definition row. */
export interface StoredRow {
  id: string;
  kind: DefinitionKind;
  slug: string;
  source: DefinitionSource;
  definition: StoredDefinition;
}

export interface CodeSyncPlan<R extends StoredRow> {
  /** Each one stops the boot (all of them in one message); nothing is written then. */
  problems: string[];
  creates: Array<{ w: CodeDefinition; def: StoredDefinition }>;
  /** `changes`: what the applier will carry out (none for a change of labels only). */
  updates: Array<{ w: CodeDefinition; row: R; def: StoredDefinition; changes: ChangeRecord[] }>;
  /** Code-defined definitions no longer in the code: their tables are dropped. */
  removed: R[];
}

export function codeDefinitions(collections: CollectionConfig[], singles: SingleConfig[]): CodeDefinition[] {
  return [
    {
      kind: 'collection',
      slug: MEDIA_SLUG,
      source: 'system',
      input: {
        labels: { singular: 'Media', plural: 'Media' },
        fields: MEDIA_FIELDS,
        drafts: false,
        versions: false,
      },
    },
    // `versions` left out is off (never "keep the stored value": the code is the whole definition).
    ...collections.map((c): CodeDefinition => ({
      kind: 'collection',
      slug: c.slug,
      source: 'code',
      input: { labels: c.labels, fields: c.fields, drafts: c.drafts === true, versions: c.versions ?? false },
      preview: c.preview,
    })),
    ...singles.map((s): CodeDefinition => ({
      kind: 'single',
      slug: s.slug,
      source: 'code',
      input: { label: s.label, fields: s.fields, drafts: s.drafts === true, versions: s.versions ?? false },
      preview: s.preview,
    })),
  ];
}

const PREVIEW_PLACEHOLDERS = ['slug', 'id', 'token'];

/**
 * `preview: { url }`: an absolute http(s) URL template with `{token}` in it; `{slug}` and `{id}`
 * are the other placeholders it may hold.
 */
export function checkPreview(value: unknown): ValidationIssue[] {
  if (value === undefined) {
    return [];
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return [{ path: 'preview', code: 'isObject', message: 'preview must be { url }' }];
  }
  const issues: ValidationIssue[] = Object.keys(value)
    .filter((k) => k !== 'url')
    .map((k) => ({ path: `preview.${k}`, code: 'unknown_field', message: 'preview holds url only' }));
  const url = (value as { url?: unknown }).url;
  const problem = typeof url === 'string' ? previewUrlProblem(url) : 'is not a string';
  if (problem) {
    issues.push({
      path: 'preview.url',
      code: 'invalid',
      message:
        `the URL ${problem}; it must be an absolute http(s) URL template holding {token} (and ` +
        'optionally {slug} and {id}), e.g. "https://site.example/preview/{slug}/{id}?token={token}"',
    });
  }
  return issues;
}

function previewUrlProblem(url: string): string | null {
  const unknown = [...url.matchAll(/\{([^{}]*)\}/g)]
    .map((m) => m[1])
    .filter((p) => !PREVIEW_PLACEHOLDERS.includes(p));
  if (unknown.length) {
    return `has the unknown placeholder {${unknown[0]}}`;
  }
  if (!url.includes('{token}')) {
    return 'has no {token} placeholder';
  }
  let parsed: URL;
  try {
    parsed = new URL(url.replace(/\{(slug|id|token)\}/g, 'x'));
  } catch {
    return 'is not an absolute URL';
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? null : 'is not an http(s) URL';
}

/** Where a problem of `w` is in the configuration. */
export function configPath(w: Pick<CodeDefinition, 'kind' | 'slug'>): string {
  return `${w.kind === 'collection' ? 'collections' : 'singles'}[${w.slug}]`;
}

/**
 * Brings `stored` to `wanted` through the same planner and checks as REST. A destructive change
 * (a dropped field, a narrowed type, drafts turned off, a removed collection or single) is a
 * problem unless `acceptDestructive`, and so is every problem REST would answer 4xx for.
 */
export function planCodeSync<R extends StoredRow>(
  wanted: readonly CodeDefinition[],
  stored: readonly R[],
  opts: { acceptDestructive: boolean },
): CodeSyncPlan<R> {
  const problems: string[] = [];
  const storedByKey = new Map(stored.map((r) => [`${r.kind}:${r.slug}`, r]));
  const groups = stored.filter((r) => r.kind === 'field-group').map((r) => r.slug);
  const collections = [
    ...new Set([
      ...stored.filter((r) => r.kind === 'collection' && r.source === 'ui').map((r) => r.slug),
      ...wanted.filter((w) => w.kind === 'collection').map((w) => w.slug),
    ]),
  ];

  const creates: CodeSyncPlan<R>['creates'] = [];
  const updates: CodeSyncPlan<R>['updates'] = [];
  for (const w of wanted) {
    const where = configPath(w);
    const other = stored.find((r) => r.slug === w.slug && r.kind !== 'field-group' && r.source === 'ui');
    if (other) {
      problems.push(
        `${where}: the slug is taken by the ${KIND_WORD[other.kind]} created over REST; rename one of them`,
      );
      continue;
    }
    const optionIssues = [...checkVersions(w.input.versions), ...checkPreview(w.preview)];
    problems.push(...optionIssues.map((i) => `${where}.${i.path}: ${i.message}`));
    if (optionIssues.length) {
      continue;
    }
    const row = storedByKey.get(`${w.kind}:${w.slug}`);
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
    if (changes.some((c) => c.destructive) && !opts.acceptDestructive) {
      problems.push(
        `${where}: destructive schema change (${describeChanges(changes.filter((c) => c.destructive))}); ` +
          'apply it with SVC_SCHEMA_ACCEPT_DESTRUCTIVE=true, or undo it in the configuration',
      );
      continue;
    }
    if (changes.length || !sameMeta(row.definition, def)) {
      updates.push({ w, row, def, changes });
    }
  }
  const removed = stored.filter(
    (r) => r.source === 'code' && !wanted.some((w) => w.kind === r.kind && w.slug === r.slug),
  );
  if (removed.length && !opts.acceptDestructive) {
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
      problems.push(`${configPath(w)}: ${conflict.message}`);
    }
  }
  return { problems, creates, updates, removed };
}
