/**
 * Answer schemas of the TOTP routes (the OpenAPI document), written from totp.controller.ts and
 * `TotpStore.status`.
 */
import { BOOLEAN, INTEGER, namedSchema, objectSchema, schemaRef, STRING } from '../api';

/** `GET status`: whether TOTP is on, an enrolment waits for its first code, and the recovery codes left. */
export const TOTP_STATUS = namedSchema(
  'Totp_Status',
  objectSchema({
    enabled: BOOLEAN,
    pending: BOOLEAN,
    recoveryCodesRemaining: { ...INTEGER, minimum: 0 },
  }),
);

/** `POST enroll`: the new secret, shown this once (base32, as a URL for apps, and as a QR code). */
export const TOTP_ENROLMENT = namedSchema(
  'Totp_Enrolment',
  objectSchema({
    secret: { ...STRING, description: 'The shared secret, base32' },
    otpauthUrl: { ...STRING, description: 'The `otpauth://totp/...` URL the QR code holds' },
    qrSvg: { ...STRING, description: 'The QR code of `otpauthUrl`, an SVG document' },
  }),
);

/** `POST enroll/confirm`: TOTP is on; the recovery codes, shown this once. */
export const TOTP_CONFIRMATION = namedSchema(
  'Totp_Confirmation',
  objectSchema({
    message: STRING,
    recoveryCodes: { type: 'array', items: STRING, description: 'Single-use codes, shown this once' },
  }),
);

const RECOVERY_CODES = { type: 'array', items: STRING, description: 'Single-use codes, shown this once' };

/**
 * `POST enroll/confirm` with the pending token of an `mfa-enrol` step (CONTRACTS 14.2): TOTP is
 * on and the sign-in goes on: the session (its cookies set), or the next step (a password the
 * user must replace), each with the recovery codes.
 */
export const TOTP_CONFIRMATION_ANSWER = {
  anyOf: [
    TOTP_CONFIRMATION,
    objectSchema({
      message: STRING,
      user: schemaRef('SessionUser'),
      token: STRING,
      exp: INTEGER,
      recoveryCodes: RECOVERY_CODES,
    }),
    objectSchema({
      status: { type: 'string', const: 'challenge' },
      challengeType: STRING,
      pendingToken: STRING,
      uiHint: { type: ['string', 'null'] },
      recoveryCodes: RECOVERY_CODES,
    }),
  ],
};
