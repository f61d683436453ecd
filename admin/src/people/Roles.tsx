import { Title } from '../screens/Title';

export default function Roles() {
  return <Title>Roles</Title>;
}
