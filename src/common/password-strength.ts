import { registerDecorator, ValidationOptions } from 'class-validator';

/** Fixed by the spec (SPEC 8): not configurable. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

/** CONTRACTS 9: 8 to 256 characters with a lower-case letter, an upper-case letter and a digit. */
export function passwordProblem(password: unknown): string | null {
  if (typeof password !== 'string') {
    return 'must be a string';
  }
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    return `must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long`;
  }
  if (!/[a-z]/.test(password) || !/[A-Z]/.test(password) || !/[0-9]/.test(password)) {
    return 'must contain a lower-case letter, an upper-case letter and a digit';
  }
  return null;
}

/** class-validator rule for a password field; the failure code is `passwordStrength`. */
export function IsStrongPassword(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'passwordStrength',
      target: target.constructor,
      propertyName: propertyName as string,
      options,
      validator: {
        validate: (value: unknown) => passwordProblem(value) === null,
        defaultMessage: (args) =>
          `${args?.property ?? 'password'} ${passwordProblem(args?.value) ?? 'is too weak'}`,
      },
    });
}
