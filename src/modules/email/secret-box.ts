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
/** Binds a ciphertext to its purpose: a value sealed for something else never opens here. */
const AAD = Buffer.from('svc:email-provider:password');

/**
 * AES-256-GCM for secrets stored in the database (email provider passwords). The key is derived
 * from SVC_SECRET by HKDF-SHA256 with its own label, like the token keys, so it is never the JWT
 * key. Stored form: `v1:<iv>:<tag>:<ciphertext>`, each part base64url; the version leaves room
 * for a new scheme or key later.
 */
export class SecretBox {
  private readonly key: KeyObject;

  constructor(secret: string) {
    this.key = createSecretKey(
      Buffer.from(hkdfSync('sha256', secret, 'svc', 'svc email provider secret', 32)),
    );
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(AAD);
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
    decipher.setAAD(AAD);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  }
}
