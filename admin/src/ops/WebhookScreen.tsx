import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useOutletContext, useParams } from 'react-router';
import { ConfirmButton } from '../screens/Confirm';
import { Title } from '../screens/Title';
import { ApiError, api, type Session, unwrap } from '../api';
import { Regions, useAction, useMessages, WithMessages } from '../auth/messages';
import { useReport } from '../account/shared';
import { Deliveries, type Watch } from './Deliveries';
import { WebhookForm } from './WebhookForm';
import { eventsText, stateOf } from './Webhooks';
import { forget, hand, holds, peek, SecretPanel, Time, useDocumentTitle, type Webhook } from './shared';
import './ops.css';

/** `/webhooks/new` (create) and `/webhooks/:id` (the endpoint: edit, test, secret, deliveries). */
export default function WebhookScreen() {
  const { id } = useParams();
  const session = useOutletContext<Session>();
  return (
    <WithMessages key={id ?? 'new'}>
      <div className="ops">
        <p className="crumbs">
          <Link to="/webhooks">Webhooks</Link>
        </p>
        {id === undefined ? <NewWebhook session={session} /> : <Endpoint id={id} session={session} />}
      </div>
    </WithMessages>
  );
}

function NewWebhook({ session }: { session: Session }) {
  useDocumentTitle('New webhook');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const report = useReport();
  return (
    <>
      <Title>New webhook</Title>
      <Regions />
      {holds(session, 'create-webhooks') ? (
        <WebhookForm
          onSubmit={async (body, form) => {
            try {
              const created = await unwrap(api.POST('/admin/api/webhooks', { body }));
              // The secret goes to the endpoint's screen, in memory: shown there once.
              hand(`webhook:${created.item.id}`, {
                secret: created.secret,
                notice: `The webhook ${created.item.name} is created. Copy its signing secret now: it is not shown again.`,
              });
              queryClient.setQueryData(['webhook', created.item.id], created.item);
              await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
              await navigate(`/webhooks/${created.item.id}`, { replace: true });
            } catch (e) {
              report(e, form);
            }
          }}
        />
      ) : (
        <p>You may not create webhooks.</p>
      )}
    </>
  );
}

function Endpoint({ id, session }: { id: string; session: Session }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const messages = useMessages();
  const [secret, setSecret] = useState(() => peek(`webhook:${id}`)?.secret);
  useEffect(() => {
    const handed = peek(`webhook:${id}`);
    if (handed?.notice) {
      messages.showNotice(handed.notice);
    }
    forget(`webhook:${id}`);
  }, [id, messages]);
  const hook = useQuery({
    queryKey: ['webhook', id],
    queryFn: () => unwrap(api.GET('/admin/api/webhooks/{id}', { params: { path: { id } } })),
  });
  useDocumentTitle(hook.data?.name ?? 'Webhook');
  const notFound = hook.error instanceof ApiError && hook.error.status === 404;
  return (
    <>
      <Title>{hook.data?.name ?? (notFound ? 'Not found' : 'Webhook')}</Title>
      <Regions />
      {secret && (
        <SecretPanel
          secret={secret}
          onDone={() => {
            setSecret(undefined);
            document.querySelector<HTMLElement>('main h1')?.focus();
          }}
        />
      )}
      {hook.isPending && <p className="loading">Loading…</p>}
      {hook.error && (
        <p role="alert" className="error">
          {notFound ? 'There is no such webhook.' : hook.error.message}
        </p>
      )}
      {hook.data && (
        <Loaded
          hook={hook.data}
          session={session}
          onSecret={setSecret}
          onDeleted={async (name) => {
            hand('webhooks', { notice: `The webhook ${name} is deleted.` });
            queryClient.removeQueries({ queryKey: ['webhook', id] });
            await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
            await navigate('/webhooks');
          }}
        />
      )}
    </>
  );
}

