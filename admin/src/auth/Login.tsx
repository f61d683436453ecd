import { type ReactNode, type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { api, ApiError, content, unwrap } from '../api';
import {
  Field,
  type FormState,
  PasswordPair,
  passwordsMatch,
  text,
  useAction,
  useForm,
  useMessages,
} from './messages';
import { go, goRedirected, landing } from './go';
import { PublicPage } from './PublicPage';
import { PasskeyNameField, registerPasskey, TotpCodeField, TotpKey } from './second-factors';
import { askPasskey, type OptionsJSON, passkeysSupported } from './webauthn';
import './login.css';

/**
 * The sign-in screen: email and password (or a plugin's way: a provider's link, a passkey, an
 * emailed link), then the step a paused sign-in waits for: a code, a passkey, a new password, a
 * second factor to set up (with its recovery codes). One step shows at a time; its heading or
 * first control takes the focus. `?resume=1` picks up a paused sign-in from its cookie (a
 * plugin's redirect, a reload); `?error=` shows one of the screen's own messages.
 */
export function Login() {
  return (
    <PublicPage title="Sign in">
      <SignIn />
    </PublicPage>
  );
}

type LoginUi = Awaited<ReturnType<typeof loadLoginUi>>;

/** GET /auth/ui: the plugins' sign-in providers and the second factors they show; null if unread. */
async function loadLoginUi() {
  try {
    return await unwrap(api.GET('/admin/api/auth/ui'));
  } catch {
    return null;
  }
}

/** A sign-in paused at a step (`status: "challenge"`), as the sign-in and enrolment routes answer. */
interface Challenge {
  status: 'challenge';
  challengeType: string;
  pendingToken?: string;
  uiHint?: string | null;
}

function challengeOf(answer: unknown): Challenge | null {
  const a = answer as Partial<Challenge> | null | undefined;
  return a && a.status === 'challenge' && typeof a.challengeType === 'string' ? (a as Challenge) : null;
}

type Step =
  | { kind: 'login' }
  | { kind: 'challenge'; hint: string }
  | { kind: 'passkey'; ask: boolean }
  | { kind: 'initial-password' }
  | { kind: 'enrol'; totp: boolean; passkey: boolean }
  | { kind: 'recovery'; codes: string[]; answer: unknown }
  | { kind: 'unsupported'; text: string };

/** What the steps do to the sign-in as a whole. */
interface Flow {
  /** `body` with the pending token when the screen holds one (else the service reads its cookie). */
  withPending<T extends object>(body: T): T & { pendingToken?: string };
  /** The next answer of the service: the step it names (`ask`: a passkey prompt opens at once), or the session. */
  proceed(answer: unknown, ask: boolean): void;
  /** The step's token is spent or expired: the sign-in form again, with `message`. */
  backToLogin(message: string): void;
  /**
   * POST /auth/challenge/resolve: signed in, or the next step; a wrong answer keeps the step (with
   * its new token) and says `wrong`, after `onWrong`; a spent step starts over.
   */
  resolve(response: unknown, wrong: string, form?: FormState, onWrong?: () => void): Promise<void>;
  showRecovery(codes: string[], answer: unknown): void;
}

const LOGIN_ERRORS = new Map([
  ['signin-failed', 'Sign-in failed. Try again, or use another way to sign in.'],
]);
const EXPIRED = 'This sign-in has expired. Sign in again.';

function SignIn() {
  const messages = useMessages();
  const [view, setView] = useState<{ step: Step; n: number }>({ step: { kind: 'login' }, n: 0 });
  const [pendingToken, setPendingToken] = useState<string | null>(null);
  const [ui, setUi] = useState<LoginUi>(null);
  const uiRef = useRef<Promise<LoginUi>>(null);
  const loginUi = () => (uiRef.current ??= loadLoginUi());

  const show = (step: Step) => setView((v) => ({ step, n: v.n + 1 }));

  /** The page's own words when it cannot show a step. */
  const unsupported = (hint: string | null | undefined, words: string) =>
    show({ kind: 'unsupported', text: (hint ? `${hint}. ` : '') + words });

  const showEnrolment = async (hint: string | null | undefined) => {
    const views = (await loginUi())?.challengeViews ?? {};
    const totp = Object.hasOwn(views, 'totp');
    const passkey = Object.hasOwn(views, 'passkey') && passkeysSupported();
    if (!totp && !passkey) {
      unsupported(hint, 'This page cannot set up a second factor here. Ask an administrator.');
      return;
    }
    show({ kind: 'enrol', totp, passkey });
  };

  /** Shows the step a paused sign-in waits for. */
  const startStep = (
    type: string,
    hint: string | null | undefined,
    attemptsRemaining?: number,
    ask = false,
  ) => {
    if (type === 'passkey' && passkeysSupported()) {
      show({ kind: 'passkey', ask });
    } else if (type === 'mfa-enrol') {
      void showEnrolment(hint).catch(() =>
        messages.showError('Something went wrong. Reload the page and try again.'),
      );
    } else if (type === 'set-initial-password') {
      show({ kind: 'initial-password' });
    } else if (type === 'totp') {
      show({
        kind: 'challenge',
        hint: `${hint || 'Enter the 6-digit code from your authenticator app'}. A recovery code works too.`,
      });
      if (typeof attemptsRemaining === 'number') {
        messages.showNotice(`${attemptsRemaining} attempts left.`);
      }
    } else {
      unsupported(
        hint,
        'This page cannot show this step of the sign-in. Start over, or ask an administrator.',
      );
    }
  };

  const backToLogin = (message: string) => {
    setPendingToken(null);
    show({ kind: 'login' });
    messages.showError(message);
  };

  const proceed = (answer: unknown, ask: boolean) => {
    const challenge = challengeOf(answer);
    if (!challenge) {
      go(landing());
      return;
    }
    setPendingToken(challenge.pendingToken || null);
    startStep(challenge.challengeType, challenge.uiHint, undefined, ask);
  };

  const withPending = <T extends object>(body: T): T & { pendingToken?: string } =>
    pendingToken ? { ...body, pendingToken } : body;

  const flow: Flow = {
    withPending,
    proceed,
    backToLogin,
    showRecovery: (codes, answer) => show({ kind: 'recovery', codes, answer }),
    async resolve(response, wrong, form, onWrong) {
      try {
        const r = await unwrap(
          api.POST('/admin/api/auth/challenge/resolve', { body: withPending({ response }) }),
        );
        proceed(r, true);
      } catch (e) {
        if (!(e instanceof ApiError) || e.code !== 'AUTH_INVALID_CREDENTIALS') {
          messages.showProblem(e, form);
        } else if (typeof e.data.pendingToken === 'string') {
          setPendingToken(e.data.pendingToken);
          onWrong?.();
          const left = e.data.attemptsRemaining;
          messages.showError(wrong + (typeof left === 'number' ? ` ${left} attempts left.` : ''));
        } else {
          backToLogin('This sign-in has expired or had too many wrong answers. Sign in again.');
        }
      }
    },
  };

  // Before the first paint: the message of `?error=` (only the page's own words), with the focus.
  useLayoutEffect(() => {
    const error = new URLSearchParams(window.location.search).get('error');
    if (error !== null) {
      messages.showError(LOGIN_ERRORS.get(error) ?? 'Sign-in did not complete. Try again.');
    }
  }, [messages]);

  // Once: a paused sign-in resumed from its cookie, and the plugins' parts of the page.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) {
      return;
    }
    started.current = true;
    if (new URLSearchParams(window.location.search).get('resume') === '1') {
      void unwrap(api.GET('/admin/api/auth/pending'))
        .then((pending) => {
          if (!pending) {
            throw new Error('nothing pending');
          }
          startStep(pending.challengeType, pending.uiHint, pending.attemptsRemaining);
        })
        .catch(() => messages.showError('This sign-in is no longer waiting for you. Sign in again.'));
    }
    void loginUi().then(setUi);
  }, []); // once: startStep and loginUi only set state

  const { step, n } = view;
  switch (step.kind) {
    case 'login':
      return <LoginStep key={n} flow={flow} ui={ui} />;
    case 'challenge':
      return <ChallengeStep key={n} flow={flow} hint={step.hint} />;
    case 'passkey':
      return <PasskeyStep key={n} flow={flow} ask={step.ask} />;
    case 'initial-password':
      return <InitialPasswordStep key={n} flow={flow} />;
    case 'enrol':
      return <EnrolStep key={n} flow={flow} totp={step.totp} passkey={step.passkey} />;
    case 'recovery':
      return <RecoveryStep key={n} flow={flow} codes={step.codes} answer={step.answer} />;
    case 'unsupported':
      return <UnsupportedStep key={n} text={step.text} />;
  }
}

