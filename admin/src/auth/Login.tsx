import { PublicPage } from './PublicPage';

export function Login() {
  return <PublicPage title="Sign in">TODO</PublicPage>;
}
