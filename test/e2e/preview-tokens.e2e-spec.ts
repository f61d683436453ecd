import { randomUUID } from 'node:crypto';
import type { SvcConfig } from '../../src/config/config.types';
import { PREVIEW_AUDIENCE, PREVIEW_TYP, TokensService } from '../../src/modules/identity/tokens.service';
import { ContentLane } from '../../src/modules/content/entries/content-lane';
import { previewUrl } from '../../src/modules/content/preview/preview.service';
import {
  accessTokenFor,
  bearerFor,
  createUser,
  decodeJwt,
  PASSWORD,
  signIn,
  userWithPermissions,
} from '../utils/auth';
import { createTestApp, type TestApp } from '../utils/test-app';

const api = (path: string) => `/admin/api${path}`;

const CONFIG: SvcConfig = {
  collections: [
    // Open to visitors (published entries only): populated for a preview as for any visitor.
    { slug: 'authors', drafts: true, access: { read: true }, fields: [{ name: 'name', type: 'text' }] },
    // Closed: a visitor never sees these, not even through a preview.
    { slug: 'secrets', fields: [{ name: 'code', type: 'text' }] },
    {
      slug: 'posts',
      drafts: true,
      preview: { url: 'https://site.example/preview/{slug}/{id}?token={token}' },
      fields: [
        { name: 'title', type: 'text', required: true },
        { name: 'author', type: 'relationship', relationTo: 'authors' },
        { name: 'coauthor', type: 'relationship', relationTo: 'authors' },
        { name: 'secret', type: 'relationship', relationTo: 'secrets' },
      ],
    },
    { slug: 'pages', drafts: true, fields: [{ name: 'title', type: 'text' }] },
  ],
  singles: [
    {
      slug: 'homepage',
      drafts: true,
      preview: { url: 'https://site.example/{slug}?id={id}&t={token}' },
      fields: [{ name: 'headline', type: 'text' }],
    },
    { slug: 'footer', drafts: true, fields: [{ name: 'text', type: 'text' }] },
  ],
};

/**
 * Preview tokens: an editor who may read a collection's drafts gets a token naming one entry (or
 * a single); whoever presents it (header `X-Preview-Token` or query `preview`) reads that entry's
 * newest state, with no other credentials, until it expires or its issuer's account stops backing it.
 */
