import { ServiceError, ValidationIssue } from '../../../common/errors';

/**
 * Bodies of the bulk routes (`bulk-delete`, `bulk-update`, update by query) and their answers.
 * Pure: ids that are not ids are reported per item, never sent to the database.
 */

export interface BulkResult {
  message: string;
  items: Array<{ id: string }>;
  errors: Array<{ id: string; code: string; message: string }>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids one bulk request may name. */
const MAX_BULK_IDS = 1000;

export function readObject(body: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ServiceError.validation([
      { path: '', code: 'isObject', message: 'the body must be a JSON object' },
    ]);
  }
  const input = body as Record<string, unknown>;
  const unknown = Object.keys(input).filter((k) => !allowed.includes(k));
  if (unknown.length) {
    throw ServiceError.validation(
      unknown.map((k) => ({ path: k, code: 'unknown_field', message: `"${k}" is not accepted here` })),
    );
  }
  return input;
}

export function readIds(body: unknown, allowed: readonly string[]): string[] {
  const input = readObject(body, allowed);
  const ids = input.ids;
  const issues: ValidationIssue[] = [];
  if (!Array.isArray(ids) || ids.length === 0) {
    issues.push({ path: 'ids', code: 'isArray', message: 'ids must be a non-empty array of entry ids' });
  } else if (ids.length > MAX_BULK_IDS) {
    issues.push({ path: 'ids', code: 'arrayMaxSize', message: `ids holds at most ${MAX_BULK_IDS} ids` });
  } else {
    ids.forEach((id, i) => {
      if (typeof id !== 'string') {
        issues.push({ path: `ids.${i}`, code: 'isString', message: 'an id must be a string' });
      }
    });
  }
  if (allowed.includes('data') && input.data === undefined) {
    issues.push({ path: 'data', code: 'required', message: 'data is required' });
  }
  if (issues.length) {
    throw ServiceError.validation(issues);
  }
  return ids as string[];
}

/** The body of `PATCH /collections/{slug}/entries`: `{ where, data, status? }`. */
export function readUpdateWhere(body: unknown): { where: object; data: unknown; status?: unknown } {
  const input = readObject(body, ['where', 'data', 'status']);
  const issues: ValidationIssue[] = [];
  if (typeof input.where !== 'object' || input.where === null || Array.isArray(input.where)) {
    issues.push({
      path: 'where',
      code: 'isObject',
      message: 'where must be an object (use {} for every entry)',
    });
  }
  if (input.data === undefined) {
    issues.push({ path: 'data', code: 'required', message: 'data is required' });
  }
  if (issues.length) {
    throw ServiceError.validation(issues);
  }
  return input as { where: object; data: unknown; status?: unknown };
}

export function splitIds(ids: string[]): { valid: string[]; errors: BulkResult['errors'] } {
  const valid: string[] = [];
  const errors: BulkResult['errors'] = [];
  for (const id of ids) {
    if (UUID.test(id)) {
      valid.push(id.toLowerCase());
    } else {
      errors.push({ id, code: 'NOT_FOUND', message: 'No such entry' });
    }
  }
  return { valid: [...new Set(valid)], errors };
}

export function bulkResult(
  verb: string,
  ids: string[],
  done: string[],
  invalid: BulkResult['errors'],
): BulkResult {
  const doneSet = new Set(done);
  const errors = [...invalid];
  const reported = new Set(invalid.map((e) => e.id));
  for (const id of ids) {
    const lower = id.toLowerCase();
    if (UUID.test(id) && !doneSet.has(lower) && !reported.has(id)) {
      errors.push({ id, code: 'NOT_FOUND', message: 'No such entry' });
      reported.add(id);
    }
  }
  return {
    message: `${done.length} ${done.length === 1 ? 'entry' : 'entries'} ${verb}`,
    items: done.map((id) => ({ id })),
    errors,
  };
}
