import { createTestApp, TestApp } from '../utils/test-app';
import { doc, link, paragraph, text } from '../utils/lexical';
import { bearerFor, createUser } from '../utils/auth';

/**
 * The query language of SPEC 4.3 through HTTP against a real table: every operator each field type
 * allows, with the exact set of entries it matches, on seeded edge values (nulls, unicode,
 * combining characters, LIKE metacharacters, quotes, zero/negative/fractional/huge numbers, dates
 * with offsets).
 */

const LIST = '/admin/api/collections/things/entries';
const COUNT = '/admin/api/collections/things/entries/count';

/** `key=value` with the value URL-encoded (keys keep their brackets, as a browser would send them). */
const kv = (key: string, value: string) => `${key}=${encodeURIComponent(value)}`;
const json = (where: unknown) => kv('where', JSON.stringify(where));

type AuthorKey = 'ann' | 'bob' | 'cy';

interface Seed {
  title: string;
  body?: string;
  email?: string;
  views?: number;
  featured?: boolean;
  publishedAt?: string;
  kind?: 'news' | 'blog' | 'guide';
  tags?: string[];
  author?: AuthorKey;
  coauthors?: AuthorKey[];
  meta?: unknown;
  content?: object;
  code?: string;
}

const T = {
  alpha: 'Alpha',
  alphaLower: 'alpha',
  zoe: 'Zo\u00eb', // precomposed ë
  zoeCombining: 'Zoe\u0308', // e + combining diaeresis: looks the same, different code points
  japanese: '日本語テキスト',
  party: 'Party 🎉 time',
  percent: '100% pure',
  percentWord: '100 percent',
  snake: 'snake_case_name',
  snakeX: 'snakeXcaseXname',
  backslash: 'back\\slash',
  quoted: `it's "quoted"`,
  comma: 'Hello, world',
  empty: 'Empty',
  upper: 'UPPER lower',
} as const;

const SEEDS: Seed[] = [
  {
    title: T.alpha,
    body: 'First body',
    email: 'alpha@example.com',
    views: 0,
    featured: true,
    publishedAt: '2024-01-01', // midnight UTC
    kind: 'news',
    tags: ['a', 'b'],
    author: 'ann',
    coauthors: ['ann', 'bob'],
    meta: { n: 1 },
    content: doc(paragraph(text('Hello', 1))),
    code: 'aa',
  },
  {
    title: T.alphaLower,
    body: 'second BODY',
    email: 'beta@example.com',
    views: -5,
    featured: false,
    publishedAt: '2024-01-01T23:30:00-02:00', // 2024-01-02T01:30:00Z
    kind: 'blog',
    tags: ['c'],
    author: 'bob',
    coauthors: ['bob'],
    meta: [],
    code: 'ab',
  },
  {
    title: T.zoe,
    views: 1.5,
    publishedAt: '2024-01-02T00:00:00Z',
    kind: 'guide',
    tags: [], // stored as NULL: "no values"
    code: 'b',
  },
  {
    title: T.zoeCombining,
    views: 1e15,
    publishedAt: '2023-12-31T23:59:59.999Z',
    kind: 'news',
    coauthors: ['cy'],
    code: 'ba',
  },
  {
    title: T.japanese,
    body: '日本語の本文',
    views: 2,
    publishedAt: '2024-01-01T09:00:00+09:00', // the same instant as 2024-01-01 midnight UTC
    tags: ['d'],
    author: 'cy',
    code: 'c',
  },
  {
    title: T.party,
    body: 'emoji 🎉 party',
    views: 100,
    featured: true,
    kind: 'blog',
    tags: ['a'],
    meta: { k: 'v' },
    code: 'ca',
  },
  { title: T.percent, body: '50% off', views: 0.5, featured: false, code: 'd' },
  { title: T.percentWord, views: -0.25, code: 'da' },
  { title: T.snake, body: 'a_b', code: 'e' },
  { title: T.snakeX, body: 'aXb', code: 'ea' },
  { title: T.backslash, body: 'C:\\dir', code: 'f' },
  { title: T.quoted, body: "O'Reilly", code: 'fa' },
  { title: T.comma, tags: ['x,y'], code: 'g' },
  { title: T.empty },
  {
    title: T.upper,
    email: 'Upper@Example.COM',
    content: doc(
      paragraph(
        link('javascript:alert(1)', 'click'),
        text(' and '),
        link('https://example.com/a?b=1', 'safe'),
      ),
    ),
    code: 'h',
  },
];

const ALL = SEEDS.map((s) => s.title).sort();
const titlesOf = (pred: (s: Seed) => boolean): string[] =>
  SEEDS.filter(pred)
    .map((s) => s.title)
    .sort();
const except = (...titles: string[]): string[] => ALL.filter((x) => !titles.includes(x));
const isSet = (v: unknown): boolean => v !== undefined && v !== null;
const instant = (s: Seed): number | null => (s.publishedAt === undefined ? null : Date.parse(s.publishedAt));

