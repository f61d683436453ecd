import { type Ref } from 'react';
import { content } from '../api';
import { Field, type FormState } from './messages';
import { askPasskey, type OptionsJSON } from './webauthn';

/**
 * The parts of setting up a second factor that the sign-in's enrolment step and the account
 * screen share: the authenticator app's key and QR code, the code and passkey-name fields, and
 * adding a passkey through the browser's prompt.
 */

/** The key to type into an authenticator app, and its QR code (ids `{prefix}-secret`, `{prefix}-qr`). */
export function TotpKey({ prefix, secret, qrSvg }: { prefix: string; secret: string; qrSvg: string }) {
  return (
    <>
      <p>
        Scan the QR code with your authenticator app, or type in this key:{' '}
        <code id={`${prefix}-secret`}>{secret}</code>
      </p>
      <img
        id={`${prefix}-qr`}
        className="qr"
        alt="QR code holding the key above, for your authenticator app"
        width={200}
        height={200}
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg)}`}
      />
    </>
  );
}

/** The code an authenticator app shows. */
export function TotpCodeField({
  id,
  form,
  inputRef,
}: {
  id: string;
  form: FormState;
  inputRef?: Ref<HTMLInputElement>;
}) {
  return (
    <Field
      id={id}
      name="code"
      label="Code from the app"
      autoComplete="one-time-code"
      inputMode="numeric"
      maxLength={64}
      spellCheck={false}
      form={form}
      inputRef={inputRef}
    />
  );
}

export function PasskeyNameField({ id, form }: { id: string; form: FormState }) {
  return (
    <Field
      id={id}
      name="name"
      label="Name of the passkey (optional)"
      required={false}
      hint="For example the device it is on."
      maxLength={100}
      form={form}
    />
  );
}

/**
 * Adds a passkey: `register/options`, the browser's prompt, `register/verify` (each with `extra`,
 * the paused sign-in's token at enrolment). The service's answer, or why the browser made none.
 */
export async function registerPasskey<T>(
  name: string,
  extra: object = {},
): Promise<{ ok: true; answer: T } | { ok: false; message: string }> {
  const options = await content<OptionsJSON>('POST', '/plugins/passkeys/register/options', { body: extra });
  const asked = await askPasskey('create', options);
  if (!asked.ok) {
    return asked;
  }
  const answer = await content<T>('POST', '/plugins/passkeys/register/verify', {
    body: { ...extra, response: asked.credential, ...(name ? { name } : {}) },
  });
  return { ok: true, answer };
}
