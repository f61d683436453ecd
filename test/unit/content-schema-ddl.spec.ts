import { Client } from 'pg';
import type { FieldConfig } from '../../src/config/config.types';
import {
  collectionTable,
  columnType,
  createTableDdl,
  createTablePlan,
  ddlFor,
  defaultSql,
  draftsDdl,
  dropTableDdl,
  type FieldWithId,
  indexUpgradeDdl,
  joinTable,
  pgName,
  planSchemaChange,
  quoteIdent,
  quoteLiteral,
} from '../../src/modules/content/schema';
import { createTestDatabase, type TestDatabase } from '../utils/test-db';

const f = (name: string, type: FieldConfig['type'], more: Partial<FieldWithId> = {}): FieldWithId => ({
  name,
  type,
  ...more,
});

/** Statements as one script: what the snapshots show. */
const script = (statements: string[]): string => statements.map((s) => `${s};`).join('\n');

/** The DDL that takes `table` from `oldFields` to `newFields`. */
const migrate = (table: string, oldFields: FieldWithId[], newFields: FieldWithId[]): string[] =>
  ddlFor(table, planSchemaChange(oldFields, newFields), oldFields, newFields);

/** One field of every type and shape. */
const EVERY_TYPE: FieldWithId[] = [
  f('title', 'text', { required: true, unique: true, index: true, defaultValue: "It's new" }),
  f('summary', 'textarea', { defaultValue: 'C:\\path' }),
  f('contact', 'email', { index: true }),
  f('views', 'number', { index: true, defaultValue: 0 }),
  f('rating', 'number', { defaultValue: -1.5 }),
  f('featured', 'checkbox', { defaultValue: false }),
  f('publishedAt', 'date', { defaultValue: '2024-02-29' }),
  f('category', 'select', { options: ['news', { label: 'How-to', value: "how'to" }], defaultValue: 'news' }),
  f('tags', 'select', { hasMany: true, index: true, options: ['a', 'b'], defaultValue: ['b'] }),
  f('meta', 'json', { index: true, defaultValue: { a: "it's" } }),
  f('body', 'richText'),
  f('author', 'relationship', { relationTo: 'authors' }),
  f('editor', 'relationship', { relationTo: 'authors', unique: true }),
  f('related', 'relationship', { relationTo: 'blog-posts', hasMany: true }),
  f('cover', 'upload', { relationTo: 'media' }),
  f('seo', 'component', { fieldGroup: 'seo' }),
  f('blocks', 'component', { fieldGroup: 'blocks', repeatable: true }),
];

describe('content schema: names and quoting', () => {
  it('quotes identifiers, doubling embedded quotes', () => {
    expect(quoteIdent('publishedAt')).toBe('"publishedAt"');
    expect(quoteIdent('we"ird')).toBe('"we""ird"');
    expect(() => quoteIdent('')).toThrow();
    expect(() => quoteIdent('a\u0000b')).toThrow();
    expect(() => quoteIdent('x'.repeat(64))).toThrow();
    expect(quoteIdent('x'.repeat(63))).toHaveLength(65);
  });

  it('quotes literals, with E-strings when a backslash is present', () => {
    expect(quoteLiteral("it's")).toBe("'it''s'");
    expect(quoteLiteral('C:\\x')).toBe("E'C:\\\\x'");
    expect(quoteLiteral("\\'")).toBe("E'\\\\'''");
    expect(() => quoteLiteral('a\u0000')).toThrow();
  });

  it('names tables c_<slug> and join tables <table>__<field>', () => {
    expect(collectionTable('posts')).toBe('c_posts');
    expect(collectionTable('blog-posts-2')).toBe('c_blog_posts_2');
    expect(joinTable('c_posts', 'relatedPosts')).toBe('c_posts__relatedPosts');
  });

  it('cuts names over 63 bytes to a stable, distinct hashed form', () => {
    const slugA = `${'a'.repeat(61)}-x`;
    const slugB = `${'a'.repeat(61)}-y`;
    const a = collectionTable(slugA);
    const b = collectionTable(slugB);
    expect(a).toHaveLength(63);
    expect(a).not.toBe(b);
    expect(a).toBe(collectionTable(slugA));
    expect(a).toMatch(/^c_a{52}_[0-9a-f]{8}$/);
    expect(pgName('x'.repeat(63))).toBe('x'.repeat(63));
    expect(Buffer.byteLength(pgName('é'.repeat(40)))).toBeLessThanOrEqual(63);
  });

  it('maps every field type to its column type', () => {
    expect(Object.fromEntries(EVERY_TYPE.map((x) => [x.name, columnType(x)]))).toEqual({
      title: 'text',
      summary: 'text',
      contact: 'text',
      views: 'double precision',
      rating: 'double precision',
      featured: 'boolean',
      publishedAt: 'timestamptz',
      category: 'text',
      tags: 'text[]',
      meta: 'jsonb',
      body: 'jsonb',
      author: 'uuid',
      editor: 'uuid',
      related: null,
      cover: 'uuid',
      seo: 'jsonb',
      blocks: 'jsonb',
    });
  });

  it('renders defaults as typed literals', () => {
    expect(EVERY_TYPE.map((x) => `${x.name}: ${defaultSql(x)}`)).toEqual([
      "title: 'It''s new'",
      "summary: E'C:\\\\path'",
      'contact: null',
      'views: 0',
      'rating: -1.5',
      'featured: false',
      "publishedAt: '2024-02-29T00:00:00Z'::timestamptz",
      "category: 'news'",
      "tags: ARRAY['b']::text[]",
      `meta: '{"a":"it''s"}'::jsonb`,
      'body: null',
      'author: null',
      'editor: null',
      'related: null',
      'cover: null',
      'seo: null',
      'blocks: null',
    ]);
    expect(defaultSql(f('d', 'date', { defaultValue: '2024-01-02T03:04:05+02:00' }))).toBe(
      "'2024-01-02T01:04:05.000Z'::timestamptz",
    );
    expect(defaultSql(f('s', 'select', { hasMany: true, options: ['a'], defaultValue: [] }))).toBe(
      "'{}'::text[]",
    );
    expect(defaultSql(f('t', 'text', { defaultValue: '   ' }))).toBeNull();
    expect(() => defaultSql(f('n', 'number', { defaultValue: 'x' }))).toThrow(/defaultValue/);
  });
});

