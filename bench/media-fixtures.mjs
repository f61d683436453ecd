// Files of the media scenarios (issue 19), made once per run in the run's work folder:
// - a 2400x1800 JPEG of about 2 MB (quality 92): gradients plus deterministic noise, so it is the
//   same bytes on every run with the same sharp/libvips and costs sharp real work to decode;
// - 1 MiB of plain UTF-8 text (sniffed as text/plain by the service), served by the service and by
//   the bare server's `GET /static-file`;
// and the multipart/form-data body of an upload, built once (fixed boundary) and sent as is by
// autocannon.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

export const JPEG_WIDTH = 2400;
export const JPEG_HEIGHT = 1800;
const JPEG_QUALITY = 92;
/** Noise amplitude: about 2.03 MB at 2400x1800, quality 92 (sharp 0.35). */
const JPEG_NOISE = 27;
export const TEXT_BYTES = 1024 * 1024;
export const JPEG_FILENAME = 'bench-2mb.jpg';
export const TEXT_FILENAME = 'bench-1mb.txt';
export const MULTIPART_BOUNDARY = '----svc-bench-boundary-7f3a9c2e51d84b06';

/** The raw RGB pixels: three gradients (one a wave) plus xorshift noise of a fixed seed. */
function pixels() {
  const raw = Buffer.alloc(JPEG_WIDTH * JPEG_HEIGHT * 3);
  let s = 0x2545f491;
  const clamp = (v) => (v < 0 ? 0 : v > 255 ? 255 : v);
  for (let y = 0; y < JPEG_HEIGHT; y++) {
    for (let x = 0; x < JPEG_WIDTH; x++) {
      const i = (y * JPEG_WIDTH + x) * 3;
      s ^= s << 13;
      s ^= s >>> 17;
      s ^= s << 5;
      const n = ((s >>> 0) % (2 * JPEG_NOISE + 1)) - JPEG_NOISE;
      raw[i] = clamp((x * 255) / JPEG_WIDTH + n);
      raw[i + 1] = clamp((y * 255) / JPEG_HEIGHT + n);
      raw[i + 2] = clamp(128 + 100 * Math.sin(x / 150) * Math.cos(y / 120) + n);
    }
  }
  return raw;
}

/** `<dir>/${JPEG_FILENAME}`, made once per dir; answers { path, filename, bytes (Buffer) }. */
const jpegs = new Map();
export function jpegFixture(dir) {
  if (!jpegs.has(dir)) {
    jpegs.set(
      dir,
      (async () => {
        const bytes = await sharp(pixels(), {
          raw: { width: JPEG_WIDTH, height: JPEG_HEIGHT, channels: 3 },
        })
          .jpeg({ quality: JPEG_QUALITY })
          .toBuffer();
        if (bytes.length < 1_800_000 || bytes.length > 2_400_000) {
          throw new Error(`bench JPEG is ${bytes.length} bytes, expected about 2 MB: adjust JPEG_NOISE`);
        }
        await mkdir(dir, { recursive: true });
        const file = path.join(dir, JPEG_FILENAME);
        await writeFile(file, bytes);
        return { path: file, filename: JPEG_FILENAME, bytes };
      })(),
    );
  }
  return jpegs.get(dir);
}

/** `<dir>/${TEXT_FILENAME}`: exactly 1 MiB of numbered ASCII lines. Made once per dir. */
const texts = new Map();
export function textFixture(dir) {
  if (!texts.has(dir)) {
    texts.set(
      dir,
      (async () => {
        const lines = [];
        let size = 0;
        for (let n = 1; size < TEXT_BYTES; n++) {
          const line = `line ${String(n).padStart(6, '0')}: the quick brown fox jumps over the lazy dog\n`;
          lines.push(line);
          size += line.length;
        }
        const bytes = Buffer.from(lines.join('')).subarray(0, TEXT_BYTES);
        await mkdir(dir, { recursive: true });
        const file = path.join(dir, TEXT_FILENAME);
        await writeFile(file, bytes);
        // Read back: what the bare server streams is what the service was given.
        return { path: file, filename: TEXT_FILENAME, bytes: await readFile(file) };
      })(),
    );
  }
  return texts.get(dir);
}

/** A multipart/form-data body with one part, `file`; answers { body (Buffer), contentType }. */
export function multipartBody(filename, partType, bytes, boundary = MULTIPART_BOUNDARY) {
  const head = Buffer.from(
    `--${boundary}\r\n` +
      `Content-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      `Content-Type: ${partType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, bytes, tail]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
