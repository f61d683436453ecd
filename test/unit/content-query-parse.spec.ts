import { parse as parseSimple } from 'node:querystring';
import { parse as parseQs } from 'qs';
import { ServiceError } from '../../src/common/errors';
import { parseListQuery, QueryDefinition, WhereNode } from '../../src/modules/content/query';

/** A collection with one field of every type (and both hasMany storages). */
const postsDef: QueryDefinition = {
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

const UUID = '3F2504E0-4F89-11D3-9A0C-0305E82C3301';
const uuid = UUID.toLowerCase();

/** Express "extended" (qs, as Express 5 configures it) and "simple" (node:querystring) parsers. */
const extended = (s: string) => parseQs(s, { allowPrototypes: true }) as Record<string, unknown>;
const simple = (s: string) => parseSimple(s) as Record<string, unknown>;

function where(query: Record<string, unknown>, def = postsDef): WhereNode | null {
  return parseListQuery(query, def).where;
}

/** The `{ path, code }` of every problem; fails unless a 400 VALIDATION_ERROR is thrown. */
function issues(query: Record<string, unknown>, def = postsDef): Array<{ path: string; code: string }> {
  try {
    parseListQuery(query, def);
  } catch (e) {
    expect(e).toBeInstanceOf(ServiceError);
    const err = e as ServiceError;
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.status).toBe(400);
    const list = (err.data as { errors: Array<{ path: string; code: string; message: string }> }).errors;
    for (const i of list) {
      expect(typeof i.message).toBe('string');
    }
    return list.map(({ path, code }) => ({ path, code }));
  }
  throw new Error('expected a validation error');
}

function paths(query: Record<string, unknown>, def = postsDef): string[] {
  return issues(query, def).map((i) => `${i.path} ${i.code}`);
}

describe('parseListQuery: parameters', () => {
  it('has defaults', () => {
    expect(parseListQuery({}, postsDef)).toEqual({
      where: null,
      sort: [{ field: 'createdAt', direction: 'desc' }],
      page: 1,
      limit: 10,
      offset: 0,
      select: null,
      depth: 0,
      richTextFormat: 'json',
      status: 'published',
    });
    expect(parseListQuery({}, plainDef).status).toBeNull();
    expect(parseListQuery(undefined, plainDef).limit).toBe(10);
    expect(parseListQuery({ where: undefined, sort: undefined }, plainDef).where).toBeNull();
  });

  it('refuses unknown parameters, in any key form', () => {
    expect(paths({ search: 'x' })).toEqual(['search unknown_parameter']);
    expect(paths({ 'filter[title]': 'x', 'filter[views]': '1' })).toEqual(['filter unknown_parameter']);
    expect(paths({ 'where]x[': '1' })).toEqual(['where]x[ unknown_parameter']);
    expect(paths(extended('fields=title&__proto__[x]=1&constructor=1'))).toEqual([
      'fields unknown_parameter',
      'constructor unknown_parameter',
    ]);
    expect(paths({ ['x'.repeat(500)]: '1' })[0]).toBe(`${'x'.repeat(64)}… unknown_parameter`);
  });

  it('reads page and limit like every other list (clamp 500, default 10, offset)', () => {
    expect(parseListQuery({ page: '3', limit: '25' }, postsDef)).toMatchObject({
      page: 3,
      limit: 25,
      offset: 50,
    });
    expect(parseListQuery({ limit: '501' }, postsDef).limit).toBe(500);
    expect(parseListQuery({ limit: '99999999999999999999' }, postsDef).limit).toBe(500);
    expect(parseListQuery({ limit: 20, page: 2 }, postsDef)).toMatchObject({ limit: 20, offset: 20 });
    expect(paths({ limit: 'abc', page: '0' })).toEqual(['page min', 'limit isInt']);
    expect(paths({ limit: '-1', page: '1.5' })).toEqual(['page isInt', 'limit isInt']);
    expect(paths({ page: ['1', '2'], limit: '' })).toEqual(['page isInt', 'limit isInt']);
    expect(paths({ page: '99999999999' })).toEqual(['page max']);
  });

  it('reads depth 0..5', () => {
    expect(parseListQuery({ depth: '5' }, postsDef).depth).toBe(5);
    expect(parseListQuery({ depth: '0' }, postsDef).depth).toBe(0);
    expect(paths({ depth: '6' })).toEqual(['depth max']);
    expect(paths({ depth: '-1' })).toEqual(['depth isInt']);
    expect(paths({ depth: 'one' })).toEqual(['depth isInt']);
  });

  it('reads richTextFormat', () => {
    expect(parseListQuery({ richTextFormat: 'html' }, postsDef).richTextFormat).toBe('html');
    expect(parseListQuery({ richTextFormat: 'both' }, postsDef).richTextFormat).toBe('both');
    expect(parseListQuery({ richTextFormat: 'json' }, postsDef).richTextFormat).toBe('json');
    expect(paths({ richTextFormat: 'HTML' })).toEqual(['richTextFormat isIn']);
    expect(paths({ richTextFormat: ['html', 'json'] })).toEqual(['richTextFormat isIn']);
  });

  it('reads status on drafts collections and refuses it elsewhere', () => {
    expect(parseListQuery({ status: 'draft' }, postsDef).status).toBe('draft');
    expect(parseListQuery({ status: 'all' }, postsDef).status).toBe('all');
    expect(parseListQuery({ status: 'published' }, postsDef).status).toBe('published');
    expect(parseListQuery({}, postsDef, { defaultStatus: 'all' }).status).toBe('all');
    expect(paths({ status: 'ALL' })).toEqual(['status isIn']);
    expect(paths({ status: 'archived' })).toEqual(['status isIn']);
    expect(paths({ status: 'published' }, plainDef)).toEqual(['status not_allowed']);
  });
});

