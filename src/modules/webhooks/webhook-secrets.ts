import { SecretBox, type SecretPurpose } from '../../common/secret-box';
import type { SvcOptions } from '../../config/svc-options';

/** The box endpoint signing secrets are sealed with: its own key and associated data. */
export const WEBHOOK_SECRET_PURPOSE: SecretPurpose = {
  keyLabel: 'svc webhook signing secret',
  aad: 'svc:webhook:signing-secret',
};

/** Injection token of the webhooks' SecretBox. */
export const WEBHOOK_SECRET_BOX = Symbol('WEBHOOK_SECRET_BOX');

export const webhookSecretBox = (o: SvcOptions): SecretBox => new SecretBox(o.secret, WEBHOOK_SECRET_PURPOSE);
