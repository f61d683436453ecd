import { ServiceError } from '../../common/errors';
import type { FieldConfig } from '../../config/config.types';
import { type DefinitionKind, type DefinitionSource, type StoredDefinition, tableOf } from './content.types';
import {
  type Change,
  EXPANSION_LIMITS,
  type ExpansionLimits,
  findGroupCycle,
  measureExpansion,
  planSchemaChange,
  reachesGroup,
  relationNames,
  validateDefinition,
} from './schema';

/**
 * The checks a definition passes against the stored ones before the schema applier or the code
 * sync writes it, and the change list they journal. Pure: the REST operations, the applier and
 * the code sync's plan share them.
 */

export const KIND_WORD: Record<DefinitionKind, string> = {
  collection: 'collection',
  single: 'single',
  'field-group': 'field group',
};

export type ChangeRecord =
  Change | { kind: 'alter'; field: 'status'; from: object; to: object; destructive: boolean };

/** What the checks read of a definition (a stored row, or one about to be written). */
export interface DefinitionLike {
  kind: DefinitionKind;
  slug: string;
  definition: Pick<StoredDefinition, 'fields'>;
}

export interface Conflict {
  message: string;
  data: Record<string, unknown>;
}

export function notFound(kind: DefinitionKind): ServiceError {
  return new ServiceError('NOT_FOUND', `No such ${KIND_WORD[kind]}`);
}

/** The definition rules, with the slugs `rows` hold as the known targets: 400 VALIDATION_ERROR. */
export function validateAgainst(
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
export function conflictWith(rows: readonly DefinitionLike[], next: DefinitionLike): Conflict | null {
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

export function refuse(conflict: Conflict | null): void {
  if (conflict) {
    throw new ServiceError('CONFLICT', conflict.message, conflict.data);
  }
}

/** Field changes plus a drafts switch (as an alter of the `status` system field). */
export function planFull(current: StoredDefinition, next: StoredDefinition): ChangeRecord[] {
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

/** Whether nothing but drafts (a change of its own) tells `a` and `b` apart: labels, fields, options. */
export function sameMeta(a: StoredDefinition, b: StoredDefinition): boolean {
  return (
    JSON.stringify([a.labels, a.label, a.fields]) === JSON.stringify([b.labels, b.label, b.fields]) &&
    changedOptions(a, b).length === 0
  );
}

/**
 * The definition options (`access`, `versions`) `next` sets otherwise than `current` (none: a new
 * definition). They change no table, so the journal has no row for them; the `schema-applied`
 * audit row names them.
 */
export function changedOptions(current: StoredDefinition | undefined, next: StoredDefinition): string[] {
  const out: string[] = [];
  if (current?.access?.read !== next.access?.read || current?.access?.create !== next.access?.create) {
    out.push('access');
  }
  if (current?.versions?.max !== next.versions?.max) {
    out.push('versions');
  }
  return out;
}

export function refuseNonUi(row: { kind: DefinitionKind; slug: string; source: DefinitionSource }): void {
  if (row.source !== 'ui') {
    throw new ServiceError(
      'CONFLICT',
      row.source === 'system'
        ? `The ${KIND_WORD[row.kind]} "${row.slug}" is built into the service and cannot be changed`
        : `The ${KIND_WORD[row.kind]} "${row.slug}" is defined in the configuration file; change it there`,
    );
  }
}

export function describeChanges(changes: readonly ChangeRecord[]): string {
  return changes.map((c) => `${c.kind} ${c.field}`).join(', ');
}
