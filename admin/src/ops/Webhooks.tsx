import { Title } from '../screens/Title';

export default function Webhooks() {
  return <Title>Webhooks</Title>;
}
