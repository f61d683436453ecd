/**
 * `svc/client`: a typed client for the service's REST API, openapi-fetch underneath. The types
 * come from the service's OpenAPI document (`./api`, generated); `npm run typegen` writes the
 * same types for a running service, its collections' own operations included, to pass as
 * `createClient<paths>(...)`.
 */
import createFetchClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components, paths } from './api';

export type { components, operations, paths } from './api';
export type { Client, Middleware } from 'openapi-fetch';
/** A list filter: fields with operators, nested with `and` / `or`. */
export type Where = components['schemas']['Where'];

/** How the client authenticates: `cookieAuth()`, `bearerAuth(...)` or `apiKeyAuth(...)`. */
export interface SvcAuth {
  middleware: Middleware;
  credentials?: RequestInit['credentials'];
}

export interface SvcClientOptions extends Omit<ClientOptions, 'querySerializer'> {
  /** The service's origin, e.g. `https://cms.example.com` (paths start with `/admin/api`). */
  baseUrl: string;
  auth?: SvcAuth;
}

/**
 * A client for the service at `baseUrl`. Query objects (`where`) are sent as JSON text
 * (`where={"or":[...]}`), which the service reads for any depth of nesting; arrays repeat the key.
 */
export function createClient<Paths extends object = paths>({
  auth,
  ...options
}: SvcClientOptions): Client<Paths> {
  const client = createFetchClient<Paths>({
    ...(auth?.credentials ? { credentials: auth.credentials } : {}),
    ...options,
    querySerializer: serializeQuery,
  });
  if (auth) {
    client.use(auth.middleware);
  }
  return client;
}

/** `key=value&...`: objects as JSON text, arrays as repeated keys, null and undefined left out. */
export function serializeQuery(query: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) {
        continue;
      }
      const text = typeof item === 'object' ? JSON.stringify(item) : String(item);
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
    }
  }
  return parts.join('&');
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The request to send and a copy to send again once. The body is read once for both: `clone()`
 * would tee it into streams, which browsers then upload as a stream (and tools that record
 * requests no longer see it).
 */
async function withCopy(request: Request): Promise<[Request, Request]> {
  if (!request.body) {
    return [request, request.clone()];
  }
  const body = await request.arrayBuffer();
  return [new Request(request, { body }), new Request(request, { body })];
}
const CSRF_PATH = '/admin/api/auth/csrf';

/**
 * A browser signed in with the service's cookies: requests carry them (`credentials: 'include'`)
 * and every unsafe request carries `X-CSRF-Token`. The token comes from `GET /admin/api/auth/csrf`
 * (its cookie is HttpOnly, so the answer's body is the only place a page can read it), fetched
 * once and again after a `403 CSRF_FAILED`, when the request is retried once with the new token.
 */
export function cookieAuth(): SvcAuth {
  let token: Promise<string> | undefined;
  const fetchToken = async (baseUrl: string, doFetch: typeof fetch): Promise<string> => {
    const res = await doFetch(new Request(`${baseUrl}${CSRF_PATH}`, { credentials: 'include' }));
    if (!res.ok) {
      throw new Error(`GET ${CSRF_PATH} answered ${res.status}`);
    }
    return ((await res.json()) as { csrfToken: string }).csrfToken;
  };
  const retries = new Map<string, Request>();
  return {
    credentials: 'include',
    middleware: {
      async onRequest({ request, options, id }) {
        if (!UNSAFE.has(request.method)) {
          return undefined;
        }
        token ??= fetchToken(options.baseUrl, options.fetch).catch((e: unknown) => {
          token = undefined;
          throw e;
        });
        request.headers.set('X-CSRF-Token', await token);
        const [sent, copy] = await withCopy(request);
        retries.set(id, copy);
        return sent;
      },
      async onResponse({ response, options, id }) {
        const retry = retries.get(id);
        retries.delete(id);
        if (!retry || response.status !== 403 || (await errorCode(response)) !== 'CSRF_FAILED') {
          return undefined;
        }
        // Called unbound: as a method of `options`, a browser's fetch throws "Illegal invocation".
        const send = options.fetch;
        token = fetchToken(options.baseUrl, send);
        retry.headers.set('X-CSRF-Token', await token);
        return send(retry);
      },
      onError({ id }) {
        retries.delete(id);
      },
    },
  };
}

export interface BearerAuthOptions {
  /**
   * Called after a `401`: a new access token (the request is then retried once with it), or
   * undefined to let the `401` through. E.g. `POST /admin/api/auth/refresh`, or a sign-in.
   */
  refresh?: () => Promise<string | undefined>;
}

/**
 * An access token (the `token` of a sign-in answer) as `Authorization: Bearer <token>`: the
 * token itself, or a function reading it from wherever the application keeps it.
 */
export function bearerAuth(
  token: string | (() => string | undefined | Promise<string | undefined>),
  opts: BearerAuthOptions = {},
): SvcAuth {
  let current: string | undefined = typeof token === 'string' ? token : undefined;
  const retries = new Map<string, Request>();
  return {
    middleware: {
      async onRequest({ request, id }) {
        current = typeof token === 'string' ? current : await token();
        if (current) {
          request.headers.set('Authorization', `Bearer ${current}`);
        }
        if (opts.refresh) {
          const [sent, copy] = await withCopy(request);
          retries.set(id, copy);
          return sent;
        }
        return request;
      },
      async onResponse({ response, options, id }) {
        const retry = retries.get(id);
        retries.delete(id);
        if (!retry || response.status !== 401 || !opts.refresh) {
          return undefined;
        }
        const fresh = await opts.refresh();
        if (!fresh) {
          return undefined;
        }
        current = fresh;
        retry.headers.set('Authorization', `Bearer ${fresh}`);
        const send = options.fetch; // unbound, as above
        return send(retry);
      },
      onError({ id }) {
        retries.delete(id);
      },
    },
  };
}

/** An API key (`svc_live_...`), sent as `Authorization: Bearer <key>`. */
export function apiKeyAuth(key: string): SvcAuth {
  return {
    middleware: {
      onRequest({ request }) {
        request.headers.set('Authorization', `Bearer ${key}`);
        return request;
      },
    },
  };
}

/** The `error.code` of a problem+json answer, read from a copy so the caller still gets the body. */
async function errorCode(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { error?: { code?: unknown } };
    return typeof body.error?.code === 'string' ? body.error.code : undefined;
  } catch {
    return undefined;
  }
}
