import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, ApiError, unwrap, useDefinitions, useFieldGroups } from '../api';
import { Crumb, moment, Scroll } from '../people/shared';
import { Pager } from '../screens/Pager';
import { Title } from '../screens/Title';
import { changeWords, SEGMENT } from './model';

const PAGE_SIZE = 20;
const TARGET = { collection: 'Collection', single: 'Single', 'field-group': 'Field group' } as const;

/** The schema journal: every applied change, newest first, a row per apply. */
export function History() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const journal = useQuery({
    queryKey: ['schema', 'journal', page],
    queryFn: () =>
      unwrap(
        api.GET('/admin/api/schema/journal', {
          params: { query: { page, limit: PAGE_SIZE, sort: '-appliedAt' } },
        }),
      ),
    placeholderData: (previous) => previous,
  });
  const ids = [
    ...new Set((journal.data?.items ?? []).map((r) => r.appliedBy).filter((id): id is string => !!id)),
  ];
  // Who applied each: their names where the session may read users, else their ids.
  const people = useQuery({
    queryKey: ['schema', 'journal', 'people', ids],
    enabled: ids.length > 0,
    queryFn: async () => {
      const names = new Map<string, string>();
      await Promise.all(
        ids.map(async (id) => {
          try {
            const user = await unwrap(api.GET('/admin/api/users/{id}', { params: { path: { id } } }));
            names.set(id, user.name || user.email);
          } catch {
            // Gone or not readable: the id stays.
          }
        }),
      );
      return names;
    },
  });
  // No one applied it: the configuration file's sync, or a user since removed.
  const definitions = useDefinitions();
  const groups = useFieldGroups();
  const fromFile = new Set(
    [
      ...(definitions.data?.collections ?? []).map((d) => ({ ...d, kind: 'collection' })),
      ...(definitions.data?.singles ?? []).map((d) => ({ ...d, kind: 'single' })),
      ...(groups.data ?? []).map((d) => ({ ...d, kind: 'field-group' })),
    ]
      .filter((d) => d.source !== 'ui')
      .map((d) => `${d.kind}:${d.slug}`),
  );
  const refused = journal.error instanceof ApiError && journal.error.status === 403;
  const items = journal.data?.items ?? [];
  return (
    <>
      <Crumb to="/schema">Content types</Crumb>
      <Title>History of changes</Title>
      {journal.error && (
        <p role="alert">
          {refused
            ? 'Only super-admins signed in with this browser can see the history.'
            : journal.error.message}
        </p>
      )}
      <Scroll id="journal-table" caption="Applied schema changes">
        <thead>
          <tr>
            <th scope="col">Applied</th>
            <th scope="col">Content type</th>
            <th scope="col">Changes</th>
            <th scope="col">By</th>
          </tr>
        </thead>
        <tbody>
          {items.map((r) => (
            <tr key={r.id}>
              <td className="nowrap">{moment(r.appliedAt)}</td>
              <th scope="row">
                {TARGET[r.target]} <Link to={`/schema/${SEGMENT[r.target]}/${r.slug}`}>{r.slug}</Link>
              </th>
              <td className="wrap">
                <ul className="journal-changes">
                  {r.changes.map((c, i) => {
                    const words = changeWords(c);
                    return (
                      <li key={i} className={c.destructive ? 'destructive' : undefined}>
                        {words.kind} <code>{c.field}</code>
                        {words.details ? `: ${words.details}` : ''}
                        {c.destructive ? ' (destructive)' : ''}
                      </li>
                    );
                  })}
                </ul>
              </td>
              <td>
                {r.appliedBy
                  ? (people.data?.get(r.appliedBy) ?? r.appliedBy)
                  : fromFile.has(`${r.target}:${r.slug}`)
                    ? 'The configuration file'
                    : 'A removed user'}
              </td>
            </tr>
          ))}
        </tbody>
      </Scroll>
      {journal.data && items.length === 0 && <p>No schema change has been applied yet.</p>}
      {journal.data && (
        <Pager
          meta={journal.data.meta}
          one="change"
          many="changes"
          go={(n) => setParams(n > 1 ? { page: String(n) } : {})}
        />
      )}
    </>
  );
}
