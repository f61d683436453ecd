import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { SERVICE_VERSION } from '../../common/version';
import { addressLiteral, guardedLookup, isRefusedAddress, PRIVATE_REFUSED } from './webhook-address';

const SECRET_PREFIX = 'whsec_';
/** Read of an answer's body at most; the rest is never read (the connection is closed). */
export const MAX_ANSWER_READ = 64 * 1024;
/** Kept of an answer's body in the attempt log. */
export const MAX_ANSWER_KEPT = 2 * 1024;

/** A signing secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
export function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
}

/**
 * The `webhook-signature` of Standard Webhooks: `v1,` and the base64 HMAC-SHA256, keyed with the
 * secret's bytes (the base64 after `whsec_`), of `<webhook-id>.<webhook-timestamp>.<body>`.
 */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

export interface AttemptRequest {
  url: string;
  /** The `webhook-id`: the event's id. */
  eventId: string;
  /** The JSON text sent, exactly as signed. */
  body: string;
  secret: string;
  timeoutMs: number;
  allowPrivateNetworks: boolean;
}

/** One attempt as the delivery log keeps it. */
export interface AttemptResult {
  at: Date;
  durationMs: number;
  /** Whether it succeeded: a 2xx answer in time. */
  ok: boolean;
  statusCode?: number;
  error?: string;
  /** The first 2 KiB of the answer's body, when it had one. */
  responseBody?: string;
}

/**
 * Connections kept open between attempts to the same host and port: a new TCP (and TLS)
 * connection per attempt cost more than the rest of a delivery. An idle one closes after 5 s (or
 * the receiver's own `Keep-Alive: timeout`, when shorter). A kept connection goes to the address
 * checked when it was opened, so reusing it checks nothing less.
 */
const agents = {
  http: new http.Agent({ keepAlive: true, timeout: 5000, scheduling: 'lifo' }),
  https: new https.Agent({ keepAlive: true, timeout: 5000, scheduling: 'lifo' }),
};

/** Text PostgreSQL can store (jsonb refuses NUL). */
const storable = (s: string): string => s.replaceAll('\u0000', '\uFFFD');

/**
 * One signed POST of `body` (Standard Webhooks headers, with this attempt's timestamp). No
 * redirect is followed (a 3xx is a failed attempt); a host is resolved by `guardedLookup`, which
 * refuses private addresses (an address literal is checked here, no lookup being made for it);
 * the whole attempt, connecting and reading the answer included, ends after `timeoutMs`; at most
 * 64 KiB of the answer is read and 2 KiB kept. Never throws: a failure is in the result.
 */
export function attempt(req: AttemptRequest): Promise<AttemptResult> {
  const started = Date.now();
  const at = new Date(started);
  const timestamp = Math.floor(started / 1000);
  const url = new URL(req.url);
  const literal = addressLiteral(url);
  if (literal && !req.allowPrivateNetworks && isRefusedAddress(literal)) {
    return Promise.resolve({ at, durationMs: 0, ok: false, error: `${PRIVATE_REFUSED}: ${literal}` });
  }
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(req.body)),
    'user-agent': `svc-webhooks/${SERVICE_VERSION}`,
    'webhook-id': req.eventId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature(req.secret, req.eventId, timestamp, req.body),
  };
  return send(req, url, headers, started, false).then((r) =>
    // A kept connection the receiver closed as this attempt began: the request never reached it,
    // so it goes again at once on a new connection (as Node's documentation advises).
    r.retryOnNewConnection ? send(req, url, headers, started, true) : r,
  );
}

function send(
  req: AttemptRequest,
  url: URL,
  headers: Record<string, string>,
  started: number,
  fresh: boolean,
): Promise<AttemptResult & { retryOnNewConnection?: boolean }> {
  const at = new Date(started);
  return new Promise<AttemptResult & { retryOnNewConnection?: boolean }>((resolve) => {
    let settled = false;
    let statusCode: number | undefined;
    let ended = false;
    const chunks: Buffer[] = [];
    let read = 0;
    const finish = (error?: string, retryOnNewConnection = false) => {
      if (settled) {
        return;
      }
      settled = true;
      clearTimeout(timer);
      if (!ended) {
        // Cut short (timed out, too long, failed): the connection is not reused.
        request.destroy();
      }
      if (retryOnNewConnection) {
        resolve({ at, durationMs: 0, ok: false, retryOnNewConnection });
        return;
      }
      const body = Buffer.concat(chunks).subarray(0, MAX_ANSWER_KEPT);
      const ok = statusCode !== undefined && statusCode >= 200 && statusCode < 300;
      const failure =
        statusCode === undefined
          ? (error ?? 'no answer')
          : ok
            ? undefined
            : statusCode >= 300 && statusCode < 400
              ? `HTTP ${statusCode}: redirects are not followed`
              : `HTTP ${statusCode}`;
      resolve({
        at,
        durationMs: Date.now() - started,
        ok,
        ...(statusCode === undefined ? {} : { statusCode }),
        ...(failure === undefined ? {} : { error: storable(failure) }),
        ...(body.length ? { responseBody: storable(body.toString('utf8')) } : {}),
      });
    };
    // Past the deadline with a status, the status decides (the body is what arrived by then).
    const remaining = Math.max(1, req.timeoutMs - (Date.now() - started));
    const timer = setTimeout(() => finish(`timed out after ${req.timeoutMs} ms`), remaining);
    const secure = url.protocol === 'https:';
    const request = (secure ? https : http).request(
      url,
      {
        method: 'POST',
        headers,
        agent: fresh ? false : secure ? agents.https : agents.http,
        ...(req.allowPrivateNetworks ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        statusCode = res.statusCode;
        res.on('data', (chunk: Buffer) => {
          if (read < MAX_ANSWER_READ) {
            chunks.push(chunk.subarray(0, MAX_ANSWER_READ - read));
          }
          read += chunk.length;
          if (read >= MAX_ANSWER_READ) {
            finish();
          }
        });
        res.on('end', () => {
          ended = true;
          finish();
        });
        // The answer cut short: its status stands, with what was read of the body.
        res.on('error', () => finish());
        res.on('close', () => finish());
      },
    );
    request.on('error', (e: NodeJS.ErrnoException) =>
      finish(
        e.message || String(e),
        !fresh && request.reusedSocket && statusCode === undefined && e.code === 'ECONNRESET',
      ),
    );
    request.end(req.body);
  }).catch((e: unknown) => ({
    // http.request refusing its options synchronously: a failed attempt like any other.
    at,
    durationMs: Date.now() - started,
    ok: false,
    error: storable((e as Error).message || String(e)),
  }));
}
