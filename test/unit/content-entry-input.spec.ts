import type { FieldConfig } from '../../src/config/config.types';
import {
  cleanEntryInput,
  ENTRY_INPUT_LIMITS,
  type EntryInputOptions,
  type EntryInputResult,
  type EntryWrite,
} from '../../src/modules/content/entries/entry-input';

const f = (name: string, type: FieldConfig['type'], more: Partial<FieldConfig> = {}): FieldConfig => ({
  name,
  type,
  ...more,
});

const A = '3f1c6a52-2f0e-4a7e-9d8e-0b7c1d2e3f40';
const B = '0b7c1d2e-3f40-4a7e-9d8e-3f1c6a522f0e';
const C = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

const DOC = { root: { type: 'root', children: [{ type: 'paragraph', children: [] }] } };

/** A rich-text check standing in for the Lexical one: needs `root`. */
const richText = (value: unknown): string | null =>
  typeof value === 'object' && value !== null && 'root' in value ? null : 'not a Lexical document: no root';

const GROUPS: Record<string, FieldConfig[]> = {
  seo: [f('title', 'text', { required: true }), f('description', 'textarea')],
  link: [
    f('label', 'text'),
    f('target', 'relationship', { relationTo: 'pages' }),
    f('targets', 'relationship', { relationTo: 'pages', hasMany: true }),
    f('file', 'upload', { relationTo: 'media' }),
  ],
  block: [
    f('caption', 'text', { required: true }),
    f('when', 'date'),
    f('tags', 'select', { hasMany: true, options: ['a', 'b'] }),
    f('data', 'json'),
    f('body', 'richText'),
    f('weight', 'number', { min: 0, max: 10, defaultValue: 5 }),
    f('kind', 'select', { options: ['x', 'y'], defaultValue: 'x' }),
    f('link', 'component', { fieldGroup: 'link' }),
  ],
  // A group that holds itself: nesting is only bounded by the depth rule.
  nest: [f('name', 'text'), f('child', 'component', { fieldGroup: 'nest' })],
  broken: [f('inner', 'component', { fieldGroup: 'nope' })],
};

const FIELDS: FieldConfig[] = [
  f('title', 'text', { required: true }),
  f('summary', 'textarea'),
  f('contact', 'email'),
  f('views', 'number', { min: 0, max: 1000 }),
  f('score', 'number'),
  f('featured', 'checkbox'),
  f('publishedAt', 'date'),
  f('category', 'select', { options: ['news', { label: 'How-to', value: 'howto' }] }),
  f('tags', 'select', { hasMany: true, options: ['a', 'b', 'c'] }),
  f('meta', 'json'),
  f('body', 'richText'),
  f('author', 'relationship', { relationTo: 'authors' }),
  f('related', 'relationship', { relationTo: 'posts', hasMany: true }),
  f('cover', 'upload', { relationTo: 'media' }),
  f('seo', 'component', { fieldGroup: 'seo' }),
  f('blocks', 'component', { fieldGroup: 'block', repeatable: true }),
  f('nest', 'component', { fieldGroup: 'nest' }),
];

function options(more: Partial<EntryInputOptions> = {}): EntryInputOptions {
  return {
    fields: FIELDS,
    drafts: false,
    mode: 'update',
    fieldGroup: (slug) => GROUPS[slug],
    richText,
    ...more,
  };
}

/** Cleans and expects success. */
function ok(body: unknown, more: Partial<EntryInputOptions> = {}): EntryWrite {
  const r = cleanEntryInput(body, options(more));
  if (!r.ok) {
    throw new Error(`expected success, got ${JSON.stringify(r.issues)}`);
  }
  return r.value;
}

/** Cleans and answers [path, code] of every issue (every issue has a message). */
function bad(body: unknown, more: Partial<EntryInputOptions> = {}): string[][] {
  const r: EntryInputResult = cleanEntryInput(body, options(more));
  if (r.ok) {
    throw new Error(`expected issues, got ${JSON.stringify(r.value)}`);
  }
  for (const i of r.issues) {
    expect(typeof i.message).toBe('string');
    expect(i.message.length).toBeGreaterThan(0);
  }
  return r.issues.map((i) => [i.path, i.code]);
}

const col = (field: string, value: unknown, more: Partial<EntryInputOptions> = {}): unknown =>
  ok({ [field]: value }, more).columns[field];

