/**
 * Answer schemas of the settings routes (src/common/api-schema.ts): `GeneralSettings`, the record
 * `SettingsService.get()`/`update()` answer (settings.types.ts: every key, defaults filled in).
 */
import { ANY, namedSchema, NULLABLE_STRING, objectSchema, STRING } from '../../common/api-schema';

/** The general settings record (`present()` in settings.service.ts). */
export const GENERAL_SETTINGS = namedSchema(
  'GeneralSettings',
  objectSchema({
    siteName: STRING,
    siteDescription: NULLABLE_STRING,
    siteUrl: { type: ['string', 'null'], format: 'uri' },
    logoMediaId: { type: ['string', 'null'], format: 'uuid' },
    timezone: STRING,
    dateFormat: STRING,
    custom: {
      type: 'object',
      additionalProperties: ANY,
      description: 'A JSON object of the site’s own settings, as written (`{}` until set)',
    },
  }),
);
