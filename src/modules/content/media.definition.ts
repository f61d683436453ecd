import type { FieldConfig } from '../../config/config.types';
import type { Definition } from './content.types';

/**
 * The built-in media collection (CONTRACTS 11, 12): a real collection (`c_media`, permissions
 * `<action>-media` seeded with the core ones) so `upload` fields have a table to reference from
 * the start. Its definition lives here, is synchronised at boot like a code-defined collection,
 * and cannot be changed over REST. Uploading files (multipart) is the media module's work
 * (through MediaHooks); over JSON only `alt` and `caption` may be written. `sizes` holds the
 * stored image variants as the media module wrote them (it answers them as `sizes` with URLs).
 */
export const MEDIA_SLUG = 'media';

export const MEDIA_FIELDS: FieldConfig[] = [
  { name: 'filename', type: 'text', required: true, index: true },
  { name: 'mimeType', type: 'text', required: true, index: true },
  { name: 'filesize', type: 'number', required: true },
  { name: 'width', type: 'number' },
  { name: 'height', type: 'number' },
  { name: 'alt', type: 'text' },
  { name: 'caption', type: 'textarea' },
  { name: 'sizes', type: 'json' },
];

/** The media fields a JSON write (update, bulk update) may set; the rest describe the stored file. */
export const MEDIA_EDITABLE_FIELDS: readonly string[] = ['alt', 'caption'];

/** Whether `def` is the built-in media collection. */
export function isMediaDefinition(def: Pick<Definition, 'source' | 'slug'>): boolean {
  return def.source === 'system' && def.slug === MEDIA_SLUG;
}
