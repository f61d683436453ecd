import { connect } from 'node:net';

/**
 * A bare HTTP/1.1 client over a TCP socket, for requests no HTTP library would send as they are:
 * a request target with bad percent-encoding or `..` (kept byte for byte, never normalised),
 * header values with raw bytes, a body whose `Content-Encoding` does not match its bytes, a body on
 * a GET. Each request opens its own connection and asks for `Connection: close`, so the answer is
 * read to the end of the stream.
 */
export interface RawRequest {
  method: string;
  /** The request target as sent: path and query, already encoded (or deliberately not). */
  target: string | Buffer;
  /** In order; a name may repeat. A string value is written as latin1 (one byte per char). */
  headers: Array<[string, string | Buffer]>;
  body?: Buffer;
  /** Send the body as `Transfer-Encoding: chunked` (three chunks) instead of `Content-Length`. */
  chunked?: boolean;
}

export interface RawResponse {
  status: number;
  /** Lower-case names; repeated headers joined with `, ` (`set-cookie` with `\n`). */
  headers: Record<string, string>;
  body: Buffer;
  ms: number;
}

const CRLF = Buffer.from('\r\n');

function encodeRequest(host: string, req: RawRequest): Buffer {
  const parts: Buffer[] = [
    Buffer.from(`${req.method} `, 'latin1'),
    typeof req.target === 'string' ? Buffer.from(req.target, 'latin1') : req.target,
    Buffer.from(` HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n`, 'latin1'),
  ];
  for (const [name, value] of req.headers) {
    parts.push(
      Buffer.from(`${name}: `, 'latin1'),
      typeof value === 'string' ? Buffer.from(value, 'latin1') : value,
      CRLF,
    );
  }
  const body = req.body;
  if (body !== undefined) {
    if (req.chunked) {
      parts.push(Buffer.from('Transfer-Encoding: chunked\r\n\r\n', 'latin1'));
      const cut = [0, Math.floor(body.length / 3), Math.floor((2 * body.length) / 3), body.length];
      for (let i = 0; i < 3; i++) {
        const chunk = body.subarray(cut[i], cut[i + 1]);
        if (chunk.length) {
          parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`, 'latin1'), chunk, CRLF);
        }
      }
      parts.push(Buffer.from('0\r\n\r\n', 'latin1'));
    } else {
      parts.push(Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'latin1'), body);
    }
  } else {
    parts.push(CRLF);
  }
  return Buffer.concat(parts);
}

function decodeChunked(data: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf(CRLF, at);
    if (lineEnd < 0) {
      break;
    }
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1').split(';')[0].trim(), 16);
    if (!Number.isFinite(size) || size === 0) {
      break;
    }
    out.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}

export function parseResponse(data: Buffer, ms: number): RawResponse {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd < 0) {
    throw new Error(`incomplete response (${data.length} bytes): ${JSON.stringify(data.toString('latin1'))}`);
  }
  const lines = data.subarray(0, headEnd).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0]);
  if (!m) {
    throw new Error(`not an HTTP response: ${JSON.stringify(lines[0])}`);
  }
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] =
      name in headers ? `${headers[name]}${name === 'set-cookie' ? '\n' : ', '}${value}` : value;
  }
  let body = data.subarray(headEnd + 4);
  if (/\bchunked\b/i.test(headers['transfer-encoding'] ?? '')) {
    body = decodeChunked(body);
  } else if (headers['content-length'] !== undefined) {
    body = body.subarray(0, Number(headers['content-length']));
  }
  return { status: Number(m[1]), headers, body, ms };
}

/**
 * Sends one request to 127.0.0.1:`port` and reads the answer to the end. A server that answers
 * early and closes while the body is still being written (an early 413 or 415) is fine: whatever
 * arrived is the answer. Rejects when nothing parseable arrived within `timeoutMs`.
 */
export function sendRaw(port: number, req: RawRequest, timeoutMs = 30_000): Promise<RawResponse> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = connect({ port, host: '127.0.0.1' });
    const finish = (err?: Error) => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const data = Buffer.concat(chunks);
      if (data.length === 0) {
        reject(err ?? new Error('connection closed without an answer'));
        return;
      }
      try {
        resolve(parseResponse(data, Date.now() - started));
      } catch (e) {
        reject(e as Error);
      }
    };
    const timer = setTimeout(() => finish(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => chunks.push(d));
    socket.on('end', () => finish());
    socket.on('close', () => finish());
    socket.on('error', (e) => {
      // EPIPE / ECONNRESET after an early answer: keep what arrived.
      if (chunks.length === 0 && !['EPIPE', 'ECONNRESET'].includes((e as NodeJS.ErrnoException).code ?? '')) {
        finish(e);
      }
    });
    socket.write(encodeRequest(`127.0.0.1:${port}`, req));
  });
}
