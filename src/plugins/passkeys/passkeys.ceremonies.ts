import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { COSEALG, isoBase64URL } from '@simplewebauthn/server/helpers';
import { ServiceError, type EnrolmentClaim, type PluginContext, type SessionUser } from '../api';
import type { ResolvedPasskeyOptions } from './passkeys.options';
import {
  CHALLENGE_TTL_SECONDS,
  PasskeyStore,
  toItem,
  type CredentialItem,
  type StoredCredential,
} from './passkeys.store';

/** ES256, EdDSA, RS256: offered at registration and accepted at verification alike. */
const ALGORITHMS = [COSEALG.ES256, COSEALG.EdDSA, COSEALG.RS256];
const TIMEOUT_MS = CHALLENGE_TTL_SECONDS * 1000;
const MAX_NAME = 100;
const MAX_ID = 1024;
/** Expired challenges are purged at most this often per instance, by a ceremony's start. */
const PURGE_EVERY_MS = 60_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who registers a passkey: the signed-in user, or one enrolling a second factor at sign-in. */
export type Registrant = Pick<SessionUser, 'id' | 'email' | 'name'>;

/** A ceremony that did not verify: why, for the log (never key material). */
export class CeremonyFailure extends Error {}

/** The WebAuthn user handle of an account: its id's 16 bytes (no personal data). */
export function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replace(/-/g, ''), 'hex'));
}

/** `{ id, rawId, type: "public-key", response: {...} }`, the WebAuthn JSON shape of a credential. */
function credentialShape(value: unknown, field: string): { id: string } {
  const v = value as { id?: unknown; rawId?: unknown; type?: unknown; response?: unknown } | null;
  if (
    !v ||
    typeof v !== 'object' ||
    typeof v.id !== 'string' ||
    v.id === '' ||
    v.id.length > MAX_ID ||
    typeof v.rawId !== 'string' ||
    v.type !== 'public-key' ||
    !v.response ||
    typeof v.response !== 'object'
  ) {
    throw ServiceError.validation([
      { path: field, code: 'invalid', message: `${field} must be a WebAuthn credential (JSON form)` },
    ]);
  }
  return v as { id: string };
}

/** The challenge the client says it signed (clientDataJSON), or null when unreadable. */
function claimedChallenge(response: { response?: { clientDataJSON?: unknown } }): string | null {
  try {
    const raw = response.response?.clientDataJSON;
    if (typeof raw !== 'string' || raw.length > 16_384) {
      return null;
    }
    const data = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' && data.challenge.length <= 512 ? data.challenge : null;
  } catch {
    return null;
  }
}

/** Runs of 20+ token characters in a library's message (challenges, credential ids) are not logged. */
const OPAQUE = /[A-Za-z0-9_~.+/=-]{20,}/g;

/** Why a ceremony failed, for the log: a short message, never a challenge or key material. */
function message(e: unknown): string {
  return e instanceof Error ? e.message.replace(OPAQUE, '[redacted]').slice(0, 300) : 'unknown error';
}

/**
 * The WebAuthn ceremonies of the plugin (@simplewebauthn/server): options with a challenge
 * recorded server side (single use, 5 minutes), and verification with user verification
 * required, the configured origins and RP id, and the stored signature counter.
 */
export class PasskeyCeremonies {
  private lastPurge = 0;

  constructor(
    private readonly ctx: PluginContext,
    private readonly options: ResolvedPasskeyOptions,
  ) {}

  store(): PasskeyStore {
    return new PasskeyStore(this.ctx.db);
  }

  private async purgeExpired(): Promise<void> {
    if (Date.now() - this.lastPurge < PURGE_EVERY_MS) {
      return;
    }
    this.lastPurge = Date.now();
    try {
      await this.store().purgeExpired();
    } catch (e) {
      this.ctx.logger.warn({ reason: message(e) }, 'expired passkey challenges could not be purged');
    }
  }

  /** Creation options for a signed-in user: resident key and user verification required. */
  async registrationOptions(user: Registrant): Promise<PublicKeyCredentialCreationOptionsJSON> {
    await this.purgeExpired();
    const existing = await this.store().listForUser(user.id);
    const options = await generateRegistrationOptions({
      rpName: this.options.rpName,
      rpID: this.options.rpId,
      userName: user.email,
      userDisplayName: user.name || user.email,
      userID: userHandle(user.id),
      timeout: TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: existing.map((c) => ({
        id: c.credentialId,
        transports: c.transports as AuthenticatorTransport[],
      })),
      authenticatorSelection: {
        residentKey: 'required',
        requireResidentKey: true,
        userVerification: 'required',
      },
      supportedAlgorithmIDs: ALGORITHMS,
    });
    await this.store().issueChallenge('register', options.challenge, user.id);
    return options;
  }

