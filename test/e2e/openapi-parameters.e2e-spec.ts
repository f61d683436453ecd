import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import createClient from 'openapi-fetch';
import type TestAgent from 'supertest/lib/agent';
import type { SvcConfig } from '../../src/config/config.types';
import type { OpenApiDocument } from '../../src/modules/openapi/openapi-document';
import { bearerFor, createUser, signIn } from '../utils/auth';
import { createTestApp, type TestApp } from '../utils/test-app';

const API = '/admin/api';

const CONFIG: SvcConfig = {
  collections: [
    {
      slug: 'notes',
      drafts: true,
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'views', type: 'number' },
      ],
    },
    { slug: 'plain-posts', fields: [{ name: 'title', type: 'text', required: true }] },
  ],
  singles: [{ slug: 'site-settings', drafts: true, fields: [{ name: 'name', type: 'text' }] }],
};

type Param = { name: string; in: string; schema?: Record<string, unknown>; content?: unknown };

/** A filter every collection takes, nested (`or` of two conditions on system fields). */
const WHERE = { or: [{ createdAt: { exists: true } }, { id: { in: [randomUUID()] } }] };

/** A valid value of a declared query parameter, from its schema (and its name where the schema is open). */
function sample(p: Param): string {
  if (p.content) {
    return JSON.stringify(WHERE);
  }
  const s = p.schema ?? {};
  if (Array.isArray(s.enum)) {
    return String(s.enum.find((v) => v !== s.default) ?? s.enum[0]);
  }
  if (s.type === 'integer') {
    return String(s.minimum ?? 1);
  }
  if (s.format === 'uuid') {
    return randomUUID();
  }
  const byName: Record<string, string> = {
    select: 'createdAt',
    sort: '-createdAt',
    event: 'login-failed',
    from: '2024-01-01',
    to: '2024-12-31T23:59:59Z',
  };
  return byName[p.name] ?? 'a';
}

/** The path with its parameters filled in: a slug the route knows (with drafts), a fresh id. */
function concrete(path: string, params: Param[]): string {
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const p = params.find((x) => x.in === 'path' && x.name === name);
    const values = (p?.schema?.enum ?? []) as string[];
    if (name === 'slug') {
      return values.find((v) => v === 'notes' || v === 'site-settings') ?? values[0] ?? 'notes';
    }
    return name === 'filename' || name === 'size' ? 'file.png' : randomUUID();
  });
}

const query = (params: Record<string, string>): string => new URLSearchParams(params).toString();

/**
 * Parameter parity: every query parameter the document declares on a GET operation is accepted
 * by its route (a valid value is never a 400), and a route that refuses unknown parameters
 * refuses every parameter name it does not declare.
 */
describe('OpenAPI: declared query parameters and what the routes accept', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let agent: TestAgent;
  let gets: Array<{ path: string; url: string; params: Param[]; declared: string[] }>;

  beforeAll(async () => {
    t = await createTestApp({ config: CONFIG });
    doc = (await t.http.get(`${API}/openapi.json`).expect(200)).body as OpenApiDocument;
    const admin = await createUser(t, { roles: ['super-admin'] });
    // A browser session: the cookie-only routes (dashboard, journal, API keys) answer it too.
    agent = (await signIn(t, admin)).browser.agent;
    gets = Object.entries(doc.paths)
      .filter(([, ops]) => ops.get)
      .map(([path, ops]) => {
        const params = (ops.get.parameters ?? []) as Param[];
        return {
          path,
          url: concrete(path, params),
          params,
          declared: params.filter((p) => p.in === 'query').map((p) => p.name),
        };
      });
  });
  afterAll(() => t.close());

  it('accepts every declared query parameter with a valid value', async () => {
    const refused: string[] = [];
    for (const { path, url, params } of gets) {
      const base = await agent.get(url);
      expect([path, base.status === 400 ? base.body : 'not 400']).toEqual([path, 'not 400']);
      for (const p of params.filter((x) => x.in === 'query')) {
        const value = sample(p);
        const res = await agent.get(`${url}?${query({ [p.name]: value })}`);
        if (res.status === 400) {
          refused.push(`${path} ${p.name}=${value}: ${JSON.stringify(res.body.error?.data?.errors)}`);
        }
      }
    }
    expect(refused).toEqual([]);
  });

  it('refuses, where a route refuses unknown parameters, every parameter it does not declare', async () => {
    const names = [...new Set(gets.flatMap((g) => g.params.filter((p) => p.in === 'query')))].reduce(
      (all, p) => all.set(p.name, all.get(p.name) ?? p),
      new Map<string, Param>(),
    );
    const accepted: string[] = [];
    const strict: string[] = [];
    for (const { path, url, declared } of gets) {
      const probe = await agent.get(`${url}?${query({ zzUnknown: '1' })}`);
      if (probe.status !== 400) {
        continue; // this route ignores what it does not read
      }
      strict.push(path);
      for (const [name, p] of names) {
        if (declared.includes(name)) {
          continue;
        }
        const res = await agent.get(`${url}?${query({ [name]: sample(p) })}`);
        if (res.status !== 400) {
          accepted.push(`${path} accepts the undeclared ${name} (${res.status})`);
        }
      }
    }
    // The content reads and the definition lists refuse what they do not know.
    expect(strict).toEqual(
      expect.arrayContaining([
        `${API}/collections/{slug}/entries`,
        `${API}/collections/{slug}/entries/{id}`,
        `${API}/collections/{slug}/entries/count`,
        `${API}/collections/notes/entries/count`,
        `${API}/singles/site-settings`,
        `${API}/collections`,
      ]),
    );
    expect(accepted).toEqual([]);
  });

  it('declares `status` only on the operations of collections with drafts', () => {
    const names = (path: string) =>
      (doc.paths[`${API}${path}`].get.parameters ?? []).map((p) => (p as Param).name);
    expect(names('/collections/notes/entries')).toContain('status');
    expect(names('/collections/plain-posts/entries')).not.toContain('status');
  });

  it('takes a JSON `where` the way openapi-fetch sends a content parameter, and the bracket form', async () => {
    const admin = await createUser(t, { roles: ['super-admin'] });
    const auth = await bearerFor(t, admin.id);
    for (const title of ['alpha', 'beta', 'gamma']) {
      await t.http.post(`${API}/collections/plain-posts/entries`).set(auth).send({ title }).expect(201);
    }
    const server = t.app.getHttpServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const client = createClient<Record<string, never>>({
      baseUrl: `http://127.0.0.1:${port}`,
      headers: auth,
    });
    const where = { or: [{ title: { equals: 'alpha' } }, { and: [{ title: { like: 'g%' } }] }] };
    // A content (JSON) parameter is sent as its JSON text: openapi-fetch encodes a string value.
    const { data, response } = await (
      client as unknown as {
        GET(
          path: string,
          init: object,
        ): Promise<{ data?: { items: Array<{ title: string }> }; response: Response }>;
      }
    ).GET(`${API}/collections/plain-posts/entries`, {
      params: { query: { where: JSON.stringify(where), sort: 'title' } },
    });
    expect(response.status).toBe(200);
    expect(response.url).toContain(`where=${encodeURIComponent(JSON.stringify(where))}`);
    expect(data!.items.map((e) => e.title)).toEqual(['alpha', 'gamma']);
    const brackets = await t.http
      .get(
        `${API}/collections/plain-posts/entries?where[or][0][title][equals]=beta&where[or][1][title][equals]=alpha&sort=title`,
      )
      .set(auth)
      .expect(200);
    expect(brackets.body.items.map((e: { title: string }) => e.title)).toEqual(['alpha', 'beta']);
  });
});
