import { Transform } from 'class-transformer';

/** UUIDs compare as text in the service (self-links, duplicates): one case for all. */
export const LowerCaseIds = () =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value === 'string') {
      return value.toLowerCase();
    }
    return Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.toLowerCase() : v)) : value;
  });

export { OptionalNotNull, Trim } from '../../../common/dto';
