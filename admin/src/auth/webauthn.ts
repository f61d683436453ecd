/**
 * Passkeys (the passkey plugin): its WebAuthn options arrive as JSON with base64url strings, the
 * browser wants ArrayBuffers; the credential goes back as JSON again.
 */

export function passkeysSupported(): boolean {
  return typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;
}

function fromB64url(text: string): ArrayBuffer {
  let b64 = String(text).replace(/-/g, '+').replace(/_/g, '/');
  while (b64.length % 4) {
    b64 += '=';
  }
  const bin = window.atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) {
    bytes[i] = bin.charCodeAt(i);
  }
  return bytes.buffer;
}

function toB64url(buffer: ArrayBuffer): string {
  const bytes = new Uint8Array(buffer);
  let bin = '';
  for (const byte of bytes) {
    bin += String.fromCharCode(byte);
  }
  return window.btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

interface DescriptorJSON {
  id: string;
  transports?: AuthenticatorTransport[];
}
/** PublicKeyCredentialCreationOptionsJSON or RequestOptionsJSON, as the plugin sends them. */
export interface OptionsJSON {
  challenge: string;
  user?: { id: string; name: string; displayName: string };
  excludeCredentials?: DescriptorJSON[];
  allowCredentials?: DescriptorJSON[];
  [key: string]: unknown;
}

const descriptors = (list: DescriptorJSON[]) =>
  list.map((c) => ({ type: 'public-key' as const, id: fromB64url(c.id), transports: c.transports }));

function publicKeyOptions(o: OptionsJSON) {
  return {
    ...o,
    challenge: fromB64url(o.challenge),
    ...(o.user ? { user: { ...o.user, id: fromB64url(o.user.id) } } : {}),
    ...(o.excludeCredentials ? { excludeCredentials: descriptors(o.excludeCredentials) } : {}),
    ...(o.allowCredentials ? { allowCredentials: descriptors(o.allowCredentials) } : {}),
  };
}

/** A credential the browser made or used, as the plugin reads it (RegistrationResponseJSON etc.). */
function credentialJSON(cred: PublicKeyCredential) {
  const r = cred.response as AuthenticatorAttestationResponse & AuthenticatorAssertionResponse;
  const response: Record<string, unknown> = { clientDataJSON: toB64url(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64url(r.attestationObject);
    response.transports = r.getTransports ? r.getTransports() : [];
  } else {
    response.authenticatorData = toB64url(r.authenticatorData);
    response.signature = toB64url(r.signature);
    if (r.userHandle) {
      response.userHandle = toB64url(r.userHandle);
    }
  }
  return {
    id: cred.id,
    rawId: toB64url(cred.rawId),
    type: cred.type,
    authenticatorAttachment: cred.authenticatorAttachment ?? undefined,
    clientExtensionResults: cred.getClientExtensionResults ? cred.getClientExtensionResults() : {},
    response,
  };
}

export type PasskeyAnswer =
  { ok: true; credential: ReturnType<typeof credentialJSON> } | { ok: false; message: string };

/** The browser's prompt to create (`create`) or use (`get`) a passkey: its credential, or why not. */
export async function askPasskey(kind: 'create' | 'get', options: OptionsJSON): Promise<PasskeyAnswer> {
  if (!passkeysSupported()) {
    return { ok: false, message: 'This browser cannot use passkeys.' };
  }
  try {
    const publicKey = publicKeyOptions(options) as never;
    const cred = (await navigator.credentials[kind]({ publicKey })) as PublicKeyCredential | null;
    if (cred) {
      return { ok: true, credential: credentialJSON(cred) };
    }
  } catch (e) {
    const name = e instanceof Error ? e.name : 'error';
    if (name === 'InvalidStateError') {
      return { ok: false, message: 'This device holds a passkey for your account already.' };
    }
    if (name !== 'NotAllowedError') {
      return { ok: false, message: `The passkey could not be used (${name}). Try again.` };
    }
  }
  return { ok: false, message: 'No passkey was used: the request was cancelled or timed out. Try again.' };
}
