import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  KeyObject,
  randomBytes,
} from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * What a box seals: the HKDF label of its key and the associated data of every ciphertext. Each
 * use has its own, so a value sealed for one never opens for another (a provider password copied
 * into a mail job's payload cannot be mailed out as a link).
 */
export interface SecretPurpose {
  keyLabel: string;
  aad: string;
}

export const EMAIL_PROVIDER_PASSWORD: SecretPurpose = {
  keyLabel: 'svc email provider secret',
  aad: 'svc:email-provider:password',
};

/**
 * AES-256-GCM for secrets stored in the database (email provider passwords, the links of queued
 * account mail). The key is derived from SVC_SECRET by HKDF-SHA256 with the purpose's label, like
 * the token keys, so it is never the JWT key. Stored form: `v1:<iv>:<tag>:<ciphertext>`, each part
 * base64url; the version leaves room for a new scheme or key later.
 */
export class SecretBox {
  private readonly key: KeyObject;
  private readonly aad: Buffer;

  constructor(secret: string, purpose: SecretPurpose = EMAIL_PROVIDER_PASSWORD) {
    this.key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'svc', purpose.keyLabel, 32)));
    this.aad = Buffer.from(purpose.aad);
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(this.aad);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, iv, tag, ciphertext]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join(':');
  }

  /** The plaintext; throws when the value is malformed or was sealed under another secret. */
  open(sealed: string): string {
    const parts = sealed.split(':');
    if (parts.length !== 4 || parts[0] !== VERSION) {
      throw new Error('unsupported sealed value');
    }
    const [iv, tag, ciphertext] = parts.slice(1).map((p) => Buffer.from(p, 'base64url'));
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) {
      throw new Error('malformed sealed value');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(this.aad);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  }
}
