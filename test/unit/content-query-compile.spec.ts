import { parse as parseSimple } from 'node:querystring';
import { parse as parseQs } from 'qs';
import { ServiceError } from '../../src/common/errors';
import {
  compileFilter,
  compileListQuery,
  compileWhere,
  OPERATORS,
  parseListQuery,
  ParsedQuery,
  QueryDefinition,
  quoteIdent,
  resolveDefinition,
  WhereNode,
} from '../../src/modules/content/query';

const def: QueryDefinition = {
  drafts: true,
  fields: [
    { name: 'title', type: 'text' },
    { name: 'summary', type: 'textarea' },
    { name: 'contact', type: 'email' },
    { name: 'views', type: 'number' },
    { name: 'featured', type: 'checkbox' },
    { name: 'publishedOn', type: 'date' },
    { name: 'category', type: 'select', options: ['news', { label: 'Blog', value: 'blog' }] },
    { name: 'tags', type: 'select', hasMany: true, options: ['a', 'b', 'c,d'] },
    { name: 'author', type: 'relationship' },
    {
      name: 'related',
      type: 'relationship',
      hasMany: true,
      join: { table: 'c_posts__related', ownerColumn: 'owner_id', valueColumn: 'target_id' },
    },
    { name: 'cover', type: 'upload' },
    { name: 'meta', type: 'json' },
    { name: 'body', type: 'richText' },
    { name: 'seo', type: 'component' },
  ],
};
const plainDef: QueryDefinition = { drafts: false, fields: [{ name: 'title', type: 'text' }] };

const UUID = '3f2504e0-4f89-11d3-9a0c-0305e82c3301';
const RELATED = '"c_posts__related"';

/** where (as JSON) → parse → compileWhere. */
function sql(where: unknown, opts: Parameters<typeof compileWhere>[2] = {}) {
  const parsed = parseListQuery({ where: JSON.stringify(where) }, def);
  return compileWhere(parsed.where, def, opts);
}

