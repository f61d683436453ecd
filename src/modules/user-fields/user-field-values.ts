/**
 * User-field definitions and values: the rules, as pure functions (no Nest, no TypeORM), so they
 * are unit-tested in milliseconds and shared by the boot check of `users.fields`, the REST
 * definitions and the value validation the accounts module calls. The rules content shares (names,
 * labels, options, the value checks) are src/fields'; this file adds what only user fields have.
 */
import type { ValidationIssue } from '../../common/errors';
import {
  checkFieldName,
  checkLabel,
  checkOptionsFor,
  checkValue,
  FIELD_NAME_PATTERN,
  type FieldNameKind,
  type FieldOption,
  foldName,
  humanizeName,
  isPlainObject,
  JWT_CLAIM_NAMES,
  OBJECT_MEMBER_NAMES,
  VALUE_FIELD_TYPES,
  type ValueFieldType,
} from '../../fields';

/** The user-fields service checks labels and options of a changed definition with these. */
export { checkLabel, checkOptionsFor } from '../../fields';

/** The field types a user field may have (CONTRACTS 6 minus the content-only ones). */
export const USER_FIELD_TYPES = VALUE_FIELD_TYPES;
export type UserFieldType = ValueFieldType;

export type UserFieldOption = FieldOption;

/** The user-field definition record (CONTRACTS 12). `options` is present for `select` only. */
export interface UserFieldDefinition {
  id: string;
  name: string;
  type: UserFieldType;
  label: string;
  required: boolean;
  options?: UserFieldOption[];
  order: number;
  source: 'code' | 'ui';
}

/** What the rules need of a definition (a config entry has no id or order yet). */
export type FieldRules = Pick<UserFieldDefinition, 'name' | 'type' | 'required' | 'options'>;

export const USER_FIELD_NAME = FIELD_NAME_PATTERN;

/**
 * Names a user field may not take: the user record's and the session user's own keys, the keys
 * the user bodies accept beside custom values (`POST /users`, `PATCH /users/{id}`, `PATCH /me`),
 * the account's stored state under its code and column names (a custom `passwordHash` would be
 * echoed next to the record and read by anyone who merges the two), the access token's claim
 * names (custom fields of the config travel as claims), and the names of Object.prototype
 * members, which are traps for any client that reads a record as a plain object.
 *
 * Compared folded (`foldName`): case, `_` and `-` do not count, so `password_hash`,
 * `PasswordHash` and `passwordhash` are one name.
 */
export const RESERVED_USER_FIELD_NAMES: readonly string[] = [
  // user record and session user (CONTRACTS 4)
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
  // other keys of the user bodies
  'password',
  'requirePasswordChange',
  'sendInvite',
  // the account's stored state (users table and its row type; the columns fold to the same)
  'passwordHash',
  'emailVerifiedAt',
  'failedLoginCount',
  'lockedUntil',
  'mustChangePassword',
  'custom',
  'password_hash',
  'email_verified_at',
  'is_active',
  'failed_login_count',
  'locked_until',
  'must_change_password',
  'last_login_at',
  'created_at',
  'updated_at',
  // JWT claims (the access token's, RFC 7519 registered ones, `sid`, and `typ` of the header)
  ...JWT_CLAIM_NAMES,
  // Object.prototype
  ...OBJECT_MEMBER_NAMES,
];

const RESERVED = new Set(RESERVED_USER_FIELD_NAMES.map(foldName));

export function isReservedUserFieldName(name: string): boolean {
  return RESERVED.has(foldName(name));
}

// ---------------------------------------------------------------------------------------------
// Definitions

/** A definition as given (a config entry or a REST body), before it is trusted. */
export interface DefinitionInput {
  name?: unknown;
  type?: unknown;
  label?: unknown;
  required?: unknown;
  options?: unknown;
}

export interface CleanDefinition {
  name: string;
  type: UserFieldType;
  label: string;
  required: boolean;
  options: UserFieldOption[] | null;
}

/**
 * Checks a whole definition: name (pattern, not reserved), type (a user-field type), label,
 * required, options (select only, and required there). Options are trimmed; the label defaults to
 * the humanised name. Every problem is one issue, `path` relative to the definition.
 */
export function checkDefinition(input: DefinitionInput): {
  definition?: CleanDefinition;
  errors: ValidationIssue[];
} {
  const errors: ValidationIssue[] = [];
  const name = checkName(input.name, errors);
  const type = checkType(input.type, errors);
  let label: string | undefined;
  if (input.label !== undefined) {
    label = checkLabel(input.label, errors);
  }
  if (input.required !== undefined && typeof input.required !== 'boolean') {
    errors.push({ path: 'required', code: 'isBoolean', message: 'required must be a boolean' });
  }
  const options = type ? checkOptionsFor(type, input.options, errors) : null;
  if (errors.length || name === undefined || type === undefined) {
    return { errors };
  }
  return {
    definition: {
      name,
      type,
      label: label ?? humanizeName(name),
      required: input.required === true,
      options,
    },
    errors,
  };
}

const USER_FIELD_NAMES: FieldNameKind = {
  nullIsMissing: false,
  reserved: (name) => (isReservedUserFieldName(name) ? 'is taken by a core user field or token claim' : null),
};

