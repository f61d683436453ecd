import { Script, createContext } from 'node:vm';
import { compilePattern } from './form-definition';

/**
 * Runs a form's `pattern` against a submitted value with a time limit. A pattern is the form
 * author's, but a catastrophic one (`(a+)+$`) against a long hostile value would hold the event
 * loop for minutes; V8 offers no regex timeout, but a script run in a `vm` context with `timeout`
 * is interrupted in the middle of a regex match too. Values are bounded before they get here
 * (`maxLength`, else 10,000 characters), patterns at definition time (200 characters).
 */

/** The most one submission may spend in pattern matching, all fields together. */
export const PATTERN_BUDGET_MS = 100;
/** The most one value may take. */
const PER_VALUE_MS = 50;
const CACHE_SIZE = 500;

const sandbox = createContext(Object.create(null) as object);
const script = new Script('r.test(v)');
const compiled = new Map<string, RegExp>();

function regexOf(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) {
    if (compiled.size >= CACHE_SIZE) {
      compiled.clear();
    }
    re = compilePattern(pattern);
    compiled.set(pattern, re);
  }
  return re;
}

export type PatternResult = 'match' | 'mismatch' | 'timeout';

/** A budget for one submission's pattern checks. */
export class PatternBudget {
  private readonly deadline = Date.now() + PATTERN_BUDGET_MS;

  test(pattern: string, value: string): PatternResult {
    const left = this.deadline - Date.now();
    if (left <= 0) {
      return 'timeout';
    }
    const box = sandbox as { r?: RegExp; v?: string };
    box.r = regexOf(pattern);
    box.v = value;
    try {
      return script.runInContext(sandbox, { timeout: Math.max(1, Math.min(PER_VALUE_MS, left)) }) === true
        ? 'match'
        : 'mismatch';
    } catch (e) {
      if ((e as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        return 'timeout';
      }
      throw e;
    } finally {
      box.r = undefined;
      box.v = undefined;
    }
  }
}
