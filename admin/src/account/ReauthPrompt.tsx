import { useEffect, useRef, useState } from 'react';
import { api, ApiError, unwrap } from '../api';
import { failureText } from '../auth/messages';
import { registerPasswordPrompt } from './password';
import './account.css';

/**
 * The password prompt (a modal dialog) of a sensitive change refused for an old sign-in:
 * `POST /auth/reauthenticate` until the password is right or the person cancels (Cancel, Escape).
 * Mounted once by the layout; the API client's middleware asks it, then sends the change again.
 * The focus returns where it was. Closed, the dialog holds no form: no second "Password" field
 * beside a screen's own.
 */
export function ReauthPrompt() {
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const pending = useRef<{ resolve: (confirmed: boolean) => void; before: Element | null } | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (open && !dialog.current?.open) {
      dialog.current?.showModal();
      input.current?.focus();
    }
  }, [open]);

  useEffect(() => {
    registerPasswordPrompt(
      () =>
        new Promise<boolean>((resolve) => {
          pending.current = { resolve, before: document.activeElement };
          setOpen(true);
        }),
    );
    return () => {
      registerPasswordPrompt(undefined);
      pending.current?.resolve(false);
      pending.current = null;
    };
  }, []);

  const close = (confirmed: boolean) => {
    const was = pending.current;
    pending.current = null;
    setOpen(false);
    setError('');
    if (dialog.current?.open) {
      dialog.current.close();
    }
    if (was) {
      if (was.before instanceof HTMLElement) {
        was.before.focus();
      }
      was.resolve(confirmed);
    }
  };

  const submit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) {
      return;
    }
    setBusy(true);
    try {
      await unwrap(
        api.POST('/admin/api/auth/reauthenticate', { body: { password: input.current?.value ?? '' } }),
      );
      close(true);
    } catch (problem) {
      setError(
        problem instanceof ApiError
          ? problem.code === 'INVALID_INPUT'
            ? 'That password is not right.'
            : problem.message
          : failureText(problem),
      );
      input.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      id="reauth"
      ref={dialog}
      className="reauth"
      aria-labelledby="reauth-title"
      aria-describedby="reauth-text"
      onCancel={(e) => {
        e.preventDefault();
        close(false);
      }}
      // A browser may close the dialog on Escape without a `cancel` event.
      onClose={() => close(false)}
    >
      {open && (
        <form id="reauth-form" method="dialog" aria-busy={busy || undefined} onSubmit={(e) => void submit(e)}>
          <h2 id="reauth-title">Confirm it is you</h2>
          <p id="reauth-text">This change needs your password again, because you signed in a while ago.</p>
          <div className="field">
            <label htmlFor="reauth-password">Password</label>
            <input
              id="reauth-password"
              ref={input}
              name="password"
              type="password"
              autoComplete="current-password"
              maxLength={1024}
              required
              aria-describedby="reauth-password-error"
              aria-invalid={error ? true : undefined}
            />
            <p className="field-error" id="reauth-password-error">
              {error}
            </p>
          </div>
          <div className="actions">
            <button type="submit" className="primary" disabled={busy}>
              Confirm
            </button>
            <button type="button" id="reauth-cancel" className="secondary" onClick={() => close(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