/** Focuses `ref`'s element once it is shown. */
function useFocusOnMount(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    ref.current?.focus();
  }, [ref]);
}

/** A full page load of the sign-in screen: nothing of the paused sign-in stays. */
function StartOver() {
  return (
    <p>
      <Link to="/login" reloadDocument>
        Start over
      </Link>
    </p>
  );
}

/** A step of its own: a section named by its heading, which can take the focus. */
function StepSection(props: {
  id: string;
  title: string;
  titleId: string;
  titleRef?: RefObject<HTMLHeadingElement | null>;
  children: ReactNode;
}) {
  return (
    <section id={props.id} aria-labelledby={props.titleId}>
      <h2 id={props.titleId} ref={props.titleRef} tabIndex={-1}>
        {props.title}
      </h2>
      {props.children}
    </section>
  );
}

const LOGIN_MESSAGES = { AUTH_INVALID_CREDENTIALS: 'The email address or password is not right.' };

function LoginStep({ flow, ui }: { flow: Flow; ui: LoginUi }) {
  const messages = useMessages();
  const form = useForm();
  const resend = useAction();
  const [unverified, setUnverified] = useState(false);
  const email = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  return (
    <section id="step-login" aria-labelledby="title">
      <form
        id="login-form"
        method="post"
        aria-busy={form.busy || undefined}
        onSubmit={form.submit(async (_el, data) => {
          setUnverified(false);
          try {
            const r = await unwrap(
              api.POST('/admin/api/auth/login', {
                body: { email: text(data, 'email'), password: text(data, 'password') },
              }),
            );
            flow.proceed(r, true);
          } catch (e) {
            if (e instanceof ApiError && e.code === 'EMAIL_NOT_VERIFIED') {
              setUnverified(true);
              messages.showError('Verify your email address first: open the link we emailed you.');
              return;
            }
            if (password.current) {
              password.current.value = '';
            }
            messages.showProblem(e, form, LOGIN_MESSAGES);
          }
        })}
      >
        <Field
          id="login-email"
          name="email"
          label="Email address"
          type="email"
          autoComplete="username"
          maxLength={320}
          form={form}
          inputRef={email}
        />
        <Field
          id="login-password"
          name="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          maxLength={1024}
          form={form}
          inputRef={password}
        />
        <button type="submit" disabled={form.busy}>
          Sign in
        </button>
      </form>
      {unverified && (
        <div id="resend">
          <button
            type="button"
            id="resend-button"
            disabled={resend.busy}
            onClick={() =>
              resend.run(async () => {
                try {
                  await unwrap(
                    api.POST('/admin/api/auth/verify-email/resend', {
                      body: { email: email.current?.value ?? '' },
                    }),
                  );
                  setUnverified(false);
                  messages.showNotice(
                    'If the address has an account waiting for verification, a new link is on its way.',
                    true,
                  );
                } catch (e) {
                  messages.showProblem(e, form);
                }
              })
            }
          >
            Send the verification email again
          </button>
        </div>
      )}
      <p>
        <Link to="/forgot-password">Forgot your password?</Link>
      </p>
      {ui && <Providers providers={ui.providers} />}
    </section>
  );
}

