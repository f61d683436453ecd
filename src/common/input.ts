import type { ValidationIssue } from './errors';

/**
 * The deepest nesting a JSON body may have. Real bodies (content entries with components, a
 * `where` with and/or) stay far below; anything that walks a body recursively (class-transformer,
 * validation, JSON.stringify) is safe up to it.
 */
export const MAX_BODY_DEPTH = 64;
/**
 * In Unicode mode a paired surrogate is read as one code point, so only an unpaired one is in
 * category Cs (what `String#isWellFormed` answers, which Node 20's TypeScript lib lacks).
 */
const LONE_SURROGATE = /\p{Cs}/u;
/**
 * Keys no body may hold, at any depth: `__proto__` rewrites an object's prototype when a body is
 * copied or merged, and `constructor`/`prototype` make class-transformer build objects from the
 * input (a crash, or worse). No field of the service is named so (content and user-field names
 * reserve them too), so refusing them costs nothing legitimate.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** Problems listed at most per request: enough to fix a body, bounded for a hostile one. */
const MAX_ISSUES = 20;

/**
 * Why a string may not be stored, or null. PostgreSQL refuses NUL in text and jsonb, and an
 * unpaired UTF-16 surrogate has no UTF-8 form (it would be stored as U+FFFD, changing the data,
 * or refused as an escape by jsonb). One rule for every string a client sends.
 */
export function stringProblem(s: string): string | null {
  if (s.includes('\u0000')) {
    return 'must not contain a NUL character';
  }
  if (LONE_SURROGATE.test(s)) {
    return 'must be well-formed Unicode (an unpaired surrogate is not)';
  }
  return null;
}

/**
 * Checks a parsed JSON body without recursion: nesting deeper than MAX_BODY_DEPTH (one issue,
 * found before anything else walks the body), no FORBIDDEN_KEYS, and every key and string value
 * by `stringProblem` (`path` as validation paths are written: `a.b.0.c`).
 */
export function inputProblem(body: unknown): { message: string; issues: ValidationIssue[] } | null {
  const issues: ValidationIssue[] = [];
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }];
  while (stack.length && issues.length < MAX_ISSUES) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const problem = stringProblem(value);
      if (problem) {
        issues.push({ path, code: 'invalidString', message: `${path || 'the body'} ${problem}` });
      }
      continue;
    }
    if (typeof value !== 'object' || value === null) {
      continue;
    }
    if (depth >= MAX_BODY_DEPTH) {
      return {
        message: `The request body nests deeper than ${MAX_BODY_DEPTH} levels`,
        issues: [{ path, code: 'maxDepth', message: `nesting deeper than ${MAX_BODY_DEPTH} levels` }],
      };
    }
    const entries: Array<[string, unknown]> = Array.isArray(value)
      ? value.map((v, i) => [String(i), v])
      : Object.entries(value);
    for (const [key, child] of entries) {
      const at = path ? `${path}.${key}` : key;
      const keyProblem = Array.isArray(value)
        ? null
        : FORBIDDEN_KEYS.has(key)
          ? `may not be "${key}"`
          : stringProblem(key);
      if (keyProblem) {
        issues.push({ path: at, code: 'invalidString', message: `a field name ${keyProblem}` });
        continue;
      }
      stack.push({ value: child, path: at, depth: depth + 1 });
    }
  }
  return issues.length ? { message: 'The request body holds strings that cannot be stored', issues } : null;
}
