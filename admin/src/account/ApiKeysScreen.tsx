import { useEffect } from 'react';
import { Regions, WithMessages } from '../auth/messages';
import { Title } from '../screens/Title';
import { ApiKeys } from './ApiKeys';

/** The API keys of the signed-in person, as a screen of its own (also on the account screen). */
export default function ApiKeysScreen() {
  useEffect(() => {
    document.title = 'API keys · svc';
  }, []);
  return (
    <WithMessages>
      <Title>API keys</Title>
      <Regions />
      <ApiKeys />
    </WithMessages>
  );
}
