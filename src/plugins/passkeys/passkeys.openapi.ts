/**
 * Answer schemas of the passkey routes (the OpenAPI document), written from passkeys.controller.ts,
 * passkeys.ceremonies.ts and `toItem` (passkeys.store.ts). The WebAuthn options are
 * @simplewebauthn/server's JSON forms, handed to the browser as they are: described by name.
 */
import { DATE_TIME, namedSchema, NULLABLE_DATE_TIME, objectSchema, STRING, UUID } from '../api';

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
