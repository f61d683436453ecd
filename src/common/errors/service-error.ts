import { ERROR_STATUS, ErrorCode } from './error-codes';

export interface ValidationIssue {
  path: string;
  code: string;
  message: string;
}

/**
 * The one error type services throw. The status comes from the code (SPEC 7), never from the
 * thrower, so a code always answers with the same status.
 */
export class ServiceError extends Error {
  readonly status: number;
  /** A 429's rate-limit budget (`global`, `sign-in`, `api-key`...), for the metrics; never sent. */
  budget?: string;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ServiceError';
    this.status = ERROR_STATUS[code];
  }

  /** The 429 of a spent rate-limit budget. */
  static rateLimited(budget: string, message: string, data?: Record<string, unknown>): ServiceError {
    const e = new ServiceError('RATE_LIMITED', message, data);
    e.budget = budget;
    return e;
  }

  /** `omitted`: problems found beyond `errors` (a capped list), answered as `omittedErrors`. */
  static validation(
    errors: ValidationIssue[],
    message = 'The request is not valid',
    omitted = 0,
  ): ServiceError {
    return new ServiceError(
      'VALIDATION_ERROR',
      message,
      omitted > 0 ? { errors, omittedErrors: omitted } : { errors },
    );
  }
}
