import type { FieldConfig } from '../../src/config/config.types';
import {
  type Change,
  COMPARED_ATTRIBUTES,
  CONTENT_FIELD_TYPES,
  ddlFor,
  type FieldWithId,
  isDestructiveAlter,
  planSchemaChange,
  RESERVED_FIELD_NAMES,
  RESERVED_SLUGS,
  stableJson,
  summarize,
  typeKey,
  validateDefinition,
  type ValidationContext,
} from '../../src/modules/content/schema';

const f = (name: string, type: FieldConfig['type'], more: Partial<FieldWithId> = {}): FieldWithId => ({
  name,
  type,
  ...more,
});

const CTX: ValidationContext = { knownCollections: ['authors', 'media'], knownFieldGroups: ['seo'] };

/** [path, code] of every issue, for compact expectations. */
function issues(def: { slug?: unknown; fields?: unknown; drafts?: unknown }, ctx = CTX): string[][] {
  const found = validateDefinition(def, ctx);
  for (const i of found) {
    expect(i.message).toEqual(expect.any(String));
  }
  return found.map((i) => [i.path, i.code]);
}

const fieldIssues = (...fields: unknown[]): string[][] => issues({ slug: 'posts', fields });

describe('content schema: validateDefinition', () => {
  it('accepts a definition using every field type', () => {
    expect(
      issues({
        slug: 'blog-posts',
        drafts: true,
        fields: [
          f('title', 'text', { required: true, unique: true, label: 'Title', defaultValue: 'Untitled' }),
          f('summary', 'textarea'),
          f('contact', 'email', { index: true, defaultValue: 'a@example.com' }),
          f('views', 'number', { index: true, defaultValue: 0, min: 0, max: 1e9 }),
          f('featured', 'checkbox', { defaultValue: false }),
          f('publishedAt', 'date', { defaultValue: '2024-01-01' }),
          f('category', 'select', {
            options: ['news', { label: 'How-to', value: 'howto' }],
            defaultValue: 'news',
          }),
          f('tags', 'select', { hasMany: true, options: ['a', 'b'], defaultValue: ['b'] }),
          f('meta', 'json', { defaultValue: { a: [1] }, index: true }),
          f('body', 'richText', { defaultValue: { root: { children: [] } } }),
          f('author', 'relationship', { relationTo: 'authors', unique: true }),
          f('related', 'relationship', { relationTo: 'blog-posts', hasMany: true }),
          f('cover', 'upload', { relationTo: 'media' }),
          f('seo', 'component', { fieldGroup: 'seo' }),
          f('blocks', 'component', { fieldGroup: 'seo', repeatable: true }),
        ],
      }),
    ).toEqual([]);
  });

  it('knows every field type of CONTRACTS 6', () => {
    expect([...CONTENT_FIELD_TYPES]).toEqual([
      'text',
      'textarea',
      'email',
      'number',
      'checkbox',
      'date',
      'select',
      'json',
      'richText',
      'relationship',
      'upload',
      'component',
    ]);
  });

  describe('slug', () => {
    it.each(['a', 'posts', 'blog-posts', 'a1', 'x'.repeat(63), 'trailing-'])('accepts %s', (slug) => {
      expect(issues({ slug, fields: [] })).toEqual([]);
    });

    it.each([
      ['', 'matches'],
      ['Posts', 'matches'],
      ['1posts', 'matches'],
      ['-posts', 'matches'],
      ['blog_posts', 'matches'],
      ['blog posts', 'matches'],
      ['x'.repeat(64), 'matches'],
      ['a--b', 'matches'],
      ['schema', 'reserved'],
      ['media', 'reserved'],
      ['users', 'reserved'],
      ['settings', 'reserved'],
      ['bulk-delete', 'reserved'],
    ])('refuses %j (%s)', (slug, code) => {
      expect(issues({ slug, fields: [] })).toEqual([['slug', code]]);
    });

    it('refuses a missing or non-string slug', () => {
      expect(issues({ fields: [] })).toEqual([['slug', 'required']]);
      expect(issues({ slug: 3, fields: [] })).toEqual([['slug', 'isString']]);
    });

    it('reserves the route words and the core permission resources', () => {
      for (const word of [
        'schema',
        'entries',
        'count',
        'bulk-delete',
        'bulk-update',
        'media',
        'roles',
        'api-keys',
      ]) {
        expect(RESERVED_SLUGS).toContain(word);
      }
    });
  });

  it('checks drafts and the fields list itself', () => {
    expect(issues({ slug: 'p', fields: [], drafts: 'yes' })).toEqual([['drafts', 'isBoolean']]);
    expect(issues({ slug: 'p' })).toEqual([['fields', 'required']]);
    expect(issues({ slug: 'p', fields: {} })).toEqual([['fields', 'isArray']]);
    expect(issues({ slug: 'p', fields: Array.from({ length: 201 }, (_, i) => f(`f${i}`, 'text')) })).toEqual([
      ['fields', 'arrayMaxSize'],
    ]);
    expect(issues({ slug: 'p', fields: [null, 'x', []] })).toEqual([
      ['fields.0', 'isObject'],
      ['fields.1', 'isObject'],
      ['fields.2', 'isObject'],
    ]);
  });

  describe('field names', () => {
    it('follow the pattern', () => {
      expect(fieldIssues(f('a', 'text'), f('A_b9', 'text'), f('x'.repeat(63), 'text'))).toEqual([]);
      expect(
        fieldIssues(
          f('', 'text'),
          f('9a', 'text'),
          f('_a', 'text'),
          f('a-b', 'text'),
          f('a b', 'text'),
          f('x'.repeat(64), 'text'),
          f('a"b', 'text'),
        ),
      ).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => [`fields.${i}.name`, 'matches']));
      expect(fieldIssues({ type: 'text' }, { name: 5, type: 'text' })).toEqual([
        ['fields.0.name', 'required'],
        ['fields.1.name', 'isString'],
      ]);
    });

    it('are unique ignoring case', () => {
      expect(
        fieldIssues(f('title', 'text'), f('body', 'text'), f('Title', 'textarea'), f('TITLE', 'text')),
      ).toEqual([
        ['fields.2.name', 'duplicate'],
        ['fields.3.name', 'duplicate'],
      ]);
    });

    it('do not take system columns, query keywords or object built-ins, in any case', () => {
      const names = [
        'id',
        'ID',
        'createdAt',
        'updatedat',
        'status',
        'created_at',
        'updated_at',
        'and',
        'OR',
        'constructor',
      ];
      expect(fieldIssues(...names.map((n) => f(n, 'text')))).toEqual(
        names.map((_, i) => [`fields.${i}.name`, 'reserved']),
      );
      expect(RESERVED_FIELD_NAMES).toEqual(
        expect.arrayContaining(['id', 'createdAt', 'updatedAt', 'status', 'created_at', 'updated_at']),
      );
    });
  });

  it('refuses unknown types and unknown keys', () => {
    expect(
      fieldIssues(
        f('a', 'string' as FieldConfig['type']),
        { name: 'b' },
        { ...f('c', 'text'), maxLength: 1 },
      ),
    ).toEqual([
      ['fields.0.type', 'isIn'],
      ['fields.1.type', 'required'],
      ['fields.2.maxLength', 'unknown_field'],
    ]);
  });

  it('checks labels, booleans and ids', () => {
    expect(
      fieldIssues(
        f('a', 'text', { label: '  ' }),
        f('b', 'text', { label: 3 as unknown as string }),
        f('c', 'text', { required: 'yes' as unknown as boolean, unique: 1 as unknown as boolean }),
        f('d', 'text', { id: '' }),
        f('e', 'text', { id: 'x'.repeat(101) }),
        f('g', 'text', { id: 'k1' }),
        f('h', 'text', { id: 'k1' }),
      ),
    ).toEqual([
      ['fields.0.label', 'isNotEmpty'],
      ['fields.1.label', 'isString'],
      ['fields.2.required', 'isBoolean'],
      ['fields.2.unique', 'isBoolean'],
      ['fields.3.id', 'isString'],
      ['fields.4.id', 'isString'],
      ['fields.6.id', 'duplicate'],
    ]);
  });

  describe('type-specific rules', () => {
    it('select needs 1..200 options with unique values; others take none', () => {
      expect(
        fieldIssues(
          f('a', 'select'),
          f('b', 'select', { options: [] }),
          f('c', 'select', { options: ['x', { label: 'X', value: 'x' }] }),
          f('d', 'select', { options: [3 as unknown as string] }),
          f('e', 'text', { options: ['x'] }),
          f('g', 'select', { options: Array.from({ length: 201 }, (_, i) => `o${i}`) }),
          f('h', 'select', { options: [' a', { label: 'B', value: 'b ' }], defaultValue: 'a' }),
          f('i', 'select', { options: [null as unknown as string], defaultValue: 'x' }),
        ),
      ).toEqual([
        ['fields.0.options', 'required'],
        ['fields.1.options', 'isArray'],
        ['fields.2.options.1', 'duplicate'],
        ['fields.3.options.0', 'isOption'],
        ['fields.4.options', 'notAllowed'],
        ['fields.5.options', 'isArray'],
        ['fields.6.options.0', 'trimmed'],
        ['fields.6.options.1.value', 'trimmed'],
        ['fields.7.options.0', 'isOption'],
      ]);
    });

    it('relationship and upload need relationTo naming a known collection (or this one)', () => {
      expect(
        fieldIssues(
          f('a', 'relationship'),
          f('b', 'relationship', { relationTo: 'nope' }),
          f('c', 'upload', { relationTo: 5 as unknown as string }),
          f('d', 'relationship', { relationTo: 'posts' }),
          f('e', 'upload', { relationTo: 'media' }),
          f('g', 'text', { relationTo: 'authors' }),
        ),
      ).toEqual([
        ['fields.0.relationTo', 'required'],
        ['fields.1.relationTo', 'unknown_collection'],
        ['fields.2.relationTo', 'isString'],
        ['fields.5.relationTo', 'notAllowed'],
      ]);
    });

    it('component needs fieldGroup naming a known group; others take none', () => {
      expect(
        fieldIssues(
          f('a', 'component'),
          f('b', 'component', { fieldGroup: 'hero' }),
          f('c', 'json', { fieldGroup: 'seo' }),
          f('d', 'component', { fieldGroup: 'seo' }),
        ),
      ).toEqual([
        ['fields.0.fieldGroup', 'required'],
        ['fields.1.fieldGroup', 'unknown_field_group'],
        ['fields.2.fieldGroup', 'notAllowed'],
      ]);
    });

    it('hasMany only for select and relationship, repeatable only for component', () => {
      const bad: FieldWithId[] = [
        f('a', 'text', { hasMany: true }),
        f('b', 'upload', { relationTo: 'media', hasMany: true }),
        f('c', 'json', { repeatable: true }),
        f('d', 'select', { options: ['x'], hasMany: false, repeatable: false }),
      ];
      expect(fieldIssues(...bad)).toEqual([
        ['fields.0.hasMany', 'notAllowed'],
        ['fields.1.hasMany', 'notAllowed'],
        ['fields.2.repeatable', 'notAllowed'],
      ]);
    });

    it('unique not for json, richText, component or hasMany; index not for richText or component', () => {
      expect(
        fieldIssues(
          f('a', 'json', { unique: true }),
          f('b', 'richText', { unique: true }),
          f('c', 'component', { fieldGroup: 'seo', unique: true }),
          f('d', 'select', { options: ['x'], hasMany: true, unique: true }),
          f('e', 'relationship', { relationTo: 'authors', hasMany: true, unique: true }),
          f('g', 'richText', { index: true }),
          f('h', 'component', { fieldGroup: 'seo', index: true }),
          f('i', 'checkbox', { unique: true, index: true }),
          f('j', 'relationship', { relationTo: 'authors', unique: true }),
        ),
      ).toEqual([
        ['fields.0.unique', 'notAllowed'],
        ['fields.1.unique', 'notAllowed'],
        ['fields.2.unique', 'notAllowed'],
        ['fields.3.unique', 'notAllowed'],
        ['fields.4.unique', 'notAllowed'],
        ['fields.5.index', 'notAllowed'],
        ['fields.6.index', 'notAllowed'],
      ]);
    });

    it('defaultValue must fit the type', () => {
      const ok: FieldWithId[] = [
        f('a', 'text', { defaultValue: 'x' }),
        f('b', 'number', { defaultValue: -1.5 }),
        f('c', 'checkbox', { defaultValue: true }),
        f('d', 'date', { defaultValue: '2024-02-29T10:00:00+02:00' }),
        f('e', 'select', { options: ['x', 'y'], defaultValue: 'y' }),
        f('g', 'select', { options: ['x', 'y'], hasMany: true, defaultValue: [] }),
        f('h', 'json', { defaultValue: [1, 'two', null] }),
        f('i', 'email', { defaultValue: null }),
        f('j', 'relationship', { relationTo: 'authors', defaultValue: null }),
      ];
      expect(fieldIssues(...ok)).toEqual([]);
      const bad: FieldWithId[] = [
        f('a', 'text', { defaultValue: 5 }),
        f('b', 'number', { defaultValue: '5' }),
        f('c', 'number', { defaultValue: Infinity }),
        f('d', 'checkbox', { defaultValue: 'true' }),
        f('e', 'date', { defaultValue: '2023-02-29' }),
        f('g', 'select', { options: ['x'], defaultValue: 'z' }),
        f('h', 'select', { options: ['x', 'y'], hasMany: true, defaultValue: 'x' }),
        f('i', 'select', { options: ['x', 'y'], hasMany: true, defaultValue: ['x', 'x'] }),
        f('j', 'email', { defaultValue: 'not an email' }),
        f('k', 'richText', { defaultValue: 'plain' }),
        f('l', 'relationship', {
          relationTo: 'authors',
          defaultValue: '3f1c6a52-2f0e-4a7e-9d8e-0b7c1d2e3f40',
        }),
        f('m', 'upload', { relationTo: 'media', defaultValue: 'x' }),
        f('n', 'component', { fieldGroup: 'seo', defaultValue: {} }),
        f('o', 'json', { defaultValue: { a: 'x\u0000' } }),
      ];
      expect(fieldIssues(...bad)).toEqual([
        ['fields.0.defaultValue', 'isString'],
        ['fields.1.defaultValue', 'isNumber'],
        ['fields.2.defaultValue', 'isNumber'],
        ['fields.3.defaultValue', 'isBoolean'],
        ['fields.4.defaultValue', 'isDate'],
        ['fields.5.defaultValue', 'isIn'],
        ['fields.6.defaultValue', 'isArray'],
        ['fields.7.defaultValue', 'isIn'],
        ['fields.8.defaultValue', 'isEmail'],
        ['fields.9.defaultValue', 'isObject'],
        ['fields.10.defaultValue', 'notAllowed'],
        ['fields.11.defaultValue', 'notAllowed'],
        ['fields.12.defaultValue', 'notAllowed'],
        ['fields.13.defaultValue', 'isJson'],
      ]);
    });
  });

  describe('min / max (number ranges)', () => {
    it('accepts finite bounds on number fields, either alone, equal, negative or fractional', () => {
      expect(
        fieldIssues(
          f('a', 'number', { min: 0 }),
          f('b', 'number', { max: 10 }),
          f('c', 'number', { min: -1.5, max: 2.25, defaultValue: 2.25 }),
          f('d', 'number', { min: 3, max: 3, defaultValue: 3 }),
          f('e', 'number', { min: null as unknown as number, max: null as unknown as number }),
          f('g', 'number', { min: 1, defaultValue: null }),
        ),
      ).toEqual([]);
    });

    it('refuses them on other types, as non-numbers, or crossed', () => {
      expect(
        fieldIssues(
          f('a', 'text', { min: 1 }),
          f('b', 'select', { options: ['x'], max: 2 }),
          f('c', 'number', { min: '1' as unknown as number }),
          f('d', 'number', { max: Infinity }),
          f('e', 'number', { min: NaN, max: true as unknown as number }),
          f('g', 'number', { min: 5, max: 4 }),
        ),
      ).toEqual([
        ['fields.0.min', 'notAllowed'],
        ['fields.1.max', 'notAllowed'],
        ['fields.2.min', 'isNumber'],
        ['fields.3.max', 'isNumber'],
        ['fields.4.min', 'isNumber'],
        ['fields.4.max', 'isNumber'],
        ['fields.5.min', 'min'],
      ]);
    });

    it('keeps a number defaultValue within them', () => {
      expect(
        fieldIssues(
          f('a', 'number', { min: 0, defaultValue: -1 }),
          f('b', 'number', { max: 10, defaultValue: 10.5 }),
          f('c', 'number', { min: 0, max: 10, defaultValue: 11 }),
          // crossed bounds are reported once, not again for the default
          f('d', 'number', { min: 5, max: 4, defaultValue: 100 }),
        ),
      ).toEqual([
        ['fields.0.defaultValue', 'min'],
        ['fields.1.defaultValue', 'max'],
        ['fields.2.defaultValue', 'max'],
        ['fields.3.min', 'min'],
      ]);
    });
  });

  it('reports every problem at once, in field order', () => {
    expect(
      issues({
        slug: 'Bad',
        drafts: 1,
        fields: [
          f('id', 'select'),
          f('x', 'relationship', { relationTo: 'nope', hasMany: true, unique: true }),
        ],
      }),
    ).toEqual([
      ['slug', 'matches'],
      ['drafts', 'isBoolean'],
      ['fields.0.name', 'reserved'],
      ['fields.0.options', 'required'],
      ['fields.1.relationTo', 'unknown_collection'],
      ['fields.1.unique', 'notAllowed'],
    ]);
  });

  it('does not count its own slug as known when the slug is invalid', () => {
    expect(fieldIssues(f('a', 'relationship', { relationTo: 'posts' }))).toEqual([]);
    expect(issues({ slug: 'Posts', fields: [f('a', 'relationship', { relationTo: 'Posts' })] })).toEqual([
      ['slug', 'matches'],
      ['fields.0.relationTo', 'unknown_collection'],
    ]);
  });
});

