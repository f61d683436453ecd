import bcrypt from 'bcrypt';
import { registerDecorator, ValidationOptions } from 'class-validator';

/** Fixed by the spec (SPEC 8): not configurable. */
export const BCRYPT_ROUNDS = 12;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

/**
 * A real bcrypt(12) hash of a random string: compared against when an account is unknown (or has
 * no password), so a refusal costs the same bcrypt work as a wrong password.
 */
const DUMMY_HASH = '$2b$12$NC9KC87mQAk98v7iugzRte3CSeSMYvfsJYhEd6AhE38tv.LeR4cSa';

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_ROUNDS);
}

export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  const ok = await bcrypt.compare(password, hash ?? DUMMY_HASH);
  return ok && hash !== null;
}

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
