import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { Request } from 'express';
import { ServiceError, type ValidationIssue } from '../../common/errors';

/** Room for the form's text fields and the multipart framing beside the file. */
const FORM_ALLOWANCE = 1024 * 1024;
/** After a refusal, the rest of the body is read and dropped up to this much (so the client reads the answer); past it the connection is closed. */
const DRAIN_LIMIT = 16 * 1024 * 1024;
const FIELD_LIMITS = { fields: 20, fieldSize: 100_000, fieldNameSize: 100, parts: 30 };
const MULTIPART = /^multipart\/form-data\s*;/i;

/** The streamed file, in its own temporary folder. */
export interface ReceivedFile {
  path: string;
  size: number;
  /** The name the client gave (not yet made safe). */
  clientName: string;
}

export interface ReceivedForm {
  file: ReceivedFile | null;
  /** The text fields (multipart parts without a file name). */
  fields: Record<string, string>;
  /** The upload's temporary folder (the file, and whatever else is made from it). */
  dir: string;
  /** Removes the temporary folder and all in it. Never throws. */
  cleanup(): Promise<void>;
}

/**
 * Reads a `multipart/form-data` body, streaming the part `file` to a temporary file (never the
 * whole file in memory) in a folder of its own under `tmpDir`. Refusals:
 * - not multipart, or a `Content-Encoding`: 415 `UNSUPPORTED_MEDIA_TYPE`;
 * - a file over `maxBytes`: 413 `PAYLOAD_TOO_LARGE`, decided while streaming: the file stops at
 *   the cap (a declared `Content-Length` past the cap plus 1 MiB is refused before any byte);
 * - a second file, a file under another name, too many or too long fields, a body that is not
 *   well-formed multipart: 400 `VALIDATION_ERROR`.
 * On any refusal or a request that breaks off (the client went away), the temporary folder is
 * removed before the promise settles; nothing is left behind.
 */
export async function receiveMultipart(
  req: Request,
  limits: { maxBytes: number; tmpDir: string },
): Promise<ReceivedForm> {
  const type = req.headers['content-type'];
  if (!type || !MULTIPART.test(type)) {
    throw new ServiceError(
      'UNSUPPORTED_MEDIA_TYPE',
      'Media entries are created by uploading the file as multipart/form-data (field "file")',
      { contentType: type ?? null },
    );
  }
  const encoding = req.headers['content-encoding'];
  if (encoding && encoding.trim().toLowerCase() !== 'identity') {
    throw new ServiceError('UNSUPPORTED_MEDIA_TYPE', 'An upload may not carry a Content-Encoding', {
      contentEncoding: encoding,
    });
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes + FORM_ALLOWANCE) {
    req.res?.setHeader('Connection', 'close');
    throw tooLarge(limits.maxBytes);
  }

  await mkdir(limits.tmpDir, { recursive: true });
  const dir = await mkdtemp(join(limits.tmpDir, 'upload-'));
  const cleanup = () => rm(dir, { recursive: true, force: true }).catch(() => undefined);
  try {
    return await parse(req, limits.maxBytes, dir, cleanup);
  } catch (e) {
    await cleanup();
    throw e;
  }
}

