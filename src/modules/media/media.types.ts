/** Types of the media module others may read (the image sizes, a media item's shape). */

export type ImageFit = 'cover' | 'contain' | 'inside';
export type ImageFormat = 'webp' | 'jpeg' | 'png' | 'avif';

export const IMAGE_FITS: readonly ImageFit[] = ['cover', 'contain', 'inside'];
export const IMAGE_FORMATS: readonly ImageFormat[] = ['webp', 'jpeg', 'png', 'avif'];

/** An image size (preset) as `/admin/api/image-sizes` answers it. */
export interface ImageSizeRecord {
  id: string;
  name: string;
  width: number | null;
  height: number | null;
  fit: ImageFit;
  format: ImageFormat | null;
  quality: number | null;
  createdAt: string;
  updatedAt: string;
}

/** One variant as a media item's `sizes` answers it. */
export interface MediaSize {
  url: string;
  width: number;
  height: number;
  mimeType: string;
  filesize: number;
}

/** A variant as the media row's `sizes` column stores it (keyed by image size name). */
export interface StoredSize {
  /** The storage key (`<id>/<size>/<filename>`), kept when the size is renamed. */
  key: string;
  filename: string;
  width: number;
  height: number;
  mimeType: string;
  filesize: number;
  /** The first 16 hex digits of the bytes' SHA-256. */
  etag: string;
  /** When it was made (ISO 8601): its Last-Modified. */
  generatedAt: string;
}

export type StoredSizes = Record<string, StoredSize>;

/** The state of the regeneration of image sizes (`GET /image-sizes/regeneration-status`). */
export interface RegenerationRecord {
  id: string | null;
  status: 'idle' | 'queued' | 'running' | 'done' | 'failed';
  total: number;
  processed: number;
  failed: number;
  error: string | null;
  createdAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
}
