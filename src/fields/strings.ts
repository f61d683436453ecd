import { stringProblem } from '../common/input';

/**
 * PostgreSQL text and jsonb cannot hold NUL, and jsonb refuses unpaired UTF-16 surrogates: the
 * body rule of common/input (`stringProblem`), as a yes/no for values checked field by field.
 */
export function isStorableString(s: string): boolean {
  return stringProblem(s) === null;
}
