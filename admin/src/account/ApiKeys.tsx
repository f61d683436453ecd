import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useOutletContext } from 'react-router';
import type { components } from '../../../src/client';
import { api, holds, type Session, unwrap } from '../api';
import { Field, text, useAction, useForm, useMessages } from '../auth/messages';
import { day, ScrollTable, useReload, useReport, useSectionList } from './shared';

type ApiKey = components['schemas']['ApiKey'];
type CreateBody = components['schemas']['CreateApiKeyDto'];
type KeyType = CreateBody['type'];
const KEY_TYPES: KeyType[] = ['read-only', 'full-access', 'role-based'];

/** A key's value, shown once (created or rotated), with the words of its label. */
interface Shown {
  key: string;
  label: string;
}

/** The key being rotated and the row's button, which takes the focus back on Cancel. */
interface Rotating {
  key: ApiKey;
  button: HTMLButtonElement;
  /** Each Rotate opens the form afresh (its choice reset, the focus on it). */
  opened: number;
}

const loadKeys = () => unwrap(api.GET('/admin/api/api-keys', { params: { query: { limit: 100 } } }));

/**
 * The person's API keys: listed, created (type, description, scopes, expiry), rotated with a grace
 * period, revoked; a new value is shown once.
 */
export function ApiKeys() {
  const list = useSectionList('api-keys', loadKeys);
  const roles = useGrantableRoles(list?.items.some((k) => k.type === 'role-based') ?? false);
  const [shown, setShown] = useState<Shown | null>(null);
  const [rotating, setRotating] = useState<Rotating | null>(null);
  const messages = useMessages();

  const endRotation = (refocus: boolean) => {
    setRotating(null);
    if (refocus && rotating?.button.isConnected) {
      rotating.button.focus();
    }
  };

  if (!list) {
    return null;
  }
  return (
    <section id="keys" aria-labelledby="keys-title">
      <h3 id="keys-title" tabIndex={-1}>
        API keys
      </h3>
      <p>Keys let programs use the API on your behalf. A key is shown once, when it is created or rotated.</p>
      {list.items.length > 0 ? (
        <ScrollTable
          id="keys-table"
          bodyId="keys-body"
          caption="Your API keys"
          head={['Name', 'Starts with', 'Type', 'Status', 'Expires', 'Last used', 'Actions']}
        >
          {list.items.map((key) => (
            <KeyRow
              key={key.id}
              apiKey={key}
              role={roles?.find((r) => r.id === key.roleId)?.name}
              onRotate={(button) => {
                messages.clear();
                // A value shown before leaves the page: one new value at a time.
                setShown(null);
                setRotating((was) => ({ key, button, opened: (was?.opened ?? 0) + 1 }));
              }}
              onRevoked={() => {
                setShown(null);
                endRotation(false);
              }}
            />
          ))}
        </ScrollTable>
      ) : (
        <p id="keys-empty">You have no API keys.</p>
      )}
      {rotating && (
        <RotateForm
          key={`${rotating.key.id}:${rotating.opened}`}
          apiKey={rotating.key}
          onCancel={() => endRotation(true)}
          onRotated={(value, name) => {
            endRotation(false);
            setShown({ key: value, label: `The new value of ${name}: copy it now, it is not shown again` });
          }}
        />
      )}
      {shown && <NewKey shown={shown} />}
      <CreateForm
        onCreated={(value) => {
          endRotation(false);
          setShown({ key: value, label: 'Your new key: copy it now, it is not shown again' });
        }}
      />
    </section>
  );
}