/** A provider's sign-in link only to a path of this site (`/x`, never `//host` or `/\host`). */
const LOCAL_HREF = /^\/(?![/\\])/;

/** The plugins' ways to sign in: providers' links, the passkey button, the emailed-link form. */
function Providers({ providers }: { providers: NonNullable<LoginUi>['providers'] }) {
  const named = providers
    .filter((p) => typeof p?.label === 'string')
    .map((p) => ({ ...p, href: typeof p.href === 'string' ? p.href : '' }));
  // The magic-link plugin: its form is on the page, shown when the plugin is installed.
  const magic = named.some((p) => p.component === 'magic-link' && !p.href);
  const items = named.filter((p) =>
    p.href ? LOCAL_HREF.test(p.href) : p.component === 'passkey-login' && passkeysSupported(),
  );
  if (!items.length && !magic) {
    return null;
  }
  return (
    <div id="providers">
      <h2 id="providers-title">Other ways to sign in</h2>
      <ul id="provider-list" className="providers" aria-labelledby="providers-title">
        {items.map((p, i) => (
          <li key={i}>
            {p.href ? (
              <a className="button" href={p.href}>
                {p.label}
              </a>
            ) : (
              <PasskeyLogin label={p.label} />
            )}
          </li>
        ))}
      </ul>
      {magic && <MagicLinkForm />}
    </div>
  );
}

