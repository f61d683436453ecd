import { filterFields, operatorsOf, toWhere } from '../../admin/src/form/filters';

/** The admin app's filter builder: the operators each field offers, conditions to a `where`. */
describe('admin app filters', () => {
  const fields = filterFields(
    [
      { name: 'title', type: 'text', label: 'Title' },
      { name: 'views', type: 'number' },
      { name: 'featured', type: 'checkbox' },
      { name: 'author', type: 'relationship', relationTo: 'authors' },
      { name: 'publishedOn', type: 'date' },
      { name: 'body', type: 'richText' },
    ],
    true,
  );

  it('offers the scalar fields, status and the timestamps, each with its operators', () => {
    expect(fields.map((f) => `${f.name}:${f.kind}`)).toEqual([
      'title:text',
      'views:number',
      'featured:boolean',
      'author:id',
      'publishedOn:date',
      'status:text',
      'createdAt:date',
      'updatedAt:date',
    ]);
    expect(operatorsOf(fields[0])).toContain('contains');
    expect(operatorsOf(fields[1])).not.toContain('contains');
    expect(operatorsOf(fields[2])).toEqual(['equals', 'not_equals', 'exists']);
  });

  it('turns conditions into a where of typed values', () => {
    expect(
      toWhere(
        fields,
        [
          { field: 'views', op: 'greater_than', value: '10' },
          { field: 'featured', op: 'equals', value: 'true' },
          { field: 'title', op: 'in', value: 'a, b ,,c' },
          { field: 'author', op: 'exists', value: 'false' },
          { field: 'createdAt', op: 'less_than', value: '2026-01-02T03:04:05.000Z' },
        ],
        'or',
      ),
    ).toEqual({
      or: [
        { views: { greater_than: 10 } },
        { featured: { equals: true } },
        { title: { in: ['a', 'b', 'c'] } },
        { author: { exists: false } },
        { createdAt: { less_than: '2026-01-02T03:04:05.000Z' } },
      ],
    });
  });

  it('leaves out conditions on unknown fields or with an operator the field does not take', () => {
    expect(
      toWhere(
        fields,
        [
          { field: 'nope', op: 'equals', value: '1' },
          { field: 'views', op: 'contains', value: '1' },
        ],
        'and',
      ),
    ).toBeUndefined();
    expect(toWhere(fields, [{ field: 'title', op: 'contains', value: 'x' }], 'and')).toEqual({
      and: [{ title: { contains: 'x' } }],
    });
  });
});
