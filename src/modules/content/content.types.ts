import type { AccessRule, FieldConfig } from '../../config/config.types';
import { collectionTable, joinTable, pgName, type FieldWithId } from './schema';
import type { QueryDefinition, QueryField } from './query';

export type DefinitionKind = 'collection' | 'single' | 'field-group';
/** code: from the config file; ui: created over REST; system: built into the service (media). */
export type DefinitionSource = 'code' | 'ui' | 'system';
export type ContentAction = 'read' | 'create' | 'update' | 'delete';
export const CONTENT_ACTIONS: readonly ContentAction[] = ['read', 'create', 'update', 'delete'];

/** What `content_definitions.definition` holds. Every stored field carries a stable `id`. */
export interface StoredDefinition {
  labels?: { singular: string; plural: string };
  label?: string;
  drafts?: boolean;
  /** Open access set over REST (booleans only; rule functions are code-only). */
  access?: { read?: boolean; create?: boolean };
  /** Versions kept per entry; absent: none. */
  versions?: { max: number };
  fields: FieldWithId[];
}

/** A definition as the rest of the module reads it (from the registry). */
export interface Definition {
  id: string;
  kind: DefinitionKind;
  slug: string;
  source: DefinitionSource;
  labels?: { singular: string; plural: string };
  label?: string;
  drafts: boolean;
  fields: FieldWithId[];
  /** Code-defined rules, and the booleans `read`/`create` set over REST. */
  access: Partial<Record<ContentAction, AccessRule>>;
  /** Versions kept per entry (`max` newest); absent: no versions. */
  versions?: { max: number };
  /** Code-only: the front-end page a preview token opens (`{slug}`, `{id}`, `{token}`). */
  preview?: { url: string };
  createdAt: Date;
  updatedAt: Date;
}

/** The table of a collection (`c_<slug>`) or single (`s_<slug>`); field groups have none. */
export function tableOf(def: Pick<Definition, 'kind' | 'slug'>): string {
  switch (def.kind) {
    case 'collection':
      return collectionTable(def.slug);
    case 'single':
      return pgName(`s_${def.slug.replace(/-/g, '_')}`);
    default:
      throw new Error(`a ${def.kind} has no table`);
  }
}

const queryDefinitions = new WeakMap<Definition, QueryDefinition>();

/** The definition as the query parser and compiler see it (memoised per definition object). */
export function queryDefinitionOf(def: Definition): QueryDefinition {
  let q = queryDefinitions.get(def);
  if (!q) {
    const table = tableOf(def);
    q = {
      drafts: def.drafts,
      fields: def.fields.map((f): QueryField => {
        const field: QueryField = { name: f.name, type: f.type, hasMany: f.hasMany, options: f.options };
        if (isJoinField(f)) {
          field.join = {
            table: joinTable(table, f.name),
            ownerColumn: 'owner_id',
            valueColumn: 'target_id',
            orderColumn: 'position',
          };
        }
        return field;
      }),
    };
    queryDefinitions.set(def, q);
  }
  return q;
}

/** A hasMany relationship: its values are rows of a join table. */
export function isJoinField(f: Pick<FieldConfig, 'type' | 'hasMany'>): boolean {
  return f.type === 'relationship' && f.hasMany === true;
}

/** A field whose value names entries of another collection. */
export function isRelationField(f: Pick<FieldConfig, 'type'>): boolean {
  return f.type === 'relationship' || f.type === 'upload';
}
