/**
 * Type-level checks of `svc/client`, run by tsc (`npm run typecheck`); nothing here executes.
 * What a client may write compiles; what the service would refuse is marked `@ts-expect-error`,
 * so a type that turned loose (`unknown`, `any`, a missing `required`) fails the check.
 */
import { apiKeyAuth, bearerAuth, cookieAuth, createClient, type Where } from '../../src/client';
import type { paths } from './workflow-api';

const baseUrl = 'https://cms.example.com';

export async function serviceRoutes(): Promise<void> {
  const api = createClient({ baseUrl, auth: cookieAuth() });
  const users = await api.GET('/admin/api/users', { params: { query: { page: 2, search: 'ada' } } });
  const emails: string[] | undefined = users.data?.items?.map((u) => u.email);
  void emails;

  await api.POST('/admin/api/api-keys', { body: { name: 'reader', type: 'read-only' } });
  // @ts-expect-error a key type the service does not have
  await api.POST('/admin/api/api-keys', { body: { name: 'reader', type: 'admin' } });
  // @ts-expect-error not a route of the service
  await api.GET('/admin/api/nowhere');
  // @ts-expect-error a page is a number
  await api.GET('/admin/api/users', { params: { query: { page: 'two' } } });
}

export async function signIn(): Promise<string | undefined> {
  const api = createClient({ baseUrl, auth: cookieAuth() });
  // @ts-expect-error the password is required
  await api.POST('/admin/api/auth/login', { body: { email: 'ada@example.com' } });
  const { data } = await api.POST('/admin/api/auth/login', {
    body: { email: 'ada@example.com', password: 'Correct-Horse-9' },
  });
  // The answer is a session or a second step: `in` tells them apart, no cast.
  return data && 'token' in data ? data.token : undefined;
}

export function authentications(): void {
  createClient({ baseUrl, auth: apiKeyAuth('svc_live_...') });
  createClient({ baseUrl, auth: bearerAuth(() => localToken) });
  createClient({ baseUrl, auth: bearerAuth('token', { refresh: () => Promise.resolve('new token') }) });
  // @ts-expect-error the refresh hook answers a token (or undefined), asynchronously
  createClient({ baseUrl, auth: bearerAuth('token', { refresh: () => 'new token' }) });
}
let localToken: string | undefined;

export const filter: Where = {
  or: [
    { title: { equals: 'Hello' } },
    { and: [{ views: { greater_than: 10 } }, { kind: { in: ['blog'] } }] },
  ],
};

/** A service's own types (`npm run typegen`): each collection's operations and fields. */
export async function collectionRoutes(): Promise<void> {
  const api = createClient<paths>({ baseUrl, auth: cookieAuth() });
  const created = await api.POST('/admin/api/collections/posts/entries', {
    body: { title: 'Hello', views: 1, kind: 'news' },
  });
  const title: string | null | undefined = created.data?.item.title;
  void title;
  // @ts-expect-error title is required
  await api.POST('/admin/api/collections/posts/entries', { body: { views: 1 } });
  // @ts-expect-error a required field is refused as null
  await api.POST('/admin/api/collections/posts/entries', { body: { title: null } });
  // @ts-expect-error kind is news or blog
  await api.POST('/admin/api/collections/posts/entries', { body: { title: 'Hello', kind: 'essay' } });
  await api.PATCH('/admin/api/collections/posts/entries/{id}', {
    params: { path: { id: 'x' } },
    // @ts-expect-error views is a number
    body: { views: '1' },
  });
  await api.GET('/admin/api/collections/posts/entries', {
    params: { query: { where: { or: [{ title: { like: 'Hel%' } }, { views: { less_than: 5 } }] } } },
  });
  await api.GET('/admin/api/collections/posts/entries', {
    // @ts-expect-error posts have no field named author
    params: { query: { where: { author: { equals: 'x' } } } },
  });
  await api.GET('/admin/api/collections/posts/entries', {
    // @ts-expect-error a number takes no text pattern
    params: { query: { where: { views: { like: '1%' } } } },
  });
}