describe('content query language over HTTP (SPEC 4.3)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  const authors: Record<AuthorKey, string> = { ann: '', bob: '', cy: '' };
  /** title -> entry id */
  const ids = new Map<string, string>();

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          { slug: 'authors', fields: [{ name: 'name', type: 'text', required: true }] },
          {
            slug: 'things',
            fields: [
              { name: 'title', type: 'text', required: true, unique: true },
              { name: 'body', type: 'textarea' },
              { name: 'email', type: 'email' },
              { name: 'views', type: 'number' },
              { name: 'featured', type: 'checkbox' },
              { name: 'publishedAt', type: 'date' },
              { name: 'kind', type: 'select', options: ['news', 'blog', 'guide'] },
              { name: 'tags', type: 'select', hasMany: true, options: ['a', 'b', 'c', 'd', 'x,y'] },
              { name: 'author', type: 'relationship', relationTo: 'authors' },
              { name: 'coauthors', type: 'relationship', relationTo: 'authors', hasMany: true },
              { name: 'meta', type: 'json' },
              { name: 'content', type: 'richText' },
              { name: 'code', type: 'text' },
            ],
          },
        ],
      },
    });
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    for (const [key, name] of [
      ['ann', 'Ann'],
      ['bob', 'Bob'],
      ['cy', 'Cy'],
    ] as const) {
      const res = await t.http.post('/admin/api/collections/authors/entries').set(admin).send({ name });
      expect(res.status).toBe(201);
      authors[key] = res.body.item.id;
    }
    // Sequentially: createdAt follows the seed order.
    for (const s of SEEDS) {
      const body: Record<string, unknown> = { ...s };
      if (s.author) {
        body.author = authors[s.author];
      }
      if (s.coauthors) {
        body.coauthors = s.coauthors.map((a) => authors[a]);
      }
      const res = await t.http.post(`${LIST}`).set(admin).send(body);
      if (res.status !== 201) {
        throw new Error(`seeding ${s.title}: ${res.status} ${JSON.stringify(res.body)}`);
      }
      ids.set(s.title, res.body.item.id);
    }
  });
  afterAll(() => t.close());

  const get = (path: string) => t.http.get(path).set(admin);

  /** The sorted titles a list query matches (every page: limit 500). */
  async function titles(qs: string): Promise<string[]> {
    const res = await get(`${LIST}?${qs}&limit=500`);
    if (res.status !== 200) {
      throw new Error(`GET ?${qs}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(res.body.meta.total).toBe(res.body.items.length);
    return (res.body.items as Array<{ title: string }>).map((i) => i.title).sort();
  }

  /** Asserts the query matches exactly `expected` (and that count agrees). */
  async function expectMatch(qs: string, expected: string[]): Promise<void> {
    expect({ qs, titles: await titles(qs) }).toEqual({ qs, titles: [...expected].sort() });
    const count = await get(`${COUNT}?${qs}`);
    expect({ qs, status: count.status, body: count.body }).toEqual({
      qs,
      status: 200,
      body: { total: expected.length },
    });
  }

  /** 400 VALIDATION_ERROR in the problem envelope, with an error naming `errorPath` (and `code`). */
  async function invalid(errorPath: string, qs: string, code?: string): Promise<void> {
    const res = await get(`${LIST}?${qs}`);
    expect({ qs, status: res.status }).toEqual({ qs, status: 400 });
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', requestId: expect.any(String) });
    const errors = res.body.error.data.errors as Array<{ path: string; code: string; message: string }>;
    expect({ qs, errors }).toEqual({
      qs,
      errors: expect.arrayContaining([
        expect.objectContaining(code ? { path: errorPath, code } : { path: errorPath }),
      ]),
    });
  }

  it('seeded every entry; no filter lists them all', async () => {
    expect(await titles('')).toEqual(ALL);
    expect(ALL).toHaveLength(15);
  });

  describe('text, textarea, email', () => {
    it('equals is exact and case-sensitive; unicode compares by code point (no normalisation)', async () => {
      await expectMatch(kv('where[title][equals]', 'Alpha'), [T.alpha]);
      await expectMatch(kv('where[title][equals]', 'alpha'), [T.alphaLower]);
      await expectMatch(kv('where[title][equals]', 'ALPHA'), []);
      await expectMatch(kv('where[title][equals]', T.zoe), [T.zoe]);
      await expectMatch(kv('where[title][equals]', T.zoeCombining), [T.zoeCombining]);
      await expectMatch(kv('where[title][equals]', T.japanese), [T.japanese]);
      await expectMatch(kv('where[title][equals]', T.party), [T.party]);
      await expectMatch(kv('where[title][equals]', T.quoted), [T.quoted]);
      await expectMatch(kv('where[title][equals]', T.backslash), [T.backslash]);
      await expectMatch(kv('where[title][equals]', T.percent), [T.percent]);
      // A value holding a comma is one value for equals.
      await expectMatch(kv('where[title][equals]', T.comma), [T.comma]);
      await expectMatch(kv('where[email][equals]', 'Upper@Example.COM'), [T.upper]);
      await expectMatch(kv('where[body][equals]', '日本語の本文'), [T.japanese]);
    });

    it('not_equals includes entries whose value is null', async () => {
      await expectMatch(kv('where[title][not_equals]', 'Alpha'), except(T.alpha));
      await expectMatch(
        kv('where[body][not_equals]', '50% off'),
        titlesOf((s) => s.body !== '50% off'),
      );
      expect(titlesOf((s) => s.body !== '50% off')).toContain(T.empty); // a null body counts
      await expectMatch(kv('where[email][not_equals]', 'alpha@example.com'), except(T.alpha));
    });

    it('equals null / not_equals null in JSON where mean exists false / true; "null" in a query string is text', async () => {
      const noBody = titlesOf((s) => s.body === undefined);
      await expectMatch(json({ body: { equals: null } }), noBody);
      await expectMatch(
        json({ body: { not_equals: null } }),
        titlesOf((s) => s.body !== undefined),
      );
      await expectMatch(kv('where[body][exists]', 'false'), noBody);
      await expectMatch(
        kv('where[body][exists]', 'true'),
        titlesOf((s) => s.body !== undefined),
      );
      await expectMatch(kv('where[body][equals]', 'null'), []);
      await expectMatch(kv('where[email][exists]', 'true'), [T.alpha, T.alphaLower, T.upper]);
    });

    it('like is a case-sensitive pattern: % and _ are wildcards, \\ escapes', async () => {
      await expectMatch(kv('where[title][like]', 'alpha'), [T.alphaLower]);
      await expectMatch(kv('where[title][like]', 'Alpha'), [T.alpha]);
      await expectMatch(kv('where[title][like]', '%ALPHA%'), []);
      await expectMatch(kv('where[title][like]', '%lph%'), [T.alpha, T.alphaLower]);
      await expectMatch(kv('where[title][like]', '100%'), [T.percent, T.percentWord]);
      await expectMatch(kv('where[title][like]', '100\\%%'), [T.percent]); // \% is a literal percent
      await expectMatch(kv('where[title][like]', 'snake_case%'), [T.snake, T.snakeX]); // _ any one char
      await expectMatch(kv('where[title][like]', 'snake\\_case%'), [T.snake]);
      await expectMatch(kv('where[title][like]', 'back\\\\slash'), [T.backslash]); // \\ is a backslash
      // _ is one character: the precomposed ë is one, e + combining diaeresis two.
      await expectMatch(kv('where[title][like]', 'Zo_'), [T.zoe]);
      await expectMatch(kv('where[title][like]', 'Zo__'), [T.zoeCombining]);
      await expectMatch(kv('where[title][like]', '%🎉%'), [T.party]);
      await expectMatch(kv('where[title][like]', "it's%"), [T.quoted]);
      await expectMatch(kv('where[body][like]', '%\\_%'), [T.snake]);
      await expectMatch(kv('where[email][like]', '%@example.com'), [T.alpha, T.alphaLower]);
      // A pattern ending in a lone backslash escapes nothing: refused, never a database error.
      await invalid('where.title.like', kv('where[title][like]', 'back\\'), 'invalid_pattern');
    });

    it('contains / search are case-insensitive substrings; %, _ and \\ in the value are literal', async () => {
      for (const op of ['contains', 'search']) {
        await expectMatch(kv(`where[title][${op}]`, 'ALPHA'), [T.alpha, T.alphaLower]);
        await expectMatch(kv(`where[title][${op}]`, '%'), [T.percent]);
        await expectMatch(kv(`where[title][${op}]`, '100%'), [T.percent]);
        await expectMatch(kv(`where[title][${op}]`, '_'), [T.snake]);
        await expectMatch(kv(`where[title][${op}]`, 'snake_case'), [T.snake]);
        await expectMatch(kv(`where[title][${op}]`, '\\'), [T.backslash]);
        await expectMatch(kv(`where[title][${op}]`, 'k\\s'), [T.backslash]);
        await expectMatch(kv(`where[title][${op}]`, "'"), [T.quoted]);
        await expectMatch(kv(`where[title][${op}]`, '"QUOTED"'), [T.quoted]);
        await expectMatch(kv(`where[title][${op}]`, 'upper LOWER'), [T.upper]);
        await expectMatch(kv(`where[title][${op}]`, '🎉'), [T.party]);
        await expectMatch(kv(`where[title][${op}]`, '本語'), [T.japanese]);
        // Code points, not graphemes: 'oë' is in the precomposed title only.
        await expectMatch(kv(`where[title][${op}]`, 'o\u00eb'), [T.zoe]);
        await expectMatch(kv(`where[body][${op}]`, '50%'), [T.percent]);
        await expectMatch(kv(`where[body][${op}]`, 'a_b'), [T.snake]);
        await expectMatch(kv(`where[body][${op}]`, ':\\d'), [T.backslash]);
        await expectMatch(kv(`where[body][${op}]`, 'body'), [T.alpha, T.alphaLower]);
        await expectMatch(kv(`where[email][${op}]`, 'EXAMPLE.com'), [T.alpha, T.alphaLower, T.upper]);
      }
    });

    it('orders text by the collation: ranges on lower-case codes, and the same answer as SQL on mixed titles', async () => {
      await expectMatch(
        kv('where[code][greater_than]', 'c'),
        titlesOf((s) => s.code !== undefined && s.code > 'c'),
      );
      await expectMatch(
        kv('where[code][greater_than_equal]', 'c'),
        titlesOf((s) => s.code !== undefined && s.code >= 'c'),
      );
      await expectMatch(
        kv('where[code][less_than]', 'b'),
        titlesOf((s) => s.code !== undefined && s.code < 'b'),
      );
      await expectMatch(
        kv('where[code][less_than_equal]', 'b'),
        titlesOf((s) => s.code !== undefined && s.code <= 'b'),
      );
      // Mixed case and unicode: whatever the database's collation says, HTTP and SQL agree.
      for (const [op, sqlOp] of [
        ['greater_than', '>'],
        ['less_than_equal', '<='],
      ]) {
        const rows: Array<{ title: string }> = await t.db.query(
          `SELECT title FROM c_things WHERE title ${sqlOp} $1`,
          ['m'],
        );
        await expectMatch(
          kv(`where[title][${op}]`, 'm'),
          rows.map((r) => r.title),
        );
      }
    });

    it('in / not_in split a query-string value on commas; empty in matches nothing, empty not_in everything', async () => {
      await expectMatch(kv('where[title][in]', 'Alpha,alpha,Nobody'), [T.alpha, T.alphaLower]);
      await expectMatch(kv('where[title][not_in]', 'Alpha,alpha'), except(T.alpha, T.alphaLower));
      // Split on the comma: "Hello" and " world" are two values, neither a title.
      await expectMatch(kv('where[title][in]', T.comma), []);
      // A value with a comma: as a JSON array, or as repeated keys.
      await expectMatch(json({ title: { in: [T.comma, 'Alpha'] } }), [T.comma, T.alpha]);
      await expectMatch(`${kv('where[title][in]', T.comma)}&${kv('where[title][in]', 'Alpha')}`, [
        T.comma,
        T.alpha,
      ]);
      await expectMatch(json({ title: { not_in: [T.comma] } }), except(T.comma));
      await expectMatch('where[title][in]=', []);
      await expectMatch('where[title][not_in]=', ALL);
      await expectMatch(json({ title: { in: [] } }), []);
      await expectMatch(json({ title: { not_in: [] } }), ALL);
      // not_in counts NULL as "not in".
      await expectMatch(
        kv('where[body][not_in]', 'First body,aXb'),
        titlesOf((s) => s.body !== 'First body' && s.body !== 'aXb'),
      );
    });
  });

  describe('number', () => {
    it('compares zero, negatives, fractions and 1e15 exactly', async () => {
      await expectMatch(kv('where[views][equals]', '0'), [T.alpha]);
      await expectMatch(kv('where[views][equals]', '-0'), [T.alpha]);
      await expectMatch(kv('where[views][equals]', '1.5'), [T.zoe]);
      await expectMatch(kv('where[views][equals]', '1e15'), [T.zoeCombining]);
      await expectMatch(kv('where[views][equals]', '1000000000000000'), [T.zoeCombining]);
      await expectMatch(kv('where[views][equals]', '-0.25'), [T.percentWord]);
      await expectMatch(kv('where[views][equals]', '.5'), [T.percent]);
      await expectMatch(
        kv('where[views][not_equals]', '0'),
        titlesOf((s) => s.views !== 0),
      );
      const cmp: Array<[string, string, (v: number) => boolean]> = [
        ['greater_than', '0', (v) => v > 0],
        ['greater_than_equal', '0', (v) => v >= 0],
        ['less_than', '0', (v) => v < 0],
        ['less_than_equal', '0.5', (v) => v <= 0.5],
        ['greater_than', '999999999999999', (v) => v > 999999999999999],
        ['less_than', '-5', (v) => v < -5],
        ['less_than_equal', '-5', (v) => v <= -5],
      ];
      for (const [op, value, pred] of cmp) {
        await expectMatch(
          kv(`where[views][${op}]`, value),
          titlesOf((s) => s.views !== undefined && pred(s.views)),
        );
      }
    });

    it('in / not_in, empty lists, exists', async () => {
      await expectMatch(kv('where[views][in]', '0,2,100'), [T.alpha, T.japanese, T.party]);
      await expectMatch(
        kv('where[views][not_in]', '0,2'),
        titlesOf((s) => s.views !== 0 && s.views !== 2),
      );
      await expectMatch(json({ views: { in: [1.5, -5] } }), [T.zoe, T.alphaLower]);
      await expectMatch('where[views][in]=', []);
      await expectMatch('where[views][not_in]=', ALL);
      await expectMatch(
        kv('where[views][exists]', 'true'),
        titlesOf((s) => isSet(s.views)),
      );
      await expectMatch(
        kv('where[views][exists]', 'false'),
        titlesOf((s) => !isSet(s.views)),
      );
      await expectMatch(
        json({ views: { equals: null } }),
        titlesOf((s) => !isSet(s.views)),
      );
    });
  });

  describe('date', () => {
    it('takes YYYY-MM-DD as midnight UTC and date-times with offsets as instants', async () => {
      const midnight = Date.parse('2024-01-01T00:00:00Z');
      const at = (pred: (ms: number) => boolean) =>
        titlesOf((s) => {
          const ms = instant(s);
          return ms !== null && pred(ms);
        });
      // 2024-01-01T09:00:00+09:00 is midnight UTC too.
      await expectMatch(kv('where[publishedAt][equals]', '2024-01-01'), [T.alpha, T.japanese]);
      await expectMatch(kv('where[publishedAt][equals]', '2024-01-01T01:00:00+01:00'), [T.alpha, T.japanese]);
      await expectMatch(kv('where[publishedAt][equals]', '2024-01-01T23:30:00-02:00'), [T.alphaLower]);
      await expectMatch(kv('where[publishedAt][equals]', '2024-01-02T01:30:00.000Z'), [T.alphaLower]);
      await expectMatch(kv('where[publishedAt][equals]', '2023-12-31T23:59:59.999Z'), [T.zoeCombining]);
      await expectMatch(
        kv('where[publishedAt][not_equals]', '2024-01-01'),
        titlesOf((s) => instant(s) !== midnight),
      );
      await expectMatch(
        kv('where[publishedAt][greater_than]', '2024-01-01'),
        at((ms) => ms > midnight),
      );
      await expectMatch(
        kv('where[publishedAt][greater_than_equal]', '2024-01-01'),
        at((ms) => ms >= midnight),
      );
      await expectMatch(kv('where[publishedAt][less_than]', '2024-01-01T00:00:00+00:00'), [T.zoeCombining]);
      await expectMatch(kv('where[publishedAt][less_than_equal]', '2024-01-01T01:00:00+01:00'), [
        T.alpha,
        T.japanese,
        T.zoeCombining,
      ]);
      await expectMatch(kv('where[publishedAt][greater_than]', '2024-01-01T23:30:00-02:00'), []);
      await expectMatch(kv('where[publishedAt][greater_than_equal]', '2024-01-01T23:30:00-02:00'), [
        T.alphaLower,
      ]);
      await expectMatch(kv('where[publishedAt][greater_than]', '2024-01-02T00:00:00+00:00'), [T.alphaLower]);
      await expectMatch(kv('where[publishedAt][in]', '2024-01-01,2024-01-02T00:00:00Z'), [
        T.alpha,
        T.japanese,
        T.zoe,
      ]);
      await expectMatch(
        kv('where[publishedAt][not_in]', '2024-01-01'),
        titlesOf((s) => instant(s) !== midnight),
      );
      await expectMatch(
        kv('where[publishedAt][exists]', 'false'),
        titlesOf((s) => s.publishedAt === undefined),
      );
    });

    it('refuses dates without a zone, impossible dates and unparseable text', async () => {
      await invalid(
        'where.publishedAt.equals',
        kv('where[publishedAt][equals]', '2024-01-01T10:00:00'),
        'isDate',
      );
      await invalid('where.publishedAt.equals', kv('where[publishedAt][equals]', '2024-02-30'), 'isDate');
      await invalid(
        'where.publishedAt.greater_than',
        kv('where[publishedAt][greater_than]', 'yesterday'),
        'isDate',
      );
      await invalid('where.publishedAt.in.1', kv('where[publishedAt][in]', '2024-01-01,nope'), 'isDate');
    });

    it('filters the system timestamps and id', async () => {
      await expectMatch(kv('where[createdAt][greater_than]', '2000-01-01'), ALL);
      await expectMatch(kv('where[updatedAt][less_than]', '2000-01-01T00:00:00Z'), []);
      await expectMatch(kv('where[createdAt][exists]', 'true'), ALL);
      const a = ids.get(T.alpha) as string;
      const z = ids.get(T.zoe) as string;
      await expectMatch(kv('where[id][equals]', a.toUpperCase()), [T.alpha]);
      await expectMatch(kv('where[id][in]', `${a},${z}`), [T.alpha, T.zoe]);
      await expectMatch(kv('where[id][not_equals]', a), except(T.alpha));
      await invalid('where.id.equals', kv('where[id][equals]', 'not-a-uuid'), 'isUUID');
    });
  });

  describe('checkbox, select, relationship', () => {
    it('checkbox: equals, not_equals (nulls included), exists', async () => {
      await expectMatch(
        'where[featured][equals]=true',
        titlesOf((s) => s.featured === true),
      );
      await expectMatch(
        'where[featured][equals]=false',
        titlesOf((s) => s.featured === false),
      );
      await expectMatch(
        'where[featured][not_equals]=true',
        titlesOf((s) => s.featured !== true),
      );
      await expectMatch(
        'where[featured][exists]=false',
        titlesOf((s) => s.featured === undefined),
      );
      await expectMatch(
        json({ featured: { equals: false } }),
        titlesOf((s) => s.featured === false),
      );
      await invalid('where.featured.equals', 'where[featured][equals]=yes', 'isBoolean');
      await invalid(
        'where.featured.greater_than',
        'where[featured][greater_than]=true',
        'operator_not_allowed',
      );
      await invalid('where.featured.in', 'where[featured][in]=true', 'operator_not_allowed');
    });

    it('select: equals, not_equals, in, not_in, exists; values outside the options are refused', async () => {
      await expectMatch(
        'where[kind][equals]=news',
        titlesOf((s) => s.kind === 'news'),
      );
      await expectMatch(
        'where[kind][not_equals]=news',
        titlesOf((s) => s.kind !== 'news'),
      );
      await expectMatch(
        'where[kind][in]=blog,guide',
        titlesOf((s) => s.kind === 'blog' || s.kind === 'guide'),
      );
      await expectMatch(
        'where[kind][not_in]=news,blog',
        titlesOf((s) => s.kind !== 'news' && s.kind !== 'blog'),
      );
      await expectMatch(
        'where[kind][exists]=false',
        titlesOf((s) => s.kind === undefined),
      );
      await invalid('where.kind.equals', 'where[kind][equals]=other', 'isIn');
      await invalid('where.kind.in.1', 'where[kind][in]=news,other', 'isIn');
      await invalid('where.kind.like', 'where[kind][like]=n%25', 'operator_not_allowed');
      await invalid('where.kind.greater_than', 'where[kind][greater_than]=news', 'operator_not_allowed');
    });

    it('relationship: equals, not_equals, in, not_in, exists', async () => {
      const { ann, bob, cy } = authors;
      await expectMatch(
        `where[author][equals]=${ann}`,
        titlesOf((s) => s.author === 'ann'),
      );
      await expectMatch(
        `where[author][not_equals]=${ann}`,
        titlesOf((s) => s.author !== 'ann'),
      );
      await expectMatch(
        `where[author][in]=${ann},${cy}`,
        titlesOf((s) => s.author === 'ann' || s.author === 'cy'),
      );
      await expectMatch(
        `where[author][not_in]=${bob}`,
        titlesOf((s) => s.author !== 'bob'),
      );
      await expectMatch(
        'where[author][exists]=true',
        titlesOf((s) => s.author !== undefined),
      );
      await expectMatch(
        'where[author][exists]=false',
        titlesOf((s) => s.author === undefined),
      );
      await invalid('where.author.equals', 'where[author][equals]=ann', 'isUUID');
      await invalid('where.author.contains', `where[author][contains]=${ann}`, 'operator_not_allowed');
    });
  });

  describe('hasMany and documents', () => {
    it('select hasMany (text[]): equals "has the value", in "has any", negations include empty, exists', async () => {
      const has = (...v: string[]) => titlesOf((s) => (s.tags ?? []).some((x) => v.includes(x)));
      await expectMatch('where[tags][equals]=a', has('a'));
      await expectMatch('where[tags][equals]=a', [T.alpha, T.party]);
      await expectMatch('where[tags][not_equals]=a', except(...has('a')));
      await expectMatch('where[tags][in]=c,d', has('c', 'd'));
      await expectMatch('where[tags][not_in]=a,b', except(...has('a', 'b')));
      await expectMatch('where[tags][in]=', []);
      await expectMatch('where[tags][not_in]=', ALL);
      // An option value holding a comma: JSON array (a comma list would split it and fail isIn).
      await expectMatch(json({ tags: { in: ['x,y'] } }), [T.comma]);
      await expectMatch(json({ tags: { equals: 'x,y' } }), [T.comma]);
      await invalid('where.tags.in.0', 'where[tags][in]=x,y', 'isIn');
      // [] is stored as "no values": exists false like an absent field.
      await expectMatch('where[tags][exists]=true', has('a', 'b', 'c', 'd', 'x,y'));
      await expectMatch('where[tags][exists]=false', except(...has('a', 'b', 'c', 'd', 'x,y')));
      await expectMatch(json({ tags: { equals: null } }), except(...has('a', 'b', 'c', 'd', 'x,y')));
      await invalid('where.tags.like', 'where[tags][like]=a', 'operator_not_allowed');
    });

    it('relationship hasMany (join table): equals "has", in "has any", not_in / not_equals / exists', async () => {
      const { ann, bob, cy } = authors;
      const has = (...a: AuthorKey[]) => titlesOf((s) => (s.coauthors ?? []).some((x) => a.includes(x)));
      await expectMatch(`where[coauthors][equals]=${bob}`, [T.alpha, T.alphaLower]);
      await expectMatch(`where[coauthors][equals]=${bob}`, has('bob'));
      await expectMatch(`where[coauthors][not_equals]=${bob}`, except(...has('bob')));
      await expectMatch(`where[coauthors][in]=${cy},${ann}`, has('cy', 'ann'));
      await expectMatch(`where[coauthors][not_in]=${ann}`, except(...has('ann')));
      await expectMatch('where[coauthors][in]=', []);
      await expectMatch('where[coauthors][not_in]=', ALL);
      await expectMatch('where[coauthors][exists]=true', has('ann', 'bob', 'cy'));
      await expectMatch('where[coauthors][exists]=false', except(...has('ann', 'bob', 'cy')));
      await expectMatch(json({ coauthors: { not_equals: null } }), has('ann', 'bob', 'cy'));
    });

    it('json and richText: exists, or its null form, only', async () => {
      // meta: [] is a value (a JSON array), not null.
      await expectMatch('where[meta][exists]=true', [T.alpha, T.alphaLower, T.party]);
      await expectMatch('where[meta][exists]=false', except(T.alpha, T.alphaLower, T.party));
      await expectMatch('where[content][exists]=true', [T.alpha, T.upper]);
      await expectMatch('where[content][exists]=false', except(T.alpha, T.upper));
      // equals: null / not_equals: null are exists false / true here too; no other value is.
      await expectMatch(json({ content: { equals: null } }), except(T.alpha, T.upper));
      await expectMatch(json({ meta: { not_equals: null } }), [T.alpha, T.alphaLower, T.party]);
      await invalid('where.meta.equals', json({ meta: { equals: [] } }), 'operator_not_allowed');
      await invalid('where.meta.equals', 'where[meta][equals]=1', 'operator_not_allowed');
      await invalid('where.content.contains', 'where[content][contains]=Hello', 'operator_not_allowed');
    });
  });

  describe('and / or', () => {
    it('nests with index syntax', async () => {
      await expectMatch(
        [
          'where[or][0][kind][equals]=news',
          'where[or][1][and][0][views][greater_than]=1',
          'where[or][1][and][1][featured][equals]=true',
        ].join('&'),
        titlesOf((s) => s.kind === 'news' || ((s.views ?? -Infinity) > 1 && s.featured === true)),
      );
      // Three levels: and > or > and.
      await expectMatch(
        [
          'where[and][0][or][0][and][0][views][greater_than]=0',
          'where[and][0][or][0][and][1][views][less_than]=2',
          'where[and][0][or][1][title][equals]=Empty',
          kv('where[and][1][title][not_equals]', T.zoe),
        ].join('&'),
        [T.percent, T.empty],
      );
      // Two operators on one field, and two fields side by side, are ANDed.
      await expectMatch('where[views][greater_than]=0&where[views][less_than]=2', [T.zoe, T.percent]);
      await expectMatch('where[kind][equals]=blog&where[featured][equals]=true', [T.party]);
    });

    it('nests with URL-encoded JSON, three levels deep; empty and matches all, empty or nothing', async () => {
      const where = {
        and: [
          {
            or: [
              { kind: { equals: 'blog' } },
              { and: [{ views: { less_than: 0 } }, { title: { like: '100%' } }] },
            ],
          },
          { title: { not_equals: 'alpha' } },
        ],
      };
      await expectMatch(json(where), [T.party, T.percentWord]);
      await expectMatch(
        json({
          or: [
            { and: [{ or: [{ code: { equals: 'aa' } }, { code: { equals: 'b' } }] }] },
            { tags: { equals: 'd' } },
          ],
        }),
        [T.alpha, T.zoe, T.japanese],
      );
      await expectMatch(json({ and: [] }), ALL);
      await expectMatch(json({ or: [] }), []);
      await expectMatch(json({}), ALL);
    });
  });

  describe('refusals', () => {
    it('answers 400 VALIDATION_ERROR naming the path for unknown fields, operators, types and values', async () => {
      await invalid('where.nope', 'where[nope][equals]=1', 'unknown_field');
      await invalid('where.title.nope', 'where[title][nope]=1', 'unknown_operator');
      await invalid('where.views.like', 'where[views][like]=1', 'operator_not_allowed');
      await invalid('where.views.contains', 'where[views][contains]=1', 'operator_not_allowed');
      await invalid('where.views.equals', 'where[views][equals]=abc', 'isNumber');
      await invalid('where.views.equals', 'where[views][equals]=NaN', 'isNumber');
      await invalid('where.views.equals', 'where[views][equals]=Infinity', 'isNumber');
      await invalid('where.views.in.1', 'where[views][in]=1,x', 'isNumber');
      await invalid('where.or.1.views.equals', 'where[or][0][title][equals]=a&where[or][1][views][equals]=x');
      await invalid('where.and.0.or.0.nope', 'where[and][0][or][0][nope][equals]=1', 'unknown_field');
      await invalid('where.title.equals', json({ title: { equals: 5 } }), 'isString');
      await invalid('where.views.exists', 'where[views][exists]=maybe', 'isBoolean');
      await invalid('where.title', 'where[title]=Alpha', 'isObject');
      await invalid('where', kv('where', '{"title":'), 'isJson');
      await invalid('where', kv('where', '[1,2]'), 'isObject');
      await invalid('where.and.x', json({ and: { x: 1 } }), 'isArray');
      await invalid('where.title.equals', json({ title: { equals: [1] } }), 'isSingle');
      // The parameter itself
      await invalid('foo', 'foo=1', 'unknown_parameter');
      // A collection without drafts has no status
      await invalid('status', 'status=all', 'not_allowed');
      // Several problems are reported together.
      const res = await get(`${LIST}?where[nope][equals]=1&where[views][equals]=x&sort=nope&limit=0`);
      expect(res.status).toBe(400);
      expect(res.body.error.data.errors.map((e: { path: string }) => e.path).sort()).toEqual(
        ['limit', 'sort', 'where.nope', 'where.views.equals'].sort(),
      );
    });
  });

  describe('sort and paging', () => {
    it('sorts by several fields with - for descending; NULLs last ascending, first descending; id breaks ties', async () => {
      const res = await get(`${LIST}?sort=kind,-views&limit=500`);
      expect(res.status).toBe(200);
      const order = ['blog', 'guide', 'news'];
      const rank = (k: string | undefined) => (k === undefined ? order.length : order.indexOf(k));
      const expected = [...SEEDS]
        .sort((a, b) => {
          if (rank(a.kind) !== rank(b.kind)) {
            return rank(a.kind) - rank(b.kind);
          }
          // views descending, NULLs first
          const av = a.views ?? Infinity;
          const bv = b.views ?? Infinity;
          if (av !== bv) {
            return bv - av;
          }
          // id in the direction of the last key: descending
          const ai = ids.get(a.title) as string;
          const bi = ids.get(b.title) as string;
          return ai < bi ? 1 : ai > bi ? -1 : 0;
        })
        .map((s) => s.title);
      expect(res.body.items.map((i: { title: string }) => i.title)).toEqual(expected);

      const byCode = await get(`${LIST}?sort=-code&limit=500&select=code`);
      const codes = byCode.body.items.map((i: { code: string | null }) => i.code);
      const withCode = SEEDS.filter((s) => s.code !== undefined)
        .map((s) => s.code as string)
        .sort()
        .reverse();
      expect(codes).toEqual([...SEEDS.filter((s) => s.code === undefined).map(() => null), ...withCode]);

      // Default: newest first (createdAt descending).
      const dflt = await get(`${LIST}?limit=500`);
      expect(dflt.body.items.map((i: { title: string }) => i.title)).toEqual(
        SEEDS.map((s) => s.title).reverse(),
      );
      // Same instant (Alpha and the Japanese title): the second key decides.
      const byDate = await get(`${LIST}?sort=publishedAt,-views&where[publishedAt][exists]=true`);
      expect(byDate.body.items.map((i: { title: string }) => i.title)).toEqual([
        T.zoeCombining,
        T.japanese,
        T.alpha,
        T.zoe,
        T.alphaLower,
      ]);
    });

    it('refuses unknown, unsortable and repeated sort fields', async () => {
      await invalid('sort', 'sort=nope', 'unknown_field');
      await invalid('sort', 'sort=meta', 'not_sortable');
      await invalid('sort', 'sort=content', 'not_sortable');
      await invalid('sort', 'sort=tags', 'not_sortable');
      await invalid('sort', 'sort=coauthors', 'not_sortable');
      await invalid('sort', 'sort=author', 'not_sortable');
      await invalid('sort', 'sort=views,-views', 'duplicate');
      await invalid('sort', 'sort=views,', 'empty');
      await invalid('sort', 'sort=-', 'empty');
    });

    it('walks every page with ties without overlap or gaps', async () => {
      for (const sort of ['kind', '-kind', 'featured,-kind', 'kind,featured', '-createdAt', 'views']) {
        const seen: string[] = [];
        let page = 1;
        for (;;) {
          const res = await get(`${LIST}?sort=${sort}&limit=3&page=${page}`);
          expect(res.status).toBe(200);
          seen.push(...res.body.items.map((i: { id: string }) => i.id));
          expect(res.body.meta).toMatchObject({ total: SEEDS.length, page, limit: 3, totalPages: 5 });
          if (!res.body.meta.hasNext) {
            break;
          }
          page++;
        }
        expect({ sort, pages: page }).toEqual({ sort, pages: 5 });
        expect(new Set(seen).size).toBe(seen.length);
        expect([...seen].sort()).toEqual([...ids.values()].sort());
      }
    });

    it('answers consistent meta for first, middle, last and past-the-end pages', async () => {
      const page = async (qs: string) => {
        const res = await get(`${LIST}?${qs}`);
        expect({ qs, status: res.status }).toEqual({ qs, status: 200 });
        return res.body as { items: unknown[]; meta: Record<string, unknown> };
      };
      const first = await page('limit=4');
      expect(first.items).toHaveLength(4);
      expect(first.meta).toEqual({
        total: 15,
        page: 1,
        limit: 4,
        totalPages: 4,
        hasNext: true,
        hasPrev: false,
      });
      const middle = await page('limit=4&page=2');
      expect(middle.items).toHaveLength(4);
      expect(middle.meta).toEqual({
        total: 15,
        page: 2,
        limit: 4,
        totalPages: 4,
        hasNext: true,
        hasPrev: true,
      });
      const last = await page('limit=4&page=4');
      expect(last.items).toHaveLength(3);
      expect(last.meta).toEqual({
        total: 15,
        page: 4,
        limit: 4,
        totalPages: 4,
        hasNext: false,
        hasPrev: true,
      });
      const past = await page('limit=4&page=9');
      expect(past.items).toEqual([]);
      expect(past.meta).toEqual({
        total: 15,
        page: 9,
        limit: 4,
        totalPages: 4,
        hasNext: false,
        hasPrev: true,
      });
      const dflt = await page('');
      expect(dflt.meta).toEqual({
        total: 15,
        page: 1,
        limit: 10,
        totalPages: 2,
        hasNext: true,
        hasPrev: false,
      });
      const clamped = await page('limit=1000');
      expect(clamped.meta).toMatchObject({ limit: 500, totalPages: 1, hasNext: false });
      expect(clamped.items).toHaveLength(15);
      const none = await page('where[title][equals]=nobody');
      expect(none.meta).toEqual({
        total: 0,
        page: 1,
        limit: 10,
        totalPages: 0,
        hasNext: false,
        hasPrev: false,
      });
      const filtered = await page('where[views][exists]=true&limit=3&page=3');
      expect(filtered.meta).toEqual({
        total: 8,
        page: 3,
        limit: 3,
        totalPages: 3,
        hasNext: false,
        hasPrev: true,
      });
      expect(filtered.items).toHaveLength(2);

      await invalid('limit', 'limit=0', 'min');
      await invalid('limit', 'limit=-1');
      await invalid('limit', 'limit=1.5');
      await invalid('limit', 'limit=abc');
      await invalid('page', 'page=0', 'min');
      await invalid('page', 'page=abc', 'isInt');
      await invalid('page', 'page=');
      await invalid('page', 'page=1&page=2');
    });
  });

  describe('select, count, richTextFormat, depth', () => {
    it('selects with a comma list or a JSON object; id and timestamps always come back', async () => {
      const a = ids.get(T.alpha) as string;
      const one = `where[id][equals]=${a}`;
      const comma = await get(`${LIST}?${one}&select=title,views`);
      expect(comma.status).toBe(200);
      expect(comma.body.items[0]).toEqual({
        id: a,
        title: T.alpha,
        views: 0,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const obj = await get(
        `${LIST}?${one}&${kv('select', JSON.stringify({ title: true, coauthors: true }))}`,
      );
      expect(obj.status).toBe(200);
      expect(obj.body.items[0]).toEqual({
        id: a,
        title: T.alpha,
        coauthors: [authors.ann, authors.bob],
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const spaced = await get(`${LIST}?${one}&${kv('select', ' tags , meta ')}`);
      expect(Object.keys(spaced.body.items[0]).sort()).toEqual([
        'createdAt',
        'id',
        'meta',
        'tags',
        'updatedAt',
      ]);
      const onlyId = await get(`${LIST}?${one}&select=id`);
      expect(Object.keys(onlyId.body.items[0]).sort()).toEqual(['createdAt', 'id', 'updatedAt']);
      // A read by id takes select too.
      const read = await get(`${LIST}/${a}?select=email`);
      expect(Object.keys(read.body).sort()).toEqual(['createdAt', 'email', 'id', 'updatedAt']);

      await invalid('select', 'select=', 'empty');
      await invalid('select', 'select=title,', 'empty');
      await invalid('select', 'select=nope', 'unknown_field');
      await invalid('select', kv('select', '{}'), 'empty');
      await invalid('select.title', kv('select', '{"title":false}'), 'isIn');
      await invalid('select', kv('select', '{"title":'), 'isJson');
    });

    it('counts with the same where as the list', async () => {
      for (const qs of [
        '',
        'where[views][greater_than]=0',
        'where[tags][in]=a,c',
        kv('where[title][contains]', '%'),
        json({ or: [{ kind: { equals: 'news' } }, { featured: { equals: true } }] }),
      ]) {
        const list = await get(`${LIST}?${qs}`);
        const count = await get(`${COUNT}?${qs}`);
        expect({ qs, count: count.body }).toEqual({ qs, count: { total: list.body.meta.total } });
      }
      const res = await get(`${COUNT}?limit=5`);
      expect(res.status).toBe(400);
      expect(res.body.error.data.errors[0]).toMatchObject({ path: 'limit', code: 'unknown_parameter' });
      const bad = await get(`${COUNT}?where[nope][equals]=1`);
      expect(bad.status).toBe(400);
      expect(bad.body.error.data.errors[0]).toMatchObject({ path: 'where.nope' });
    });

    it('renders rich text as json (default), sanitised html, or both', async () => {
      const q = 'where[content][exists]=true&sort=code&select=content';
      const asJson = await get(`${LIST}?${q}`);
      expect(asJson.body.items.map((i: { content: unknown }) => i.content)).toEqual([
        SEEDS[0].content,
        SEEDS[14].content,
      ]);
      const explicitJson = await get(`${LIST}?${q}&richTextFormat=json`);
      expect(explicitJson.body.items).toEqual(asJson.body.items);
      const html = await get(`${LIST}?${q}&richTextFormat=html`);
      expect(html.status).toBe(200);
      const [hello, links] = html.body.items.map((i: { content: string }) => i.content);
      expect(hello).toBe('<p><strong>Hello</strong></p>');
      // The javascript: link is not an <a>; its text stays. The https link is.
      expect(links).not.toMatch(/javascript/i);
      expect(links).toBe('<p>click and <a href="https://example.com/a?b=1">safe</a></p>');
      const both = await get(`${LIST}?${q}&richTextFormat=both`);
      expect(both.body.items[1].content).toEqual({ json: SEEDS[14].content, html: links });
      // Entries without rich text stay null in every format.
      const nulls = await get(
        `${LIST}?where[content][exists]=false&richTextFormat=both&select=content&limit=500`,
      );
      expect(new Set(nulls.body.items.map((i: { content: unknown }) => i.content))).toEqual(new Set([null]));
      await invalid('richTextFormat', 'richTextFormat=xml', 'isIn');
      await invalid('richTextFormat', 'richTextFormat=HTML', 'isIn');
    });

    it('populates relationships by depth; 0 leaves ids; more than 5 is refused', async () => {
      const a = ids.get(T.alpha) as string;
      const zero = await get(`${LIST}?where[id][equals]=${a}&depth=0`);
      expect(zero.body.items[0]).toMatchObject({
        author: authors.ann,
        coauthors: [authors.ann, authors.bob],
      });
      const dflt = await get(`${LIST}?where[id][equals]=${a}`);
      expect(dflt.body.items[0].author).toBe(authors.ann);
      const one = await get(`${LIST}?where[id][equals]=${a}&depth=1`);
      expect(one.body.items[0].author).toMatchObject({ id: authors.ann, name: 'Ann' });
      expect(one.body.items[0].coauthors.map((c: { name: string }) => c.name)).toEqual(['Ann', 'Bob']);
      const five = await get(`${LIST}?where[id][equals]=${a}&depth=5`);
      expect(five.status).toBe(200);
      await invalid('depth', 'depth=6', 'max');
      await invalid('depth', 'depth=-1', 'isInt');
      await invalid('depth', 'depth=one', 'isInt');
    });
  });
});
