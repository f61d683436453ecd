import { Title } from '../screens/Title';

/** Settings (general, user fields, image sizes, email); its own routes under /admin/settings. */
export default function Settings() {
  return <Title>Settings</Title>;
}