describe('parseListQuery: every operator, values converted to the field type', () => {
  const cases: Array<[string, string, unknown, WhereNode]> = [
    ['title', 'equals', 'Hello', { field: 'title', op: 'equals', value: 'Hello' }],
    ['title', 'equals', '', { field: 'title', op: 'equals', value: '' }],
    ['summary', 'not_equals', ' x ', { field: 'summary', op: 'not_equals', value: ' x ' }],
    ['contact', 'greater_than', 'm', { field: 'contact', op: 'greater_than', value: 'm' }],
    ['views', 'greater_than', '500', { field: 'views', op: 'greater_than', value: 500 }],
    ['views', 'greater_than_equal', '-1.5e2', { field: 'views', op: 'greater_than_equal', value: -150 }],
    ['views', 'less_than', ' .5 ', { field: 'views', op: 'less_than', value: 0.5 }],
    ['views', 'less_than_equal', '-0', { field: 'views', op: 'less_than_equal', value: 0 }],
    ['views', 'equals', 42, { field: 'views', op: 'equals', value: 42 }],
    [
      'publishedOn',
      'less_than',
      '2024-02-29',
      { field: 'publishedOn', op: 'less_than', value: new Date('2024-02-29T00:00:00.000Z') },
    ],
    [
      'publishedOn',
      'greater_than_equal',
      '2024-03-01T10:30:00.250+02:00',
      { field: 'publishedOn', op: 'greater_than_equal', value: new Date('2024-03-01T08:30:00.250Z') },
    ],
    [
      'createdAt',
      'greater_than',
      '2024-01-01T00:00:00Z',
      { field: 'createdAt', op: 'greater_than', value: new Date('2024-01-01T00:00:00Z') },
    ],
    [
      'updatedAt',
      'less_than_equal',
      '2024-01-01 12:00-0130',
      { field: 'updatedAt', op: 'less_than_equal', value: new Date('2024-01-01T13:30:00Z') },
    ],
    ['title', 'like', 'He%l_o\\%', { field: 'title', op: 'like', value: 'He%l_o\\%' }],
    ['title', 'like', 'ends\\\\', { field: 'title', op: 'like', value: 'ends\\\\' }],
    ['summary', 'contains', '50%_off\\', { field: 'summary', op: 'contains', value: '50%_off\\' }],
    ['contact', 'search', 'Example.COM', { field: 'contact', op: 'contains', value: 'Example.COM' }],
    ['title', 'in', 'a, b,,c', { field: 'title', op: 'in', value: ['a', ' b', '', 'c'] }],
    ['title', 'in', '', { field: 'title', op: 'in', value: [] }],
    ['title', 'in', ['x,y', 'z'], { field: 'title', op: 'in', value: ['x,y', 'z'] }],
    ['views', 'in', '1, 2.5,-3', { field: 'views', op: 'in', value: [1, 2.5, -3] }],
    ['views', 'not_in', [1, '2'], { field: 'views', op: 'not_in', value: [1, 2] }],
    ['id', 'in', `${UUID},${uuid}`, { field: 'id', op: 'in', value: [uuid, uuid] }],
    ['category', 'not_in', 'news,blog', { field: 'category', op: 'not_in', value: ['news', 'blog'] }],
    ['publishedOn', 'in', '2024-01-01', { field: 'publishedOn', op: 'in', value: [new Date('2024-01-01Z')] }],
    ['title', 'exists', 'true', { field: 'title', op: 'exists', value: true }],
    ['views', 'exists', 'false', { field: 'views', op: 'exists', value: false }],
    ['meta', 'exists', true, { field: 'meta', op: 'exists', value: true }],
    ['body', 'exists', 'true', { field: 'body', op: 'exists', value: true }],
    ['seo', 'exists', 'false', { field: 'seo', op: 'exists', value: false }],
    ['featured', 'equals', 'false', { field: 'featured', op: 'equals', value: false }],
    ['featured', 'not_equals', true, { field: 'featured', op: 'not_equals', value: true }],
    ['category', 'equals', 'blog', { field: 'category', op: 'equals', value: 'blog' }],
    ['tags', 'equals', 'a', { field: 'tags', op: 'equals', value: 'a' }],
    ['tags', 'in', ['c,d', 'b'], { field: 'tags', op: 'in', value: ['c,d', 'b'] }],
    ['tags', 'exists', 'true', { field: 'tags', op: 'exists', value: true }],
    ['author', 'equals', UUID, { field: 'author', op: 'equals', value: uuid }],
    ['cover', 'not_equals', uuid, { field: 'cover', op: 'not_equals', value: uuid }],
    ['related', 'in', uuid, { field: 'related', op: 'in', value: [uuid] }],
    ['related', 'not_equals', uuid, { field: 'related', op: 'not_equals', value: uuid }],
    ['id', 'equals', ` ${UUID} `, { field: 'id', op: 'equals', value: uuid }],
    ['title', 'equals', null, { field: 'title', op: 'exists', value: false }],
    ['author', 'not_equals', null, { field: 'author', op: 'exists', value: true }],
    ['meta', 'equals', null, { field: 'meta', op: 'exists', value: false }],
    ['body', 'not_equals', null, { field: 'body', op: 'exists', value: true }],
    ['seo', 'equals', null, { field: 'seo', op: 'exists', value: false }],
  ];

  it.each(cases)('%s %s %j', (field, op, value, expected) => {
    const json = JSON.stringify({ [field]: { [op]: value } });
    expect(where({ where: json })).toEqual(expected);
    if (typeof value === 'string') {
      const qs = `where[${field}][${op}]=${encodeURIComponent(value)}`;
      expect(where(extended(qs))).toEqual(expected);
      expect(where(simple(qs))).toEqual(expected);
    }
  });
});

