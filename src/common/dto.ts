import { Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';

/** Leading and trailing white space never belongs to a name, an address or a slug. */
export const Trim = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));

/**
 * Optional, but not nullable: absent is fine, `null` is validated (and refused) like any other
 * wrong type. (`@IsOptional()` would let `null` through to a NOT NULL column.)
 */
export const OptionalNotNull = () => ValidateIf((_o, v) => v !== undefined);