function parse(
  req: Request,
  maxBytes: number,
  dir: string,
  cleanup: () => Promise<unknown>,
): Promise<ReceivedForm> {
  return new Promise<ReceivedForm>((resolve, reject) => {
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        // busboy reports the limit on reaching it: one byte more tells a file past the cap.
        limits: { ...FIELD_LIMITS, files: 1, fileSize: maxBytes + 1 },
      });
    } catch {
      // busboy refuses a Content-Type without a boundary at once.
      reject(malformed('the multipart Content-Type has no boundary'));
      return;
    }
    const fields: Record<string, string> = {};
    let file: ReceivedFile | null = null;
    let output: WriteStream | null = null;
    let writing: Promise<void> | null = null;
    let settled = false;

    /** Stops reading, closes the temporary file (so the folder can go), then rejects. */
    const fail = (err: unknown) => {
      if (settled) {
        return;
      }
      settled = true;
      req.unpipe(bb);
      bb.removeAllListeners();
      bb.on('error', () => undefined);
      // Not from inside one of busboy's own events: it goes on using its state after emitting.
      setImmediate(() => bb.destroy());
      drain(req);
      const out = output;
      if (out && !out.closed) {
        out.once('close', () => reject(err));
        out.destroy();
      } else {
        reject(err);
      }
    };

    bb.on('file', (name, stream, info) => {
      if (name !== 'file' || file) {
        stream.on('error', () => undefined);
        stream.resume();
        fail(
          ServiceError.validation([
            {
              path: name,
              code: 'unexpectedFile',
              message: file ? 'only one file may be uploaded' : 'the file must be sent as the field "file"',
            },
          ]),
        );
        return;
      }
      const path = join(dir, 'original');
      const received: ReceivedFile = { path, size: 0, clientName: info.filename ?? '' };
      file = received;
      stream.on('data', (chunk: Buffer) => {
        received.size += chunk.length;
      });
      stream.on('limit', () => fail(tooLarge(maxBytes)));
      output = createWriteStream(path);
      writing = pipeline(stream, output);
      writing.catch((e: unknown) => fail(e));
    });
    bb.on('field', (name, value, info) => {
      const issue = fieldIssue(name, info, fields);
      if (issue) {
        fail(ServiceError.validation([issue]));
        return;
      }
      fields[name] = value;
    });
    bb.on('filesLimit', () =>
      fail(
        ServiceError.validation([
          { path: 'file', code: 'unexpectedFile', message: 'only one file may be uploaded' },
        ]),
      ),
    );
    bb.on('fieldsLimit', () => fail(ServiceError.validation([tooMany('fields')])));
    bb.on('partsLimit', () => fail(ServiceError.validation([tooMany('parts')])));
    bb.on('error', (e: Error) => fail(malformed(e.message)));
    bb.on('close', () => {
      if (settled) {
        return;
      }
      void Promise.resolve(writing).then(() => {
        if (!settled) {
          settled = true;
          resolve({ file, fields, dir, cleanup: async () => void (await cleanup()) });
        }
      }, fail);
    });
    // A request that breaks off (the client went away) never ends the form: it fails here.
    req.on('error', () => fail(brokenOff()));
    req.on('close', () => {
      if (!req.complete) {
        fail(brokenOff());
      }
    });
    req.pipe(bb);
  });
}

/** The problem of one text field, if any. */
function fieldIssue(
  name: string,
  info: { nameTruncated: boolean; valueTruncated: boolean },
  seen: Record<string, string>,
): ValidationIssue | null {
  if (info.nameTruncated) {
    return { path: name.slice(0, 100), code: 'maxLength', message: 'a field name is too long' };
  }
  if (name === '__proto__' || name === 'constructor' || name === 'prototype') {
    return { path: name, code: 'forbiddenKey', message: `${name} may not be a field name` };
  }
  if (name === 'file') {
    return { path: 'file', code: 'isFile', message: 'file must be a file (a part with a filename)' };
  }
  if (info.valueTruncated) {
    return {
      path: name,
      code: 'maxLength',
      message: `${name} must be at most ${FIELD_LIMITS.fieldSize} bytes`,
    };
  }
  if (Object.prototype.hasOwnProperty.call(seen, name)) {
    return { path: name, code: 'duplicate', message: `${name} is sent more than once` };
  }
  return null;
}

function tooMany(what: string): ValidationIssue {
  return { path: '', code: 'maxParts', message: `the form has too many ${what}` };
}

function tooLarge(maxBytes: number): ServiceError {
  return new ServiceError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxBytes} bytes`, { maxBytes });
}

function malformed(detail: string): ServiceError {
  return ServiceError.validation(
    [{ path: '', code: 'multipart', message: `the body is not a well-formed multipart form (${detail})` }],
    'The upload could not be read',
  );
}

function brokenOff(): ServiceError {
  return ServiceError.validation(
    [{ path: '', code: 'aborted', message: 'the request broke off before the form ended' }],
    'The upload broke off',
  );
}

/**
 * After a refusal: the rest of the body is read and dropped so the client, still sending, gets
 * to read the answer; past DRAIN_LIMIT the connection is closed instead. A request that already
 * ended or broke off needs nothing.
 */
function drain(req: Request): void {
  if (req.readableEnded || req.destroyed) {
    return;
  }
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > DRAIN_LIMIT) {
      req.socket.destroy();
    }
  });
  req.on('error', () => undefined);
  req.resume();
}
