import type { IncomingHttpHeaders } from 'node:http';
import { contentDisposition } from './media-names';

/** What an answer serves: one stored file (an original or a variant). */
export interface ServedFile {
  key: string;
  filename: string;
  mimeType: string;
  size: number;
  etag: string;
  lastModified: Date;
}

/**
 * Types a browser may show from the service's origin: raster images, audio, video and plain text.
 * Anything else (SVG, HTML, XML, CSV, PDF, archives...) is answered as an attachment under a
 * sandboxing Content-Security-Policy, so no uploaded document runs script on this origin. PDF is
 * among them: it can carry script, forms and links, and Chrome's viewer refuses to run under
 * `sandbox`, so a PDF cannot be both shown inline and sandboxed.
 */
const INLINE = /^(image\/(png|apng|jpeg|gif|webp|avif)|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+|text\/plain)$/;

export function isInline(mimeType: string): boolean {
  return INLINE.test(mimeType);
}

/** The headers every answer of a file carries (200, 206, 304). */
export function fileHeaders(file: ServedFile, publicRead: boolean): Record<string, string> {
  const inline = isInline(file.mimeType);
  const headers: Record<string, string> = {
    'Content-Type': file.mimeType.startsWith('text/') ? `${file.mimeType}; charset=utf-8` : file.mimeType,
    'X-Content-Type-Options': 'nosniff',
    ETag: file.etag,
    'Last-Modified': file.lastModified.toUTCString(),
    'Accept-Ranges': 'bytes',
    'Cache-Control': publicRead ? 'public, max-age=31536000, immutable' : 'private, no-cache',
    'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', file.filename),
    'Cross-Origin-Resource-Policy': publicRead ? 'cross-origin' : 'same-site',
  };
  if (!inline) {
    headers['Content-Security-Policy'] = "default-src 'none'; sandbox";
  }
  return headers;
}

/**
 * Whether the client's copy is current (RFC 9110 13.1): `If-None-Match` (weak comparison, `*`),
 * else `If-Modified-Since` (to the second).
 */
export function notModified(headers: IncomingHttpHeaders, file: ServedFile): boolean {
  const inm = headers['if-none-match'];
  if (inm !== undefined) {
    const tags = inm.split(',').map((t) => t.trim());
    const mine = opaque(file.etag);
    return tags.some((t) => t === '*' || opaque(t) === mine);
  }
  const ims = headers['if-modified-since'];
  if (ims !== undefined) {
    const since = Date.parse(ims);
    return Number.isFinite(since) && Math.floor(file.lastModified.getTime() / 1000) * 1000 <= since;
  }
  return false;
}

function opaque(tag: string): string {
  return tag.replace(/^W\//, '');
}

export type RangeAnswer =
  { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * The answer to a `Range` header (RFC 9110 14): one `bytes` range (`a-b`, `a-`, `-n`) is served
 * as 206; a range that starts past the end is 416; several ranges, another unit, a malformed
 * header or an `If-Range` that does not name this version get the whole file (200).
 */
export function rangeOf(headers: IncomingHttpHeaders, file: ServedFile): RangeAnswer {
  const raw = headers.range;
  if (raw === undefined) {
    return { kind: 'full' };
  }
  const ifRange = headers['if-range'];
  if (ifRange !== undefined && ifRange !== file.etag && ifRange !== file.lastModified.toUTCString()) {
    return { kind: 'full' };
  }
  const m = /^bytes=(\d*)-(\d*)$/.exec(raw.trim());
  if (!m || (m[1] === '' && m[2] === '')) {
    return { kind: 'full' };
  }
  const size = file.size;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) {
      return { kind: 'unsatisfiable' };
    }
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) {
      return { kind: 'full' };
    }
  }
  if (start >= size || size === 0) {
    return { kind: 'unsatisfiable' };
  }
  return { kind: 'partial', start, end };
}
