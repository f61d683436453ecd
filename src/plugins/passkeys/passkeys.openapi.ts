/**
 * Answer schemas of the passkey routes (the OpenAPI document), written from passkeys.controller.ts,
 * passkeys.ceremonies.ts and `toItem` (passkeys.store.ts). The WebAuthn options are
 * @simplewebauthn/server's JSON forms, handed to the browser as they are: described by name.
 */
import {
  DATE_TIME,
  INTEGER,
  itemAnswer,
  namedSchema,
  NULLABLE_DATE_TIME,
  objectSchema,
  schemaRef,
  STRING,
  UUID,
} from '../api';

/** A registered passkey (`toItem`): never key material. */
export const PASSKEY = namedSchema(
  'Passkeys_Credential',
  objectSchema({
    id: UUID,
    name: STRING,
    createdAt: DATE_TIME,
    lastUsedAt: NULLABLE_DATE_TIME,
  }),
);

/** What every options object holds: the challenge the server recorded (single use, 5 minutes). */
const challenge = { challenge: { ...STRING, description: 'base64url; single use, valid 5 minutes' } };

/** `navigator.credentials.create()` options, from `generateRegistrationOptions`. */
export const CREATION_OPTIONS = namedSchema('Passkeys_CreationOptions', {
  type: 'object',
  description:
    'A WebAuthn `PublicKeyCredentialCreationOptionsJSON` (@simplewebauthn/server `generateRegistrationOptions`): resident key and user verification required',
  properties: challenge,
  required: ['challenge'],
});

/** `navigator.credentials.get()` options, from `generateAuthenticationOptions`. */
export const REQUEST_OPTIONS = namedSchema('Passkeys_RequestOptions', {
  type: 'object',
  description:
    'A WebAuthn `PublicKeyCredentialRequestOptionsJSON` (@simplewebauthn/server `generateAuthenticationOptions`): user verification required',
  properties: challenge,
  required: ['challenge'],
});

/** `POST login/options`: the options of a passwordless sign-in and the flow `login/verify` names. */
export const LOGIN_OPTIONS = namedSchema(
  'Passkeys_LoginOptions',
  objectSchema({
    flowId: { ...UUID, description: 'Sent back with the assertion to `login/verify`' },
    options: REQUEST_OPTIONS,
  }),
);

/**
 * `POST register/verify`: the passkey; when it was the second factor a sign-in waited for
 * (`mfa-enrol`, CONTRACTS 14.2), the session too (its cookies set), or the next step.
 */
export const REGISTERED_ANSWER = {
  anyOf: [
    itemAnswer(PASSKEY),
    itemAnswer(PASSKEY, { user: schemaRef('SessionUser'), token: STRING, exp: INTEGER }),
    objectSchema({
      status: { type: 'string', const: 'challenge' },
      item: PASSKEY,
      challengeType: STRING,
      pendingToken: STRING,
      uiHint: { type: ['string', 'null'] },
    }),
  ],
};
