/**
 * Names and slugs: the patterns a field name or a definition slug must match, the names no field
 * may take whoever defines it, and the one check that reports a bad name. Field names become SQL
 * identifiers (content columns) and object keys (user records, token claims), so both kinds of
 * field share the pattern.
 */
import type { ValidationIssue } from '../common/errors';

/** A field name: a letter, then letters, digits and `_`; at most 63 characters (a PostgreSQL identifier). */
export const FIELD_NAME_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]{0,62}$/;
export const FIELD_NAME_SHAPE =
  'start with a letter and hold only letters, digits and _ (at most 63 characters)';

/** A definition slug: a lowercase letter, then a-z, 0-9 and `-`; at most 63 characters. */
export const SLUG_PATTERN = /^[a-z][a-z0-9-]{0,62}$/;
export const SLUG_SHAPE =
  'start with a lowercase letter and hold only a-z, 0-9 and - (at most 63 characters)';

/** The members of Object.prototype: traps for any client that reads a record as a plain object. */
export const OBJECT_MEMBER_NAMES: readonly string[] = [
  'constructor',
  'prototype',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  'toString',
  'valueOf',
];

/**
 * The claim names of the service's JWTs: the access token's own (`email`, `name`, `roleIds`,
 * `ver`), RFC 7519's registered ones, `sid`, and `typ` of the header. Custom user fields travel as
 * claims beside them, so a user field may take none of these and the signer never lets one
 * overwrite them.
 */
export const JWT_CLAIM_NAMES: readonly string[] = [
  'sub',
  'email',
  'name',
  'roleIds',
  'ver',
  'iat',
  'exp',
  'nbf',
  'iss',
  'aud',
  'typ',
  'jti',
  'sid',
];

/** A name as reserved lists compare it when spellings must not matter: lower case, without `_` and `-`. */
export function foldName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** How one kind of name is checked (a user-field name, a content field name, a slug). */
export interface NameRule {
  /** The key as messages name it: `name`, `slug`. */
  key: string;
  pattern: RegExp;
  /** What the pattern asks, ending "<key> must ...". */
  shape: string;
  /** null counts as missing (`required`); otherwise it is not a string (`isString`). */
  nullIsMissing: boolean;
  /** Why a well-formed name is refused (reserved, ...), or null. */
  refuse?: (name: string) => { code: string; message: string } | null;
}

/**
 * Checks a name by its rule: present, a string, matching the pattern, not refused. Answers the
 * name, or undefined with one issue at `path`.
 */
export function checkNameRule(
  value: unknown,
  path: string,
  rule: NameRule,
  errors: ValidationIssue[],
): string | undefined {
  if (value === undefined || (rule.nullIsMissing && value === null)) {
    errors.push({ path, code: 'required', message: `${rule.key} is required` });
    return undefined;
  }
  if (typeof value !== 'string') {
    errors.push({ path, code: 'isString', message: `${rule.key} must be a string` });
    return undefined;
  }
  if (!rule.pattern.test(value)) {
    errors.push({ path, code: 'matches', message: `${rule.key} must ${rule.shape}` });
    return undefined;
  }
  const refused = rule.refuse?.(value) ?? null;
  if (refused) {
    errors.push({ path, code: refused.code, message: refused.message });
    return undefined;
  }
  return value;
}

/** What a kind of field (user field, content field) adds to the field-name rule. */
export interface FieldNameKind {
  /** null counts as missing (`required`); otherwise it is not a string (`isString`). */
  nullIsMissing: boolean;
  /** Why this kind of field may not take the name (`is reserved ...`), or null. */
  reserved: (name: string) => string | null;
}

/** Checks a field name: FIELD_NAME_PATTERN, then the names its kind reserves (`reserved`). */
export function checkFieldName(
  value: unknown,
  path: string,
  kind: FieldNameKind,
  errors: ValidationIssue[],
): string | undefined {
  const rule: NameRule = {
    key: 'name',
    pattern: FIELD_NAME_PATTERN,
    shape: FIELD_NAME_SHAPE,
    nullIsMissing: kind.nullIsMissing,
    refuse: (name) => {
      const why = kind.reserved(name);
      return why === null ? null : { code: 'reserved', message: `name "${name}" ${why}` };
    },
  };
  return checkNameRule(value, path, rule, errors);
}