describe('parseListQuery: where shapes', () => {
  const expected: WhereNode = {
    and: [
      {
        or: [
          { field: 'title', op: 'equals', value: 'a' },
          { and: [{ field: 'views', op: 'greater_than', value: 3 }] },
        ],
      },
      { field: 'featured', op: 'equals', value: true },
    ],
  };

  it('gives the same AST for bracket notation (qs and simple), index syntax and JSON', () => {
    const qs =
      'where[or][0][title][equals]=a&where[or][1][and][0][views][greater_than]=3&where[featured][equals]=true';
    expect(where(extended(qs))).toEqual(expected);
    expect(where(simple(qs))).toEqual(expected);
    const json = {
      or: [{ title: { equals: 'a' } }, { and: [{ views: { greater_than: 3 } }] }],
      featured: { equals: true },
    };
    expect(where({ where: JSON.stringify(json) })).toEqual(expected);
    expect(where(extended(`where=${encodeURIComponent(JSON.stringify(json))}`))).toEqual(expected);
    expect(where({ where: json })).toEqual(expected);
  });

  it('reads keys qs leaves unparsed past its depth of 5', () => {
    const qs = 'where[and][0][or][0][and][0][title][equals]=deep&where[and][0][or][1][views][exists]=false';
    const parsed = extended(qs);
    expect(JSON.stringify(parsed)).toContain('[title][equals]');
    const ast: WhereNode = {
      and: [
        {
          or: [
            { and: [{ field: 'title', op: 'equals', value: 'deep' }] },
            { field: 'views', op: 'exists', value: false },
          ],
        },
      ],
    };
    expect(where(parsed)).toEqual(ast);
    expect(where(simple(qs))).toEqual(ast);
  });

  it('reads and/or objects with index keys in numeric order (qs above 20 items)', () => {
    const qs = [25, 3, 10].map((i) => `where[or][${i}][views][equals]=${i}`).join('&');
    const parsed = extended(qs);
    expect(Array.isArray((parsed.where as { or: unknown }).or)).toBe(false);
    expect(where(parsed)).toEqual({
      or: [3, 10, 25].map((v) => ({ field: 'views', op: 'equals', value: v })),
    });
    expect(
      where({ where: { and: { '1': { views: { equals: '1' } }, '0': { views: { equals: '0' } } } } }),
    ).toEqual({
      and: [
        { field: 'views', op: 'equals', value: 0 },
        { field: 'views', op: 'equals', value: 1 },
      ],
    });
  });

  it('ANDs several operators on one field and several fields in one object', () => {
    expect(
      where(extended('where[views][greater_than]=1&where[views][less_than]=9&where[title][exists]=true')),
    ).toEqual({
      and: [
        { field: 'views', op: 'greater_than', value: 1 },
        { field: 'views', op: 'less_than', value: 9 },
        { field: 'title', op: 'exists', value: true },
      ],
    });
  });

  it('takes repeated in keys and qs index lists as items, whole', () => {
    const expectedIn: WhereNode = { field: 'title', op: 'in', value: ['a,b', 'c'] };
    expect(where(extended('where[title][in]=a%2Cb&where[title][in]=c'))).toEqual(expectedIn);
    expect(where(simple('where[title][in]=a%2Cb&where[title][in]=c'))).toEqual(expectedIn);
    expect(where(extended('where[title][in][]=a%2Cb&where[title][in][]=c'))).toEqual(expectedIn);
    expect(where(simple('where[title][in][]=a%2Cb&where[title][in][]=c'))).toEqual(expectedIn);
    const many = Array.from({ length: 30 }, (_, i) => `where[views][in][${i}]=${i}`).join('&');
    expect(where(extended(many))).toEqual({
      field: 'views',
      op: 'in',
      value: Array.from({ length: 30 }, (_, i) => i),
    });
  });

  it('keeps empty groups: and matches everything, or nothing', () => {
    expect(where({ where: '{}' })).toEqual({ and: [] });
    expect(where({ where: '{"and":[]}' })).toEqual({ and: [] });
    expect(where({ where: '{"or":[]}' })).toEqual({ or: [] });
    expect(where({ where: '{"or":[{}]}' })).toEqual({ or: [{ and: [] }] });
  });

  it('never reads prototype properties as fields or operators', () => {
    expect(paths({ where: '{"__proto__":{"equals":"x"},"constructor":{"equals":"y"}}' })).toEqual([
      'where.__proto__ unknown_field',
      'where.constructor unknown_field',
    ]);
    expect(
      paths(extended('where[title][__proto__]=x&where[title][hasOwnProperty]=y&where[toString][equals]=1')),
    ).toEqual(['where.title.hasOwnProperty unknown_operator', 'where.toString unknown_field']);
    expect(paths(simple('where[__proto__][equals]=x&where[title][constructor]=y'))).toEqual([
      'where.__proto__ unknown_field',
      'where.title.constructor unknown_operator',
    ]);
    expect(({} as Record<string, unknown>).equals).toBeUndefined();
  });
});

