import { ServiceError } from '../../common/errors';

export function roleNotFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such role');
}

export function permissionNotFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such permission');
}

/** 400 VALIDATION_ERROR naming, per body field, the ids that name no permission. */
export function unknownPermissions(fields: Array<{ path: string; missing: string[] }>): ServiceError {
  return ServiceError.validation(
    fields.map(({ path, missing }) => ({
      path,
      code: 'unknown_permission',
      message: `No permission has the id ${missing.join(', ')}`,
    })),
    'Some permission ids name no permission',
  );
}
