import { join, resolve } from 'node:path';

/**
 * Media settings (uploads, storage, serving): what `SvcModuleOptions.media` takes, its defaults,
 * and the checks the environment's variables share with it.
 */

/** `SVC_UPLOAD_MAX_BYTES`' default: 10 MiB. */
export const DEFAULT_UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
/** The largest cap that may be set (100 GiB): a number of bytes that stays an exact integer. */
export const MAX_UPLOAD_MAX_BYTES = 100 * 1024 * 1024 * 1024;

/**
 * `SVC_UPLOAD_TYPES`' default: the types an upload is stored as (decided from its bytes, never
 * from its name or the client's Content-Type). Images (SVG included: it is always served as an
 * attachment, in a sandbox), PDF, plain text and CSV, and common audio and video. Text that is
 * HTML or XML other than SVG is sniffed as `text/html` / `application/xml`, not allowed here.
 */
export const DEFAULT_UPLOAD_TYPES: readonly string[] = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/svg+xml',
  'application/pdf',
  'text/plain',
  'text/csv',
  'audio/mpeg',
  'audio/mp4',
  'audio/x-m4a',
  'audio/aac',
  'audio/ogg',
  'audio/opus',
  'audio/vnd.wave',
  'audio/x-flac',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'video/quicktime',
];

/** `type/subtype` or `type/*`, lower case (RFC 6838 token characters). */
const TYPE_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/(\*|[a-z0-9][a-z0-9!#$&^_.+-]{0,126})$/;

/** An S3-compatible bucket (`SVC_S3_*`). Credentials: the AWS SDK's usual chain unless given. */
export interface S3MediaOptions {
  bucket: string;
  /** An S3-compatible server's URL (MinIO, R2, ...): path-style addressing is then used. */
  endpoint?: string;
  /** Default `SVC_S3_REGION`, else `AWS_REGION`, else `us-east-1`. */
  region?: string;
  /** Default: true when `endpoint` is set. */
  forcePathStyle?: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Key prefix (default `media/`): objects are `<prefix><id>/<filename>`. */
  prefix?: string;
}

/** What `SvcModuleOptions.media` takes; every key is optional. */
export interface MediaOptions {
  /** Local storage root and temporary files (`SVC_MEDIA_DIR`, default `<SVC_DATA_DIR>/media`). */
  dir?: string;
  /** Where uploads are streamed before they are stored (default `<dir>/.tmp`). */
  tmpDir?: string;
  /** Largest file accepted (`SVC_UPLOAD_MAX_BYTES`, default 10 MiB). */
  maxBytes?: number;
  /** Allowed types, `type/subtype` or `type/*` (`SVC_UPLOAD_TYPES`, default DEFAULT_UPLOAD_TYPES). */
  types?: string[];
  /** Media readable by anyone, visitors included (`SVC_MEDIA_PUBLIC`): the media `read` rule is `true`. */
  public?: boolean;
  /** Store files in an S3-compatible bucket instead of `dir` (`SVC_S3_BUCKET`). */
  s3?: S3MediaOptions | null;
  /** Image variants made at once by this process (default 2). */
  variantConcurrency?: number;
}

export interface ResolvedMediaOptions {
  dir: string;
  tmpDir: string;
  maxBytes: number;
  types: string[];
  public: boolean;
  s3: S3MediaOptions | null;
  variantConcurrency: number;
}

/** Problems of an allowed-types list (empty when every entry is a type or `type/*`). */
export function uploadTypeProblems(types: readonly string[]): string[] {
  const problems: string[] = [];
  if (!types.length) {
    problems.push('at least one type is needed');
  }
  for (const t of types) {
    if (!TYPE_PATTERN.test(t)) {
      problems.push(`"${t}" is not a MIME type (type/subtype or type/*, lower case)`);
    }
  }
  return problems;
}

/** `SVC_UPLOAD_TYPES`' text as a list: comma-separated, trimmed, lower-cased. */
export function parseUploadTypes(raw: string): string[] {
  return raw
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter(Boolean);
}

/** The media options with defaults applied; a bad value throws (a host application's mistake). */
export function resolveMediaOptions(o: MediaOptions = {}): ResolvedMediaOptions {
  const dir = resolve(o.dir ?? join('.svc', 'media'));
  const types = o.types ? [...o.types] : [...DEFAULT_UPLOAD_TYPES];
  const problems = uploadTypeProblems(types).map((p) => `media.types: ${p}`);
  const maxBytes = o.maxBytes ?? DEFAULT_UPLOAD_MAX_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > MAX_UPLOAD_MAX_BYTES) {
    problems.push(`media.maxBytes must be an integer from 1 to ${MAX_UPLOAD_MAX_BYTES}`);
  }
  const variantConcurrency = o.variantConcurrency ?? 2;
  if (!Number.isInteger(variantConcurrency) || variantConcurrency < 1 || variantConcurrency > 64) {
    problems.push('media.variantConcurrency must be an integer from 1 to 64');
  }
  if (o.s3 && !o.s3.bucket) {
    problems.push('media.s3.bucket is required');
  }
  if (problems.length) {
    throw new Error(`SvcModule: ${problems.join('; ')}`);
  }
  return {
    dir,
    tmpDir: resolve(o.tmpDir ?? join(dir, '.tmp')),
    maxBytes,
    types,
    public: o.public ?? false,
    s3: o.s3 ? { ...o.s3 } : null,
    variantConcurrency,
  };
}

/** Whether `mime` is one of `allowed` (`type/*` covers every subtype). */
export function isAllowedType(mime: string, allowed: readonly string[]): boolean {
  const [type] = mime.split('/');
  return allowed.some((a) => a === mime || a === `${type}/*`);
}
