import { Title } from '../screens/Title';

export default function UserEditor() {
  return <Title>UserEditor</Title>;
}
