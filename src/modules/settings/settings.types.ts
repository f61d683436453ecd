/** The general settings record (`GET/PATCH /admin/api/general-settings`). */
export interface GeneralSettings {
  siteName: string;
  siteDescription: string | null;
  /** An absolute http(s) URL, or null. */
  siteUrl: string | null;
  /** An entry of the built-in media collection, or null (also when that entry was deleted). */
  logoMediaId: string | null;
  /** An IANA time zone, in its canonical spelling (`Europe/Paris`, `UTC`). */
  timezone: string;
  /** A display pattern for clients (`YYYY-MM-DD`); the service does not interpret it. */
  dateFormat: string;
  /** Free-form JSON object for the deployment's own settings; replaced as a whole by a PATCH. */
  custom: Record<string, unknown>;
}

export const GENERAL_SETTINGS_KEYS = [
  'siteName',
  'siteDescription',
  'siteUrl',
  'logoMediaId',
  'timezone',
  'dateFormat',
  'custom',
] as const satisfies ReadonlyArray<keyof GeneralSettings>;

/** What a key that was never set answers. */
export const DEFAULT_GENERAL_SETTINGS: Readonly<GeneralSettings> = Object.freeze({
  siteName: 'svc',
  siteDescription: null,
  siteUrl: null,
  logoMediaId: null,
  timezone: 'UTC',
  dateFormat: 'YYYY-MM-DD',
  custom: Object.freeze({}) as Record<string, unknown>,
});