/**
 * POST to a plugin route whose answer is a redirect that fetch follows (the passkey sign-in's
 * 302): the final response, or the refusal thrown as an ApiError.
 */
async function postFollowing(path: string, body: unknown): Promise<Response> {
  const loose = api as unknown as {
    POST(
      url: string,
      init: { body: unknown; parseAs: 'text' },
    ): Promise<{ data?: unknown; error?: unknown; response: Response }>;
  };
  const answer = await loose.POST(`/admin/api${path}`, { body, parseAs: 'text' });
  await unwrap(Promise.resolve(answer));
  return answer.response;
}

/** Passwordless: login/options, the browser's discoverable-credential prompt, login/verify (a 302). */
function PasskeyLogin({ label }: { label: string }) {
  const messages = useMessages();
  const action = useAction();
  const signIn = async () => {
    try {
      const started = await content<{ flowId: string; options: OptionsJSON }>(
        'POST',
        '/plugins/passkeys/login/options',
        { body: {} },
      );
      const asked = await askPasskey('get', started.options);
      if (!asked.ok) {
        messages.showError(asked.message);
        return;
      }
      const res = await postFollowing('/plugins/passkeys/login/verify', {
        flowId: started.flowId,
        response: asked.credential,
        next: landing(),
      });
      if (res.redirected) {
        goRedirected(res.url);
        return;
      }
      messages.showError('Sign-in did not complete. Try again.');
    } catch (e) {
      messages.showProblem(e, undefined, {
        AUTH_INVALID_CREDENTIALS: 'This passkey could not sign you in. Try again, or use your password.',
      });
    }
  };
  return (
    <button type="button" id="passkey-login" disabled={action.busy} onClick={() => action.run(signIn)}>
      {label}
    </button>
  );
}

function MagicLinkForm() {
  const messages = useMessages();
  const form = useForm();
  return (
    <form
      id="magic-form"
      method="post"
      aria-labelledby="magic-title"
      aria-busy={form.busy || undefined}
      onSubmit={form.submit(async (_el, data) => {
        try {
          const r = await content<{ message?: string }>('POST', '/plugins/magic-link/request', {
            body: { email: text(data, 'email'), next: landing() },
          });
          messages.showNotice(
            r?.message || 'If the address can sign in, a link is on its way. It works once.',
            true,
          );
        } catch (e) {
          messages.showProblem(e, form);
        }
      })}
    >
      <h3 id="magic-title">Sign in with an emailed link</h3>
      <Field
        id="magic-email"
        name="email"
        label="Your email, for a sign-in link"
        type="email"
        autoComplete="username"
        maxLength={320}
        form={form}
      />
      <button type="submit" disabled={form.busy}>
        Email me a link
      </button>
    </form>
  );
}

/** The code of an authenticator app, or a recovery code. */
function ChallengeStep({ flow, hint }: { flow: Flow; hint: string }) {
  const form = useForm();
  const code = useRef<HTMLInputElement>(null);
  useFocusOnMount(code);
  return (
    <StepSection id="step-challenge" title="Two-step verification" titleId="challenge-title">
      <form
        id="challenge-form"
        method="post"
        aria-busy={form.busy || undefined}
        onSubmit={form.submit((_el, data) =>
          flow.resolve({ code: text(data, 'code').trim() }, 'That code is not right.', form, () => {
            if (code.current) {
              code.current.value = '';
            }
            form.markInvalid('code');
          }),
        )}
      >
        <Field
          id="challenge-code"
          name="code"
          label="Code"
          autoComplete="one-time-code"
          hint={hint}
          inputMode="numeric"
          maxLength={64}
          spellCheck={false}
          form={form}
          inputRef={code}
        />
        <button type="submit" disabled={form.busy}>
          Continue
        </button>
      </form>
      <StartOver />
    </StepSection>
  );
}

