import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import type { components } from '../../../src/client';
import { api, ApiError, holds, type ListMeta, type Session, unwrap } from '../api';
import { type FormState, useMessages } from '../auth/messages';
import { type FieldDef, type FormValues, optionsOf, toBody, toForm } from '../form/fields';

export type User = components['schemas']['User'];
export type Role = components['schemas']['Role'];
export type RoleRef = components['schemas']['RoleRef'];
export type Permission = components['schemas']['Permission'];
export type UserField = components['schemas']['UserField'];
export type UserSession = components['schemas']['Session'];

export { holds };

/** A permission slug `<action>-<resource>` split at its first hyphen (`read-email-templates`). */
export function splitSlug(slug: string): { action: string; resource: string } {
  const at = slug.indexOf('-');
  return at < 0
    ? { action: slug, resource: '' }
    : { action: slug.slice(0, at), resource: slug.slice(at + 1) };
}

/** Every page of a list (500 a page), for the pickers that need all of it (roles, permissions). */
async function everyPage<T>(load: (page: number) => Promise<{ items: T[]; meta: ListMeta }>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= 100; page++) {
    const answer = await load(page);
    items.push(...answer.items);
    if (!answer.meta.hasNext) {
      break;
    }
  }
  return items;
}

/** Every role, by name (for pickers and filters); only with `read-roles`. */
export function useAllRoles(enabled = true) {
  return useQuery({
    queryKey: ['people', 'roles', 'all'],
    enabled,
    queryFn: () =>
      everyPage((page) =>
        unwrap(api.GET('/admin/api/roles', { params: { query: { page, limit: 500, sort: 'name' } } })),
      ),
  });
}

/** Every permission (for the role's matrix). */
export function useAllPermissions() {
  return useQuery({
    queryKey: ['people', 'permissions', 'all'],
    queryFn: () =>
      everyPage((page) =>
        unwrap(api.GET('/admin/api/permissions', { params: { query: { page, limit: 500, sort: 'slug' } } })),
      ),
    staleTime: 60_000,
  });
}

/**
 * The custom user fields, in order; an empty list when the session may not read them
 * (`read-settings`), so the forms show the core fields only.
 */
export function useUserFields(session: Session) {
  const allowed = holds(session, 'read-settings');
  return useQuery({
    queryKey: ['people', 'user-fields', allowed],
    queryFn: async (): Promise<UserField[]> => {
      if (!allowed) {
        return [];
      }
      try {
        return await everyPage((page) =>
          unwrap(
            api.GET('/admin/api/user-fields', { params: { query: { page, limit: 500, sort: 'order' } } }),
          ),
        );
      } catch (e) {
        if (e instanceof ApiError && (e.status === 403 || e.status === 404)) {
          return [];
        }
        throw e;
      }
    },
    staleTime: 60_000,
  });
}

/**
 * What a screen says after another sent the browser to it (`state.notice`: a created user;
 * `state.error`: a part of the change that was refused). Inside `<WithMessages>`.
 */
export function useArrivalNotice(): void {
  const location = useLocation();
  const messages = useMessages();
  const state = location.state as { notice?: unknown; error?: unknown } | null;
  const notice = state?.notice;
  const error = state?.error;
  useEffect(() => {
    if (typeof error === 'string') {
      messages.showError(error);
    } else if (typeof notice === 'string') {
      messages.showNotice(notice);
    }
  }, [notice, error, messages]);
}

/** A list's status line: what the screen that sent the browser here said (a deleted user). */
export function ArrivalStatus() {
  const location = useLocation();
  const notice = (location.state as { notice?: unknown } | null)?.notice;
  return (
    <div role="status" className="notice">
      {typeof notice === 'string' ? notice : ''}
    </div>
  );
}

/** A moment as the browser writes it, or "Never". */
export function moment(iso: string | null | undefined, never = 'Never'): string {
  return iso ? new Date(iso).toLocaleString() : never;
}

/** The link back to a list, above a screen's heading. */
export function Crumb({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="crumbs">
      <Link to={to}>{children}</Link>
    </p>
  );
}

/**
 * A table that scrolls sideways inside its own box on a narrow screen, never the page; the box
 * takes the focus (a keyboard scrolls it too) and is named by the table's caption.
 */
export function Scroll({ id, caption, children }: { id: string; caption: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
      <table id={id}>
        <caption id={`${id}-caption`} className="visually-hidden">
          {caption}
        </caption>
        {children}
      </table>
    </div>
  );
}

/** A sortable column heading: a button that flips the order, `aria-sort` telling the state. */
export function SortHeading(props: {
  name: string;
  label: string;
  sort: string;
  onSort: (sort: string) => void;
}) {
  const { name, label, sort, onSort } = props;
  const state = sort === name ? 'ascending' : sort === `-${name}` ? 'descending' : 'none';
  return (
    <th scope="col" aria-sort={state}>
      <button
        type="button"
        className="sort"
        onClick={() => onSort(state === 'ascending' ? `-${name}` : name)}
      >
        {label}
        <span aria-hidden="true">{state === 'ascending' ? ' ▲' : state === 'descending' ? ' ▼' : ''}</span>
      </button>
    </th>
  );
}

