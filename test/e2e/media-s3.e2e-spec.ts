import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import request from 'supertest';
import { bearerFor, createUser } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

/** s3rver ships no types: what the test uses of it. */
interface S3rverServer {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  logger: { info: (message: string) => void };
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: object) => S3rverServer;

const BUCKET = 'svc-media-test';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** A real S3-compatible server (s3rver, from npm) on loopback; the service stores media in it. */
describe('media on S3-compatible storage', () => {
  let s3: S3rverServer;
  let client: S3Client;
  let t: TestApp;
  let admin: Record<string, string>;
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-s3rver-'));
  const mediaDir = mkdtempSync(join(tmpdir(), 'svc-media-s3-'));
  const requests: string[] = [];

  let port: number;

  /** s3rver on `port` (0: any), over the same data directory: stopped and started again keeps the bucket. */
  async function startS3(on: number): Promise<number> {
    s3 = new S3rver({
      address: '127.0.0.1',
      port: on,
      silent: true,
      directory: dataDir,
      configureBuckets: [{ name: BUCKET }],
    });
    // Its request log (one line per answered request, the URL in it), kept for assertions.
    s3.logger.info = (message: string) => void requests.push(message);
    return (await s3.run()).port;
  }

  beforeAll(async () => {
    port = await startS3(0);
    const endpoint = `http://127.0.0.1:${port}`;
    client = new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: CREDENTIALS,
    });
    t = await createTestApp({
      overrides: {
        media: {
          dir: mediaDir,
          maxBytes: 12 * 1024 * 1024,
          s3: { bucket: BUCKET, endpoint, region: 'us-east-1', credentials: CREDENTIALS },
        },
      },
    });
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
  });

  afterAll(async () => {
    await t?.close();
    client?.destroy();
    await s3?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(mediaDir, { recursive: true, force: true });
  });

  async function keys(prefix = 'media/'): Promise<string[]> {
    const out = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
    return (out.Contents ?? []).map((o) => o.Key!).sort();
  }

  it('stores a large file in a multipart upload, serves it with ranges, and deletes its objects', async () => {
    // 9 MiB of text: two parts of the 8 MiB multipart upload.
    const line = 'svc media over S3, line of text 0123456789 abcdefghijklmnopqrstuvwxyz\n';
    const big = Buffer.from(line.repeat(Math.ceil((9 * 1024 * 1024) / line.length)));
    const res = await t.http
      .post('/admin/api/collections/media/entries')
      .set(admin)
      .attach('file', big, 'notes.txt')
      .expect(201);
    const item = res.body.item;
    expect(item).toMatchObject({ filename: 'notes.txt', mimeType: 'text/plain', filesize: big.length });
    expect(await keys()).toEqual([`media/${item.id}/notes.txt`]);
    const stored = await client.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: `media/${item.id}/notes.txt` }),
    );
    expect(stored.ContentLength).toBe(big.length);
    expect(stored.ContentType).toBe('text/plain');
    await stored.Body?.transformToString();
    // It went up as a multipart upload (lib-storage, 8 MiB parts): two parts, then the completion.
    // (The log's lines are cut at the front: they are matched on the key and the query.)
    const key = `media/${item.id}/notes.txt`;
    expect(requests.filter((r) => r.includes(`${key}?uploads=`))).toHaveLength(1);
    expect(requests.filter((r) => r.includes(`${key}?partNumber=`))).toHaveLength(2);

    const part = await t.http.get(item.url).set(admin).set('Range', 'bytes=8388600-8388699').expect(206);
    expect(part.headers['content-range']).toBe(`bytes 8388600-8388699/${big.length}`);
    expect(Buffer.from(part.text)).toEqual(big.subarray(8388600, 8388700));
    const tail = await t.http.get(item.url).set(admin).set('Range', 'bytes=-10').expect(206);
    expect(Buffer.from(tail.text)).toEqual(big.subarray(big.length - 10));
    const whole = await t.http.get(item.url).set(admin).expect(200);
    expect(whole.text.length).toBe(big.length);
    expect(Buffer.from(whole.text).equals(big)).toBe(true);

    await t.http.delete(`/admin/api/collections/media/entries/${item.id}`).set(admin).expect(200);
    await t.http.get(item.url).set(admin).expect(404);
    expect(await keys()).toEqual([]);
    await t.http.get(item.url).set(admin).expect(404);
    // Nothing stays in the local temporary folder either.
    expect(readdirSync(join(mediaDir, '.tmp'))).toEqual([]);
  });

  it('stores image sizes beside the original and removes them all on a bulk delete', async () => {
    await t.http
      .post('/admin/api/image-sizes')
      .set(admin)
      .send({ name: 'thumb', width: 64, height: 64, fit: 'cover', format: 'webp' })
      .expect(201);
    const png = await sharp({
      create: { width: 300, height: 200, channels: 3, background: { r: 10, g: 120, b: 200 } },
    })
      .png()
      .toBuffer();
    const ids: string[] = [];
    for (const name of ['a.png', 'b.png']) {
      const res = await t.http
        .post('/admin/api/collections/media/entries')
        .set(admin)
        .attach('file', png, name)
        .expect(201);
      ids.push(res.body.item.id);
      const thumb = await request(t.app.getHttpServer())
        .get(res.body.item.sizes.thumb.url)
        .set(admin)
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        })
        .expect(200);
      const meta = await sharp(thumb.body as Buffer).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 64, 64]);
    }
    expect(await keys()).toEqual(
      ids.flatMap((id, i) => [`media/${id}/${'ab'[i]}.png`, `media/${id}/thumb/${'ab'[i]}.webp`]).sort(),
    );
    const bulk = await t.http
      .post('/admin/api/collections/media/entries/bulk-delete')
      .set(admin)
      .send({ ids })
      .expect(200);
    expect(bulk.body.items).toHaveLength(2);
    expect(await keys()).toEqual([]);
  });

  it('removes the objects of a deleted entry once storage answers again (a durable retry)', async () => {
    const res = await t.http
      .post('/admin/api/collections/media/entries')
      .set(admin)
      .attach('file', Buffer.from('kept until storage is back'), 'outage.txt')
      .expect(201);
    const id = res.body.item.id as string;
    expect(await keys(`media/${id}/`)).toEqual([`media/${id}/outage.txt`]);

    // Storage is down while the entry is deleted: the row goes at once, the objects cannot.
    await s3.close();
    await t.http.delete(`/admin/api/collections/media/entries/${id}`).set(admin).expect(200);
    await t.http.get(`/admin/api/collections/media/entries/${id}`).set(admin).expect(404);
    await startS3(port);
    expect(await keys(`media/${id}/`)).toEqual([`media/${id}/outage.txt`]);

    const deadline = Date.now() + 20_000;
    while ((await keys(`media/${id}/`)).length && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await keys(`media/${id}/`)).toEqual([]);
  }, 40_000);
});