/** The passkey as the second step: options for the paused sign-in, the browser's assertion, resolve. */
function PasskeyStep({ flow, ask }: { flow: Flow; ask: boolean }) {
  const messages = useMessages();
  const action = useAction();
  const button = useRef<HTMLButtonElement>(null);
  const confirm = async () => {
    let options: OptionsJSON;
    try {
      options = await content<OptionsJSON>('POST', '/plugins/passkeys/challenge/options', {
        body: flow.withPending({}),
      });
    } catch (e) {
      if (e instanceof ApiError && (e.code === 'AUTH_INVALID_CREDENTIALS' || e.status === 404)) {
        flow.backToLogin(EXPIRED);
      } else {
        messages.showProblem(e);
      }
      return;
    }
    const asked = await askPasskey('get', options);
    if (!asked.ok) {
      messages.showError(asked.message);
      return;
    }
    await flow.resolve({ assertion: asked.credential }, 'The passkey could not be verified. Try again.');
  };
  // Shown after a click (the sign-in's button), the browser's prompt opens at once; resumed, on a click.
  const asked = useRef(false);
  useEffect(() => {
    button.current?.focus();
    if (ask && !asked.current) {
      asked.current = true;
      action.run(confirm);
    }
  }, []); // once, when the step is shown
  return (
    <StepSection id="step-passkey" title="Confirm with your passkey" titleId="passkey-title">
      <p>Your account has a passkey. Use it to finish signing in.</p>
      <button
        type="button"
        id="passkey-button"
        ref={button}
        disabled={action.busy}
        onClick={() => action.run(confirm)}
      >
        Use my passkey
      </button>
      <StartOver />
    </StepSection>
  );
}

/** An administrator set the password: the person chooses their own, and is signed in. */
function InitialPasswordStep({ flow }: { flow: Flow }) {
  const messages = useMessages();
  const form = useForm();
  const el = useRef<HTMLFormElement>(null);
  useEffect(() => {
    (el.current?.elements.namedItem('password') as HTMLInputElement | null)?.focus();
  }, []);
  return (
    <StepSection id="step-initial-password" title="Choose your password" titleId="initial-title">
      <p>An administrator set your password. Choose your own to finish signing in.</p>
      <form
        id="initial-password-form"
        method="post"
        ref={el}
        aria-busy={form.busy || undefined}
        onSubmit={form.submit(async (_el, data) => {
          if (!passwordsMatch(data, form, messages)) {
            return;
          }
          try {
            await unwrap(
              api.POST('/admin/api/auth/set-initial-password', {
                body: flow.withPending({ newPassword: text(data, 'password') }),
              }),
            );
            go(landing());
          } catch (e) {
            if (e instanceof ApiError && e.code === 'AUTH_INVALID_CREDENTIALS') {
              flow.backToLogin(EXPIRED);
            } else {
              messages.showProblem(e, form);
            }
          }
        })}
      >
        <PasswordPair prefix="initial" form={form} />
        <button type="submit" disabled={form.busy}>
          Set password and sign in
        </button>
      </form>
      <StartOver />
    </StepSection>
  );
}

/**
 * An enrolment route's refusal: a spent or expired step starts over, anything else is shown
 * (`special` words for some codes).
 */
function useEnrolProblem(flow: Flow) {
  const messages = useMessages();
  return (e: unknown, form?: FormState, special?: Record<string, string>) => {
    if (e instanceof ApiError && (e.code === 'AUTH_REQUIRED' || e.code === 'AUTH_INVALID_CREDENTIALS')) {
      flow.backToLogin(EXPIRED);
    } else {
      messages.showProblem(e, form, special);
    }
  };
}

/** The account needs a second factor before the session: an authenticator app or a passkey. */
function EnrolStep({ flow, totp, passkey }: { flow: Flow; totp: boolean; passkey: boolean }) {
  const title = useRef<HTMLHeadingElement>(null);
  useFocusOnMount(title);
  // The page's own words: the service's hint names every kind of second factor, installed or not.
  const what =
    totp && passkey
      ? 'Set up an authenticator app or a passkey.'
      : totp
        ? 'Set up an authenticator app.'
        : 'Add a passkey.';
  return (
    <StepSection id="step-enrol" title="Set up a second factor" titleId="enrol-title" titleRef={title}>
      <p id="enrol-text">Your account needs a second factor before you can sign in. {what}</p>
      {totp && <EnrolTotp flow={flow} />}
      {passkey && <EnrolPasskey flow={flow} />}
      <StartOver />
    </StepSection>
  );
}

