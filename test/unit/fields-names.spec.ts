import type { ValidationIssue } from '../../src/common/errors';
import {
  checkFieldName,
  checkLabel,
  checkNameRule,
  checkOptionsFor,
  FIELD_NAME_PATTERN,
  type FieldNameKind,
  foldName,
  humanizeName,
  JWT_CLAIM_NAMES,
  MAX_LABEL_LENGTH,
  OBJECT_MEMBER_NAMES,
  SLUG_PATTERN,
  SLUG_SHAPE,
} from '../../src/fields';

const issuesOf = (check: (errors: ValidationIssue[]) => unknown): ValidationIssue[] => {
  const errors: ValidationIssue[] = [];
  check(errors);
  return errors;
};

describe('fields: name patterns', () => {
  it('field names: a letter, then letters, digits and _, at most 63 characters', () => {
    for (const ok of ['a', 'Z', 'phoneNumber', 'address2_line', 'a_', `a${'b'.repeat(62)}`]) {
      expect([ok, FIELD_NAME_PATTERN.test(ok)]).toEqual([ok, true]);
    }
    for (const bad of ['', '1a', '_a', 'a-b', 'a b', 'é', `a${'b'.repeat(63)}`, 'a\n']) {
      expect([bad, FIELD_NAME_PATTERN.test(bad)]).toEqual([bad, false]);
    }
  });

  it('slugs: a lowercase letter, then a-z, 0-9 and -, at most 63 characters', () => {
    for (const ok of ['a', 'blog-posts', 'v2', `a${'b'.repeat(62)}`]) {
      expect([ok, SLUG_PATTERN.test(ok)]).toEqual([ok, true]);
    }
    for (const bad of ['', 'Blog', 'a_b', '-a', '1a', `a${'b'.repeat(63)}`]) {
      expect([bad, SLUG_PATTERN.test(bad)]).toEqual([bad, false]);
    }
  });

  it('folds case, _ and - away', () => {
    expect(foldName('password_hash')).toBe('passwordhash');
    expect(foldName('Password-Hash')).toBe('passwordhash');
    expect(foldName('passwordHash')).toBe('passwordhash');
  });
});

describe('fields: checkFieldName', () => {
  const kind = (nullIsMissing: boolean): FieldNameKind => ({
    nullIsMissing,
    reserved: (name) => (name.toLowerCase() === 'id' ? 'is reserved' : null),
  });

  it('answers a valid name and files nothing', () => {
    const errors: ValidationIssue[] = [];
    expect(checkFieldName('title', 'fields.0.name', kind(true), errors)).toBe('title');
    expect(errors).toEqual([]);
  });

  it('files one issue at the path: required, isString, matches, reserved', () => {
    expect(issuesOf((e) => checkFieldName(undefined, 'p', kind(false), e))).toEqual([
      { path: 'p', code: 'required', message: 'name is required' },
    ]);
    expect(issuesOf((e) => checkFieldName(null, 'p', kind(true), e))).toEqual([
      { path: 'p', code: 'required', message: 'name is required' },
    ]);
    expect(issuesOf((e) => checkFieldName(null, 'p', kind(false), e))).toEqual([
      { path: 'p', code: 'isString', message: 'name must be a string' },
    ]);
    expect(issuesOf((e) => checkFieldName('1a', 'p', kind(true), e))).toEqual([
      {
        path: 'p',
        code: 'matches',
        message: 'name must start with a letter and hold only letters, digits and _ (at most 63 characters)',
      },
    ]);
    expect(issuesOf((e) => checkFieldName('ID', 'p', kind(true), e))).toEqual([
      { path: 'p', code: 'reserved', message: 'name "ID" is reserved' },
    ]);
  });
});

describe('fields: checkNameRule', () => {
  it('asks the rule why a well-formed name is refused, after the pattern', () => {
    const rule = {
      key: 'slug',
      pattern: SLUG_PATTERN,
      shape: SLUG_SHAPE,
      nullIsMissing: true,
      refuse: (s: string) => (s.includes('--') ? { code: 'matches', message: 'no --' } : null),
    };
    expect(issuesOf((e) => checkNameRule('a--b', 'slug', rule, e))).toEqual([
      { path: 'slug', code: 'matches', message: 'no --' },
    ]);
    expect(issuesOf((e) => checkNameRule('A--b', 'slug', rule, e))[0].message).toBe(
      `slug must ${SLUG_SHAPE}`,
    );
    expect(issuesOf((e) => checkNameRule('a-b', 'slug', rule, e))).toEqual([]);
  });
});

describe('fields: reserved name lists', () => {
  it('JWT claims: every claim the access token sets, the registered ones and sid', () => {
    expect([...JWT_CLAIM_NAMES].sort()).toEqual(
      [
        'aud',
        'email',
        'exp',
        'iat',
        'iss',
        'jti',
        'name',
        'nbf',
        'roleIds',
        'sid',
        'sub',
        'typ',
        'ver',
      ].sort(),
    );
  });

  it('Object.prototype members, the prototype key and the constructor', () => {
    for (const name of OBJECT_MEMBER_NAMES) {
      expect([name, name === 'prototype' || name in Object.prototype]).toEqual([name, true]);
    }
    expect(OBJECT_MEMBER_NAMES).toEqual(expect.arrayContaining(['constructor', 'prototype', 'toString']));
  });
});

describe('fields: labels', () => {
  it('trims, refuses empty, long and unstorable labels', () => {
    expect(checkLabel('  Title ', [])).toBe('Title');
    expect(issuesOf((e) => checkLabel(5, e))[0].code).toBe('isString');
    expect(issuesOf((e) => checkLabel('   ', e))[0].code).toBe('isNotEmpty');
    expect(checkLabel('x'.repeat(MAX_LABEL_LENGTH), [])).toHaveLength(MAX_LABEL_LENGTH);
    expect(issuesOf((e) => checkLabel('x'.repeat(MAX_LABEL_LENGTH + 1), e))[0].code).toBe('maxLength');
    expect(issuesOf((e) => checkLabel('a\u0000b', e))[0].code).toBe('maxLength');
    expect(issuesOf((e) => checkLabel('a\ud800b', e))[0].code).toBe('maxLength');
  });

  it('humanizes a name into the default label', () => {
    expect(humanizeName('phoneNumber')).toBe('Phone number');
    expect(humanizeName('homeURL')).toBe('Home URL');
  });
});

describe('fields: options', () => {
  it('select needs 1 to 200 distinct options; other types take none', () => {
    expect(checkOptionsFor('select', [' a ', { label: 'B', value: 'b' }], [])).toEqual([
      'a',
      { label: 'B', value: 'b' },
    ]);
    expect(issuesOf((e) => checkOptionsFor('select', undefined, e))[0].code).toBe('required');
    expect(issuesOf((e) => checkOptionsFor('select', [], e))[0].code).toBe('isArray');
    expect(issuesOf((e) => checkOptionsFor('select', ['a', { label: 'A', value: 'a' }], e))).toEqual([
      { path: 'options.1', code: 'duplicate', message: 'the option value "a" is given twice' },
    ]);
    expect(issuesOf((e) => checkOptionsFor('text', ['a'], e))[0].code).toBe('notAllowed');
    expect(checkOptionsFor('text', null, [])).toBeNull();
  });
});
