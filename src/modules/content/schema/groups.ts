/**
 * Field groups embedded by component fields, seen as a graph: cycle detection and the size of
 * what a definition expands to (the enriched schema nests every group's fields in its component).
 * Pure: the caller passes a lookup of group fields.
 *
 * Why bounds: groups may embed groups, so the expansion is the number of paths through that
 * graph, not its size. Two groups of 14 component fields each embedding the other expanded to
 * 14^5 fields (62 MB) at the old depth cap of 5; a chain or a diamond of groups without any cycle
 * multiplies the same way. A cycle is refused outright; the expansion is measured when a
 * definition is written and refused over the limits below, and the enriched schema is built
 * under the same limits, so stored data from before these rules cannot blow a read up either.
 */
import type { FieldConfig } from '../../../config/config.types';

export type GroupLookup = (slug: string) => readonly FieldConfig[] | undefined;

export interface ExpansionLimits {
  /** Levels of fields: a definition's own fields are level 1, its groups' fields level 2, ... */
  depth: number;
  /** Fields at every level together, component fields included. */
  fields: number;
  /** The JSON of every field at every level (nested fields counted once each), in characters. */
  chars: number;
}

/**
 * 5 levels: the cap the enriched schema always had. 1,000 fields: five times the 200 fields one
 * definition may hold. 2 MiB of field JSON: twice the JSON body limit, so a definition that fits a
 * request always passes on its own fields, and an enriched schema stays a few MB at most.
 */
export const EXPANSION_LIMITS: Readonly<ExpansionLimits> = Object.freeze({
  depth: 5,
  fields: 1000,
  chars: 2 * 1024 * 1024,
});

/** The field groups a field list's component fields name, each once, in order. */
export function componentTargets(fields: readonly FieldConfig[]): string[] {
  const out = new Set<string>();
  for (const f of fields) {
    if (f.type === 'component' && typeof f.fieldGroup === 'string') {
      out.add(f.fieldGroup);
    }
  }
  return [...out];
}

/**
 * A cycle of field groups reachable from `fields` (the fields of group `self` when given, which
 * then starts the path), as the slugs along it with the first repeated at the end
 * (`['a', 'b', 'a']`); null when there is none. Depth-first with a finished set: linear in the
 * groups and references.
 */
export function findGroupCycle(
  fields: readonly FieldConfig[],
  groups: GroupLookup,
  self?: string,
): string[] | null {
  const path: string[] = self === undefined ? [] : [self];
  const finished = new Set<string>();
  const visit = (list: readonly FieldConfig[]): string[] | null => {
    for (const slug of componentTargets(list)) {
      const at = path.indexOf(slug);
      if (at >= 0) {
        return [...path.slice(at), slug];
      }
      const inner = groups(slug);
      if (finished.has(slug) || !inner) {
        continue;
      }
      path.push(slug);
      const found = visit(inner);
      if (found) {
        return found;
      }
      path.pop();
      finished.add(slug);
    }
    return null;
  };
  return visit(fields);
}

/** Whether `fields` reach field group `target` through component fields (at any depth). */
export function reachesGroup(fields: readonly FieldConfig[], groups: GroupLookup, target: string): boolean {
  const seen = new Set<string>();
  const stack = [...componentTargets(fields)];
  while (stack.length) {
    const slug = stack.pop() as string;
    if (slug === target) {
      return true;
    }
    if (!seen.has(slug)) {
      seen.add(slug);
      stack.push(...componentTargets(groups(slug) ?? []));
    }
  }
  return false;
}

export interface Expansion {
  fields: number;
  depth: number;
  chars: number;
  /** The first limit passed (counting stopped there), or null. */
  over: keyof ExpansionLimits | null;
}

/**
 * What `fields` expand to. Counting stops at the first limit passed, so a cyclic or huge graph
 * costs at most about the limits.
 */
export function measureExpansion(
  fields: readonly FieldConfig[],
  groups: GroupLookup,
  limits: ExpansionLimits = EXPANSION_LIMITS,
): Expansion {
  const m: Expansion = { fields: 0, depth: 0, chars: 0, over: null };
  const walk = (list: readonly FieldConfig[], depth: number): void => {
    if (list.length === 0) {
      return;
    }
    m.depth = Math.max(m.depth, depth);
    if (depth > limits.depth) {
      m.over = 'depth';
      return;
    }
    for (const f of list) {
      m.fields++;
      m.chars += fieldChars(f);
      if (m.fields > limits.fields) {
        m.over = 'fields';
      } else if (m.chars > limits.chars) {
        m.over = 'chars';
      } else if (f.type === 'component' && typeof f.fieldGroup === 'string') {
        walk(groups(f.fieldGroup) ?? [], depth + 1);
      }
      if (m.over) {
        return;
      }
    }
  };
  walk(fields, 1);
  return m;
}

/**
 * The fields with every component field carrying its group's fields (`fields`), nested, within
 * the limits: a component whose group's fields would pass one (possible only with definitions
 * stored before the limits were enforced) gets `fields: []`. A definition's own fields are always
 * all there.
 */
export function expandFields(
  fields: readonly FieldConfig[],
  groups: GroupLookup,
  limits: ExpansionLimits = EXPANSION_LIMITS,
): unknown[] {
  let count = fields.length;
  let chars = fields.reduce((n, f) => n + fieldChars(f), 0);
  const expand = (list: readonly FieldConfig[], depth: number): unknown[] =>
    list.map((f) => {
      if (f.type !== 'component' || typeof f.fieldGroup !== 'string') {
        return f;
      }
      const inner = groups(f.fieldGroup) ?? [];
      const innerChars = inner.reduce((n, g) => n + fieldChars(g), 0);
      if (
        depth >= limits.depth ||
        count + inner.length > limits.fields ||
        chars + innerChars > limits.chars
      ) {
        return { ...f, fields: [] };
      }
      count += inner.length;
      chars += innerChars;
      return { ...f, fields: expand(inner, depth + 1) };
    });
  return expand(fields, 1);
}

/** A field's own JSON length (memoised: registry definitions are reused across requests). */
const charsOf = new WeakMap<object, number>();
function fieldChars(f: FieldConfig): number {
  let n = charsOf.get(f);
  if (n === undefined) {
    n = JSON.stringify(f)?.length ?? 0;
    charsOf.set(f, n);
  }
  return n;
}
