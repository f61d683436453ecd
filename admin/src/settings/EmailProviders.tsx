import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { components } from '../../../src/client';
import { ApiError, api, holds, type Session, unwrap } from '../api';
import {
  Field,
  type FormState,
  Regions,
  text,
  useAction,
  useForm,
  useMessages,
  WithMessages,
} from '../auth/messages';
import { ConfirmButton } from '../screens/Confirm';
import { Title } from '../screens/Title';
import { forget, hand, peek } from '../ops/shared';
import { CheckField, numberOrNull, useDocumentTitle, useSettingsReport } from './shared';

type Provider = components['schemas']['EmailProvider'];
type ProviderBody = components['schemas']['CreateEmailProviderDto'];

const loadProviders = async () =>
  (await unwrap(api.GET('/admin/api/email-providers', { params: { query: { limit: 100, sort: 'name' } } })))
    .items;

/** `/settings/email/providers`: the SMTP servers email is sent through, and the default one. */
export function EmailProviders({ session }: { session: Session }) {
  useDocumentTitle('Email providers');
  return (
    <WithMessages>
      <ProviderList session={session} />
    </WithMessages>
  );
}

function ProviderList({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const report = useSettingsReport();
  const providers = useQuery({ queryKey: ['email-providers'], queryFn: loadProviders });
  const canUpdate = holds(session, 'update-email-providers');
  const canDelete = holds(session, 'delete-email-providers');
  return (
    <>
      <div className="title-row">
        <Title>Email providers</Title>
        {holds(session, 'create-email-providers') && (
          <Link className="button primary" to="/settings/email/providers/new">
            New provider
          </Link>
        )}
      </div>
      <p className="hint">
        Email is sent through the default provider. Without one, outside production, emails are written to the
        service’s log instead.
      </p>
      <HandedNotice />
      <Regions />
      {providers.isPending && <p className="loading">Loading…</p>}
      {providers.error && (
        <p role="alert" className="error">
          {providers.error.message}
        </p>
      )}
      {providers.data && (
        <ProviderTable
          providers={providers.data}
          canUpdate={canUpdate}
          canDelete={canDelete}
          onChanged={() => queryClient.invalidateQueries({ queryKey: ['email-providers'] })}
          report={report}
        />
      )}
    </>
  );
}

/** A notice handed over by a provider's screen (its deletion), shown once. */
function HandedNotice() {
  useHandedNotice('email-providers');
  return null;
}

function useHandedNotice(key: string) {
  const messages = useMessages();
  useEffect(() => {
    const notice = peek(key)?.notice;
    forget(key);
    if (notice) {
      messages.showNotice(notice);
    }
  }, [key, messages]);
}

function ProviderTable({
  providers,
  canUpdate,
  canDelete,
  onChanged,
  report,
}: {
  providers: Provider[];
  canUpdate: boolean;
  canDelete: boolean;
  onChanged: () => Promise<void>;
  report: (error: unknown) => void;
}) {
  const messages = useMessages();
  const action = useAction();
  return (
    <div className="table-scroll" role="region" aria-labelledby="email-providers-caption" tabIndex={0}>
      <table id="email-providers-table">
        <caption id="email-providers-caption" className="visually-hidden">
          Email providers
        </caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Sender</th>
            <th scope="col">Server</th>
            <th scope="col">Default</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {providers.map((p) => (
            <tr key={p.id}>
              <th scope="row">
                <Link to={`/settings/email/providers/${p.id}`}>{p.name}</Link>
              </th>
              <td className="wrap">{p.fromName ? `${p.fromName} <${p.fromEmail}>` : p.fromEmail}</td>
              <td className="wrap">
                {p.config.host}:{p.config.port}
              </td>
              <td>{p.isDefault ? <span className="badge default">Default</span> : 'No'}</td>
              <td>
                <div className="row-actions">
                  {canUpdate && !p.isDefault && (
                    <button
                      type="button"
                      className="button"
                      aria-label={`Make default: ${p.name}`}
                      disabled={action.busy}
                      onClick={() =>
                        action.run(async () => {
                          try {
                            await unwrap(
                              api.PATCH('/admin/api/email-providers/{id}/default', {
                                params: { path: { id: p.id } },
                              }),
                            );
                            await onChanged();
                            messages.showNotice(`${p.name} is now the default provider.`);
                          } catch (e) {
                            report(e);
                          }
                        })
                      }
                    >
                      Make default
                    </button>
                  )}
                  {canDelete && (
                    <ConfirmButton
                      label="Delete"
                      title="Delete this email provider"
                      isDisabled={action.busy}
                      onConfirm={() =>
                        action.run(async () => {
                          try {
                            await unwrap(
                              api.DELETE('/admin/api/email-providers/{id}', {
                                params: { path: { id: p.id } },
                              }),
                            );
                            await onChanged();
                            messages.showNotice(`The email provider ${p.name} is deleted.`);
                          } catch (e) {
                            report(e);
                          }
                        })
                      }
                    >
                      Delete the provider “{p.name}”?
                      {p.isDefault
                        ? ' It is the default: no email is sent until another one is made default.'
                        : ''}{' '}
                      This cannot be undone.
                    </ConfirmButton>
                  )}
                </div>
              </td>
            </tr>
          ))}
          {providers.length === 0 && (
            <tr>
              <td colSpan={5}>There is no email provider yet.</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** `/settings/email/providers/new` and `/settings/email/providers/:id` (edit, test send). */
export function EmailProviderScreen({ session }: { session: Session }) {
  const { id = 'new' } = useParams();
  return (
    <WithMessages key={id}>
      <p className="crumbs">
        <Link to="/settings/email/providers">Email providers</Link>
      </p>
      {id === 'new' ? <NewProvider session={session} /> : <ProviderScreen id={id} session={session} />}
    </WithMessages>
  );
}

function NewProvider({ session }: { session: Session }) {
  useDocumentTitle('New email provider');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const report = useSettingsReport();
  return (
    <>
      <Title>New email provider</Title>
      <Regions />
      {holds(session, 'create-email-providers') ? (
        <ProviderForm
          submitLabel="Save"
          onSubmit={async (body, form) => {
            try {
              const r = await unwrap(api.POST('/admin/api/email-providers', { body }));
              queryClient.setQueryData(['email-provider', r.item.id], r.item);
              await queryClient.invalidateQueries({ queryKey: ['email-providers'] });
              hand(`email-provider:${r.item.id}`, {
                notice: `The email provider ${r.item.name} is created. Send a test email to check it.`,
              });
              await navigate(`/settings/email/providers/${r.item.id}`, { replace: true });
            } catch (e) {
              report(e, form);
            }
          }}
        />
      ) : (
        <p>You may not create email providers.</p>
      )}
    </>
  );
}

function ProviderScreen({ id, session }: { id: string; session: Session }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const messages = useMessages();
  const report = useSettingsReport();
  const action = useAction();
  const provider = useQuery({
    queryKey: ['email-provider', id],
    queryFn: () => unwrap(api.GET('/admin/api/email-providers/{id}', { params: { path: { id } } })),
  });
  useHandedNotice(`email-provider:${id}`);
  useDocumentTitle(provider.data?.name ?? 'Email provider');
  const notFound = provider.error instanceof ApiError && provider.error.status === 404;
  const p = provider.data;
  const canUpdate = holds(session, 'update-email-providers');
  return (
    <>
      <Title>{p ? `Email provider: ${p.name}` : notFound ? 'Not found' : 'Email provider'}</Title>
      <Regions />
      {provider.isPending && <p className="loading">Loading…</p>}
      {provider.error && (
        <p role="alert" className="error">
          {notFound ? 'There is no such email provider.' : provider.error.message}
        </p>
      )}
      {p && (
        <>
          <p>
            {p.isDefault ? (
              <span className="badge default">Default provider</span>
            ) : (
              <>
                Not the default provider.{' '}
                {canUpdate && (
                  <button
                    type="button"
                    className="button"
                    disabled={action.busy}
                    onClick={() =>
                      action.run(async () => {
                        try {
                          const r = await unwrap(
                            api.PATCH('/admin/api/email-providers/{id}/default', {
                              params: { path: { id } },
                            }),
                          );
                          queryClient.setQueryData(['email-provider', id], r.item);
                          await queryClient.invalidateQueries({ queryKey: ['email-providers'] });
                          messages.showNotice(`${r.item.name} is now the default provider.`);
                        } catch (e) {
                          report(e);
                        }
                      })
                    }
                  >
                    Make default
                  </button>
                )}
              </>
            )}
          </p>
          <TestSend provider={p} />
          <ProviderForm
            key={p.updatedAt}
            initial={p}
            readOnly={!canUpdate}
            submitLabel="Save"
            onSubmit={async (body, form) => {
              try {
                const { isDefault: _isDefault, ...changes } = body;
                const r = await unwrap(
                  api.PATCH('/admin/api/email-providers/{id}', { params: { path: { id } }, body: changes }),
                );
                queryClient.setQueryData(['email-provider', id], r.item);
                await queryClient.invalidateQueries({ queryKey: ['email-providers'] });
                messages.showNotice('The email provider is saved.');
              } catch (e) {
                report(e, form);
              }
            }}
          />
          {holds(session, 'delete-email-providers') && (
            <div className="actions">
              <ConfirmButton
                label="Delete"
                title="Delete this email provider"
                isDisabled={action.busy}
                onConfirm={() =>
                  action.run(async () => {
                    try {
                      await unwrap(
                        api.DELETE('/admin/api/email-providers/{id}', { params: { path: { id } } }),
                      );
                    } catch (e) {
                      report(e);
                      return;
                    }
                    hand('email-providers', { notice: `The email provider ${p.name} is deleted.` });
                    queryClient.removeQueries({ queryKey: ['email-provider', id] });
                    await queryClient.invalidateQueries({ queryKey: ['email-providers'] });
                    await navigate('/settings/email/providers');
                  })
                }
              >
                Delete the provider “{p.name}”? This cannot be undone.
              </ConfirmButton>
            </div>
          )}
        </>
      )}
    </>
  );
}

/** The provider's name, sender and SMTP settings. The password is write-only: never shown back. */
function ProviderForm({
  initial,
  readOnly = false,
  submitLabel,
  onSubmit,
}: {
  initial?: Provider;
  readOnly?: boolean;
  submitLabel: string;
  onSubmit: (body: ProviderBody, form: FormState) => Promise<void>;
}) {
  const form = useForm();
  const passwordSet = initial !== undefined && initial.config.password !== null;
  return (
    <form
      id="email-provider-form"
      className="editor"
      aria-labelledby="email-provider-form-title"
      aria-busy={form.busy || undefined}
      onSubmit={form.submit(async (_el, data) => {
        const password = text(data, 'password');
        const fromName = text(data, 'fromName').trim();
        const user = text(data, 'user').trim();
        await onSubmit(
          {
            name: text(data, 'name').trim(),
            type: 'smtp',
            fromEmail: text(data, 'fromEmail').trim(),
            fromName: fromName || null,
            config: {
              host: text(data, 'host').trim(),
              port: numberOrNull(data.get('port')) as number,
              secure: data.get('secure') === 'on',
              user: user || null,
              // Empty keeps the stored password (absent); "Remove" clears it (null).
              ...(data.get('clearPassword') === 'on' ? { password: null } : password ? { password } : {}),
            },
            // Sent only when ticked: the first provider becomes the default anyway.
            ...(!initial && data.get('isDefault') === 'on' ? { isDefault: true } : {}),
          },
          form,
        );
      })}
    >
      <h2 id="email-provider-form-title" className={initial ? undefined : 'visually-hidden'}>
        {initial ? 'Settings' : 'The new provider'}
      </h2>
      <fieldset className="plain" disabled={readOnly}>
        <Field
          id="provider-name"
          name="name"
          label="Name"
          maxLength={200}
          defaultValue={initial?.name}
          errors
          form={form}
        />
        <Field
          id="provider-from-email"
          name="fromEmail"
          label="Sender address"
          type="email"
          autoComplete="off"
          defaultValue={initial?.fromEmail}
          hint="The From address of every email sent through this provider."
          errors
          form={form}
        />
        <Field
          id="provider-from-name"
          name="fromName"
          label="Sender name (optional)"
          required={false}
          maxLength={200}
          defaultValue={initial?.fromName ?? ''}
          errors
          form={form}
        />
        <fieldset className="group">
          <legend>SMTP server</legend>
          <Field
            id="provider-host"
            name="host"
            label="Host"
            spellCheck={false}
            autoCapitalize="none"
            defaultValue={initial?.config.host}
            errors
            form={form}
          />
          <Field
            id="provider-port"
            name="port"
            label="Port"
            type="number"
            inputMode="numeric"
            defaultValue={initial?.config.port ?? 587}
            hint="Usually 587 (STARTTLS) or 465 (TLS from the start)."
            errors
            form={form}
          />
          <CheckField
            id="provider-secure"
            name="secure"
            label="TLS from the start"
            defaultChecked={initial?.config.secure ?? false}
            hint="For port 465. Otherwise the connection is upgraded with STARTTLS when the server offers it."
            form={form}
          />
          <Field
            id="provider-user"
            name="user"
            label="User name (optional)"
            required={false}
            autoComplete="off"
            spellCheck={false}
            autoCapitalize="none"
            defaultValue={initial?.config.user ?? ''}
            errors
            form={form}
          />
          <Field
            id="provider-password"
            name="password"
            label={passwordSet ? 'New password (optional)' : 'Password (optional)'}
            type="password"
            required={false}
            autoComplete="new-password"
            hint={
              passwordSet
                ? 'A password is set. It is never shown; leave this empty to keep it.'
                : 'No password is set. It is stored encrypted and never shown again.'
            }
            errors
            form={form}
          />
          {passwordSet && (
            <CheckField
              id="provider-clear-password"
              name="clearPassword"
              label="Remove the saved password"
              form={form}
            />
          )}
        </fieldset>
        {!initial && (
          <CheckField
            id="provider-default"
            name="isDefault"
            label="Make it the default provider"
            hint="The first provider becomes the default anyway."
            form={form}
          />
        )}
        <div className="actions">
          <button type="submit" className="button primary">
            {submitLabel}
          </button>
        </div>
      </fieldset>
    </form>
  );
}

/** Sends a test email through the provider to an address, and shows what the server answered. */
function TestSend({ provider }: { provider: Provider }) {
  const form = useForm();
  const messages = useMessages();
  const report = useSettingsReport();
  return (
    <section aria-labelledby="test-send-title" className="panel">
      <h2 id="test-send-title">Send a test email</h2>
      <form
        className="toolbar"
        aria-labelledby="test-send-title"
        aria-busy={form.busy || undefined}
        onSubmit={form.submit(async (_el, data) => {
          const to = text(data, 'to').trim();
          try {
            const r = await unwrap(
              api.POST('/admin/api/email-providers/{id}/test', {
                params: { path: { id: provider.id } },
                body: { to },
              }),
            );
            messages.showNotice(r.message, true);
          } catch (e) {
            if (e instanceof ApiError && e.code === 'SERVICE_UNAVAILABLE') {
              const reason = typeof e.data.reason === 'string' ? e.data.reason : undefined;
              messages.showError(
                `The test email was not sent. ${e.message}`,
                reason ? [`The server answered: ${reason}`] : [],
              );
              return;
            }
            report(e, form);
          }
        })}
      >
        <Field
          id="test-send-to"
          name="to"
          label="To"
          type="email"
          autoComplete="email"
          hint={`Sent through ${provider.config.host}:${provider.config.port}, from ${provider.fromEmail}.`}
          errors
          form={form}
        />
        <button type="submit" className="button">
          {form.busy ? 'Sending…' : 'Send test'}
        </button>
      </form>
    </section>
  );
}
