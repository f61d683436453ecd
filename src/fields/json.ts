/**
 * JSON values as fields hold them (user-field and content `json`, content rich text): one walker
 * for what PostgreSQL's jsonb can store, and the check that bounds depth and size. The request
 * body's own walk (common/input.ts `inputProblem`) is a different rule: it runs before any field
 * is known, lists every bad string with its path and refuses prototype keys; both refuse the same
 * strings (`isStorableString` is its `stringProblem`).
 */
import { isStorableString } from './strings';

/** How deep and how long (serialised) a JSON value may be. */
export interface JsonLimits {
  maxDepth: number;
  maxLength: number;
}

export type JsonCheck = { ok: true; value: unknown } | { ok: false; code: string; message: string };

/** A plain object (`{}` or `Object.create(null)`), not an array, a Date or a class instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Any JSON value (null, booleans, finite numbers, strings, arrays, plain objects) of at most
 * `maxDepth` levels whose strings and keys PostgreSQL's jsonb can hold; null, or what is wrong.
 */
export function jsonProblem(value: unknown, maxDepth: number, depth = 0): string | null {
  if (depth > maxDepth) {
    return `must be at most ${maxDepth} levels deep`;
  }
  if (value === null || typeof value === 'boolean') {
    return null;
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? null : 'must hold finite numbers only';
  }
  if (typeof value === 'string') {
    return isStorableString(value) ? null : 'holds characters that cannot be stored';
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const p = jsonProblem(item, maxDepth, depth + 1);
      if (p !== null) {
        return p;
      }
    }
    return null;
  }
  if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (!isStorableString(k)) {
        return 'holds a key that cannot be stored';
      }
      const p = jsonProblem(v, maxDepth, depth + 1);
      if (p !== null) {
        return p;
      }
    }
    return null;
  }
  return 'must be a JSON value';
}

/**
 * A JSON value within `limits` (`isJson`, `maxLength`; messages start with `name`), answered as a
 * copy: the caller's object can change after validation without changing what is stored.
 */
export function checkJson(name: string, value: unknown, limits: JsonLimits): JsonCheck {
  const problem = jsonProblem(value, limits.maxDepth);
  if (problem !== null) {
    return { ok: false, code: 'isJson', message: `${name} ${problem}` };
  }
  const text = JSON.stringify(value);
  if (text.length > limits.maxLength) {
    return {
      ok: false,
      code: 'maxLength',
      message: `${name} must be at most ${limits.maxLength} characters as JSON`,
    };
  }
  return { ok: true, value: JSON.parse(text) as unknown };
}
