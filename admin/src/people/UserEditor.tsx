import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useOutletContext, useParams } from 'react-router';
import type { operations } from '../../../src/client';
import { api, ApiError, content, type Session, unwrap } from '../api';
import { useReport } from '../account/shared';
import {
  Field,
  PASSWORD_RULE,
  Regions,
  text,
  useAction,
  useForm,
  useMessages,
  WithMessages,
} from '../auth/messages';
import { ConfirmButton } from '../screens/Confirm';
import { Title } from '../screens/Title';
import {
  checked,
  Crumb,
  CustomFields,
  customValues,
  holds,
  moment,
  type Role,
  Scroll,
  type User,
  type UserField,
  useAllRoles,
  useArrivalNotice,
  useUserFields,
} from './shared';
import './people.css';

/** `/users/new` (a new account) and `/users/:id` (one account). */
export default function UserEditor() {
  const { id } = useParams();
  const session = useOutletContext<Session>();
  return (
    <WithMessages key={id ?? 'new'}>
      {id ? <UserScreen id={id} session={session} /> : <NewUser session={session} />}
    </WithMessages>
  );
}

type CreateUserBody = operations['createUser']['requestBody']['content']['application/json'];

const userKey = (id: string) => ['people', 'user', id];

// ---------------------------------------------------------------------------------------------
// A new user

function NewUser({ session }: { session: Session }) {
  const form = useForm();
  const report = useReport();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const fields = useUserFields(session);
  const readRoles = holds(session, 'read-roles');
  const roles = useAllRoles(readRoles);
  const [invite, setInvite] = useState(false);
  if (!holds(session, 'create-users')) {
    return (
      <div className="people">
        <Crumb to="/users">Users</Crumb>
        <Title>New user</Title>
        <p>You may not create users.</p>
      </div>
    );
  }
  if (fields.isPending) {
    return <p className="loading">Loading…</p>;
  }
  return (
    <div className="people">
      <Crumb to="/users">Users</Crumb>
      <Title>New user</Title>
      <Regions />
      <form
        id="user-new-form"
        className="editor"
        aria-busy={form.busy || undefined}
        onSubmit={form.submit(async (_el, data) => {
          try {
            const email = text(data, 'email').trim();
            const body: CreateUserBody = {
              ...customValues(fields.data ?? [], data),
              email,
              name: text(data, 'name').trim(),
              isActive: data.has('isActive'),
              emailVerified: data.has('emailVerified'),
              ...(readRoles ? { roleIds: checked(data, 'roleIds') } : {}),
              ...(invite
                ? { sendInvite: true }
                : {
                    password: text(data, 'password'),
                    requirePasswordChange: data.has('requirePasswordChange'),
                  }),
            };
            const created = await unwrap(api.POST('/admin/api/users', { body }));
            await queryClient.invalidateQueries({ queryKey: ['people', 'users'] });
            queryClient.setQueryData(userKey(created.item.id), created.item);
            void navigate(`/users/${created.item.id}`, {
              state: {
                notice: invite
                  ? `The user ${email} is created and an invitation to choose a password is emailed.`
                  : `The user ${email} is created.`,
              },
            });
          } catch (e) {
            report(e, form);
          }
        })}
      >
        <Field
          id="user-new-email"
          name="email"
          label="Email"
          type="email"
          autoComplete="off"
          maxLength={320}
          errors
          form={form}
        />
        <Field
          id="user-new-name"
          name="name"
          label="Name"
          autoComplete="off"
          maxLength={200}
          errors
          form={form}
        />
        <fieldset className="choice">
          <legend>How the user gets a password</legend>
          <label>
            <input
              type="radio"
              name="method"
              value="password"
              checked={!invite}
              onChange={() => setInvite(false)}
            />{' '}
            Set it now
          </label>
          <label>
            <input
              type="radio"
              name="method"
              value="invite"
              checked={invite}
              onChange={() => setInvite(true)}
            />{' '}
            Invite: email a link to choose one
          </label>
        </fieldset>
        {!invite && (
          <>
            <Field
              id="user-new-password"
              name="password"
              label="Password"
              type="password"
              autoComplete="new-password"
              hint={PASSWORD_RULE}
              maxLength={256}
              errors
              form={form}
            />
            <div className="field checkbox">
              <input id="user-new-require" name="requirePasswordChange" type="checkbox" />
              <label htmlFor="user-new-require">Require a password change at the first sign-in</label>
            </div>
          </>
        )}
        <div className="field checkbox">
          <input
            id="user-new-verified"
            name="emailVerified"
            type="checkbox"
            defaultChecked
            aria-describedby="user-new-verified-hint"
          />
          <label htmlFor="user-new-verified">Email verified</label>
          <p className="hint" id="user-new-verified-hint">
            Sign-in needs a verified address: leave this checked for someone who should sign in at once.
          </p>
        </div>
        <div className="field checkbox">
          <input id="user-new-active" name="isActive" type="checkbox" defaultChecked />
          <label htmlFor="user-new-active">Active</label>
        </div>
        {readRoles && (
          <RoleChoices roles={roles.data} failed={roles.error} name="roleIds" form={form} legend="Roles" />
        )}
        <CustomFields fields={fields.data ?? []} form={form} prefix="user-new" />
        <div className="actions">
          <button type="submit" className="button primary" disabled={form.busy}>
            {invite ? 'Create and invite' : 'Create user'}
          </button>
        </div>
      </form>
    </div>
  );
}