describe('content schema: CREATE TABLE', () => {
  it('every field type, drafts on', () => {
    expect(script(createTableDdl('c_blog_posts', EVERY_TYPE, { drafts: true }))).toMatchSnapshot();
  });

  it('no fields, drafts off', () => {
    expect(script(createTableDdl('c_empty', []))).toMatchSnapshot();
  });

  it('splits foreign keys into link statements, and resolves targets with tableFor', () => {
    const plan = createTablePlan(
      'c_posts',
      [
        f('cover', 'upload', { relationTo: 'media' }),
        f('refs', 'relationship', { relationTo: 'posts', hasMany: true }),
      ],
      { tableFor: (slug) => (slug === 'media' ? 'media_files' : collectionTable(slug)) },
    );
    expect(plan.create.some((s) => s.includes('REFERENCES "media_files"'))).toBe(false);
    expect(plan.link).toEqual([
      'ALTER TABLE "c_posts" ADD CONSTRAINT "c_posts-cover-fkey" FOREIGN KEY ("cover") REFERENCES "media_files" ("id") ON DELETE SET NULL',
      'ALTER TABLE "c_posts__refs" ADD CONSTRAINT "target-fkey" FOREIGN KEY ("target_id") REFERENCES "c_posts" ("id") ON DELETE CASCADE',
    ]);
  });

  it('DROP TABLE: join tables first, no CASCADE', () => {
    expect(script(dropTableDdl('c_blog_posts', EVERY_TYPE))).toMatchSnapshot();
  });

  it('drafts on (existing rows published, new ones draft) and off', () => {
    expect(script(draftsDdl('c_posts', false, true))).toMatchSnapshot();
    expect(draftsDdl('c_posts', true, false)).toEqual(['ALTER TABLE "c_posts" DROP COLUMN "status"']);
    expect(draftsDdl('c_posts', true, true)).toEqual([]);
  });
});

