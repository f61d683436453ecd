import { Title } from '../screens/Title';

export default function RoleEditor() {
  return <Title>RoleEditor</Title>;
}
