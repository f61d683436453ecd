import {
  checkValue,
  humanizeName,
  MAX_JSON_LENGTH,
  MAX_TEXT_LENGTH,
  MAX_TEXTAREA_LENGTH,
} from '../../src/fields';
import {
  checkConfigFields,
  checkDefinition,
  FieldRules,
  isReservedUserFieldName,
  presentValues,
  RESERVED_USER_FIELD_NAMES,
  USER_FIELD_NAME,
  USER_FIELD_TYPES,
  validateValues,
} from '../../src/modules/user-fields/user-field-values';

const f = (name: string, type: FieldRules['type'], more: Partial<FieldRules> = {}): FieldRules => ({
  name,
  type,
  required: false,
  ...more,
});

const FIELDS: FieldRules[] = [
  f('nickname', 'text'),
  f('bio', 'textarea'),
  f('backupEmail', 'email'),
  f('age', 'number'),
  f('newsletter', 'checkbox'),
  f('birthday', 'date'),
  f('plan', 'select', { options: ['free', { label: 'Pro plan', value: 'pro' }] }),
  f('prefs', 'json'),
  f('department', 'text', { required: true }),
];

function ok(field: FieldRules, value: unknown): unknown {
  const r = checkValue(field, value);
  if (!r.ok) {
    throw new Error(`expected ${JSON.stringify(value)} to pass: ${r.message}`);
  }
  return r.value;
}

function refused(field: FieldRules, value: unknown): string {
  const r = checkValue(field, value);
  if (r.ok) {
    throw new Error(`expected ${JSON.stringify(value)} to be refused, got ${JSON.stringify(r.value)}`);
  }
  return r.code;
}

