import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api, content, unwrap } from '../api';
import { Field, Regions, text, useForm, useMessages, WithMessages } from '../auth/messages';
import { Title } from '../screens/Title';
import { AreaField, SelectField, useDocumentTitle, useSettingsReport } from './shared';

type GeneralSettings = Awaited<ReturnType<typeof loadSettings>>;
interface MediaItem {
  id: string;
  filename: string;
  mimeType: string;
  alt?: string | null;
}

const loadSettings = () => unwrap(api.GET('/admin/api/general-settings'));

/** The zones the browser knows, offered as suggestions (the API decides what is valid). */
const ZONES: string[] = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
})();

/** `/settings`: the site's general settings. */
export function GeneralSettings() {
  useDocumentTitle('General settings');
  const settings = useQuery({ queryKey: ['general-settings'], queryFn: loadSettings });
  return (
    <WithMessages>
      <Title>General settings</Title>
      <Regions />
      {settings.isPending && <p className="loading">Loading…</p>}
      {settings.error && (
        <p role="alert" className="error">
          {settings.error.message}
        </p>
      )}
      {settings.data && <GeneralForm initial={settings.data} />}
    </WithMessages>
  );
}

function GeneralForm({ initial }: { initial: GeneralSettings }) {
  const form = useForm();
  const messages = useMessages();
  const report = useSettingsReport();
  const queryClient = useQueryClient();
  // The images of the media library, for the logo; a reader without media access gets none.
  const images = useQuery({
    queryKey: ['settings', 'logo-images'],
    queryFn: () =>
      content<{ items: MediaItem[] }>('GET', '/collections/media/entries', {
        query: { limit: 100, sort: '-createdAt' },
      }),
    select: (r) => r.items.filter((m) => m.mimeType.startsWith('image/')),
  });
  const logoChoices = [
    { value: '', label: 'No logo' },
    ...(images.data ?? []).map((m) => ({
      value: m.id,
      label: m.alt ? `${m.filename} (${m.alt})` : m.filename,
    })),
  ];
  if (initial.logoMediaId && !logoChoices.some((c) => c.value === initial.logoMediaId)) {
    logoChoices.push({ value: initial.logoMediaId, label: `The current logo (${initial.logoMediaId})` });
  }
  return (
    <form
      id="general-settings-form"
      className="editor"
      aria-labelledby="general-settings-title"
      aria-busy={form.busy || undefined}
      onSubmit={form.submit(async (_el, data) => {
        let custom: Record<string, unknown>;
        try {
          const parsed: unknown = JSON.parse(text(data, 'custom') || '{}');
          if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
            throw new Error('not an object');
          }
          custom = parsed as Record<string, unknown>;
        } catch {
          form.markInvalid('custom', 'Write a JSON object, such as {"key": "value"}.');
          messages.showError('The custom settings are not a JSON object.');
          return;
        }
        try {
          const r = await unwrap(
            api.PATCH('/admin/api/general-settings', {
              body: {
                siteName: text(data, 'siteName'),
                siteDescription: text(data, 'siteDescription') || null,
                siteUrl: text(data, 'siteUrl').trim() || null,
                logoMediaId: text(data, 'logoMediaId') || null,
                timezone: text(data, 'timezone'),
                dateFormat: text(data, 'dateFormat'),
                custom,
              },
            }),
          );
          queryClient.setQueryData(['general-settings'], r.item);
          messages.showNotice('The general settings are saved.');
        } catch (e) {
          report(e, form);
        }
      })}
    >
      <h2 id="general-settings-title" className="visually-hidden">
        The site
      </h2>
      <Field
        id="settings-site-name"
        name="siteName"
        label="Site name"
        maxLength={100}
        defaultValue={initial.siteName}
        errors
        form={form}
      />
      <AreaField
        id="settings-site-description"
        name="siteDescription"
        label="Site description (optional)"
        rows={3}
        defaultValue={initial.siteDescription ?? ''}
        hint="At most 500 characters."
        form={form}
      />
      <Field
        id="settings-site-url"
        name="siteUrl"
        label="Site URL (optional)"
        type="url"
        required={false}
        spellCheck={false}
        autoCapitalize="none"
        defaultValue={initial.siteUrl ?? ''}
        hint="The public site’s address, starting with http:// or https://."
        errors
        form={form}
      />
      <SelectField
        id="settings-logo"
        name="logoMediaId"
        label="Logo"
        defaultValue={initial.logoMediaId ?? ''}
        options={logoChoices}
        hint="An image of the media library."
        form={form}
      />
      <Field
        id="settings-timezone"
        name="timezone"
        label="Time zone"
        list="settings-timezones"
        spellCheck={false}
        autoCapitalize="none"
        defaultValue={initial.timezone}
        hint="A time zone name, such as UTC or Europe/Paris."
        errors
        form={form}
      />
      <datalist id="settings-timezones">
        {ZONES.map((z) => (
          <option key={z} value={z} />
        ))}
      </datalist>
      <Field
        id="settings-date-format"
        name="dateFormat"
        label="Date format"
        maxLength={32}
        spellCheck={false}
        defaultValue={initial.dateFormat}
        hint="A pattern for the sites and apps that read the settings, such as YYYY-MM-DD."
        errors
        form={form}
      />
      <AreaField
        id="settings-custom"
        name="custom"
        label="Custom settings (JSON)"
        className="code"
        rows={6}
        spellCheck={false}
        defaultValue={JSON.stringify(initial.custom, null, 2)}
        hint="A JSON object of this site’s own settings; it replaces the previous one as a whole."
        form={form}
      />
      <div className="actions">
        <button type="submit" className="button primary">
          Save
        </button>
      </div>
    </form>
  );
}
