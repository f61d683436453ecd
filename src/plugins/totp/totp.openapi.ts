/**
 * Answer schemas of the TOTP routes (the OpenAPI document), written from totp.controller.ts and
 * `TotpStore.status`.
 */
import { BOOLEAN, INTEGER, namedSchema, objectSchema, STRING } from '../api';

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