/** The describing ids of a control: its hint and its error slot. */
function describedBy(id: string, hint: boolean): string {
  return [hint ? `${id}-hint` : '', `${id}-error`].filter(Boolean).join(' ');
}

/** A field's error slot: the service's messages for it (hidden when empty). */
export function FieldError({ id, form, name }: { id: string; form: FormState; name: string }) {
  return (
    <p className="field-error" id={`${id}-error`}>
      {form.invalid[name]}
    </p>
  );
}

/** A labelled multi-line text, tied to its error slot like `Field`. Uncontrolled. */
export function TextArea(props: {
  id: string;
  name: string;
  label: string;
  form: FormState;
  defaultValue?: string;
  hint?: string;
  required?: boolean;
  maxLength?: number;
  readOnly?: boolean;
  className?: string;
}) {
  const { id, name, label, form, hint } = props;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name={name}
        rows={3}
        className={props.className}
        defaultValue={props.defaultValue}
        required={props.required}
        maxLength={props.maxLength}
        readOnly={props.readOnly}
        aria-describedby={describedBy(id, !!hint)}
        aria-invalid={form.invalid[name] !== undefined ? true : undefined}
      />
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <FieldError id={id} form={form} name={name} />
    </div>
  );
}

/** The form name of a custom field (kept apart from the form's own names). */
const customName = (field: UserField) => `custom:${field.name}`;

/**
 * The custom user fields' controls, filled from `user` (empty for a new user). Uncontrolled: read
 * back with `customValues`. A refused value is marked on its field (the issue's path is its name).
 */
export function CustomFields({
  fields,
  user,
  form,
  prefix,
}: {
  fields: UserField[];
  user?: User;
  form: FormState;
  prefix: string;
}) {
  if (!fields.length) {
    return null;
  }
  return (
    <fieldset className="plain custom-fields">
      <legend className="visually-hidden">Other fields</legend>
      {fields.map((field) => (
        <CustomField key={field.id} field={field} user={user} form={form} id={`${prefix}-${field.name}`} />
      ))}
    </fieldset>
  );
}

function CustomField({
  field,
  user,
  form,
  id,
}: {
  field: UserField;
  user?: User;
  form: FormState;
  id: string;
}) {
  const def = field as FieldDef;
  const value = toForm(def, user?.[field.name]);
  const label = `${field.label || field.name}${field.required ? ' (required)' : ''}`;
  const aria = {
    'aria-describedby': `${id}-error`,
    'aria-invalid': form.invalid[field.name] !== undefined ? true : undefined,
  };
  const name = customName(field);
  const error = <FieldError id={id} form={form} name={field.name} />;
  switch (field.type) {
    case 'checkbox':
      return (
        <div className="field checkbox">
          <input id={id} name={name} type="checkbox" defaultChecked={value === true} {...aria} />
          <label htmlFor={id}>{label}</label>
          {error}
        </div>
      );
    case 'select':
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <select id={id} name={name} defaultValue={typeof value === 'string' ? value : ''} {...aria}>
            <option value="">(none)</option>
            {optionsOf(def).map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          {error}
        </div>
      );
    case 'textarea':
    case 'json':
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <textarea
            id={id}
            name={name}
            rows={field.type === 'json' ? 5 : 3}
            className={field.type === 'json' ? 'code' : undefined}
            defaultValue={typeof value === 'string' ? value : ''}
            spellCheck={field.type === 'json' ? false : undefined}
            {...aria}
          />
          {error}
        </div>
      );
    default:
      return (
        <div className="field">
          <label htmlFor={id}>{label}</label>
          <input
            id={id}
            name={name}
            type={
              field.type === 'email'
                ? 'email'
                : field.type === 'number'
                  ? 'number'
                  : field.type === 'date'
                    ? 'datetime-local'
                    : 'text'
            }
            step={field.type === 'number' ? 'any' : field.type === 'date' ? 1 : undefined}
            defaultValue={typeof value === 'string' ? value : ''}
            {...aria}
          />
          {error}
        </div>
      );
  }
}

/**
 * The custom fields' values of a submitted form, as the API takes them (an empty one is null), or
 * the problems the browser can tell first (a number or JSON that does not parse), thrown as the
 * API would answer them, so they show the same way.
 */
export function customValues(fields: UserField[], data: FormData): Record<string, unknown> {
  const values: FormValues = {};
  for (const field of fields) {
    const raw = data.get(customName(field));
    values[field.name] = field.type === 'checkbox' ? raw !== null : typeof raw === 'string' ? raw : '';
  }
  const { body, issues } = toBody(fields as FieldDef[], values);
  if (issues.length) {
    throw new ApiError(
      400,
      'VALIDATION_ERROR',
      'Some fields need another value',
      issues.map((i) => ({ ...i, code: 'form' })),
    );
  }
  return body;
}

/** The checked values of a group of checkboxes named `name`. */
export function checked(data: FormData, name: string): string[] {
  return data.getAll(name).filter((v): v is string => typeof v === 'string');
}
