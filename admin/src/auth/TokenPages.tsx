import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { api, unwrap } from '../api';
import { Field, type FormState, PasswordPair, passwordsMatch, text, useForm, useMessages } from './messages';
import { PublicPage, SignInLink } from './PublicPage';

const INVALID_LINK = 'This link is invalid, used or expired. Ask for a new one.';

export function ForgotPassword() {
  return (
    <PublicPage title="Forgot password" heading="Forgot your password?">
      <ForgotForm />
      <SignInLink />
    </PublicPage>
  );
}

function ForgotForm() {
  const form = useForm();
  const messages = useMessages();
  return (
    <>
      <p>
        Enter the email address of your account. If it has one, we send it a link to choose a new password.
      </p>
      <form
        id="forgot-form"
        method="post"
        aria-busy={form.busy || undefined}
        onSubmit={form.submit(async (_el, data) => {
          try {
            const r = await unwrap(
              api.POST('/admin/api/auth/forgot-password', { body: { email: text(data, 'email') } }),
            );
            messages.showNotice(
              r.message || 'If the address has an account, a link to choose a new password is on its way.',
              true,
            );
          } catch (e) {
            messages.showProblem(e, form);
          }
        })}
      >
        <Field
          id="forgot-email"
          name="email"
          label="Email address"
          type="email"
          autoComplete="username"
          maxLength={320}
          form={form}
        />
        <button type="submit" disabled={form.busy}>
          Send the link
        </button>
      </form>
    </>
  );
}

/**
 * The token of an emailed link (`?token=`), read once, then taken out of the address bar and the
 * history so it is not left in the browser for the next person.
 */
function useLinkToken(): string {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => new URLSearchParams(location.search).get('token')?.slice(0, 2048) ?? '');
  useEffect(() => {
    if (new URLSearchParams(location.search).has('token')) {
      void navigate(location.pathname, { replace: true });
    }
  }, [location, navigate]);
  return token;
}

/**
 * A screen driven by an emailed token: without one it says the link is incomplete; once done its
 * form and intro give way to a link to sign in.
 */
function TokenPage(props: {
  title: string;
  intro: string;
  children: (finish: (message: string) => void, token: string) => ReactNode;
}) {
  const token = useLinkToken();
  return (
    <PublicPage title={props.title}>
      <TokenBody token={token} {...props} />
      <SignInLink />
    </PublicPage>
  );
}

function TokenBody({ token, intro, children }: Parameters<typeof TokenPage>[0] & { token: string }) {
  const messages = useMessages();
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (!token) {
      messages.showError(
        'This link is incomplete. Open the link from the email again, or ask for a new one.',
      );
    }
  }, [token, messages]);
  if (!token) {
    return null;
  }
  if (done) {
    return (
      <p id="done">
        <Link to="/login">Sign in</Link>
      </p>
    );
  }
  const finish = (message: string) => {
    setDone(true);
    messages.showNotice(message, true);
  };
  return (
    <>
      <p id="intro">{intro}</p>
      {children(finish, token)}
    </>
  );
}

export function ResetPassword() {
  return (
    <TokenPage
      title="Choose a new password"
      intro="Choose a new password for your account. Every place you are signed in is signed out."
    >
      {(finish, token) => (
        <>
          <PasswordForm
            id="reset-form"
            prefix="reset"
            button="Save the new password"
            send={(data) =>
              api.POST('/admin/api/auth/reset-password', {
                body: { token, password: text(data, 'password') },
              })
            }
            invalid={INVALID_LINK}
            onDone={() => finish('Your password is changed. Sign in with the new one.')}
          />
          <p>
            <Link to="/forgot-password">Ask for a new link</Link>
          </p>
        </>
      )}
    </TokenPage>
  );
}

export function AcceptInvite() {
  return (
    <TokenPage title="Accept your invitation" intro="Choose a password to finish setting up your account.">
      {(finish, token) => (
        <PasswordForm
          id="invite-form"
          prefix="invite"
          label="Password"
          button="Create my account"
          before={(form) => (
            <Field
              id="invite-name"
              name="name"
              label="Your name (optional)"
              autoComplete="name"
              required={false}
              maxLength={200}
              form={form}
            />
          )}
          send={(data) => {
            const name = text(data, 'name').trim();
            return api.POST('/admin/api/auth/accept-invite', {
              body: { token, password: text(data, 'password'), ...(name ? { name } : {}) },
            });
          }}
          invalid="This invitation is invalid, used or expired. Ask for a new one."
          onDone={() =>
            finish('Your account is ready. Sign in with your email address and the new password.')
          }
        />
      )}
    </TokenPage>
  );
}

/** A form with a new password (twice) sent with the link's token. */
function PasswordForm(props: {
  id: string;
  prefix: string;
  label?: string;
  button: string;
  before?: (form: FormState) => ReactNode;
  send: (data: FormData) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  invalid: string;
  onDone: () => void;
}) {
  const form = useForm();
  const messages = useMessages();
  return (
    <form
      id={props.id}
      method="post"
      aria-busy={form.busy || undefined}
      onSubmit={form.submit(async (_el, data) => {
        if (!passwordsMatch(data, form, messages)) {
          return;
        }
        try {
          await unwrap(props.send(data));
          props.onDone();
        } catch (e) {
          messages.showProblem(e, form, { INVALID_INPUT: props.invalid });
        }
      })}
    >
      {props.before?.(form)}
      <PasswordPair prefix={props.prefix} form={form} label={props.label} />
      <button type="submit" disabled={form.busy}>
        {props.button}
      </button>
    </form>
  );
}

export function VerifyEmail() {
  return (
    <TokenPage title="Verify your email address" intro="Confirm that this email address is yours.">
      {(finish, token) => (
        <VerifyForm
          token={token}
          onDone={() => finish('Your email address is verified. You can sign in now.')}
        />
      )}
    </TokenPage>
  );
}

function VerifyForm({ token, onDone }: { token: string; onDone: () => void }) {
  const form = useForm();
  const messages = useMessages();
  return (
    <form
      id="verify-form"
      method="post"
      aria-busy={form.busy || undefined}
      onSubmit={form.submit(async () => {
        try {
          await unwrap(api.POST('/admin/api/auth/verify-email', { body: { token } }));
          onDone();
        } catch (e) {
          messages.showProblem(e, form, { INVALID_INPUT: INVALID_LINK });
        }
      })}
    >
      <button type="submit" disabled={form.busy}>
        Verify my email address
      </button>
    </form>
  );
}
