import {
  controlOf,
  type FieldDef,
  fieldOfIssue,
  toBody,
  toForm,
  toLocalInput,
} from '../../admin/src/form/fields';

/** The admin app's form generation: every field type to a control, and back to the API's JSON. */
describe('admin app form fields', () => {
  const f = (type: string, more: Partial<FieldDef> = {}): FieldDef => ({ name: type, type, ...more });

  it('gives each field type its control', () => {
    expect(
      [
        f('text'),
        f('textarea'),
        f('email'),
        f('number'),
        f('checkbox'),
        f('date'),
        f('select'),
        f('select', { hasMany: true }),
        f('relationship'),
        f('relationship', { hasMany: true }),
        f('upload'),
        f('json'),
        f('richText'),
        f('component'),
      ].map(controlOf),
    ).toEqual([
      'text',
      'textarea',
      'email',
      'number',
      'checkbox',
      'datetime',
      'select',
      'multiselect',
      'relationship',
      'relationships',
      'upload',
      'json',
      'richtext',
      'component',
    ]);
  });

  it('turns stored values into form values, and an empty form for a new entry', () => {
    expect(toForm(f('text'), 'Hello')).toBe('Hello');
    expect(toForm(f('text'), undefined)).toBe('');
    expect(toForm(f('number'), 0)).toBe('0');
    expect(toForm(f('number'), null)).toBe('');
    expect(toForm(f('checkbox'), true)).toBe(true);
    expect(toForm(f('checkbox'), undefined)).toBe(false);
    expect(toForm(f('select', { hasMany: true }), ['a', 'b'])).toEqual(['a', 'b']);
    // A populated relation (depth) shows as its id.
    expect(toForm(f('relationship'), { id: 'r1', name: 'Grace' })).toBe('r1');
    expect(toForm(f('relationship', { hasMany: true }), ['r1', { id: 'r2' }])).toEqual(['r1', 'r2']);
    expect(toForm(f('json'), { a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
    const doc = { root: { type: 'root', children: [] } };
    expect(toForm(f('richText'), doc)).toBe(JSON.stringify(doc));
    expect(toBody([f('richText')], { richText: JSON.stringify(doc) }).body).toEqual({ richText: doc });
    expect(toBody([f('richText')], { richText: '' }).body).toEqual({ richText: null });
    const iso = '2026-03-04T05:06:07.000Z';
    expect(toForm(f('date'), iso)).toBe(toLocalInput(iso));
    expect(new Date(toLocalInput(iso)).toISOString()).toBe(iso);
  });

  it('builds the API body: typed values, null for an emptied input, [] for an emptied list', () => {
    const fields = [
      f('text'),
      f('number'),
      f('checkbox'),
      f('select', { hasMany: true }),
      f('relationship'),
      f('json'),
      f('date'),
    ];
    const local = toLocalInput('2026-03-04T05:06:07.000Z');
    const { body, issues } = toBody(fields, {
      text: 'Hi',
      number: '12.5',
      checkbox: true,
      select: ['a'],
      relationship: '',
      json: '{"x":1}',
      date: local,
    });
    expect(issues).toEqual([]);
    expect(body).toEqual({
      text: 'Hi',
      number: 12.5,
      checkbox: true,
      select: ['a'],
      relationship: null,
      json: { x: 1 },
      date: '2026-03-04T05:06:07.000Z',
    });
    expect(toBody([f('text'), f('select', { hasMany: true })], { text: '  ', select: '' }).body).toEqual({
      text: null,
      select: [],
    });
  });

  it('names the fields whose text cannot be sent, before the API is asked', () => {
    const { issues } = toBody([f('number', { label: 'Views' }), f('json', { label: 'Meta' })], {
      number: 'twelve',
      json: '{oops',
    });
    expect(issues).toEqual([
      { path: 'number', message: 'Views must be a number' },
      { path: 'json', message: 'Meta must be valid JSON' },
    ]);
  });

  it('ties an API issue to its field', () => {
    expect(fieldOfIssue('title')).toBe('title');
    expect(fieldOfIssue('tags.2')).toBe('tags');
  });
});
