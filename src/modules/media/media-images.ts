import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import type { ImageSizeRecord } from './media.types';

/**
 * Raster images sharp decodes: their width and height are read and image sizes are made of them.
 * SVG is not among them (no rendering of uploaded SVG on the server), nor PDF.
 */
const RASTER: ReadonlySet<string> = new Set([
  'image/png',
  'image/apng',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/tiff',
]);

export const RASTER_TYPES: readonly string[] = [...RASTER];

export function isRasterImage(mimeType: string): boolean {
  return RASTER.has(mimeType);
}

// Uploads are read once, from temporary files that are then removed: libvips need not keep them
// open for reuse (its operation cache in memory stays).
sharp.cache({ files: 0 });

export type VariantFormat = 'webp' | 'jpeg' | 'png' | 'avif' | 'gif';

const EXTENSION: Record<VariantFormat, string> = {
  webp: 'webp',
  jpeg: 'jpg',
  png: 'png',
  avif: 'avif',
  gif: 'gif',
};
const MIME: Record<VariantFormat, string> = {
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
  avif: 'image/avif',
  gif: 'image/gif',
};

/** A variant's format when its image size names none: the source's, where sharp writes it. */
function defaultFormat(sourceMime: string): VariantFormat {
  switch (sourceMime) {
    case 'image/jpeg':
      return 'jpeg';
    case 'image/webp':
      return 'webp';
    case 'image/avif':
      return 'avif';
    case 'image/gif':
      return 'gif';
    default:
      return 'png';
  }
}

/**
 * Sharp's input options for uploads: the first frame only, a refusal on any decoding warning (a
 * truncated or corrupt file fails instead of giving a half-grey variant), and sharp's default
 * pixel cap (about 268 megapixels) against decompression bombs.
 */
const INPUT: sharp.SharpOptions = { failOn: 'warning', animated: false };

/** Width and height as the image is shown (EXIF orientation applied). Throws when sharp cannot read it. */
export async function imageDimensions(path: string): Promise<{ width: number; height: number }> {
  const m = await sharp(path, INPUT).metadata();
  const width = m.autoOrient?.width ?? m.width;
  const height = m.autoOrient?.height ?? m.height;
  if (!width || !height) {
    throw new Error('the image has no dimensions');
  }
  return { width, height };
}

/** One made variant, in a temporary file until it is stored. */
export interface MadeVariant {
  preset: string;
  path: string;
  filename: string;
  width: number;
  height: number;
  mimeType: string;
  filesize: number;
  /** The first 16 hex digits of the bytes' SHA-256: the variant's ETag and URL version. */
  etag: string;
}

/**
 * One image size of the image at `source`: oriented, resized (never enlarged) within the size's
 * box by its `fit` (`cover` crops to fill it, `contain` letterboxes, `inside` keeps the whole
 * image within it), written in its format (else the source's) at its quality (JPEG, WebP, AVIF).
 */
export async function makeVariant(
  source: string,
  sourceMime: string,
  size: ImageSizeRecord,
  filename: string,
  outDir: string,
): Promise<MadeVariant> {
  const format: VariantFormat = size.format ?? defaultFormat(sourceMime);
  const stem = filename.replace(/\.[^.]*$/, '') || 'image';
  const name = `${stem}.${EXTENSION[format]}`;
  const path = join(outDir, `variant-${size.name}.${EXTENSION[format]}`);
  let pipeline = sharp(source, INPUT)
    .autoOrient()
    .resize({
      width: size.width ?? undefined,
      height: size.height ?? undefined,
      fit: size.fit,
      withoutEnlargement: true,
      background: { r: 255, g: 255, b: 255, alpha: format === 'jpeg' ? 1 : 0 },
    });
  if (format === 'jpeg') {
    pipeline = pipeline.flatten({ background: '#ffffff' });
  }
  const quality = size.quality ?? undefined;
  pipeline =
    format === 'png' || format === 'gif'
      ? pipeline.toFormat(format)
      : pipeline.toFormat(format, quality === undefined ? {} : { quality });
  const info = await pipeline.toFile(path);
  return {
    preset: size.name,
    path,
    filename: name,
    width: info.width,
    height: info.height,
    mimeType: MIME[format],
    filesize: info.size,
    etag: await fileHash(path),
  };
}

async function fileHash(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
  }
  return hash.digest('hex').slice(0, 16);
}

/** At most `limit` tasks at once; the others wait their turn, in order. */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) {
        next();
      } else {
        this.active--;
      }
    }
  }
}
