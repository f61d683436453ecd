import { Title } from '../screens/Title';

export default function Users() {
  return <Title>Users</Title>;
}