describe('content schema: planSchemaChange', () => {
  const kinds = (changes: Change[]): string[] => changes.map((c) => `${c.kind}:${c.field}`);

  it('finds nothing between equal lists, and ignores order, ids missing on one side and noise', () => {
    const old = [f('a', 'text', { id: '1' }), f('b', 'select', { id: '2', options: ['x', 'y'] })];
    expect(planSchemaChange(old, old)).toEqual([]);
    expect(planSchemaChange(old, [...old].reverse())).toEqual([]);
    expect(
      planSchemaChange(old, [
        f('b', 'select', { options: [{ label: 'x', value: 'x' }, 'y'] }),
        f('a', 'text'),
      ]),
    ).toEqual([]);
    expect(
      planSchemaChange(
        [f('a', 'text', { required: false, label: '' }), f('j', 'json', { defaultValue: { p: 1, q: 2 } })],
        [f('a', 'text', { unique: false, index: false }), f('j', 'json', { defaultValue: { q: 2, p: 1 } })],
      ),
    ).toEqual([]);
    expect(planSchemaChange([], [])).toEqual([]);
  });

  it('adds and drops, matching by name without ids', () => {
    const changes = planSchemaChange(
      [f('a', 'text'), f('b', 'number')],
      [f('b', 'number'), f('c', 'checkbox')],
    );
    expect(changes).toEqual([
      { kind: 'drop', field: 'a', from: { name: 'a', type: 'text' }, destructive: true },
      { kind: 'add', field: 'c', to: { name: 'c', type: 'checkbox' }, destructive: false },
    ]);
  });

  it('treats a case-only name change without ids as a drop and an add', () => {
    expect(kinds(planSchemaChange([f('title', 'text')], [f('Title', 'text')]))).toEqual([
      'drop:title',
      'add:Title',
    ]);
  });

  it('recognises a rename by id, and reports its attribute changes as a separate alter', () => {
    const changes = planSchemaChange(
      [f('title', 'text', { id: 'k1' }), f('n', 'number', { id: 'k2' })],
      [f('headline', 'text', { id: 'k1' }), f('count', 'text', { id: 'k2', index: true })],
    );
    expect(changes).toEqual([
      { kind: 'rename', field: 'headline', from: 'title', to: 'headline', destructive: false },
      { kind: 'rename', field: 'count', from: 'n', to: 'count', destructive: false },
      {
        kind: 'alter',
        field: 'count',
        from: { type: 'number', index: false },
        to: { type: 'text', index: true },
        destructive: false,
      },
    ]);
  });

  it('pairs by id before names: a new field taking an old name is a drop and an add when ids differ', () => {
    expect(kinds(planSchemaChange([f('a', 'text', { id: '1' })], [f('a', 'text', { id: '2' })]))).toEqual([
      'drop:a',
      'add:a',
    ]);
    // The id moved to a new name; the old name is now another field's (no id): rename + add.
    expect(
      kinds(planSchemaChange([f('a', 'text', { id: '1' })], [f('b', 'text', { id: '1' }), f('a', 'number')])),
    ).toEqual(['rename:b', 'add:a']);
    // Name swap by id.
    expect(
      planSchemaChange(
        [f('a', 'text', { id: '1' }), f('b', 'text', { id: '2' })],
        [f('b', 'text', { id: '1' }), f('a', 'text', { id: '2' })],
      ),
    ).toEqual([
      { kind: 'rename', field: 'b', from: 'a', to: 'b', destructive: false },
      { kind: 'rename', field: 'a', from: 'b', to: 'a', destructive: false },
    ]);
  });

  it('orders output: drops (old order), renames, alters, adds (new order)', () => {
    const changes = planSchemaChange(
      [f('z', 'text'), f('r', 'text', { id: 'r' }), f('y', 'text'), f('al', 'text')],
      [f('n2', 'text'), f('al', 'number'), f('r2', 'text', { id: 'r' }), f('n1', 'text')],
    );
    expect(kinds(changes)).toEqual(['drop:z', 'drop:y', 'rename:r2', 'alter:al', 'add:n2', 'add:n1']);
    expect(summarize(changes).destructive).toBe(true);
    expect(summarize([]).destructive).toBe(false);
  });

  it('lists only the changed attributes, booleans as true/false and absent values as null', () => {
    const [change] = planSchemaChange(
      [f('c', 'select', { options: ['x'], label: 'C', required: true })],
      [f('c', 'select', { options: ['x', 'y'], defaultValue: 'x' })],
    );
    expect(change).toEqual({
      kind: 'alter',
      field: 'c',
      from: { options: ['x'], required: true, defaultValue: null, label: 'C' },
      to: { options: ['x', 'y'], required: false, defaultValue: 'x', label: null },
      destructive: false,
    });
    expect(Object.keys(change.kind === 'alter' ? change.from : {})).toEqual([
      'options',
      'required',
      'defaultValue',
      'label',
    ]);
  });

  it('compares min and max (after options), never destructive, and with no DDL of their own', () => {
    const before = [f('n', 'number', { min: 0, index: true })];
    const after = [f('n', 'number', { max: 5, index: true })];
    const changes = planSchemaChange(before, after);
    expect(changes).toEqual([
      {
        kind: 'alter',
        field: 'n',
        from: { min: 0, max: null },
        to: { min: null, max: 5 },
        destructive: false,
      },
    ]);
    expect(COMPARED_ATTRIBUTES.indexOf('min')).toBe(COMPARED_ATTRIBUTES.indexOf('options') + 1);
    expect(COMPARED_ATTRIBUTES.indexOf('max')).toBe(COMPARED_ATTRIBUTES.indexOf('options') + 2);
    expect(ddlFor('c_posts', changes, before, after)).toEqual([]);
    const narrowed = [f('n', 'number', { min: 1, max: 2, index: true, defaultValue: 1 })];
    const withDefault = [f('n', 'number', { min: 0, max: 9, index: true, defaultValue: 1 })];
    expect(ddlFor('c_posts', planSchemaChange(withDefault, narrowed), withDefault, narrowed)).toEqual([]);
    expect(isDestructiveAlter(before[0], after[0])).toBe(false);
    // In add and drop snapshots they sit after options.
    const [add] = planSchemaChange([], [f('m', 'number', { max: 3, min: 1, required: true })]);
    expect(JSON.stringify(add)).toBe(
      '{"kind":"add","field":"m","to":{"name":"m","type":"number","min":1,"max":3,"required":true},"destructive":false}',
    );
  });

  it('keeps the full field (id included) in add and drop, keys in a fixed order', () => {
    const [drop, add] = planSchemaChange(
      [{ label: 'A', type: 'text', name: 'a', id: 'i1' }],
      [{ required: true, name: 'b', type: 'number', id: 'i2' }],
    );
    expect(JSON.stringify(drop)).toBe(
      '{"kind":"drop","field":"a","from":{"id":"i1","name":"a","type":"text","label":"A"},"destructive":true}',
    );
    expect(JSON.stringify(add)).toBe(
      '{"kind":"add","field":"b","to":{"id":"i2","name":"b","type":"number","required":true},"destructive":false}',
    );
  });

  it('is deterministic and does not touch its input', () => {
    const old = [f('a', 'text', { id: '1' }), f('b', 'select', { options: ['x'] })];
    const next = [f('c', 'text', { id: '1' }), f('b', 'select', { options: ['y'] }), f('d', 'json')];
    const frozen = JSON.stringify([old, next]);
    const first = planSchemaChange(old, next);
    expect(planSchemaChange(old, next)).toEqual(first);
    expect(JSON.stringify([old, next])).toBe(frozen);
  });

  it('survives duplicate ids (the first one pairs) and fields without ids on either side', () => {
    expect(
      kinds(
        planSchemaChange(
          [f('a', 'text', { id: 'x' }), f('b', 'text', { id: 'x' })],
          [f('c', 'text', { id: 'x' }), f('b', 'text')],
        ),
      ),
    ).toEqual(['rename:c']);
  });

  describe('destructive rules', () => {
    const destructive = (a: FieldWithId, b: FieldWithId): boolean => {
      const changes = planSchemaChange([{ ...a, name: 'x' }], [{ ...b, name: 'x' }]);
      expect(changes).toHaveLength(1);
      expect(changes[0].kind).toBe('alter');
      return changes[0].destructive;
    };
    const T = (type: FieldConfig['type'], more: Partial<FieldWithId> = {}): FieldWithId => f('x', type, more);
    const sel = (options: string[], more: Partial<FieldWithId> = {}) => T('select', { options, ...more });
    const rel = (relationTo: string, more: Partial<FieldWithId> = {}) =>
      T('relationship', { relationTo, ...more });

    it.each([
      ['text -> textarea', false, T('text'), T('textarea')],
      ['textarea -> text', false, T('textarea'), T('text')],
      ['email -> text', false, T('email'), T('text')],
      ['number -> text', false, T('number'), T('text')],
      ['checkbox -> textarea', false, T('checkbox'), T('textarea')],
      ['date -> text', false, T('date'), T('text')],
      ['select -> text', false, sel(['a']), T('text')],
      ['relationship -> text', false, rel('authors'), T('text')],
      ['upload -> text', false, T('upload', { relationTo: 'media' }), T('text')],
      ['checkbox -> number', false, T('checkbox'), T('number')],
      ['text -> json', false, T('text'), T('json')],
      ['select[] -> json', false, sel(['a'], { hasMany: true }), T('json')],
      ['richText -> json', false, T('richText'), T('json')],
      ['component -> json', false, T('component', { fieldGroup: 'seo' }), T('json')],
      ['date -> json', false, T('date'), T('json')],
      ['select -> select[] (same options)', false, sel(['a', 'b']), sel(['a', 'b', 'c'], { hasMany: true })],
      ['relationship -> upload (same target)', false, rel('media'), T('upload', { relationTo: 'media' })],
      [
        'relationship -> relationship[] (same target)',
        false,
        rel('authors'),
        rel('authors', { hasMany: true }),
      ],
      ['text -> email', true, T('text'), T('email')],
      ['text -> number', true, T('text'), T('number')],
      ['text -> checkbox', true, T('text'), T('checkbox')],
      ['text -> date', true, T('text'), T('date')],
      ['text -> select', true, T('text'), sel(['a'])],
      ['text -> relationship', true, T('text'), rel('authors')],
      ['text -> richText', true, T('text'), T('richText')],
      ['number -> checkbox', true, T('number'), T('checkbox')],
      ['number -> date', true, T('number'), T('date')],
      ['date -> number', true, T('date'), T('number')],
      ['json -> text', true, T('json'), T('text')],
      ['json -> richText', true, T('json'), T('richText')],
      ['richText -> component', true, T('richText'), T('component', { fieldGroup: 'seo' })],
      ['select[] -> text', true, sel(['a'], { hasMany: true }), T('text')],
      ['select[] -> select', true, sel(['a'], { hasMany: true }), sel(['a'])],
      ['select -> select[] losing options', true, sel(['a', 'b']), sel(['a'], { hasMany: true })],
      ['relationship[] -> relationship', true, rel('authors', { hasMany: true }), rel('authors')],
      ['relationship[] -> json', true, rel('authors', { hasMany: true }), T('json')],
      ['relationship -> upload (other target)', true, rel('authors'), T('upload', { relationTo: 'media' })],
      [
        'relationship -> relationship[] (other target)',
        true,
        rel('authors'),
        rel('posts', { hasMany: true }),
      ],
      ['json -> component', true, T('json'), T('component', { fieldGroup: 'seo' })],
    ])('type change %s: destructive %s', (_name, expected, a, b) => {
      expect(destructive(a, b)).toBe(expected);
    });

    it.each([
      ['select gains an option', false, sel(['a']), sel(['a', 'b'])],
      [
        'select relabels an option',
        false,
        sel(['a']),
        T('select', { options: [{ label: 'A!', value: 'a' }] }),
      ],
      ['select reorders options', false, sel(['a', 'b']), sel(['b', 'a'])],
      ['select loses an option', true, sel(['a', 'b']), sel(['a'])],
      ['select[] loses an option', true, sel(['a', 'b'], { hasMany: true }), sel(['b'], { hasMany: true })],
      ['relationTo changes', true, rel('authors'), rel('posts')],
      ['relationTo changes (hasMany)', true, rel('a', { hasMany: true }), rel('b', { hasMany: true })],
      [
        'upload target changes',
        true,
        T('upload', { relationTo: 'media' }),
        T('upload', { relationTo: 'files' }),
      ],
      ['fieldGroup changes', true, T('component', { fieldGroup: 'a' }), T('component', { fieldGroup: 'b' })],
      [
        'repeatable on',
        false,
        T('component', { fieldGroup: 'a' }),
        T('component', { fieldGroup: 'a', repeatable: true }),
      ],
      [
        'repeatable off',
        true,
        T('component', { fieldGroup: 'a', repeatable: true }),
        T('component', { fieldGroup: 'a' }),
      ],
      ['required on', false, T('text'), T('text', { required: true })],
      ['required off', false, T('text', { required: true }), T('text')],
      ['unique on', false, T('text'), T('text', { unique: true })],
      ['unique off', false, T('text', { unique: true }), T('text')],
      ['index on', false, T('number'), T('number', { index: true })],
      ['defaultValue changes', false, T('number', { defaultValue: 1 }), T('number', { defaultValue: 2 })],
      ['min / max narrow', false, T('number', { min: 0 }), T('number', { min: 5, max: 6 })],
      ['min / max removed', false, T('number', { min: 0, max: 1 }), T('number')],
      ['label changes', false, T('text', { label: 'A' }), T('text', { label: 'B' })],
    ])('%s: destructive %s', (_name, expected, a, b) => {
      expect(destructive(a, b)).toBe(expected);
    });

    it('every type to every other type: only the listed pairs are safe', () => {
      const samples: FieldWithId[] = [
        T('text'),
        T('textarea'),
        T('email'),
        T('number'),
        T('checkbox'),
        T('date'),
        sel(['a']),
        sel(['a'], { hasMany: true }),
        T('json'),
        T('richText'),
        rel('authors'),
        rel('authors', { hasMany: true }),
        T('upload', { relationTo: 'authors' }),
        T('component', { fieldGroup: 'seo' }),
      ];
      const safe: string[] = [];
      for (const a of samples) {
        for (const b of samples) {
          if (a !== b && !isDestructiveAlter(a, b)) {
            safe.push(`${typeKey(a)} -> ${typeKey(b)}`);
          }
        }
      }
      expect(safe).toMatchSnapshot();
    });
  });

  it('stableJson sorts keys at every depth but keeps array order', () => {
    expect(stableJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
  });
});
