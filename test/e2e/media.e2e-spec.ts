import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import request from 'supertest';
import { DEFAULT_UPLOAD_TYPES } from '../../src/config/media-options';
import { bearerFor, createUser, signIn, userWithPermissions } from '../utils/auth';
import { sendRaw } from '../utils/raw-http';
import { createTestApp, TestApp } from '../utils/test-app';

const api = (path: string) => `/admin/api${path}`;
const ENTRIES = api('/collections/media/entries');
const MAX_BYTES = 256 * 1024;

/** Reads a response body as bytes, whatever its type (supertest parses only some). */
function bytes(res: request.Response, cb: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for: ${what}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

const png = (width: number, height: number, color = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

describe('media (local storage)', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let port: number;
  const dir = mkdtempSync(join(tmpdir(), 'svc-media-'));
  const tmp = join(dir, '.tmp');

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'posts',
            fields: [
              { name: 'title', type: 'text' },
              { name: 'cover', type: 'upload', relationTo: 'media' },
            ],
          },
        ],
      },
      // HTML is allowed here so its serving rules can be shown; it is not among the defaults.
      overrides: { media: { dir, maxBytes: MAX_BYTES, types: [...DEFAULT_UPLOAD_TYPES, 'text/html'] } },
    });
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    const server = t.app.getHttpServer() as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
    for (const size of [
      { name: 'thumb', width: 100, height: 100, fit: 'cover', format: 'webp' },
      { name: 'wide', width: 320 },
    ]) {
      await t.http.post(api('/image-sizes')).set(admin).send(size).expect(201);
    }
  });

  afterAll(async () => {
    // No request of this file ended in a server error (level 50: error, 60: fatal).
    const errors = t.logs.records().filter((r) => Number(r.level) >= 50);
    await t.close();
    rmSync(dir, { recursive: true, force: true });
    expect(errors).toEqual([]);
  });

  const upload = (file: Buffer, name: string, fields: Record<string, string> = {}) => {
    let req = t.http.post(ENTRIES).set(admin);
    for (const [k, v] of Object.entries(fields)) {
      req = req.field(k, v);
    }
    return req.attach('file', file, name);
  };
  const get = (url: string, headers: Record<string, string> = admin) =>
    t.http.get(url).set(headers).buffer(true).parse(bytes);
  const rowCount = async () => Number((await t.db.query(`SELECT count(*) AS n FROM c_media`))[0].n);
  /** Media item folders on disk (everything but the temporary folder). */
  const itemDirs = () => readdirSync(dir).filter((n) => n !== '.tmp');
  const tmpEntries = () => (existsSync(tmp) ? readdirSync(tmp) : []);

  describe('uploads', () => {
    it('stores a PNG with its sizes: 201 { message, item } with url and sizes, files on disk', async () => {
      const file = await png(640, 480);
      const res = await upload(file, 'Hero Image.png', {
        alt: 'A blue field',
        caption: 'Taken at noon',
      }).expect(201);
      expect(res.body.message).toEqual(expect.any(String));
      const item = res.body.item;
      expect(Object.keys(item)).toEqual([
        'id',
        'filename',
        'mimeType',
        'filesize',
        'width',
        'height',
        'alt',
        'caption',
        'url',
        'sizes',
        'createdAt',
        'updatedAt',
      ]);
      expect(item).toMatchObject({
        filename: 'Hero-Image.png',
        mimeType: 'image/png',
        filesize: file.length,
        width: 640,
        height: 480,
        alt: 'A blue field',
        caption: 'Taken at noon',
        url: `/admin/api/media/${item.id}/Hero-Image.png`,
      });
      expect(item.sizes).toEqual({
        thumb: {
          url: expect.stringMatching(
            new RegExp(`^/admin/api/media/${item.id}/thumb/Hero-Image\\.webp\\?v=[0-9a-f]{16}$`),
          ),
          width: 100,
          height: 100,
          mimeType: 'image/webp',
          filesize: expect.any(Number),
        },
        wide: {
          url: expect.stringMatching(new RegExp(`^/admin/api/media/${item.id}/wide/Hero-Image\\.png\\?v=`)),
          width: 320,
          height: 240,
          mimeType: 'image/png',
          filesize: expect.any(Number),
        },
      });
      // The original byte for byte, and real images of the right sizes.
      expect(readFileSync(join(dir, item.id, 'Hero-Image.png')).equals(file)).toBe(true);
      const original = await get(item.url).expect(200);
      expect((original.body as Buffer).equals(file)).toBe(true);
      const thumb = await get(item.sizes.thumb.url).expect(200).expect('Content-Type', 'image/webp');
      const t1 = await sharp(thumb.body as Buffer).metadata();
      expect([t1.format, t1.width, t1.height]).toEqual(['webp', 100, 100]);
      expect(Number(thumb.headers['content-length'])).toBe(item.sizes.thumb.filesize);
      const wide = await get(item.sizes.wide.url).expect(200);
      const w1 = await sharp(wide.body as Buffer).metadata();
      expect([w1.format, w1.width, w1.height]).toEqual(['png', 320, 240]);
      expect(tmpEntries()).toEqual([]);

      // Read back like any entry: get and list carry url and sizes too.
      const read = await t.http.get(`${ENTRIES}/${item.id}`).set(admin).expect(200);
      expect(read.body).toEqual(item);
      const list = await t.http.get(`${ENTRIES}?where[id][equals]=${item.id}`).set(admin).expect(200);
      expect(list.body.items).toEqual([item]);
    });

    it('reads JPEG (EXIF orientation applied) and WebP from their bytes', async () => {
      const jpeg = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#c00' } })
        .jpeg()
        .withMetadata({ orientation: 6 })
        .toBuffer();
      const j = await upload(jpeg, 'portrait.jpg').expect(201);
      expect(j.body.item).toMatchObject({ mimeType: 'image/jpeg', width: 200, height: 300 });
      const thumb = await get(j.body.item.sizes.thumb.url).expect(200);
      expect((await sharp(thumb.body as Buffer).metadata()).format).toBe('webp');

      const webp = await sharp({ create: { width: 120, height: 80, channels: 4, background: '#0c08' } })
        .webp()
        .toBuffer();
      // The name says PNG, the bytes say WebP: the bytes decide.
      const w = await upload(webp, 'mislabelled.png').expect(201);
      expect(w.body.item).toMatchObject({ mimeType: 'image/webp', width: 120, height: 80 });
      // Never enlarged: the 320-wide size of a 120-wide image stays 120 wide.
      expect(w.body.item.sizes.wide).toMatchObject({ width: 120, height: 80, mimeType: 'image/webp' });
    });

    it('stores text named .png as text/plain (never image/png), served as text', async () => {
      const text = Buffer.from('just some notes\nnot an image at all\n');
      const res = await upload(text, 'notes.png').expect(201);
      expect(res.body.item).toMatchObject({
        filename: 'notes.png',
        mimeType: 'text/plain',
        width: null,
        height: null,
        sizes: {},
      });
      const served = await get(res.body.item.url).expect(200);
      expect(served.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect((served.body as Buffer).equals(text)).toBe(true);
    });

    it('refuses a type outside SVC_UPLOAD_TYPES with 415 and stores nothing', async () => {
      const before = await rowCount();
      const zip = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(200, 1)]);
      const res = await upload(zip, 'archive.txt').expect(415);
      expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      const opaque = await upload(Buffer.from([0, 1, 2, 3, 255, 254, 0, 7]), 'x.png').expect(415);
      expect(opaque.body.error.data.mimeType).toBe('application/octet-stream');
      expect(await rowCount()).toBe(before);
      expect(tmpEntries()).toEqual([]);
    });

    it('refuses a file over SVC_UPLOAD_MAX_BYTES with 413, decided while streaming: nothing stored', async () => {
      const before = await rowCount();
      const dirs = itemDirs();
      const big = Buffer.alloc(MAX_BYTES + 1, 'a');
      const res = await upload(big, 'big.txt').expect(413);
      expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
      // Exactly at the cap is fine.
      const atCap = await upload(Buffer.alloc(MAX_BYTES, 'b'), 'cap.txt').expect(201);
      expect(atCap.body.item.filesize).toBe(MAX_BYTES);
      await t.http.delete(`${ENTRIES}/${atCap.body.item.id}`).set(admin).expect(200);

      // Chunked (no Content-Length): only the stream can tell, and it stops at the cap.
      const boundary = 'svc-test-boundary';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.txt"\r\n` +
            'Content-Type: text/plain\r\n\r\n',
        ),
        Buffer.alloc(MAX_BYTES * 2, 'c'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const raw = await sendRaw(port, {
        method: 'POST',
        target: ENTRIES,
        headers: [
          ['Authorization', admin.Authorization],
          ['Content-Type', `multipart/form-data; boundary=${boundary}`],
        ],
        body,
        chunked: true,
      });
      expect(raw.status).toBe(413);
      expect(JSON.parse(raw.body.toString()).error.code).toBe('PAYLOAD_TOO_LARGE');
      // A declared length far past the cap is refused before the body is read.
      const declared = await sendRaw(port, {
        method: 'POST',
        target: ENTRIES,
        headers: [
          ['Authorization', admin.Authorization],
          ['Content-Type', `multipart/form-data; boundary=${boundary}`],
          ['Content-Length', String(MAX_BYTES + 2 * 1024 * 1024)],
        ],
      });
      expect(declared.status).toBe(413);

      expect(await rowCount()).toBe(before);
      expect(itemDirs().sort()).toEqual(dirs.sort());
      await until(() => tmpEntries().length === 0, 'the temporary files to go');
    });

    it('answers 400 naming "file" for a form without it, and checks alt/caption as the media fields', async () => {
      const before = await rowCount();
      const none = await t.http.post(ENTRIES).set(admin).field('alt', 'no file').expect(400);
      expect(none.body.error.code).toBe('VALIDATION_ERROR');
      expect(none.body.error.data.errors[0].path).toBe('file');
      const asText = await t.http.post(ENTRIES).set(admin).field('file', 'not a file').expect(400);
      expect(asText.body.error.data.errors[0].path).toBe('file');

      const file = await png(10, 10);
      const long = await upload(file, 'a.png', { alt: 'x'.repeat(10_001) }).expect(400);
      expect(long.body.error.data.errors).toEqual([
        expect.objectContaining({ path: 'alt', code: 'maxLength' }),
      ]);
      const unknown = await upload(file, 'a.png', { filename: 'other.png' }).expect(400);
      expect(unknown.body.error.data.errors).toEqual([
        expect.objectContaining({ path: 'filename', code: 'unknown_field' }),
      ]);
      const two = await t.http
        .post(ENTRIES)
        .set(admin)
        .attach('file', file, 'a.png')
        .attach('file', file, 'b.png')
        .expect(400);
      expect(two.body.error.data.errors[0].path).toBe('file');
      const other = await t.http.post(ENTRIES).set(admin).attach('image', file, 'a.png').expect(400);
      expect(other.body.error.data.errors[0].path).toBe('image');
      const empty = await upload(Buffer.alloc(0), 'empty.txt').expect(400);
      expect(empty.body.error.data.errors[0]).toMatchObject({ path: 'file', code: 'empty' });

      // JSON is still refused: a media entry is made by an upload.
      await t.http.post(ENTRIES).set(admin).send({ filename: 'a.png' }).expect(415);
      expect(await rowCount()).toBe(before);
      expect(tmpEntries()).toEqual([]);
    });

    it('fails cleanly when an image size cannot be made: 400, no row, no file', async () => {
      const before = await rowCount();
      const dirs = itemDirs();
      const good = await png(200, 200, '#123456');
      // The PNG signature and header, then the data cut off: sharp reads the header, not the pixels.
      const truncated = good.subarray(0, Math.floor(good.length * 0.6));
      const res = await upload(truncated, 'broken.png').expect(400);
      expect(res.body.error.data.errors[0]).toMatchObject({ path: 'file', code: 'image' });
      expect(await rowCount()).toBe(before);
      expect(itemDirs().sort()).toEqual(dirs.sort());
      expect(tmpEntries()).toEqual([]);
    });

    it('leaves no row, no file and no temporary file when the client goes away mid-upload', async () => {
      const before = await rowCount();
      const dirs = itemDirs();
      const boundary = 'svc-kill-boundary';
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.txt"\r\n` +
          'Content-Type: text/plain\r\n\r\n',
      );
      const socket = connect({ port, host: '127.0.0.1' });
      await new Promise<void>((resolve) => socket.once('connect', resolve));
      socket.on('error', () => undefined);
      socket.write(
        `POST ${ENTRIES} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${admin.Authorization}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${head.length + 200_000}\r\n\r\n`,
      );
      socket.write(head);
      socket.write(Buffer.alloc(100_000, 'h'));
      // The server is streaming it: its temporary file is there and growing.
      await until(
        () => tmpEntries().some((d) => existsSync(join(tmp, d, 'original'))),
        'the upload to reach its temporary file',
      );
      socket.destroy();
      await until(() => tmpEntries().length === 0, 'the temporary folder to be removed');
      expect(await rowCount()).toBe(before);
      expect(itemDirs().sort()).toEqual(dirs.sort());
      // The service goes on answering.
      await upload(Buffer.from('after'), 'after.txt').expect(201);
    });

    it('refuses a Content-Encoding on an upload, and multipart on any other route', async () => {
      const file = await png(10, 10);
      await t.http
        .post(ENTRIES)
        .set(admin)
        .set('Content-Encoding', 'gzip')
        .attach('file', file, 'a.png')
        .expect(415);
      // Only this exact route takes multipart: another spelling or route keeps the JSON rule.
      await t.http.post(`${ENTRIES}/`).set(admin).attach('file', file, 'a.png').expect(415);
      await t.http.post(api('/image-sizes')).set(admin).attach('file', file, 'a.png').expect(415);
      await t.http
        .post(api('/collections/posts/entries'))
        .set(admin)
        .attach('file', file, 'a.png')
        .expect(415);
    });
  });

  describe('serving', () => {
    let item: { id: string; url: string; filesize: number; sizes: Record<string, { url: string }> };
    let file: Buffer;

    beforeAll(async () => {
      file = await png(400, 300, '#884422');
      item = (await upload(file, 'served.png').expect(201)).body.item;
    });

    it('answers with the stored type, ETag, Last-Modified, nosniff, private caching and an inline disposition', async () => {
      const res = await get(item.url).expect(200);
      expect(res.headers).toMatchObject({
        'content-type': 'image/png',
        'content-length': String(file.length),
        'x-content-type-options': 'nosniff',
        'cache-control': 'private, no-cache',
        'accept-ranges': 'bytes',
        etag: `"${item.id}"`,
        'content-disposition': `inline; filename="served.png"; filename*=UTF-8''served.png`,
      });
      expect(new Date(res.headers['last-modified']).getTime()).toBeGreaterThan(0);
      expect(res.headers['content-security-policy']).toBeUndefined();
      const head = await t.http.head(item.url).set(admin).expect(200);
      expect(head.headers['content-length']).toBe(String(file.length));
      expect(head.headers.etag).toBe(`"${item.id}"`);
    });

    it('answers 304 to If-None-Match and If-Modified-Since', async () => {
      const first = await get(item.url).expect(200);
      const etag = first.headers.etag;
      const cached = await get(item.url, { ...admin, 'If-None-Match': etag }).expect(304);
      expect(cached.headers.etag).toBe(etag);
      expect((cached.body as Buffer).length).toBe(0);
      await get(item.url, { ...admin, 'If-None-Match': `"other", W/${etag}` }).expect(304);
      await get(item.url, { ...admin, 'If-None-Match': '"other"' }).expect(200);
      await get(item.url, { ...admin, 'If-Modified-Since': first.headers['last-modified'] }).expect(304);
      await get(item.url, { ...admin, 'If-Modified-Since': new Date(0).toUTCString() }).expect(200);
      const variant = await get(item.sizes.thumb.url).expect(200);
      await get(item.sizes.thumb.url, { ...admin, 'If-None-Match': variant.headers.etag }).expect(304);
    });

    it('serves one range (206), refuses one outside the file (416), and answers several with the whole file', async () => {
      const head = await get(item.url, { ...admin, Range: 'bytes=0-9' }).expect(206);
      expect(head.headers['content-range']).toBe(`bytes 0-9/${file.length}`);
      expect(head.headers['content-length']).toBe('10');
      expect((head.body as Buffer).equals(file.subarray(0, 10))).toBe(true);
      const mid = await get(item.url, { ...admin, Range: 'bytes=20-' }).expect(206);
      expect((mid.body as Buffer).equals(file.subarray(20))).toBe(true);
      const tail = await get(item.url, { ...admin, Range: 'bytes=-7' }).expect(206);
      expect((tail.body as Buffer).equals(file.subarray(file.length - 7))).toBe(true);
      const past = await get(item.url, { ...admin, Range: `bytes=${file.length}-` }).expect(416);
      expect(past.headers['content-range']).toBe(`bytes */${file.length}`);
      const many = await get(item.url, { ...admin, Range: 'bytes=0-1,5-6' }).expect(200);
      expect((many.body as Buffer).equals(file)).toBe(true);
      // If-Range naming another version: the whole (new) file.
      await get(item.url, { ...admin, Range: 'bytes=0-9', 'If-Range': '"old"' }).expect(200);
      await get(item.url, { ...admin, Range: 'bytes=0-9', 'If-Range': `"${item.id}"` }).expect(206);
    });

    it('sends files whole and exact, also many at once, and survives a client that leaves mid-file', async () => {
      // Two texts, each line naming its file and number (chunk boundaries: test/unit/media-file-sender).
      const text = (tag: string, bytes: number) => {
        let s = '';
        for (let n = 0; s.length < bytes; n++) {
          s += `${tag} line ${n}\n`;
        }
        return Buffer.from(s.slice(0, bytes));
      };
      const a = text('alpha', 200_003);
      const b = text('bravo', 150_001);
      const itemA = (await upload(a, 'a.txt').expect(201)).body.item;
      const itemB = (await upload(b, 'b.txt').expect(201)).body.item;
      // Buffers are reused between answers: each of 24 concurrent answers must still be its own file.
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, i) => get(i % 2 ? itemB.url : itemA.url).expect(200)),
      );
      answers.forEach((res, i) => expect((res.body as Buffer).equals(i % 2 ? b : a)).toBe(true));
      const across = await get(itemA.url, { ...admin, Range: 'bytes=65530-131080' }).expect(206);
      expect((across.body as Buffer).equals(a.subarray(65530, 131081))).toBe(true);

      // A client that reads the head of the answer and hangs up: the next answers are whole.
      const path = new URL(itemA.url, 'http://x').pathname;
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () =>
          socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${admin.Authorization}\r\n\r\n`),
        );
        socket.once('data', () => {
          socket.destroy();
          resolve();
        });
        socket.on('error', reject);
      });
      const again = await Promise.all([get(itemA.url).expect(200), get(itemB.url).expect(200)]);
      expect((again[0].body as Buffer).equals(a)).toBe(true);
      expect((again[1].body as Buffer).equals(b)).toBe(true);
    });

    it('answers 404 for an unknown id, size or a filename that is not the stored one', async () => {
      await get(api(`/media/00000000-0000-4000-8000-000000000000/served.png`)).expect(404);
      await get(api(`/media/not-a-uuid/served.png`)).expect(404);
      await get(api(`/media/${item.id}/other.png`)).expect(404);
      await get(api(`/media/${item.id}/Served.png`)).expect(404);
      await get(api(`/media/${item.id}/huge/served.png`)).expect(404);
      await get(api(`/media/${item.id}/thumb/served.png`)).expect(404);
    });

    it('needs the media read rule: 401 without credentials, 403 without read-media, 200 with it (Bearer or cookie)', async () => {
      const visitor = await t.http.get(item.url).expect(401);
      expect(visitor.body.error.code).toBe('AUTH_REQUIRED');
      // Nothing is told about what exists to a visitor.
      await t.http.get(api(`/media/00000000-0000-4000-8000-000000000000/x.png`)).expect(401);
      const stranger = await userWithPermissions(t, []);
      const refused = await get(item.url, await bearerFor(t, stranger.id)).expect(403);
      expect(JSON.parse((refused.body as Buffer).toString()).error.code).toBe('FORBIDDEN');
      const reader = await userWithPermissions(t, ['read-media']);
      await get(item.url, await bearerFor(t, reader.id)).expect(200);
      await get(item.sizes.thumb.url, await bearerFor(t, reader.id)).expect(200);
      // A browser session: the svc_session cookie (path /admin) reaches the media route.
      const session = await signIn(t, reader);
      const viaCookie = await session.browser.agent.get(item.url).buffer(true).parse(bytes).expect(200);
      expect((viaCookie.body as Buffer).equals(file)).toBe(true);
    });

    it('serves SVG and HTML as attachments under a sandboxing CSP, with nosniff', async () => {
      const svg = Buffer.from(
        '<?xml version="1.0"?>\n<!-- drawn by hand -->\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">' +
          '<script>alert(1)</script><rect width="10" height="10"/></svg>',
      );
      const s = await upload(svg, 'drawing.png').expect(201);
      expect(s.body.item).toMatchObject({ mimeType: 'image/svg+xml', width: null, sizes: {} });
      const served = await get(s.body.item.url).expect(200);
      expect(served.headers).toMatchObject({
        'content-type': 'image/svg+xml',
        'x-content-type-options': 'nosniff',
        'content-disposition': `attachment; filename="drawing.png"; filename*=UTF-8''drawing.png`,
        'content-security-policy': "default-src 'none'; sandbox",
      });
      const html = await upload(
        Buffer.from('<!DOCTYPE html><html><script>alert(1)</script></html>'),
        'page.txt',
      ).expect(201);
      expect(html.body.item.mimeType).toBe('text/html');
      const page = await get(html.body.item.url).expect(200);
      expect(page.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
      });
      expect(page.headers['content-disposition']).toMatch(/^attachment; /);
    });

    it('serves a PDF as an attachment under a sandboxing CSP (PDFs can carry script and forms)', async () => {
      const pdf = Buffer.from(
        '%PDF-1.4\n1 0 obj << /Type /Catalog /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >> endobj\n' +
          'trailer << /Root 1 0 R >>\n%%EOF\n',
      );
      const created = await upload(pdf, 'report.pdf').expect(201);
      expect(created.body.item.mimeType).toBe('application/pdf');
      const served = await get(created.body.item.url).expect(200);
      expect(served.headers).toMatchObject({
        'content-type': 'application/pdf',
        'x-content-type-options': 'nosniff',
        'content-disposition': `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
        'content-security-policy': "default-src 'none'; sandbox",
      });
      expect((served.body as Buffer).equals(pdf)).toBe(true);
    });

    it('names a file safely in Content-Disposition (RFC 6266 filename*)', async () => {
      const res = await upload(Buffer.from('bonjour'), '../../Résumé final 😀.txt').expect(201);
      expect(res.body.item.filename).toBe('Résumé-final.txt');
      const served = await get(res.body.item.url).expect(200);
      expect(served.headers['content-disposition']).toBe(
        `inline; filename="R_sum_-final.txt"; filename*=UTF-8''R%C3%A9sum%C3%A9-final.txt`,
      );
    });
  });

  describe('entries', () => {
    it('updates alt and caption only (JSON PATCH), answering url and sizes', async () => {
      const created = (await upload(await png(50, 50), 'meta.png').expect(201)).body.item;
      const res = await t.http
        .patch(`${ENTRIES}/${created.id}`)
        .set(admin)
        .send({ alt: 'New alt', caption: 'New caption' })
        .expect(200);
      expect(res.body.item).toMatchObject({
        alt: 'New alt',
        caption: 'New caption',
        url: created.url,
        sizes: created.sizes,
      });
      const refused = await t.http
        .patch(`${ENTRIES}/${created.id}`)
        .set(admin)
        .send({ filename: 'evil.html', mimeType: 'text/html' })
        .expect(400);
      expect(refused.body.error.data.errors.map((e: { path: string }) => e.path).sort()).toEqual([
        'filename',
        'mimeType',
      ]);
      await t.http
        .post(`${ENTRIES}/bulk-update`)
        .set(admin)
        .send({ ids: [created.id], data: { sizes: {} } })
        .expect(400);
      await t.http
        .post(`${ENTRIES}/bulk-update`)
        .set(admin)
        .send({ ids: [created.id], data: { alt: 'bulk' } })
        .expect(200);
      expect((await t.http.get(`${ENTRIES}/${created.id}`).set(admin).expect(200)).body.alt).toBe('bulk');
    });

    it('removes the stored files once a delete commits (one and bulk)', async () => {
      const one = (await upload(await png(60, 60), 'one.png').expect(201)).body.item;
      expect(readdirSync(join(dir, one.id)).sort()).toEqual(['one.png', 'thumb', 'wide']);
      const del = await t.http.delete(`${ENTRIES}/${one.id}`).set(admin).expect(200);
      expect(del.body.item).toMatchObject({ id: one.id, url: one.url });
      expect(existsSync(join(dir, one.id))).toBe(false);
      await get(one.url).expect(404);

      const ids: string[] = [];
      for (const name of ['b1.txt', 'b2.txt']) {
        ids.push((await upload(Buffer.from(name), name).expect(201)).body.item.id);
      }
      await t.http.post(`${ENTRIES}/bulk-delete`).set(admin).send({ ids }).expect(200);
      expect(ids.filter((id) => existsSync(join(dir, id)))).toEqual([]);
    });

    it('populates upload fields at depth 1 with the media item (url and sizes)', async () => {
      const media = (await upload(await png(80, 40), 'cover.png', { alt: 'Cover' }).expect(201)).body.item;
      const post = await t.http
        .post(api('/collections/posts/entries'))
        .set(admin)
        .send({ title: 'Hello', cover: media.id })
        .expect(201);
      const flat = await t.http
        .get(api(`/collections/posts/entries/${post.body.item.id}`))
        .set(admin)
        .expect(200);
      expect(flat.body.cover).toBe(media.id);
      const deep = await t.http
        .get(api(`/collections/posts/entries/${post.body.item.id}?depth=1`))
        .set(admin)
        .expect(200);
      expect(deep.body.cover).toEqual(media);
      const list = await t.http.get(api('/collections/posts/entries?depth=1')).set(admin).expect(200);
      expect(list.body.items[0].cover).toEqual(media);
    });
  });

  describe('image sizes', () => {
    it('lists for any signed-in caller; writes need manage-settings; validates with 400; names are unique (409)', async () => {
      const nobody = await userWithPermissions(t, []);
      const plain = await bearerFor(t, nobody.id);
      const list = await t.http.get(api('/image-sizes')).set(plain).expect(200);
      expect(list.body.meta).toMatchObject({ total: 2, page: 1 });
      expect(list.body.items.map((s: { name: string }) => s.name)).toEqual(['thumb', 'wide']);
      expect(list.body.items[0]).toEqual({
        id: expect.any(String),
        name: 'thumb',
        width: 100,
        height: 100,
        fit: 'cover',
        format: 'webp',
        quality: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      await t.http.get(api('/image-sizes')).expect(401);
      await t.http.post(api('/image-sizes')).set(plain).send({ name: 'x', width: 10 }).expect(403);

      const bad = async (body: object, path: string) => {
        const res = await t.http.post(api('/image-sizes')).set(admin).send(body).expect(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.data.errors.map((e: { path: string }) => e.path)).toContain(path);
      };
      await bad({ name: 'nobox' }, 'width');
      await bad({ width: 10 }, 'name');
      await bad({ name: 'Has Spaces', width: 10 }, 'name');
      await bad({ name: 'neg', width: -1 }, 'width');
      await bad({ name: 'frac', height: 1.5 }, 'height');
      await bad({ name: 'fit', width: 10, fit: 'fill' }, 'fit');
      await bad({ name: 'fmt', width: 10, format: 'gif' }, 'format');
      await bad({ name: 'q', width: 10, quality: 101 }, 'quality');
      await bad({ name: 'extra', width: 10, crop: true }, 'crop');
      const dup = await t.http
        .post(api('/image-sizes'))
        .set(admin)
        .send({ name: 'thumb', width: 5 })
        .expect(409);
      expect(dup.body.error.code).toBe('DUPLICATE');

      const made = await t.http
        .post(api('/image-sizes'))
        .set(admin)
        .send({ name: 'square', height: 64, format: 'jpeg', quality: 70 })
        .expect(201);
      expect(made.body).toEqual({
        message: expect.any(String),
        item: expect.objectContaining({
          name: 'square',
          width: null,
          height: 64,
          fit: 'inside',
          quality: 70,
        }),
      });
      const id = made.body.item.id;
      await t.http
        .patch(api(`/image-sizes/${id}`))
        .set(admin)
        .send({ height: null })
        .expect(400);
      await t.http
        .patch(api(`/image-sizes/${id}`))
        .set(admin)
        .send({ name: 'wide' })
        .expect(409);
      const updated = await t.http
        .patch(api(`/image-sizes/${id}`))
        .set(admin)
        .send({ width: 64, fit: 'contain' })
        .expect(200);
      expect(updated.body.item).toMatchObject({ width: 64, height: 64, fit: 'contain', format: 'jpeg' });
      const removed = await t.http
        .delete(api(`/image-sizes/${id}`))
        .set(admin)
        .expect(200);
      expect(removed.body.item.id).toBe(id);
      await t.http
        .delete(api(`/image-sizes/${id}`))
        .set(admin)
        .expect(404);
    });

    it('moves variants with a renamed size and removes them with a deleted one', async () => {
      const size = (
        await t.http
          .post(api('/image-sizes'))
          .set(admin)
          .send({ name: 'tiny', width: 16, format: 'png' })
          .expect(201)
      ).body.item;
      const item = (await upload(await png(64, 64), 'sized.png').expect(201)).body.item;
      expect(item.sizes.tiny).toMatchObject({ width: 16, height: 16 });
      await t.http
        .patch(api(`/image-sizes/${size.id}`))
        .set(admin)
        .send({ name: 'small' })
        .expect(200);
      const renamed = (await t.http.get(`${ENTRIES}/${item.id}`).set(admin).expect(200)).body;
      expect(renamed.sizes.tiny).toBeUndefined();
      expect(renamed.sizes.small).toMatchObject({ width: 16, height: 16 });
      const small = await get(renamed.sizes.small.url).expect(200);
      expect((await sharp(small.body as Buffer).metadata()).width).toBe(16);

      await t.http
        .delete(api(`/image-sizes/${size.id}`))
        .set(admin)
        .expect(200);
      const after = (await t.http.get(`${ENTRIES}/${item.id}`).set(admin).expect(200)).body;
      expect(Object.keys(after.sizes).sort()).toEqual(['thumb', 'wide']);
      expect(readdirSync(join(dir, item.id, 'tiny'))).toEqual([]);
      await get(renamed.sizes.small.url).expect(404);
    });

    it('regenerates the sizes of stored images as a background job with its progress', async () => {
      const idle = await t.http.get(api('/image-sizes/regeneration-status')).set(admin).expect(200);
      expect(idle.body.status).toBe('idle');
      const item = (await upload(await png(500, 250), 'later.png').expect(201)).body.item;
      expect(Object.keys(item.sizes).sort()).toEqual(['thumb', 'wide']);
      const size = (
        await t.http
          .post(api('/image-sizes'))
          .set(admin)
          .send({ name: 'banner', width: 200, height: 50, fit: 'cover', format: 'avif' })
          .expect(201)
      ).body.item;
      const plain = await bearerFor(t, (await userWithPermissions(t, [])).id);
      await t.http.post(api('/image-sizes/regenerate')).set(plain).expect(403);
      const started = await t.http.post(api('/image-sizes/regenerate')).set(admin).expect(202);
      expect(started.body.item).toMatchObject({ status: 'queued', processed: 0 });
      const images = Number(
        (
          await t.db.query(
            `SELECT count(*) AS n FROM c_media WHERE "mimeType" LIKE 'image/%' AND "mimeType" <> 'image/svg+xml'`,
          )
        )[0].n,
      );
      expect(started.body.item.total).toBe(images);
      let status: { status: string; processed: number; failed: number; total: number } = started.body.item;
      await until(
        async () => {
          status = (await t.http.get(api('/image-sizes/regeneration-status')).set(admin).expect(200)).body;
          return status.status === 'done' || status.status === 'failed';
        },
        'the regeneration to end',
        20_000,
      );
      expect(status).toMatchObject({ status: 'done', processed: images, failed: 0, total: images });
      const after = (await t.http.get(`${ENTRIES}/${item.id}`).set(admin).expect(200)).body;
      expect(after.sizes.banner).toMatchObject({ width: 200, height: 50, mimeType: 'image/avif' });
      const banner = await get(after.sizes.banner.url).expect(200);
      const meta = await sharp(banner.body as Buffer).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['heif', 200, 50]);
      await t.http
        .delete(api(`/image-sizes/${size.id}`))
        .set(admin)
        .expect(200);

      // One run at a time: a second while one is queued is 409.
      await t.db.query(`INSERT INTO media_regenerations (status) VALUES ('running')`);
      const busy = await t.http.post(api('/image-sizes/regenerate')).set(admin).expect(409);
      expect(busy.body.error.code).toBe('CONFLICT');
      await t.db.query(`UPDATE media_regenerations SET status = 'done' WHERE status = 'running'`);
    });
  });
});

describe('media open to visitors (SVC_MEDIA_PUBLIC)', () => {
  let t: TestApp;
  const dir = mkdtempSync(join(tmpdir(), 'svc-media-public-'));

  beforeAll(async () => {
    t = await createTestApp({ overrides: { media: { dir, public: true } } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves files to anyone with long-lived public caching; uploads still need create-media', async () => {
    const admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    const file = await png(20, 20);
    await t.http.post(ENTRIES).attach('file', file, 'open.png').expect(401);
    const item = (await t.http.post(ENTRIES).set(admin).attach('file', file, 'open.png').expect(201)).body
      .item;
    const res = await t.http.get(item.url).buffer(true).parse(bytes).expect(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((res.body as Buffer).equals(file)).toBe(true);
    const list = await t.http.get(ENTRIES).expect(200);
    expect(list.body.items).toEqual([item]);
    await t.http.delete(`${ENTRIES}/${item.id}`).expect(401);
    // HTML is not among the default types.
    const html = await t.http
      .post(ENTRIES)
      .set(admin)
      .attach('file', Buffer.from('<!doctype html><title>x</title>'), 'page.txt')
      .expect(415);
    expect(html.body.error.data.mimeType).toBe('text/html');
  });
});
