import { useEffect } from 'react';
import { Link, useOutletContext } from 'react-router';
import { api, type Session, unwrap } from '../api';
import { Regions, useAction, useMessages, WithMessages } from '../auth/messages';
import { Title } from '../screens/Title';
import { ApiKeys } from './ApiKeys';
import { Passkeys } from './Passkeys';
import { Sessions } from './Sessions';
import { TwoStep } from './TwoStep';
import './account.css';

/**
 * The account screen (`/admin`): who is signed in, sign out, and the Security section: sessions,
 * two-step verification, passkeys and API keys. A section whose API refuses (a plugin that is not
 * installed) is not shown.
 */
export function Account() {
  useEffect(() => {
    document.title = 'Your account · svc';
  }, []);
  return (
    <WithMessages>
      <Title id="title">Your account</Title>
      <Regions />
      <Who />
      <section id="security" aria-labelledby="security-title">
        <h2 id="security-title" tabIndex={-1}>
          Security
        </h2>
        <Sessions />
        <TwoStep />
        <Passkeys />
        <ApiKeys />
      </section>
    </WithMessages>
  );
}

/** Who is signed in, and sign out: `POST /auth/logout`, then a full load of the sign-in page. */
function Who() {
  const { me } = useOutletContext<Session>();
  const messages = useMessages();
  const signOut = useAction();
  return (
    <section id="who" aria-labelledby="who-title">
      <h2 id="who-title">Signed in</h2>
      <p id="who-text">You are signed in as {me.name ? `${me.name} (${me.email})` : me.email}.</p>
      <p>
        <Link to="/content">Open the content editor</Link>
      </p>
      <button
        type="button"
        id="sign-out"
        disabled={signOut.busy}
        onClick={() =>
          signOut.run(async () => {
            try {
              await unwrap(api.POST('/admin/api/auth/logout'));
            } catch (e) {
              messages.showProblem(e);
              return;
            }
            window.location.assign('/admin/login');
          })
        }
      >
        Sign out
      </button>
    </section>
  );
}
