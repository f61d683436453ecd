import { Link } from 'react-router';
import { type Session, useDefinitions, useFieldGroups } from '../api';
import { ArrivalStatus, Scroll } from '../people/shared';
import { Title } from '../screens/Title';

const SOURCE: Record<string, string> = {
  code: 'Configuration file',
  ui: 'Made here',
  system: 'Built in',
};

/** The collections, singles and field groups, each a table linking to its builder. */
export function SchemaList({ session }: { session: Session }) {
  const definitions = useDefinitions();
  const groups = useFieldGroups();
  const collections = definitions.data?.collections ?? [];
  const singles = definitions.data?.singles ?? [];
  const error = definitions.error ?? groups.error;
  return (
    <>
      <div className="title-row">
        <Title>Content types</Title>
        {session.isSuperAdmin && <Link to="/schema/history">History of changes</Link>}
      </div>
      <ArrivalStatus />
      {error && <p role="alert">{error.message}</p>}

      <section>
        <div className="title-row">
          <h2 id="collections-heading">Collections</h2>
          <Link className="button primary" to="/schema/collections/new">
            New collection
          </Link>
        </div>
        {definitions.isPending ? (
          <p className="loading">Loading…</p>
        ) : (
          <Scroll id="collections-table" caption="Collections">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Slug</th>
                <th scope="col">Fields</th>
                <th scope="col">Drafts</th>
                <th scope="col">Versions</th>
                <th scope="col">Defined by</th>
              </tr>
            </thead>
            <tbody>
              {collections.map((c) => (
                <tr key={c.slug}>
                  <th scope="row">
                    <Link to={`/schema/collections/${c.slug}`}>{c.labels.plural}</Link>
                  </th>
                  <td className="slug">{c.slug}</td>
                  <td>{c.fields.length}</td>
                  <td>{c.drafts ? 'Yes' : 'No'}</td>
                  <td>{c.versions ? `Newest ${c.versions.max}` : 'No'}</td>
                  <td>{SOURCE[c.source] ?? c.source}</td>
                </tr>
              ))}
            </tbody>
          </Scroll>
        )}
      </section>

      <section>
        <div className="title-row">
          <h2 id="singles-heading">Singles</h2>
          <Link className="button" to="/schema/singles/new">
            New single
          </Link>
        </div>
        {definitions.isPending ? (
          <p className="loading">Loading…</p>
        ) : singles.length === 0 ? (
          <p>There are no singles.</p>
        ) : (
          <Scroll id="singles-table" caption="Singles">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Slug</th>
                <th scope="col">Fields</th>
                <th scope="col">Defined by</th>
              </tr>
            </thead>
            <tbody>
              {singles.map((s) => (
                <tr key={s.slug}>
                  <th scope="row">
                    <Link to={`/schema/singles/${s.slug}`}>{s.label}</Link>
                  </th>
                  <td className="slug">{s.slug}</td>
                  <td>{s.fields.length}</td>
                  <td>{SOURCE[s.source] ?? s.source}</td>
                </tr>
              ))}
            </tbody>
          </Scroll>
        )}
      </section>

      <section>
        <div className="title-row">
          <h2 id="groups-heading">Field groups</h2>
          <Link className="button" to="/schema/field-groups/new">
            New field group
          </Link>
        </div>
        <p className="hint">The fields a component field holds, reusable in any content type.</p>
        {groups.isPending ? (
          <p className="loading">Loading…</p>
        ) : (groups.data ?? []).length === 0 ? (
          <p>There are no field groups.</p>
        ) : (
          <Scroll id="groups-table" caption="Field groups">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Slug</th>
                <th scope="col">Fields</th>
                <th scope="col">Defined by</th>
              </tr>
            </thead>
            <tbody>
              {(groups.data ?? []).map((g) => (
                <tr key={g.slug}>
                  <th scope="row">
                    <Link to={`/schema/field-groups/${g.slug}`}>{g.label}</Link>
                  </th>
                  <td className="slug">{g.slug}</td>
                  <td>{g.fields.length}</td>
                  <td>{SOURCE[g.source] ?? g.source}</td>
                </tr>
              ))}
            </tbody>
          </Scroll>
        )}
      </section>
    </>
  );
}
