import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useOutletContext, useParams } from 'react-router';
import { api, ApiError, type Session, unwrap } from '../api';
import { useReport } from '../account/shared';
import { Field, Regions, text, useAction, useForm, useMessages, WithMessages } from '../auth/messages';
import { ConfirmButton } from '../screens/Confirm';
import { Title } from '../screens/Title';
import {
  checked,
  Crumb,
  holds,
  type Permission,
  type Role,
  Scroll,
  splitSlug,
  TextArea,
  useAllPermissions,
  useAllRoles,
  useArrivalNotice,
} from './shared';
import { Link } from 'react-router';
import './people.css';

/** `/roles/new` (a new role) and `/roles/:id` (one role). */
export default function RoleEditor() {
  const { id } = useParams();
  const session = useOutletContext<Session>();
  return (
    <WithMessages key={id ?? 'new'}>
      <RoleScreen id={id} session={session} />
    </WithMessages>
  );
}

const roleKey = (id: string) => ['people', 'role', id];
/** Every role a role inherits from, or that inherit from it (one page of 500 is plenty). */
const linked = (id: string, way: 'parents' | 'children') =>
  unwrap(
    api.GET(`/admin/api/roles/{id}/${way}`, {
      params: { path: { id }, query: { limit: 500, sort: 'name' } },
    }),
  ).then((list) => list.items);

function RoleScreen({ id, session }: { id?: string; session: Session }) {
  const role = useQuery({
    queryKey: roleKey(id ?? ''),
    enabled: id !== undefined,
    queryFn: () => unwrap(api.GET('/admin/api/roles/{id}', { params: { path: { id: id! } } })),
  });
  const parents = useQuery({
    queryKey: [...roleKey(id ?? ''), 'parents'],
    enabled: id !== undefined,
    queryFn: () => linked(id!, 'parents'),
  });
  const children = useQuery({
    queryKey: [...roleKey(id ?? ''), 'children'],
    enabled: id !== undefined,
    queryFn: () => linked(id!, 'children'),
  });
  const roles = useAllRoles();
  const permissions = useAllPermissions();
  useArrivalNotice();
  const loading =
    (id !== undefined && (role.isPending || parents.isPending || children.isPending)) ||
    roles.isPending ||
    permissions.isPending;
  if (loading) {
    return <p className="loading">Loading…</p>;
  }
  const error = role.error ?? parents.error ?? children.error ?? roles.error ?? permissions.error;
  if (error) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <div className="people">
        <Crumb to="/roles">Roles</Crumb>
        <Title>{missing ? 'Not found' : 'Something went wrong'}</Title>
        <p role="alert">{missing ? 'There is no such role.' : error.message}</p>
      </div>
    );
  }
  return (
    <RoleForm
      role={role.data}
      parents={parents.data ?? []}
      children={children.data ?? []}
      roles={roles.data ?? []}
      permissions={permissions.data ?? []}
      session={session}
    />
  );
}

