import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useOutletContext } from 'react-router';
import { api, type Session, unwrap } from '../api';
import { Field, Regions, text, useForm, useMessages, WithMessages } from '../auth/messages';
import { ConfirmButton } from '../screens/Confirm';
import { Title } from '../screens/Title';
import { holds, type Permission, Scroll, useAllPermissions } from './shared';
import './people.css';

/**
 * `/roles/permissions`: every permission roles can grant, and the ones an application adds
 * (`<action>-<resource>`, checked by its own code). The service refuses to delete the permissions
 * its routes check and those a content type owns, and the screen says why.
 */
export default function Permissions() {
  const session = useOutletContext<Session>();
  useEffect(() => {
    document.title = 'Permissions · svc';
  }, []);
  return (
    <WithMessages>
      <div className="people">
        <div className="title-row">
          <Title>Permissions</Title>
          <Link to="/roles">Back to the roles</Link>
        </div>
        <Regions />
        <PermissionList session={session} />
        {holds(session, 'create-permissions') && <NewPermission />}
      </div>
    </WithMessages>
  );
}

function PermissionList({ session }: { session: Session }) {
  const all = useAllPermissions();
  const messages = useMessages();
  const queryClient = useQueryClient();
  const mayDelete = holds(session, 'delete-permissions');
  const remove = async (p: Permission) => {
    messages.clear();
    try {
      await unwrap(api.DELETE('/admin/api/permissions/{id}', { params: { path: { id: p.id } } }));
    } catch (e) {
      messages.showProblem(e);
      return;
    }
    await queryClient.invalidateQueries({ queryKey: ['people', 'permissions'] });
    messages.showNotice(`The permission ${p.slug} is deleted.`, false);
  };
  if (all.error) {
    return <p role="alert">{all.error.message}</p>;
  }
  return (
    <Scroll id="permissions-table" caption="Permissions">
      <thead>
        <tr>
          <th scope="col">Slug</th>
          <th scope="col">Name</th>
          <th scope="col">Description</th>
          {mayDelete && <th scope="col">Actions</th>}
        </tr>
      </thead>
      <tbody>
        {(all.data ?? []).map((p) => (
          <tr key={p.id}>
            <th scope="row" className="slug">
              {p.slug}
            </th>
            <td>{p.name}</td>
            <td className="wrap">{p.description ?? ''}</td>
            {mayDelete && (
              <td>
                <ConfirmButton
                  label={
                    <>
                      Delete<span className="visually-hidden"> {p.slug}</span>
                    </>
                  }
                  title={`Delete the permission ${p.slug}`}
                  onConfirm={() => void remove(p)}
                >
                  Every role loses it. The service keeps the permissions its own routes check and those of
                  content types, and says so.
                </ConfirmButton>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </Scroll>
  );
}

function NewPermission() {
  const form = useForm();
  const messages = useMessages();
  const queryClient = useQueryClient();
  return (
    <form
      id="permission-form"
      method="post"
      aria-labelledby="permission-form-title"
      aria-busy={form.busy || undefined}
      onSubmit={form.submit(async (el, data) => {
        const description = text(data, 'description').trim();
        const name = text(data, 'name').trim();
        const made = await unwrap(
          api.POST('/admin/api/permissions', {
            body: {
              action: text(data, 'action').trim(),
              resource: text(data, 'resource').trim(),
              ...(name && { name }),
              ...(description && { description }),
            },
          }),
        ).catch((e: unknown) => {
          messages.showProblem(e, form);
          return undefined;
        });
        if (!made) {
          return;
        }
        el.reset();
        await queryClient.invalidateQueries({ queryKey: ['people', 'permissions'] });
        messages.showNotice(`The permission ${made.item.slug} is created: roles can grant it now.`, false);
      })}
    >
      <h2 id="permission-form-title">New permission</h2>
      <p>
        For your own code&rsquo;s checks: the permission <code>&lt;action&gt;-&lt;resource&gt;</code>, such as
        <code> approve-invoices</code>.
      </p>
      <Field
        id="permission-action"
        name="action"
        label="Action"
        maxLength={50}
        errors
        form={form}
        spellCheck={false}
      />
      <Field
        id="permission-resource"
        name="resource"
        label="Resource"
        maxLength={100}
        errors
        form={form}
        spellCheck={false}
      />
      <Field
        id="permission-name"
        name="name"
        label="Name (optional)"
        required={false}
        maxLength={200}
        errors
        form={form}
      />
      <Field
        id="permission-description"
        name="description"
        label="Description (optional)"
        required={false}
        maxLength={1000}
        errors
        form={form}
      />
      <button type="submit" disabled={form.busy}>
        Create permission
      </button>
    </form>
  );
}
