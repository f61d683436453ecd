import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useOutletContext, useSearchParams } from 'react-router';
import { ApiError, api, type Session, unwrap } from '../api';
import { Pager } from '../screens/Pager';
import { Title } from '../screens/Title';
import { AUDIT_EVENTS, type AuditEntry, holds, Time, useDocumentTitle } from './shared';
import './ops.css';

const LIMIT = 25;

/** The filters as the API takes them (`event`, `actorId`, `from`, `to`); '' for none. */
interface Filters {
  event: string;
  actorId: string;
  /** `datetime-local` values (the browser's time zone). */
  from: string;
  to: string;
}

const NONE: Filters = { event: '', actorId: '', from: '', to: '' };

/**
 * A `datetime-local` value as an ISO 8601 time; `to` covers its whole last minute (the filter is
 * inclusive). Undefined when empty or unreadable.
 */
function isoOf(local: string, end = false): string | undefined {
  if (!local) {
    return undefined;
  }
  const at = new Date(local);
  if (Number.isNaN(at.getTime())) {
    return undefined;
  }
  // Without seconds the value means the whole minute.
  if (end && /T\d\d:\d\d$/.test(local)) {
    at.setSeconds(59, 999);
  }
  return at.toISOString();
}

/** The API's query parameters for `filters` (the list's, and the CSV export's). */
function queryOf(filters: Filters) {
  return {
    event: filters.event || undefined,
    actorId: filters.actorId || undefined,
    from: isoOf(filters.from),
    to: isoOf(filters.to, true),
  };
}

function exportHref(filters: Filters): string {
  const params = new URLSearchParams({ format: 'csv' });
  for (const [name, value] of Object.entries(queryOf(filters))) {
    if (value) {
      params.set(name, value);
    }
  }
  return `/admin/api/audit/export?${params.toString()}`;
}

/** What a row is about, as the API splits it (`user:<id>` -> user, id). */
function targetText(entry: AuditEntry): string {
  if (!entry.target) {
    return '—';
  }
  return entry.target.id ? `${entry.target.type}: ${entry.target.id}` : entry.target.type;
}

/**
 * The audit log: who did what and when, newest first, filtered by event, actor and time (the
 * filters start from the URL's `event`, `actor`, `from`, `to`), in pages, exported as CSV with the
 * same filters.
 */
