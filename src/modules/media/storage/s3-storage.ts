import { createReadStream, createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3MediaOptions } from '../../../config/media-options';
import { checkItemId, checkKey, type MediaStorage, type StoredBody } from './media-storage';

/** Parts of a multipart upload (the S3 minimum is 5 MiB); files under one part go in one PUT. */
const PART_SIZE = 8 * 1024 * 1024;

/**
 * Files in an S3-compatible bucket: objects `<prefix><id>/<filename>` (prefix `media/` by
 * default). Uploads go through `@aws-sdk/lib-storage` (a multipart upload past 8 MiB, two parts
 * at a time, aborted on failure so no part is left). Credentials: the AWS SDK's usual chain
 * (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, shared files, instance roles) unless given.
 * Checksums only where the API requires them: S3-compatible servers do not all take the SDK's
 * newer default trailing checksums.
 */
export class S3MediaStorage implements MediaStorage {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(o: S3MediaOptions) {
    const config: S3ClientConfig = {
      region: o.region ?? process.env.AWS_REGION ?? 'us-east-1',
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    };
    if (o.endpoint) {
      config.endpoint = o.endpoint;
    }
    config.forcePathStyle = o.forcePathStyle ?? o.endpoint !== undefined;
    if (o.credentials) {
      config.credentials = o.credentials;
    }
    this.client = new S3Client(config);
    this.bucket = o.bucket;
    this.prefix = o.prefix ?? 'media/';
  }

  private objectKey(key: string): string {
    return this.prefix + checkKey(key);
  }

  async put(key: string, path: string, contentType: string): Promise<void> {
    await new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: createReadStream(path),
        ContentType: contentType,
      },
      partSize: PART_SIZE,
      queueSize: 2,
      leavePartsOnError: false,
    }).done();
  }

  async open(key: string, range?: { start: number; end: number }): Promise<StoredBody | null> {
    const body = await this.read(key, range);
    return body && { send: (out) => pipeline(body, out), close: () => body.destroy() };
  }

  private async read(key: string, range?: { start: number; end: number }): Promise<Readable | null> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return out.Body instanceof Readable ? out.Body : null;
    } catch (e) {
      if (isMissing(e)) {
        return null;
      }
      throw e;
    }
  }

  async download(key: string, path: string): Promise<boolean> {
    const body = await this.read(key);
    if (!body) {
      return false;
    }
    await pipeline(body, createWriteStream(path));
    return true;
  }

  async remove(keys: readonly string[]): Promise<void> {
    await this.deleteObjects(keys.map((k) => this.objectKey(k)));
  }

  async removeItem(id: string): Promise<void> {
    const prefix = `${this.prefix}${checkItemId(id)}/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      await this.deleteObjects((page.Contents ?? []).map((o) => o.Key!).filter(Boolean));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private async deleteObjects(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const out = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
      if (out.Errors?.length) {
        throw new Error(`S3 refused to delete ${out.Errors.length} object(s): ${out.Errors[0].Code ?? ''}`);
      }
    }
  }

  close(): void {
    this.client.destroy();
  }
}

function isMissing(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata?.httpStatusCode === 404;
}