describe('user field values', () => {
  describe('validateValues', () => {
    it('answers the cleaned values of the keys given', () => {
      const r = validateValues(
        FIELDS,
        {
          nickname: '  Bob ',
          bio: 'line 1\nline 2\n',
          backupEmail: ' bob@example.com ',
          age: '42',
          newsletter: false,
          birthday: '1990-02-28',
          plan: 'pro',
          prefs: { theme: 'dark', n: [1, 2] },
          department: 'R&D',
        },
        { partial: false },
      );
      expect(r.errors).toEqual([]);
      expect(r.values).toEqual({
        nickname: 'Bob',
        bio: 'line 1\nline 2',
        backupEmail: 'bob@example.com',
        age: 42,
        newsletter: false,
        birthday: '1990-02-28',
        plan: 'pro',
        prefs: { theme: 'dark', n: [1, 2] },
        department: 'R&D',
      });
    });

    it('refuses unknown keys with unknown_field, one entry per key', () => {
      const r = validateValues(FIELDS, { nickname: 'x', shoeSize: 44, email: 'a@b.c' }, { partial: true });
      expect(r.errors).toEqual([
        { path: 'shoeSize', code: 'unknown_field', message: expect.any(String) },
        { path: 'email', code: 'unknown_field', message: expect.any(String) },
      ]);
      expect(r.values).toEqual({ nickname: 'x' });
    });

    it('reports every problem at once, path = field name', () => {
      const r = validateValues(
        FIELDS,
        { age: 'old', newsletter: 'yes', plan: 'gold', backupEmail: 'nope', birthday: '1990-13-01' },
        { partial: false },
      );
      expect(r.errors.map((e) => [e.path, e.code])).toEqual([
        ['age', 'isNumber'],
        ['newsletter', 'isBoolean'],
        ['plan', 'isIn'],
        ['backupEmail', 'isEmail'],
        ['birthday', 'isDate'],
        ['department', 'required'],
      ]);
      for (const e of r.errors) {
        expect(e.message).toEqual(expect.any(String));
      }
    });

    it('needs required fields unless partial', () => {
      expect(validateValues(FIELDS, {}, { partial: false }).errors).toEqual([
        { path: 'department', code: 'required', message: 'department is required' },
      ]);
      expect(validateValues(FIELDS, {}, { partial: true })).toEqual({ values: {}, errors: [] });
    });

    it('never lets a required field become null or blank, partial or not', () => {
      for (const partial of [true, false]) {
        for (const value of [null, '', '   ']) {
          const r = validateValues(FIELDS, { department: value }, { partial });
          expect(r.errors).toEqual([{ path: 'department', code: 'required', message: expect.any(String) }]);
        }
      }
    });

    it('clears optional fields given null or a blank string (stored as null)', () => {
      const r = validateValues(
        FIELDS,
        { nickname: '', age: null, birthday: '  ', plan: null, newsletter: null, prefs: null },
        { partial: true },
      );
      expect(r.errors).toEqual([]);
      expect(r.values).toEqual({
        nickname: null,
        age: null,
        birthday: null,
        plan: null,
        newsletter: null,
        prefs: null,
      });
    });

    it('treats an undefined value (in-process callers) as absent', () => {
      const r = validateValues(FIELDS, { nickname: undefined, department: 'x' }, { partial: false });
      expect(r).toEqual({ values: { department: 'x' }, errors: [] });
    });

    it('refuses a required json field set to null, but keeps a json string as given', () => {
      const req = [f('data', 'json', { required: true })];
      expect(validateValues(req, { data: null }, { partial: true }).errors[0].code).toBe('required');
      expect(validateValues(req, { data: '  ' }, { partial: true }).values).toEqual({ data: '  ' });
      expect(validateValues(req, { data: false }, { partial: true }).values).toEqual({ data: false });
    });

    it('accepts false for a required checkbox (required means answered)', () => {
      const req = [f('terms', 'checkbox', { required: true })];
      expect(validateValues(req, { terms: false }, { partial: false })).toEqual({
        values: { terms: false },
        errors: [],
      });
    });

    it('refuses a body that is not an object', () => {
      for (const input of [null, [], 'x', 3]) {
        expect(validateValues(FIELDS, input, { partial: true }).errors).toEqual([
          { path: '', code: 'isObject', message: expect.any(String) },
        ]);
      }
    });

    it('does not read inherited keys as values or fields', () => {
      const input = JSON.parse('{"__proto__": {"department": "x"}, "constructor": 1}') as Record<
        string,
        unknown
      >;
      const r = validateValues(FIELDS, input, { partial: false });
      expect(r.errors.map((e) => [e.path, e.code])).toEqual([
        ['__proto__', 'unknown_field'],
        ['constructor', 'unknown_field'],
        ['department', 'required'],
      ]);
      expect(Object.keys(r.values)).toEqual([]);
    });

    it('works with no fields defined: every key is unknown', () => {
      expect(validateValues([], { a: 1 }, { partial: true }).errors).toEqual([
        { path: 'a', code: 'unknown_field', message: expect.any(String) },
      ]);
      expect(validateValues([], {}, { partial: false })).toEqual({ values: {}, errors: [] });
    });
  });

  describe('checkValue by type', () => {
    it('text and textarea: strings, trimmed, bounded, storable', () => {
      const text = f('t', 'text');
      const area = f('a', 'textarea');
      expect(ok(text, ' hi ')).toBe('hi');
      expect(ok(text, 'x'.repeat(MAX_TEXT_LENGTH))).toHaveLength(MAX_TEXT_LENGTH);
      expect(refused(text, 'x'.repeat(MAX_TEXT_LENGTH + 1))).toBe('maxLength');
      expect(ok(area, 'x'.repeat(MAX_TEXTAREA_LENGTH))).toHaveLength(MAX_TEXTAREA_LENGTH);
      expect(refused(area, 'x'.repeat(MAX_TEXTAREA_LENGTH + 1))).toBe('maxLength');
      for (const bad of [3, true, {}, ['a']]) {
        expect(refused(text, bad)).toBe('isString');
      }
      // PostgreSQL cannot store NUL or an unpaired surrogate: refused here, not a 500 later.
      expect(refused(text, 'a\u0000b')).toBe('isString');
      expect(refused(text, 'a\ud800b')).toBe('isString');
      expect(refused(area, '\udc00')).toBe('isString');
      expect(ok(text, 'emoji 😀 ok')).toBe('emoji 😀 ok');
      expect(ok(text, 'ünïcødé')).toBe('ünïcødé');
    });

    it('email: a trimmed address', () => {
      const e = f('e', 'email');
      expect(ok(e, ' Ann@Example.com ')).toBe('Ann@Example.com');
      for (const bad of ['nope', 'a@', '@b.com', 'a b@c.com', 'a@b']) {
        expect(refused(e, bad)).toBe('isEmail');
      }
      expect(refused(e, 5)).toBe('isString');
      expect(refused(e, `${'a'.repeat(320)}@b.com`)).toBe('maxLength');
    });

    it('number: finite numbers, numeric strings as numbers', () => {
      const n = f('n', 'number');
      expect(ok(n, 3)).toBe(3);
      expect(ok(n, -2.5)).toBe(-2.5);
      expect(ok(n, '42')).toBe(42);
      expect(ok(n, ' 1e3 ')).toBe(1000);
      expect(ok(n, '-0.5')).toBe(-0.5);
      expect(ok(n, '.5')).toBe(0.5);
      expect(ok(n, -0)).toBe(0);
      expect(Object.is(ok(n, -0), 0)).toBe(true);
      for (const bad of ['abc', '1,5', '0x10', '1 2', 'Infinity', 'NaN', true, [], {}, NaN, Infinity]) {
        expect(refused(n, bad)).toBe('isNumber');
      }
    });

    it('checkbox: booleans only', () => {
      const c = f('c', 'checkbox');
      expect(ok(c, true)).toBe(true);
      expect(ok(c, false)).toBe(false);
      for (const bad of ['true', 1, 0, {}]) {
        expect(refused(c, bad)).toBe('isBoolean');
      }
    });

    it('date: a calendar date stays as it is; a date-time with a zone becomes UTC ISO', () => {
      const d = f('d', 'date');
      expect(ok(d, '2024-02-29')).toBe('2024-02-29');
      expect(ok(d, ' 0001-01-01 ')).toBe('0001-01-01');
      expect(ok(d, '2024-05-01T10:20:30Z')).toBe('2024-05-01T10:20:30.000Z');
      expect(ok(d, '2024-05-01T10:20Z')).toBe('2024-05-01T10:20:00.000Z');
      expect(ok(d, '2024-05-01T10:20:30.123456+02:00')).toBe('2024-05-01T08:20:30.123Z');
      expect(ok(d, '2024-05-01 00:30:00-0130')).toBe('2024-05-01T02:00:00.000Z');
      expect(ok(d, '2024-12-31T23:30:00-01:00')).toBe('2025-01-01T00:30:00.000Z');
      expect(ok(d, '0050-06-01T00:00:00Z')).toBe('0050-06-01T00:00:00.000Z');
      for (const bad of [
        '2023-02-29',
        '2024-13-01',
        '2024-00-10',
        '2024-04-31',
        '2024-05-01T10:20:30', // no zone: ambiguous
        '2024-05-01T24:00:00Z',
        '2024-05-01T10:60:00Z',
        '2024-05-01T10:20:61Z',
        '2024-05-01T10:20:00+24:00',
        '0000-01-01T00:00:00+01:00', // before year 0
        '9999-12-31T23:30:00-01:00', // after year 9999
        '24-05-01',
        '2024/05/01',
        'yesterday',
        '1714557600000',
        1714557600000,
        true,
      ]) {
        expect([bad, refused(d, bad)]).toEqual([bad, 'isDate']);
      }
    });

    it('select: a value among the options (strings or { label, value })', () => {
      const s = f('s', 'select', { options: ['a', { label: 'Bee', value: 'b' }] });
      expect(ok(s, 'a')).toBe('a');
      expect(ok(s, ' b ')).toBe('b');
      for (const bad of ['Bee', 'c', 'A', 1, ['a'], true]) {
        expect(refused(s, bad)).toBe('isIn');
      }
    });

    it('json: any JSON value, copied, bounded, storable', () => {
      const j = f('j', 'json');
      const value = { a: [1, 'two', null, true, { b: 2.5 }] };
      const out = ok(j, value);
      expect(out).toEqual(value);
      expect(out).not.toBe(value);
      for (const v of [0, 'x', false, [], {}]) {
        expect(ok(j, v)).toEqual(v);
      }
      expect(refused(j, { a: 'x'.repeat(MAX_JSON_LENGTH) })).toBe('maxLength');
      expect(refused(j, { a: NaN })).toBe('isJson');
      expect(refused(j, { a: undefined })).toBe('isJson');
      expect(refused(j, { d: new Date() })).toBe('isJson');
      expect(refused(j, () => 1)).toBe('isJson');
      expect(refused(j, { s: 'a\u0000' })).toBe('isJson');
      expect(refused(j, { 'k\u0000': 1 })).toBe('isJson');
      expect(refused(j, ['\ud83d'])).toBe('isJson');
      let deep: unknown = 1;
      for (let i = 0; i < 40; i++) {
        deep = [deep];
      }
      expect(refused(j, deep)).toBe('isJson');
      expect(ok(j, Object.assign(Object.create(null) as object, { a: 1 }))).toEqual({ a: 1 });
    });
  });

  describe('checkDefinition', () => {
    it('accepts every user field type and fills the label from the name', () => {
      for (const type of USER_FIELD_TYPES) {
        const r = checkDefinition({
          name: 'phoneNumber',
          type,
          options: type === 'select' ? ['x'] : undefined,
        });
        expect(r.errors).toEqual([]);
        expect(r.definition).toEqual({
          name: 'phoneNumber',
          type,
          label: 'Phone number',
          required: false,
          options: type === 'select' ? ['x'] : null,
        });
      }
    });

    it('refuses content-only types and unknown ones', () => {
      for (const type of ['richText', 'relationship', 'upload', 'component', 'string', 3, null]) {
        const r = checkDefinition({ name: 'x', type });
        expect(r.definition).toBeUndefined();
        expect(r.errors).toEqual([{ path: 'type', code: 'isIn', message: expect.any(String) }]);
      }
    });

    it('checks the name: pattern, length, reserved names (any case)', () => {
      for (const name of ['a', 'A1', 'phone_number', 'x'.repeat(63), 'Department']) {
        expect(checkDefinition({ name, type: 'text' }).errors).toEqual([]);
      }
      for (const name of ['', '1a', '_a', 'a-b', 'a b', 'é', 'x'.repeat(64), 'a.b']) {
        expect(checkDefinition({ name, type: 'text' }).errors).toEqual([
          { path: 'name', code: 'matches', message: expect.any(String) },
        ]);
      }
      for (const name of [...RESERVED_USER_FIELD_NAMES, 'EMAIL', 'Roles', 'SUB', 'isactive']) {
        expect([name, checkDefinition({ name, type: 'text' }).errors.map((e) => e.code)]).toEqual([
          name,
          ['reserved'],
        ]);
      }
      expect(checkDefinition({ type: 'text' }).errors).toEqual([
        { path: 'name', code: 'required', message: 'name is required' },
      ]);
      expect(checkDefinition({ name: 5, type: 'text' }).errors[0].code).toBe('isString');
    });

    it('reserves the core user record keys and the token claim names', () => {
      for (const name of [
        'id',
        'email',
        'name',
        'image',
        'isActive',
        'emailVerified',
        'roles',
        'roleIds',
        'lastLoginAt',
        'createdAt',
        'updatedAt',
        'password',
        'sub',
        'ver',
        'iat',
        'exp',
        'nbf',
        'iss',
        'aud',
        'typ',
        'jti',
      ]) {
        expect([name, isReservedUserFieldName(name)]).toEqual([name, true]);
      }
      expect(isReservedUserFieldName('phone')).toBe(false);
    });

    it('reserves every name of the user record, its storage and the token, in every spelling', () => {
      const names = [
        // the user record and its code-side state
        'id',
        'email',
        'name',
        'image',
        'roleIds',
        'roles',
        'isActive',
        'emailVerified',
        'password',
        'passwordHash',
        'lockedUntil',
        'failedLoginCount',
        'mustChangePassword',
        'lastLoginAt',
        'createdAt',
        'updatedAt',
        'ver',
        'custom',
        // JWT claims
        'sub',
        'iat',
        'exp',
        'nbf',
        'iss',
        'aud',
        'typ',
        'jti',
        'sid',
        // the users table's columns
        'password_hash',
        'email_verified_at',
        'is_active',
        'failed_login_count',
        'locked_until',
        'must_change_password',
        'last_login_at',
        'created_at',
        'updated_at',
      ];
      const snake = (n: string) => n.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
      const camel = (n: string) => n.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
      for (const name of names) {
        const spellings = new Set([
          name,
          name.toLowerCase(),
          name.toUpperCase(),
          name.charAt(0).toUpperCase() + name.slice(1),
          snake(name),
          snake(name).toUpperCase(),
          camel(name),
          snake(name).replace(/_/g, '__'),
          // kebab case: refused by the name pattern first, but folded the same
          snake(name).replace(/_/g, '-'),
        ]);
        for (const spelling of spellings) {
          expect([spelling, isReservedUserFieldName(spelling)]).toEqual([spelling, true]);
          if (USER_FIELD_NAME.test(spelling)) {
            expect([spelling, checkDefinition({ name: spelling, type: 'text' }).errors]).toEqual([
              spelling,
              [{ path: 'name', code: 'reserved', message: expect.any(String) }],
            ]);
          }
        }
      }
      // Folding ignores only case, `_` and `-`: names that merely contain a reserved one are free.
      for (const name of [
        'phone',
        'passwordHint',
        'lockedReason',
        'customer',
        'sidebar',
        'user_name',
        'emails',
      ]) {
        expect([name, isReservedUserFieldName(name)]).toEqual([name, false]);
      }
    });

    it('select needs options; other types take none', () => {
      expect(checkDefinition({ name: 's', type: 'select' }).errors).toEqual([
        { path: 'options', code: 'required', message: expect.any(String) },
      ]);
      expect(checkDefinition({ name: 's', type: 'select', options: [] }).errors[0]).toMatchObject({
        path: 'options',
        code: 'isArray',
      });
      expect(checkDefinition({ name: 't', type: 'text', options: ['a'] }).errors).toEqual([
        { path: 'options', code: 'notAllowed', message: expect.any(String) },
      ]);
      expect(checkDefinition({ name: 't', type: 'text', options: null }).errors).toEqual([]);
    });

    it('checks each option, with a path per problem, and trims them', () => {
      const r = checkDefinition({
        name: 's',
        type: 'select',
        options: [
          ' a ',
          { label: ' Bee ', value: 'b' },
          '',
          3,
          { value: 'c' },
          { label: 'x', value: 'y', z: 1 },
          'a',
        ],
      });
      expect(r.errors.map((e) => [e.path, e.code])).toEqual([
        ['options.2', 'length'],
        ['options.3', 'isOption'],
        ['options.4.label', 'isString'],
        ['options.5.z', 'unknown_field'],
        ['options.6', 'duplicate'],
      ]);
      const good = checkDefinition({
        name: 's',
        type: 'select',
        options: [' a ', { label: ' Bee ', value: 'b' }],
      });
      expect(good.definition?.options).toEqual(['a', { label: 'Bee', value: 'b' }]);
      // A string option and an object option with the same value are duplicates too.
      expect(
        checkDefinition({ name: 's', type: 'select', options: ['a', { label: 'A', value: 'a' }] }).errors,
      ).toEqual([{ path: 'options.1', code: 'duplicate', message: expect.any(String) }]);
    });

    it('checks label and required', () => {
      expect(
        checkDefinition({ name: 'x', type: 'text', label: '  Nick  ', required: true }).definition,
      ).toMatchObject({
        label: 'Nick',
        required: true,
      });
      const r = checkDefinition({ name: 'x', type: 'text', label: ' ', required: 'yes' });
      expect(r.errors.map((e) => [e.path, e.code])).toEqual([
        ['label', 'isNotEmpty'],
        ['required', 'isBoolean'],
      ]);
      expect(checkDefinition({ name: 'x', type: 'text', label: null }).errors[0].code).toBe('isString');
      expect(checkDefinition({ name: 'x', type: 'text', label: 'x'.repeat(201) }).errors[0].code).toBe(
        'maxLength',
      );
    });

    it('reports every problem of a definition at once', () => {
      const r = checkDefinition({ name: 'email', type: 'richText', label: 5, required: 1 });
      expect(r.errors.map((e) => e.path)).toEqual(['name', 'type', 'label', 'required']);
    });
  });

  describe('checkConfigFields (users.fields at boot)', () => {
    it('answers the clean definitions in config order', () => {
      const r = checkConfigFields([
        { name: 'department', type: 'text', required: true },
        { name: 'plan', type: 'select', label: 'Plan', options: ['free', 'pro'], unique: false },
      ]);
      expect(r.problems).toEqual([]);
      expect(r.definitions).toEqual([
        { name: 'department', type: 'text', label: 'Department', required: true, options: null },
        { name: 'plan', type: 'select', label: 'Plan', required: false, options: ['free', 'pro'] },
      ]);
      expect(checkConfigFields(undefined)).toEqual({ definitions: [], problems: [] });
    });

    it('names each bad entry', () => {
      const r = checkConfigFields([
        { name: 'email', type: 'text' },
        { name: 'body', type: 'richText' },
        { name: 'code', type: 'text', unique: true, defaultValue: 'x' },
        { name: 'Dept', type: 'text' },
        { name: 'dept', type: 'number' },
        'oops',
      ]);
      expect(r.problems).toEqual([
        expect.stringMatching(/^users\.fields\[0\] \("email"\): .*core user field/),
        expect.stringMatching(/^users\.fields\[1\] \("body"\): type must be one of/),
        'users.fields[2] ("code"): "unique" is not supported on user fields',
        'users.fields[2] ("code"): "defaultValue" is not supported on user fields',
        'users.fields[4] ("dept"): the name is already used by "Dept"',
        'users.fields[5] must be a field object',
      ]);
      expect(checkConfigFields({}).problems).toEqual(['users.fields must be an array']);
    });

    it('refuses the reserved names in code-defined fields too, in any spelling', () => {
      const r = checkConfigFields([
        { name: 'passwordHash', type: 'text' },
        { name: 'password_hash', type: 'text' },
        { name: 'MustChangePassword', type: 'checkbox' },
        { name: 'locked_until', type: 'date' },
        { name: 'sid', type: 'text' },
        { name: 'department', type: 'text' },
      ]);
      expect(r.problems).toEqual([
        expect.stringMatching(/^users\.fields\[0\] \("passwordHash"\): .*core user field/),
        expect.stringMatching(/^users\.fields\[1\] \("password_hash"\): .*core user field/),
        expect.stringMatching(/^users\.fields\[2\] \("MustChangePassword"\): .*core user field/),
        expect.stringMatching(/^users\.fields\[3\] \("locked_until"\): .*core user field/),
        expect.stringMatching(/^users\.fields\[4\] \("sid"\): .*core user field/),
      ]);
      expect(r.definitions.map((d) => d.name)).toEqual(['department']);
    });
  });

  describe('presentValues', () => {
    it('shows every defined field, null when unset, and nothing of undefined ones', () => {
      expect(
        presentValues(FIELDS, { nickname: 'Bob', age: 3, removedField: 'secret', prefs: { a: 1 } }),
      ).toEqual({
        nickname: 'Bob',
        bio: null,
        backupEmail: null,
        age: 3,
        newsletter: null,
        birthday: null,
        plan: null,
        prefs: { a: 1 },
        department: null,
      });
      expect(presentValues([], { a: 1 })).toEqual({});
      expect(presentValues([f('a', 'text')], null)).toEqual({ a: null });
    });

    it('hides a stored value that no longer fits the definition (type changed, option removed)', () => {
      const custom = { plan: 'legacy', age: 'forty', birthday: '2020-01-01' };
      expect(
        presentValues(
          [f('plan', 'select', { options: ['free'] }), f('age', 'number'), f('birthday', 'date')],
          custom,
        ),
      ).toEqual({ plan: null, age: null, birthday: '2020-01-01' });
    });

    it('reads own keys only', () => {
      const custom = Object.create({ nickname: 'inherited' }) as Record<string, unknown>;
      expect(presentValues([f('nickname', 'text')], custom)).toEqual({ nickname: null });
    });
  });

  it('humanizes names into labels', () => {
    expect(humanizeName('phoneNumber')).toBe('Phone number');
    expect(humanizeName('phone_number')).toBe('Phone number');
    expect(humanizeName('department')).toBe('Department');
    expect(humanizeName('homeURL')).toBe('Home URL');
    expect(humanizeName('URLPath')).toBe('URL path');
    expect(humanizeName('a')).toBe('A');
    expect(humanizeName('address2_line')).toBe('Address2 line');
  });
});