export default function AuditLog() {
  const session = useOutletContext<Session>();
  useDocumentTitle('Audit log');
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<Filters>(() => ({
    event: params.get('event') ?? '',
    actorId: params.get('actor') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
  }));
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<'-createdAt' | 'createdAt'>('-createdAt');
  const list = useQuery({
    queryKey: ['audit', { filters, page, sort }],
    queryFn: () =>
      unwrap(
        api.GET('/admin/api/audit', { params: { query: { page, limit: LIMIT, sort, ...queryOf(filters) } } }),
      ),
    placeholderData: (previous) => previous,
  });
  const apply = (changes: Partial<Filters>) => {
    setFilters((was) => ({ ...was, ...changes }));
    setPage(1);
  };
  const issues = list.error instanceof ApiError ? list.error.issues : [];
  const issueOf = (name: string) =>
    issues
      .filter((i) => String(i.path).split('.')[0] === name)
      .map((i) => i.message)
      .join(' ') || undefined;
  const filtered = Object.values(filters).some(Boolean);
  const items = list.data?.items ?? [];
  // The names the Event filter offers: the known ones, any other the page shows, the chosen one.
  const events = [
    ...new Set([...AUDIT_EVENTS, ...items.map((i) => i.event), ...(filters.event ? [filters.event] : [])]),
  ].sort();
  const meta = list.data?.meta;
  const state = sort === 'createdAt' ? 'ascending' : 'descending';
  return (
    <div className="ops">
      <Title>Audit log</Title>
      <p className="muted">
        Changes to accounts, roles, permissions, settings and schemas, and every sign-in, with who and when.
      </p>
      <form
        className="filters audit-filters"
        aria-label="Filter the audit log"
        onSubmit={(e: FormEvent<HTMLFormElement>) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          apply({ actorId: String(data.get('actorId') ?? '').trim() });
        }}
      >
        <div className="filter-fields">
          <div className="field">
            <label htmlFor="audit-event">Event</label>
            <select
              id="audit-event"
              name="event"
              value={filters.event}
              onChange={(e) => apply({ event: e.target.value })}
              {...invalid('audit-event', issueOf('event'))}
            >
              <option value="">All events</option>
              {events.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
            <FieldError id="audit-event" message={issueOf('event')} />
          </div>
          <ActorFilter
            key={filters.actorId}
            session={session}
            value={filters.actorId}
            message={issueOf('actorId')}
            onChange={(actorId) => apply({ actorId })}
          />
          <div className="field">
            <label htmlFor="audit-from">From</label>
            <input
              id="audit-from"
              name="from"
              type="datetime-local"
              value={filters.from}
              onChange={(e) => apply({ from: e.target.value })}
              {...invalid('audit-from', issueOf('from'))}
            />
            <FieldError id="audit-from" message={issueOf('from')} />
          </div>
          <div className="field">
            <label htmlFor="audit-to">To</label>
            <input
              id="audit-to"
              name="to"
              type="datetime-local"
              value={filters.to}
              onChange={(e) => apply({ to: e.target.value })}
              {...invalid('audit-to', issueOf('to'))}
            />
            <FieldError id="audit-to" message={issueOf('to')} />
          </div>
        </div>
        <div className="actions">
          <button type="submit" className="button">
            Apply filters
          </button>
          <button
            type="button"
            className="button"
            disabled={!filtered}
            onClick={() => {
              setFilters(NONE);
              setPage(1);
            }}
          >
            Clear filters
          </button>
          <a className="button" href={exportHref(filters)} download="audit-log.csv">
            Export CSV
          </a>
        </div>
      </form>
      {list.error && (
        <div role="alert" className="alert">
          <p>{list.error.message}</p>
          {issues.length > 0 && (
            <ul>
              {issues.map((i, n) => (
                <li key={n}>{i.message}</li>
              ))}
            </ul>
          )}
        </div>
      )}
      <p role="status" className="visually-hidden">
        {meta
          ? `${meta.total} ${meta.total === 1 ? 'entry' : 'entries'}${filtered ? ' match the filters' : ''}`
          : ''}
      </p>
      {list.isPending && <p className="loading">Loading…</p>}
      {meta && (
        <div className="table-scroll" role="region" aria-labelledby="audit-caption" tabIndex={0}>
          <table id="audit-table">
            <caption id="audit-caption" className="visually-hidden">
              Audit log entries
            </caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Actor</th>
                <th scope="col" aria-sort={state}>
                  <button
                    type="button"
                    className="sort"
                    onClick={() => {
                      setSort(sort === 'createdAt' ? '-createdAt' : 'createdAt');
                      setPage(1);
                    }}
                  >
                    Date
                    <span aria-hidden="true">{state === 'ascending' ? ' ▲' : ' ▼'}</span>
                  </button>
                </th>
                <th scope="col">Target</th>
                <th scope="col">IP</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {items.map((entry) => (
                <tr key={entry.id}>
                  <td className="event">{entry.event}</td>
                  <td>
                    {entry.actor ? (
                      <button
                        type="button"
                        className="link"
                        onClick={() => entry.actor && apply({ actorId: entry.actor.id })}
                      >
                        {entry.actor.name || entry.actor.id}
                        <span className="visually-hidden">: show only what they did</span>
                      </button>
                    ) : (
                      <span className="muted">nobody</span>
                    )}
                  </td>
                  <td>
                    <Time iso={entry.createdAt} />
                  </td>
                  <td className="target">{targetText(entry)}</td>
                  <td className="ip">{entry.ip ?? '—'}</td>
                  <td>
                    <Details entry={entry} />
                  </td>
                </tr>
              ))}
              {items.length === 0 && (
                <tr>
                  <td colSpan={6}>{filtered ? 'No entry matches the filters.' : 'The log is empty.'}</td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      {meta && <Pager meta={meta} one="entry" many="entries" go={setPage} />}
    </div>
  );
}

/** `aria-invalid` and the error's description for a filter the API refused. */
function invalid(id: string, message: string | undefined) {
  return message
    ? { 'aria-invalid': true as const, 'aria-describedby': `${id}-error` }
    : { 'aria-invalid': undefined, 'aria-describedby': undefined };
}

function FieldError({ id, message }: { id: string; message?: string }) {
  return (
    <p id={`${id}-error`} className="field-error">
      {message}
    </p>
  );
}

/**
 * Whose actions: a list of the users for a session that may read them, else a user id (a name in
 * the table filters by that person too).
 */
function ActorFilter({
  session,
  value,
  message,
  onChange,
}: {
  session: Session;
  value: string;
  message?: string;
  onChange: (actorId: string) => void;
}) {
  const readsUsers = holds(session, 'read-users');
  const users = useQuery({
    queryKey: ['audit-actors'],
    enabled: readsUsers,
    queryFn: () => unwrap(api.GET('/admin/api/users', { params: { query: { limit: 500, sort: 'name' } } })),
    staleTime: 60_000,
  });
  if (readsUsers && users.data) {
    const known = users.data.items.some((u) => u.id === value);
    return (
      <div className="field">
        <label htmlFor="audit-actor">Actor</label>
        <select
          id="audit-actor"
          name="actorId"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...invalid('audit-actor', message)}
        >
          <option value="">Anyone</option>
          {value && !known && <option value={value}>{value}</option>}
          {users.data.items.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name ? `${u.name} (${u.email})` : u.email}
            </option>
          ))}
        </select>
        <FieldError id="audit-actor" message={message} />
      </div>
    );
  }
  return (
    <div className="field">
      <label htmlFor="audit-actor">Actor</label>
      <input
        id="audit-actor"
        name="actorId"
        type="text"
        defaultValue={value}
        spellCheck={false}
        autoCapitalize="none"
        placeholder="A user id"
        aria-describedby={message ? 'audit-actor-hint audit-actor-error' : 'audit-actor-hint'}
        aria-invalid={message ? true : undefined}
        onBlur={(e) => {
          if (e.target.value.trim() !== value) {
            onChange(e.target.value.trim());
          }
        }}
      />
      <p id="audit-actor-hint" className="hint">
        A user’s id; or pick a name in the table.
      </p>
      <FieldError id="audit-actor" message={message} />
    </div>
  );
}

/** The rest of a row: the client, the sign-in strategy and the metadata. */
function Details({ entry }: { entry: AuditEntry }) {
  const metadata = Object.keys(entry.metadata).length ? JSON.stringify(entry.metadata, null, 2) : null;
  if (!metadata && !entry.userAgent && !entry.strategy) {
    return <>—</>;
  }
  return (
    <details className="row-details">
      <summary>More</summary>
      <dl>
        {entry.strategy && (
          <div>
            <dt>Strategy</dt>
            <dd>{entry.strategy}</dd>
          </div>
        )}
        {entry.userAgent && (
          <div>
            <dt>Client</dt>
            <dd>{entry.userAgent}</dd>
          </div>
        )}
        {metadata && (
          <div>
            <dt>Metadata</dt>
            <dd>
              <pre>{metadata}</pre>
            </dd>
          </div>
        )}
      </dl>
    </details>
  );
}
