import type { ReactNode } from 'react';
import { ApiError } from '../api';
import type { FormState } from '../auth/messages';
import { useReport } from '../account/shared';

export { useDocumentTitle } from '../ops/shared';

/** The ids a field's input is described by: its hint and its error slot. */
function describedBy(id: string, hint: ReactNode, errors: boolean): string | undefined {
  return [hint ? `${id}-hint` : '', errors ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

function HintAndError({ id, hint, message }: { id: string; hint?: ReactNode; message?: string }) {
  return (
    <>
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <p className="field-error" id={`${id}-error`}>
        {message}
      </p>
    </>
  );
}

type AreaProps = Omit<React.TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'name' | 'form'>;

/** A labelled textarea with its hint and its own error slot, as `Field` is for inputs. */
export function AreaField({
  id,
  name,
  label,
  hint,
  form,
  required = false,
  ...area
}: AreaProps & { id: string; name: string; label: ReactNode; hint?: ReactNode; form: FormState }) {
  const message = form.invalid[name];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        required={required}
        aria-describedby={describedBy(id, hint, true)}
        aria-invalid={message !== undefined ? true : undefined}
        {...area}
      />
      <HintAndError id={id} hint={hint} message={message} />
    </div>
  );
}

type SelectProps = Omit<React.SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name' | 'form'>;

/** A labelled select with its hint and its own error slot. */
export function SelectField({
  id,
  name,
  label,
  hint,
  form,
  options,
  ...select
}: SelectProps & {
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  form: FormState;
  options: Array<{ value: string; label: string }>;
}) {
  const message = form.invalid[name];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        aria-describedby={describedBy(id, hint, true)}
        aria-invalid={message !== undefined ? true : undefined}
        {...select}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <HintAndError id={id} hint={hint} message={message} />
    </div>
  );
}

/** A labelled checkbox with a hint and an error slot. */
export function CheckField({
  id,
  name,
  label,
  hint,
  form,
  ...input
}: Omit<React.InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'form' | 'type'> & {
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  form: FormState;
}) {
  const message = form.invalid[name];
  return (
    <div className="field checkbox">
      <input
        id={id}
        name={name}
        type="checkbox"
        aria-describedby={describedBy(id, hint, true)}
        aria-invalid={message !== undefined ? true : undefined}
        {...input}
      />
      <label htmlFor={id}>{label}</label>
      <HintAndError id={id} hint={hint} message={message} />
    </div>
  );
}

/**
 * `useReport`, with the issues of nested bodies (`config.host`, `options.2.value`) also marked on
 * the form's field named by their last named segment, through `rename` when the names differ; a
 * refusal without issues whose code is in `byCode` (a taken name: `DUPLICATE`) marks that field.
 */
export function useSettingsReport(rename: Record<string, string> = {}, byCode: Record<string, string> = {}) {
  const report = useReport();
  return (error: unknown, form?: FormState, special?: Record<string, string>) => {
    if (form && error instanceof ApiError && error.issues.length === 0 && Object.hasOwn(byCode, error.code)) {
      form.markInvalid(byCode[error.code], error.message);
    }
    if (form && error instanceof ApiError) {
      for (const issue of error.issues) {
        const path = String(issue.path);
        const named = path.split('.').filter((s) => !/^\d+$/.test(s));
        const last = named[named.length - 1] ?? path;
        const name = rename[path] ?? rename[named[0]] ?? last;
        if (name !== named[0]) {
          form.markInvalid(name, issue.message);
        }
      }
    }
    report(error, form, special);
  };
}

/** A number field's value: null when empty, else the number (NaN is sent and refused by the API). */
export function numberOrNull(value: FormDataEntryValue | null): number | null {
  const s = typeof value === 'string' ? value.trim() : '';
  return s === '' ? null : Number(s);
}
