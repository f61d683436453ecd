import { ServiceError } from '../../src/common/errors';
import type { ValidationIssue } from '../../src/common/errors';
import {
  checkLabel,
  FIELD_NAME_PATTERN,
  FIELD_NAME_SHAPE,
  humanizeName,
  SLUG_PATTERN,
  SLUG_SHAPE,
} from '../../src/plugins/api';
import { readDefinition } from '../../src/plugins/form-builder/form-definition';

/** The issues readDefinition answers for `body` (none when it is accepted). */
function issuesOf(body: unknown): ValidationIssue[] {
  try {
    readDefinition(body);
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(ServiceError);
    return ((e as ServiceError).data?.errors ?? []) as ValidationIssue[];
  }
}

const form = (over: Record<string, unknown> = {}, field: Record<string, unknown> = {}) => ({
  slug: 'contact',
  name: 'Contact',
  fields: [{ name: 'email', type: 'email', ...field }],
  ...over,
});

/**
 * The form builder reads slugs, field names and labels by the service's own rules, taken from the
 * plugin API: a form accepts exactly what the service accepts and words a refusal the same way.
 */
describe('form definitions follow the service rules (plugin API)', () => {
  const names = [
    'a',
    'phoneNumber',
    'address2_line',
    `a${'b'.repeat(62)}`,
    '1a',
    '_a',
    'a-b',
    'é',
    `a${'b'.repeat(63)}`,
  ];

  it('field names and the honeypot: the service pattern, worded as the service words it', () => {
    for (const name of names) {
      const field = issuesOf(form({}, { name }));
      const honeypot = issuesOf(form({ honeypot: name }));
      if (FIELD_NAME_PATTERN.test(name)) {
        expect([name, field, honeypot]).toEqual([name, [], []]);
      } else {
        expect(field).toEqual([
          { path: 'fields.0.name', code: 'matches', message: `name must ${FIELD_NAME_SHAPE}` },
        ]);
        expect(honeypot).toEqual([
          { path: 'honeypot', code: 'matches', message: `honeypot must ${FIELD_NAME_SHAPE}` },
        ]);
      }
    }
    expect(issuesOf(form({}, { name: 'toString' }))[0]).toMatchObject({
      path: 'fields.0.name',
      code: 'reserved',
    });
    expect(issuesOf(form({}, { name: null }))).toEqual([
      { path: 'fields.0.name', code: 'required', message: 'name is required' },
    ]);
  });

  it('slugs: the service pattern (trimmed), worded as the service words it', () => {
    for (const slug of ['a', 'blog-posts', 'v2', ' padded ', '', 'Blog', 'a_b', '-a', `a${'b'.repeat(63)}`]) {
      const issues = issuesOf(form({ slug }));
      if (SLUG_PATTERN.test(slug.trim())) {
        expect([slug, issues]).toEqual([slug, []]);
      } else {
        expect(issues).toEqual([{ path: 'slug', code: 'matches', message: `slug must ${SLUG_SHAPE}` }]);
      }
    }
    expect(readDefinition(form({ slug: ' padded ' })).slug).toBe('padded');
    expect(issuesOf(form({ slug: 5 }))).toEqual([
      { path: 'slug', code: 'isString', message: 'slug must be a string' },
    ]);
  });

  it('labels: the service label rule under the field path; the service default label', () => {
    for (const label of [5, '', '   ', 'x'.repeat(201), 'ok\u0000', 'Your address']) {
      const expected: ValidationIssue[] = [];
      checkLabel(label, expected);
      expect(issuesOf(form({}, { label }))).toEqual(
        expected.map((i) => ({ ...i, path: `fields.0.${i.path}` })),
      );
    }
    expect(readDefinition(form({}, { name: 'homeURL' })).fields[0].label).toBe(humanizeName('homeURL'));
  });
});