function RoleForm(props: {
  role?: Role;
  parents: Role[];
  children: Role[];
  roles: Role[];
  permissions: Permission[];
  session: Session;
}) {
  const { role, parents, children, roles, permissions, session } = props;
  const form = useForm();
  const report = useReport();
  const messages = useMessages();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const system = role?.isSystem === true;
  const canWrite = holds(session, role ? 'update-roles' : 'create-roles');
  // Linking a role to a parent changes the parent: `update-roles`.
  const canLink = holds(session, 'update-roles') && !system;
  const held = new Set(role?.permissions.map((p) => p.id) ?? []);
  const parentIds = parents.map((p) => p.id);
  const childIds = new Set(children.map((c) => c.id));
  // Not itself; a role that inherits from this one cannot also be its parent (a cycle).
  const candidates = roles.filter((r) => r.id !== role?.id && !childIds.has(r.id));

  const refresh = async (id: string) => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: roleKey(id) }),
      queryClient.invalidateQueries({ queryKey: ['people', 'roles'] }),
      queryClient.invalidateQueries({ queryKey: ['people', 'users'] }),
      queryClient.invalidateQueries({ queryKey: ['session'] }),
    ]);
  };

  /** Links `id` under each of `add` and out of each of `remove` (as a child of those roles). */
  const relink = async (id: string, add: string[], remove: string[]) => {
    for (const parent of add) {
      await unwrap(
        api.POST('/admin/api/roles/{id}/children', {
          params: { path: { id: parent } },
          body: { childId: id },
        }),
      );
    }
    for (const parent of remove) {
      await unwrap(
        api.DELETE('/admin/api/roles/{id}/children/{childId}', {
          params: { path: { id: parent, childId: id } },
        }),
      );
    }
  };

  const create = async (data: FormData) => {
    const slug = text(data, 'slug').trim();
    const description = text(data, 'description').trim();
    const created = await unwrap(
      api.POST('/admin/api/roles', {
        body: {
          name: text(data, 'name').trim(),
          ...(slug ? { slug } : {}),
          level: Number(text(data, 'level') || 0),
          description: description || null,
          permissionIds: checked(data, 'permissionIds'),
        },
      }),
    );
    const id = created.item.id;
    let failure: string | undefined;
    try {
      await relink(id, canLink ? checked(data, 'parentIds') : [], []);
    } catch (e) {
      failure = `The role ${created.item.name} is created, but not linked to every parent role: ${
        e instanceof Error ? e.message : String(e)
      }`;
    }
    await refresh(id);
    void navigate(`/roles/${id}`, {
      state: failure ? { error: failure } : { notice: `The role ${created.item.name} is created.` },
    });
  };

  const update = async (current: Role, data: FormData) => {
    const id = current.id;
    const body: { name?: string; slug?: string; level?: number; description?: string | null } = {};
    const name = text(data, 'name').trim();
    const slug = text(data, 'slug').trim();
    const level = Number(text(data, 'level') || 0);
    const description = text(data, 'description').trim() || null;
    if (!system && name !== current.name) {
      body.name = name;
    }
    if (!system && slug !== current.slug) {
      body.slug = slug;
    }
    if (level !== current.level) {
      body.level = level;
    }
    if (description !== current.description) {
      body.description = description;
    }
    try {
      if (Object.keys(body).length) {
        await unwrap(api.PATCH('/admin/api/roles/{id}', { params: { path: { id } }, body }));
      }
      if (!system) {
        const wanted = checked(data, 'permissionIds');
        const added = wanted.filter((p) => !held.has(p));
        const removed = [...held].filter((p) => !wanted.includes(p));
        if (added.length) {
          await unwrap(
            api.POST('/admin/api/roles/{id}/permissions', {
              params: { path: { id } },
              body: { permissionIds: added },
            }),
          );
        }
        for (const permissionId of removed) {
          await unwrap(
            api.DELETE('/admin/api/roles/{id}/permissions/{permissionId}', {
              params: { path: { id, permissionId } },
            }),
          );
        }
      }
      if (canLink) {
        const wanted = checked(data, 'parentIds');
        await relink(
          id,
          wanted.filter((p) => !parentIds.includes(p)),
          parentIds.filter((p) => !wanted.includes(p)),
        );
      }
      messages.showNotice('The role is saved.');
    } finally {
      // What went through before a refusal is shown too.
      await refresh(id);
    }
  };

  const title = role ? role.name : 'New role';
  return (
    <div className="people role-screen">
      <Crumb to="/roles">Roles</Crumb>
      <Title>{title}</Title>
      <Regions />
      {role && !canWrite && <p>You may read this role but not change it.</p>}
      {!role && !canWrite && <p>You may not create roles.</p>}
      {system && (
        <p id="role-system">
          {role.name} is the system role: it passes every permission check, so it has no permissions to pick,
          and its name and slug stay.
        </p>
      )}
      <form
        id="role-form"
        aria-busy={form.busy || undefined}
        onSubmit={form.submit(async (_el, data) => {
          try {
            await (role ? update(role, data) : create(data));
          } catch (e) {
            report(e, form);
          }
        })}
      >
        <fieldset className="plain" disabled={!canWrite}>
          <legend className="visually-hidden">Role</legend>
          <div className="editor">
            <Field
              id="role-name"
              name="name"
              label="Name"
              defaultValue={role?.name}
              readOnly={system}
              autoComplete="off"
              maxLength={100}
              errors
              form={form}
            />
            <Field
              id="role-slug"
              name="slug"
              label="Slug"
              defaultValue={role?.slug}
              readOnly={system}
              required={role !== undefined}
              autoComplete="off"
              spellCheck={false}
              autoCapitalize="none"
              maxLength={63}
              hint={
                role
                  ? 'Lower-case letters a-z, digits and hyphens, starting with a letter.'
                  : 'Lower-case letters a-z, digits and hyphens, starting with a letter; left empty, it is made from the name.'
              }
              errors
              form={form}
            />
            <Field
              id="role-level"
              name="level"
              label="Level"
              type="number"
              min={0}
              max={1000}
              step={1}
              defaultValue={String(role?.level ?? 0)}
              hint="From 0 to 1000: it orders the roles and grants nothing."
              errors
              form={form}
            />
            <TextArea
              id="role-description"
              name="description"
              label="Description (optional)"
              defaultValue={role?.description ?? ''}
              maxLength={1000}
              form={form}
            />
          </div>
          {!system && (
            <fieldset className="choice roles" disabled={!canLink}>
              <legend>Inherits from</legend>
              <p className="hint">
                The role also holds every permission of the roles checked here (and of theirs).
                {!canLink && ' Linking roles needs the update-roles permission.'}
              </p>
              {candidates.length === 0 && <p>There is no other role.</p>}
              {candidates.map((r) => (
                <label key={r.id}>
                  <input
                    type="checkbox"
                    name="parentIds"
                    value={r.id}
                    defaultChecked={parentIds.includes(r.id)}
                  />{' '}
                  {r.name}
                </label>
              ))}
            </fieldset>
          )}
          {!system && <Matrix permissions={permissions} held={held} />}
        </fieldset>
        {canWrite && (
          <div className="actions">
            <button type="submit" className="button primary" disabled={form.busy}>
              {role ? 'Save role' : 'Create role'}
            </button>
          </div>
        )}
      </form>
      {role && (
        <section aria-labelledby="children-title">
          <h2 id="children-title">Roles that inherit from this one</h2>
          {children.length ? (
            <ul className="links">
              {children.map((c) => (
                <li key={c.id}>
                  <Link to={`/roles/${c.id}`}>{c.name}</Link>
                </li>
              ))}
            </ul>
          ) : (
            <p>None.</p>
          )}
        </section>
      )}
      {role && !system && holds(session, 'delete-roles') && <DeleteRole role={role} />}
    </div>
  );
}