  /**
   * Verifies a registration against a challenge this user was given (used up whatever follows)
   * and stores the passkey. A bad attestation, origin, RP id, challenge or a missing user
   * verification: 422 INVALID_INPUT; a credential registered already: 409 CONFLICT.
   */
  /**
   * Verifies and stores a new passkey. With `pendingToken` (a sign-in's `mfa-enrol` step) the
   * step is used up in the transaction that stores it (`claim`), so a voided step stores nothing.
   */
  async register(
    user: Registrant & { pendingToken?: string },
    body: unknown,
  ): Promise<{ item: CredentialItem; claim?: EnrolmentClaim }> {
    const b = (body && typeof body === 'object' ? body : {}) as { response?: unknown; name?: unknown };
    if (b.name !== undefined && (typeof b.name !== 'string' || b.name.trim().length > MAX_NAME)) {
      throw ServiceError.validation([
        { path: 'name', code: 'invalid', message: `name must be a string of at most ${MAX_NAME} characters` },
      ]);
    }
    const response = credentialShape(b.response, 'response') as unknown as RegistrationResponseJSON;
    const invalid = (reason: string) => {
      this.ctx.logger.info({ userId: user.id, reason }, 'passkey registration refused');
      return new ServiceError('INVALID_INPUT', 'The passkey could not be verified; try again');
    };
    const challenge = claimedChallenge(response);
    if (!challenge || !(await this.store().consumeRegistration(user.id, challenge))) {
      throw invalid('unknown, used or expired challenge');
    }
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: this.options.origins,
        expectedRPID: this.options.rpId,
        requireUserVerification: true,
        supportedAlgorithmIDs: ALGORITHMS,
      });
    } catch (e) {
      throw invalid(message(e));
    }
    if (!verified.verified) {
      throw invalid('not verified');
    }
    const info = verified.registrationInfo;
    // The passkey and its audit row in one transaction (a second factor set up: `mfa-enrolled`).
    let claim: EnrolmentClaim | undefined;
    const stored = await this.ctx.db.transaction(async (tx) => {
      if (user.pendingToken) {
        claim = await this.ctx.auth.claimEnrolment(user.pendingToken, tx);
      }
      const row = await new PasskeyStore(tx).insert({
        userId: user.id,
        credentialId: info.credential.id,
        publicKey: isoBase64URL.fromBuffer(info.credential.publicKey),
        counter: info.credential.counter,
        transports: (info.credential.transports ?? response.response.transports ?? []).filter(
          (t) => typeof t === 'string',
        ),
        backedUp: info.credentialBackedUp,
        deviceType: info.credentialDeviceType,
        aaguid: info.aaguid,
        name: typeof b.name === 'string' && b.name.trim() !== '' ? b.name.trim() : 'Passkey',
      });
      if (row && this.options.secondFactor) {
        await this.ctx.audit.record(
          {
            event: 'mfa-enrolled',
            actorId: user.id,
            userId: user.id,
            metadata: { factor: 'passkey', passkeyId: row.id },
          },
          tx,
        );
      }
      return row;
    });
    if (!stored) {
      throw new ServiceError('CONFLICT', 'This passkey is registered already');
    }
    this.ctx.logger.info({ userId: user.id, passkeyId: stored.id }, 'passkey registered');
    return { item: toItem(stored), claim };
  }

  /**
   * Request options for a second factor: for `userId`'s passkeys when the pending login's user is
   * known, else for discoverable credentials (the assertion must still be one of that user's).
   */
  async secondFactorOptions(userId: string | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
    await this.purgeExpired();
    const credentials = userId ? await this.store().listForUser(userId) : [];
    const options = await generateAuthenticationOptions({
      rpID: this.options.rpId,
      timeout: TIMEOUT_MS,
      userVerification: 'required',
      ...(userId && {
        allowCredentials: credentials.map((c) => ({
          id: c.credentialId,
          transports: c.transports as AuthenticatorTransport[],
        })),
      }),
    });
    await this.store().issueChallenge('second-factor', options.challenge, userId);
    return options;
  }

  /** Discoverable-credential request options for a passwordless sign-in, and its flow id. */
  async loginOptions(): Promise<{ flowId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
    await this.purgeExpired();
    const options = await generateAuthenticationOptions({
      rpID: this.options.rpId,
      timeout: TIMEOUT_MS,
      userVerification: 'required',
    });
    const flowId = await this.store().issueChallenge('login', options.challenge, null);
    return { flowId, options };
  }

  /**
   * The `passkey` challenge's answer (`{ assertion }`): an assertion of one of `userId`'s passkeys
   * over a second-factor challenge handed out for it (used up whatever follows).
   */
  async verifySecondFactor(
    userId: string,
    response: unknown,
  ): Promise<{ ok: true } | { ok: false; reason: string }> {
    const assertion =
      response && typeof response === 'object' ? (response as { assertion?: unknown }).assertion : undefined;
    const refused = (reason: string) => {
      this.ctx.logger.info({ userId, reason }, 'passkey second factor refused');
      return { ok: false as const, reason: 'The passkey could not be verified' };
    };
    if (!assertion || typeof assertion !== 'object') {
      return refused('no assertion');
    }
    try {
      const shaped = credentialShape(
        assertion,
        'response.assertion',
      ) as unknown as AuthenticationResponseJSON;
      const challenge = claimedChallenge(shaped);
      if (!challenge || !(await this.store().consumeSecondFactor(userId, challenge))) {
        return refused('unknown, used or expired challenge');
      }
      await this.verifyAssertion(shaped, challenge, userId);
      return { ok: true };
    } catch (e) {
      return refused(message(e));
    }
  }

  /**
   * A passwordless sign-in: the flow (used up whatever follows) and an assertion of a registered
   * passkey over its challenge; the account it belongs to. Any failure: 401
   * AUTH_INVALID_CREDENTIALS.
   */
  async verifyLogin(body: unknown): Promise<string> {
    const b = (body && typeof body === 'object' ? body : {}) as { flowId?: unknown; response?: unknown };
    if (typeof b.flowId !== 'string' || b.flowId === '') {
      throw ServiceError.validation([{ path: 'flowId', code: 'required', message: 'flowId is required' }]);
    }
    const response = credentialShape(b.response, 'response') as unknown as AuthenticationResponseJSON;
    const refused = (reason: string) => {
      this.ctx.logger.info({ reason }, 'passkey sign-in refused');
      return new ServiceError('AUTH_INVALID_CREDENTIALS', 'The passkey could not be verified; try again');
    };
    const challenge = UUID.test(b.flowId)
      ? await this.store().consumeLoginFlow(b.flowId.toLowerCase())
      : null;
    if (!challenge) {
      throw refused('unknown, used or expired flow');
    }
    try {
      const credential = await this.verifyAssertion(response, challenge, null);
      return credential.userId;
    } catch (e) {
      throw refused(message(e));
    }
  }

  /**
   * Verifies an assertion over `challenge` by a stored passkey (of `userId` when given), with user
   * verification required, and moves its counter forward; throws CeremonyFailure otherwise.
   */
  private async verifyAssertion(
    response: AuthenticationResponseJSON,
    challenge: string,
    userId: string | null,
  ): Promise<StoredCredential> {
    const credential = await this.store().findByCredentialId(response.id);
    if (!credential || (userId !== null && credential.userId !== userId)) {
      throw new CeremonyFailure('unknown passkey');
    }
    const handle = response.response?.userHandle;
    if (handle && handle !== isoBase64URL.fromBuffer(userHandle(credential.userId))) {
      throw new CeremonyFailure('the user handle is not the passkey’s account');
    }
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: this.options.origins,
      expectedRPID: this.options.rpId,
      requireUserVerification: true,
      credential: {
        id: credential.credentialId,
        publicKey: isoBase64URL.toBuffer(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports as AuthenticatorTransport[],
      },
    });
    if (!verified.verified || !verified.authenticationInfo.userVerified) {
      throw new CeremonyFailure('not verified');
    }
    const info = verified.authenticationInfo;
    const moved = await this.store().recordUse(
      credential.id,
      { seen: credential.counter, next: info.newCounter },
      { backedUp: info.credentialBackedUp, deviceType: info.credentialDeviceType },
    );
    if (!moved) {
      throw new CeremonyFailure('the signature counter did not move forward');
    }
    return credential;
  }
}