/** The roles as checkboxes (one per role, named by the role's name); uncontrolled. */
function RoleChoices(props: {
  roles?: Role[];
  failed: Error | null;
  name: string;
  form: ReturnType<typeof useForm>;
  legend: string;
}) {
  const { roles, failed, name, form } = props;
  return (
    <fieldset className="choice roles" aria-describedby="user-new-roles-error">
      <legend>{props.legend}</legend>
      {failed && <p role="alert">{failed.message}</p>}
      {!roles && !failed && <p className="loading">Loading…</p>}
      {roles?.map((role) => (
        <label key={role.id}>
          <input type="checkbox" name={name} value={role.id} /> {role.name}
        </label>
      ))}
      <p className="field-error" id="user-new-roles-error">
        {form.invalid.roleIds}
      </p>
    </fieldset>
  );
}

// ---------------------------------------------------------------------------------------------
// One user

function UserScreen({ id, session }: { id: string; session: Session }) {
  const user = useQuery({
    queryKey: userKey(id),
    queryFn: () => unwrap(api.GET('/admin/api/users/{id}', { params: { path: { id } } })),
  });
  const fields = useUserFields(session);
  useArrivalNotice();
  if (user.isPending || fields.isPending) {
    return <p className="loading">Loading…</p>;
  }
  if (user.error) {
    const missing = user.error instanceof ApiError && user.error.status === 404;
    return (
      <div className="people">
        <Crumb to="/users">Users</Crumb>
        <Title>{missing ? 'Not found' : 'Something went wrong'}</Title>
        <p role="alert">{missing ? 'There is no such user.' : user.error.message}</p>
      </div>
    );
  }
  const u = user.data;
  const canUpdate = holds(session, 'update-users');
  return (
    <div className="people user-screen">
      <Crumb to="/users">Users</Crumb>
      <Title>{u.name || u.email}</Title>
      <Regions />
      <Facts user={u} />
      {!canUpdate && <p>You may read this account but not change it.</p>}
      <Profile user={u} fields={fields.data ?? []} canUpdate={canUpdate} session={session} />
      <Status user={u} canUpdate={canUpdate} session={session} />
      {canUpdate && <Password user={u} />}
      <UserRoles user={u} canUpdate={canUpdate} session={session} />
      <Sessions user={u} canUpdate={canUpdate} />
      {canUpdate && <SecondFactor user={u} />}
      {holds(session, 'delete-users') && <DeleteUser user={u} />}
    </div>
  );
}

function Facts({ user }: { user: User }) {
  return (
    <dl className="facts">
      <div>
        <dt>Email</dt>
        <dd>{user.email}</dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd>
          <span className={`badge ${user.isActive ? 'yes' : 'no'}`}>
            {user.isActive ? 'Active' : 'Deactivated'}
          </span>
        </dd>
      </div>
      <div>
        <dt>Email verified</dt>
        <dd>{user.emailVerified ? 'Yes' : 'No'}</dd>
      </div>
      <div>
        <dt>Roles</dt>
        <dd>{user.roles.map((r) => r.name).join(', ') || 'None'}</dd>
      </div>
      <div>
        <dt>Last sign-in</dt>
        <dd>{moment(user.lastLoginAt)}</dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>{moment(user.createdAt)}</dd>
      </div>
    </dl>
  );
}

