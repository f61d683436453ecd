import { type ReactNode, useEffect } from 'react';
import { Link } from 'react-router';
import { Regions, WithMessages } from './messages';

/**
 * A screen for someone not signed in (sign-in, forgotten password, emailed links): its heading
 * (`#title`), the message regions and its content, centred and narrow.
 */
export function PublicPage({
  title,
  heading,
  children,
}: {
  title: string;
  heading?: string;
  children: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · svc`;
  }, [title]);
  return (
    <WithMessages>
      <main id="main" className="public">
        <h1 id="title" tabIndex={-1}>
          {heading ?? title}
        </h1>
        <Regions />
        {children}
      </main>
    </WithMessages>
  );
}

export function SignInLink() {
  return (
    <p>
      <Link to="/login">Back to sign in</Link>
    </p>
  );
}