describe('content schema: DDL for changes', () => {
  const T = 'c_posts';

  it('add: every field type', () => {
    expect(script(migrate(T, [], EVERY_TYPE))).toMatchSnapshot();
  });

  it('drop: a column, a join table', () => {
    expect(script(migrate(T, EVERY_TYPE, []))).toMatchSnapshot();
  });

  it('rename: a column with its index, check and foreign key renamed too; a join table', () => {
    const before = [
      f('category', 'select', { id: '1', options: ['a'], unique: true }),
      f('author', 'relationship', { id: '2', relationTo: 'authors' }),
      f('related', 'relationship', { id: '3', relationTo: 'posts', hasMany: true }),
      f('plain', 'text', { id: '4' }),
    ];
    const after = [
      f('kind', 'select', { id: '1', options: ['a'], unique: true }),
      f('writer', 'relationship', { id: '2', relationTo: 'authors' }),
      f('seeAlso', 'relationship', { id: '3', relationTo: 'posts', hasMany: true }),
      f('Plain', 'text', { id: '4' }),
    ];
    expect(script(migrate(T, before, after))).toMatchSnapshot();
  });

  it('rename: a swap goes through temporary names', () => {
    const statements = migrate(
      T,
      [f('a', 'number', { id: '1', index: true }), f('b', 'number', { id: '2', index: true })],
      [f('b', 'number', { id: '1', index: true }), f('a', 'number', { id: '2', index: true })],
    );
    expect(script(statements)).toMatchSnapshot();
  });

  it('rename and alter together: the alter names the new column', () => {
    expect(
      script(migrate(T, [f('n', 'number', { id: '1' })], [f('count', 'text', { id: '1', index: true })])),
    ).toMatchSnapshot();
  });

  it('alter: attribute changes', () => {
    const cases: Array<[string, FieldWithId, FieldWithId]> = [
      [
        'label and required only: nothing to run',
        f('x', 'text'),
        f('x', 'text', { label: 'X', required: true }),
      ],
      ['index on', f('x', 'number'), f('x', 'number', { index: true })],
      ['index off', f('x', 'number', { index: true }), f('x', 'number')],
      [
        'unique on (replaces the index)',
        f('x', 'text', { index: true }),
        f('x', 'text', { index: true, unique: true }),
      ],
      ['default set', f('x', 'number'), f('x', 'number', { defaultValue: 3 })],
      ['default changed', f('x', 'number', { defaultValue: 1 }), f('x', 'number', { defaultValue: 2 })],
      ['default removed', f('x', 'number', { defaultValue: 1 }), f('x', 'number')],
      [
        'select gains an option',
        f('x', 'select', { options: ['a'] }),
        f('x', 'select', { options: ['a', 'b'] }),
      ],
      [
        'select relabels: nothing to run',
        f('x', 'select', { options: ['a'] }),
        f('x', 'select', { options: [{ label: 'A', value: 'a' }] }),
      ],
      [
        'select loses an option',
        f('x', 'select', { options: ['a', 'b'] }),
        f('x', 'select', { options: ['a'] }),
      ],
      [
        'select[] loses an option',
        f('x', 'select', { hasMany: true, options: ['a', 'b'] }),
        f('x', 'select', { hasMany: true, options: ['b'] }),
      ],
      [
        'relationTo changes',
        f('x', 'relationship', { relationTo: 'a' }),
        f('x', 'relationship', { relationTo: 'b' }),
      ],
      [
        'relationTo changes (hasMany)',
        f('x', 'relationship', { relationTo: 'a', hasMany: true }),
        f('x', 'relationship', { relationTo: 'b', hasMany: true }),
      ],
      [
        'repeatable on',
        f('x', 'component', { fieldGroup: 'g' }),
        f('x', 'component', { fieldGroup: 'g', repeatable: true }),
      ],
      [
        'repeatable off',
        f('x', 'component', { fieldGroup: 'g', repeatable: true }),
        f('x', 'component', { fieldGroup: 'g' }),
      ],
      [
        'fieldGroup changes: nothing to run',
        f('x', 'component', { fieldGroup: 'g' }),
        f('x', 'component', { fieldGroup: 'h' }),
      ],
    ];
    const out = cases.map(([name, a, b]) => `-- ${name}\n${script(migrate(T, [a], [b]))}`).join('\n\n');
    expect(out).toMatchSnapshot();
  });

  it('alter: type changes', () => {
    const cases: Array<[FieldWithId, FieldWithId]> = [
      [f('x', 'text'), f('x', 'textarea')],
      [f('x', 'text', { defaultValue: '1' }), f('x', 'number', { defaultValue: 1 })],
      [f('x', 'text'), f('x', 'checkbox')],
      [f('x', 'text'), f('x', 'date')],
      [f('x', 'text', { index: true }), f('x', 'relationship', { relationTo: 'authors' })],
      [f('x', 'text'), f('x', 'select', { options: ['a', 'b'] })],
      [f('x', 'text'), f('x', 'select', { hasMany: true, options: ['a'] })],
      [f('x', 'text', { index: true }), f('x', 'json', { index: true })],
      [f('x', 'text'), f('x', 'richText')],
      [f('x', 'number'), f('x', 'text')],
      [f('x', 'checkbox'), f('x', 'number')],
      [f('x', 'number'), f('x', 'checkbox')],
      [f('x', 'date'), f('x', 'text')],
      [f('x', 'json'), f('x', 'number')],
      [f('x', 'json'), f('x', 'date')],
      [f('x', 'select', { options: ['a'] }), f('x', 'select', { hasMany: true, options: ['a', 'b'] })],
      [f('x', 'select', { hasMany: true, options: ['a', 'b'] }), f('x', 'select', { options: ['a'] })],
      [f('x', 'select', { hasMany: true, options: ['a', 'b'] }), f('x', 'text')],
      [f('x', 'select', { hasMany: true, options: ['a'] }), f('x', 'json')],
      [f('x', 'relationship', { relationTo: 'authors' }), f('x', 'text')],
      [f('x', 'relationship', { relationTo: 'authors' }), f('x', 'upload', { relationTo: 'authors' })],
      [
        f('x', 'relationship', { relationTo: 'authors' }),
        f('x', 'relationship', { relationTo: 'authors', hasMany: true }),
      ],
      [
        f('x', 'upload', { relationTo: 'media' }),
        f('x', 'relationship', { relationTo: 'authors', hasMany: true }),
      ],
      [
        f('x', 'relationship', { relationTo: 'authors', hasMany: true }),
        f('x', 'relationship', { relationTo: 'authors' }),
      ],
      [
        f('x', 'relationship', { relationTo: 'authors', hasMany: true }),
        f('x', 'upload', { relationTo: 'media' }),
      ],
      [
        f('x', 'relationship', { relationTo: 'authors', hasMany: true }),
        f('x', 'number', { defaultValue: 0 }),
      ],
      [f('x', 'number', { index: true }), f('x', 'relationship', { relationTo: 'authors', hasMany: true })],
      [f('x', 'date'), f('x', 'number')],
      [f('x', 'richText'), f('x', 'component', { fieldGroup: 'g' })],
    ];
    const out = cases
      .map(([a, b]) => {
        const label = (x: FieldWithId): string => `${x.type}${x.hasMany ? '[]' : ''}`;
        return `-- ${label(a)} -> ${label(b)}\n${script(migrate(T, [a], [b]))}`;
      })
      .join('\n\n');
    expect(out).toMatchSnapshot();
  });

  it('runs drops, renames, alters, adds in that order whatever the order of the changes given', () => {
    const before = [f('gone', 'text'), f('old', 'text', { id: '1' }), f('n', 'number')];
    const after = [f('added', 'text'), f('new', 'text', { id: '1' }), f('n', 'text')];
    const changes = planSchemaChange(before, after);
    expect(ddlFor(T, [...changes].reverse(), before, after)).toEqual(ddlFor(T, changes, before, after));
    expect(ddlFor(T, changes, before, after)).toEqual([
      'LOCK TABLE "c_posts" IN ACCESS EXCLUSIVE MODE',
      'ALTER TABLE "c_posts" DROP COLUMN "gone"',
      'ALTER TABLE "c_posts" RENAME COLUMN "old" TO "new"',
      'ALTER TABLE "c_posts" ALTER COLUMN "n" TYPE text USING "n"::text',
      'ALTER TABLE "c_posts" ADD COLUMN "added" text',
    ]);
  });

  it('refuses changes that name fields it was not given', () => {
    expect(() =>
      ddlFor(T, [{ kind: 'drop', field: 'x', from: f('x', 'text'), destructive: true }], [], []),
    ).toThrow(/not among the fields/);
  });
});