/** The usual actions first, in this order; any other after them, alphabetically. */
const ACTION_ORDER = ['create', 'read', 'update', 'delete', 'publish', 'manage'];

/**
 * The permissions as a table: a row per resource, a column per action, a checkbox in each cell
 * that has a permission, named "<action> <resource>" (`read posts`). Uncontrolled.
 */
function Matrix({ permissions, held }: { permissions: Permission[]; held: Set<string> }) {
  const cells = new Map<string, Permission>();
  const resources = new Set<string>();
  const actions = new Set<string>();
  for (const p of permissions) {
    const { action, resource } = splitSlug(p.slug);
    cells.set(`${action} ${resource}`, p);
    resources.add(resource);
    actions.add(action);
  }
  const rank = (a: string) => {
    const i = ACTION_ORDER.indexOf(a);
    return i < 0 ? ACTION_ORDER.length : i;
  };
  const columns = [...actions].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const rows = [...resources].sort((a, b) => a.localeCompare(b));
  return (
    <fieldset className="plain matrix" aria-describedby="matrix-hint">
      <legend>Permissions</legend>
      <p className="hint" id="matrix-hint">
        A row per resource (a collection, a single, or a part of the service), a column per action. Inherited
        permissions are not shown here.
      </p>
      <Scroll id="permission-matrix" caption="Permissions: resources by action">
        <thead>
          <tr>
            <th scope="col">Resource</th>
            {columns.map((a) => (
              <th scope="col" key={a}>
                {a}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((resource) => (
            <tr key={resource}>
              <th scope="row">{resource}</th>
              {columns.map((action) => {
                const p = cells.get(`${action} ${resource}`);
                return (
                  <td key={action} className="cell">
                    {p && (
                      <input
                        type="checkbox"
                        name="permissionIds"
                        value={p.id}
                        defaultChecked={held.has(p.id)}
                        aria-label={`${action} ${resource}`}
                        title={p.name}
                      />
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </Scroll>
    </fieldset>
  );
}

function DeleteRole({ role }: { role: Role }) {
  const action = useAction();
  const report = useReport();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <section aria-labelledby="delete-title">
      <h2 id="delete-title">Delete the role</h2>
      <p>Its users lose it, and roles that inherit from it lose what it granted.</p>
      <ConfirmButton
        label="Delete role"
        title="Delete this role"
        isDisabled={action.busy}
        onConfirm={() =>
          action.run(async () => {
            try {
              await unwrap(api.DELETE('/admin/api/roles/{id}', { params: { path: { id: role.id } } }));
              queryClient.removeQueries({ queryKey: roleKey(role.id) });
              await Promise.all([
                queryClient.invalidateQueries({ queryKey: ['people', 'roles'] }),
                queryClient.invalidateQueries({ queryKey: ['session'] }),
              ]);
              void navigate('/roles', { state: { notice: `The role ${role.name} is deleted.` } });
            } catch (e) {
              report(e);
            }
          })
        }
      >
        Delete the role {role.name}? This cannot be undone.
      </ConfirmButton>
    </section>
  );
}
