import { lazy, Suspense, useEffect } from 'react';
import { createBrowserRouter, Link, NavLink, Outlet } from 'react-router';
import { Account } from './account/Account';
import { ReauthPrompt } from './account/ReauthPrompt';
import { ApiError, may, type Session, useDefinitions, useSession } from './api';
import { Login } from './auth/Login';
import { AcceptInvite, ForgotPassword, ResetPassword, VerifyEmail } from './auth/TokenPages';
import { EntryList } from './screens/EntryList';
import { Home } from './screens/Home';
import { MediaLibrary } from './screens/MediaLibrary';
import { Title } from './screens/Title';

// The editor (and later its rich text) is a chunk of its own, loaded when an entry is opened.
const EntryEditor = lazy(() => import('./screens/EntryEditor'));
const SingleEditor = lazy(() => import('./screens/EntryEditor').then((m) => ({ default: m.SingleEditor })));
// Administration: chunks of their own, loaded when opened.
const Users = lazy(() => import('./people/Users'));
const UserEditor = lazy(() => import('./people/UserEditor'));
const Roles = lazy(() => import('./people/Roles'));
const RoleEditor = lazy(() => import('./people/RoleEditor'));
const Permissions = lazy(() => import('./people/Permissions'));
const Webhooks = lazy(() => import('./ops/Webhooks'));
const WebhookScreen = lazy(() => import('./ops/WebhookScreen'));
const AuditLog = lazy(() => import('./ops/AuditLog'));
const ApiKeysScreen = lazy(() => import('./account/ApiKeysScreen'));
const Schema = lazy(() => import('./schema/Schema'));
const Settings = lazy(() => import('./settings/Settings'));

/** The screens, each at a real URL under `/admin` (the service answers each with the app). */
export const router = createBrowserRouter(
  [
    // Signed out: sign-in and the screens of emailed links.
    { path: 'login', element: <Login /> },
    { path: 'forgot-password', element: <ForgotPassword /> },
    { path: 'reset-password', element: <ResetPassword /> },
    { path: 'verify-email', element: <VerifyEmail /> },
    { path: 'accept-invite', element: <AcceptInvite /> },
    {
      element: <Layout />,
      children: [
        { index: true, element: <Account /> },
        { path: 'content', element: <Home /> },
        { path: 'collections/:slug', element: <EntryList /> },
        { path: 'collections/:slug/new', element: <EntryEditor /> },
        { path: 'collections/:slug/:id', element: <EntryEditor /> },
        { path: 'singles/:slug', element: <SingleEditor /> },
        { path: 'media', element: <MediaLibrary /> },
        { path: 'users', element: <Users /> },
        { path: 'users/new', element: <UserEditor /> },
        { path: 'users/:id', element: <UserEditor /> },
        { path: 'roles', element: <Roles /> },
        { path: 'roles/new', element: <RoleEditor /> },
        { path: 'roles/permissions', element: <Permissions /> },
        { path: 'roles/:id', element: <RoleEditor /> },
        { path: 'webhooks', element: <Webhooks /> },
        { path: 'webhooks/new', element: <WebhookScreen /> },
        { path: 'webhooks/:id', element: <WebhookScreen /> },
        { path: 'audit', element: <AuditLog /> },
        { path: 'api-keys', element: <ApiKeysScreen /> },
        // The schema builder and settings route inside their own screens.
        { path: 'schema/*', element: <Schema /> },
        { path: 'settings/*', element: <Settings /> },
        { path: '*', element: <NotFound /> },
      ],
    },
  ],
  { basename: '/admin' },
);

/** Sign-in lives on `/admin/login`, which comes back here after (`next`). */
function signIn(): void {
  const here = window.location.pathname + window.location.search;
  window.location.assign(`/admin/login?next=${encodeURIComponent(here)}`);
}

function Layout() {
  const session = useSession();
  const unauthenticated = session.error instanceof ApiError && session.error.status === 401;
  useEffect(() => {
    if (unauthenticated) {
      signIn();
    }
  }, [unauthenticated]);
  if (session.isPending || unauthenticated) {
    return <p className="loading">Loading…</p>;
  }
  if (session.error) {
    return (
      <main className="page">
        <h1>Something went wrong</h1>
        <p role="alert">{session.error.message}</p>
      </main>
    );
  }
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/content" className="brand">
          svc
        </Link>
        <span className="who">{session.data.me.name || session.data.me.email}</span>
        <NavLink to="/" end>
          Account
        </NavLink>
      </header>
      <ReauthPrompt />
      <div className="shell">
        <Navigation session={session.data} />
        <main id="main" className="page">
          <Suspense fallback={<p className="loading">Loading…</p>}>
            <Outlet context={session.data} />
          </Suspense>
        </main>
      </div>
    </>
  );
}

/** Links to what the user may read: collections by plural label, singles by label, Media. */
function Navigation({ session }: { session: Session }) {
  const definitions = useDefinitions();
  const collections = (definitions.data?.collections ?? []).filter(
    (c) => c.slug !== 'media' && may(session, 'read', c.slug, c.access.read),
  );
  const singles = (definitions.data?.singles ?? []).filter((s) =>
    may(session, 'read', s.slug, s.access.read),
  );
  return (
    <div className="nav">
      <nav aria-label="Content">
        <ul>
          <li>
            <NavLink to="/content" end>
              Dashboard
            </NavLink>
          </li>
          {collections.map((c) => (
            <li key={c.slug}>
              <NavLink to={`/collections/${c.slug}`}>{c.labels.plural}</NavLink>
            </li>
          ))}
          {singles.map((s) => (
            <li key={s.slug}>
              <NavLink to={`/singles/${s.slug}`}>{s.label}</NavLink>
            </li>
          ))}
          <li>
            <NavLink to="/media">Media</NavLink>
          </li>
        </ul>
      </nav>
      <Administration session={session} />
    </div>
  );
}

/**
 * Links to the administration screens, each shown to a user holding what its API needs to be
 * read (the API still decides every request).
 */
const ADMINISTRATION = [
  { to: '/schema', label: 'Content types', permission: 'manage-settings' },
  { to: '/settings', label: 'Settings', permission: 'manage-settings' },
  { to: '/users', label: 'Users', permission: 'read-users' },
  { to: '/roles', label: 'Roles', permission: 'read-roles' },
  { to: '/webhooks', label: 'Webhooks', permission: 'read-webhooks' },
  { to: '/audit', label: 'Audit log', permission: 'read-audit' },
];

function Administration({ session }: { session: Session }) {
  const links = ADMINISTRATION.filter(
    (l) => session.isSuperAdmin || session.permissions.includes(l.permission),
  );
  return (
    <nav aria-labelledby="administration-heading">
      <h2 id="administration-heading" className="nav-heading">
        Administration
      </h2>
      <ul>
        {links.map((l) => (
          <li key={l.to}>
            <NavLink to={l.to}>{l.label}</NavLink>
          </li>
        ))}
        <li>
          <NavLink to="/api-keys">API keys</NavLink>
        </li>
      </ul>
    </nav>
  );
}

function NotFound() {
  return (
    <>
      <Title>Not found</Title>
      <p>
        There is no such screen. <Link to="/content">Back to the dashboard</Link>
      </p>
    </>
  );
}