describe('parseListQuery: where errors carry a path', () => {
  it('refuses unknown fields and operators', () => {
    expect(paths(extended('where[nope][equals]=1&where[title][regex]=x&where[title][Equals]=x'))).toEqual([
      'where.nope unknown_field',
      'where.title.regex unknown_operator',
      'where.title.Equals unknown_operator',
    ]);
    expect(paths({ where: '{"and":[{"title":{"equals":"a"}},{"ghost":{"exists":true}}]}' })).toEqual([
      'where.and.1.ghost unknown_field',
    ]);
  });

  it('names the operators the field takes when an operator is unknown or not allowed', () => {
    const messages = (query: Record<string, unknown>): string[] => {
      try {
        parseListQuery(query, postsDef);
      } catch (e) {
        return ((e as ServiceError).data as { errors: Array<{ message: string }> }).errors.map(
          (i) => i.message,
        );
      }
      throw new Error('expected a validation error');
    };
    expect(messages(extended('where[title][regex]=x&where[views][gt]=1&where[featured][like]=t'))).toEqual([
      'unknown operator "regex"; title takes equals, not_equals, greater_than, greater_than_equal, ' +
        'less_than, less_than_equal, like, contains, search, in, not_in, exists',
      'unknown operator "gt"; views takes equals, not_equals, greater_than, greater_than_equal, ' +
        'less_than, less_than_equal, in, not_in, exists',
      'like cannot be used on featured; it takes equals, not_equals, exists',
    ]);
    expect(messages({ where: '{"meta":{"contains":"x"},"category":{"regex":"x"}}' })).toEqual([
      'contains cannot be used on meta; it takes exists',
      'unknown operator "regex"; category takes equals, not_equals, in, not_in, exists',
    ]);
  });

  it('refuses operators that make no sense for the type', () => {
    const refused = [
      'where[featured][greater_than]=true',
      'where[featured][in]=true',
      'where[featured][like]=t%',
      'where[views][like]=1%',
      'where[views][contains]=1',
      'where[publishedOn][search]=2024',
      'where[category][contains]=ne',
      'where[category][greater_than]=news',
      'where[tags][like]=a',
      'where[tags][greater_than]=a',
      `where[author][greater_than]=${uuid}`,
      `where[id][less_than]=${uuid}`,
      'where[related][contains]=x',
      'where[meta][equals]=x',
      'where[body][contains]=x',
      'where[seo][in]=x',
    ];
    for (const q of refused) {
      const path = q
        .slice(0, q.indexOf('='))
        .replace(/\]\[|\[|\]/g, '.')
        .replace(/\.$/, '');
      expect(paths(extended(q))).toEqual([`${path} operator_not_allowed`]);
    }
    // Only null makes equals an exists on a json field.
    expect(paths({ where: '{"meta":{"equals":{"a":1}}}' })).toEqual([
      'where.meta.equals operator_not_allowed',
    ]);
    expect(paths({ where: '{"seo":{"not_equals":"x"}}' })).toEqual([
      'where.seo.not_equals operator_not_allowed',
    ]);
  });

  it('refuses values that do not convert', () => {
    expect(
      paths(
        extended(
          [
            'where[views][equals]=abc',
            'where[views][greater_than]=1e999',
            'where[views][less_than]=NaN',
            'where[publishedOn][equals]=2023-02-29',
            'where[publishedOn][less_than]=2024-01-01T10:00:00',
            'where[createdAt][greater_than]=yesterday',
            'where[featured][equals]=yes',
            'where[title][exists]=1',
            'where[author][equals]=42',
            'where[category][equals]=News',
            'where[tags][in]=a,x',
            'where[views][in]=1,two,3',
          ].join('&'),
        ),
      ),
    ).toEqual([
      'where.views.equals isNumber',
      'where.views.greater_than isNumber',
      'where.views.less_than isNumber',
      'where.views.in.1 isNumber',
      'where.publishedOn.equals isDate',
      'where.publishedOn.less_than isDate',
      'where.createdAt.greater_than isDate',
      'where.featured.equals isBoolean',
      'where.title.exists isBoolean',
      'where.author.equals isUUID',
      'where.category.equals isIn',
      'where.tags.in.1 isIn',
    ]);
    expect(
      paths({ where: '{"title":{"equals":5},"views":{"equals":"5"},"publishedOn":{"equals":0}}' }),
    ).toEqual(['where.title.equals isString', 'where.publishedOn.equals isDate']);
    expect(
      paths({ where: '{"views":{"greater_than":null},"title":{"like":null},"tags":{"in":null}}' }),
    ).toEqual(['where.views.greater_than required', 'where.title.like required', 'where.tags.in isArray']);
  });

  it('refuses several values where one is expected, and values where operators are expected', () => {
    expect(paths(extended('where[title][equals]=a&where[title][equals]=b'))).toEqual([
      'where.title.equals isSingle',
    ]);
    expect(paths({ where: '{"views":{"equals":{"gt":1}}}' })).toEqual(['where.views.equals isSingle']);
    expect(paths({ where: '{"title":"x"}' })).toEqual(['where.title isObject']);
    expect(paths(extended('where[title]=x'))).toEqual(['where.title isObject']);
    expect(paths(extended('where[title][x]=1&where[views]='))).toEqual([
      'where.title.x unknown_operator',
      'where.views isObject',
    ]);
    expect(paths({ where: '{"title":{}}' })).toEqual(['where.title empty']);
    expect(paths({ where: '{"and":{"title":{"equals":"x"}}}' })).toEqual(['where.and.title isArray']);
    expect(paths({ where: '{"or":"x"}' })).toEqual(['where.or isArray']);
    expect(paths({ where: '{"or":["x"]}' })).toEqual(['where.or.0 isObject']);
  });

  it('refuses a where that is not an object', () => {
    expect(paths({ where: '{not json' })).toEqual(['where isJson']);
    expect(paths({ where: '[{"title":{"equals":"x"}}]' })).toEqual(['where isObject']);
    expect(paths({ where: 'null' })).toEqual(['where isObject']);
    expect(paths({ where: ['{}', '{}'] })).toEqual(['where isObject']);
    expect(paths({ where: '{"title":{"equals":"x"}}', 'where[views][equals]': '1' })).toEqual([
      'where conflict',
    ]);
  });

  it('leaves status to the status parameter', () => {
    expect(paths(extended('where[status][equals]=draft'))).toEqual(['where.status not_filterable']);
    expect(paths(extended('where[status][equals]=draft'), plainDef)).toEqual(['where.status unknown_field']);
  });

  it('refuses a like pattern ending in a lone backslash, and text PostgreSQL cannot compare', () => {
    expect(paths({ where: JSON.stringify({ title: { like: 'abc\\' } }) })).toEqual([
      'where.title.like invalid_pattern',
    ]);
    expect(paths({ where: JSON.stringify({ title: { like: 'abc\\\\\\' } }) })).toEqual([
      'where.title.like invalid_pattern',
    ]);
    expect(paths({ where: JSON.stringify({ title: { equals: 'a\u0000b' } }) })).toEqual([
      'where.title.equals isString',
    ]);
    expect(paths({ where: JSON.stringify({ title: { contains: 'a\ud800b' } }) })).toEqual([
      'where.title.contains isString',
    ]);
    expect(where({ where: JSON.stringify({ title: { equals: 'ok \ud83d\ude00 ü' } }) })).toEqual({
      field: 'title',
      op: 'equals',
      value: 'ok \ud83d\ude00 ü',
    });
  });

  it('collects every problem of the query at once', () => {
    expect(
      paths({
        where: '{"nope":{"equals":1},"views":{"like":"x","equals":"y"}}',
        sort: 'ghost',
        limit: '0',
        select: '',
        depth: '9',
        status: 'x',
        extra: '1',
      }),
    ).toEqual([
      'extra unknown_parameter',
      'where.nope unknown_field',
      'where.views.like operator_not_allowed',
      'where.views.equals isNumber',
      'sort unknown_field',
      'limit min',
      'select empty',
      'depth max',
      'status isIn',
    ]);
  });
});