describe('compileWhere: one operator at a time', () => {
  it.each<[string, unknown, string, unknown[]]>([
    ['equals', { title: { equals: 'a' } }, '"title" = $1', ['a']],
    [
      'not_equals (NULL counts as not equal)',
      { title: { not_equals: 'a' } },
      '"title" IS DISTINCT FROM $1',
      ['a'],
    ],
    ['greater_than', { views: { greater_than: '500' } }, '"views" > $1', [500]],
    ['greater_than_equal', { views: { greater_than_equal: 1.5 } }, '"views" >= $1', [1.5]],
    [
      'less_than on a date',
      { publishedOn: { less_than: '2024-01-01' } },
      '"publishedOn" < $1',
      ['2024-01-01T00:00:00.000Z'],
    ],
    [
      'less_than_equal on a system timestamp',
      { updatedAt: { less_than_equal: '2024-01-01T00:00:00Z' } },
      '"updated_at" <= $1',
      ['2024-01-01T00:00:00.000Z'],
    ],
    [
      'like, the pattern as given',
      { title: { like: 'He%l_o\\%' } },
      `"title" LIKE $1 ESCAPE '\\'`,
      ['He%l_o\\%'],
    ],
    [
      'contains escapes % _ and \\',
      { summary: { contains: '50%_off\\' } },
      `"summary" ILIKE $1 ESCAPE '\\'`,
      ['%50\\%\\_off\\\\%'],
    ],
    ['search is contains', { contact: { search: 'Ex' } }, `"contact" ILIKE $1 ESCAPE '\\'`, ['%Ex%']],
    ['in', { views: { in: '1,2' } }, '"views" = ANY($1)', [[1, 2]]],
    ['in, empty list', { views: { in: '' } }, 'FALSE', []],
    [
      'not_in (NULL counts as not in)',
      { category: { not_in: 'news' } },
      '("category" IS NULL OR "category" <> ALL($1))',
      [['news']],
    ],
    ['not_in, empty list', { category: { not_in: [] } }, 'TRUE', []],
    ['exists true', { meta: { exists: true } }, '"meta" IS NOT NULL', []],
    ['exists false', { body: { exists: 'false' } }, '"body" IS NULL', []],
    [
      'equals null',
      { seo: { exists: false }, author: { equals: null } },
      '("seo" IS NULL AND "author" IS NULL)',
      [],
    ],
    ['not_equals null', { cover: { not_equals: null } }, '"cover" IS NOT NULL', []],
    ['checkbox', { featured: { equals: 'false' } }, '"featured" = $1', [false]],
    ['id', { id: { in: [UUID] } }, '"id" = ANY($1)', [[UUID]]],
    ['hasMany array: equals', { tags: { equals: 'a' } }, '$1 = ANY("tags")', ['a']],
    [
      'hasMany array: not_equals',
      { tags: { not_equals: 'a' } },
      'NOT COALESCE($1 = ANY("tags"), FALSE)',
      ['a'],
    ],
    ['hasMany array: in', { tags: { in: 'a,b' } }, '"tags" && $1', [['a', 'b']]],
    ['hasMany array: in, empty list', { tags: { in: '' } }, 'FALSE', []],
    ['hasMany array: not_in', { tags: { not_in: ['c,d'] } }, 'NOT COALESCE("tags" && $1, FALSE)', [['c,d']]],
    ['hasMany array: exists', { tags: { exists: true } }, 'COALESCE(cardinality("tags"), 0) > 0', []],
    ['hasMany array: not exists', { tags: { equals: null } }, 'COALESCE(cardinality("tags"), 0) = 0', []],
    [
      'hasMany join: equals',
      { related: { equals: UUID } },
      `"id" IN (SELECT ${RELATED}."owner_id" FROM ${RELATED} WHERE ${RELATED}."target_id" = $1)`,
      [UUID],
    ],
    [
      'hasMany join: not_equals',
      { related: { not_equals: UUID } },
      `"id" NOT IN (SELECT ${RELATED}."owner_id" FROM ${RELATED} WHERE ${RELATED}."owner_id" IS NOT NULL AND ${RELATED}."target_id" = $1)`,
      [UUID],
    ],
    [
      'hasMany join: in',
      { related: { in: UUID } },
      `"id" IN (SELECT ${RELATED}."owner_id" FROM ${RELATED} WHERE ${RELATED}."target_id" = ANY($1))`,
      [[UUID]],
    ],
    [
      'hasMany join: not_in',
      { related: { not_in: [UUID] } },
      `"id" NOT IN (SELECT ${RELATED}."owner_id" FROM ${RELATED} WHERE ${RELATED}."owner_id" IS NOT NULL AND ${RELATED}."target_id" = ANY($1))`,
      [[UUID]],
    ],
    ['hasMany join: not_in, empty', { related: { not_in: '' } }, 'TRUE', []],
    [
      'hasMany join: exists',
      { related: { exists: true } },
      `"id" IN (SELECT ${RELATED}."owner_id" FROM ${RELATED})`,
      [],
    ],
    [
      'hasMany join: not exists',
      { related: { exists: false } },
      `"id" NOT IN (SELECT ${RELATED}."owner_id" FROM ${RELATED} WHERE ${RELATED}."owner_id" IS NOT NULL)`,
      [],
    ],
  ])('%s', (_name, where, expectedSql, expectedParams) => {
    expect(sql(where)).toEqual({ sql: expectedSql, params: expectedParams });
  });

  it('covers every operator of SPEC 4.3', () => {
    const seen = new Set<string>();
    for (const op of OPERATORS) {
      const value = op === 'exists' ? 'true' : op === 'in' || op === 'not_in' ? 'x,y' : 'x';
      seen.add(sql({ title: { [op]: value } }).sql);
    }
    expect([...seen]).toEqual([
      '"title" = $1',
      '"title" IS DISTINCT FROM $1',
      '"title" > $1',
      '"title" >= $1',
      '"title" < $1',
      '"title" <= $1',
      `"title" LIKE $1 ESCAPE '\\'`,
      `"title" ILIKE $1 ESCAPE '\\'`,
      '"title" = ANY($1)',
      '("title" IS NULL OR "title" <> ALL($1))',
      '"title" IS NOT NULL',
    ]);
  });
});

