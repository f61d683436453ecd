import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

/**
 * A software WebAuthn authenticator (no browser): ES256 (P-256) credentials, `none` attestation,
 * the WebAuthn JSON forms a browser hands the page (`RegistrationResponseJSON`,
 * `AuthenticationResponseJSON`). Each option of a ceremony can be bent to test a refusal.
 */

const UP = 0x01;
const UV = 0x04;
const BE = 0x08;
const BS = 0x10;
const AT = 0x40;

type CBORMap = Parameters<typeof isoCBOR.encode>[0] & Map<string | number, unknown>;

const b64url = (b: Uint8Array | Buffer) => Buffer.from(b).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

export interface SoftCredential {
  id: Buffer;
  rpId: string;
  userHandle: string;
  privateKey: KeyObject;
  signCount: number;
}

export interface CeremonyOverrides {
  /** The origin written into clientDataJSON (default: the authenticator's). */
  origin?: string;
  /** The RP id whose hash starts authenticatorData (default: the options'). */
  rpId?: string;
  /** The challenge written into clientDataJSON (default: the options'). */
  challenge?: string;
  /** Whether the UV flag is set (default true). */
  userVerified?: boolean;
  /** The signature counter to report (default: the credential's, plus one). */
  signCount?: number;
  /** The credential to use (default: the first allowed one this authenticator holds). */
  credential?: SoftCredential;
  /** Sign with another key than the credential's (a forged assertion). */
  signWith?: KeyObject;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string; name: string };
  user: { id: string; name: string; displayName: string };
  excludeCredentials?: Array<{ id: string }>;
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: Array<{ id: string }>;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];

  constructor(
    readonly origin: string,
    private readonly flags: { backupEligible?: boolean; backedUp?: boolean } = {},
  ) {}

  private flagByte(userVerified: boolean, extra: number): number {
    let f = UP | extra;
    if (userVerified) {
      f |= UV;
    }
    if (this.flags.backupEligible) {
      f |= BE;
    }
    if (this.flags.backedUp) {
      f |= BS;
    }
    return f;
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** `navigator.credentials.create()`: a new credential and its RegistrationResponseJSON. */
  create(options: CreationOptions, o: CeremonyOverrides = {}) {
    const rpId = o.rpId ?? options.rp.id!;
    const excluded = new Set((options.excludeCredentials ?? []).map((c) => c.id));
    if (this.credentials.some((c) => c.rpId === rpId && excluded.has(b64url(c.id)))) {
      throw new Error('InvalidStateError: a credential of this authenticator is excluded');
    }
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
    const credential: SoftCredential = {
      id: randomBytes(32),
      rpId,
      userHandle: options.user.id,
      privateKey,
      signCount: o.signCount ?? 0,
    };
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.signCount);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flagByte(o.userVerified ?? true, AT)]),
      counter,
      Buffer.alloc(16), // AAGUID: zeros
      idLength,
      credential.id,
      Buffer.from(cose),
    ]);
    const attestation: CBORMap = new Map();
    attestation.set('fmt', 'none');
    attestation.set('attStmt', new Map());
    attestation.set('authData', new Uint8Array(authData));
    const attestationObject = isoCBOR.encode(attestation);
    const clientDataJSON = this.clientData(
      'webauthn.create',
      o.challenge ?? options.challenge,
      o.origin ?? this.origin,
    );
    this.credentials.push(credential);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal' as const],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  /** `navigator.credentials.get()`: an AuthenticationResponseJSON signed by a held credential. */
  get(options: RequestOptions, o: CeremonyOverrides = {}) {
    const rpId = o.rpId ?? options.rpId!;
    const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
    const credential =
      o.credential ??
      this.credentials.find(
        (c) => c.rpId === (options.rpId ?? rpId) && (allowed.size === 0 || allowed.has(b64url(c.id))),
      );
    if (!credential) {
      throw new Error('NotAllowedError: no credential of this authenticator is allowed');
    }
    credential.signCount = o.signCount ?? credential.signCount + 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.signCount);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flagByte(o.userVerified ?? true, 0)]),
      counter,
    ]);
    const clientDataJSON = this.clientData(
      'webauthn.get',
      o.challenge ?? options.challenge,
      o.origin ?? this.origin,
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientDataJSON)]),
      o.signWith ?? credential.privateKey,
    );
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }
}

/** A fresh P-256 private key (to forge a signature with). */
export function strayKey(): KeyObject {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
}
