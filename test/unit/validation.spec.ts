import { flattenValidationErrors } from '../../src/common/validation';
import { codeForStatus, ERROR_STATUS } from '../../src/common/errors';

describe('flattenValidationErrors', () => {
  it('gives nested and array problems a dotted path and a plain code', () => {
    const issues = flattenValidationErrors([
      { property: 'email', constraints: { isEmail: 'email must be an email' }, children: [] },
      { property: 'extra', constraints: { whitelistValidation: 'property extra should not exist' } },
      {
        property: 'items',
        children: [
          { property: '0', children: [{ property: 'qty', constraints: { isDefined: 'qty is required' } }] },
        ],
      },
    ]);
    expect(issues).toEqual([
      { path: 'email', code: 'isEmail', message: 'email must be an email' },
      { path: 'extra', code: 'unknown_field', message: 'property extra should not exist' },
      { path: 'items.0.qty', code: 'required', message: 'qty is required' },
    ]);
  });
});

describe('error code table', () => {
  it('maps each SPEC 7 code to its status', () => {
    expect(ERROR_STATUS).toMatchObject({
      VALIDATION_ERROR: 400,
      AUTH_REQUIRED: 401,
      REFRESH_SUPERSEDED: 401,
      SETUP_COMPLETE: 403,
      CSRF_FAILED: 403,
      DUPLICATE: 409,
      PAYLOAD_TOO_LARGE: 413,
      UNSUPPORTED_MEDIA_TYPE: 415,
      INVALID_INPUT: 422,
      RATE_LIMITED: 429,
      DATABASE_ERROR: 500,
      SERVICE_UNAVAILABLE: 503,
    });
  });

  it('gives a code to every status Nest or Express may raise', () => {
    expect(codeForStatus(404)).toBe('NOT_FOUND');
    expect(codeForStatus(413)).toBe('PAYLOAD_TOO_LARGE');
    expect(codeForStatus(502)).toBe('INTERNAL_ERROR');
    expect(codeForStatus(418)).toBe('VALIDATION_ERROR');
  });
});
