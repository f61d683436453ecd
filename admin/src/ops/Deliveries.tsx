import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useEffect, useState } from 'react';
import { api, unwrap } from '../api';
import { useAction } from '../auth/messages';
import { useReport } from '../account/shared';
import { Pager } from '../screens/Pager';
import { StatusBadge, Time, type WebhookDelivery, WEBHOOK_EVENTS, type WebhookEvent } from './shared';

/** A delivery the screen waits for (a test event's, a replay's): the table reloads until it settles. */
export interface Watch {
  eventId?: string;
  deliveryId?: string;
  /** Until when to wait (ms). */
  until: number;
}

type Status = WebhookDelivery['status'];
const LIMIT = 20;

/** The answer of a delivery's last attempt in words. */
function lastAnswer(d: WebhookDelivery): string {
  if (d.lastStatusCode !== null) {
    return d.lastError && d.lastError !== `HTTP ${d.lastStatusCode}`
      ? `HTTP ${d.lastStatusCode}: ${d.lastError}`
      : `HTTP ${d.lastStatusCode}`;
  }
  return d.lastError ?? '—';
}

/**
 * The deliveries to an endpoint, newest first, filtered by state and event type, in pages. A row's
 * event opens its attempts (and the body sent), where it can be replayed. While a delivery is
 * pending, or one the screen waits for has not appeared, the table reloads itself.
 */
