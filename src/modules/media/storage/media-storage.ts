import type { Writable } from 'node:stream';

/** A stored file opened for one answer: `send` writes its bytes and ends `out`; `close` drops it. */
export interface StoredBody {
  send(out: Writable): Promise<void>;
  close(): void;
}

/**
 * Where media files live. Keys are `<id>/<filename>` (the original) and `<id>/<size>/<filename>`
 * (an image size), so everything of one media item is under `<id>/`.
 */
export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /**
   * Stores the file at `path` (a temporary file: the call may move it) under `key`. Resolves once
   * the bytes are stored in full; a failure stores nothing under `key`.
   */
  put(key: string, path: string, contentType: string): Promise<void>;
  /** The bytes of `key` (`range` inclusive) to send, or null when there is no such object. */
  open(key: string, range?: { start: number; end: number }): Promise<StoredBody | null>;
  /** Copies `key` to the local file `path`; false when there is no such object. */
  download(key: string, path: string): Promise<boolean>;
  /** Removes these keys; missing ones are fine. */
  remove(keys: readonly string[]): Promise<void>;
  /** Removes everything of one media item (`<id>/...`). */
  removeItem(id: string): Promise<void>;
  /** Releases connections (shutdown). */
  close(): void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Keys are made by the media module only; this refuses anything else (a path escape). */
export function checkKey(key: string): string {
  const parts = key.split('/');
  if (
    parts.length < 2 ||
    parts.length > 3 ||
    !UUID.test(parts[0]) ||
    parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\\') || p.includes('\0'))
  ) {
    throw new Error(`not a media storage key: ${JSON.stringify(key)}`);
  }
  return key;
}

export function checkItemId(id: string): string {
  if (!UUID.test(id)) {
    throw new Error(`not a media id: ${JSON.stringify(id)}`);
  }
  return id;
}
