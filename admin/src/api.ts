import { useQuery } from '@tanstack/react-query';
import { cookieAuth, createClient, type components } from '../../src/client';

export type CollectionDefinition = components['schemas']['CollectionDefinition'];
export type SingleDefinition = components['schemas']['SingleDefinition'];
export type ContentField = components['schemas']['ContentField'];
export type ListMeta = components['schemas']['ListMeta'];
export type Issue = components['schemas']['ValidationIssue'];
export type Entry = Record<string, unknown> & {
  id: string;
  status?: string;
  createdAt: string;
  updatedAt: string;
};

/** The service's API as this browser's session: cookies, and the CSRF token on every write. */
export const api = createClient({ baseUrl: window.location.origin, auth: cookieAuth() });

/**
 * Asks the signed-in person for their password (a modal dialog) when the service refuses a
 * sensitive change for an old sign-in; resolves whether they confirmed. Set by the app's layout.
 */
let reauthPrompt: (() => Promise<boolean>) | undefined;
export function setReauthPrompt(prompt: (() => Promise<boolean>) | undefined): void {
  reauthPrompt = prompt;
}

let refreshing: Promise<boolean> | undefined;
/** One refresh at a time: the access cookie has expired, the refresh cookie may still hold. */
function refresh(): Promise<boolean> {
  refreshing ??= api
    .POST('/admin/api/auth/refresh')
    .then((r) => r.response.ok)
    .catch(() => false)
    .finally(() => {
      refreshing = undefined;
    });
  return refreshing;
}

const copies = new Map<string, Request>();
/** The routes that make or check the session itself: never refreshed for, never prompted for. */
const SESSION_ROUTES = /\/admin\/api\/auth\/(login|refresh|reauthenticate|logout|challenge\/|pending|csrf)/;
/**
 * A request refused with `401 AUTH_REQUIRED` (the access cookie expired) is sent again once after a
 * refresh; one refused with `403 REAUTH_REQUIRED` once after the password prompt.
 */
api.use({
  async onRequest({ request, id }) {
    if (SESSION_ROUTES.test(request.url)) {
      return undefined;
    }
    if (!request.body) {
      copies.set(id, request.clone());
      return undefined;
    }
    // Read once for the request and its copy (a clone() would send the body as a stream).
    const body = await request.arrayBuffer();
    copies.set(id, new Request(request, { body }));
    return new Request(request, { body });
  },
  async onResponse({ response, id, options }) {
    const copy = copies.get(id);
    copies.delete(id);
    if (!copy || response.ok) {
      return undefined;
    }
    // Called unbound: as a method of `options`, a browser's fetch throws "Illegal invocation".
    const send = options.fetch;
    const code =
      response.status === 401 || response.status === 403 ? await errorCode(response.clone()) : undefined;
    if (code === 'AUTH_REQUIRED' && (await refresh())) {
      return send(copy);
    }
    if (code === 'REAUTH_REQUIRED' && reauthPrompt && (await reauthPrompt())) {
      return send(copy);
    }
    return undefined;
  },
  onError({ id }) {
    copies.delete(id);
  },
});

async function errorCode(response: Response): Promise<string | undefined> {
  try {
    return ((await response.json()) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

/** A refusal of the API: its status, `error.code`, message and the per-field issues of a 400. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: Issue[] = [],
    /** The problem's `data` (`pendingToken`, `attemptsRemaining`, `retryAfterSeconds`, ...). */
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of an answer, or its problem thrown as an ApiError. */
export async function unwrap<T>(pending: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await pending;
  if (error !== undefined || !response.ok) {
    const problem = (
      error as {
        error?: { code?: string; message?: string; data?: { errors?: Issue[] } & Record<string, unknown> };
      }
    )?.error;
    throw new ApiError(
      response.status,
      problem?.code ?? 'UNKNOWN',
      problem?.message ?? `The service answered ${response.status}`,
      problem?.data?.errors ?? [],
      problem?.data ?? {},
    );
  }
  return data as T;
}

/**
 * Routes whose shape is known only at run time: content routes are per collection
 * (`/collections/{slug}/...`) and plugins' routes (`/plugins/...`) are not in the typed document.
 * The typed client's generic operations, so cookies, CSRF, refresh and the password prompt apply.
 */
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
export function content<T>(
  method: Method,
  path: string,
  init: { query?: object; body?: unknown } = {},
): Promise<T> {
  const loose = api as unknown as Record<
    Method,
    (p: string, o: { params?: { query?: object }; body?: unknown }) => Promise<Answer<T>>
  >;
  return unwrap(loose[method](`/admin/api${path}`, { params: { query: init.query }, body: init.body }));
}

/** Who is signed in, with what they may do. A 401 sends the browser to sign in. */
export function useSession() {
  return useQuery({
    queryKey: ['session'],
    queryFn: async () => {
      const [me, permissions] = await Promise.all([
        unwrap(api.GET('/admin/api/me')),
        unwrap(api.GET('/admin/api/me/permissions')),
      ]);
      return { me, ...permissions };
    },
  });
}

export type Session = NonNullable<ReturnType<typeof useSession>['data']>;

/** Whether the session holds `permission` (a super-admin holds every one; the API still decides). */
export function holds(session: Session, permission: string): boolean {
  return session.isSuperAdmin || session.permissions.includes(permission);
}

/**
 * Whether the session may `action` the collection or single `slug`: open to all unless its access
 * rule is `false` (then the permission decides). The API still decides.
 */
export function may(session: Session, action: string, slug: string, open?: boolean | 'function'): boolean {
  return open !== false || holds(session, `${action}-${slug}`);
}

export function useDefinitions() {
  return useQuery({
    queryKey: ['definitions'],
    queryFn: async () => {
      const [collections, singles] = await Promise.all([
        unwrap(api.GET('/admin/api/collections', { params: { query: { limit: 500 } } })),
        unwrap(api.GET('/admin/api/singles', { params: { query: { limit: 500 } } })),
      ]);
      return { collections: collections.items, singles: singles.items };
    },
    staleTime: 60_000,
  });
}

/** The field groups (the fields of component fields). */
export function useFieldGroups() {
  return useQuery({
    queryKey: ['field-groups'],
    queryFn: async () =>
      (await unwrap(api.GET('/admin/api/field-groups', { params: { query: { limit: 500 } } }))).items,
    staleTime: 60_000,
  });
}