describe('parseListQuery: limits against abuse', () => {
  function nested(levels: number): Record<string, unknown> {
    let node: Record<string, unknown> = { title: { equals: 'x' } };
    for (let i = 0; i < levels; i++) {
      node = { and: [node] };
    }
    return node;
  }

  function nestedAst(levels: number): WhereNode {
    let node: WhereNode = { field: 'title', op: 'equals', value: 'x' };
    for (let i = 0; i < levels; i++) {
      node = { and: [node] };
    }
    return node;
  }

  it('allows and/or nesting 5 deep and refuses 6', () => {
    expect(where({ where: JSON.stringify(nested(5)) })).toEqual(nestedAst(5));
    expect(paths({ where: JSON.stringify(nested(6)) })).toEqual([
      'where.and.0.and.0.and.0.and.0.and.0.and too_deep',
    ]);
    const qs = `where${'[or][0]'.repeat(6)}[title][equals]=x`;
    expect(paths(extended(qs))).toEqual(['where.or.0.or.0.or.0.or.0.or.0.or too_deep']);
    expect(paths(simple(qs))).toEqual(['where.or.0.or.0.or.0.or.0.or.0.or too_deep']);
  });

  it('survives absurd nesting without a stack overflow', () => {
    const deep = `${'{"and":['.repeat(20000)}{}${']}'.repeat(20000)}`;
    expect(deep.length).toBeLessThan(65536 * 4);
    expect(paths({ where: deep.slice(0, 60000) })).toEqual(['where isJson']);
    const deepButShort = `${'{"or":['.repeat(6000)}{}${']}'.repeat(6000)}`;
    expect(deepButShort.length).toBeLessThan(65536);
    expect(paths({ where: deepButShort })).toEqual(['where.or.0.or.0.or.0.or.0.or.0.or too_deep']);
    let obj: Record<string, unknown> = {};
    for (let i = 0; i < 100000; i++) {
      obj = { or: [obj] };
    }
    expect(paths({ where: obj })).toEqual(['where.or.0.or.0.or.0.or.0.or.0.or too_deep']);
    expect(paths({ [`where${'[a]'.repeat(100)}`]: 'x' })).toEqual(['where too_deep']);
  });

  it('allows 50 conditions and refuses 51', () => {
    const conditions = (n: number) => ({
      and: Array.from({ length: n }, (_, i) => ({ views: { equals: String(i) } })),
    });
    const ok = where({ where: JSON.stringify(conditions(50)) }) as { and: unknown[] };
    expect(ok.and).toHaveLength(50);
    expect(paths({ where: JSON.stringify(conditions(51)) })).toEqual(['where too_many_conditions']);
    const manyOps = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`op${i}`, 'x']));
    expect(paths({ where: { title: manyOps } })).toEqual(['where.title too_many_conditions']);
  });

  it('stops quickly on huge lists of empty groups', () => {
    const start = Date.now();
    expect(paths({ where: { and: new Array(1_000_000).fill({}) } })).toEqual([
      'where.and too_many_conditions',
    ]);
    expect(where({ where: { and: Array.from({ length: 190 }, () => ({})) } })).toEqual({
      and: Array.from({ length: 190 }, () => ({ and: [] })),
    });
    expect(Date.now() - start).toBeLessThan(2000);
  }, 10_000);

  it('limits values to 1,000 characters and in lists to 100 items', () => {
    const long = 'x'.repeat(1000);
    expect(where({ where: JSON.stringify({ title: { equals: long } }) })).toEqual({
      field: 'title',
      op: 'equals',
      value: long,
    });
    expect(paths({ where: JSON.stringify({ title: { equals: `${long}x` } }) })).toEqual([
      'where.title.equals maxLength',
    ]);
    expect(paths({ where: JSON.stringify({ title: { in: `a,${long}x` } }) })).toEqual([
      'where.title.in.1 maxLength',
    ]);
    const hundred = Array.from({ length: 100 }, (_, i) => i).join(',');
    expect((where(extended(`where[views][in]=${hundred}`)) as { value: unknown[] }).value).toHaveLength(100);
    expect(paths(extended(`where[views][in]=${hundred},100`))).toEqual(['where.views.in arrayMaxSize']);
    expect(paths({ where: { views: { not_in: new Array(1_000_000).fill('1') } } })).toEqual([
      'where.views.not_in arrayMaxSize',
    ]);
    expect(paths({ where: { title: { in: ','.repeat(50_000) } } })).toEqual(['where.title.in arrayMaxSize']);
    expect(paths({ where: { title: { in: 'x'.repeat(200_000) } } })).toEqual(['where.title.in maxLength']);
    expect(paths({ where: `{"title":{"equals":"${'y'.repeat(70_000)}"}}` })).toEqual(['where maxLength']);
  });

  it('reports at most 50 problems and counts the rest', () => {
    const q = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`p${i}`, '1']));
    const list = issues(q);
    expect(list).toHaveLength(51);
    expect(list[50]).toEqual({ path: 'query', code: 'too_many_errors' });
  });
});

