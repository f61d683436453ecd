import { Navigate, NavLink, Route, Routes, useOutletContext } from 'react-router';
import { holds, type Session } from '../api';
import { Title } from '../screens/Title';
import { EmailLayoutScreen, EmailTemplateEditor, EmailTemplates } from './EmailTemplates';
import { EmailProviderScreen, EmailProviders } from './EmailProviders';
import { GeneralSettings } from './General';
import { ImageSizeScreen, ImageSizes } from './ImageSizes';
import { UserFieldScreen, UserFields } from './UserFields';
import './settings.css';

/**
 * The sections of the settings, each shown to whoever holds what its API needs to be read (the
 * API still decides every request).
 */
const SECTIONS = [
  { to: '/settings', label: 'General', permission: 'manage-settings', end: true },
  { to: '/settings/user-fields', label: 'User fields', permission: 'read-settings' },
  { to: '/settings/image-sizes', label: 'Image sizes', permission: 'manage-settings' },
  { to: '/settings/email/providers', label: 'Email providers', permission: 'read-email-providers' },
  { to: '/settings/email/templates', label: 'Email templates', permission: 'read-email-templates' },
];

/** Settings (general, user fields, image sizes, email); its own routes under /admin/settings. */
export default function Settings() {
  const session = useOutletContext<Session>();
  const sections = SECTIONS.filter((s) => holds(session, s.permission));
  if (sections.length === 0) {
    return (
      <>
        <Title>Settings</Title>
        <p>You may not change the settings.</p>
      </>
    );
  }
  return (
    <div className="settings">
      <nav aria-label="Settings sections" className="sections">
        <ul>
          {sections.map((s) => (
            <li key={s.to}>
              <NavLink to={s.to} end={s.end}>
                {s.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Routes>
        <Route
          index
          element={
            holds(session, 'manage-settings') ? <GeneralSettings /> : <Navigate to={sections[0].to} replace />
          }
        />
        <Route path="user-fields" element={<UserFields session={session} />} />
        <Route path="user-fields/:id" element={<UserFieldScreen session={session} />} />
        <Route path="image-sizes" element={<ImageSizes />} />
        <Route path="image-sizes/:id" element={<ImageSizeScreen />} />
        <Route path="email" element={<Navigate to="/settings/email/providers" replace />} />
        <Route path="email/providers" element={<EmailProviders session={session} />} />
        <Route path="email/providers/:id" element={<EmailProviderScreen session={session} />} />
        <Route path="email/templates" element={<EmailTemplates session={session} />} />
        <Route path="email/templates/:id" element={<EmailTemplateEditor session={session} />} />
        <Route path="email/layout" element={<EmailLayoutScreen session={session} />} />
        <Route
          path="*"
          element={
            <>
              <Title>Not found</Title>
              <p>There is no such settings screen.</p>
            </>
          }
        />
      </Routes>
    </div>
  );
}
