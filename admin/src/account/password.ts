import { ApiError, setReauthPrompt } from '../api';

/**
 * The password prompt of a sensitive change (`403 REAUTH_REQUIRED`), which the API client's
 * middleware asks before it sends the change again. `ReauthPrompt` registers the dialog; one
 * prompt at a time, however many changes were refused together.
 */
let dialog: (() => Promise<boolean>) | undefined;
let asking: Promise<boolean> | undefined;
/** Whether the last prompt was cancelled. */
let lastCancelled = false;

export function registerPasswordPrompt(prompt: (() => Promise<boolean>) | undefined): void {
  dialog = prompt;
  setReauthPrompt(prompt ? confirmPassword : undefined);
}

/** Asks for the password (a modal dialog); resolves whether it was confirmed. */
export function confirmPassword(): Promise<boolean> {
  if (!asking) {
    asking = (dialog ? dialog() : Promise.resolve(false))
      .then((confirmed) => {
        lastCancelled = !confirmed;
        return confirmed;
      })
      .finally(() => {
        asking = undefined;
      });
  }
  return asking;
}

/**
 * A refusal that is the person's own choice: the password prompt was cancelled, so the change was
 * not sent again. Nothing is announced for it (as a change that went nowhere).
 */
export function isCancelledReauth(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'REAUTH_REQUIRED' && lastCancelled;
}
