import { ValidationError, ValidationPipe } from '@nestjs/common';
import { ServiceError, ValidationIssue } from './errors';

/** class-validator constraint names that have a plainer name for clients. */
const RENAMED: Record<string, string> = {
  whitelistValidation: 'unknown_field',
  isDefined: 'required',
  unknownValue: 'invalid_body',
};

export function flattenValidationErrors(errors: ValidationError[], parent = ''): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const e of errors) {
    const path = parent ? `${parent}.${e.property}` : e.property;
    for (const [constraint, message] of Object.entries(e.constraints ?? {})) {
      issues.push({ path, code: RENAMED[constraint] ?? constraint, message });
    }
    if (e.children?.length) {
      issues.push(...flattenValidationErrors(e.children, path));
    }
  }
  return issues;
}

/** Strict: unknown fields are refused, not dropped; values are transformed to the DTO's types. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => ServiceError.validation(flattenValidationErrors(errors)),
  });
}
