/**
 * File names of uploads and of downloads. A stored name is part of a URL path segment and of a
 * storage key, so it keeps letters (any script), digits, `.`, `_` and `-` only.
 */

/** Bytes (UTF-8) of a stored name: file systems allow 255 per path segment, with room for a suffix. */
const MAX_NAME_BYTES = 150;

/**
 * The name an upload is stored under: the last path segment of what the client sent, NFC, runs of
 * other characters as one `-`, no leading dot or dash, at most 150 bytes of UTF-8 (the extension
 * kept); `file` when nothing is left.
 */
export function safeFilename(raw: string | undefined): string {
  const base = (raw ?? '').split(/[/\\]/).pop() ?? '';
  const name = base
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/-+\./g, '.')
    .replace(/^[.-]+/, '')
    .replace(/[-.]+$/, '');
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) {
    return name || 'file';
  }
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
  const stem = [...name.slice(0, name.length - ext.length)];
  while (stem.length && Buffer.byteLength(stem.join('') + ext) > MAX_NAME_BYTES) {
    stem.pop();
  }
  return (stem.join('').replace(/[-.]+$/, '') || 'file') + ext;
}

/**
 * `Content-Disposition` (RFC 6266): `inline` or `attachment` with an ASCII `filename` (other
 * characters as `_`) and the exact name as `filename*` (RFC 8187, UTF-8, percent-encoded).
 */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
