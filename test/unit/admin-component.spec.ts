import { emptyItem, itemsOf, moved, textOf } from '../../admin/src/form/component';
import type { FieldDef } from '../../admin/src/form/fields';

/** The admin app's component fields: a group's values, once or as a list, to and from JSON. */
describe('admin app component fields', () => {
  const fields: FieldDef[] = [
    { name: 'heading', type: 'text' },
    { name: 'count', type: 'number' },
  ];

  it('reads a single group and a list of groups', () => {
    expect(itemsOf(fields, '{"heading":"Hi","count":2}', false)).toEqual([{ heading: 'Hi', count: '2' }]);
    expect(itemsOf(fields, '', false)).toEqual([]);
    expect(itemsOf(fields, '[{"heading":"A"},{"count":1}]', true)).toEqual([
      { heading: 'A', count: '' },
      { heading: '', count: '1' },
    ]);
    // Not JSON, or not the shape: none.
    expect(itemsOf(fields, '{oops', true)).toEqual([]);
    expect(itemsOf(fields, '{"heading":"x"}', true)).toEqual([]);
  });

  it('writes them back as the field JSON the API takes', () => {
    expect(textOf(fields, [{ heading: 'Hi', count: '2' }], false)).toBe('{"heading":"Hi","count":2}');
    expect(textOf(fields, [], false)).toBe('');
    expect(textOf(fields, [emptyItem(fields), { heading: 'B', count: '' }], true)).toBe(
      '[{"heading":null,"count":null},{"heading":"B","count":null}]',
    );
    expect(textOf(fields, [], true)).toBe('[]');
  });

  it('moves an item up or down, and nowhere past the ends', () => {
    expect(moved(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
    expect(moved(['a', 'b'], 1, 1)).toEqual(['a', 'b']);
  });
});