export function checkName(value: unknown, errors: ValidationIssue[]): string | undefined {
  return checkFieldName(value, 'name', USER_FIELD_NAMES, errors);
}

export function checkType(value: unknown, errors: ValidationIssue[]): UserFieldType | undefined {
  if (value === undefined) {
    errors.push({ path: 'type', code: 'required', message: 'type is required' });
    return undefined;
  }
  if (typeof value !== 'string' || !(USER_FIELD_TYPES as readonly string[]).includes(value)) {
    errors.push({
      path: 'type',
      code: 'isIn',
      message: `type must be one of ${USER_FIELD_TYPES.join(', ')} (user fields support no other type)`,
    });
    return undefined;
  }
  return value as UserFieldType;
}

/** Keys of a config field entry (CONTRACTS 6) that mean nothing for a user field. */
const CONTENT_ONLY_KEYS = [
  'unique',
  'index',
  'defaultValue',
  'hasMany',
  'relationTo',
  'fieldGroup',
  'repeatable',
];

/**
 * Checks `users.fields` of the config: each entry as a definition, no key a user field cannot
 * honour (`unique: true` silently ignored would be a lie), names unique (case-insensitively).
 * Answers the clean definitions in config order, or the problems, each naming its entry.
 */
export function checkConfigFields(fields: unknown): { definitions: CleanDefinition[]; problems: string[] } {
  const problems: string[] = [];
  const definitions: CleanDefinition[] = [];
  if (fields === undefined || fields === null) {
    return { definitions, problems };
  }
  if (!Array.isArray(fields)) {
    return { definitions, problems: ['users.fields must be an array'] };
  }
  const seen = new Map<string, string>();
  fields.forEach((entry: unknown, i) => {
    if (!isPlainObject(entry)) {
      problems.push(`users.fields[${i}] must be a field object`);
      return;
    }
    const where = `users.fields[${i}]${typeof entry.name === 'string' ? ` ("${entry.name}")` : ''}`;
    for (const key of CONTENT_ONLY_KEYS) {
      if (entry[key] !== undefined && entry[key] !== false) {
        problems.push(`${where}: "${key}" is not supported on user fields`);
      }
    }
    const { definition, errors } = checkDefinition(entry);
    for (const e of errors) {
      problems.push(`${where}: ${e.message}`);
    }
    if (definition) {
      const lower = definition.name.toLowerCase();
      const earlier = seen.get(lower);
      if (earlier !== undefined) {
        problems.push(`${where}: the name is already used by "${earlier}"`);
      } else {
        seen.set(lower, definition.name);
        definitions.push(definition);
      }
    }
  });
  return { definitions, problems };
}

// ---------------------------------------------------------------------------------------------
// Values

export interface ValuesResult {
  /** The cleaned values of the keys given (nothing for absent keys). */
  values: Record<string, unknown>;
  /** One entry per problem, `path` the field name; empty when the input is valid. */
  errors: ValidationIssue[];
}

/**
 * Validates custom field values against the definitions. Keys that name no field are
 * `unknown_field`; each value is checked by its field's type; a required field may never be set
 * to null or blank; and unless `partial`, every required field must be given. Problems are
 * reported in the input's key order, then missing required fields in definition order.
 */
export function validateValues(
  fields: readonly FieldRules[],
  input: unknown,
  opts: { partial: boolean },
): ValuesResult {
  const errors: ValidationIssue[] = [];
  const values: Record<string, unknown> = {};
  if (!isPlainObject(input)) {
    errors.push({ path: '', code: 'isObject', message: 'custom field values must be an object' });
    return { values, errors };
  }
  const byName = new Map(fields.map((f) => [f.name, f]));
  for (const [key, raw] of Object.entries(input)) {
    const field = byName.get(key);
    if (!field) {
      errors.push({ path: key, code: 'unknown_field', message: `${key} is not a user field` });
      continue;
    }
    if (raw === undefined) {
      continue;
    }
    const checked = checkValue(field, raw);
    if (!checked.ok) {
      errors.push({ path: key, code: checked.code, message: checked.message });
    } else if (checked.value === null && field.required) {
      errors.push({ path: key, code: 'required', message: `${key} is required and cannot be empty` });
    } else {
      values[key] = checked.value;
    }
  }
  if (!opts.partial) {
    for (const field of fields) {
      const given = Object.prototype.hasOwnProperty.call(input, field.name) ? input[field.name] : undefined;
      if (field.required && given === undefined) {
        errors.push({ path: field.name, code: 'required', message: `${field.name} is required` });
      }
    }
  }
  return { values, errors };
}

/**
 * The stored values of the given fields, every field present (null when it has no value, or when
 * the stored value does not fit the field as it is defined now: a changed type, a removed select
 * option). Keys of fields no longer defined are left out.
 */
export function presentValues(
  fields: readonly FieldRules[],
  custom: Record<string, unknown> | null | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const stored =
      custom && Object.prototype.hasOwnProperty.call(custom, field.name) ? custom[field.name] : null;
    if (stored === null || stored === undefined) {
      out[field.name] = null;
      continue;
    }
    if (field.type === 'json') {
      // Read from jsonb, so it is JSON already; no copy on this hot path.
      out[field.name] = stored;
      continue;
    }
    const checked = checkValue(field, stored);
    out[field.name] = checked.ok ? checked.value : null;
  }
  return out;
}