describe('content schema: indexes serving the list tiebreaker', () => {
  const T = 'c_posts';
  const btree = (name: string, columns: string[], more: { unique?: boolean; partial?: boolean } = {}) => ({
    name,
    columns,
    unique: more.unique ?? false,
    partial: more.partial ?? false,
    method: 'btree',
  });

  it('indexes sortable fields and created_at on (column, id); unique, GIN and reference indexes stay', () => {
    const creates = createTableDdl(T, EVERY_TYPE, { tableFor: collectionTable }).filter((s) =>
      s.includes('INDEX'),
    );
    expect(creates).toEqual([
      'CREATE INDEX "c_posts-created_at-idx" ON "c_posts" ("created_at", "id")',
      'CREATE UNIQUE INDEX "c_posts-title-key" ON "c_posts" ("title")',
      'CREATE INDEX "c_posts-contact-idx" ON "c_posts" ("contact", "id")',
      'CREATE INDEX "c_posts-views-idx" ON "c_posts" ("views", "id")',
      'CREATE INDEX "c_posts-tags-idx" ON "c_posts" USING gin ("tags")',
      'CREATE INDEX "c_posts-meta-idx" ON "c_posts" USING gin ("meta")',
      'CREATE INDEX "c_posts-author-idx" ON "c_posts" ("author")',
      'CREATE UNIQUE INDEX "c_posts-editor-key" ON "c_posts" ("editor")',
      'CREATE INDEX "c_posts-cover-idx" ON "c_posts" ("cover")',
      'CREATE INDEX "c_posts__related-target-idx" ON "c_posts__related" ("target_id")',
    ]);
    for (const type of ['text', 'textarea', 'email', 'number', 'checkbox', 'date'] as const) {
      expect(createTableDdl(T, [f('x', type, { index: true })])).toContain(
        'CREATE INDEX "c_posts-x-idx" ON "c_posts" ("x", "id")',
      );
    }
    expect(createTableDdl(T, [f('x', 'select', { index: true, options: ['a'] })])).toContain(
      'CREATE INDEX "c_posts-x-idx" ON "c_posts" ("x", "id")',
    );
  });

  it('replaces the old one-column indexes, and nothing else', () => {
    const fields = [
      f('views', 'number', { index: true }),
      f('title', 'text', { index: true }),
      f('code', 'text', { index: true, unique: true }),
      f('tags', 'select', { hasMany: true, index: true, options: ['a'] }),
      f('author', 'relationship', { relationTo: 'authors', index: true }),
      f('plain', 'text'),
      f('done', 'checkbox', { index: true }),
    ];
    const old = [
      btree('c_posts-pkey', ['id'], { unique: true }),
      btree('c_posts-created_at-idx', ['created_at']),
      btree('c_posts-views-idx', ['views']),
      btree('c_posts-title-idx', ['title', 'id']), // already today's shape
      btree('c_posts-code-key', ['code'], { unique: true }),
      { ...btree('c_posts-tags-idx', ['tags']), method: 'gin' },
      btree('c_posts-author-idx', ['author']),
      btree('c_posts-plain-idx', ['plain']), // not ours (the field has no index)
      btree('c_posts-done-idx', ['done'], { partial: true }), // not the shape we made
    ];
    expect(indexUpgradeDdl(T, fields, old)).toEqual([
      'LOCK TABLE "c_posts" IN ACCESS EXCLUSIVE MODE',
      'DROP INDEX "c_posts-created_at-idx"',
      'CREATE INDEX "c_posts-created_at-idx" ON "c_posts" ("created_at", "id")',
      'DROP INDEX "c_posts-views-idx"',
      'CREATE INDEX "c_posts-views-idx" ON "c_posts" ("views", "id")',
    ]);
    // Up to date (or missing): nothing to run.
    const current = createTableDdl(T, fields, { tableFor: collectionTable });
    expect(current).toContain('CREATE INDEX "c_posts-views-idx" ON "c_posts" ("views", "id")');
    expect(
      indexUpgradeDdl(T, fields, [
        btree('c_posts-created_at-idx', ['created_at', 'id']),
        btree('c_posts-views-idx', ['views', 'id']),
      ]),
    ).toEqual([]);
    expect(indexUpgradeDdl(T, fields, [])).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The statements on a real PostgreSQL: they run, and the conversions keep what they promise.

describe('content schema: DDL on PostgreSQL', () => {
  let db: TestDatabase;
  let c: Client;
  const A1 = '11111111-1111-4111-8111-111111111111';
  const A2 = '22222222-2222-4222-8222-222222222222';
  const M1 = '33333333-3333-4333-8333-333333333333';

  beforeAll(async () => {
    db = await createTestDatabase();
    c = new Client({ connectionString: db.url });
    await c.connect();
    await c.query(`SET TIME ZONE 'UTC'`);
    for (const s of [
      ...createTableDdl('c_authors', [f('name', 'text')]),
      ...createTableDdl('c_media', [f('alt', 'text')]),
      `INSERT INTO "c_authors" ("id", "name") VALUES ('${A1}', 'one'), ('${A2}', 'two')`,
      `INSERT INTO "c_media" ("id", "alt") VALUES ('${M1}', 'pic')`,
    ]) {
      await c.query(s);
    }
  });

  afterAll(async () => {
    await c?.end();
    await db?.drop();
  });

  /** Runs `fn` in a transaction that is always rolled back: each case starts from the base tables. */
  async function inRollback(fn: () => Promise<void>): Promise<void> {
    await c.query('BEGIN');
    try {
      await fn();
    } finally {
      await c.query('ROLLBACK');
    }
  }

  async function run(statements: string[]): Promise<void> {
    for (const s of statements) {
      await c.query(s);
    }
  }

  /** Creates c_t with one field `x` of `a`, inserts `values` (SQL literals), migrates to `b`, reads x. */
  async function convert(a: FieldWithId, b: FieldWithId, values: string[]): Promise<unknown[]> {
    await run(createTableDdl('c_t', [a]));
    for (const [i, v] of values.entries()) {
      await c.query(
        `INSERT INTO "c_t" ("created_at", ${quoteIdent(a.name)}) VALUES (now() + ${i} * interval '1 s', ${v})`,
      );
    }
    await run(migrate('c_t', [a], [b]));
    const rows = await c.query<{ x: unknown }>(
      `SELECT ${quoteIdent(b.name)} AS x FROM "c_t" ORDER BY "created_at"`,
    );
    return rows.rows.map((r) => r.x);
  }

  const iso = (v: unknown): unknown => (v instanceof Date ? v.toISOString() : v);

  it('creates a table with every field type and drafts, and it behaves', async () => {
    await inRollback(async () => {
      const plan = createTablePlan('c_blog_posts', EVERY_TYPE, { drafts: true });
      await run([...plan.create, ...plan.link]);
      const { rows } = await c.query(
        `INSERT INTO "c_blog_posts" ("author", "cover") VALUES ($1, $2) RETURNING *`,
        [A1, M1],
      );
      const row = rows[0] as Record<string, unknown>;
      expect({
        ...row,
        id: typeof row.id,
        created_at: iso(row.created_at) !== undefined,
        updated_at: undefined,
      }).toEqual({
        id: 'string',
        created_at: true,
        updated_at: undefined,
        status: 'draft',
        title: "It's new",
        summary: 'C:\\path',
        contact: null,
        views: 0,
        rating: -1.5,
        featured: false,
        publishedAt: new Date('2024-02-29T00:00:00Z'),
        category: 'news',
        tags: ['b'],
        meta: { a: "it's" },
        body: null,
        author: A1,
        editor: null,
        cover: M1,
        seo: null,
        blocks: null,
      });
      // CHECKs: select options, hasMany options, status.
      for (const bad of [
        `UPDATE "c_blog_posts" SET "category" = 'nope'`,
        `UPDATE "c_blog_posts" SET "tags" = ARRAY['a', 'z']`,
        `UPDATE "c_blog_posts" SET "status" = 'archived'`,
      ]) {
        await c.query('SAVEPOINT s');
        await expect(c.query(bad)).rejects.toThrow(/check constraint/);
        await c.query('ROLLBACK TO SAVEPOINT s');
      }
      // The join table: ordered, cascades when either side goes.
      const id = row.id as string;
      await c.query(`INSERT INTO "c_blog_posts__related" VALUES ($1, $1, 0)`, [id]);
      // Unique index on a relationship; FK sets null when the target goes.
      await c.query('SAVEPOINT s');
      await expect(
        c.query(`INSERT INTO "c_blog_posts" ("editor", "title") VALUES ($1, 'a'), ($1, 'b')`, [A2]),
      ).rejects.toThrow(/duplicate key/);
      await c.query('ROLLBACK TO SAVEPOINT s');
      await c.query(`DELETE FROM "c_media"`);
      expect((await c.query(`SELECT "cover" FROM "c_blog_posts"`)).rows).toEqual([{ cover: null }]);
      await c.query(`DELETE FROM "c_blog_posts"`);
      expect((await c.query(`SELECT count(*)::int AS n FROM "c_blog_posts__related"`)).rows).toEqual([
        { n: 0 },
      ]);
      // Every index is there under its name.
      const idx = await c.query<{ indexname: string }>(
        `SELECT indexname FROM pg_indexes WHERE tablename IN ('c_blog_posts', 'c_blog_posts__related') ORDER BY 1`,
      );
      expect(idx.rows.map((r) => r.indexname)).toEqual([
        'c_blog_posts-author-idx',
        'c_blog_posts-contact-idx',
        'c_blog_posts-cover-idx',
        'c_blog_posts-created_at-idx',
        'c_blog_posts-editor-key',
        'c_blog_posts-meta-idx',
        'c_blog_posts-pkey',
        'c_blog_posts-tags-idx',
        'c_blog_posts-title-key',
        'c_blog_posts-views-idx',
        'c_blog_posts__related-pkey',
        'c_blog_posts__related-target-idx',
      ]);
      // Drop it all again.
      await run(dropTableDdl('c_blog_posts', EVERY_TYPE));
    });
  });

  it('handles long slugs and odd table names without PostgreSQL truncating anything', async () => {
    await inRollback(async () => {
      const table = collectionTable(`${'a'.repeat(60)}-b`);
      const fields = [
        f(`f${'x'.repeat(62)}`, 'relationship', { relationTo: 'authors', hasMany: true }),
        f(`g${'y'.repeat(62)}`, 'select', { options: ['a'], unique: true }),
      ];
      await run(createTableDdl(table, fields));
      await run(createTableDdl('c_we"ird', [f('a', 'text', { index: true })]));
      const names = await c.query<{ relname: string }>(
        `SELECT relname FROM pg_class WHERE relname LIKE 'c_aaa%' OR relname LIKE 'c_we%' ORDER BY 1`,
      );
      expect(names.rows.map((r) => r.relname)).toEqual(
        [
          table,
          pgName(`${table}-created_at-idx`),
          pgName(`${table}-g${'y'.repeat(62)}-key`),
          pgName(`${table}-pkey`),
          joinTable(table, fields[0].name),
          pgName(`${joinTable(table, fields[0].name)}-pkey`),
          pgName(`${joinTable(table, fields[0].name)}-target-idx`),
          'c_we"ird',
          'c_we"ird-a-idx',
          'c_we"ird-created_at-idx',
          'c_we"ird-pkey',
        ].sort(),
      );
    });
  });

  it('adds a field with a default to a table with rows: they get the default', async () => {
    await inRollback(async () => {
      await run(createTableDdl('c_t', [f('a', 'text')]));
      await c.query(`INSERT INTO "c_t" ("a") VALUES ('x')`);
      await run(
        migrate(
          'c_t',
          [f('a', 'text')],
          [f('a', 'text'), f('n', 'number', { defaultValue: 7, index: true })],
        ),
      );
      expect((await c.query(`SELECT "n" FROM "c_t"`)).rows).toEqual([{ n: 7 }]);
    });
  });

  it('turns drafts on: existing entries published, new ones drafts', async () => {
    await inRollback(async () => {
      await run(createTableDdl('c_t', [f('a', 'text')]));
      await c.query(`INSERT INTO "c_t" ("a") VALUES ('old')`);
      await run(draftsDdl('c_t', false, true));
      await c.query(`INSERT INTO "c_t" ("a") VALUES ('new')`);
      expect((await c.query(`SELECT "a", "status" FROM "c_t" ORDER BY "a" DESC`)).rows).toEqual([
        { a: 'old', status: 'published' },
        { a: 'new', status: 'draft' },
      ]);
      await run(draftsDdl('c_t', true, false));
    });
  });

  it('text -> number: parses decimals, null for anything else, never fails', async () => {
    await inRollback(async () => {
      const values = [
        "'1'",
        "' 2.5 '",
        "'-3e2'",
        "'.5'",
        "'1.'",
        "'0'",
        "'1e400'",
        "'1e-400'",
        "'1e999'",
        `'${'9'.repeat(500)}'`,
        `'${'9'.repeat(300)}'`,
        "'abc'",
        "''",
        "'NaN'",
        "'Infinity'",
        "'1e1000'",
        "'0x10'",
        'NULL',
      ];
      expect(await convert(f('x', 'text'), f('x', 'number'), values)).toEqual([
        1,
        2.5,
        -300,
        0.5,
        1,
        0,
        null,
        null,
        null,
        null,
        1e300,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
      ]);
    });
  });

  it('text -> checkbox, number -> checkbox, checkbox -> number', async () => {
    await inRollback(async () => {
      expect(
        await convert(f('x', 'text'), f('x', 'checkbox'), [
          "'true'",
          "'FALSE'",
          "' yes '",
          "'0'",
          "'maybe'",
          'NULL',
        ]),
      ).toEqual([true, false, true, false, null, null]);
    });
    await inRollback(async () => {
      expect(await convert(f('x', 'number'), f('x', 'checkbox'), ['0', '2', '-0.5', 'NULL'])).toEqual([
        false,
        true,
        true,
        null,
      ]);
    });
    await inRollback(async () => {
      expect(await convert(f('x', 'checkbox'), f('x', 'number'), ['true', 'false', 'NULL'])).toEqual([
        1,
        0,
        null,
      ]);
    });
  });

  it('text -> date: ISO dates and date-times (no zone is UTC), impossible dates null', async () => {
    await inRollback(async () => {
      const out = await convert(f('x', 'text'), f('x', 'date'), [
        "'2024-02-29'",
        "'2023-02-29'",
        "'2024-04-31'",
        "'2024-01-02T03:04:05Z'",
        "'2024-01-02T03:04:05.123+02:00'",
        "'2024-01-02 03:04'",
        "'2024-01-02T03:04:05-0530'",
        "'9999-12-31T23:59:59-15:59'",
        "'0001-01-01'",
        "'0000-01-01'",
        "'2024-13-01'",
        "'2024-01-02T24:00:00Z'",
        "'2024-01-02T03:04:60Z'",
        "'2024-01-02T03:04:05+16:00'",
        "'now'",
        "'epoch'",
        "'02/01/2024'",
        'NULL',
      ]);
      expect(out.map(iso)).toEqual([
        '2024-02-29T00:00:00.000Z',
        null,
        null,
        '2024-01-02T03:04:05.000Z',
        '2024-01-02T01:04:05.123Z',
        '2024-01-02T03:04:00.000Z',
        '2024-01-02T08:34:05.000Z',
        '+010000-01-01T15:58:59.000Z',
        '0001-01-01T00:00:00.000Z',
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
      ]);
    });
  });

  it('text -> relationship: uuids of existing targets kept, the rest null', async () => {
    await inRollback(async () => {
      const out = await convert(
        f('x', 'text', { index: true }),
        f('x', 'relationship', { relationTo: 'authors' }),
        [`'${A1}'`, `' ${A2.toUpperCase()} '`, "'44444444-4444-4444-8444-444444444444'", "'nope'", 'NULL'],
      );
      expect(out).toEqual([A1, A2, null, null, null]);
      await c.query(`DELETE FROM "c_authors" WHERE "id" = $1`, [A1]);
      expect((await c.query(`SELECT count(*)::int AS n FROM "c_t" WHERE "x" IS NOT NULL`)).rows).toEqual([
        { n: 1 },
      ]);
    });
  });

  it('select: values outside the new options become null (single) or leave the list (hasMany)', async () => {
    await inRollback(async () => {
      expect(
        await convert(f('x', 'text'), f('x', 'select', { options: ['a', 'b'] }), [
          "'a'",
          "'b'",
          "'z'",
          'NULL',
        ]),
      ).toEqual(['a', 'b', null, null]);
    });
    await inRollback(async () => {
      expect(
        await convert(
          f('x', 'select', { options: ['a', 'b', 'c'] }),
          f('x', 'select', { options: ['a', 'c'] }),
          ["'a'", "'b'", "'c'"],
        ),
      ).toEqual(['a', null, 'c']);
    });
    await inRollback(async () => {
      expect(
        await convert(
          f('x', 'select', { hasMany: true, options: ['a', 'b', 'c'] }),
          f('x', 'select', { hasMany: true, options: ['a', 'c'] }),
          ["ARRAY['a','b','c']", "ARRAY['b']", "ARRAY['c','a']", "'{}'", 'NULL'],
        ),
      ).toEqual([['a', 'c'], null, ['c', 'a'], [], null]);
    });
    await inRollback(async () => {
      expect(
        await convert(
          f('x', 'select', { hasMany: true, options: ['a', 'b'] }),
          f('x', 'select', { options: ['a'] }),
          ["ARRAY['b','a']", "ARRAY['b']", "ARRAY['a','b']", 'NULL'],
        ),
      ).toEqual(['a', null, 'a', null]);
    });
    await inRollback(async () => {
      expect(
        await convert(
          f('x', 'select', { options: ['a', 'b'] }),
          f('x', 'select', { hasMany: true, options: ['a'] }),
          ["'a'", "'b'", 'NULL'],
        ),
      ).toEqual([['a'], null, null]);
    });
    await inRollback(async () => {
      expect(
        await convert(f('x', 'text'), f('x', 'select', { hasMany: true, options: ['a'] }), [
          "'a'",
          "'z'",
          'NULL',
        ]),
      ).toEqual([['a'], null, null]);
    });
  });

  it('to text and to json keep every value', async () => {
    await inRollback(async () => {
      expect(await convert(f('x', 'number'), f('x', 'text'), ['1.5', '1e21', '-0.1', '0.1', 'NULL'])).toEqual(
        ['1.5', '1e+21', '-0.1', '0.1', null],
      );
    });
    await inRollback(async () => {
      expect(await convert(f('x', 'date'), f('x', 'textarea'), ["'2024-01-02T03:04:05Z'"])).toEqual([
        '2024-01-02T03:04:05+00:00',
      ]);
    });
    await inRollback(async () => {
      expect(
        await convert(f('x', 'select', { hasMany: true, options: ['a', 'b'] }), f('x', 'json'), [
          "ARRAY['a','b']",
          'NULL',
        ]),
      ).toEqual([['a', 'b'], null]);
    });
    await inRollback(async () => {
      expect(await convert(f('x', 'checkbox'), f('x', 'json'), ['true'])).toEqual([true]);
    });
    await inRollback(async () => {
      expect(
        await convert(f('x', 'relationship', { relationTo: 'authors' }), f('x', 'text'), [`'${A1}'`]),
      ).toEqual([A1]);
    });
  });

  it('json -> number / checkbox / date / text', async () => {
    const json = [`'5'`, `'"7"'`, `'"x"'`, `'{"a":1}'`, `'1e400'`, `'true'`, `'null'`, 'NULL'].map((v) =>
      v === 'NULL' ? v : `${v}::jsonb`,
    );
    await inRollback(async () => {
      expect(await convert(f('x', 'json'), f('x', 'number'), json)).toEqual([
        5,
        7,
        null,
        null,
        null,
        null,
        null,
        null,
      ]);
    });
    await inRollback(async () => {
      expect(await convert(f('x', 'json'), f('x', 'checkbox'), json)).toEqual([
        null,
        null,
        null,
        null,
        null,
        true,
        null,
        null,
      ]);
    });
    await inRollback(async () => {
      expect(
        (await convert(f('x', 'json'), f('x', 'date'), [`'"2024-01-02"'::jsonb`, `'20240102'::jsonb`])).map(
          iso,
        ),
      ).toEqual(['2024-01-02T00:00:00.000Z', null]);
    });
    await inRollback(async () => {
      expect(await convert(f('x', 'json'), f('x', 'text'), json)).toEqual([
        '5',
        '7',
        'x',
        '{"a": 1}',
        `1${'0'.repeat(400)}`,
        'true',
        null,
        null,
      ]);
    });
  });

  it('relationship <-> hasMany relationship through the join table', async () => {
    await inRollback(async () => {
      const one = f('x', 'relationship', { relationTo: 'authors' });
      const many = f('x', 'relationship', { relationTo: 'authors', hasMany: true });
      await run(createTableDdl('c_t', [one]));
      await c.query(`INSERT INTO "c_t" ("x") VALUES ($1), (NULL)`, [A2]);
      await run(migrate('c_t', [one], [many]));
      expect((await c.query(`SELECT "target_id", "position" FROM "c_t__x"`)).rows).toEqual([
        { target_id: A2, position: 0 },
      ]);
      const owner = (await c.query<{ owner_id: string }>(`SELECT "owner_id" FROM "c_t__x"`)).rows[0].owner_id;
      await c.query(`INSERT INTO "c_t__x" VALUES ($1, $2, 1)`, [owner, A1]);
      await c.query(`UPDATE "c_t__x" SET "position" = 2 WHERE "target_id" = $1`, [A2]);
      // Back to one: the first by position (A1 now).
      await run(migrate('c_t', [many], [one]));
      expect((await c.query(`SELECT "x" FROM "c_t" ORDER BY "x" NULLS LAST`)).rows).toEqual([
        { x: A1 },
        { x: null },
      ]);
      expect((await c.query(`SELECT to_regclass('"c_t__x"') AS t`)).rows).toEqual([{ t: null }]);
    });
  });

  it('relationTo changes: references absent from the new target go', async () => {
    await inRollback(async () => {
      expect(
        await convert(
          f('x', 'relationship', { relationTo: 'authors' }),
          f('x', 'upload', { relationTo: 'media' }),
          [`'${A1}'`, 'NULL'],
        ),
      ).toEqual([null, null]);
    });
    await inRollback(async () => {
      const a = f('x', 'relationship', { relationTo: 'authors', hasMany: true });
      const b = f('x', 'relationship', { relationTo: 'media', hasMany: true });
      await run(createTableDdl('c_t', [a]));
      const { rows } = await c.query<{ id: string }>(`INSERT INTO "c_t" DEFAULT VALUES RETURNING "id"`);
      await c.query(`INSERT INTO "c_t__x" VALUES ($1, $2, 0)`, [rows[0].id, A1]);
      await c.query(`ALTER TABLE "c_t__x" DROP CONSTRAINT "target-fkey"`);
      await c.query(`INSERT INTO "c_t__x" VALUES ($1, $2, 1)`, [rows[0].id, M1]);
      // A reference the old FK would refuse, as if the target collection had both ids.
      await c.query(
        `ALTER TABLE "c_t__x" ADD CONSTRAINT "target-fkey" FOREIGN KEY ("target_id") REFERENCES "c_authors" ("id") NOT VALID`,
      );
      await run(migrate('c_t', [a], [b]));
      expect((await c.query(`SELECT "target_id" FROM "c_t__x"`)).rows).toEqual([{ target_id: M1 }]);
    });
  });

  it('component repeatable on wraps values, off keeps the first', async () => {
    await inRollback(async () => {
      const one = f('x', 'component', { fieldGroup: 'g' });
      const many = f('x', 'component', { fieldGroup: 'g', repeatable: true });
      expect(await convert(one, many, [`'{"a":1}'`, `'[{"a":2}]'`, 'NULL'])).toEqual([
        [{ a: 1 }],
        [{ a: 2 }],
        null,
      ]);
      await run(migrate('c_t', [many], [one]));
      expect(
        (await c.query(`SELECT "x" FROM "c_t" ORDER BY "created_at"`)).rows.map((r) => r.x as unknown),
      ).toEqual([{ a: 1 }, { a: 2 }, null]);
    });
  });

  it('renames: a swap of indexed columns and a join table, names follow', async () => {
    await inRollback(async () => {
      const before = [
        f('a', 'number', { id: '1', index: true }),
        f('b', 'select', { id: '2', options: ['x'], unique: true }),
        f('r', 'relationship', { id: '3', relationTo: 'authors', hasMany: true }),
      ];
      const after = [
        f('b', 'number', { id: '1', index: true }),
        f('a', 'select', { id: '2', options: ['x'], unique: true }),
        f('refs', 'relationship', { id: '3', relationTo: 'authors', hasMany: true }),
      ];
      await run(createTableDdl('c_t', before));
      await c.query(`INSERT INTO "c_t" ("a", "b") VALUES (1, 'x')`);
      await run(migrate('c_t', before, after));
      expect((await c.query(`SELECT "a", "b" FROM "c_t"`)).rows).toEqual([{ a: 'x', b: 1 }]);
      const names = await c.query<{ relname: string }>(
        `SELECT relname FROM pg_class WHERE relname LIKE 'c_t%' ORDER BY 1`,
      );
      expect(names.rows.map((r) => r.relname)).toEqual([
        'c_t',
        'c_t-a-key',
        'c_t-b-idx',
        'c_t-created_at-idx',
        'c_t-pkey',
        'c_t__refs',
        'c_t__refs-pkey',
        'c_t__refs-target-idx',
      ]);
      const checks = await c.query<{ conname: string }>(
        `SELECT conname FROM pg_constraint WHERE conrelid = '"c_t"'::regclass AND contype = 'c'`,
      );
      expect(checks.rows).toEqual([{ conname: 'c_t-a-check' }]);
      // A new field may now take the old names.
      await run(migrate('c_t', after, [...after, f('r', 'number', { index: true })]));
    });
  });

  it('unique on over duplicate values fails the apply (which then changes nothing)', async () => {
    await inRollback(async () => {
      await expect(convert(f('x', 'text'), f('x', 'text', { unique: true }), ["'a'", "'a'"])).rejects.toThrow(
        /could not create unique index/,
      );
    });
  });

  describe('every type to every other type runs, on typical values of the old type', () => {
    const samples: Array<[FieldWithId, string[]]> = [
      [
        f('x', 'text', { index: true, defaultValue: 'd' }),
        ["'hello'", "'42'", "'true'", "'2024-01-02'", `'${A1}'`, "'a'"],
      ],
      [f('x', 'textarea'), ["'long\ntext'", "'a'"]],
      [f('x', 'email', { unique: true }), ["'a@b.co'"]],
      [f('x', 'number', { index: true, defaultValue: 1 }), ['42', '0', '-1.5']],
      [f('x', 'checkbox', { defaultValue: true }), ['true', 'false']],
      [f('x', 'date', { index: true }), ["'2024-01-02T03:04:05Z'"]],
      [f('x', 'select', { options: ['a', 'b'], defaultValue: 'a' }), ["'a'", "'b'"]],
      [
        f('x', 'select', { hasMany: true, options: ['a', 'b'], index: true }),
        ["ARRAY['a','b']", "ARRAY['b']"],
      ],
      [
        f('x', 'json', { index: true, defaultValue: { a: 1 } }),
        [`'{"a":1}'`, `'"str"'`, "'5'", "'true'", "'[1]'", "'null'"],
      ],
      [f('x', 'richText'), [`'{"root":{}}'`]],
      [f('x', 'relationship', { relationTo: 'authors' }), [`'${A1}'`]],
      [f('x', 'relationship', { relationTo: 'authors', hasMany: true }), []],
      [f('x', 'upload', { relationTo: 'media' }), [`'${M1}'`]],
      [f('x', 'component', { fieldGroup: 'g' }), [`'{"a":1}'`]],
      [f('x', 'component', { fieldGroup: 'g', repeatable: true }), [`'[{"a":1}]'`]],
    ];
    const label = (x: FieldWithId): string =>
      `${x.type}${x.hasMany ? '[]' : ''}${x.repeatable ? ' (repeatable)' : ''}`;
    const pairs: Array<[string, FieldWithId, string[], FieldWithId]> = [];
    for (const [a, values] of samples) {
      for (const [b] of samples) {
        if (a !== b) {
          pairs.push([`${label(a)} -> ${label(b)}`, a, values, b]);
        }
      }
    }

    it.each(pairs)('%s', async (_name, a, values, b) => {
      await inRollback(async () => {
        await run(createTableDdl('c_t', [a]));
        for (const v of values) {
          await c.query(`INSERT INTO "c_t" ("x") VALUES (${v})`);
        }
        if (columnType(a) === null) {
          const { rows } = await c.query<{ id: string }>(`INSERT INTO "c_t" DEFAULT VALUES RETURNING "id"`);
          await c.query(`INSERT INTO "c_t__x" VALUES ($1, $2, 0), ($1, $3, 1)`, [rows[0].id, A2, A1]);
        }
        await run(migrate('c_t', [a], [b]));
        // The table still takes the new type's values.
        await c.query(`INSERT INTO "c_t" DEFAULT VALUES`);
      });
    });
  });
});
