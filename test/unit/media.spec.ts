import { resolve } from 'node:path';
import { ConfigError, loadEnv } from '../../src/config/env';
import { DEFAULT_UPLOAD_TYPES, isAllowedType, resolveMediaOptions } from '../../src/config/media-options';
import { contentDisposition, safeFilename } from '../../src/modules/media/media-names';
import { presentMedia } from '../../src/modules/media/media-presentation';
import { rangeOf, type ServedFile } from '../../src/modules/media/media-serving';
import { decodeText, textType } from '../../src/modules/media/media-sniff';

describe('media settings from the environment', () => {
  it('defaults: 10 MiB, the default types, <SVC_DATA_DIR>/media, private, local disk', () => {
    const env = loadEnv({ SVC_DATA_DIR: '/srv/svc' });
    expect(env.media).toEqual({
      dir: resolve('/srv/svc/media'),
      maxBytes: 10 * 1024 * 1024,
      types: [...DEFAULT_UPLOAD_TYPES],
      public: false,
      s3: null,
    });
  });

  it('reads SVC_UPLOAD_*, SVC_MEDIA_* and SVC_S3_*', () => {
    const env = loadEnv({
      SVC_UPLOAD_TYPES: ' image/*, Application/PDF ',
      SVC_UPLOAD_MAX_BYTES: '2048',
      SVC_MEDIA_DIR: '/data/media',
      SVC_MEDIA_PUBLIC: 'true',
      SVC_S3_BUCKET: 'my-bucket',
      SVC_S3_ENDPOINT: 'http://127.0.0.1:9000',
      SVC_S3_REGION: 'eu-west-3',
    });
    expect(env.media).toEqual({
      dir: '/data/media',
      maxBytes: 2048,
      types: ['image/*', 'application/pdf'],
      public: true,
      s3: { bucket: 'my-bucket', endpoint: 'http://127.0.0.1:9000', region: 'eu-west-3' },
    });
  });

  it('names every bad value', () => {
    let error: ConfigError | undefined;
    try {
      loadEnv({
        SVC_UPLOAD_TYPES: 'image/png,pngs',
        SVC_UPLOAD_MAX_BYTES: '0',
        SVC_S3_ENDPOINT: 'ftp://x',
        SVC_MEDIA_PUBLIC: 'maybe',
      });
    } catch (e) {
      error = e as ConfigError;
    }
    expect(error?.problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('SVC_UPLOAD_TYPES'),
        expect.stringContaining('SVC_UPLOAD_MAX_BYTES'),
        expect.stringContaining('SVC_S3_ENDPOINT must be an http(s) URL'),
        expect.stringContaining('need SVC_S3_BUCKET'),
        expect.stringContaining('SVC_MEDIA_PUBLIC'),
      ]),
    );
  });

  it('resolves module options (tmpDir under dir) and refuses bad ones', () => {
    expect(resolveMediaOptions({ dir: '/m' })).toMatchObject({
      dir: '/m',
      tmpDir: '/m/.tmp',
      variantConcurrency: 2,
    });
    expect(() => resolveMediaOptions({ maxBytes: -1 })).toThrow(/maxBytes/);
    expect(() => resolveMediaOptions({ types: ['nope'] })).toThrow(/media.types/);
    expect(isAllowedType('image/webp', ['image/*'])).toBe(true);
    expect(isAllowedType('image/webp', ['image/png'])).toBe(false);
  });
});

describe('media sniffing of text', () => {
  it('tells SVG, HTML, XML, CSV and plain text apart, by the bytes first', () => {
    expect(textType('<svg xmlns="http://www.w3.org/2000/svg"/>', 'a.png')).toBe('image/svg+xml');
    expect(
      textType('\uFEFF<?xml version="1.0"?><!-- c --><!DOCTYPE svg [<!ENTITY x "y">]>\n<svg>', 'a.txt'),
    ).toBe('image/svg+xml');
    expect(textType('  <!DOCTYPE html><p>hi', 'a.svg')).toBe('text/html');
    expect(textType('<script>alert(1)</script>', 'a.txt')).toBe('text/html');
    expect(textType('<?xml version="1.0"?><feed/>', 'a.svg')).toBe('application/xml');
    expect(textType('a,b\n1,2\n', 'data.CSV')).toBe('text/csv');
    expect(textType('a,b\n1,2\n', 'data.png')).toBe('text/plain');
  });

  it('treats control bytes and invalid UTF-8 as binary, a cut multi-byte character as text', () => {
    expect(decodeText(Buffer.from('plain\ttext\r\n'), false)).toBe('plain\ttext\r\n');
    expect(decodeText(Buffer.from([0x68, 0x00, 0x69]), false)).toBeNull();
    expect(decodeText(Buffer.from([0xff, 0xfe, 0x41]), false)).toBeNull();
    const euro = Buffer.from('price: €');
    expect(decodeText(euro.subarray(0, euro.length - 1), true)).toBe('price: ');
    expect(decodeText(euro.subarray(0, euro.length - 1), false)).toBeNull();
  });
});

