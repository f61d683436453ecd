import { useEffect, useRef, useState } from 'react';
import { content } from '../api';
import { Field, text, useAction, useForm, useMessages } from '../auth/messages';
import { TotpCodeField, TotpKey } from '../auth/second-factors';
import { useReload, useReport, useSectionList } from './shared';

/** The TOTP plugin's routes (not in the typed document; 404 without the plugin). */
interface TotpStatus {
  enabled: boolean;
  pending: boolean;
  recoveryCodesRemaining: number;
}
interface Enrolment {
  secret: string;
  qrSvg: string;
}

const loadStatus = () => content<TotpStatus>('GET', '/plugins/totp/status');

/**
 * Two-step verification with an authenticator app (the TOTP plugin): its state, set up (a QR code
 * and the key, then a code from the app), the recovery codes shown once, turned off with a code.
 */
export function TwoStep() {
  const status = useSectionList('totp', loadStatus);
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const report = useReport();
  const start = useAction();
  if (!status) {
    return null;
  }
  return (
    <section id="totp" aria-labelledby="totp-title">
      <h3 id="totp-title" tabIndex={-1}>
        Two-step verification
      </h3>
      <p id="totp-state">
        {status.enabled
          ? `On. ${status.recoveryCodesRemaining} recovery codes left.`
          : 'Off. Turn it on to ask for a code from an authenticator app at every sign-in.'}
      </p>
      {!status.enabled && (
        <button
          type="button"
          id="totp-start"
          disabled={start.busy}
          onClick={() =>
            start.run(async () => {
              try {
                setEnrolment(await content<Enrolment>('POST', '/plugins/totp/enroll', { body: {} }));
                setCodes(null);
              } catch (e) {
                report(e);
              }
            })
          }
        >
          Set up an authenticator app
        </button>
      )}
      {enrolment && !status.enabled && (
        <Enrol
          enrolment={enrolment}
          onEnabled={(recoveryCodes) => {
            setEnrolment(null);
            setCodes(recoveryCodes);
          }}
        />
      )}
      {codes && <RecoveryCodes codes={codes} />}
      {status.enabled && <Disable onDisabled={() => setCodes(null)} />}
    </section>
  );
}

function Enrol({ enrolment, onEnabled }: { enrolment: Enrolment; onEnabled: (codes: string[]) => void }) {
  const form = useForm();
  const messages = useMessages();
  const report = useReport();
  const reload = useReload('totp');
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    title.current?.focus();
  }, [enrolment]);
  return (
    <div id="totp-enrol">
      <h4 id="totp-enrol-title" ref={title} tabIndex={-1}>
        Set up your authenticator app
      </h4>
      <TotpKey prefix="totp" secret={enrolment.secret} qrSvg={enrolment.qrSvg} />
      <form
        id="totp-confirm-form"
        method="post"
        aria-busy={form.busy || undefined}
        onSubmit={form.submit(async (el, data) => {
          try {
            const r = await content<{ recoveryCodes?: string[] }>('POST', '/plugins/totp/enroll/confirm', {
              body: { code: text(data, 'code').trim() },
            });
            el.reset();
            onEnabled(r.recoveryCodes ?? []);
            await reload();
            messages.showNotice('Two-step verification is on.', false);
          } catch (e) {
            report(e, form, { INVALID_INPUT: 'That code is not right. Try the code the app shows now.' });
          }
        })}
      >
        <TotpCodeField id="totp-confirm-code" form={form} />
        <button type="submit" disabled={form.busy}>
          Turn on two-step verification
        </button>
      </form>
    </div>
  );
}

/** The recovery codes, shown this once; the focus moves to their heading. */
function RecoveryCodes({ codes }: { codes: string[] }) {
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    title.current?.focus();
  }, [codes]);
  return (
    <div id="totp-recovery">
      <h4 id="totp-recovery-title" ref={title} tabIndex={-1}>
        Recovery codes
      </h4>
      <p>
        Each code signs you in once when you do not have your app. Keep them somewhere safe: they are not
        shown again.
      </p>
      <ul id="totp-codes" className="codes">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
    </div>
  );
}

function Disable({ onDisabled }: { onDisabled: () => void }) {
  const form = useForm();
  const messages = useMessages();
  const report = useReport();
  const reload = useReload('totp');
  return (
    <form
      id="totp-disable-form"
      method="post"
      aria-busy={form.busy || undefined}
      onSubmit={form.submit(async (el, data) => {
        try {
          await content('POST', '/plugins/totp/disable', { body: { code: text(data, 'code').trim() } });
          el.reset();
          onDisabled();
          await reload();
          messages.showNotice('Two-step verification is off.', true);
        } catch (e) {
          report(e, form, { INVALID_INPUT: 'That code is not right.' });
        }
      })}
    >
      <Field
        id="totp-disable-code"
        name="code"
        label="A current code or a recovery code"
        autoComplete="one-time-code"
        maxLength={64}
        spellCheck={false}
        form={form}
      />
      <button type="submit" disabled={form.busy}>
        Turn off two-step verification
      </button>
    </form>
  );
}
