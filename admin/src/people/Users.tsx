import { useQuery } from '@tanstack/react-query';
import { Link, useOutletContext, useSearchParams } from 'react-router';
import { api, type ListMeta, type Session, unwrap } from '../api';
import { Pager } from '../screens/Pager';
import { Title } from '../screens/Title';
import { ArrivalStatus, holds, moment, Scroll, SortHeading, useAllRoles, type User } from './shared';
import './people.css';

const PAGE_SIZE = 20;
/** The users read at once when a filter applies (the API filters by search only). */
const FILTER_WINDOW = 500;
const SORTS = ['email', 'name', 'createdAt', 'lastLoginAt'] as const;
type Sort = (typeof SORTS)[number] | `-${(typeof SORTS)[number]}`;

function sortOf(value: string | null): Sort {
  const field = value?.replace(/^-/, '');
  return value && (SORTS as readonly string[]).includes(field ?? '') ? (value as Sort) : 'email';
}

/** Whether a user passes the role and status filters. */
function passes(user: User, role: string, status: string, verified: string): boolean {
  return (
    (!role || user.roles.some((r) => r.id === role)) &&
    (!status || user.isActive === (status === 'active')) &&
    (!verified || user.emailVerified === (verified === 'yes'))
  );
}

/**
 * The accounts: a table (email, name, roles, active, verified, last sign-in) with search, sort,
 * filters by role, status and verification, and paging. The API searches and sorts; the filters
 * apply in the browser to the first 500 users the search finds (said when there are more).
 */
export default function Users() {
  const session = useOutletContext<Session>();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const search = params.get('q') ?? '';
  const sort = sortOf(params.get('sort'));
  const role = params.get('role') ?? '';
  const status = params.get('status') ?? '';
  const verified = params.get('verified') ?? '';
  const filtered = Boolean(role || status || verified);
  const readRoles = holds(session, 'read-roles');
  const roles = useAllRoles(readRoles);
  const list = useQuery({
    queryKey: ['people', 'users', { page: filtered ? 1 : page, search, sort, filtered }],
    queryFn: () =>
      unwrap(
        api.GET('/admin/api/users', {
          params: {
            query: {
              page: filtered ? 1 : page,
              limit: filtered ? FILTER_WINDOW : PAGE_SIZE,
              sort,
              ...(search ? { search } : {}),
            },
          },
        }),
      ),
    placeholderData: (previous) => previous,
  });
  const set = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null || v === '') {
        next.delete(k);
      } else {
        next.set(k, v);
      }
    }
    setParams(next);
  };

  let items: User[] = list.data?.items ?? [];
  let meta: ListMeta | undefined = list.data?.meta;
  const truncated = filtered && meta !== undefined && meta.total > FILTER_WINDOW;
  if (filtered && meta) {
    const all = items.filter((u) => passes(u, role, status, verified));
    const totalPages = Math.ceil(all.length / PAGE_SIZE);
    items = all.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
    meta = {
      total: all.length,
      page,
      limit: PAGE_SIZE,
      totalPages,
      hasNext: page < totalPages,
      hasPrev: page > 1,
    };
  }

  return (
    <div className="people">
      <div className="title-row">
        <Title>Users</Title>
        {holds(session, 'create-users') && (
          <Link className="button primary" to="/users/new">
            New user
          </Link>
        )}
      </div>
      <ArrivalStatus />
      <form
        role="search"
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          set({ q: String(new FormData(e.currentTarget).get('q') ?? '').trim(), page: null });
        }}
      >
        <label htmlFor="user-search">Search</label>
        <input
          id="user-search"
          name="q"
          type="search"
          defaultValue={search}
          key={search}
          aria-describedby="user-search-hint"
        />
        <button type="submit" className="button">
          Search
        </button>
        <span id="user-search-hint" className="hint">
          Email address or name
        </span>
      </form>
      <div className="filters-row" role="group" aria-label="Filters">
        {readRoles && (
          <div className="field inline">
            <label htmlFor="user-role">Role</label>
            <select id="user-role" value={role} onChange={(e) => set({ role: e.target.value, page: null })}>
              <option value="">Any role</option>
              {(roles.data ?? []).map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="field inline">
          <label htmlFor="user-status">Status</label>
          <select
            id="user-status"
            value={status}
            onChange={(e) => set({ status: e.target.value, page: null })}
          >
            <option value="">Either</option>
            <option value="active">Active</option>
            <option value="inactive">Deactivated</option>
          </select>
        </div>
        <div className="field inline">
          <label htmlFor="user-verified">Email verified</label>
          <select
            id="user-verified"
            value={verified}
            onChange={(e) => set({ verified: e.target.value, page: null })}
          >
            <option value="">Either</option>
            <option value="yes">Yes</option>
            <option value="no">No</option>
          </select>
        </div>
        {filtered && (
          <button
            type="button"
            className="button"
            onClick={() => set({ role: null, status: null, verified: null, page: null })}
          >
            Clear filters
          </button>
        )}
      </div>
      {truncated && (
        <p className="hint">
          The filters apply to the first {FILTER_WINDOW} of {list.data?.meta.total} users: search to narrow
          the list.
        </p>
      )}
      {list.error && <p role="alert">{list.error.message}</p>}
      <Scroll id="users-table" caption="Users">
        <thead>
          <tr>
            <SortHeading
              name="email"
              label="Email"
              sort={sort}
              onSort={(s) => set({ sort: s, page: null })}
            />
            <SortHeading name="name" label="Name" sort={sort} onSort={(s) => set({ sort: s, page: null })} />
            <th scope="col">Roles</th>
            <th scope="col">Active</th>
            <th scope="col">Verified</th>
            <SortHeading
              name="lastLoginAt"
              label="Last sign-in"
              sort={sort}
              onSort={(s) => set({ sort: s, page: null })}
            />
          </tr>
        </thead>
        <tbody>
          {items.map((user) => (
            <tr key={user.id}>
              <th scope="row" className="wrap">
                <Link to={`/users/${user.id}`}>{user.email}</Link>
              </th>
              <td>{user.name}</td>
              <td>{user.roles.map((r) => r.name).join(', ') || '—'}</td>
              <td>
                <span className={`badge ${user.isActive ? 'yes' : 'no'}`}>
                  {user.isActive ? 'Active' : 'Deactivated'}
                </span>
              </td>
              <td>{user.emailVerified ? 'Yes' : 'No'}</td>
              <td>{moment(user.lastLoginAt)}</td>
            </tr>
          ))}
        </tbody>
      </Scroll>
      {list.data && items.length === 0 && (
        <p>{search || filtered ? 'No user matches.' : 'There are no users.'}</p>
      )}
      {meta && <Pager meta={meta} one="user" many="users" go={(n) => set({ page: String(n) })} />}
    </div>
  );
}
