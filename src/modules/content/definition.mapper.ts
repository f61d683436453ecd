import { listRecord, ListRecord, parseListQuery, refuseUnknownParameters } from '../../common/pagination';
import type { ContentAction, Definition } from './content.types';

/** The actions a definition's `access` answers, per kind. */
const RECORD_ACTIONS: Record<'collection' | 'single', readonly ContentAction[]> = {
  collection: ['read', 'create', 'update', 'delete'],
  single: ['read', 'update'],
};

/**
 * `access` as answered: per action `true` (open to anyone), `"function"` (a code-defined rule
 * function decides) or `false` (a code-defined `false`, or no rule: the permission decides).
 */
function accessRecord(def: Definition, kind: 'collection' | 'single'): Record<string, boolean | 'function'> {
  return Object.fromEntries(
    RECORD_ACTIONS[kind].map((a) => {
      const rule = def.access[a];
      return [a, typeof rule === 'function' ? 'function' : rule === true];
    }),
  );
}

/** The definition record of CONTRACTS 6 (fields with their stable ids). */
export function toDefinitionRecord(def: Definition): Record<string, unknown> {
  const common = { id: def.id, slug: def.slug };
  const tail = { source: def.source, createdAt: def.createdAt, updatedAt: def.updatedAt };
  switch (def.kind) {
    case 'collection':
      return {
        ...common,
        labels: def.labels ?? { singular: def.slug, plural: def.slug },
        fields: def.fields,
        drafts: def.drafts,
        access: accessRecord(def, 'collection'),
        versions: versionsRecord(def),
        ...tail,
      };
    case 'single':
      return {
        ...common,
        label: def.label ?? def.slug,
        fields: def.fields,
        drafts: def.drafts,
        access: accessRecord(def, 'single'),
        versions: versionsRecord(def),
        ...tail,
      };
    default:
      return { ...common, label: def.label ?? def.slug, fields: def.fields, ...tail };
  }
}

const versionsRecord = (def: Definition): false | { max: number } =>
  def.versions ? { max: def.versions.max } : false;

const LIST_PARAMS = ['page', 'limit', 'search', 'sort'];
/** What a definition list sorts by. */
export const DEFINITION_SORTABLE = ['slug', 'createdAt'] as const;

/** A List of definitions (page, limit, search in slug and labels, sort by slug or createdAt). */
export function definitionList(
  defs: Definition[],
  query: Record<string, unknown>,
): ListRecord<Record<string, unknown>> {
  refuseUnknownParameters(query, LIST_PARAMS);
  const q = parseListQuery<'slug' | 'createdAt'>(query, {
    sortable: DEFINITION_SORTABLE,
    defaultSort: { field: 'slug', direction: 'asc' },
  });
  const needle = q.search?.toLowerCase();
  const matching = defs.filter(
    (d) =>
      !needle ||
      [d.slug, d.label, d.labels?.singular, d.labels?.plural].some((s) => s?.toLowerCase().includes(needle)),
  );
  const dir = q.sort.direction === 'asc' ? 1 : -1;
  matching.sort((a, b) =>
    q.sort.field === 'slug'
      ? dir * (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0)
      : dir * (a.createdAt.getTime() - b.createdAt.getTime()) || (a.slug < b.slug ? -1 : 1),
  );
  return listRecord(matching.slice(q.offset, q.offset + q.limit).map(toDefinitionRecord), matching.length, q);
}
