import { ServiceError } from '../../src/common/errors';
import { containsPattern, listRecord, parseListQuery } from '../../src/common/pagination';

const opts = {
  sortable: ['name', 'createdAt'] as const,
  defaultSort: { field: 'name' as const, direction: 'asc' as const },
};

function issues(query: Record<string, unknown>) {
  try {
    parseListQuery(query, opts);
  } catch (e) {
    expect(e).toBeInstanceOf(ServiceError);
    expect((e as ServiceError).code).toBe('VALIDATION_ERROR');
    return ((e as ServiceError).data as { errors: Array<{ path: string }> }).errors.map((i) => i.path);
  }
  throw new Error('expected a validation error');
}

describe('list queries', () => {
  it('defaults to page 1, limit 10 and the default sort', () => {
    expect(parseListQuery({}, opts)).toEqual({
      page: 1,
      limit: 10,
      offset: 0,
      search: undefined,
      sort: { field: 'name', direction: 'asc' },
    });
    expect(parseListQuery(undefined, opts).limit).toBe(10);
  });

  it('reads page, limit, search and sort', () => {
    expect(parseListQuery({ page: '3', limit: '25', search: '  smtp ', sort: '-createdAt' }, opts)).toEqual({
      page: 3,
      limit: 25,
      offset: 50,
      search: 'smtp',
      sort: { field: 'createdAt', direction: 'desc' },
    });
    expect(parseListQuery({ search: '   ' }, opts).search).toBeUndefined();
  });

  it('clamps limit to 500', () => {
    expect(parseListQuery({ limit: '501' }, opts).limit).toBe(500);
    expect(parseListQuery({ limit: '99999999999999999999999' }, opts).limit).toBe(500);
  });

  it('refuses non-numeric or < 1 page and limit, naming each', () => {
    expect(issues({ limit: 'abc' })).toEqual(['limit']);
    expect(issues({ page: '0' })).toEqual(['page']);
    expect(issues({ page: '-1', limit: '0' })).toEqual(['page', 'limit']);
    expect(issues({ page: '1.5' })).toEqual(['page']);
    expect(issues({ page: '' })).toEqual(['page']);
    expect(issues({ page: ['1', '2'] })).toEqual(['page']);
    expect(issues({ page: '99999999999' })).toEqual(['page']);
  });

  it('refuses a sort outside the allow-list and a non-string search', () => {
    expect(issues({ sort: 'password' })).toEqual(['sort']);
    expect(issues({ sort: '--name' })).toEqual(['sort']);
    expect(issues({ search: ['a', 'b'] })).toEqual(['search']);
    expect(issues({ search: 'x'.repeat(201) })).toEqual(['search']);
  });

  it('builds the List record meta', () => {
    expect(listRecord([1, 2], 12, { page: 1, limit: 10 })).toEqual({
      items: [1, 2],
      meta: { total: 12, page: 1, limit: 10, totalPages: 2, hasNext: true, hasPrev: false },
    });
    expect(listRecord([], 12, { page: 5, limit: 10 }).meta).toEqual({
      total: 12,
      page: 5,
      limit: 10,
      totalPages: 2,
      hasNext: false,
      hasPrev: true,
    });
    expect(listRecord([], 0, { page: 1, limit: 10 }).meta).toEqual({
      total: 0,
      page: 1,
      limit: 10,
      totalPages: 0,
      hasNext: false,
      hasPrev: false,
    });
  });

  it('escapes LIKE wildcards in a contains pattern', () => {
    expect(containsPattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});
