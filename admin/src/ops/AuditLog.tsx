import { Title } from '../screens/Title';

export default function AuditLog() {
  return <Title>AuditLog</Title>;
}