describe('compileWhere: groups, aliases, numbering', () => {
  it('nests and/or with parameters numbered in order of appearance', () => {
    expect(
      sql({
        or: [
          { title: { equals: 'a' }, views: { greater_than: 1 } },
          { and: [{ category: { in: 'news,blog' } }, { or: [{ featured: { equals: true } }] }] },
        ],
        contact: { exists: true },
      }),
    ).toEqual({
      sql: '((("title" = $1 AND "views" > $2) OR ("category" = ANY($3) AND "featured" = $4)) AND "contact" IS NOT NULL)',
      params: ['a', 1, ['news', 'blog'], true],
    });
  });

  it('turns empty groups into TRUE / FALSE and no where into TRUE', () => {
    expect(sql({})).toEqual({ sql: 'TRUE', params: [] });
    expect(sql({ or: [] })).toEqual({ sql: 'FALSE', params: [] });
    expect(sql({ or: [{}, { title: { equals: 'x' } }] })).toEqual({
      sql: '(TRUE OR "title" = $1)',
      params: ['x'],
    });
    expect(compileWhere(null, def)).toEqual({ sql: 'TRUE', params: [] });
  });

  it('qualifies columns with an alias and numbers parameters after an offset', () => {
    expect(
      sql(
        { title: { equals: 'a' }, related: { in: UUID }, createdAt: { exists: true } },
        { alias: 't', paramOffset: 3 },
      ),
    ).toEqual({
      sql:
        `("t"."title" = $4 AND "t"."id" IN (SELECT ${RELATED}."owner_id" FROM ${RELATED} ` +
        `WHERE ${RELATED}."target_id" = ANY($5)) AND "t"."created_at" IS NOT NULL)`,
      params: ['a', [UUID]],
    });
  });

  it('quotes identifiers from the definition, doubling embedded quotes', () => {
    expect(quoteIdent('we"ird')).toBe('"we""ird"');
    expect(() => quoteIdent('')).toThrow();
    expect(() => quoteIdent('a\u0000b')).toThrow();
    const odd: QueryDefinition = { drafts: false, fields: [{ name: 'we"ird', type: 'text' }] };
    const parsed = parseListQuery({ where: '{"we\\"ird":{"equals":"x"}}', sort: 'we"ird' }, odd);
    expect(compileWhere(parsed.where, odd).sql).toBe('"we""ird" = $1');
  });

  it('refuses an AST that does not fit the definition (a programming error, not a request error)', () => {
    expect(() => compileWhere({ field: 'ghost', op: 'equals', value: 'x' }, def)).toThrow(/does not fit/);
    expect(() => compileWhere({ field: 'meta', op: 'equals', value: 'x' }, def)).toThrow(/does not fit/);
    expect(() => compileWhere({ field: 'status', op: 'equals', value: 'draft' }, def)).toThrow(
      /does not fit/,
    );
  });

  it('keeps parameters separate from the AST', () => {
    const where: WhereNode = { field: 'views', op: 'in', value: [1, 2] };
    const out = compileWhere(where, def);
    (out.params[0] as number[]).push(3);
    expect(where.value).toEqual([1, 2]);
  });
});

