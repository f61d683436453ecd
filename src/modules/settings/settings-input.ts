import { ServiceError, type ValidationIssue } from '../../common/errors';
import { GENERAL_SETTINGS_KEYS, type GeneralSettings } from './settings.types';

export const SITE_NAME_MAX_LENGTH = 100;
export const SITE_DESCRIPTION_MAX_LENGTH = 500;
export const SITE_URL_MAX_LENGTH = 2048;
export const TIMEZONE_MAX_LENGTH = 64;
export const DATE_FORMAT_MAX_LENGTH = 32;
/** `custom` as JSON text, in bytes: far below the 1 MiB body limit, enough for a site's extras. */
export const CUSTOM_MAX_BYTES = 64 * 1024;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Control and format characters (line breaks, bidi overrides) never belong to a one-line value. */
const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

export type SettingsPatch = Partial<GeneralSettings>;

/**
 * Reads a PATCH body (its keys already limited to GENERAL_SETTINGS_KEYS by the DTO, strings
 * already free of NUL and lone surrogates by the body middleware) into the values to store,
 * every problem reported at once. Strings are trimmed. Rules:
 * - siteName: a non-empty string of at most 100 characters (never null: it always has a value);
 * - siteDescription: a string of at most 500 characters, or null ('' is null);
 * - siteUrl: an absolute http(s) URL without credentials, at most 2048 characters, or null ('' is null);
 * - logoMediaId: a uuid or null (that it names a media entry is checked by the service);
 * - timezone: an IANA zone name the runtime knows (stored in its canonical spelling: `utc` -> `UTC`);
 * - dateFormat: a non-empty one-line string of at most 32 characters;
 * - custom: a JSON object (not an array, not null) of at most 64 KiB as JSON.
 */
export function readSettingsPatch(body: Record<string, unknown>): SettingsPatch {
  const { issues, patch } = checkSettingsPatch(body);
  if (issues.length) {
    throw ServiceError.validation(issues, 'The general settings are not valid');
  }
  return patch;
}

/** The rules of `readSettingsPatch`: the values to store and every problem, thrown by neither. */
export function checkSettingsPatch(body: Record<string, unknown>): {
  issues: ValidationIssue[];
  patch: SettingsPatch;
} {
  const issues: ValidationIssue[] = [];
  const out: Record<string, unknown> = {};
  const fail = (path: string, code: string, message: string) => issues.push({ path, code, message });

  for (const key of GENERAL_SETTINGS_KEYS) {
    const raw = body[key];
    if (raw === undefined) {
      continue;
    }
    const value = typeof raw === 'string' ? raw.trim() : raw;
    switch (key) {
      case 'siteName':
        if (typeof value !== 'string' || value === '') {
          fail(key, 'isNotEmpty', 'siteName must be a non-empty string');
        } else if (value.length > SITE_NAME_MAX_LENGTH || CONTROL.test(value)) {
          fail(key, 'invalid', `siteName must be one line of at most ${SITE_NAME_MAX_LENGTH} characters`);
        } else {
          out[key] = value;
        }
        break;
      case 'siteDescription':
        if (value === null || value === '') {
          out[key] = null;
        } else if (typeof value !== 'string') {
          fail(key, 'isString', 'siteDescription must be a string or null');
        } else if (value.length > SITE_DESCRIPTION_MAX_LENGTH) {
          fail(key, 'maxLength', `siteDescription must be at most ${SITE_DESCRIPTION_MAX_LENGTH} characters`);
        } else {
          out[key] = value;
        }
        break;
      case 'siteUrl':
        if (value === null || value === '') {
          out[key] = null;
        } else if (typeof value !== 'string') {
          fail(key, 'isUrl', 'siteUrl must be an http(s) URL or null');
        } else if (value.length > SITE_URL_MAX_LENGTH) {
          fail(key, 'maxLength', `siteUrl must be at most ${SITE_URL_MAX_LENGTH} characters`);
        } else if (!isHttpUrl(value)) {
          fail(key, 'isUrl', 'siteUrl must be an absolute http:// or https:// URL without credentials');
        } else {
          out[key] = value;
        }
        break;
      case 'logoMediaId':
        if (value === null) {
          out[key] = null;
        } else if (typeof value !== 'string' || !UUID.test(value)) {
          fail(key, 'isUuid', 'logoMediaId must be the id of a media entry or null');
        } else {
          out[key] = value.toLowerCase();
        }
        break;
      case 'timezone': {
        const zone = typeof value === 'string' ? canonicalTimeZone(value) : null;
        if (!zone) {
          fail(key, 'isTimeZone', 'timezone must be an IANA time zone name such as UTC or Europe/Paris');
        } else {
          out[key] = zone;
        }
        break;
      }
      case 'dateFormat':
        if (typeof value !== 'string' || value === '') {
          fail(key, 'isNotEmpty', 'dateFormat must be a non-empty string');
        } else if (value.length > DATE_FORMAT_MAX_LENGTH || CONTROL.test(value)) {
          fail(key, 'invalid', `dateFormat must be one line of at most ${DATE_FORMAT_MAX_LENGTH} characters`);
        } else {
          out[key] = value;
        }
        break;
      case 'custom':
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          fail(key, 'isObject', 'custom must be a JSON object');
        } else if (Buffer.byteLength(JSON.stringify(value)) > CUSTOM_MAX_BYTES) {
          fail(key, 'maxSize', `custom must be at most ${CUSTOM_MAX_BYTES} bytes as JSON`);
        } else {
          out[key] = value;
        }
        break;
    }
  }
  return { issues, patch: out as SettingsPatch };
}

function isHttpUrl(value: string): boolean {
  if (CONTROL.test(value) || /\s/.test(value)) {
    return false;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    !!url.hostname &&
    !url.username &&
    !url.password
  );
}

/** The canonical name of an IANA zone the runtime knows, or null (offsets like `+01:00` are not zones). */
export function canonicalTimeZone(name: string): string | null {
  if (name === '' || name.length > TIMEZONE_MAX_LENGTH || !/^[A-Za-z]/.test(name)) {
    return null;
  }
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}
