import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiKeyAuth, bearerAuth, cookieAuth, createClient, serializeQuery } from '../../src/client';
import { OpenApiService } from '../../src/modules/openapi/openapi.service';
import type { components, paths } from '../types/workflow-api';
import { checkResponse } from '../utils/openapi-check';
import { createTestApp, type TestApp } from '../utils/test-app';

/**
 * The README's workflow through `svc/client`, typed by `npm run typegen` against this running
 * service: sign in with cookies and CSRF, create, list with a nested filter, update, delete,
 * create an API key and use it. tsc checks this file (no casts): the committed types in
 * test/types/workflow-api.ts must equal what typegen writes now, so they are the service's own.
 */

const ROOT = join(__dirname, '..', '..');
const TYPES = join(ROOT, 'test', 'types', 'workflow-api.ts');
const PASSWORD = 'Correct-Horse-9';

type Fetch = (req: Request) => Promise<Response>;

/** Node's fetch keeps no cookies: this one keeps them for the one site, as a browser would. */
function browserFetch(send: Fetch): { fetch: Fetch; jar: Map<string, string> } {
  const jar = new Map<string, string>();
  const fetchWithCookies = async (req: Request): Promise<Response> => {
    if (jar.size) {
      req.headers.set('Cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    const res = await send(req);
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      const expired = attributes.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (expired || !value) {
        jar.delete(name.trim());
      } else {
        jar.set(name.trim(), value);
      }
    }
    return res;
  };
  return { fetch: fetchWithCookies, jar };
}

/** The first line where two texts differ, with both versions (a whole-file diff is unreadable). */
function firstDifference(committed: string, current: string): string | undefined {
  const [a, b] = [committed.split('\n'), current.split('\n')];
  const line = a.findIndex((text, i) => text !== b[i]);
  if (line === -1 && a.length === b.length) {
    return undefined;
  }
  const at = line === -1 ? a.length : line;
  return `test/types/workflow-api.ts line ${at + 1} is\n  ${a[at] ?? '(end)'}\nwhere typegen now writes\n  ${b[at] ?? '(end)'}`;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function node(args: string[], input?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      args,
      { cwd: ROOT, env: { ...process.env, JITI_FS_CACHE: 'false' }, timeout: 60_000, maxBuffer: 1 << 26 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end(input ?? '');
  });
}

/** `npm run typegen -- <args>`, from the sources. */
const typegen = (args: string[]) =>
  node([
    join(ROOT, 'node_modules', 'jiti', 'lib', 'jiti-cli.mjs'),
    join(ROOT, 'src', 'cli', 'typegen.ts'),
    ...args,
  ]);

/** Prettier as the repository formats the committed file (its API cannot load inside jest). */
const formatted = (text: string) =>
  node([join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--stdin-filepath', TYPES], text);

describe('svc/client: the workflow of a client application', () => {
  let t: TestApp;
  let baseUrl: string;
  let dir: string;
  /** Answers that do not match the service's OpenAPI document (as the supertest-based tests check). */
  const problems: string[] = [];

  /** fetch, each answer checked against the document. */
  const checkedFetch: Fetch = async (req) => {
    const method = req.method;
    const res = await fetch(req);
    const url = new URL(res.url);
    const text = await res.clone().text();
    const body: unknown =
      /json/.test(res.headers.get('content-type') ?? '') && text ? JSON.parse(text) : text;
    const doc = await t.app.get(OpenApiService, { strict: false }).document();
    const headers = Object.fromEntries(res.headers);
    problems.push(
      ...checkResponse(doc, method, url.pathname + url.search, { status: res.status, headers, body, text }),
    );
    return res;
  };

  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'posts',
            fields: [
              { name: 'title', type: 'text', required: true },
              { name: 'views', type: 'number' },
              { name: 'kind', type: 'select', options: ['news', 'blog'] },
            ],
          },
        ],
      },
    });
    await t.app.listen(0, '127.0.0.1');
    const server: Server = t.app.getHttpServer();
    const address = server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    dir = await mkdtemp(join(tmpdir(), 'svc-typegen-'));
  });

  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends query objects as JSON text and arrays as repeated keys', () => {
    const query = {
      where: { or: [{ title: { equals: 'a&b' } }] },
      sort: ['title', '-views'],
      page: 2,
      depth: undefined,
    };
    expect(serializeQuery(query)).toBe(
      `where=${encodeURIComponent('{"or":[{"title":{"equals":"a&b"}}]}')}&sort=title&sort=-views&page=2`,
    );
  });

  it('typegen writes the running service’s types, the committed ones', async () => {
    const out = join(dir, 'nested', 'api.ts');
    const run = await typegen(['--url', baseUrl, '--out', out]);
    expect(run).toMatchObject({ code: 0, stdout: `wrote ${out}\n`, stderr: '' });
    const written = await readFile(out, 'utf8');
    expect(written).toContain('"/admin/api/collections/posts/entries"');
    const types = await formatted(written);
    expect(types.code).toBe(0);
    if (process.env.UPDATE_CLIENT_TYPES === '1') {
      await writeFile(TYPES, types.stdout);
    }
    // When the document changed on purpose: UPDATE_CLIENT_TYPES=1 npx jest <this file>.
    const committed = await readFile(TYPES, 'utf8').catch(() => '');
    expect(firstDifference(committed, types.stdout)).toBeUndefined();
  }, 60_000);

  it('typegen says what went wrong and exits 1', async () => {
    const unreachable = await typegen(['--url', 'http://127.0.0.1:9', '--out', join(dir, 'x.ts')]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr).toMatch(
      /^Could not reach http:\/\/127\.0\.0\.1:9\/admin\/api\/openapi\.json: /,
    );
    const missing = await typegen(['--url', baseUrl]);
    expect(missing).toMatchObject({
      code: 1,
      stderr: 'Give --out and one of --url or --file (see --help)\n',
    });
    const help = await typegen(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run typegen -- --url <service address> --out <file>/);
  }, 60_000);

  it('signs in with cookies and CSRF, then creates, lists with a nested filter, updates and deletes', async () => {
    const browser = browserFetch(checkedFetch);
    const api = createClient<paths>({ baseUrl, auth: cookieAuth(), fetch: browser.fetch });

    const setup = await api.POST('/admin/api/auth/setup', {
      body: { email: 'ada@example.com', name: 'Ada', password: PASSWORD },
    });
    expect(setup.response.status).toBe(201);
    expect(browser.jar.has('svc_csrf')).toBe(true);
    expect((await api.POST('/admin/api/auth/logout')).response.status).toBe(200);
    expect(browser.jar.has('svc_session')).toBe(false);

    const login = await api.POST('/admin/api/auth/login', {
      body: { email: 'ada@example.com', password: PASSWORD },
    });
    expect(login.response.status).toBe(200);
    expect(browser.jar.has('svc_session')).toBe(true);
    expect(login.data && 'user' in login.data ? login.data.user.email : login.error).toBe('ada@example.com');
    const session = await api.GET('/admin/api/auth/session');
    expect(session.data?.user.name).toBe('Ada');

    const posts = '/admin/api/collections/posts/entries';
    const ids: Record<string, string> = {};
    const bodies: Array<components['schemas']['PostsEntryInput']> = [
      { title: 'Hello', views: 3, kind: 'news' },
      { title: 'Deep dive', views: 40, kind: 'blog' },
      { title: 'Short note', views: 2, kind: 'blog' },
    ];
    for (const body of bodies) {
      const created = await api.POST(posts, { body });
      expect(created.response.status).toBe(201);
      expect(created.data?.item).toMatchObject(body);
      ids[body.title ?? ''] = created.data?.item.id ?? '';
    }

    const list = await api.GET(posts, {
      params: {
        query: {
          where: {
            or: [
              { title: { equals: 'Hello' } },
              { and: [{ kind: { equals: 'blog' } }, { views: { greater_than: 10 } }] },
            ],
          },
          sort: 'title',
        },
      },
    });
    expect(list.response.status).toBe(200);
    expect(list.data?.items.map((p) => p.title)).toEqual(['Deep dive', 'Hello']);

    const updated = await api.PATCH(`${posts}/{id}`, {
      params: { path: { id: ids['Hello'] } },
      body: { views: 4 },
    });
    expect(updated.data?.item).toMatchObject({ title: 'Hello', views: 4 });

    const deleted = await api.DELETE(`${posts}/{id}`, { params: { path: { id: ids['Short note'] } } });
    expect(deleted.response.ok).toBe(true);
    const gone = await api.GET(`${posts}/{id}`, { params: { path: { id: ids['Short note'] } } });
    expect(gone.response.status).toBe(404);
    expect(gone.error?.error.code).toBe('NOT_FOUND');

    // A stale CSRF token (the cookie changed): the client fetches a new one and retries once.
    browser.jar.set('svc_csrf', 'stale');
    const logout = await api.POST('/admin/api/auth/logout');
    expect(logout.response.status).toBe(200);
    expect(browser.jar.get('svc_csrf')).not.toBe('stale');
  });

  it('creates an API key and reads with it; a Bearer access token refreshes through its hook', async () => {
    const browser = browserFetch(checkedFetch);
    const api = createClient<paths>({ baseUrl, auth: cookieAuth(), fetch: browser.fetch });
    const login = await api.POST('/admin/api/auth/login', {
      body: { email: 'ada@example.com', password: PASSWORD },
    });
    const token = login.data && 'token' in login.data ? login.data.token : '';

    const created = await api.POST('/admin/api/api-keys', { body: { name: 'reader', type: 'read-only' } });
    expect(created.response.status).toBe(201);
    expect(created.data?.key).toMatch(/^svc_live_/);
    const reader = createClient<paths>({
      baseUrl,
      auth: apiKeyAuth(created.data?.key ?? ''),
      fetch: checkedFetch,
    });
    const list = await reader.GET('/admin/api/collections/posts/entries', {
      params: { query: { where: { views: { greater_than: 3 } }, sort: '-views' } },
    });
    expect(list.data?.items.map((p) => p.title)).toEqual(['Deep dive', 'Hello']);
    const refused = await reader.POST('/admin/api/collections/posts/entries', { body: { title: 'No' } });
    expect(refused.response.status).toBe(403);
    expect(refused.error?.error.code).toBe('FORBIDDEN');

    let refreshed = 0;
    const bearer = createClient<paths>({
      baseUrl,
      fetch: checkedFetch,
      auth: bearerAuth('expired-or-wrong', {
        refresh: () => {
          refreshed++;
          return Promise.resolve(token);
        },
      }),
    });
    const me = await bearer.GET('/admin/api/me');
    expect(me.data?.email).toBe('ada@example.com');
    expect(refreshed).toBe(1);
    expect((await bearer.GET('/admin/api/me')).response.status).toBe(200);
    expect(refreshed).toBe(1);
  });
});