function KeyRow({
  apiKey: key,
  role,
  onRotate,
  onRevoked,
}: {
  apiKey: ApiKey;
  /** A role-based key's role, by name when known. */
  role?: string;
  onRotate: (button: HTMLButtonElement) => void;
  onRevoked: () => void;
}) {
  const reload = useReload('api-keys');
  const messages = useMessages();
  const report = useReport();
  const revoke = useAction();
  const scoped = Array.isArray(key.scopes) && key.scopes.length > 0;
  return (
    <tr>
      <th scope="row">{key.name}</th>
      <td>{key.keyPrefix}…</td>
      <td>
        {key.type}
        {key.type === 'role-based' && ` (${role ?? 'a role'})`}
        {scoped && ` (scopes: ${key.scopes!.join(', ')})`}
      </td>
      <td>{key.status}</td>
      <td>{day(key.expiresAt)}</td>
      <td>{day(key.lastUsedAt)}</td>
      <td>
        {key.status === 'active' && (
          <div className="row-actions">
            <button
              type="button"
              aria-label={`Rotate the key ${key.name}`}
              onClick={(e) => onRotate(e.currentTarget)}
            >
              Rotate
            </button>
            <button
              type="button"
              aria-label={`Revoke the key ${key.name}`}
              disabled={revoke.busy}
              onClick={() => {
                if (!window.confirm(`Revoke the key ${key.name}? Programs using it stop working.`)) {
                  return;
                }
                revoke.run(async () => {
                  try {
                    await unwrap(
                      api.DELETE('/admin/api/api-keys/{id}', { params: { path: { id: key.id } } }),
                    );
                  } catch (e) {
                    report(e);
                    return;
                  }
                  onRevoked();
                  await reload();
                  messages.showNotice(`The key ${key.name} is revoked.`, true);
                });
              }}
            >
              Revoke
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}

/** Rotate on a key's row: how long the old value keeps working. */
function RotateForm({
  apiKey: key,
  onCancel,
  onRotated,
}: {
  apiKey: ApiKey;
  onCancel: () => void;
  onRotated: (value: string, name: string) => void;
}) {
  const form = useForm();
  const messages = useMessages();
  const report = useReport();
  const reload = useReload('api-keys');
  const grace = useRef<HTMLSelectElement>(null);
  useEffect(() => {
    grace.current?.focus();
  }, []);
  return (
    <form
      id="key-rotate-form"
      method="post"
      aria-labelledby="key-rotate-title"
      aria-busy={form.busy || undefined}
      onSubmit={form.submit(async (_el, data) => {
        const seconds = Number(text(data, 'graceSeconds')) || 0;
        try {
          const r = await unwrap(
            api.POST('/admin/api/api-keys/{id}/rotate', {
              params: { path: { id: key.id } },
              body: { graceSeconds: seconds },
            }),
          );
          onRotated(r.key, r.item.name);
          await reload();
          const old = seconds
            ? `The old value keeps working for ${seconds === 3600 ? '1 hour' : `${seconds / 3600} hours`}.`
            : 'The old value no longer works.';
          messages.showNotice(
            `The key ${r.item.name} is rotated. Copy the new value now: it is not shown again. ${old}`,
            false,
          );
        } catch (e) {
          report(e, form);
        }
      })}
    >
      <h4 id="key-rotate-title" tabIndex={-1}>
        Rotate the key {key.name}
      </h4>
      <p>The key gets a new value, shown once. Programs using the old value need the new one.</p>
      <div className="field">
        <label htmlFor="key-rotate-grace">The old value keeps working for</label>
        <select id="key-rotate-grace" name="graceSeconds" ref={grace} defaultValue="0">
          <option value="0">No time: it stops at once</option>
          <option value="3600">1 hour</option>
          <option value="86400">24 hours</option>
        </select>
      </div>
      <div className="actions">
        <button type="submit" disabled={form.busy}>
          Rotate the key
        </button>
        <button type="button" id="key-rotate-cancel" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** The new value, shown once: focused and selected, with a button to copy it. */
function NewKey({ shown }: { shown: Shown }) {
  const messages = useMessages();
  const value = useRef<HTMLInputElement>(null);
  useEffect(() => {
    value.current?.focus();
    value.current?.select();
  }, [shown]);
  return (
    <div id="key-created">
      <div className="field">
        <label htmlFor="key-value" id="key-value-label">
          {shown.label}
        </label>
        <input id="key-value" ref={value} type="text" readOnly spellCheck={false} value={shown.key} />
      </div>
      <button
        type="button"
        id="key-copy"
        onClick={() => {
          const copied =
            navigator.clipboard?.writeText(shown.key) ?? Promise.reject(new Error('no clipboard'));
          copied.then(
            () => messages.showNotice('The key is copied.', false),
            () => {
              value.current?.select();
              messages.showNotice('Copy the key from the field above.', false);
            },
          );
        }}
      >
        Copy the key
      </button>
    </div>
  );
}

/**
 * The roles a role-based key may take: every role for whoever may read them, else the person's own
 * (the API refuses a role holding a permission its creator lacks, and the form shows why).
 */
function useGrantableRoles(enabled: boolean) {
  const session = useOutletContext<Session>();
  const all = holds(session, 'read-roles');
  const roles = useQuery({
    queryKey: ['people', 'roles', 'for-keys'],
    queryFn: () => unwrap(api.GET('/admin/api/roles', { params: { query: { limit: 100, sort: 'name' } } })),
    enabled: enabled && all,
  });
  return all ? roles.data?.items : session.me.roles;
}

function CreateForm({ onCreated }: { onCreated: (value: string) => void }) {
  const [type, setType] = useState<KeyType>('read-only');
  const roles = useGrantableRoles(type === 'role-based');
  const form = useForm();
  const messages = useMessages();
  const report = useReport();
  const reload = useReload('api-keys');
  return (
    <>
      <h4 id="key-form-title">Create a key</h4>
      <form
        id="key-form"
        method="post"
        aria-labelledby="key-form-title"
        aria-busy={form.busy || undefined}
        onSubmit={form.submit(async (el, data) => {
          const type = KEY_TYPES.find((t) => t === text(data, 'type')) ?? 'read-only';
          const body: CreateBody = { name: text(data, 'name').trim(), type };
          if (type === 'role-based') {
            body.roleId = text(data, 'roleId');
          }
          const description = text(data, 'description').trim();
          if (description) {
            body.description = description;
          }
          const expires = text(data, 'expiresAt');
          if (expires) {
            body.expiresAt = new Date(`${expires}T23:59:59Z`).toISOString();
          }
          const scopes = text(data, 'scopes')
            .split(/[\s,]+/)
            .filter((slug) => slug !== '');
          if (scopes.length) {
            body.scopes = scopes;
          }
          try {
            const r = await unwrap(api.POST('/admin/api/api-keys', { body }));
            el.reset();
            setType('read-only');
            onCreated(r.key);
            await reload();
            messages.showNotice(
              `The key ${r.item.name} is created. Copy it now: it is not shown again.`,
              false,
            );
          } catch (e) {
            report(e, form);
          }
        })}
      >
        <Field id="key-name" name="name" label="Name" maxLength={200} form={form} />
        <Field
          id="key-description"
          name="description"
          label="Description (optional)"
          required={false}
          maxLength={1000}
          form={form}
        />
        <div className="field">
          <label htmlFor="key-type">Type</label>
          <select
            id="key-type"
            name="type"
            value={type}
            onChange={(e) => setType(KEY_TYPES.find((t) => t === e.target.value) ?? 'read-only')}
          >
            <option value="read-only">Read only</option>
            <option value="full-access">Full access (your permissions)</option>
            <option value="role-based">Role-based (one role's permissions)</option>
          </select>
        </div>
        {type === 'role-based' && (
          <div className="field">
            <label htmlFor="key-role">Role</label>
            <select
              id="key-role"
              name="roleId"
              required
              aria-describedby="key-role-hint key-role-error"
              aria-invalid={form.invalid.roleId !== undefined ? true : undefined}
            >
              {(roles ?? []).map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
            <p id="key-role-hint" className="hint">
              The key holds this role&rsquo;s permissions as they are when it is used, never more than yours.
            </p>
            <p className="field-error" id="key-role-error">
              {form.invalid.roleId}
            </p>
          </div>
        )}
        <Field
          id="key-scopes"
          name="scopes"
          label="Scopes (optional)"
          required={false}
          hint="Permission slugs separated by commas, for example read-users, read-media: the key gets only those its type grants. Leave empty for all of them."
          maxLength={2000}
          spellCheck={false}
          autoCapitalize="none"
          errors
          form={form}
        />
        <Field
          id="key-expires"
          name="expiresAt"
          label="Expires on (optional)"
          type="date"
          required={false}
          hint="Leave empty for a key that does not expire."
          form={form}
        />
        <button type="submit" disabled={form.busy}>
          Create key
        </button>
      </form>
    </>
  );
}