describe('compileFilter and compileListQuery', () => {
  const table = 'c_posts';
  const list = (query: Record<string, unknown>, d = def, opts?: Parameters<typeof parseListQuery>[2]) =>
    compileListQuery(parseListQuery(query, d, opts), d, { table });

  it('adds the drafts status as a parameter', () => {
    const parsed = parseListQuery({ where: '{"views":{"greater_than":1}}' }, def);
    expect(compileFilter(parsed, def)).toEqual({
      sql: '"status" = $1 AND "views" > $2',
      params: ['published', 1],
    });
    expect(compileFilter({ ...parsed, status: 'draft' }, def, { alias: 'e', paramOffset: 1 })).toEqual({
      sql: '"e"."status" = $2 AND "e"."views" > $3',
      params: ['draft', 1],
    });
    expect(compileFilter({ ...parsed, status: 'all' }, def)).toEqual({ sql: '"views" > $1', params: [1] });
    expect(compileFilter({ where: null, status: 'all' }, def)).toEqual({ sql: 'TRUE', params: [] });
    expect(compileFilter({ where: null, status: 'published' }, plainDef)).toEqual({
      sql: 'TRUE',
      params: [],
    });
  });

  it('builds the default list', () => {
    const q = list({});
    expect(q).toMatchSnapshot();
    expect(q.listParams).toEqual(['published', 10, 0]);
    expect(q.countParams).toEqual(['published']);
  });

  it('builds the bench list: where + sort + limit', () => {
    const q = list({ 'where[views][greater_than]': '500', sort: '-views', limit: '20', page: '3' });
    expect(q).toEqual({
      listSql:
        'SELECT "id", "created_at" AS "createdAt", "updated_at" AS "updatedAt", "status", "title", "summary", ' +
        '"contact", "views", "featured", "publishedOn", "category", "tags", "author", "cover", "meta", "body", "seo" ' +
        'FROM "c_posts" WHERE "status" = $1 AND "views" > $2 ORDER BY "views" DESC, "id" DESC LIMIT $3 OFFSET $4',
      listParams: ['published', 500, 20, 40],
      countSql: 'SELECT count(*) AS "total" FROM "c_posts" WHERE "status" = $1 AND "views" > $2',
      countParams: ['published', 500],
    });
  });

  it('reads one row past the page when asked (hasNext without a count); the count is unchanged', () => {
    const parsed = parseListQuery({ 'where[views][greater_than]': '500', limit: '20', page: '3' }, def);
    const plain = compileListQuery(parsed, def, { table });
    const next = compileListQuery(parsed, def, { table, nextRow: true });
    expect(next.listSql).toBe(plain.listSql);
    expect(plain.listParams).toEqual(['published', 500, 20, 40]);
    expect(next.listParams).toEqual(['published', 500, 21, 40]);
    expect([next.countSql, next.countParams]).toEqual([plain.countSql, plain.countParams]);
  });

  it('builds a full query (snapshot)', () => {
    const query = parseQs(
      'where[or][0][title][contains]=50%25&where[or][1][tags][in]=a,b&where[publishedOn][less_than]=2024-06-01' +
        `&where[related][not_equals]=${UUID}&sort=category,-publishedOn&select=title,related,tags&status=draft` +
        '&limit=600&page=2&depth=1&richTextFormat=both',
      { allowPrototypes: true },
    );
    const parsed = parseListQuery(query, def);
    expect(parsed).toMatchSnapshot('parsed');
    expect(compileListQuery(parsed, def, { table })).toMatchSnapshot('sql');
  });

  it('selects only what was asked (and never a join-table field as a column)', () => {
    expect(list({ select: 'related' }).listSql).toMatch(
      /^SELECT "id", "created_at" AS "createdAt", "updated_at" AS "updatedAt" FROM "c_posts" WHERE/,
    );
    expect(list({ select: 'status,title', status: 'all' })).toMatchSnapshot();
  });

  it('reads a join-table field with an order column in the same query, in order', () => {
    const ordered: QueryDefinition = {
      drafts: false,
      fields: [
        {
          name: 'related',
          type: 'relationship',
          hasMany: true,
          join: {
            table: 'c_posts__related',
            ownerColumn: 'owner_id',
            valueColumn: 'target_id',
            orderColumn: 'position',
          },
        },
      ],
    };
    expect(list({ select: 'related' }, ordered).listSql).toBe(
      'SELECT "id", "created_at" AS "createdAt", "updated_at" AS "updatedAt", ' +
        'ARRAY(SELECT "c_posts__related"."target_id" FROM "c_posts__related" ' +
        'WHERE "c_posts__related"."owner_id" = "c_posts"."id" ORDER BY "c_posts__related"."position") AS "related" ' +
        'FROM "c_posts" ORDER BY "created_at" DESC, "id" DESC LIMIT $1 OFFSET $2',
    );
  });

  it('orders stably with id last, in the direction of the last key', () => {
    const order = (sort: string) => /ORDER BY (.*) LIMIT/.exec(list({ sort }).listSql)?.[1];
    expect(order('title')).toBe('"title" ASC, "id" ASC');
    expect(order('title,-createdAt')).toBe('"title" ASC, "created_at" DESC, "id" DESC');
    expect(order('-id,title')).toBe('"id" DESC, "title" ASC');
    expect(order('status,-updatedAt')).toBe('"status" ASC, "updated_at" DESC, "id" DESC');
  });

  it('has no status filter for a collection without drafts', () => {
    expect(list({ 'where[title][like]': 'A%' }, plainDef)).toMatchSnapshot();
    expect(list({}, plainDef)).toEqual({
      listSql:
        'SELECT "id", "created_at" AS "createdAt", "updated_at" AS "updatedAt", "title" FROM "c_posts" ' +
        'ORDER BY "created_at" DESC, "id" DESC LIMIT $1 OFFSET $2',
      listParams: [10, 0],
      countSql: 'SELECT count(*) AS "total" FROM "c_posts"',
      countParams: [],
    });
  });

  it('lets trusted in-process callers default to every status', () => {
    expect(list({}, def, { defaultStatus: 'all' }).countSql).toBe(
      'SELECT count(*) AS "total" FROM "c_posts"',
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Property test: hostile input gives a valid query or a VALIDATION_ERROR, and values never reach SQL

/** mulberry32: a small seeded generator, so a failure reproduces from its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MARK = 'ZQX';
const FIELD_NAMES = def.fields.map((f) => f.name);
const SYSTEM = ['id', 'createdAt', 'updatedAt', 'status'];
const MODEL = resolveDefinition(def);
const FILTERABLE = [...MODEL.values()].filter((f) => f.operators.size > 0).map((f) => f.name);
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
  '[equals]',
  '[0][title]',
  '[title][equals]',
  'title]',
  '[',
  '',
  `${MARK}"; DROP TABLE c_posts; --`,
  '0',
  '99999999999',
  'ünïcødé',
  '\u0000',
  'x'.repeat(300),
];
const HOSTILE_STRINGS = [
  `${MARK}'; DROP TABLE c_posts; --`,
  `${MARK}" OR 1=1 --`,
  `${MARK}$1`,
  `${MARK}\\`,
  `${MARK}%_\\%`,
  `${MARK}\u0000`,
  `${MARK}\ud800`,
  `${MARK}😀ü中文\u202e`,
  `${MARK},${MARK},,`,
  MARK.repeat(400),
  MARK + 'a'.repeat(997),
  '',
  ' ',
  'null',
  'true',
  'false',
  'NaN',
  'Infinity',
  '1e309',
  '-0',
  '42',
  '3.14',
  '2024-02-29',
  '2024-02-30',
  '2024-01-01T10:00:00Z',
  '2024-01-01T10:00:00',
  UUID,
  UUID.toUpperCase(),
  'news',
  'blog',
  'a',
  'c,d',
  '1,2,3',
  '{"title":{"equals":"x"}}',
  '[object Object]',
];

class Gen {
  /** Values still to generate for the current query: keeps every query small enough to build. */
  budget = 0;
  constructor(readonly r: () => number) {}
  int(n: number): number {
    return Math.floor(this.r() * n);
  }
  chance(p: number): boolean {
    return this.r() < p;
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }
  unicode(): string {
    let s = MARK;
    for (let i = this.int(12); i > 0; i--) {
      s += String.fromCodePoint(
        this.pick([0x20 + this.int(95), 0xa0 + this.int(0x2000), 0x1f600 + this.int(80)]),
      );
    }
    return s;
  }
  /** A value valid for the operator and the field, or close to it. */
  goodValue(field: string, op: string): unknown {
    if (op === 'exists') {
      return this.pick(['true', 'false', true, false]);
    }
    if (op === 'in' || op === 'not_in') {
      const n = this.int(4);
      const items = Array.from({ length: n }, () => this.goodValue(field, 'equals'));
      return this.chance(0.5) ? items.map(String).join(',') : items;
    }
    switch (field) {
      case 'views':
        return this.pick([String(this.int(1000) - 500), String(this.r() * 1e6), this.int(100)]);
      case 'featured':
        return this.pick(['true', 'false']);
      case 'publishedOn':
      case 'createdAt':
      case 'updatedAt':
        return new Date(Date.UTC(1970 + this.int(80), this.int(12), 1 + this.int(28))).toISOString();
      case 'category':
        return this.pick(['news', 'blog']);
      case 'tags':
        return this.pick(['a', 'b', 'c,d']);
      case 'id':
      case 'author':
      case 'cover':
      case 'related':
        return UUID;
      default: {
        const s = this.chance(0.5) ? this.unicode() : this.pick(HOSTILE_STRINGS.slice(0, 5));
        return s.endsWith('\\') ? `${s}x` : s;
      }
    }
  }
  hostileValue(depth: number): unknown {
    if (--this.budget <= 0) {
      return this.pick(HOSTILE_STRINGS);
    }
    switch (this.int(9)) {
      case 0:
      case 1:
      case 2:
        return this.pick(HOSTILE_STRINGS);
      case 3:
        return this.unicode();
      case 4:
        return this.pick([0, -1, 1.5, 1e308, NaN, Infinity, true, false, null, undefined]);
      case 5:
        return depth > 3
          ? []
          : Array.from({ length: this.pick([0, 1, 3, 101, 150]) }, () => this.hostileValue(depth + 1));
      case 6:
        return depth > 3 ? {} : this.where(depth + 1, false);
      case 7:
        return this.chance(0.5)
          ? 'x'.repeat(this.pick([999, 1000, 1001, 70_000]))
          : ','.repeat(this.int(500));
      default:
        return this.pick([[UUID, 'a'], { 0: 'a', 1: 'b' }, { '[0]': 'a' }, new Date(NaN), new Date(0)]);
    }
  }
  /** An object with own keys only, `__proto__` included (as JSON.parse or qs would give it). */
  obj(entries: Array<[string, unknown]>): Record<string, unknown> {
    const o: Record<string, unknown> = this.chance(0.2)
      ? (Object.create(null) as Record<string, unknown>)
      : {};
    for (const [k, v] of entries) {
      Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    }
    return o;
  }
  where(depth: number, good: boolean): Record<string, unknown> {
    const entries: Array<[string, unknown]> = [];
    for (let n = 1 + this.int(good ? 2 : 4); n > 0 && --this.budget > 0; n--) {
      if (good ? depth < 4 && this.chance(0.25) : this.chance(depth < 7 ? 0.25 : 0.05)) {
        const children = Array.from({ length: this.int(good ? 3 : 5) }, () => this.where(depth + 1, good));
        const list = this.chance(0.7)
          ? children
          : this.obj(children.map((c, i) => [String(i * this.pick([1, 7])), c]));
        entries.push([this.pick(['and', 'or']), list]);
        continue;
      }
      const field = good
        ? this.pick(FILTERABLE)
        : this.chance(0.7)
          ? this.pick([...FIELD_NAMES, ...SYSTEM])
          : this.pick(HOSTILE_KEYS);
      if (!good && this.chance(0.1)) {
        entries.push([field, this.hostileValue(depth)]);
        continue;
      }
      const ops: Array<[string, unknown]> = [];
      for (let k = 1 + this.int(2); k > 0; k--) {
        const op = good
          ? this.pick([...(MODEL.get(field)?.operators ?? [])])
          : this.chance(0.8)
            ? this.pick(OPERATORS)
            : this.pick(HOSTILE_KEYS);
        ops.push([op, good || this.chance(0.5) ? this.goodValue(field, op) : this.hostileValue(depth)]);
      }
      entries.push([field, this.obj(ops)]);
    }
    return this.obj(entries);
  }
  param(name: string, good: boolean): unknown {
    const fields = [...FIELD_NAMES, ...SYSTEM];
    switch (name) {
      case 'sort':
        return good
          ? `${this.pick(['', '-'])}${this.pick(['title', 'views', 'createdAt', 'id', 'category', 'status'])}`
          : this.pick([
              fields.map((f) => `-${f}`).join(','),
              this.pick(HOSTILE_KEYS),
              ['title', '-views'],
              { title: 'asc' },
              this.pick(HOSTILE_STRINGS),
            ]);
      case 'select':
        return good
          ? fields.filter(() => this.chance(0.3)).join(',') || 'title'
          : this.pick([
              '',
              JSON.stringify({ title: true, [this.pick(HOSTILE_KEYS)]: true }),
              '{"__proto__":true}',
              this.obj([[this.pick(fields), this.pick(['true', true, false, 'yes'])]]),
              [this.pick(fields), this.pick(HOSTILE_STRINGS)],
            ]);
      case 'limit':
      case 'page':
        return good
          ? String(1 + this.int(600))
          : this.pick(['0', '-1', 'abc', '1e3', '', ['1', '2'], 7, 1.5]);
      case 'depth':
        return good ? String(this.int(6)) : this.pick(['6', '-1', 'x', '99999999999999999999']);
      case 'richTextFormat':
        return good ? this.pick(['json', 'html', 'both']) : this.pick(['HTML', 'xml', ['json']]);
      default:
        return good ? this.pick(['published', 'draft', 'all']) : this.pick(['archived', '', ['all']]);
    }
  }
  /** A whole query: an object as qs or JSON would give it, or a query string through a real parser. */
  query(): Record<string, unknown> {
    this.budget = this.pick([20, 60, 400]);
    const good = this.chance(0.45);
    const entries: Array<[string, unknown]> = [];
    const where = this.where(0, good);
    switch (this.int(good ? 3 : 4)) {
      case 0:
        entries.push(['where', where]);
        break;
      case 1:
        entries.push(['where', JSON.stringify(where)]);
        break;
      case 2:
        for (const [k, v] of flatten('where', where)) {
          entries.push([k, v]);
        }
        break;
      default:
        entries.push([
          'where',
          this.pick([this.pick(HOSTILE_STRINGS), `{${'{"and":['.repeat(this.int(3000))}`]),
        ]);
    }
    for (const name of ['sort', 'select', 'limit', 'page', 'depth', 'richTextFormat', 'status']) {
      if (this.chance(0.3)) {
        entries.push([name, this.param(name, good || this.chance(0.5))]);
      }
    }
    if (!good && this.chance(0.3)) {
      entries.push([this.pick([...HOSTILE_KEYS, 'search', 'where[', 'where]]', 'sort[0]', 'limit[x]']), 'x']);
    }
    const q = this.obj(entries);
    if (this.chance(0.35)) {
      const queryString = Object.entries(q)
        .flatMap(([k, v]): Array<[string, unknown]> => (typeof v === 'string' ? [[k, v]] : flatten(k, v)))
        .map(([k, v]) => `${encode(k)}=${encode(text(v))}`)
        .join('&');
      return this.chance(0.5)
        ? (parseQs(queryString, { allowPrototypes: true }) as Record<string, unknown>)
        : (parseSimple(queryString) as Record<string, unknown>);
    }
    return q;
  }
}

/** Bracket-notation pairs of a nested value, as a browser form would send them. */
function flatten(prefix: string, value: unknown, depth = 0): Array<[string, unknown]> {
  if (depth > 12 || value === null || typeof value !== 'object' || value instanceof Date) {
    return [[prefix, value]];
  }
  return Object.keys(value).flatMap((k) =>
    flatten(`${prefix}[${k}]`, (value as Record<string, unknown>)[k], depth + 1),
  );
}

/** A leaf as query-string text (a null-prototype object has no toString). */
function text(v: unknown): string {
  return typeof v === 'object' && v !== null && !(v instanceof Date) ? MARK : String(v);
}

/** encodeURIComponent, but a lone surrogate (which it refuses) becomes a marker. */
function encode(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return MARK;
  }
}

const KEYWORDS = new Set(
  (
    'SELECT FROM WHERE AND OR NOT IS NULL DISTINCT IN ANY ALL LIKE ILIKE ESCAPE TRUE FALSE COALESCE ' +
    'cardinality count AS ORDER BY ASC DESC LIMIT OFFSET'
  ).split(' '),
);
const IDENTIFIERS = new Set(
  [
    ...FIELD_NAMES,
    ...SYSTEM,
    'created_at',
    'updated_at',
    'c_posts',
    'c_posts__related',
    'owner_id',
    'target_id',
    't',
    'total',
  ].map(quoteIdent),
);
const TOKEN = /\s+|"(?:[^"]|"")*"|\$[1-9][0-9]*|'\\'|[A-Za-z_]+|0|>=|<=|<>|&&|[(),.*=<>]/y;

/**
 * The SQL holds only keywords, known quoted identifiers, `$n` and the literal `'\'`, and its `$n`
 * are exactly 1..n after the offset. (Plain checks: this runs some 100,000 times.)
 */
function checkSql(sqlText: string, paramCount: number, offset = 0): void {
  const fail = (why: string) => {
    throw new Error(`${why} in SQL: ${sqlText.slice(0, 500)}`);
  };
  if (sqlText.includes(MARK)) {
    fail('a value');
  }
  const placeholders = new Set<number>();
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < sqlText.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(sqlText);
    if (!m) {
      fail(`unexpected text at ${at} (${sqlText.slice(at, at + 20)})`);
      return;
    }
    const t = m[0];
    if (t.startsWith('"') ? !IDENTIFIERS.has(t) : /^[A-Za-z_]+$/.test(t) && !KEYWORDS.has(t)) {
      fail(`unexpected token ${t}`);
    }
    if (t.startsWith('$')) {
      placeholders.add(Number(t.slice(1)));
    }
  }
  const expected = Array.from({ length: paramCount }, (_, i) => offset + i + 1);
  if ([...placeholders].sort((a, b) => a - b).join() !== expected.join()) {
    fail(`placeholders ${[...placeholders].join()} for ${paramCount} parameters after ${offset}`);
  }
}