describe('media names', () => {
  it('keeps letters, digits, dot, dash and underscore; drops paths; caps the bytes', () => {
    expect(safeFilename('../../etc/passwd')).toBe('passwd');
    expect(safeFilename('C:\\Users\\me\\Photo 1 (final).JPG')).toBe('Photo-1-final.JPG');
    expect(safeFilename('.htaccess')).toBe('htaccess');
    expect(safeFilename('日本語の写真.png')).toBe('日本語の写真.png');
    expect(safeFilename('😀😀')).toBe('file');
    expect(safeFilename(undefined)).toBe('file');
    const long = safeFilename(`${'é'.repeat(200)}.jpeg`);
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(150);
    expect(long.endsWith('.jpeg')).toBe(true);
  });

  it('writes Content-Disposition with an ASCII fallback and filename*', () => {
    expect(contentDisposition('attachment', 'naïve résumé.pdf')).toBe(
      `attachment; filename="na_ve r_sum_.pdf"; filename*=UTF-8''na%C3%AFve%20r%C3%A9sum%C3%A9.pdf`,
    );
  });
});

describe('media ranges', () => {
  const file: ServedFile = {
    key: 'k',
    filename: 'f',
    mimeType: 'image/png',
    size: 100,
    etag: '"e"',
    lastModified: new Date('2026-01-01T00:00:00Z'),
  };
  const range = (value: string, extra: Record<string, string> = {}) =>
    rangeOf({ range: value, ...extra }, file);

  it('serves one bytes range, 416 past the end, the whole file otherwise', () => {
    expect(rangeOf({}, file)).toEqual({ kind: 'full' });
    expect(range('bytes=0-9')).toEqual({ kind: 'partial', start: 0, end: 9 });
    expect(range('bytes=90-500')).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(range('bytes=-10')).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(range('bytes=-500')).toEqual({ kind: 'partial', start: 0, end: 99 });
    expect(range('bytes=100-')).toEqual({ kind: 'unsatisfiable' });
    expect(range('bytes=-0')).toEqual({ kind: 'unsatisfiable' });
    expect(range('bytes=0-1,4-5')).toEqual({ kind: 'full' });
    expect(range('items=0-1')).toEqual({ kind: 'full' });
    expect(range('bytes=9-2')).toEqual({ kind: 'full' });
    expect(range('bytes=0-9', { 'if-range': '"old"' })).toEqual({ kind: 'full' });
    expect(range('bytes=0-9', { 'if-range': '"e"' })).toEqual({ kind: 'partial', start: 0, end: 9 });
  });
});

describe('media presentation', () => {
  it('adds url and sizes (with versioned URLs) before the timestamps; the stored keys stay inside', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    const out = presentMedia({
      id,
      filename: 'a b.png',
      alt: null,
      sizes: {
        thumb: {
          key: `${id}/thumb/a b.webp`,
          filename: 'a b.webp',
          width: 10,
          height: 5,
          mimeType: 'image/webp',
          filesize: 99,
          etag: '0123456789abcdef',
          generatedAt: '2026-01-01T00:00:00.000Z',
        },
      },
      createdAt: 'c',
      updatedAt: 'u',
    });
    expect(Object.keys(out)).toEqual(['id', 'filename', 'alt', 'url', 'sizes', 'createdAt', 'updatedAt']);
    expect(out.url).toBe(`/admin/api/media/${id}/a%20b.png`);
    expect(out.sizes).toEqual({
      thumb: {
        url: `/admin/api/media/${id}/thumb/a%20b.webp?v=0123456789abcdef`,
        width: 10,
        height: 5,
        mimeType: 'image/webp',
        filesize: 99,
      },
    });
  });
});
