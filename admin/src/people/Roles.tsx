import { useQuery } from '@tanstack/react-query';
import { Link, useOutletContext, useSearchParams } from 'react-router';
import { api, type Session, unwrap } from '../api';
import { Pager } from '../screens/Pager';
import { Title } from '../screens/Title';
import { ArrivalStatus, holds, Scroll, SortHeading } from './shared';
import './people.css';

const PAGE_SIZE = 20;
const SORTS = ['name', 'slug', 'level', 'createdAt'] as const;
type Sort = (typeof SORTS)[number] | `-${(typeof SORTS)[number]}`;

function sortOf(value: string | null): Sort {
  const field = value?.replace(/^-/, '');
  return value && (SORTS as readonly string[]).includes(field ?? '') ? (value as Sort) : 'name';
}

/** The roles: a table (name, slug, level, permissions, description) with search, sort and paging. */
export default function Roles() {
  const session = useOutletContext<Session>();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const search = params.get('q') ?? '';
  const sort = sortOf(params.get('sort'));
  const list = useQuery({
    queryKey: ['people', 'roles', { page, search, sort }],
    queryFn: () =>
      unwrap(
        api.GET('/admin/api/roles', {
          params: { query: { page, limit: PAGE_SIZE, sort, ...(search ? { search } : {}) } },
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
  const onSort = (s: string) => set({ sort: s, page: null });
  const items = list.data?.items ?? [];
  return (
    <div className="people">
      <div className="title-row">
        <Title>Roles</Title>
        {holds(session, 'create-roles') && (
          <Link className="button primary" to="/roles/new">
            New role
          </Link>
        )}
      </div>
      {holds(session, 'read-permissions') && (
        <p>
          <Link to="/roles/permissions">Permissions</Link>: every permission roles grant, and your
          application&rsquo;s own.
        </p>
      )}
      <ArrivalStatus />
      <form
        role="search"
        className="toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          set({ q: String(new FormData(e.currentTarget).get('q') ?? '').trim(), page: null });
        }}
      >
        <label htmlFor="role-search">Search</label>
        <input id="role-search" name="q" type="search" defaultValue={search} key={search} />
        <button type="submit" className="button">
          Search
        </button>
      </form>
      {list.error && <p role="alert">{list.error.message}</p>}
      <Scroll id="roles-table" caption="Roles">
        <thead>
          <tr>
            <SortHeading name="name" label="Name" sort={sort} onSort={onSort} />
            <SortHeading name="slug" label="Slug" sort={sort} onSort={onSort} />
            <SortHeading name="level" label="Level" sort={sort} onSort={onSort} />
            <th scope="col">Permissions</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {items.map((role) => (
            <tr key={role.id}>
              <th scope="row">
                <Link to={`/roles/${role.id}`}>{role.name}</Link>
                {role.isSystem && <span className="badge system">system</span>}
              </th>
              <td className="slug">{role.slug}</td>
              <td>{role.level}</td>
              <td>{role.isSystem && role.permissions.length === 0 ? 'All' : role.permissions.length}</td>
              <td className="wrap">{role.description ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </Scroll>
      {list.data && items.length === 0 && <p>{search ? 'No role matches.' : 'There are no roles.'}</p>}
      {list.data && (
        <Pager meta={list.data.meta} one="role" many="roles" go={(n) => set({ page: String(n) })} />
      )}
    </div>
  );
}