/** Puts the changed record in the cache, and reloads the session when it is the caller's own. */
function useUserSaved(session: Session) {
  const queryClient = useQueryClient();
  return (item: User) => {
    queryClient.setQueryData(userKey(item.id), item);
    void queryClient.invalidateQueries({ queryKey: ['people', 'users'] });
    if (item.id === session.me.id) {
      void queryClient.invalidateQueries({ queryKey: ['session'] });
    }
  };
}

function Profile(props: { user: User; fields: UserField[]; canUpdate: boolean; session: Session }) {
  const { user, fields, canUpdate } = props;
  const form = useForm();
  const report = useReport();
  const messages = useMessages();
  const saved = useUserSaved(props.session);
  return (
    <section aria-labelledby="profile-title">
      <h2 id="profile-title">Profile</h2>
      <form
        id="profile-form"
        className="editor"
        aria-labelledby="profile-title"
        aria-busy={form.busy || undefined}
        onSubmit={form.submit(async (_el, data) => {
          try {
            const answer = await unwrap(
              api.PATCH('/admin/api/users/{id}', {
                params: { path: { id: user.id } },
                body: {
                  ...customValues(fields, data),
                  email: text(data, 'email').trim(),
                  name: text(data, 'name').trim(),
                  emailVerified: data.has('emailVerified'),
                },
              }),
            );
            saved(answer.item);
            messages.showNotice('The profile is saved.');
          } catch (e) {
            report(e, form);
          }
        })}
      >
        <fieldset className="plain" disabled={!canUpdate}>
          <legend className="visually-hidden">Profile</legend>
          <Field
            id="profile-email"
            name="email"
            label="Email"
            type="email"
            autoComplete="off"
            defaultValue={user.email}
            maxLength={320}
            errors
            form={form}
          />
          <Field
            id="profile-name"
            name="name"
            label="Name"
            autoComplete="off"
            defaultValue={user.name}
            maxLength={200}
            errors
            form={form}
          />
          <div className="field checkbox">
            <input
              id="profile-verified"
              name="emailVerified"
              type="checkbox"
              defaultChecked={user.emailVerified}
            />
            <label htmlFor="profile-verified">Email verified</label>
          </div>
          <CustomFields fields={fields} user={user} form={form} prefix="profile" />
        </fieldset>
        {canUpdate && (
          <div className="actions">
            <button type="submit" className="button primary" disabled={form.busy}>
              Save profile
            </button>
          </div>
        )}
      </form>
    </section>
  );
}

function Status({ user, canUpdate, session }: { user: User; canUpdate: boolean; session: Session }) {
  const action = useAction();
  const report = useReport();
  const messages = useMessages();
  const saved = useUserSaved(session);
  const change = (isActive: boolean) =>
    action.run(async () => {
      try {
        const answer = await unwrap(
          api.PATCH('/admin/api/users/{id}', { params: { path: { id: user.id } }, body: { isActive } }),
        );
        saved(answer.item);
        messages.showNotice(
          isActive
            ? `${user.email} is active again and can sign in.`
            : `${user.email} is deactivated: their sessions are ended and they cannot sign in.`,
          true,
        );
      } catch (e) {
        report(e);
      }
    });
  return (
    <section aria-labelledby="status-title">
      <h2 id="status-title">Account status</h2>
      <p id="status-text">
        {user.isActive ? 'This account is active.' : 'This account is deactivated: its owner cannot sign in.'}
      </p>
      {canUpdate &&
        (user.isActive ? (
          <ConfirmButton
            label="Deactivate"
            title="Deactivate this account"
            isDisabled={action.busy}
            onConfirm={() => change(false)}
          >
            Deactivate {user.email}? Every session of theirs ends, and they cannot sign in until the account
            is activated again.
          </ConfirmButton>
        ) : (
          <button type="button" className="button" disabled={action.busy} onClick={() => change(true)}>
            Activate
          </button>
        ))}
    </section>
  );
}