describe('content entries: cleanEntryInput', () => {
  describe('the body', () => {
    it.each([null, undefined, 'x', 3, true, [], [{}], new Date(), new Map()])(
      'refuses %p as a body',
      (body) => {
        expect(bad(body)).toEqual([['', 'isObject']]);
      },
    );

    it('accepts an empty body in update mode and a null-prototype object', () => {
      expect(ok({})).toEqual({ columns: {}, joins: {}, references: [] });
      const bare = Object.create(null) as Record<string, unknown>;
      bare.score = 2;
      expect(ok(bare).columns).toEqual({ score: 2 });
    });

    it('answers only the keys present', () => {
      const w = ok({ summary: 'x', related: [A] });
      expect(Object.keys(w.columns)).toEqual(['summary']);
      expect(Object.keys(w.joins)).toEqual(['related']);
      expect('status' in w).toBe(false);
    });

    it('refuses unknown keys and system keys, and treats undefined values as absent', () => {
      expect(
        bad({ nope: 1, id: A, createdAt: 'x', updatedAt: 'y', Title: 'x', created_at: 'z', title: 'ok' }),
      ).toEqual([
        ['nope', 'unknown_field'],
        ['id', 'readonly'],
        ['createdAt', 'readonly'],
        ['updatedAt', 'readonly'],
        ['Title', 'unknown_field'],
        ['created_at', 'unknown_field'],
      ]);
      const r = cleanEntryInput({ id: A, createdAt: 'x' }, options());
      expect(r.ok || r.issues.map((i) => i.message)).toEqual([
        'id is set by the service',
        'createdAt is set by the service',
      ]);
      expect(ok({ title: undefined, nope: undefined, id: undefined })).toEqual({
        columns: {},
        joins: {},
        references: [],
      });
    });

    it('never reads inherited names: prototype keys are unknown fields', () => {
      const body = JSON.parse(
        '{"__proto__": {"title": "x"}, "constructor": 1, "toString": "x", "hasOwnProperty": 2}',
      ) as unknown;
      expect(bad(body)).toEqual([
        ['__proto__', 'unknown_field'],
        ['constructor', 'unknown_field'],
        ['toString', 'unknown_field'],
        ['hasOwnProperty', 'unknown_field'],
      ]);
      // Nothing leaked onto Object.prototype.
      expect(({} as Record<string, unknown>).title).toBeUndefined();
    });
  });

  describe('status', () => {
    it('is accepted on drafts collections only, as draft or published', () => {
      expect(ok({ status: 'draft' }, { drafts: true }).status).toBe('draft');
      expect(ok({ status: 'published', title: 'T' }, { drafts: true }).status).toBe('published');
      expect(ok({ status: 'draft' }, { drafts: true }).columns).toEqual({});
      expect(bad({ status: 'archived' }, { drafts: true })).toEqual([['status', 'isIn']]);
      expect(bad({ status: null }, { drafts: true })).toEqual([['status', 'isIn']]);
      expect(bad({ status: 'Published' }, { drafts: true })).toEqual([['status', 'isIn']]);
      expect(bad({ status: 'draft' })).toEqual([['status', 'unknown_field']]);
      expect(bad({ status: 'draft' }, { mode: 'create', drafts: false, fields: [] })).toEqual([
        ['status', 'unknown_field'],
      ]);
    });
  });

  describe('text and textarea', () => {
    it('keep strings as given; "" and null clear', () => {
      expect(col('title', '  Hello  ')).toBe('  Hello  ');
      expect(col('title', '   ')).toBe('   ');
      expect(col('summary', 'a\nb')).toBe('a\nb');
      expect(col('summary', '')).toBeNull();
      expect(col('summary', null)).toBeNull();
      expect(col('title', 'emoji \u{1F600}')).toBe('emoji \u{1F600}');
    });

    it('enforce the length limits', () => {
      expect(col('title', 'x'.repeat(10_000))).toHaveLength(10_000);
      expect(bad({ title: 'x'.repeat(10_001) })).toEqual([['title', 'maxLength']]);
      expect(col('summary', 'x'.repeat(1_000_000))).toHaveLength(1_000_000);
      expect(bad({ summary: 'x'.repeat(1_000_001) })).toEqual([['summary', 'maxLength']]);
    });

    it('refuse non-strings, NUL and unpaired surrogates', () => {
      expect(bad({ title: 5, summary: ['x'] })).toEqual([
        ['title', 'isString'],
        ['summary', 'isString'],
      ]);
      expect(bad({ title: 'a\u0000b' })).toEqual([['title', 'isString']]);
      expect(bad({ title: 'a\ud800b' })).toEqual([['title', 'isString']]);
      expect(bad({ summary: '\udc00' })).toEqual([['summary', 'isString']]);
    });
  });

  describe('email', () => {
    it('trims and checks the address', () => {
      expect(col('contact', '  a@example.com ')).toBe('a@example.com');
      expect(col('contact', '')).toBeNull();
      expect(col('contact', '   ')).toBeNull();
      expect(col('contact', null)).toBeNull();
      expect(bad({ contact: 'not an email' })).toEqual([['contact', 'isEmail']]);
      expect(bad({ contact: 7 })).toEqual([['contact', 'isString']]);
      expect(bad({ contact: `${'a'.repeat(315)}@x.com` })).toEqual([['contact', 'maxLength']]);
      expect(bad({ contact: 'a\u0000@example.com' })).toEqual([['contact', 'isString']]);
    });
  });

  describe('number', () => {
    it('takes finite JSON numbers only', () => {
      expect(col('score', 1.5)).toBe(1.5);
      expect(col('score', -3)).toBe(-3);
      expect(Object.is(col('score', -0), 0)).toBe(true);
      expect(col('score', 1e300)).toBe(1e300);
      expect(col('score', null)).toBeNull();
      for (const v of ['5', '', NaN, Infinity, -Infinity, true, [1], { n: 1 }]) {
        expect(bad({ score: v })).toEqual([['score', 'isNumber']]);
      }
    });

    it('checks min and max when the field has them', () => {
      expect(col('views', 0)).toBe(0);
      expect(col('views', 1000)).toBe(1000);
      expect(bad({ views: -0.5 })).toEqual([['views', 'min']]);
      expect(bad({ views: 1000.1 })).toEqual([['views', 'max']]);
      const r = cleanEntryInput({ views: -1 }, options());
      expect(r.ok ? '' : r.issues[0].message).toBe('views must be at least 0');
      expect(col('score', -1e9)).toBe(-1e9);
    });
  });

  describe('checkbox', () => {
    it('takes booleans', () => {
      expect(col('featured', true)).toBe(true);
      expect(col('featured', false)).toBe(false);
      expect(col('featured', null)).toBeNull();
      for (const v of ['true', 1, 0, '']) {
        expect(bad({ featured: v })).toEqual([['featured', 'isBoolean']]);
      }
    });
  });

  describe('date', () => {
    it('becomes a Date: a calendar date at midnight UTC, a date-time in UTC', () => {
      expect(col('publishedAt', '2024-02-29')).toEqual(new Date('2024-02-29T00:00:00.000Z'));
      expect(col('publishedAt', '2024-02-29T10:00:00+02:00')).toEqual(new Date('2024-02-29T08:00:00.000Z'));
      expect(col('publishedAt', '2024-01-01T00:00:00.123Z')).toEqual(new Date('2024-01-01T00:00:00.123Z'));
      expect(col('publishedAt', '0050-06-01')).toEqual(new Date('0050-06-01T00:00:00.000Z'));
      expect(col('publishedAt', ' 2024-01-01 ')).toEqual(new Date('2024-01-01T00:00:00.000Z'));
      expect(col('publishedAt', '')).toBeNull();
      expect(col('publishedAt', null)).toBeNull();
      expect(col('publishedAt', '2024-01-01')).toBeInstanceOf(Date);
    });

    it.each([
      '2024-01-01T10:00:00',
      '2023-02-29',
      '2024-13-01',
      '2024-01-01T25:00:00Z',
      '01/02/2024',
      'yesterday',
      '1700000000',
    ])('refuses %s', (value) => {
      expect(bad({ publishedAt: value })).toEqual([['publishedAt', 'isDate']]);
    });

    it('refuses non-strings', () => {
      expect(bad({ publishedAt: 1_700_000_000_000 })).toEqual([['publishedAt', 'isDate']]);
      expect(bad({ publishedAt: {} })).toEqual([['publishedAt', 'isDate']]);
    });
  });

  describe('select', () => {
    it('single: an option value, exactly', () => {
      expect(col('category', 'news')).toBe('news');
      expect(col('category', 'howto')).toBe('howto');
      expect(col('category', '')).toBeNull();
      expect(col('category', null)).toBeNull();
      for (const v of ['How-to', ' news', 'NEWS', 'other', 3, ['news']]) {
        expect(bad({ category: v })).toEqual([['category', 'isIn']]);
      }
      const r = cleanEntryInput({ category: 'x' }, options());
      expect(r.ok ? '' : r.issues[0].message).toBe('category must be one of "news", "howto"');
    });

    it('hasMany: distinct option values; empty is a null column', () => {
      expect(col('tags', ['b', 'a'])).toEqual(['b', 'a']);
      expect(col('tags', [])).toBeNull();
      expect(col('tags', null)).toBeNull();
      expect(bad({ tags: ['a', 'x', 'a', 5, 'c', 'c'] })).toEqual([
        ['tags.1', 'isIn'],
        ['tags.2', 'duplicate'],
        ['tags.3', 'isIn'],
        ['tags.5', 'duplicate'],
      ]);
      expect(bad({ tags: 'a' })).toEqual([['tags', 'isArray']]);
      expect(bad({ tags: { 0: 'a' } })).toEqual([['tags', 'isArray']]);
    });

    it('hasMany: at most 200 values, refused before reading them', () => {
      const many = { tags: Array.from({ length: 201 }, () => 'a') };
      expect(bad(many)).toEqual([['tags', 'arrayMaxSize']]);
      const fields = [
        f('t', 'select', { hasMany: true, options: Array.from({ length: 200 }, (_, i) => `o${i}`) }),
      ];
      const all = Array.from({ length: 200 }, (_, i) => `o${i}`);
      expect(ok({ t: all }, { fields }).columns.t).toEqual(all);
    });
  });

  describe('json', () => {
    it('any JSON value becomes JSON text (arrays too, never a PostgreSQL array)', () => {
      expect(col('meta', { a: [1, 'two', null], b: { c: true } })).toBe(
        '{"a":[1,"two",null],"b":{"c":true}}',
      );
      expect(col('meta', [1, 2])).toBe('[1,2]');
      expect(col('meta', 'text')).toBe('"text"');
      expect(col('meta', '')).toBe('""');
      expect(col('meta', 0)).toBe('0');
      expect(col('meta', false)).toBe('false');
      expect(col('meta', null)).toBeNull();
    });

    it('takes documents up to 1,000,000 characters and 64 levels', () => {
      expect(col('meta', { s: 'x'.repeat(20_000) })).toEqual(JSON.stringify({ s: 'x'.repeat(20_000) }));
      expect(bad({ meta: { s: 'x'.repeat(1_000_000) } })).toEqual([['meta', 'maxLength']]);
      let deep: unknown = 1;
      for (let i = 0; i < 70; i++) {
        deep = [deep];
      }
      expect(bad({ meta: deep })).toEqual([['meta', 'isJson']]);
      expect(bad({ meta: { a: 'x\u0000' } })).toEqual([['meta', 'isJson']]);
      expect(bad({ meta: { 'k\ud800': 1 } })).toEqual([['meta', 'isJson']]);
      expect(bad({ meta: { n: NaN } })).toEqual([['meta', 'isJson']]);
      expect(bad({ meta: { d: new Date() } })).toEqual([['meta', 'isJson']]);
    });

    it('stores a copy: a prototype key from JSON.parse stays a plain key', () => {
      const meta = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as unknown;
      const text = col('meta', meta) as string;
      expect(JSON.parse(text)).toEqual(meta);
      expect(text).toContain('__proto__');
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  });

  describe('richText', () => {
    it('a document the check accepts becomes JSON text', () => {
      expect(col('body', DOC)).toBe(JSON.stringify(DOC));
      expect(col('body', null)).toBeNull();
    });

    it('passes the check a copy and reports its message', () => {
      const seen: unknown[] = [];
      const check = (v: unknown): string | null => {
        seen.push(v);
        return richText(v);
      };
      ok({ body: DOC }, { richText: check });
      expect(seen).toEqual([DOC]);
      expect(seen[0]).not.toBe(DOC);
      const r = cleanEntryInput({ body: { nope: 1 } }, options());
      expect(r.ok ? [] : r.issues).toEqual([
        { path: 'body', code: 'richText', message: 'not a Lexical document: no root' },
      ]);
    });

    it('refuses non-objects, non-JSON, too deep or too long documents before calling the check', () => {
      const check = jest.fn(richText);
      expect(bad({ body: 'text' }, { richText: check })).toEqual([['body', 'isObject']]);
      expect(bad({ body: [DOC] }, { richText: check })).toEqual([['body', 'isObject']]);
      expect(bad({ body: { root: 'a\u0000' } }, { richText: check })).toEqual([['body', 'isJson']]);
      expect(bad({ body: { root: [1, 'a\ud800'] } }, { richText: check })).toEqual([['body', 'isJson']]);
      expect(bad({ body: { root: { 'k\udc00': 1 } } }, { richText: check })).toEqual([['body', 'isJson']]);
      expect(bad({ body: { root: [Infinity] } }, { richText: check })).toEqual([['body', 'isJson']]);
      let deep: Record<string, unknown> = { root: {} };
      for (let i = 0; i < 150; i++) {
        deep = { root: deep };
      }
      expect(bad({ body: deep }, { richText: check })).toEqual([['body', 'isJson']]);
      expect(bad({ body: { root: 'x'.repeat(1_000_000) } }, { richText: check })).toEqual([
        ['body', 'maxLength'],
      ]);
      expect(check).not.toHaveBeenCalled();
      // Larger than a json field may be.
      expect(col('body', { root: 'x'.repeat(100_000) })).toHaveLength(100_011);
    });

    it('a check that throws is a refusal, not a crash', () => {
      const throwing = (): string | null => {
        throw new Error('boom');
      };
      expect(bad({ body: DOC }, { richText: throwing })).toEqual([['body', 'richText']]);
    });
  });

  describe('relationship and upload', () => {
    it('single: a uuid (stored lower-case) or an object with an id', () => {
      expect(col('author', A)).toBe(A);
      expect(col('author', A.toUpperCase())).toBe(A);
      expect(col('author', { id: B, name: 'Populated', nested: { deep: true } })).toBe(B);
      expect(col('cover', { id: C.toUpperCase() })).toBe(C);
      expect(col('author', null)).toBeNull();
    });

    it.each([
      ['empty', ''],
      ['not a uuid', 'abc'],
      ['too long', `${A}0`],
      ['a number', 42],
      ['an array', [A]],
      ['an object without id', { name: 'x' }],
      ['an object with a bad id', { id: 'x' }],
      ['an object with a numeric id', { id: 1 }],
    ])('single: refuses %s', (_name, value) => {
      expect(bad({ author: value })).toEqual([['author', 'isUuid']]);
    });

    it('hasMany: distinct ids in order, as join rows', () => {
      const w = ok({ related: [B, { id: A }, C.toUpperCase()] });
      expect(w.joins).toEqual({ related: [B, A, C] });
      expect(w.columns).toEqual({});
      expect(ok({ related: [] }).joins).toEqual({ related: [] });
      expect(ok({ related: null }).joins).toEqual({ related: [] });
    });

    it('hasMany: refuses bad items, duplicates (after lower-casing), non-arrays and over 1,000', () => {
      expect(bad({ related: [A, 'x', A.toUpperCase(), { id: A }, null, B] })).toEqual([
        ['related.1', 'isUuid'],
        ['related.2', 'duplicate'],
        ['related.3', 'duplicate'],
        ['related.4', 'isUuid'],
      ]);
      expect(bad({ related: A })).toEqual([['related', 'isArray']]);
      expect(bad({ related: Array.from({ length: 1001 }, () => A) })).toEqual([['related', 'arrayMaxSize']]);
      const ids = Array.from(
        { length: 1000 },
        (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      );
      expect(ok({ related: ids }).joins.related).toHaveLength(1000);
    });

    it('lists every reference by target, first seen first, ids in body order with paths', () => {
      const w = ok({
        related: [B, A],
        author: A.toUpperCase(),
        cover: { id: C },
        blocks: [
          { caption: 'one', link: { target: B, targets: [C, A], file: C } },
          { caption: 'two', link: { target: null } },
        ],
      });
      expect(w.references).toEqual([
        {
          relationTo: 'posts',
          ids: [
            { id: B, path: 'related.0' },
            { id: A, path: 'related.1' },
          ],
        },
        { relationTo: 'authors', ids: [{ id: A, path: 'author' }] },
        {
          relationTo: 'media',
          ids: [
            { id: C, path: 'cover' },
            { id: C, path: 'blocks.0.link.file' },
          ],
        },
        {
          relationTo: 'pages',
          ids: [
            { id: B, path: 'blocks.0.link.target' },
            { id: C, path: 'blocks.0.link.targets.0' },
            { id: A, path: 'blocks.0.link.targets.1' },
          ],
        },
      ]);
      expect(ok({ author: null, related: [] }).references).toEqual([]);
    });
  });

  describe('component', () => {
    it('single: an object checked against its group, stored as JSON text', () => {
      const w = ok({ seo: { title: 'T', description: 'D' } });
      expect(w.columns.seo).toBe('{"title":"T","description":"D"}');
      expect(col('seo', null)).toBeNull();
      expect(bad({ seo: { title: 5, extra: 1, description: 'x'.repeat(1_000_001) } })).toEqual([
        ['seo.title', 'isString'],
        ['seo.extra', 'unknown_field'],
        ['seo.description', 'maxLength'],
      ]);
      expect(ok({ seo: { title: 'T', description: undefined } }).columns.seo).toBe('{"title":"T"}');
      expect(bad({ seo: 'x' })).toEqual([['seo', 'isObject']]);
      expect(bad({ seo: [{ title: 'T' }] })).toEqual([['seo', 'isObject']]);
    });

    it('enforces required inside, always (even in a draft or a partial update)', () => {
      expect(bad({ seo: {} })).toEqual([['seo.title', 'required']]);
      expect(bad({ seo: { title: '' } })).toEqual([['seo.title', 'required']]);
      expect(bad({ seo: { title: null, description: 'd' } })).toEqual([['seo.title', 'required']]);
      expect(
        bad({ seo: { description: 'd' } }, { mode: 'create', drafts: true, fields: [FIELDS[14]] }),
      ).toEqual([['seo.title', 'required']]);
    });

    it('repeatable: an array of such objects, paths with the index', () => {
      const w = ok({
        blocks: [
          {
            caption: 'a',
            when: '2024-05-01T12:00:00+02:00',
            tags: ['b'],
            data: [1, { x: 2 }],
            body: DOC,
            weight: 2,
            kind: 'y',
            link: { label: 'L', target: A.toUpperCase(), targets: [{ id: B }] },
          },
          { caption: 'b', tags: null, when: null },
        ],
      });
      expect(JSON.parse(w.columns.blocks as string)).toEqual([
        {
          caption: 'a',
          when: '2024-05-01T10:00:00.000Z',
          tags: ['b'],
          data: [1, { x: 2 }],
          body: DOC,
          weight: 2,
          kind: 'y',
          link: { label: 'L', target: A, targets: [B] },
        },
        // defaults fill absent keys; hasMany values stay arrays
        { caption: 'b', tags: [], when: null, weight: 5, kind: 'x' },
      ]);
      expect(col('blocks', [])).toBe('[]');
      expect(col('blocks', null)).toBeNull();
    });

    it('repeatable: reports each item by path', () => {
      expect(
        bad({
          blocks: [
            { caption: 'ok' },
            'x',
            { caption: '', weight: 11 },
            { when: '2024-01-01T00:00:00' },
            { caption: 'c', tags: ['a', 'a'], link: { target: 'nope', targets: [A, A], file: 3 } },
            { caption: 'd', body: { nope: true }, data: { d: 'x\u0000' }, kind: 'z', weight: '1' },
          ],
        }),
      ).toEqual([
        ['blocks.1', 'isObject'],
        ['blocks.2.caption', 'required'],
        ['blocks.2.weight', 'max'],
        ['blocks.3.when', 'isDate'],
        ['blocks.3.caption', 'required'],
        ['blocks.4.tags.1', 'duplicate'],
        ['blocks.4.link.target', 'isUuid'],
        ['blocks.4.link.targets.1', 'duplicate'],
        ['blocks.4.link.file', 'isUuid'],
        ['blocks.5.body', 'richText'],
        ['blocks.5.data', 'isJson'],
        ['blocks.5.kind', 'isIn'],
        ['blocks.5.weight', 'isNumber'],
      ]);
      expect(bad({ blocks: { caption: 'x' } })).toEqual([['blocks', 'isArray']]);
      expect(bad({ blocks: Array.from({ length: 101 }, () => ({ caption: 'x' })) })).toEqual([
        ['blocks', 'arrayMaxSize'],
      ]);
      expect(
        JSON.parse(
          col(
            'blocks',
            Array.from({ length: 100 }, () => ({ caption: 'x' })),
          ) as string,
        ),
      ).toHaveLength(100);
    });

    it('an unknown group is an issue at the field', () => {
      expect(bad({ seo: { title: 'x' } }, { fieldGroup: () => undefined })).toEqual([['seo', 'fieldGroup']]);
      expect(bad({ x: { inner: {} } }, { fields: [f('x', 'component', { fieldGroup: 'broken' })] })).toEqual([
        ['x.inner', 'fieldGroup'],
      ]);
      expect(bad({ x: {} }, { fields: [f('x', 'component')] })).toEqual([['x', 'fieldGroup']]);
      // A null component needs no group.
      expect(
        ok({ x: { inner: null } }, { fields: [f('x', 'component', { fieldGroup: 'broken' })] }).columns,
      ).toEqual({
        x: '{"inner":null}',
      });
    });

    it('nests up to 5 components deep', () => {
      const nested = (levels: number): unknown => {
        let v: Record<string, unknown> = { name: `l${levels}` };
        for (let i = levels - 1; i >= 1; i--) {
          v = { name: `l${i}`, child: v };
        }
        return v;
      };
      expect(JSON.parse(col('nest', nested(5)) as string)).toEqual(nested(5));
      expect(bad({ nest: nested(6) })).toEqual([['nest.child.child.child.child.child', 'depth']]);
      // null at the sixth level is no component at all
      expect(
        ok({ nest: { child: { child: { child: { child: { child: null } } } } } }).columns.nest,
      ).toBeDefined();
    });

    it('refuses hostile nesting without throwing', () => {
      let deep: Record<string, unknown> = { name: 'x' };
      for (let i = 0; i < 10_000; i++) {
        deep = { child: deep };
      }
      expect(bad({ nest: deep })).toEqual([['nest.child.child.child.child.child', 'depth']]);
      let deepUnknown: Record<string, unknown> = {};
      for (let i = 0; i < 10_000; i++) {
        deepUnknown = { x: deepUnknown };
      }
      expect(bad({ seo: { title: 't', deep: deepUnknown } })).toEqual([['seo.deep', 'unknown_field']]);
    });

    it('a prototype key inside a component is an unknown field', () => {
      const body = JSON.parse('{"seo": {"title": "t", "__proto__": {"title": 1}}}') as unknown;
      expect(bad(body)).toEqual([['seo.__proto__', 'unknown_field']]);
    });
  });

  describe('required', () => {
    const fields = [
      f('title', 'text', { required: true }),
      f('count', 'number', { required: true, defaultValue: 1 }),
      f('tags', 'select', { hasMany: true, options: ['a'], required: true }),
      f('refs', 'relationship', { relationTo: 'posts', hasMany: true, required: true }),
      f('note', 'text'),
    ];
    const full = { title: 'T', count: 2, tags: ['a'], refs: [A] };

    it('create without drafts: every required field, unless a defaultValue covers an absent key', () => {
      expect(ok(full, { fields, mode: 'create' }).columns).toEqual({ title: 'T', count: 2, tags: ['a'] });
      expect(ok({ title: 'T', tags: ['a'], refs: [A] }, { fields, mode: 'create' }).columns).toEqual({
        title: 'T',
        tags: ['a'],
      });
      expect(bad({ note: 'n' }, { fields, mode: 'create' })).toEqual([
        ['title', 'required'],
        ['tags', 'required'],
        ['refs', 'required'],
      ]);
      expect(bad({ title: '', count: null, tags: [], refs: null }, { fields, mode: 'create' })).toEqual([
        ['title', 'required'],
        ['count', 'required'],
        ['tags', 'required'],
        ['refs', 'required'],
      ]);
      const r = cleanEntryInput({}, options({ fields, mode: 'create' }));
      expect(r.ok ? '' : r.issues[0].message).toBe('title is required');
    });

    it('a blank-string default is no default', () => {
      const withBlank = [f('title', 'text', { required: true, defaultValue: '  ' })];
      expect(bad({}, { fields: withBlank, mode: 'create' })).toEqual([['title', 'required']]);
      const withDefault = [f('title', 'text', { required: true, defaultValue: 'Untitled' })];
      expect(ok({}, { fields: withDefault, mode: 'create' }).columns).toEqual({});
    });

    it('a wrong value is reported once, not also as missing', () => {
      expect(bad({ title: 5, count: 2, tags: ['x'], refs: [A] }, { fields, mode: 'create' })).toEqual([
        ['title', 'isString'],
        ['tags.0', 'isIn'],
      ]);
    });

    it('create with drafts: a draft (the default) may be incomplete, a published entry may not', () => {
      const drafts = { fields, mode: 'create' as const, drafts: true };
      expect(ok({}, drafts)).toEqual({ columns: {}, joins: {}, references: [] });
      expect(ok({ title: null, status: 'draft' }, drafts).columns).toEqual({ title: null });
      expect(bad({ status: 'published', title: '' }, drafts)).toEqual([
        ['title', 'required'],
        ['tags', 'required'],
        ['refs', 'required'],
      ]);
      const r = cleanEntryInput({ status: 'published' }, options(drafts));
      expect(r.ok ? '' : r.issues[0].message).toBe('title is required to publish');
      expect(ok({ ...full, status: 'published' }, drafts).status).toBe('published');
      // an invalid status is reported; the entry counts as a draft otherwise
      expect(bad({ status: 'live' }, drafts)).toEqual([['status', 'isIn']]);
    });

    it('update without drafts: checked on the merged values', () => {
      const existing = { id: A, title: 'Old', count: 1, tags: ['a'], refs: [{ id: B }], note: null };
      expect(ok({ note: 'n' }, { fields, existing }).columns).toEqual({ note: 'n' });
      expect(bad({ title: '' }, { fields, existing })).toEqual([['title', 'required']]);
      expect(bad({ refs: [] }, { fields, existing })).toEqual([['refs', 'required']]);
      // stored values that are empty (or absent) make the entry fail until they are given
      const incomplete = { id: A, title: 'Old', count: null, tags: [], note: 'x' };
      expect(bad({ note: 'n' }, { fields, existing: incomplete })).toEqual([
        ['count', 'required'],
        ['tags', 'required'],
        ['refs', 'required'],
      ]);
      expect(ok({ count: 3, tags: ['a'], refs: [A] }, { fields, existing: incomplete }).columns).toEqual({
        count: 3,
        tags: ['a'],
      });
    });

    it('update with drafts: the resulting status decides', () => {
      const draft = { id: A, status: 'draft', title: null, count: null, tags: [], refs: [] };
      const published = { ...draft, ...full, status: 'published' };
      const base = { fields, drafts: true };
      expect(ok({ note: 'n' }, { ...base, existing: draft }).columns).toEqual({ note: 'n' });
      expect(bad({ status: 'published' }, { ...base, existing: draft })).toEqual([
        ['title', 'required'],
        ['count', 'required'],
        ['tags', 'required'],
        ['refs', 'required'],
      ]);
      expect(ok({ status: 'published', ...full }, { ...base, existing: draft }).status).toBe('published');
      expect(bad({ title: null }, { ...base, existing: published })).toEqual([['title', 'required']]);
      expect(ok({ title: null, status: 'draft' }, { ...base, existing: published }).columns).toEqual({
        title: null,
      });
    });

    it('bulk data (update without existing): only the keys present are checked', () => {
      expect(ok({ note: 'n' }, { fields })).toEqual({ columns: { note: 'n' }, joins: {}, references: [] });
      expect(bad({ title: '', note: 'n' }, { fields })).toEqual([['title', 'required']]);
      // drafts, status unknown: the entries may be published
      expect(bad({ title: null }, { fields, drafts: true })).toEqual([['title', 'required']]);
      expect(ok({ title: null, status: 'draft' }, { fields, drafts: true }).columns).toEqual({ title: null });
      expect(bad({ title: null, status: 'published' }, { fields, drafts: true })).toEqual([
        ['title', 'required'],
      ]);
    });
  });

  describe('problems', () => {
    it('are all collected, in body order, each naming its path', () => {
      expect(
        bad({
          title: 1,
          summary: 2,
          contact: 'x',
          views: 'x',
          featured: 'x',
          publishedAt: 'x',
          category: 'x',
          tags: ['x'],
          meta: { n: Infinity },
          body: 'x',
          author: 'x',
          related: ['x'],
          cover: 'x',
          seo: 'x',
          blocks: 'x',
          nest: 'x',
        }),
      ).toEqual([
        ['title', 'isString'],
        ['summary', 'isString'],
        ['contact', 'isEmail'],
        ['views', 'isNumber'],
        ['featured', 'isBoolean'],
        ['publishedAt', 'isDate'],
        ['category', 'isIn'],
        ['tags.0', 'isIn'],
        ['meta', 'isJson'],
        ['body', 'isObject'],
        ['author', 'isUuid'],
        ['related.0', 'isUuid'],
        ['cover', 'isUuid'],
        ['seo', 'isObject'],
        ['blocks', 'isArray'],
        ['nest', 'isObject'],
      ]);
    });

    it('list the first 50 and count the others', () => {
      const body: Record<string, unknown> = {};
      for (let i = 0; i < 100_000; i++) {
        body[`k${i}`] = i;
      }
      const found = bad(body);
      expect(found).toHaveLength(ENTRY_INPUT_LIMITS.issues);
      expect(found[49]).toEqual(['k49', 'unknown_field']);
      const omitted = (b: unknown, more: Partial<EntryInputOptions> = {}): number => {
        const r = cleanEntryInput(b, options(more));
        return r.ok ? 0 : r.omitted;
      };
      expect(omitted(body)).toBe(100_000 - 50);
      expect(bad({ tags: Array.from({ length: 200 }, () => 'x') })).toHaveLength(50);
      expect(omitted({ tags: Array.from({ length: 200 }, () => 'x') })).toBe(150);
      // 3 issues per block.
      const blocks = Array.from({ length: 100 }, () => ({ caption: 1, weight: 'x', kind: 'z' }));
      expect(bad({ blocks })).toHaveLength(50);
      expect(omitted({ blocks })).toBe(300 - 50);
      expect(bad({ related: Array.from({ length: 1000 }, () => 1) }, { mode: 'create' })).toHaveLength(50);
      expect(omitted({ related: Array.from({ length: 1000 }, () => 1) }, { mode: 'create' })).toBe(
        1000 + 1 - 50,
      );
      expect(omitted({ title: 'ok', views: -1 })).toBe(0);
    });

    it('never throw on hostile input', () => {
      const hostile: unknown[] = [
        JSON.parse('{"__proto__": null}'),
        JSON.parse('{"title": {"__proto__": []}}'),
        { blocks: new Array(100) },
        { blocks: [Object.create(null)] },
        { related: new Array(1000) },
        { tags: new Array(200) },
        { seo: new Proxy({}, {}) },
        { body: { root: Symbol('x') } },
        { meta: { fn: () => 1 } },
        { meta: 10n },
        { author: { id: { id: A } } },
        { seo: { title: 't', description: { toString: () => 'x' } } },
      ];
      for (const body of hostile) {
        for (const mode of ['create', 'update'] as const) {
          expect(() => cleanEntryInput(body, options({ mode, drafts: true }))).not.toThrow();
        }
      }
      expect(bad({ blocks: new Array(3) })).toEqual([
        ['blocks.0', 'isObject'],
        ['blocks.1', 'isObject'],
        ['blocks.2', 'isObject'],
      ]);
      expect(bad({ meta: 10n })).toEqual([['meta', 'isJson']]);
    });
  });

  it('cleans a full create body', () => {
    const w = ok(
      {
        status: 'published',
        title: 'Hello',
        summary: 'Sum',
        contact: ' Me@Example.com ',
        views: 10,
        featured: true,
        publishedAt: '2024-03-01',
        category: 'howto',
        tags: ['c', 'a'],
        meta: [{ k: 'v' }],
        body: DOC,
        author: { id: A.toUpperCase(), name: 'Ann' },
        related: [B, C],
        cover: C,
        seo: { title: 'S' },
        blocks: [{ caption: 'x' }],
      },
      { mode: 'create', drafts: true },
    );
    expect(w).toEqual({
      status: 'published',
      columns: {
        title: 'Hello',
        summary: 'Sum',
        contact: 'Me@Example.com',
        views: 10,
        featured: true,
        publishedAt: new Date('2024-03-01T00:00:00.000Z'),
        category: 'howto',
        tags: ['c', 'a'],
        meta: '[{"k":"v"}]',
        body: JSON.stringify(DOC),
        author: A,
        cover: C,
        seo: '{"title":"S"}',
        blocks: '[{"caption":"x","weight":5,"kind":"x"}]',
      },
      joins: { related: [B, C] },
      references: [
        { relationTo: 'authors', ids: [{ id: A, path: 'author' }] },
        {
          relationTo: 'posts',
          ids: [
            { id: B, path: 'related.0' },
            { id: C, path: 'related.1' },
          ],
        },
        { relationTo: 'media', ids: [{ id: C, path: 'cover' }] },
      ],
    });
  });

  it('does not touch its input', () => {
    const body = { meta: { a: [1] }, body: DOC, blocks: [{ caption: 'x', data: { b: 2 } }], tags: ['a'] };
    const frozen = JSON.stringify(body);
    const w = ok(body);
    expect(JSON.stringify(body)).toBe(frozen);
    expect(w.columns.tags).not.toBe(body.tags);
  });
});
