import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate } from 'class-validator';
import { ServiceError, ValidationIssue } from '../../common/errors';
import { flattenValidationErrors } from '../../common/validation';
import type { UserFieldsService } from '../user-fields/user-fields.service';

type Dto<T> = new () => T;

/**
 * A user body is the DTO's core keys plus custom user fields. The core part is validated by its
 * DTO, the rest by the user-field definitions (an undefined key is `unknown_field`); every
 * problem of both is reported at once, as one VALIDATION_ERROR.
 */
export async function parseUserInput<T extends object>(
  dto: Dto<T>,
  body: unknown,
  userFields: UserFieldsService,
  opts: { partial: boolean },
): Promise<{ core: T; custom: Record<string, unknown> }> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw ServiceError.validation([
      { path: '', code: 'invalid_body', message: 'The body must be a JSON object' },
    ]);
  }
  const coreKeys = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(dto, '', true, false)
      .map((m) => m.propertyName),
  );
  const corePart: Record<string, unknown> = {};
  const customPart: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    (coreKeys.has(key) ? corePart : customPart)[key] = value;
  }
  const core = plainToInstance(dto, corePart);
  const issues: ValidationIssue[] = flattenValidationErrors(
    await validate(core, {
      whitelist: true,
      forbidNonWhitelisted: true,
      validationError: { target: false, value: false },
    }),
  );
  let custom: Record<string, unknown> = {};
  try {
    custom = await userFields.validateValues(customPart, opts);
  } catch (e) {
    const errors = e instanceof ServiceError && e.code === 'VALIDATION_ERROR' ? e.data?.errors : undefined;
    if (!Array.isArray(errors)) {
      throw e;
    }
    issues.push(...(errors as ValidationIssue[]));
  }
  if (issues.length) {
    throw ServiceError.validation(issues);
  }
  return { core, custom };
}
