import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { ApiError } from '../api';

/**
 * The two live regions of the sign-in and account screens: errors (assertive; the focus moves
 * there, so a screen reader reads them and the keyboard starts from them) and notices (polite).
 */
interface Shown {
  error?: { text: string; items: string[] };
  notice?: string;
  /** Which region takes the focus after this render. */
  focus?: 'error' | 'notice';
  seq: number;
}

export interface Messages {
  showError(text: string, items?: string[]): void;
  showNotice(text: string, focus?: boolean): void;
  /**
   * A refusal as a message: `special` words for some codes, a rate limit with its wait, else the
   * service's message with its per-field issues listed (and marked on `form`'s fields).
   */
  showProblem(error: unknown, form?: FormState, special?: Record<string, string>): void;
  clear(): void;
}

const MessagesContext = createContext<Messages | null>(null);

export function useMessages(): Messages {
  const messages = useContext(MessagesContext);
  if (!messages) {
    throw new Error('useMessages outside <WithMessages>');
  }
  return messages;
}

/** Words for a failure that is not the service's answer: the network, or a bug. */
export function failureText(error: unknown): string {
  return error instanceof TypeError
    ? 'The service could not be reached. Check your connection and try again.'
    : 'Something went wrong. Try again.';
}

/** Provides `useMessages` to `children`; `<Regions />` must be rendered inside. */
export function WithMessages({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Shown>({ seq: 0 });
  const messages = useMemo<Messages>(() => {
    const showError = (text: string, items: string[] = []) =>
      setShown((s) => ({ error: { text, items }, focus: 'error', seq: s.seq + 1 }));
    return {
      showError,
      showNotice: (text, focus = false) =>
        setShown((s) => ({ notice: text, focus: focus ? 'notice' : undefined, seq: s.seq + 1 })),
      clear: () => setShown((s) => ({ seq: s.seq + 1 })),
      showProblem: (error, form, special = {}) => {
        if (!(error instanceof ApiError)) {
          showError(failureText(error));
          return;
        }
        const words = Object.hasOwn(special, error.code) ? special[error.code] : undefined;
        if (words) {
          showError(words);
          return;
        }
        if (error.code === 'RATE_LIMITED') {
          const wait = error.data.retryAfterSeconds;
          showError(
            `Too many attempts. Try again${typeof wait === 'number' ? ` in ${wait} seconds.` : ' later.'}`,
          );
          return;
        }
        for (const issue of error.issues) {
          // `scopes.2` names the field `scopes`; the API's `newPassword` is the form's `password`.
          const name = issue.path === 'newPassword' ? 'password' : String(issue.path).split('.')[0];
          form?.markInvalid(name, issue.message);
        }
        showError(
          error.message || 'Something went wrong.',
          error.issues.map((i) => i.message),
        );
      },
    };
  }, []);
  return (
    <MessagesContext.Provider value={messages}>
      <ShownContext.Provider value={shown}>{children}</ShownContext.Provider>
    </MessagesContext.Provider>
  );
}

const ShownContext = createContext<Shown>({ seq: 0 });

/** The error and notice regions (ids `error` and `notice`). */
export function Regions() {
  const shown = useContext(ShownContext);
  const error = useRef<HTMLDivElement>(null);
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (shown.focus === 'error') {
      error.current?.focus();
    } else if (shown.focus === 'notice') {
      notice.current?.focus();
    }
  }, [shown]);
  return (
    <>
      <div
        id="error"
        ref={error}
        className="alert"
        role="alert"
        aria-live="assertive"
        aria-atomic="true"
        tabIndex={-1}
      >
        {shown.error && (
          <>
            <p>{shown.error.text}</p>
            {shown.error.items.length > 0 && (
              <ul>
                {shown.error.items.map((item, i) => (
                  <li key={i}>{item}</li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
      <div
        id="notice"
        ref={notice}
        className="notice"
        role="status"
        aria-live="polite"
        aria-atomic="true"
        tabIndex={-1}
      >
        {shown.notice}
      </div>
    </>
  );
}

/** A form's state: busy while its handler runs, and the fields the service refused. */
export interface FormState {
  busy: boolean;
  /** Field name to its messages ('' when marked without one). */
  invalid: Record<string, string>;
  markInvalid(name: string, message?: string): void;
  clearInvalid(): void;
  /** An `onSubmit`: native validation first, then `handler` once at a time, messages cleared. */
  submit(
    handler: (form: HTMLFormElement, data: FormData) => Promise<void> | void,
  ): (e: React.FormEvent<HTMLFormElement>) => void;
}

export function useForm(): FormState {
  const messages = useMessages();
  const [busy, setBusy] = useState(false);
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  const running = useRef(false);
  const markInvalid = useCallback((name: string, message = '') => {
    setInvalid((was) => ({ ...was, [name]: [was[name], message].filter(Boolean).join(' ') }));
  }, []);
  const clearInvalid = useCallback(() => setInvalid({}), []);
  const submit: FormState['submit'] = (handler) => (e) => {
    e.preventDefault();
    if (running.current) {
      return;
    }
    const form = e.currentTarget;
    running.current = true;
    messages.clear();
    setInvalid({});
    setBusy(true);
    Promise.resolve()
      .then(() => handler(form, new FormData(form)))
      .catch((error: unknown) => messages.showProblem(error))
      .finally(() => {
        running.current = false;
        setBusy(false);
      });
  };
  return { busy, invalid, markInvalid, clearInvalid, submit };
}

/** Runs a button's async handler once at a time, messages cleared first, failures shown. */
export function useAction() {
  const messages = useMessages();
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const run = (handler: () => Promise<void> | void) => {
    if (running.current) {
      return;
    }
    running.current = true;
    messages.clear();
    setBusy(true);
    Promise.resolve()
      .then(handler)
      .catch((error: unknown) => messages.showProblem(error))
      .finally(() => {
        running.current = false;
        setBusy(false);
      });
  };
  return { busy, run };
}

type InputProps = Omit<React.InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'form'>;

/**
 * A labelled input, described by its hint and, with `errors`, by its own error slot (the
 * service's messages for it). Required unless `required={false}`. Uncontrolled: the form's
 * handler reads `FormData`.
 */
export function Field({
  id,
  name,
  label,
  hint,
  errors,
  form,
  required = true,
  inputRef,
  ...input
}: InputProps & {
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  errors?: boolean;
  form?: FormState;
  inputRef?: React.Ref<HTMLInputElement>;
}) {
  const described = [hint ? `${id}-hint` : '', errors ? `${id}-error` : ''].filter(Boolean).join(' ');
  const message = form?.invalid[name];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type="text"
        required={required}
        aria-describedby={described || undefined}
        aria-invalid={message !== undefined ? true : undefined}
        ref={inputRef}
        {...input}
      />
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {errors && (
        <p className="field-error" id={`${id}-error`}>
          {message}
        </p>
      )}
    </div>
  );
}

export const PASSWORD_RULE =
  'At least 8 characters, with a lower-case letter, an upper-case letter and a digit.';

/** A new password and its repetition (names `password` and `confirm`). */
export function PasswordPair({
  prefix,
  form,
  label = 'New password',
}: {
  prefix: string;
  form: FormState;
  label?: string;
}) {
  return (
    <>
      <Field
        id={`${prefix}-password`}
        name="password"
        label={label}
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_RULE}
        maxLength={256}
        form={form}
      />
      <Field
        id={`${prefix}-confirm`}
        name="confirm"
        label="Repeat the password"
        type="password"
        autoComplete="new-password"
        maxLength={256}
        form={form}
      />
    </>
  );
}

/** The two passwords agree, else the second is marked and the error says so. */
export function passwordsMatch(data: FormData, form: FormState, messages: Messages): boolean {
  if (data.get('password') === data.get('confirm')) {
    return true;
  }
  form.markInvalid('confirm');
  messages.showError('The two passwords are not the same.');
  return false;
}

/** A form field's text ('' when absent). */
export function text(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}
