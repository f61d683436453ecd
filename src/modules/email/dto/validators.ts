import type { ApiPropertyOptions } from '@nestjs/swagger';
import { registerDecorator, ValidationOptions } from 'class-validator';

export { OptionalNotNull, Trim } from '../../../common/dto';

const MAX_VARIABLES = 100;
const MAX_VARIABLE_LENGTH = 10_000;

/** What IsTemplateVariables accepts, for the API document (class-validator's metadata names only the rule). */
export const TEMPLATE_VARIABLES: ApiPropertyOptions = {
  required: false,
  type: Object,
  maxProperties: MAX_VARIABLES,
  additionalProperties: {
    anyOf: [
      { type: 'string', maxLength: MAX_VARIABLE_LENGTH },
      { type: 'number' },
      { type: 'boolean' },
      { type: 'null' },
    ],
  },
  description: `The values of the template's {{variables}}: at most ${MAX_VARIABLES}, each a string (at most ${MAX_VARIABLE_LENGTH} characters), a number, a boolean or null`,
};

/** Template variables: a flat object of strings, numbers, booleans or null (at most 100). */
export function IsTemplateVariables(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isTemplateVariables',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `$property must be an object of at most ${MAX_VARIABLES} strings, numbers, booleans or nulls`,
        ...options,
      },
      validator: {
        validate(value: unknown): boolean {
          if (typeof value !== 'object' || value === null || Array.isArray(value)) {
            return false;
          }
          const entries = Object.entries(value as Record<string, unknown>);
          return (
            entries.length <= MAX_VARIABLES &&
            entries.every(
              ([, v]) =>
                v === null ||
                typeof v === 'boolean' ||
                (typeof v === 'number' && Number.isFinite(v)) ||
                (typeof v === 'string' && v.length <= MAX_VARIABLE_LENGTH),
            )
          );
        },
      },
    });
}
