import type { CollectionConfig, SingleConfig } from '../../src/config/config.types';
import {
  codeDefinitions,
  type CodeSyncPlan,
  planCodeSync,
  type StoredRow,
} from '../../src/modules/content/code-sync';

const people: CollectionConfig = { slug: 'people', fields: [{ name: 'name', type: 'text' }] };
const withAge: CollectionConfig = {
  ...people,
  fields: [...people.fields, { name: 'age', type: 'number' }],
};

function plan(
  collections: CollectionConfig[],
  stored: StoredRow[],
  opts: { acceptDestructive?: boolean; singles?: SingleConfig[] } = {},
): CodeSyncPlan<StoredRow> {
  return planCodeSync(codeDefinitions(collections, opts.singles ?? []), stored, {
    acceptDestructive: opts.acceptDestructive ?? false,
  });
}

/** The rows a first sync of this configuration stores (what the applier writes from `creates`). */
function synced(collections: CollectionConfig[], singles: SingleConfig[] = []): StoredRow[] {
  const first = plan(collections, [], { singles });
  expect(first.problems).toEqual([]);
  return first.creates.map(({ w, def }, i) => ({
    id: `00000000-0000-4000-8000-00000000000${i}`,
    kind: w.kind,
    slug: w.slug,
    source: w.source,
    definition: def,
  }));
}

const slugs = (p: CodeSyncPlan<StoredRow>) => ({
  creates: p.creates.map((c) => c.w.slug),
  updates: p.updates.map((u) => u.w.slug),
  removed: p.removed.map((r) => r.slug),
});

/** The plan step of the boot-time code sync (src/modules/content/code-sync.ts): pure. */
describe('code sync plan', () => {
  it('creates a new collection (and the built-in media collection on an empty database)', () => {
    const p = plan([people], []);
    expect(p.problems).toEqual([]);
    expect(slugs(p)).toEqual({ creates: ['media', 'people'], updates: [], removed: [] });
    const created = p.creates[1];
    expect(created.w).toMatchObject({ kind: 'collection', slug: 'people', source: 'code' });
    expect(created.def.fields).toEqual([{ name: 'name', type: 'text', id: expect.any(String) }]);

    // Beside what is stored already, only the new one.
    expect(slugs(plan([people], synced([])))).toEqual({ creates: ['people'], updates: [], removed: [] });
  });

  it('plans an added field as an update that keeps the stored field ids', () => {
    const stored = synced([people]);
    const p = plan([withAge], stored);
    expect(p.problems).toEqual([]);
    expect(slugs(p)).toEqual({ creates: [], updates: ['people'], removed: [] });
    const [update] = p.updates;
    expect(update.row).toBe(stored.find((r) => r.slug === 'people'));
    expect(update.changes).toEqual([
      expect.objectContaining({ kind: 'add', field: 'age', destructive: false }),
    ]);
    const storedName = stored.find((r) => r.slug === 'people')!.definition.fields[0];
    expect(update.def.fields.map((f) => f.id)).toEqual([storedName.id, expect.any(String)]);
    expect(update.def.fields[1].id).not.toBe(storedName.id);
  });

  it('refuses a destructive change unless it is accepted', () => {
    const stored = synced([withAge]);
    const refused = plan([people], stored);
    expect(refused.problems).toEqual([
      'collections[people]: destructive schema change (drop age); apply it with ' +
        'SVC_SCHEMA_ACCEPT_DESTRUCTIVE=true, or undo it in the configuration',
    ]);
    expect(slugs(refused)).toEqual({ creates: [], updates: [], removed: [] });

    const accepted = plan([people], stored, { acceptDestructive: true });
    expect(accepted.problems).toEqual([]);
    expect(accepted.updates.map((u) => u.changes)).toEqual([
      [expect.objectContaining({ kind: 'drop', field: 'age', destructive: true })],
    ]);

    // Drafts turned off make every draft public: destructive too.
    const drafts = synced([{ ...people, drafts: true }]);
    expect(plan([people], drafts).problems).toEqual([
      expect.stringMatching(/^collections\[people\]: destructive schema change \(alter status\)/),
    ]);
  });

  it('does nothing for an unchanged configuration', () => {
    const single: SingleConfig = { slug: 'home', fields: [{ name: 'title', type: 'text' }] };
    const stored = synced([withAge], [single]);
    const p = plan([withAge], stored, { singles: [single] });
    expect(p).toEqual({ problems: [], creates: [], updates: [], removed: [] });
  });

  it('drops a removed collection only when destructive changes are accepted', () => {
    const stored = synced([people]);
    const refused = plan([], stored);
    expect(refused.problems).toEqual([
      'collection "people" was removed from the configuration; dropping its table deletes its entries: ' +
        'set SVC_SCHEMA_ACCEPT_DESTRUCTIVE=true to drop it, or put it back',
    ]);
    const accepted = plan([], stored, { acceptDestructive: true });
    expect(accepted.problems).toEqual([]);
    expect(slugs(accepted)).toEqual({ creates: [], updates: [], removed: ['people'] });
    // Never a definition made over REST, nor the built-in one.
    const ui: StoredRow = { ...stored.find((r) => r.slug === 'people')!, source: 'ui', slug: 'notes' };
    expect(plan([], [...stored.filter((r) => r.slug !== 'people'), ui]).removed).toEqual([]);
  });

  it('reports every problem at once: a slug taken over REST, an invalid field', () => {
    const ui: StoredRow = { ...synced([people]).find((r) => r.slug === 'people')!, source: 'ui' };
    const broken: CollectionConfig = { slug: 'broken', fields: [{ name: 'x', type: 'nope' as 'text' }] };
    const p = plan([people, broken], [ui]);
    expect(p.problems).toEqual([
      'collections[people]: the slug is taken by the collection created over REST; rename one of them',
      expect.stringMatching(/^collections\[broken\]\.fields\.0\.type: /),
    ]);
  });
});
