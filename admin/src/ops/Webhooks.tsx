import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useOutletContext } from 'react-router';
import { api, type Session, unwrap } from '../api';
import { Pager } from '../screens/Pager';
import { Title } from '../screens/Title';
import { forget, holds, peek, Time, useDocumentTitle, type Webhook } from './shared';
import './ops.css';

type Sort = 'name' | '-name' | 'createdAt' | '-createdAt';
const LIMIT = 20;

/** The endpoint's state in words: enabled, paused, or disabled by the service (with why). */
export function stateOf(hook: Webhook): { word: string; detail?: string; className: string } {
  if (hook.enabled) {
    return { word: 'Enabled', className: 'state-enabled' };
  }
  if (hook.disabledReason) {
    return { word: 'Disabled', detail: hook.disabledReason, className: 'state-failed' };
  }
  return { word: 'Disabled', className: 'state-disabled' };
}

export function eventsText(events: readonly string[]): string {
  return events.includes('*') ? 'All events' : events.join(', ');
}

/** The webhook endpoints: a table with search, sort by name or creation, and pages. */
export default function Webhooks() {
  const session = useOutletContext<Session>();
  useDocumentTitle('Webhooks');
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<Sort>('name');
  // A notice handed over by the endpoint's screen (its deletion), shown once.
  const [notice] = useState(() => peek('webhooks')?.notice);
  useEffect(() => forget('webhooks'), []);
  const list = useQuery({
    queryKey: ['webhooks', { search, page, sort }],
    queryFn: () =>
      unwrap(
        api.GET('/admin/api/webhooks', {
          params: { query: { page, limit: LIMIT, sort, search: search || undefined } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
  const items = list.data?.items ?? [];
  const meta = list.data?.meta;
  const sortHeader = (name: 'name' | 'createdAt', label: string) => {
    const state = sort === name ? 'ascending' : sort === `-${name}` ? 'descending' : 'none';
    return (
      <th scope="col" aria-sort={state}>
        <button
          type="button"
          className="sort"
          onClick={() => {
            setSort(state === 'ascending' ? `-${name}` : name);
            setPage(1);
          }}
        >
          {label}
          <span aria-hidden="true">{state === 'ascending' ? ' ▲' : state === 'descending' ? ' ▼' : ''}</span>
        </button>
      </th>
    );
  };
  return (
    <div className="ops">
      <div className="title-row">
        <Title>Webhooks</Title>
        {holds(session, 'create-webhooks') && (
          <Link className="button primary" to="/webhooks/new">
            New webhook
          </Link>
        )}
      </div>
      <p className="muted">
        Each endpoint receives a signed <code>POST</code> for every event it subscribes to.
      </p>
      <div role="status" className={notice ? 'notice' : undefined}>
        {notice}
      </div>
      <form
        role="search"
        aria-label="Webhooks"
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          setSearch(String(new FormData(e.currentTarget).get('q') ?? '').trim());
          setPage(1);
        }}
      >
        <label htmlFor="webhook-search">Search</label>
        <input id="webhook-search" name="q" type="search" defaultValue={search} />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      {list.error && (
        <p role="alert" className="error">
          {list.error.message}
        </p>
      )}
      {list.isPending && <p className="loading">Loading…</p>}
      {meta && (
        <div className="table-scroll" role="region" aria-labelledby="webhooks-caption" tabIndex={0}>
          <table id="webhooks-table">
            <caption id="webhooks-caption" className="visually-hidden">
              Webhook endpoints
            </caption>
            <thead>
              <tr>
                {sortHeader('name', 'Name')}
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">State</th>
                <th scope="col">Last delivery</th>
                {sortHeader('createdAt', 'Created')}
              </tr>
            </thead>
            <tbody>
              {items.map((hook) => {
                const state = stateOf(hook);
                return (
                  <tr key={hook.id}>
                    <th scope="row">
                      <Link to={`/webhooks/${hook.id}`}>{hook.name}</Link>
                    </th>
                    <td className="url">{hook.url}</td>
                    <td className="events">{eventsText(hook.events)}</td>
                    <td>
                      <span className={`badge ${state.className}`}>{state.word}</span>
                      {state.detail && <span className="state-detail"> {state.detail}</span>}
                    </td>
                    <td>
                      <Time iso={hook.lastDeliveryAt} />
                    </td>
                    <td>
                      <Time iso={hook.createdAt} />
                    </td>
                  </tr>
                );
              })}
              {items.length === 0 && (
                <tr>
                  <td colSpan={6}>
                    {search ? `No webhook matches “${search}”.` : 'There is no webhook yet.'}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      {meta && <Pager meta={meta} one="webhook" many="webhooks" go={setPage} />}
    </div>
  );
}
