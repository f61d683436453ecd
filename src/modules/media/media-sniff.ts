import { open } from 'node:fs/promises';
import { fromFile } from 'file-type';

/** How much of a file is read to decide whether it is text (and which text). */
const TEXT_SAMPLE_BYTES = 64 * 1024;
const OPAQUE = 'application/octet-stream';

/**
 * The type of an uploaded file, decided from its bytes only: never from its name or the
 * Content-Type the client sent (CONTRACTS 11). Binary formats by their signature (`file-type`);
 * otherwise, UTF-8 text without control characters is SVG (an `<svg>` root), HTML (the start the
 * WHATWG sniffing rules call HTML), other XML (`<?xml`), CSV (named `.csv`: a name may only choose
 * among text types) or plain text; anything else is `application/octet-stream`. So text named
 * `photo.png` is `text/plain`, never `image/png`.
 */
export async function sniffType(path: string, size: number, filename: string): Promise<string> {
  const found = await fromFile(path);
  // file-type names any document starting `<?xml` XML: which XML (SVG?) is the text rules' call.
  if (found && found.mime !== 'application/xml') {
    return found.mime;
  }
  const sample = await readHead(path, Math.min(size, TEXT_SAMPLE_BYTES));
  const text = decodeText(sample, size > sample.length);
  if (text === null) {
    return OPAQUE;
  }
  return textType(text, filename);
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The sample as text, or null when it is not UTF-8 text: invalid sequences, NUL or other control
 * characters than tab, line feed, form feed, carriage return and escape. A sample cut from a
 * longer file may end inside a character: up to 3 trailing bytes are dropped for that.
 */
export function decodeText(sample: Buffer, cut: boolean): string | null {
  let text: string | null = null;
  for (let drop = 0; drop <= (cut ? 3 : 0) && drop < sample.length; drop++) {
    try {
      text = UTF8.decode(sample.subarray(0, sample.length - drop));
      break;
    } catch {
      // Try again without one more trailing byte (a cut multi-byte character).
    }
  }
  if (text === null || (!text.length && sample.length)) {
    return null;
  }
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000b\u000e-\u001a\u001c-\u001f\u007f]/.test(text) ? null : text;
}

/** The start of a document the WHATWG MIME sniffing standard treats as HTML. */
const HTML_START =
  /^<(!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p)[\s>]|^<!--/i;

/** Which text type: SVG, HTML, XML, CSV or plain text. */
export function textType(text: string, filename: string): string {
  const head = text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 8192);
  if (isSvg(head)) {
    return 'image/svg+xml';
  }
  if (HTML_START.test(head)) {
    return 'text/html';
  }
  if (/^<\?xml[\s?]/i.test(head)) {
    return 'application/xml';
  }
  if (/\.csv$/i.test(filename)) {
    return 'text/csv';
  }
  return 'text/plain';
}

/** An `<svg>` root after an optional XML declaration, comments, processing instructions and doctype. */
function isSvg(head: string): boolean {
  let rest = head;
  for (;;) {
    rest = rest.trimStart();
    const prolog = /^(<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!doctype[^[>]*(\[[\s\S]*?\])?\s*>)/i.exec(rest);
    if (!prolog) {
      break;
    }
    rest = rest.slice(prolog[0].length);
  }
  return /^<svg[\s>/]/i.test(rest);
}
