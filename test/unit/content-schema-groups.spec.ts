import type { FieldConfig } from '../../src/config/config.types';
import {
  collectionTable,
  createTablePlan,
  EXPANSION_LIMITS,
  expandFields,
  findGroupCycle,
  measureExpansion,
  reachesGroup,
  relationNames,
  RESERVED_SLUGS,
  validateDefinition,
} from '../../src/modules/content/schema';

const text = (name: string): FieldConfig => ({ name, type: 'text' });
const comp = (name: string, group: string): FieldConfig => ({ name, type: 'component', fieldGroup: group });
const comps = (group: string, n: number): FieldConfig[] =>
  Array.from({ length: n }, (_, i) => comp(`c${i}`, group));
const texts = (n: number): FieldConfig[] => Array.from({ length: n }, (_, i) => text(`t${i}`));

/** A lookup over a fixed set of groups. */
const lookup =
  (groups: Record<string, FieldConfig[]>) =>
  (slug: string): readonly FieldConfig[] | undefined =>
    groups[slug];

/** Every field of an expansion, nested ones included. */
function countFields(fields: unknown[]): number {
  return fields.reduce<number>(
    (n, f) => n + 1 + countFields(((f as { fields?: unknown[] }).fields ?? []) as unknown[]),
    0,
  );
}

function maxDepth(fields: unknown[], depth = 1): number {
  return fields.reduce<number>((d, f) => {
    const inner = ((f as { fields?: unknown[] }).fields ?? []) as unknown[];
    return Math.max(d, inner.length ? maxDepth(inner, depth + 1) : depth);
  }, 0);
}

describe('content schema: field-group cycles', () => {
  it('finds a cycle through the group being written, named from it', () => {
    const groups = lookup({ b: [comp('x', 'c')], c: [comp('y', 'a')] });
    expect(findGroupCycle([comp('z', 'b')], groups, 'a')).toEqual(['a', 'b', 'c', 'a']);
    expect(findGroupCycle([comp('z', 'a')], groups, 'a')).toEqual(['a', 'a']);
  });

  it('finds a cycle reachable from a collection that is not part of it', () => {
    const groups = lookup({ a: [text('t'), comp('x', 'b')], b: [comp('y', 'c')], c: [comp('z', 'b')] });
    expect(findGroupCycle([comp('f', 'a')], groups)).toEqual(['b', 'c', 'b']);
  });

  it('accepts diamonds and shared groups, which are no cycle', () => {
    const groups = lookup({
      a: [comp('x', 'b'), comp('y', 'c')],
      b: [comp('z', 'd')],
      c: [comp('z', 'd'), comp('w', 'd')],
      d: [text('t')],
    });
    expect(findGroupCycle([comp('f', 'a'), comp('g', 'd')], groups)).toBeNull();
    expect(findGroupCycle([comp('x', 'b')], groups, 'a')).toBeNull();
    expect(findGroupCycle([comp('x', 'ghost')], groups, 'a')).toBeNull();
  });

  it('tells whether fields reach a group, through cycles too', () => {
    const groups = lookup({ a: [comp('x', 'b')], b: [comp('y', 'a')], c: [text('t')] });
    expect(reachesGroup([comp('f', 'a')], groups, 'b')).toBe(true);
    expect(reachesGroup([comp('f', 'a')], groups, 'c')).toBe(false);
    expect(reachesGroup([text('t')], groups, 'a')).toBe(false);
  });
});

describe('content schema: expansion limits', () => {
  it('are 5 levels, 1,000 fields and 2 MiB of field JSON', () => {
    expect(EXPANSION_LIMITS).toEqual({ depth: 5, fields: 1000, chars: 2 * 1024 * 1024 });
  });

  it('measures fields, levels and characters', () => {
    const groups = lookup({ leaf: texts(3), mid: comps('leaf', 2) });
    const m = measureExpansion([text('a'), comp('m', 'mid')], groups);
    // a, m, m.c0, m.c1, and 3 texts under each of those two.
    expect(m).toMatchObject({ fields: 10, depth: 3, over: null });
    expect(m.chars).toBe(
      JSON.stringify(text('a')).length +
        JSON.stringify(comp('m', 'mid')).length +
        2 * JSON.stringify(comp('c0', 'leaf')).length +
        6 * JSON.stringify(text('t0')).length,
    );
  });

  it('passes at exactly the limits and fails one past them', () => {
    const chain = (levels: number): Record<string, FieldConfig[]> => {
      const groups: Record<string, FieldConfig[]> = { g1: [text('t')] };
      for (let i = 2; i < levels; i++) {
        groups[`g${i}`] = [comp('c', `g${i - 1}`)];
      }
      return groups;
    };
    // The collection's field is level 1, g4's level 2, ..., g1's text level 5.
    expect(measureExpansion([comp('f', 'g4')], lookup(chain(5))).over).toBeNull();
    expect(measureExpansion([comp('f', 'g5')], lookup(chain(6)))).toMatchObject({ over: 'depth', depth: 6 });
    // An empty group adds no level.
    expect(measureExpansion([comp('f', 'g4')], lookup({ ...chain(5), g1: [] })).over).toBeNull();

    const flat = lookup({ g: texts(99) });
    expect(measureExpansion(comps('g', 10), flat)).toMatchObject({ fields: 1000, over: null });
    expect(measureExpansion([...comps('g', 10), text('one')], flat)).toMatchObject({ over: 'fields' });

    const big = { name: 'j', type: 'json', defaultValue: { s: 'x'.repeat(600_000) } } as FieldConfig;
    expect(measureExpansion([big, text('a')], lookup({})).over).toBeNull();
    expect(measureExpansion(comps('b', 4), lookup({ b: [big] })).over).toBe('chars');
  });

  it('stops counting at the first limit, whatever the graph', () => {
    // 14 components each way: depth first, so the sixth level is met after one field per level.
    const cyclic = measureExpansion([comp('f', 'a')], lookup({ a: comps('b', 14), b: comps('a', 14) }));
    expect(cyclic).toMatchObject({ over: 'depth', fields: 5, depth: 6 });
    // A fan-out without a cycle: 1 + 14 + 14^2 + 14^3 fields, counted up to the 1,001st.
    const wide = lookup({ a: comps('b', 14), b: comps('c', 14), c: texts(14) });
    expect(measureExpansion([comp('f', 'a')], wide)).toMatchObject({ over: 'fields', fields: 1001 });
  });
});