function EnrolTotp({ flow }: { flow: Flow }) {
  const enrolProblem = useEnrolProblem(flow);
  const start = useAction();
  const form = useForm();
  const [setup, setSetup] = useState<{ secret: string; qrSvg: string } | null>(null);
  const code = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (setup) {
      code.current?.focus();
    }
  }, [setup]);
  return (
    <div id="enrol-totp">
      <h3 id="enrol-totp-title">An authenticator app</h3>
      {!setup ? (
        <button
          type="button"
          id="enrol-totp-start"
          disabled={start.busy}
          onClick={() =>
            start.run(async () => {
              try {
                setSetup(
                  await content<{ secret: string; qrSvg: string }>('POST', '/plugins/totp/enroll', {
                    body: flow.withPending({}),
                  }),
                );
              } catch (e) {
                enrolProblem(e);
              }
            })
          }
        >
          Set up an authenticator app
        </button>
      ) : (
        <div id="enrol-totp-setup">
          <TotpKey prefix="enrol-totp" secret={setup.secret} qrSvg={setup.qrSvg} />
          <form
            id="enrol-totp-form"
            method="post"
            aria-busy={form.busy || undefined}
            onSubmit={form.submit(async (_el, data) => {
              try {
                const r = await content<{ recoveryCodes?: string[] }>(
                  'POST',
                  '/plugins/totp/enroll/confirm',
                  {
                    body: flow.withPending({ code: text(data, 'code').trim() }),
                  },
                );
                flow.showRecovery(r?.recoveryCodes ?? [], r);
              } catch (e) {
                if (e instanceof ApiError && e.code === 'INVALID_INPUT' && code.current) {
                  code.current.value = '';
                }
                enrolProblem(e, form, {
                  INVALID_INPUT: 'That code is not right. Try the code the app shows now.',
                });
              }
            })}
          >
            <TotpCodeField id="enrol-totp-code" form={form} inputRef={code} />
            <button type="submit" disabled={form.busy}>
              Turn on two-step verification and sign in
            </button>
          </form>
        </div>
      )}
    </div>
  );
}

function EnrolPasskey({ flow }: { flow: Flow }) {
  const messages = useMessages();
  const enrolProblem = useEnrolProblem(flow);
  const form = useForm();
  return (
    <div id="enrol-passkey">
      <h3 id="enrol-passkey-title">A passkey</h3>
      <form
        id="enrol-passkey-form"
        method="post"
        aria-labelledby="enrol-passkey-title"
        aria-busy={form.busy || undefined}
        onSubmit={form.submit(async (_el, data) => {
          try {
            const added = await registerPasskey<unknown>(text(data, 'name').trim(), flow.withPending({}));
            if (!added.ok) {
              messages.showError(added.message);
              return;
            }
            const r = added.answer;
            flow.proceed(r, false);
          } catch (e) {
            enrolProblem(e, form);
          }
        })}
      >
        <PasskeyNameField id="enrol-passkey-name" form={form} />
        <button type="submit" disabled={form.busy}>
          Add a passkey and sign in
        </button>
      </form>
    </div>
  );
}

/** The recovery codes of the app just set up, shown once; then the session (or the next step). */
function RecoveryStep({ flow, codes, answer }: { flow: Flow; codes: string[]; answer: unknown }) {
  const title = useRef<HTMLHeadingElement>(null);
  useFocusOnMount(title);
  return (
    <StepSection id="step-recovery" title="Your recovery codes" titleId="recovery-title" titleRef={title}>
      <p>
        Two-step verification is on. Each code signs you in once when you do not have your app. Keep them
        somewhere safe: they are not shown again.
      </p>
      <ul id="recovery-codes" className="codes">
        {codes.map((c, i) => (
          <li key={i}>{c}</li>
        ))}
      </ul>
      <button type="button" id="recovery-continue" onClick={() => flow.proceed(answer, false)}>
        I have kept them: continue
      </button>
    </StepSection>
  );
}

function UnsupportedStep({ text }: { text: string }) {
  const title = useRef<HTMLHeadingElement>(null);
  useFocusOnMount(title);
  return (
    <StepSection
      id="step-unsupported"
      title="Another step is needed"
      titleId="unsupported-title"
      titleRef={title}
    >
      <p id="unsupported-text">{text}</p>
      <StartOver />
    </StepSection>
  );
}