export function Deliveries({
  hookId,
  canReplay,
  watch,
  onReplayed,
}: {
  hookId: string;
  canReplay: boolean;
  watch: Watch | null;
  onReplayed: (deliveryId: string) => void;
}) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<Status | ''>('');
  const [event, setEvent] = useState<WebhookEvent | ''>('');
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['deliveries', hookId, { status, event, page }],
    queryFn: () =>
      unwrap(
        api.GET('/admin/api/webhooks/{id}/deliveries', {
          params: {
            path: { id: hookId },
            query: { page, limit: LIMIT, status: status || undefined, event: event || undefined },
          },
        }),
      ),
    placeholderData: (previous) => previous,
    refetchInterval: (query) => {
      const items = query.state.data?.items ?? [];
      const waiting =
        watch !== null &&
        Date.now() < watch.until &&
        !items.some(
          (d) =>
            (d.id === watch.deliveryId || d.eventId === watch.eventId) &&
            // A replay has the event's webhook-id too: the watched one is the newest.
            d.status !== 'pending',
        );
      if (waiting) {
        return 1000;
      }
      const soon = items.some(
        (d) =>
          d.status === 'pending' &&
          (d.nextAttemptAt === null || new Date(d.nextAttemptAt).getTime() - Date.now() < 30_000),
      );
      if (soon) {
        return 2000;
      }
      return items.some((d) => d.status === 'pending') ? 15_000 : false;
    },
  });
  const items = list.data?.items ?? [];
  const meta = list.data?.meta;
  // A delivery that settles changes the endpoint's facts (last delivery, failures in a row).
  const settled = items.filter((d) => d.status !== 'pending').length;
  useEffect(() => {
    if (settled > 0) {
      void queryClient.invalidateQueries({ queryKey: ['webhook', hookId], exact: true });
    }
  }, [settled, hookId, queryClient]);
  return (
    <section className="deliveries" aria-labelledby="deliveries-title">
      <h2 id="deliveries-title">Deliveries</h2>
      <p className="hint">Newest first, kept for 30 days. Open an event to see its attempts.</p>
      <div className="toolbar">
        <div className="field inline">
          <label htmlFor="deliveries-status">Status</label>
          <select
            id="deliveries-status"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as Status | '');
              setPage(1);
            }}
          >
            <option value="">Any</option>
            <option value="pending">pending</option>
            <option value="succeeded">succeeded</option>
            <option value="failed">failed</option>
          </select>
        </div>
        <div className="field inline">
          <label htmlFor="deliveries-event">Event type</label>
          <select
            id="deliveries-event"
            value={event}
            onChange={(e) => {
              setEvent(e.target.value as WebhookEvent | '');
              setPage(1);
            }}
          >
            <option value="">Any</option>
            {WEBHOOK_EVENTS.map((e) => (
              <option key={e} value={e}>
                {e}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="button" onClick={() => void list.refetch()}>
          Refresh
        </button>
      </div>
      {list.error && (
        <p role="alert" className="error">
          {list.error.message}
        </p>
      )}
      {meta && (
        <div className="table-scroll" role="region" aria-labelledby="deliveries-caption" tabIndex={0}>
          <table id="deliveries-table">
            <caption id="deliveries-caption" className="visually-hidden">
              Deliveries to this endpoint
            </caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">Created</th>
                <th scope="col">Delivered or next attempt</th>
              </tr>
            </thead>
            <tbody>
              {items.map((d) => {
                const expanded = open === d.id;
                return (
                  <Fragment key={d.id}>
                    <tr className={expanded ? 'open' : undefined}>
                      <th scope="row">
                        <button
                          type="button"
                          className="disclosure"
                          aria-expanded={expanded}
                          aria-controls={expanded ? `delivery-${d.id}` : undefined}
                          onClick={() => setOpen(expanded ? null : d.id)}
                        >
                          <span aria-hidden="true" className="chevron">
                            {expanded ? '▾' : '▸'}
                          </span>
                          <code>{d.event}</code>
                        </button>
                      </th>
                      <td>
                        <StatusBadge status={d.status} />
                      </td>
                      <td>{d.attempts}</td>
                      <td className="answer">{lastAnswer(d)}</td>
                      <td>
                        <Time iso={d.createdAt} />
                      </td>
                      <td>
                        {d.deliveredAt ? (
                          <Time iso={d.deliveredAt} />
                        ) : d.nextAttemptAt ? (
                          <>
                            next: <Time iso={d.nextAttemptAt} />
                          </>
                        ) : (
                          '—'
                        )}
                      </td>
                    </tr>
                    {expanded && (
                      <tr id={`delivery-${d.id}`} className="detail">
                        <td colSpan={6}>
                          <DeliveryDetail
                            hookId={hookId}
                            delivery={d}
                            canReplay={canReplay}
                            onReplayed={onReplayed}
                          />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
              {items.length === 0 && (
                <tr>
                  <td colSpan={6}>
                    {status || event ? 'No delivery matches.' : 'No delivery yet: send a test event.'}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      {meta && <Pager meta={meta} one="delivery" many="deliveries" go={setPage} />}
    </section>
  );
}

/** One delivery's attempts (time, answer, error, duration, the answer's start) and the body sent. */
function DeliveryDetail({
  hookId,
  delivery,
  canReplay,
  onReplayed,
}: {
  hookId: string;
  delivery: WebhookDelivery;
  canReplay: boolean;
  onReplayed: (deliveryId: string) => void;
}) {
  const queryClient = useQueryClient();
  const report = useReport();
  const replay = useAction();
  const detail = useQuery({
    // Its attempts change while it is pending: the list's row (status, attempts) is in the key.
    queryKey: ['delivery', hookId, delivery.id, delivery.status, delivery.attempts],
    queryFn: () =>
      unwrap(
        api.GET('/admin/api/webhooks/{id}/deliveries/{deliveryId}', {
          params: { path: { id: hookId, deliveryId: delivery.id } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
  const titleId = `delivery-${delivery.id}-title`;
  return (
    <div className="delivery-detail" aria-labelledby={titleId} role="group">
      <h3 id={titleId}>
        Attempts of <code>{delivery.event}</code>
      </h3>
      <p className="muted">
        webhook-id <code>{delivery.eventId}</code>
      </p>
      {detail.isPending && <p className="loading">Loading…</p>}
      {detail.error && (
        <p role="alert" className="error">
          {detail.error.message}
        </p>
      )}
      {detail.data &&
        (detail.data.attemptsLog.length ? (
          <ol className="attempts">
            {detail.data.attemptsLog.map((a, i) => (
              <li key={`${a.at}-${i}`}>
                <Time iso={a.at} />: {a.statusCode !== undefined ? `HTTP ${a.statusCode}` : 'no answer'}
                {a.error && ` (${a.error})`}, {a.durationMs} ms
                {a.responseBody && (
                  <details>
                    <summary>The answer’s body</summary>
                    <pre>{a.responseBody}</pre>
                  </details>
                )}
              </li>
            ))}
          </ol>
        ) : (
          <p>No attempt yet.</p>
        ))}
      {detail.data && (
        <details>
          <summary>The body sent</summary>
          <pre>{JSON.stringify(detail.data.payload, null, 2)}</pre>
        </details>
      )}
      {canReplay && (
        <div className="actions">
          <button
            type="button"
            className="button"
            aria-describedby={`delivery-${delivery.id}-replay-hint`}
            onClick={() =>
              replay.run(async () => {
                try {
                  const r = await unwrap(
                    api.POST('/admin/api/webhooks/{id}/deliveries/{deliveryId}/replay', {
                      params: { path: { id: hookId, deliveryId: delivery.id } },
                    }),
                  );
                  onReplayed(r.deliveryId);
                  await queryClient.invalidateQueries({ queryKey: ['deliveries', hookId] });
                } catch (e) {
                  report(e);
                }
              })
            }
          >
            Replay
          </button>
          <span id={`delivery-${delivery.id}-replay-hint`} className="hint">
            A new delivery of the same event, with the same webhook-id, attempted at once.
          </span>
        </div>
      )}
    </div>
  );
}
