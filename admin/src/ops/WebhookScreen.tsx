import { Title } from '../screens/Title';

export default function WebhookScreen() {
  return <Title>WebhookScreen</Title>;
}