describe('parseListQuery: sort', () => {
  it('reads fields, - for descending, several comma-separated', () => {
    expect(parseListQuery({ sort: 'title' }, postsDef).sort).toEqual([{ field: 'title', direction: 'asc' }]);
    expect(parseListQuery({ sort: '-views, title ,-createdAt' }, postsDef).sort).toEqual([
      { field: 'views', direction: 'desc' },
      { field: 'title', direction: 'asc' },
      { field: 'createdAt', direction: 'desc' },
    ]);
    expect(parseListQuery(extended('sort=-views&sort=id'), postsDef).sort).toEqual([
      { field: 'views', direction: 'desc' },
      { field: 'id', direction: 'asc' },
    ]);
    expect(parseListQuery({ sort: 'status,featured,category,publishedOn' }, postsDef).sort).toHaveLength(4);
  });

  it('refuses unknown, unsortable, repeated and empty items', () => {
    expect(paths({ sort: 'ghost' })).toEqual(['sort unknown_field']);
    expect(paths({ sort: '--views' })).toEqual(['sort unknown_field']);
    expect(paths({ sort: 'meta,-author,tags,related,body' })).toEqual(Array(5).fill('sort not_sortable'));
    expect(paths({ sort: 'views,-views' })).toEqual(['sort duplicate']);
    expect(paths({ sort: '' })).toEqual(['sort empty']);
    expect(paths({ sort: 'title,' })).toEqual(['sort empty']);
    expect(paths({ sort: '-' })).toEqual(['sort empty']);
    expect(paths({ sort: 'status' }, plainDef)).toEqual(['sort unknown_field']);
    expect(paths({ sort: { title: 'asc' } })).toEqual(['sort isString']);
    expect(paths({ sort: Array(11).fill('title').join(',') })).toEqual(['sort arrayMaxSize']);
    expect(paths({ sort: 'x'.repeat(20_000) })).toEqual(['sort maxLength']);
  });
});

