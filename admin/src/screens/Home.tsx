import { Title } from './Title';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../api';

/** The dashboard: what the service holds, and the entries edited last. */
export function Home() {
  const stats = useQuery({
    queryKey: ['dashboard', 'stats'],
    queryFn: () => unwrap(api.GET('/admin/api/dashboard/stats')),
  });
  const recent = useQuery({
    queryKey: ['dashboard', 'recent'],
    queryFn: () =>
      unwrap(api.GET('/admin/api/dashboard/recent-entries', { params: { query: { limit: 10 } } })),
  });
  const activity = useQuery({
    queryKey: ['dashboard', 'activity'],
    queryFn: () => unwrap(api.GET('/admin/api/dashboard/activity', { params: { query: { limit: 10 } } })),
  });
  return (
    <>
      <Title>Dashboard</Title>
      <section aria-labelledby="stats-heading">
        <h2 id="stats-heading">Content</h2>
        {stats.error && <p role="alert">{stats.error.message}</p>}
        <ul className="cards">
          {stats.data?.collections.map((c) => (
            <li key={c.slug} className="card">
              <Link to={`/collections/${c.slug}`}>{c.label}</Link>
              <span>
                {c.total} {c.total === 1 ? 'entry' : 'entries'}
                {c.drafts !== null && `, ${c.drafts} ${c.drafts === 1 ? 'draft' : 'drafts'}`}
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="recent-heading">
        <h2 id="recent-heading">Recently edited</h2>
        {recent.error && <p role="alert">{recent.error.message}</p>}
        {recent.data && recent.data.items.length === 0 && <p>Nothing edited yet.</p>}
        <ul className="recent">
          {recent.data?.items.map((e) => (
            <li key={`${e.collection}/${e.id}`}>
              <Link to={`/collections/${e.collection}/${e.id}`}>{e.title || e.id}</Link>{' '}
              <span className="muted">
                in {e.collection}
                {e.status && `, ${e.status}`}, {new Date(e.updatedAt).toLocaleString()}
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="activity-heading">
        <h2 id="activity-heading">Activity</h2>
        {activity.error && <p role="alert">{activity.error.message}</p>}
        {activity.data && activity.data.items.length === 0 && <p>No activity yet.</p>}
        <ul className="recent">
          {activity.data?.items.map((a) => (
            <li key={a.id}>
              {a.event}
              {a.target && ` ${a.target}`}{' '}
              <span className="muted">
                {a.actor ? `by ${a.actor.name}, ` : ''}
                {new Date(a.createdAt).toLocaleString()}
              </span>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