describe('content schema: expanded fields (the enriched schema)', () => {
  it('nests each group in its component fields', () => {
    const groups = lookup({ seo: [text('title')], page: [comp('seo', 'seo'), text('body')] });
    expect(expandFields([comp('page', 'page'), text('x')], groups)).toEqual([
      { ...comp('page', 'page'), fields: [{ ...comp('seo', 'seo'), fields: [text('title')] }, text('body')] },
      text('x'),
    ]);
    expect(expandFields([comp('gone', 'ghost')], groups)).toEqual([{ ...comp('gone', 'ghost'), fields: [] }]);
  });

  it('matches the write-time measure: what passed is expanded whole', () => {
    const groups = lookup({ leaf: texts(14), mid: comps('leaf', 14) });
    const fields = comps('mid', 4);
    expect(measureExpansion(fields, groups)).toMatchObject({ fields: 844, over: null });
    expect(countFields(expandFields(fields, groups))).toBe(844);
  });

  it('stays within the limits over stored cycles and fan-outs, keeping every own field', () => {
    const cyclic = lookup({ a: comps('b', 14), b: comps('a', 14) });
    const out = expandFields([comp('f', 'a'), ...texts(150)], cyclic);
    expect(countFields(out)).toBeLessThanOrEqual(EXPANSION_LIMITS.fields);
    expect(countFields(out)).toBeGreaterThan(500);
    expect(maxDepth(out)).toBeLessThanOrEqual(EXPANSION_LIMITS.depth);
    expect(out).toHaveLength(151);
    expect(JSON.stringify(out).length).toBeLessThan(200_000);

    const big = { name: 'j', type: 'json', defaultValue: { s: 'x'.repeat(600_000) } } as FieldConfig;
    const heavy = expandFields(comps('b', 10), lookup({ b: [big] }));
    expect(JSON.stringify(heavy).length).toBeLessThan(EXPANSION_LIMITS.chars + 10_000);
  });
});

describe('content schema: relation names', () => {
  /** The names of the tables and indexes a CREATE plan makes. */
  const createdNames = (statements: string[]): string[] =>
    statements.flatMap((s) =>
      [...s.matchAll(/CREATE (?:UNIQUE )?(?:TABLE|INDEX) "([^"]+)"|CONSTRAINT "([^"]+)" PRIMARY KEY/g)].map(
        (m) => m[1] ?? m[2],
      ),
    );

  const fields: FieldConfig[] = [
    { name: 'title', type: 'text', unique: true },
    { name: 'views', type: 'number', index: true },
    { name: 'kind', type: 'select', options: ['a', 'b'] },
    { name: 'tags', type: 'select', hasMany: true, options: ['a'], index: true },
    { name: 'meta', type: 'json', index: true },
    { name: 'author', type: 'relationship', relationTo: 'authors' },
    { name: 'cover', type: 'upload', relationTo: 'media' },
    { name: 'related', type: 'relationship', relationTo: 'posts', hasMany: true },
    { name: 'seo', type: 'component', fieldGroup: 'seo' },
  ];

  it.each([
    ['a short table', 'c_posts'],
    ['a long table', collectionTable('p'.repeat(63))],
  ])('names every table and index the CREATE makes (%s)', (_, table) => {
    const plan = createTablePlan(table, fields, { drafts: true });
    expect([...relationNames(table, fields)].sort()).toEqual(
      createdNames([...plan.create, ...plan.link]).sort(),
    );
  });

  it('shows how a crafted slug meets a shortened name', () => {
    const long = collectionTable('l'.repeat(63));
    expect(long).toMatch(/^c_l{52}_[0-9a-f]{8}$/);
    expect(collectionTable(`${'l'.repeat(52)}-${long.slice(-8)}`)).toBe(long);
  });
});

describe('content schema: reserved slugs', () => {
  it('hold the core and shipped-plugin resources', () => {
    expect(RESERVED_SLUGS).toEqual(
      expect.arrayContaining([
        'audit',
        'forms',
        'form-submissions',
        'sessions',
        'passkeys',
        'totp',
        'oidc',
        'magic-link',
        'media',
        'settings',
        'image-sizes',
        'general-settings',
        'dashboard',
        'api-keys',
        'users',
        'roles',
        'permissions',
        'email-providers',
        'email-templates',
      ]),
    );
  });

  it('apply to new definitions only', () => {
    const ctx = { knownCollections: [], knownFieldGroups: [] };
    expect(validateDefinition({ slug: 'forms', fields: [] }, ctx)).toEqual([
      expect.objectContaining({ path: 'slug', code: 'reserved' }),
    ]);
    expect(validateDefinition({ slug: 'forms', fields: [] }, { ...ctx, storedSlug: true })).toEqual([]);
  });
});