function Password({ user }: { user: User }) {
  const form = useForm();
  const report = useReport();
  const messages = useMessages();
  const queryClient = useQueryClient();
  return (
    <section aria-labelledby="password-title">
      <h2 id="password-title">Password</h2>
      <p>A new password ends every session of the user; they are told by email.</p>
      <form
        id="password-form"
        className="editor"
        aria-labelledby="password-title"
        aria-busy={form.busy || undefined}
        onSubmit={form.submit(async (el, data) => {
          try {
            const answer = await unwrap(
              api.PATCH('/admin/api/users/{id}/password', {
                params: { path: { id: user.id } },
                body: {
                  password: text(data, 'password'),
                  requirePasswordChange: data.has('requirePasswordChange'),
                },
              }),
            );
            el.reset();
            void queryClient.invalidateQueries({ queryKey: [...userKey(user.id), 'sessions'] });
            messages.showNotice(answer.message);
          } catch (e) {
            report(e, form);
          }
        })}
      >
        <Field
          id="password-new"
          name="password"
          label="New password"
          type="password"
          autoComplete="new-password"
          hint={PASSWORD_RULE}
          maxLength={256}
          errors
          form={form}
        />
        <div className="field checkbox">
          <input id="password-require" name="requirePasswordChange" type="checkbox" />
          <label htmlFor="password-require">Require a password change at the next sign-in</label>
        </div>
        <div className="actions">
          <button type="submit" className="button" disabled={form.busy}>
            Set password
          </button>
        </div>
      </form>
    </section>
  );
}

function UserRoles({ user, canUpdate, session }: { user: User; canUpdate: boolean; session: Session }) {
  const readRoles = holds(session, 'read-roles');
  const roles = useAllRoles(readRoles);
  const held = user.roles.map((r) => r.id);
  const [picked, setPicked] = useState<string[]>(held);
  const action = useAction();
  const report = useReport();
  const messages = useMessages();
  const saved = useUserSaved(session);
  const queryClient = useQueryClient();
  // A change made elsewhere (another tab, the status section) shows once the record is read again.
  const heldKey = [...held].sort().join();
  const last = useRef(heldKey);
  useEffect(() => {
    if (last.current !== heldKey) {
      last.current = heldKey;
      setPicked(heldKey ? heldKey.split(',') : []);
    }
  }, [heldKey]);
  if (!readRoles) {
    return (
      <section aria-labelledby="roles-title">
        <h2 id="roles-title">Roles</h2>
        <p>{user.roles.map((r) => r.name).join(', ') || 'No role.'}</p>
      </section>
    );
  }
  const added = picked.filter((r) => !held.includes(r));
  const removed = held.filter((r) => !picked.includes(r));
  const save = () =>
    action.run(async () => {
      try {
        let item: User | undefined;
        for (const roleId of added) {
          item = (
            await unwrap(
              api.POST('/admin/api/users/{id}/roles', {
                params: { path: { id: user.id } },
                body: { roleId },
              }),
            )
          ).item;
        }
        for (const roleId of removed) {
          item = (
            await unwrap(
              api.DELETE('/admin/api/users/{id}/roles/{roleId}', {
                params: { path: { id: user.id, roleId } },
              }),
            )
          ).item;
        }
        if (item) {
          saved(item);
        }
        messages.showNotice('The roles are saved.');
      } catch (e) {
        report(e);
        // Some changes may have gone through before the refusal: show what the user holds now.
        const fresh = await queryClient.fetchQuery({
          queryKey: userKey(user.id),
          queryFn: () => unwrap(api.GET('/admin/api/users/{id}', { params: { path: { id: user.id } } })),
          staleTime: 0,
        });
        setPicked(fresh.roles.map((r) => r.id));
      }
    });
  return (
    <section aria-labelledby="roles-title">
      <h2 id="roles-title">Roles</h2>
      <form
        id="roles-form"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <fieldset className="choice roles" disabled={!canUpdate}>
          <legend>Roles of {user.name || user.email}</legend>
          {roles.error && <p role="alert">{roles.error.message}</p>}
          {roles.isPending && <p className="loading">Loading…</p>}
          {roles.data?.map((role) => (
            <label key={role.id}>
              <input
                type="checkbox"
                name="roleIds"
                value={role.id}
                checked={picked.includes(role.id)}
                onChange={(e) =>
                  setPicked(e.target.checked ? [...picked, role.id] : picked.filter((r) => r !== role.id))
                }
              />{' '}
              {role.name}
            </label>
          ))}
        </fieldset>
        {canUpdate && (
          <div className="actions">
            <button
              type="submit"
              className="button"
              disabled={action.busy || (added.length === 0 && removed.length === 0)}
            >
              Save roles
            </button>
          </div>
        )}
      </form>
    </section>
  );
}

