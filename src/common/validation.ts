import { ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
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

type BodyRules = (body: Record<string, unknown>) => ValidationIssue[];

/**
 * Rules of body DTOs that only declare their keys and leave the values to a service's reader:
 * when the pipe refuses such a body (an unknown key), the reader's problems are added, so one
 * answer lists every problem rather than the unknown key alone.
 */
const BODY_RULES = new Map<unknown, BodyRules>();

/** Registers the value rules of a declare-only DTO (see BODY_RULES). */
export function bodyRules(dto: abstract new () => unknown, rules: BodyRules): void {
  BODY_RULES.set(dto, rules);
}

/** Strict: unknown fields are refused, not dropped; values are transformed to the DTO's types. */
class StrictValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    try {
      return await super.transform(value, metadata);
    } catch (e) {
      const rules = BODY_RULES.get(metadata.metatype);
      const refused =
        e instanceof ServiceError ? (e.data?.errors as ValidationIssue[] | undefined) : undefined;
      if (!rules || !refused || typeof value !== 'object' || value === null || Array.isArray(value)) {
        throw e;
      }
      throw ServiceError.validation([...refused, ...rules(value as Record<string, unknown>)]);
    }
  }
}

export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => ServiceError.validation(flattenValidationErrors(errors)),
  });
}