describe('preview tokens', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let editor: Awaited<ReturnType<typeof userWithPermissions>>;
  let editorAuth: Record<string, string>;
  const ids: Record<string, string> = {};

  /** A fresh editor who may read the drafts of posts, pages and both singles. */
  const newEditor = async () => {
    const user = await userWithPermissions(t, ['read-posts', 'read-pages', 'read-homepage', 'read-footer']);
    return { user, auth: await bearerFor(t, user.id) };
  };
  const issue = (path: string, auth: Record<string, string>, body: object = {}) =>
    t.http
      .post(api(`${path}/preview-token`))
      .set(auth)
      .send(body);
  const postToken = async (auth = editorAuth, id = ids.draft, body: object = {}) => {
    const res = await issue(`/collections/posts/entries/${id}`, auth, body);
    expect(res.status).toBe(201);
    return res.body.token as string;
  };
  const readWith = (path: string, token: string) => t.http.get(api(path)).set('X-Preview-Token', token);
  const refused = (res: { status: number; body: { error?: { code?: string } } }) => {
    expect({ status: res.status, code: res.body.error?.code }).toEqual({
      status: 401,
      code: 'AUTH_REQUIRED',
    });
  };

  beforeAll(async () => {
    t = await createTestApp({ config: CONFIG });
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    ({ user: editor, auth: editorAuth } = await newEditor());
    const create = async (slug: string, body: object) =>
      (
        await t.http
          .post(api(`/collections/${slug}/entries`))
          .set(admin)
          .send(body)
          .expect(201)
      ).body.item.id as string;
    ids.author = await create('authors', { name: 'Ann', status: 'published' });
    ids.draftAuthor = await create('authors', { name: 'Unannounced', status: 'draft' });
    ids.secret = await create('secrets', { code: 'xyzzy' });
    ids.draft = await create('posts', {
      title: 'Coming soon',
      status: 'draft',
      author: ids.author,
      coauthor: ids.draftAuthor,
      secret: ids.secret,
    });
    ids.published = await create('posts', { title: 'Out now', status: 'published' });
    ids.page = await create('pages', { title: 'About', status: 'draft' });
    await t.http.patch(api('/singles/homepage')).set(admin).send({ headline: 'Big news' }).expect(200);
  });
  afterAll(() => t.close());

  describe('issuing', () => {
    it('answers 201 { token, expiresAt, url } with a preview JWT of its own kind, never cached', async () => {
      const before = Date.now();
      const res = await issue(`/collections/posts/entries/${ids.draft}`, editorAuth);
      expect(res.status).toBe(201);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(Object.keys(res.body).sort()).toEqual(['expiresAt', 'token', 'url']);
      const { token, expiresAt, url } = res.body as { token: string; expiresAt: string; url: string };
      const { header, payload } = decodeJwt(token);
      expect(header).toMatchObject({ alg: 'HS256', typ: PREVIEW_TYP });
      expect(payload).toMatchObject({
        aud: PREVIEW_AUDIENCE,
        sub: editor.id,
        kind: 'collection',
        slug: 'posts',
        entry: ids.draft,
      });
      // Default lifetime: one hour.
      const expires = new Date(expiresAt).getTime();
      expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 3600_000);
      expect(payload.exp).toBe(expires / 1000);
      expect(url).toBe(`https://site.example/preview/posts/${ids.draft}?token=${encodeURIComponent(token)}`);
    });

    it('fills the preview page URL-encoded, and leaves `url` out for a definition without one', async () => {
      expect(
        previewUrl('https://s.example/p/{slug}/{id}?t={token}&again={token}', {
          slug: 'a b',
          id: 'x/y',
          token: 'a.b+c=&?#',
        }),
      ).toBe('https://s.example/p/a%20b/x%2Fy?t=a.b%2Bc%3D%26%3F%23&again=a.b%2Bc%3D%26%3F%23');
      const res = await issue(`/collections/pages/entries/${ids.page}`, editorAuth).expect(201);
      expect(Object.keys(res.body).sort()).toEqual(['expiresAt', 'token']);
    });

    it('takes expiresInSeconds from 1 to 604800; anything else, or another key, is 400', async () => {
      const path = `/collections/posts/entries/${ids.draft}`;
      const week = await issue(path, editorAuth, { expiresInSeconds: 604800 }).expect(201);
      expect(Math.abs(new Date(week.body.expiresAt).getTime() - Date.now() - 604800_000)).toBeLessThan(5000);
      await issue(path, editorAuth, { expiresInSeconds: 1 }).expect(201);
      for (const body of [
        { expiresInSeconds: 0 },
        { expiresInSeconds: 604801 },
        { expiresInSeconds: -5 },
        { expiresInSeconds: 1.5 },
        { expiresInSeconds: '60' },
        { expiresInSeconds: null },
        { expires: 60 },
      ]) {
        const res = await issue(path, editorAuth, body);
        expect([JSON.stringify(body), res.status, res.body.error?.code]).toEqual([
          JSON.stringify(body),
          400,
          'VALIDATION_ERROR',
        ]);
      }
    });

    it('needs the draft permission: a visitor is 401, a caller without it 403, an API key 403', async () => {
      const path = `/collections/posts/entries/${ids.draft}`;
      refused(await t.http.post(api(`${path}/preview-token`)).send({}));
      // No read access at all (the guard), and read access through an open rule without the
      // draft permission (the service).
      const writer = await bearerFor(t, (await userWithPermissions(t, ['create-posts'])).id);
      expect((await issue(path, writer)).body.error.code).toBe('FORBIDDEN');
      const plain = await bearerFor(t, (await createUser(t)).id);
      const openRead = await issue(`/collections/authors/entries/${ids.author}`, plain);
      expect([openRead.status, openRead.body.error.code]).toEqual([403, 'FORBIDDEN']);
      refused(await t.http.post(api(`/collections/authors/entries/${ids.author}/preview-token`)).send({}));
      // API keys: even a full-access key of a super-admin.
      const owner = await createUser(t, { roles: ['super-admin'] });
      const session = await signIn(t, owner);
      const key = await session.browser.post('/api-keys', { name: 'p', type: 'full-access' }).expect(201);
      const byKey = await issue(path, { Authorization: `Bearer ${key.body.key}` });
      expect([byKey.status, byKey.body.error.code]).toEqual([403, 'FORBIDDEN']);
    });

    it('works from a browser session as from a Bearer token; not from a foreign page', async () => {
      const session = await signIn(t, { email: editor.email, password: PASSWORD });
      const res = await session.browser.post(`/collections/posts/entries/${ids.draft}/preview-token`, {});
      expect(res.status).toBe(201);
      // From a foreign page the cookie write is refused, as every other cookie write is.
      const foreign = await session.browser.agent
        .post(api(`/collections/posts/entries/${ids.draft}/preview-token`))
        .set('Origin', 'https://evil.example')
        .send({});
      expect([foreign.status, foreign.body.error.code]).toEqual([403, 'CSRF_FAILED']);
    });

    it('is 404 for an entry or a collection that does not exist', async () => {
      const missing = await issue(`/collections/posts/entries/${randomUUID()}`, editorAuth);
      expect([missing.status, missing.body.error.code]).toEqual([404, 'NOT_FOUND']);
      expect((await issue('/collections/posts/entries/not-an-id', editorAuth)).status).toBe(404);
      expect((await issue(`/collections/nothing/entries/${ids.draft}`, editorAuth)).status).toBe(404);
    });
  });

  describe('reading with a token', () => {
    it("shows a visitor the draft's fields, with related entries only as a visitor sees them", async () => {
      const token = await postToken();
      // Without the token the draft is not there for a visitor.
      refused(await t.http.get(api(`/collections/posts/entries/${ids.draft}`)));
      for (const res of [
        await readWith(`/collections/posts/entries/${ids.draft}?depth=1`, token),
        await t.http.get(api(`/collections/posts/entries/${ids.draft}?depth=1&preview=${token}`)),
      ]) {
        expect(res.status).toBe(200);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.body).toMatchObject({ id: ids.draft, title: 'Coming soon', status: 'draft' });
        // A published author of an open collection is populated; a draft one and a closed
        // collection's entry stay ids.
        expect(res.body.author).toMatchObject({ id: ids.author, name: 'Ann' });
        expect(res.body.coauthor).toBe(ids.draftAuthor);
        expect(res.body.secret).toBe(ids.secret);
      }
      // The newest state: a later edit shows at once.
      await t.http
        .patch(api(`/collections/posts/entries/${ids.draft}`))
        .set(admin)
        .send({ title: 'Coming sooner' })
        .expect(200);
      expect((await readWith(`/collections/posts/entries/${ids.draft}`, token).expect(200)).body.title).toBe(
        'Coming sooner',
      );
      // Query parameters still apply; `status` may still be named.
      const selected = await readWith(`/collections/posts/entries/${ids.draft}?select=title`, token).expect(
        200,
      );
      expect(selected.body.author).toBeUndefined();
      await readWith(`/collections/posts/entries/${ids.draft}?status=published`, token).expect(404);
    });

    it('reads a published entry too, and answers signed-in callers the same preview', async () => {
      const token = await postToken(editorAuth, ids.published);
      await readWith(`/collections/posts/entries/${ids.published}`, token).expect(200);
      const draftToken = await postToken();
      const plain = await bearerFor(t, (await createUser(t)).id);
      const res = await readWith(`/collections/posts/entries/${ids.draft}?depth=1`, draftToken).set(plain);
      expect(res.status).toBe(200);
      expect(res.body.coauthor).toBe(ids.draftAuthor);
    });

    it('refuses it for another entry, another collection, a list or a count', async () => {
      const token = await postToken();
      refused(await readWith(`/collections/posts/entries/${ids.published}`, token));
      refused(await readWith(`/collections/posts/entries/${randomUUID()}`, token));
      refused(await readWith(`/collections/pages/entries/${ids.page}`, token));
      refused(await readWith(`/collections/pages/entries/${ids.draft}`, token));
      refused(await readWith('/singles/homepage', token));
      // Lists and counts take no token: the header is not a credential there, the query is unknown.
      refused(await readWith('/collections/posts/entries', token));
      refused(await readWith('/collections/posts/entries/count', token));
      const listed = await t.http.get(api(`/collections/posts/entries?preview=${token}`)).set(admin);
      expect([listed.status, listed.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
      // A garbled token, two different tokens, a repeated query value.
      refused(await readWith(`/collections/posts/entries/${ids.draft}`, `${token}x`));
      refused(await readWith(`/collections/posts/entries/${ids.draft}`, ''));
      const other = await postToken(editorAuth, ids.draft, { expiresInSeconds: 120 });
      refused(await readWith(`/collections/posts/entries/${ids.draft}?preview=${other}`, token));
      refused(
        await t.http.get(api(`/collections/posts/entries/${ids.draft}?preview=${token}&preview=${token}`)),
      );
    });

    it('never takes a preview token as a session: not as Bearer, not as the session cookie', async () => {
      const token = await postToken();
      const asBearer = { Authorization: `Bearer ${token}` };
      refused(await t.http.get(api(`/collections/posts/entries/${ids.draft}`)).set(asBearer));
      refused(await t.http.get(api('/me')).set(asBearer));
      refused(await t.http.get(api('/collections/authors/entries')).set(asBearer));
      const asCookie = { Cookie: `svc_session=${token}` };
      refused(await t.http.get(api(`/collections/posts/entries/${ids.draft}`)).set(asCookie));
      refused(await t.http.get(api('/me')).set(asCookie));
      // ...nor as a preview token while presenting it as Bearer as well.
      refused(await readWith(`/collections/posts/entries/${ids.draft}`, token).set(asBearer));
    });

    it('refuses other kinds of token presented as a preview token: an access token, a pending token', async () => {
      const access = await accessTokenFor(t, editor.id);
      refused(await readWith(`/collections/posts/entries/${ids.draft}`, access));
      refused(await t.http.get(api(`/collections/posts/entries/${ids.draft}?preview=${access}`)));
      const pending = t.app
        .get(TokensService)
        .signPending(editor.id, randomUUID(), new Date(Date.now() + 60_000));
      refused(await readWith(`/collections/posts/entries/${ids.draft}`, pending));
    });

    it('refuses an expired token', async () => {
      const tokens = t.app.get(TokensService);
      const ver = (await t.db.query(`SELECT ver FROM users WHERE id = $1`, [editor.id]))[0].ver as number;
      const claims = { sub: editor.id, ver, kind: 'collection' as const, slug: 'posts', entry: ids.draft };
      const live = tokens.signPreview({ ...claims, exp: Math.floor(Date.now() / 1000) + 60 });
      await readWith(`/collections/posts/entries/${ids.draft}`, live).expect(200);
      const past = tokens.signPreview({ ...claims, exp: Math.floor(Date.now() / 1000) - 1 });
      refused(await readWith(`/collections/posts/entries/${ids.draft}`, past));
      // One that expires by itself.
      const short = await postToken(editorAuth, ids.draft, { expiresInSeconds: 1 });
      await new Promise((r) => setTimeout(r, 2100));
      refused(await readWith(`/collections/posts/entries/${ids.draft}`, short));
    });

    it('keeps query values named preview out of the log', async () => {
      const token = await postToken();
      await t.http
        .get(api(`/collections/posts/entries/${ids.draft}?preview=${token}`))
        .set('X-Request-Id', 'preview-log-1')
        .expect(200);
      await t.http
        .get(api(`/collections/posts/entries/${ids.published}?preview=${token}`))
        .set('X-Request-Id', 'preview-log-2')
        .expect(401);
      await readWith(`/collections/posts/entries/${ids.draft}`, token)
        .set('X-Request-Id', 'preview-log-3')
        .expect(200);
      const lines = t.logs.records().filter((r) => String(r.reqId).startsWith('preview-log-'));
      expect(lines.map((l) => l.reqId).sort()).toEqual(['preview-log-1', 'preview-log-2', 'preview-log-3']);
      expect(lines.find((l) => l.reqId === 'preview-log-1')!.path).toBe(
        api(`/collections/posts/entries/${ids.draft}?preview=[redacted]`),
      );
      expect(t.logs.text()).not.toContain(token);
      expect(t.logs.text()).not.toContain(token.split('.')[2]);
    });

    it('answers the same through the content read lane as through Nest', async () => {
      const served = jest.spyOn(ContentLane.prototype as never, 'serve');
      try {
        const token = await postToken();
        const cases: Array<[string, Record<string, string>]> = [
          [`/collections/posts/entries/${ids.draft}?depth=1`, { 'X-Preview-Token': token }],
          [`/collections/posts/entries/${ids.draft}?preview=${token}&select=title`, {}],
          [`/collections/posts/entries/${ids.draft}?preview=${token}`, admin],
          [`/collections/posts/entries/${ids.published}`, { 'X-Preview-Token': token }],
          [`/collections/posts/entries/${ids.draft}`, { 'X-Preview-Token': 'nope' }],
          [`/collections/posts/entries/${ids.draft}`, { Authorization: `Bearer ${token}` }],
        ];
        const PER_REQUEST = new Set(['date', 'x-request-id', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
        const comparable = (res: { status: number; body: unknown; headers: Record<string, unknown> }) => ({
          status: res.status,
          headers: Object.fromEntries(Object.entries(res.headers).filter(([k]) => !PER_REQUEST.has(k))),
          body: { ...(res.body as object), error: undefined },
        });
        for (const [path, headers] of cases) {
          const before = served.mock.calls.length;
          const lane = await t.http.get(api(path)).set(headers);
          expect(served.mock.calls.length).toBe(before + 1);
          const nest = await t.http.get(api(path)).set(headers).set('Content-Length', '0');
          expect(served.mock.calls.length).toBe(before + 1);
          expect({ path, ...comparable(lane) }).toEqual({ path, ...comparable(nest) });
        }
      } finally {
        served.mockRestore();
      }
    });
  });

  describe("the issuer's account", () => {
    it('a password change ends every token its owner issued before it', async () => {
      const { user, auth } = await newEditor();
      const token = await postToken(auth);
      await readWith(`/collections/posts/entries/${ids.draft}`, token).expect(200);
      const session = await signIn(t, user);
      await session.browser
        .patch('/auth/change-password', { currentPassword: user.password, newPassword: 'Brand-New-Pass-9' })
        .expect(200);
      refused(await readWith(`/collections/posts/entries/${ids.draft}`, token));
      // An administrator's password write too.
      const { user: other, auth: otherAuth } = await newEditor();
      const second = await postToken(otherAuth);
      await t.http
        .patch(api(`/users/${other.id}/password`))
        .set(admin)
        .send({ password: 'Brand-New-Pass-8' })
        .expect(200);
      refused(await readWith(`/collections/posts/entries/${ids.draft}`, second));
    });

    it('a deactivation ends them for good: a reactivation does not revive them', async () => {
      const { user, auth } = await newEditor();
      const token = await postToken(auth);
      await readWith(`/collections/posts/entries/${ids.draft}`, token).expect(200);
      await t.http
        .patch(api(`/users/${user.id}`))
        .set(admin)
        .send({ isActive: false })
        .expect(200);
      refused(await readWith(`/collections/posts/entries/${ids.draft}`, token));
      await t.http
        .patch(api(`/users/${user.id}`))
        .set(admin)
        .send({ isActive: true })
        .expect(200);
      refused(await readWith(`/collections/posts/entries/${ids.draft}`, token));
      // The reactivated user can issue new ones.
      const fresh = await postToken(await bearerFor(t, user.id));
      await readWith(`/collections/posts/entries/${ids.draft}`, fresh).expect(200);
    });

    it('a token dies when its issuer no longer may read the drafts', async () => {
      const { user, auth } = await newEditor();
      const token = await postToken(auth);
      await readWith(`/collections/posts/entries/${ids.draft}`, token).expect(200);
      await t.http
        .delete(api(`/users/${user.id}/roles/${user.roleId}`))
        .set(admin)
        .expect(200);
      refused(await readWith(`/collections/posts/entries/${ids.draft}`, token));
    });

    it('another instance refuses the token within 10 s of a deactivation', async () => {
      const other = await createTestApp({ config: CONFIG, database: t.database });
      try {
        const { user, auth } = await newEditor();
        const token = await postToken(auth);
        const read = () =>
          other.http.get(api(`/collections/posts/entries/${ids.draft}`)).set('X-Preview-Token', token);
        // The other instance has the account cached now.
        await read().expect(200);
        const since = Date.now();
        await t.http
          .patch(api(`/users/${user.id}`))
          .set(admin)
          .send({ isActive: false })
          .expect(200);
        refused(await readWith(`/collections/posts/entries/${ids.draft}`, token));
        let status = 200;
        while (status === 200 && Date.now() - since < 10_000) {
          status = (await read()).status;
          if (status === 200) {
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        expect(status).toBe(401);
        expect(Date.now() - since).toBeLessThan(10_000);
      } finally {
        await other.close();
      }
    }, 30_000);
  });

  describe('singles', () => {
    it("issues a token for a single and shows a visitor its draft, with the single's preview page", async () => {
      const res = await issue('/singles/homepage', editorAuth, { expiresInSeconds: 600 }).expect(201);
      const { token, url } = res.body as { token: string; url: string };
      const singleId = decodeJwt(token).payload.entry as string;
      expect(decodeJwt(token).payload).toMatchObject({ kind: 'single', slug: 'homepage' });
      expect(url).toBe(
        `https://site.example/homepage?id=${encodeURIComponent(singleId)}&t=${encodeURIComponent(token)}`,
      );
      refused(await t.http.get(api('/singles/homepage')));
      const read = await readWith('/singles/homepage', token).expect(200);
      expect(read.headers['cache-control']).toBe('no-store');
      expect(read.body).toMatchObject({ id: singleId, headline: 'Big news', status: 'draft' });
      await t.http.get(api(`/singles/homepage?preview=${token}`)).expect(200);
      // Not for another single, nor for a collection entry.
      refused(await readWith('/singles/footer', token));
      refused(await readWith(`/collections/posts/entries/${singleId}`, token));
    });

    it('refuses visitors (401) and callers without drafts (403); a single not saved yet reads empty', async () => {
      const footer = await issue('/singles/footer', editorAuth).expect(201);
      expect(footer.body.url).toBeUndefined();
      const empty = await readWith('/singles/footer', footer.body.token).expect(200);
      expect(empty.body).toMatchObject({ status: 'draft', text: null });
      refused(await readWith('/singles/homepage', footer.body.token));
      refused(await t.http.post(api('/singles/homepage/preview-token')).send({}));
      const plain = await bearerFor(t, (await createUser(t)).id);
      expect((await issue('/singles/homepage', plain)).status).toBe(403);
      expect((await issue('/singles/homepage', editorAuth, { expiresInSeconds: 0 })).status).toBe(400);
    });
  });
});
