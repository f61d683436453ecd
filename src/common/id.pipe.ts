import { PipeTransform } from '@nestjs/common';
import { ServiceError } from './errors';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A path id that must be a UUID. Anything else cannot name a row, so it is 404 NOT_FOUND (never
 * a 400, and never a database error from casting it to uuid).
 */
export class IdPipe implements PipeTransform<unknown, string> {
  constructor(private readonly what: string) {}

  transform(value: unknown): string {
    return parseId(value, this.what);
  }
}

/** The lower-cased UUID, or 404 NOT_FOUND naming `what`. */
export function parseId(value: unknown, what: string): string {
  if (typeof value !== 'string' || !UUID.test(value)) {
    throw new ServiceError('NOT_FOUND', `No such ${what}`);
  }
  return value.toLowerCase();
}
