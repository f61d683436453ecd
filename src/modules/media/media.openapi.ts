/**
 * Answer schemas of the media routes (src/common/api-schema.ts): `ImageSize` (image-size.mapper.ts)
 * and `ImageRegeneration` (media-regeneration.service.ts), both media.types.ts records.
 */
import {
  DATE_TIME,
  namedSchema,
  NULLABLE_DATE_TIME,
  NULLABLE_STRING,
  objectSchema,
  STRING,
  UUID,
} from '../../common/api-schema';
import { IMAGE_FITS, IMAGE_FORMATS } from './media.types';

const NULLABLE_POSITIVE = { type: ['integer', 'null'], minimum: 1 };
const COUNT = { type: 'integer', minimum: 0 };

/** An image size (preset); width or height may be null (not both). */
export const IMAGE_SIZE = namedSchema(
  'ImageSize',
  objectSchema({
    id: UUID,
    name: STRING,
    width: NULLABLE_POSITIVE,
    height: NULLABLE_POSITIVE,
    fit: { type: 'string', enum: [...IMAGE_FITS] },
    format: { type: ['string', 'null'], enum: [...IMAGE_FORMATS, null] },
    quality: { type: ['integer', 'null'], minimum: 1, maximum: 100 },
    createdAt: DATE_TIME,
    updatedAt: DATE_TIME,
  }),
);

/** The latest regeneration run, or the idle record (`id` and dates null) when none ran. */
export const IMAGE_REGENERATION = namedSchema(
  'ImageRegeneration',
  objectSchema({
    id: { type: ['string', 'null'], format: 'uuid' },
    status: { type: 'string', enum: ['idle', 'queued', 'running', 'done', 'failed'] },
    total: COUNT,
    processed: COUNT,
    failed: COUNT,
    error: NULLABLE_STRING,
    createdAt: NULLABLE_DATE_TIME,
    startedAt: NULLABLE_DATE_TIME,
    finishedAt: NULLABLE_DATE_TIME,
  }),
);

/** A stored file: its own type, whatever it is (the type it was stored with). */
export const FILE_CONTENT = { '*/*': {} };

/** The cache headers of a served file (media-serving.ts `fileHeaders`). */
export const FILE_HEADERS = {
  ETag: { description: 'The version of the file, for `If-None-Match`', schema: { type: 'string' } },
  'Last-Modified': {
    description: 'When the file was stored, for `If-Modified-Since`',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description:
      '`public, max-age=31536000, immutable` when visitors may read media, else `private, no-cache`',
    schema: { type: 'string' },
  },
};
