import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
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
import { AreaField, CheckField, SelectField, useDocumentTitle, useSettingsReport } from './shared';

type UserField = components['schemas']['UserField'];
type FieldType = UserField['type'];
type Option = NonNullable<UserField['options']>[number];

const TYPES: Array<{ value: FieldType; label: string }> = [
  { value: 'text', label: 'Text' },
  { value: 'textarea', label: 'Long text' },
  { value: 'email', label: 'Email address' },
  { value: 'number', label: 'Number' },
  { value: 'checkbox', label: 'Checkbox' },
  { value: 'date', label: 'Date' },
  { value: 'select', label: 'Choice (select)' },
  { value: 'json', label: 'JSON' },
];
const typeLabel = (type: FieldType) => TYPES.find((t) => t.value === type)?.label ?? type;

/** Every field, in display order (reordering sends every id). */
const loadFields = async () =>
  (await unwrap(api.GET('/admin/api/user-fields', { params: { query: { limit: 100, sort: 'order' } } })))
    .items;

/** Options as lines: `value`, or `value | Label` when the label differs. */
function optionsToText(options: UserField['options']): string {
  return (options ?? [])
    .map((o) => (typeof o === 'string' ? o : o.label === o.value ? o.value : `${o.value} | ${o.label}`))
    .join('\n');
}
function textToOptions(source: string): Option[] {
  return source
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const bar = line.indexOf('|');
      if (bar < 0) {
        return line;
      }
      return { value: line.slice(0, bar).trim(), label: line.slice(bar + 1).trim() };
    });
}

/** `/settings/user-fields`: the custom fields of user records, their order, and a new one. */
export function UserFields({ session }: { session: Session }) {
  useDocumentTitle('User fields');
  return (
    <WithMessages>
      <Title>User fields</Title>
      <p className="hint">
        Custom fields every user record carries, shown in this order on the user’s screen. Fields defined in
        the configuration file are listed but changed there.
      </p>
      <Regions />
      <FieldList session={session} />
      {holds(session, 'create-settings') && <NewField />}
    </WithMessages>
  );
}

