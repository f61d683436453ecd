import { ServiceError } from '../../../common/errors';
import { isUniqueViolation, PG_ERROR, pgError } from '../../../database/pg-errors';
import { type Definition, tableOf } from '../content.types';
import { fieldIndexName } from '../schema';

export function entryNotFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such entry');
}

/**
 * Runs `work` turning the database errors an entry request can meet into answers: a unique value
 * taken (409 DUPLICATE), a related entry deleted meanwhile (400), a table or column changed by
 * another instance's schema change (`schemaChanged` is called, so the registry reloads; 409
 * CONFLICT: retry).
 */
export async function withEntryErrors<T>(
  def: Definition,
  work: () => Promise<T>,
  schemaChanged: () => void,
): Promise<T> {
  try {
    return await work();
  } catch (e) {
    const err = pgError(e);
    if (!err) {
      throw e;
    }
    if (isUniqueViolation(e)) {
      const table = tableOf(def);
      const field = def.fields.find((f) => fieldIndexName(table, f.name, 'key') === err.constraint);
      const path = field?.name ?? '';
      throw new ServiceError('DUPLICATE', `Another entry already has this ${path || 'value'}`, {
        errors: [{ path, code: 'unique', message: `${path || 'the value'} must be unique` }],
      });
    }
    if (err.code === PG_ERROR.foreignKeyViolation || err.code === PG_ERROR.checkViolation) {
      throw ServiceError.validation(
        [
          {
            path: '',
            code: 'constraint',
            message: 'A value does not fit the collection (changed meanwhile?)',
          },
        ],
        'The entry does not fit the collection',
      );
    }
    if (err.code === PG_ERROR.undefinedColumn || err.code === PG_ERROR.undefinedTable) {
      schemaChanged();
      throw new ServiceError('CONFLICT', 'The schema changed while the request ran; retry it');
    }
    throw e;
  }
}
