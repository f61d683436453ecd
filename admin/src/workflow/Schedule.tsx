import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Modal } from 'react-aria-components';
import type { components } from '../../../src/client';
import { when } from '../account/shared';
import { content } from '../api';
import { toLocalInput } from '../form/fields';
import { splitProblem } from './shared';

export type Schedule = components['schemas']['EntrySchedule'];

const ACTION_WORDS: Record<Schedule['action'], string> = { publish: 'Publish', unpublish: 'Unpublish' };

/**
 * "Schedule": a dialog that plans a publish or unpublish at a time of the browser's time zone,
 * and the entry's pending schedules, each with "Cancel". While one is pending the list is read
 * again, so a schedule that ran is reported (`onRan`).
 */
export function Schedules(props: {
  path: string;
  canSchedule: boolean;
  onRan: (schedule: Schedule) => void;
}) {
  const { path } = props;
  const headingId = useId();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [cancelling, setCancelling] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['schedules', path],
    queryFn: () => content<{ items: Schedule[] }>('GET', `${path}/schedule`, { query: { limit: 100 } }),
    // Read again as the nearest pending time comes (a schedule runs within seconds of it), and at
    // least every minute meanwhile; not at all while nothing is pending.
    refetchInterval: (q) => {
      const times = (q.state.data?.items ?? [])
        .filter((s) => s.status === 'pending')
        .map((s) => Date.parse(s.at));
      return times.length
        ? Math.min(60_000, Math.max(2_000, Math.min(...times) - Date.now() + 1_000))
        : false;
    },
  });
  // Pending ids of the previous answer: one that ended since has run (or failed).
  const pendingBefore = useRef<Set<string> | null>(null);
  const onRan = props.onRan;
  useEffect(() => {
    const items = list.data?.items;
    if (!items) {
      return;
    }
    const before = pendingBefore.current;
    if (before) {
      for (const s of items) {
        if (before.has(s.id) && (s.status === 'done' || s.status === 'failed')) {
          onRan(s);
        }
      }
    }
    pendingBefore.current = new Set(items.filter((s) => s.status === 'pending').map((s) => s.id));
  }, [list.data, onRan]);
  const pending = (list.data?.items ?? [])
    .filter((s) => s.status === 'pending')
    .sort((a, b) => a.at.localeCompare(b.at));
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['schedules', path] });
  const cancel = (s: Schedule) => {
    setCancelling(s.id);
    setFailure(null);
    setNotice(null);
    content('DELETE', `${path}/schedule/${s.id}`)
      .then(() => setNotice(`The ${s.action} at ${when(s.at)} is cancelled.`))
      .catch((e: unknown) => setFailure(splitProblem(e, []).rest))
      .finally(() => {
        setCancelling(null);
        void refresh();
      });
  };
  return (
    <section className="workflow-panel" aria-labelledby={headingId}>
      <h2 id={headingId}>Scheduled changes</h2>
      {pending.length === 0 && !list.isPending && <p>Nothing is scheduled.</p>}
      {list.error && (
        <p role="alert" className="error">
          {list.error.message}
        </p>
      )}
      {pending.length > 0 && (
        <ul className="schedules" aria-labelledby={headingId}>
          {pending.map((s) => (
            <li key={s.id}>
              <span>
                <strong>{ACTION_WORDS[s.action]}</strong> at <time dateTime={s.at}>{when(s.at)}</time>
                {s.createdBy && <span className="muted"> (by {s.createdBy.name})</span>}
              </span>
              {props.canSchedule && (
                <button
                  type="button"
                  className="button"
                  disabled={cancelling === s.id}
                  onClick={() => cancel(s)}
                >
                  Cancel
                  <span className="visually-hidden">
                    {' '}
                    {s.action} at {when(s.at)}
                  </span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <div role="status" className="notice">
        {notice}
      </div>
      {failure && (
        <p role="alert" className="error">
          {failure}
        </p>
      )}
      {props.canSchedule && (
        <ScheduleDialog
          path={path}
          onScheduled={(s) => {
            setFailure(null);
            setNotice(`${ACTION_WORDS[s.action]} scheduled at ${when(s.at)}.`);
            void refresh();
          }}
        />
      )}
    </section>
  );
}

/** An hour from now, to the minute, as the "At" input shows it. */
function inAnHour(): string {
  const d = new Date(Date.now() + 3600_000);
  d.setSeconds(0, 0);
  return toLocalInput(d.toISOString());
}

function ScheduleDialog({ path, onScheduled }: { path: string; onScheduled: (s: Schedule) => void }) {
  const [open, setOpen] = useState(false);
  const [action, setAction] = useState<Schedule['action']>('publish');
  const [at, setAt] = useState(inAnHour);
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const reset = (isOpen: boolean) => {
    setOpen(isOpen);
    setIssues({});
    setFailure(null);
    if (isOpen) {
      setAt(inAnHour());
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setIssues({});
    setFailure(null);
    // The input's value is a wall-clock time without a zone: `Date` reads it in the browser's.
    const instant = at ? new Date(at) : null;
    if (!instant || Number.isNaN(instant.getTime())) {
      setIssues({ at: 'Choose a date and a time.' });
      return;
    }
    setBusy(true);
    content<{ item: Schedule }>('POST', `${path}/schedule`, { body: { action, at: instant.toISOString() } })
      .then((answer) => {
        setOpen(false);
        onScheduled(answer.item);
      })
      .catch((err: unknown) => {
        const { byField, rest } = splitProblem(err, ['action', 'at']);
        setIssues(byField);
        setFailure(rest);
      })
      .finally(() => setBusy(false));
  };
  const aria = (name: string, hint?: string) => ({
    'aria-invalid': issues[name] ? true : undefined,
    'aria-describedby':
      [hint, issues[name] ? `${id}-${name}-error` : ''].filter(Boolean).join(' ') || undefined,
  });
  return (
    <DialogTrigger isOpen={open} onOpenChange={reset}>
      <Button className="button">Schedule</Button>
      <Modal className="modal" isDismissable>
        <Dialog className="dialog">
          <Heading slot="title">Schedule a change</Heading>
          <form onSubmit={submit} noValidate>
            <div className="field">
              <label htmlFor={`${id}-action`}>Action</label>
              <select
                id={`${id}-action`}
                value={action}
                autoFocus
                onChange={(e) => setAction(e.target.value as Schedule['action'])}
                {...aria('action')}
              >
                <option value="publish">Publish</option>
                <option value="unpublish">Unpublish</option>
              </select>
              {issues.action && (
                <p id={`${id}-action-error`} className="field-error">
                  {issues.action}
                </p>
              )}
            </div>
            <div className="field">
              <label htmlFor={`${id}-at`}>At</label>
              <input
                id={`${id}-at`}
                type="datetime-local"
                step="1"
                value={at}
                onChange={(e) => setAt(e.target.value)}
                {...aria('at', `${id}-at-hint`)}
              />
              <p id={`${id}-at-hint`} className="hint">
                In your time zone ({zone}).
              </p>
              {issues.at && (
                <p id={`${id}-at-error`} className="field-error">
                  {issues.at}
                </p>
              )}
            </div>
            {failure && (
              <p role="alert" className="error">
                {failure}
              </p>
            )}
            <div className="actions">
              <button type="submit" className="button primary" disabled={busy}>
                Schedule
              </button>
              <button type="button" className="button" onClick={() => setOpen(false)}>
                Close
              </button>
            </div>
          </form>
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}