/** Parameters are plain values (or arrays of them): text, finite numbers, booleans, dates. */
function checkParams(params: unknown[]): void {
  for (const p of params) {
    for (const v of Array.isArray(p) ? (p as unknown[]) : [p]) {
      const plain =
        typeof v === 'string' ||
        (typeof v === 'number' && Number.isFinite(v)) ||
        typeof v === 'boolean' ||
        (v instanceof Date && !Number.isNaN(v.getTime()));
      if (!plain) {
        throw new Error(`unexpected parameter ${String(v)}`);
      }
    }
  }
}

describe('property: 2,000 random and hostile queries', () => {
  const seed = Number(process.env.QUERY_FUZZ_SEED ?? 0x5eed_c0de);

  it(`gives a valid query or VALIDATION_ERROR, never another error, and never a value in SQL (seed ${seed})`, () => {
    const gen = new Gen(rng(seed));
    const tally = { valid: 0, invalid: 0, withWhere: 0 };
    const started = Date.now();
    for (let i = 0; i < 2000; i++) {
      const query = gen.query();
      let parsed: ParsedQuery | undefined;
      try {
        parsed = parseListQuery(query, def);
      } catch (e) {
        if (!(e instanceof ServiceError) || e.code !== 'VALIDATION_ERROR') {
          throw new Error(`seed ${seed}, query ${i}: ${String(e)}\n${(e as Error).stack ?? ''}`);
        }
        const errors = (e.data as { errors: Array<Record<string, unknown>> }).errors;
        const wellFormed = errors.every(
          (x) =>
            typeof x.path === 'string' &&
            typeof x.code === 'string' &&
            typeof x.message === 'string' &&
            x.message.length < 2000,
        );
        if (errors.length === 0 || errors.length > 51 || !wellFormed) {
          throw new Error(
            `seed ${seed}, query ${i}: malformed issues ${JSON.stringify(errors).slice(0, 500)}`,
          );
        }
        tally.invalid++;
        continue;
      }
      try {
        const list = compileListQuery(parsed, def, { table: 'c_posts' });
        checkSql(list.listSql, list.listParams.length);
        checkSql(list.countSql, list.countParams.length);
        checkParams(list.listParams);
        if (list.listParams.length !== list.countParams.length + 2 || parsed.limit > 500) {
          throw new Error('count parameters must be the list parameters without LIMIT and OFFSET');
        }
        const where = compileWhere(parsed.where, def, { alias: 't', paramOffset: 2 });
        checkSql(where.sql, where.params.length, 2);
        checkParams(where.params);
        if (parsed.where) {
          tally.withWhere++;
        }
        tally.valid++;
      } catch (e) {
        throw new Error(`seed ${seed}, query ${i} (valid parse, bad SQL): ${String(e)}`);
      }
    }
    expect(tally.valid).toBeGreaterThan(300);
    expect(tally.withWhere).toBeGreaterThan(200);
    expect(tally.invalid).toBeGreaterThan(300);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 60_000);
});