/** The endpoint's facts, its actions, its settings and its deliveries. */
function Loaded({
  hook,
  session,
  onSecret,
  onDeleted,
}: {
  hook: Webhook;
  session: Session;
  onSecret: (secret: string) => void;
  onDeleted: (name: string) => Promise<void>;
}) {
  const id = hook.id;
  const queryClient = useQueryClient();
  const messages = useMessages();
  const report = useReport();
  const action = useAction();
  const [watch, setWatch] = useState<Watch | null>(null);
  const canUpdate = holds(session, 'update-webhooks');
  const canDelete = holds(session, 'delete-webhooks');
  const path = { params: { path: { id } } };
  return (
    <>
      <Facts hook={hook} />
      {(canUpdate || canDelete) && (
        <>
          <div className="actions" aria-label="Webhook actions" role="group">
            {canUpdate && (
              <button
                type="button"
                className="button"
                onClick={() =>
                  action.run(async () => {
                    try {
                      const r = await unwrap(api.POST('/admin/api/webhooks/{id}/test', path));
                      setWatch({ eventId: r.eventId, until: Date.now() + 30_000 });
                      await queryClient.invalidateQueries({ queryKey: ['deliveries', id] });
                      messages.showNotice(
                        `Test event queued (webhook-id ${r.eventId}). Its delivery shows in the table below.`,
                      );
                    } catch (e) {
                      report(e);
                    }
                  })
                }
              >
                Send test
              </button>
            )}
            {canUpdate && (
              <button
                type="button"
                className="button"
                aria-describedby="webhook-rotate-hint"
                onClick={() =>
                  action.run(async () => {
                    try {
                      const r = await unwrap(api.POST('/admin/api/webhooks/{id}/rotate-secret', path));
                      onSecret(r.secret);
                      messages.showNotice(
                        'The secret is rotated: the old one no longer works. Copy the new one now: it is not shown again.',
                      );
                    } catch (e) {
                      report(e);
                    }
                  })
                }
              >
                Rotate secret
              </button>
            )}
            {canDelete && (
              <ConfirmButton
                label="Delete"
                title="Delete this webhook"
                onConfirm={() =>
                  action.run(async () => {
                    try {
                      await unwrap(api.DELETE('/admin/api/webhooks/{id}', path));
                    } catch (e) {
                      report(e);
                      return;
                    }
                    await onDeleted(hook.name);
                  })
                }
              >
                Delete the webhook “{hook.name}” and its deliveries? Pending deliveries are never attempted.
                This cannot be undone.
              </ConfirmButton>
            )}
          </div>
          {canUpdate && (
            <p id="webhook-rotate-hint" className="hint">
              Rotate secret: every later request is signed with a new secret, shown once; the old one stops at
              once.
            </p>
          )}
        </>
      )}
      {!canUpdate && <p>You may read this webhook but not change it.</p>}
      <WebhookForm
        initial={hook}
        readOnly={!canUpdate}
        onSubmit={async (body, form) => {
          try {
            const r = await unwrap(api.PATCH('/admin/api/webhooks/{id}', { ...path, body }));
            queryClient.setQueryData(['webhook', id], r.item);
            await queryClient.invalidateQueries({ queryKey: ['webhooks'] });
            messages.showNotice('Saved');
          } catch (e) {
            report(e, form);
          }
        }}
      />
      <Deliveries
        hookId={id}
        canReplay={canUpdate}
        watch={watch}
        onReplayed={(deliveryId) => {
          setWatch({ deliveryId, until: Date.now() + 30_000 });
          messages.showNotice('The delivery is queued again. Its new delivery shows in the table below.');
        }}
      />
    </>
  );
}

/** The endpoint's state at a glance. */
function Facts({ hook }: { hook: Webhook }) {
  const state = stateOf(hook);
  return (
    <dl className="facts">
      <div>
        <dt>State</dt>
        <dd>
          <span className={`badge ${state.className}`}>{state.word}</span>
          {state.detail && <span className="state-detail"> by the service: {state.detail}</span>}
        </dd>
      </div>
      <div>
        <dt>URL</dt>
        <dd className="url">{hook.url}</dd>
      </div>
      <div>
        <dt>Events</dt>
        <dd>{eventsText(hook.events)}</dd>
      </div>
      <div>
        <dt>Failed in a row</dt>
        <dd>{hook.failureCount}</dd>
      </div>
      <div>
        <dt>Last delivery</dt>
        <dd>
          <Time iso={hook.lastDeliveryAt} />
        </dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>
          <Time iso={hook.createdAt} />
        </dd>
      </div>
    </dl>
  );
}
