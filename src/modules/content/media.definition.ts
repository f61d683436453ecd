import type { FieldConfig } from '../../config/config.types';

/**
 * The built-in media collection (CONTRACTS 11, 12): a real collection (`c_media`, permissions
 * `<action>-media` seeded with the core ones) so `upload` fields have a table to reference from
 * the start. Its definition lives here, is synchronised at boot like a code-defined collection,
 * and cannot be changed over REST. Uploading files (multipart) is the media module's work.
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
];
