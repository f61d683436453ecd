import { Route, Routes, useOutletContext } from 'react-router';
import { holds, type Session } from '../api';
import { Title } from '../screens/Title';
import { DefinitionEditor } from './DefinitionEditor';
import { History } from './History';
import { SchemaList } from './SchemaList';
import './schema.css';

/** The schema builder (collections, singles, field groups); its own routes under /admin/schema. */
export default function Schema() {
  const session = useOutletContext<Session>();
  if (!holds(session, 'manage-settings')) {
    return (
      <div className="schema">
        <Title>Content types</Title>
        <p role="alert">Changing content types needs the manage-settings permission.</p>
      </div>
    );
  }
  return (
    <div className="schema">
      <Routes>
        <Route index element={<SchemaList session={session} />} />
        <Route path="history" element={<History />} />
        <Route path="collections/new" element={<DefinitionEditor kind="collection" />} />
        <Route path="collections/:slug" element={<DefinitionEditor kind="collection" />} />
        <Route path="singles/new" element={<DefinitionEditor kind="single" />} />
        <Route path="singles/:slug" element={<DefinitionEditor kind="single" />} />
        <Route path="field-groups/new" element={<DefinitionEditor kind="field-group" />} />
        <Route path="field-groups/:slug" element={<DefinitionEditor kind="field-group" />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </div>
  );
}

function NotFound() {
  return (
    <>
      <Title>Not found</Title>
      <p>There is no such screen among the content types.</p>
    </>
  );
}
