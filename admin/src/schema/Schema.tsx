import { Title } from '../screens/Title';

/** The schema builder (collections, singles, field groups); its own routes under /admin/schema. */
export default function Schema() {
  return <Title>Content types</Title>;
}
