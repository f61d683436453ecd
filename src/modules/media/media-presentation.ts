import type { MediaSize, StoredSize, StoredSizes } from './media.types';

/** Where the service serves media files (MediaController). */
export const MEDIA_ROUTE = '/admin/api/media';

/** The original file's URL, relative to the service's origin. */
export function mediaUrl(id: string, filename: string): string {
  return `${MEDIA_ROUTE}/${id}/${encodeURIComponent(filename)}`;
}

/**
 * A variant's URL. `v` (its bytes' hash) changes when the variant is made again, so a public
 * answer may be cached as immutable.
 */
export function sizeUrl(id: string, size: string, stored: StoredSize): string {
  return `${MEDIA_ROUTE}/${id}/${encodeURIComponent(size)}/${encodeURIComponent(stored.filename)}?v=${stored.etag}`;
}

/**
 * A media entry as the API answers it: the stored fields, `url` (when `filename` was selected)
 * and `sizes` as `{ [name]: { url, width, height, mimeType, filesize } }` (when selected), before
 * `createdAt`/`updatedAt`. Pure; a new object.
 */
export function presentMedia(entry: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const id = entry.id as string;
  for (const [k, v] of Object.entries(entry)) {
    if (k === 'sizes' || k === 'createdAt' || k === 'updatedAt') {
      continue;
    }
    out[k] = v;
  }
  if (typeof entry.filename === 'string') {
    out.url = mediaUrl(id, entry.filename);
  }
  if ('sizes' in entry) {
    out.sizes = presentSizes(id, entry.sizes);
  }
  for (const k of ['createdAt', 'updatedAt']) {
    if (k in entry) {
      out[k] = entry[k];
    }
  }
  return out;
}

function presentSizes(id: string, stored: unknown): Record<string, MediaSize> {
  const sizes: Record<string, MediaSize> = {};
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) {
    return sizes;
  }
  for (const [name, s] of Object.entries(stored as StoredSizes)) {
    if (s && typeof s === 'object' && typeof s.filename === 'string') {
      sizes[name] = {
        url: sizeUrl(id, name, s),
        width: s.width,
        height: s.height,
        mimeType: s.mimeType,
        filesize: s.filesize,
      };
    }
  }
  return sizes;
}