function Sessions({ user, canUpdate }: { user: User; canUpdate: boolean }) {
  const sessions = useQuery({
    queryKey: [...userKey(user.id), 'sessions'],
    queryFn: () => unwrap(api.GET('/admin/api/users/{id}/sessions', { params: { path: { id: user.id } } })),
  });
  const action = useAction();
  const report = useReport();
  const messages = useMessages();
  const items = sessions.data?.items ?? [];
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">Sessions</h2>
      {sessions.error && <p role="alert">{sessions.error.message}</p>}
      {sessions.data && items.length === 0 && <p id="sessions-none">No session: the user is signed out.</p>}
      {items.length > 0 && (
        <Scroll id="user-sessions" caption={`Sessions of ${user.email}`}>
          <thead>
            <tr>
              <th scope="col">Signed in</th>
              <th scope="col">Last used</th>
              <th scope="col">Expires</th>
              <th scope="col">Browser</th>
              <th scope="col">IP address</th>
              <th scope="col">Method</th>
            </tr>
          </thead>
          <tbody>
            {items.map((s) => (
              <tr key={s.id}>
                <td>{moment(s.createdAt)}</td>
                <td>{moment(s.lastUsedAt)}</td>
                <td>{moment(s.expiresAt)}</td>
                <td className="agent">{s.userAgent ?? '—'}</td>
                <td>{s.ip ?? '—'}</td>
                <td>{s.strategy}</td>
              </tr>
            ))}
          </tbody>
        </Scroll>
      )}
      {canUpdate && items.length > 0 && (
        <div className="actions">
          <ConfirmButton
            label="End all sessions"
            title="End every session"
            isDisabled={action.busy}
            onConfirm={() =>
              action.run(async () => {
                try {
                  const answer = await unwrap(
                    api.DELETE('/admin/api/users/{id}/sessions', { params: { path: { id: user.id } } }),
                  );
                  await sessions.refetch();
                  messages.showNotice(answer.message, true);
                } catch (e) {
                  report(e);
                }
              })
            }
          >
            Sign {user.email} out everywhere? Every session ends at once.
          </ConfirmButton>
        </div>
      )}
    </section>
  );
}

/** The TOTP plugin's reset of a user's authenticator app (shown when the plugin is installed). */
function SecondFactor({ user }: { user: User }) {
  const ui = useQuery({
    queryKey: ['people', 'auth-ui'],
    queryFn: () => unwrap(api.GET('/admin/api/auth/ui')),
    staleTime: 300_000,
  });
  const action = useAction();
  const report = useReport();
  const messages = useMessages();
  if (!ui.data || !Object.hasOwn(ui.data.challengeViews, 'totp')) {
    return null;
  }
  return (
    <section aria-labelledby="factor-title">
      <h2 id="factor-title">Two-step verification</h2>
      <p>
        When the user has lost their authenticator app, reset it: they sign in with the password alone and can
        set it up again.
      </p>
      <ConfirmButton
        label="Reset two-step verification"
        title="Reset two-step verification"
        isDisabled={action.busy}
        onConfirm={() =>
          action.run(async () => {
            try {
              const answer = await content<{ message: string }>('DELETE', `/plugins/totp/users/${user.id}`);
              messages.showNotice(answer.message, true);
            } catch (e) {
              report(e);
            }
          })
        }
      >
        Remove the authenticator app of {user.email}? Their sign-in asks for the password alone until they set
        one up again.
      </ConfirmButton>
    </section>
  );
}

function DeleteUser({ user }: { user: User }) {
  const action = useAction();
  const report = useReport();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return (
    <section aria-labelledby="delete-title">
      <h2 id="delete-title">Delete the account</h2>
      <p>The account goes with its sessions and API keys. This cannot be undone.</p>
      <ConfirmButton
        label="Delete user"
        title="Delete this user"
        isDisabled={action.busy}
        onConfirm={() =>
          action.run(async () => {
            try {
              await unwrap(api.DELETE('/admin/api/users/{id}', { params: { path: { id: user.id } } }));
              queryClient.removeQueries({ queryKey: userKey(user.id) });
              await queryClient.invalidateQueries({ queryKey: ['people', 'users'] });
              void navigate('/users', { state: { notice: `The user ${user.email} is deleted.` } });
            } catch (e) {
              report(e);
            }
          })
        }
      >
        Delete {user.email}? This cannot be undone.
      </ConfirmButton>
    </section>
  );
}