describe('parseListQuery: select', () => {
  const system = ['id', 'createdAt', 'updatedAt'];

  it('reads a comma-separated list, always adding id and the timestamps, in definition order', () => {
    expect(parseListQuery({ select: 'views, title' }, postsDef).select).toEqual([
      ...system,
      'title',
      'views',
    ]);
    expect(parseListQuery({ select: 'id' }, postsDef).select).toEqual(system);
    expect(parseListQuery({ select: 'status,related,title,title' }, postsDef).select).toEqual([
      ...system,
      'status',
      'title',
      'related',
    ]);
    expect(parseListQuery(extended('select=title&select=body'), postsDef).select).toEqual([
      ...system,
      'title',
      'body',
    ]);
  });

  it('reads a JSON object or a qs object of field: true', () => {
    expect(parseListQuery({ select: '{"title":true,"meta":true}' }, postsDef).select).toEqual([
      ...system,
      'title',
      'meta',
    ]);
    expect(parseListQuery(extended('select[title]=true'), postsDef).select).toEqual([...system, 'title']);
    expect(parseListQuery(simple('select[title]=true'), postsDef).select).toEqual([...system, 'title']);
  });

  it('refuses a select that names nothing, or something unreadable', () => {
    expect(paths({ select: '' })).toEqual(['select empty']);
    expect(paths({ select: ' , ' })).toEqual(['select empty']);
    expect(paths({ select: '{}' })).toEqual(['select empty']);
    expect(paths({ select: 'title,' })).toEqual(['select empty']);
    expect(paths({ select: 'title,ghost' })).toEqual(['select unknown_field']);
    expect(paths({ select: 'status' }, plainDef)).toEqual(['select unknown_field']);
    expect(paths({ select: '{"title":false}' })).toEqual(['select.title isIn']);
    expect(paths({ select: '{"seo":{"a":true}}' })).toEqual(['select.seo isIn']);
    expect(paths({ select: '{"title":tru' })).toEqual(['select isJson']);
    expect(paths({ select: '{"__proto__":true}' })).toEqual(['select unknown_field']);
    expect(paths({ select: [['title']] })).toEqual(['select isString']);
  });
});