function FieldList({ session }: { session: Session }) {
  const queryClient = useQueryClient();
  const messages = useMessages();
  const report = useSettingsReport();
  const action = useAction();
  const fields = useQuery({ queryKey: ['user-fields'], queryFn: loadFields });
  // After a move, the focus stays on the moved field's button (or its other one at an end).
  const [refocus, setRefocus] = useState<{ id: string; dir: 'up' | 'down' } | null>(null);
  const table = useRef<HTMLTableElement>(null);
  useEffect(() => {
    if (!refocus || !table.current) {
      return;
    }
    const wanted = table.current.querySelector<HTMLButtonElement>(`#uf-${refocus.id}-${refocus.dir}`);
    const other = table.current.querySelector<HTMLButtonElement>(
      `#uf-${refocus.id}-${refocus.dir === 'up' ? 'down' : 'up'}`,
    );
    (wanted && !wanted.disabled ? wanted : other)?.focus();
    setRefocus(null);
  }, [refocus, fields.data]);
  const canUpdate = holds(session, 'update-settings');
  const canDelete = holds(session, 'delete-settings');
  const items = fields.data ?? [];
  const move = (index: number, dir: 'up' | 'down') =>
    action.run(async () => {
      const to = dir === 'up' ? index - 1 : index + 1;
      const ids = items.map((f) => f.id);
      [ids[index], ids[to]] = [ids[to], ids[index]];
      try {
        const r = await unwrap(api.PATCH('/admin/api/user-fields/reorder', { body: { ids } }));
        queryClient.setQueryData(['user-fields'], r.items);
        setRefocus({ id: items[index].id, dir });
        messages.showNotice(`${items[index].label} moved to position ${to + 1} of ${ids.length}.`);
      } catch (e) {
        report(e);
        await queryClient.invalidateQueries({ queryKey: ['user-fields'] });
      }
    });
  if (fields.isPending) {
    return <p className="loading">Loading…</p>;
  }
  if (fields.error) {
    return (
      <p role="alert" className="error">
        {fields.error.message}
      </p>
    );
  }
  return (
    <div className="table-scroll" role="region" aria-labelledby="user-fields-caption" tabIndex={0}>
      <table id="user-fields-table" ref={table} aria-busy={action.busy || undefined}>
        <caption id="user-fields-caption" className="visually-hidden">
          User fields, in display order
        </caption>
        <thead>
          <tr>
            <th scope="col">Position</th>
            <th scope="col">Label</th>
            <th scope="col">Name</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {items.map((f, i) => (
            <tr key={f.id}>
              <td>{i + 1}</td>
              <th scope="row">
                {f.source === 'ui' ? <Link to={`/settings/user-fields/${f.id}`}>{f.label}</Link> : f.label}
              </th>
              <td>
                <code>{f.name}</code>
              </td>
              <td>{typeLabel(f.type)}</td>
              <td>{f.required ? 'Yes' : 'No'}</td>
              <td>
                <div className="row-actions">
                  {canUpdate && (
                    <>
                      <button
                        type="button"
                        id={`uf-${f.id}-up`}
                        className="button"
                        aria-label={`Move ${f.label} up`}
                        disabled={i === 0 || action.busy}
                        onClick={() => move(i, 'up')}
                      >
                        <span aria-hidden="true">↑ </span>Up
                      </button>
                      <button
                        type="button"
                        id={`uf-${f.id}-down`}
                        className="button"
                        aria-label={`Move ${f.label} down`}
                        disabled={i === items.length - 1 || action.busy}
                        onClick={() => move(i, 'down')}
                      >
                        <span aria-hidden="true">↓ </span>Down
                      </button>
                    </>
                  )}
                  {f.source === 'code' && <span className="hint">Defined in the configuration file</span>}
                  {f.source === 'ui' && canDelete && (
                    <ConfirmButton
                      label="Delete"
                      title="Delete this user field"
                      isDisabled={action.busy}
                      onConfirm={() =>
                        action.run(async () => {
                          try {
                            await unwrap(
                              api.DELETE('/admin/api/user-fields/{id}', { params: { path: { id: f.id } } }),
                            );
                            await queryClient.invalidateQueries({ queryKey: ['user-fields'] });
                            messages.showNotice(`The user field ${f.label} is deleted.`);
                          } catch (e) {
                            report(e);
                          }
                        })
                      }
                    >
                      Delete the field “{f.label}” ({f.name})? Its value is removed from every user record.
                      This cannot be undone.
                    </ConfirmButton>
                  )}
                </div>
              </td>
            </tr>
          ))}
          {items.length === 0 && (
            <tr>
              <td colSpan={6}>There is no user field yet.</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

function NewField() {
  const queryClient = useQueryClient();
  const messages = useMessages();
  const report = useSettingsReport({ options: 'options' }, { DUPLICATE: 'name' });
  const [key, setKey] = useState(0);
  return (
    <section aria-labelledby="new-user-field-title" className="panel">
      <h2 id="new-user-field-title">New user field</h2>
      <FieldForm
        key={key}
        prefix="new-uf"
        submitLabel="Add field"
        onSubmit={async (body, form) => {
          try {
            const r = await unwrap(api.POST('/admin/api/user-fields', { body }));
            await queryClient.invalidateQueries({ queryKey: ['user-fields'] });
            setKey((k) => k + 1);
            messages.showNotice(`The user field ${r.item.label} is added.`);
          } catch (e) {
            report(e, form);
          }
        }}
      />
    </section>
  );
}

type FieldBody = components['schemas']['CreateUserFieldDto'];

/** A field's name, type, label, whether it is required and its options (`select`). */
function FieldForm({
  prefix,
  initial,
  submitLabel,
  readOnly = false,
  onSubmit,
}: {
  prefix: string;
  initial?: UserField;
  submitLabel: string;
  readOnly?: boolean;
  onSubmit: (body: FieldBody, form: FormState) => Promise<void>;
}) {
  const form = useForm();
  const [type, setType] = useState<FieldType>(initial?.type ?? 'text');
  return (
    <form
      className="editor"
      aria-label={initial ? `The field ${initial.label}` : 'New user field'}
      aria-busy={form.busy || undefined}
      onSubmit={form.submit(async (_el, data) => {
        const label = text(data, 'label').trim();
        await onSubmit(
          {
            name: initial?.name ?? text(data, 'name').trim(),
            type,
            ...(label ? { label } : {}),
            required: data.get('required') === 'on',
            options: type === 'select' ? textToOptions(text(data, 'options')) : null,
          },
          form,
        );
      })}
    >
      <fieldset className="plain" disabled={readOnly}>
        <Field
          id={`${prefix}-name`}
          name="name"
          label="Name"
          maxLength={63}
          spellCheck={false}
          autoCapitalize="none"
          defaultValue={initial?.name}
          readOnly={initial !== undefined}
          hint={
            initial
              ? 'A field is never renamed.'
              : 'The key in user records: a letter, then letters, digits or _ (phoneNumber).'
          }
          errors
          form={form}
        />
        <SelectField
          id={`${prefix}-type`}
          name="type"
          label="Type"
          value={type}
          disabled={initial !== undefined}
          onChange={(e) => setType(e.target.value as FieldType)}
          options={TYPES}
          hint={initial ? 'A field never changes type.' : undefined}
          form={form}
        />
        <Field
          id={`${prefix}-label`}
          name="label"
          label="Label (optional)"
          required={false}
          maxLength={200}
          defaultValue={initial?.label}
          hint="Empty: made from the name (phoneNumber is “Phone number”)."
          errors
          form={form}
        />
        <CheckField
          id={`${prefix}-required`}
          name="required"
          label="Required"
          defaultChecked={initial?.required ?? false}
          hint="Every user record must hold a value."
          form={form}
        />
        {type === 'select' && (
          <AreaField
            id={`${prefix}-options`}
            name="options"
            label="Options"
            rows={5}
            required
            spellCheck={false}
            defaultValue={optionsToText(initial?.options)}
            hint="One a line: a value, or “value | Label” to show another label."
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

/** `/settings/user-fields/:id`: one field's label, required and options. */
export function UserFieldScreen({ session }: { session: Session }) {
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const field = useQuery({
    queryKey: ['user-field', id],
    queryFn: () => unwrap(api.GET('/admin/api/user-fields/{id}', { params: { path: { id } } })),
  });
  useDocumentTitle(field.data?.label ?? 'User field');
  const notFound = field.error instanceof ApiError && field.error.status === 404;
  return (
    <WithMessages key={id}>
      <p className="crumbs">
        <Link to="/settings/user-fields">User fields</Link>
      </p>
      <Title>{field.data ? `User field: ${field.data.label}` : notFound ? 'Not found' : 'User field'}</Title>
      <Regions />
      {field.isPending && <p className="loading">Loading…</p>}
      {field.error && (
        <p role="alert" className="error">
          {notFound ? 'There is no such user field.' : field.error.message}
        </p>
      )}
      {field.data && (
        <EditField
          field={field.data}
          readOnly={field.data.source === 'code' || !holds(session, 'update-settings')}
          onSaved={async (item) => {
            queryClient.setQueryData(['user-field', id], item);
            await queryClient.invalidateQueries({ queryKey: ['user-fields'] });
          }}
        />
      )}
    </WithMessages>
  );
}

function EditField({
  field,
  readOnly,
  onSaved,
}: {
  field: UserField;
  readOnly: boolean;
  onSaved: (item: UserField) => Promise<void>;
}) {
  const messages = useMessages();
  const report = useSettingsReport({ options: 'options' });
  return (
    <>
      {field.source === 'code' && (
        <p>This field is defined in the configuration file and is changed there.</p>
      )}
      <FieldForm
        prefix="uf"
        initial={field}
        readOnly={readOnly}
        submitLabel="Save"
        onSubmit={async (body, form) => {
          try {
            const { name: _name, type: _type, ...changes } = body;
            const r = await unwrap(
              api.PATCH('/admin/api/user-fields/{id}', {
                params: { path: { id: field.id } },
                body: changes,
              }),
            );
            messages.showNotice(`The user field ${r.item.label} is saved.`);
            await onSaved(r.item);
          } catch (e) {
            report(e, form);
          }
        }}
      />
    </>
  );
}
