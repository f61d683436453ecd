import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import pg from 'pg';
import { DefinitionRegistry } from '../../src/modules/content/definition-registry';
import type { Definition } from '../../src/modules/content/content.types';
import { EntriesService } from '../../src/modules/content/entries/entries.service';
import { bearerFor, createUser } from '../utils/auth';
import { isJobQueueStatement, statementText } from '../utils/statements';
import { createTestApp, TestApp } from '../utils/test-app';

const api = (path: string) => `/admin/api${path}`;

/**
 * Reads by id asked for in the same turn of the event loop, with the same query, go to
 * PostgreSQL as one statement (EntriesRepository.selectById). Each read still gets exactly the
 * answer it would get alone: its own entry, its own tag, 404 for an id that names nothing, its
 * own copy when two reads ask for one id, and every write finished before it was asked.
 */
describe('content reads by id, batched', () => {
  let t: TestApp;
  let admin: Record<string, string>;
  let def: Definition;
  const ids: string[] = [];
  const titles = new Map<string, string>();

  beforeAll(async () => {
    t = await createTestApp({
      config: {
        collections: [
          {
            slug: 'notes',
            drafts: true,
            access: { read: true },
            fields: [
              { name: 'title', type: 'text' },
              { name: 'meta', type: 'json' },
            ],
          },
        ],
      },
    });
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
    for (let i = 0; i < 8; i++) {
      const res = await t.http
        .post(api('/collections/notes/entries'))
        .set(admin)
        .send({ title: `Note ${i}`, meta: { n: i, tags: ['a'] }, status: i === 7 ? 'draft' : 'published' })
        .expect(201);
      ids.push(res.body.item.id);
      titles.set(res.body.item.id, `Note ${i}`);
    }
    def = (await t.app.get(DefinitionRegistry).find('collection', 'notes'))!;
  });
  afterAll(() => t.close());

  /** The statements on the notes table while `work` runs. */
  async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
    const spy = jest.spyOn(pg.Client.prototype, 'query');
    try {
      await work();
      return spy.mock.calls
        .map((c) => statementText(c[0]))
        .filter((sql) => !isJobQueueStatement(sql) && sql.includes('"c_notes"'));
    } finally {
      spy.mockRestore();
    }
  }

  const visitor = { auth: null, req: {} as Request };

  it('sends the reads of one turn as one statement, each answered its own entry', async () => {
    const service = t.app.get(EntriesService);
    const missing = randomUUID();
    const asked = [...ids.slice(0, 7), ids[2], missing, ids[7]];
    let answers: PromiseSettledResult<Record<string, unknown>>[] = [];
    const statements = await statementsOf(async () => {
      answers = await Promise.allSettled(asked.map((id) => service.get(def, id, {}, visitor)));
    });
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/"id" = ANY\(\$\d+\)/);
    answers.slice(0, 8).forEach((a, i) => {
      expect(a).toMatchObject({ status: 'fulfilled', value: { id: asked[i], title: titles.get(asked[i]) } });
    });
    // The unknown id and the draft (a visitor reads published entries only) are not found.
    for (const a of answers.slice(8)) {
      expect(a).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND' } });
    }
    // Two reads of one id: equal answers, neither shared with the other.
    const [first, second] = [answers[2], answers[7]].map(
      (a) => (a as PromiseFulfilledResult<Record<string, unknown>>).value,
    );
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    expect(second.meta).not.toBe(first.meta);
  });

  it('finds an id asked for in upper case, batched with others', async () => {
    const service = t.app.get(EntriesService);
    const [upper, lower] = await Promise.all([
      service.get(def, ids[4].toUpperCase(), {}, visitor),
      service.get(def, ids[5], {}, visitor),
    ]);
    expect(upper).toMatchObject({ id: ids[4], title: 'Note 4' });
    expect(lower).toMatchObject({ id: ids[5], title: 'Note 5' });
  });

  it('keeps other queries, and more than a hundred reads, to their own statements', async () => {
    const service = t.app.get(EntriesService);
    // 150 different ids (143 of them name nothing) under one query, one more read under another.
    const many = [...ids.slice(0, 7), ...Array.from({ length: 143 }, () => randomUUID())];
    let answers: PromiseSettledResult<unknown>[] = [];
    const statements = await statementsOf(async () => {
      answers = await Promise.allSettled([
        ...many.map((id) => service.get(def, id, {}, visitor)),
        service.get(def, ids[0], { select: 'title' }, visitor),
      ]);
    });
    // At most 100 ids a statement; the `select` read is a query of its own.
    expect(statements).toHaveLength(3);
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(8);
    const selected = (answers[150] as PromiseFulfilledResult<Record<string, unknown>>).value;
    expect(Object.keys(selected).sort()).toEqual(['createdAt', 'id', 'title', 'updatedAt']);
  });

  it('answers concurrent requests as it answers each alone, over HTTP', async () => {
    const alone = new Map<string, { status: number; body: unknown; etag: unknown }>();
    const paths = [
      ...ids.map((id) => `/collections/notes/entries/${id}`),
      `/collections/notes/entries/${randomUUID()}`,
      `/collections/notes/entries/${ids[1]}?select=title`,
      `/collections/notes/entries/${ids[7]}?status=all`,
    ];
    for (const path of paths) {
      const res = await t.http.get(api(path)).set(admin);
      alone.set(path, { status: res.status, body: res.body, etag: res.headers.etag });
    }
    const together = await Promise.all([...paths, ...paths].map((path) => t.http.get(api(path)).set(admin)));
    together.forEach((res, i) => {
      const path = [...paths, ...paths][i];
      const expected = alone.get(path)!;
      expect({ path, status: res.status, etag: res.headers.etag }).toEqual({
        path,
        status: expected.status,
        etag: expected.etag,
      });
      if (res.status === 200) {
        expect(res.body).toEqual(expected.body);
      } else {
        expect(res.body.error.code).toBe((expected.body as { error: { code: string } }).error.code);
      }
    });
  });

  it('reads what a write finished before it was asked, while other reads are under way', async () => {
    const id = ids[3];
    // Sent now (a supertest request goes out when it is awaited or `then` is called).
    const reads = Array.from({ length: 20 }, (_, i) =>
      Promise.resolve(t.http.get(api(`/collections/notes/entries/${ids[i % 7]}`))),
    );
    await t.http
      .patch(api(`/collections/notes/entries/${id}`))
      .set(admin)
      .send({ title: 'Note 3, edited' })
      .expect(200);
    const after = await Promise.all([
      t.http.get(api(`/collections/notes/entries/${id}`)).expect(200),
      t.http.get(api(`/collections/notes/entries/${ids[4]}`)).expect(200),
    ]);
    expect(after[0].body.title).toBe('Note 3, edited');
    expect(after[1].body.title).toBe('Note 4');
    for (const res of await Promise.all(reads)) {
      expect(res.status).toBe(200);
    }
  });
});
