import { Client } from 'pg';
import { createTestApp, TestApp } from '../utils/test-app';
import { bearerFor, createUser } from '../utils/auth';

/**
 * Schema applies under concurrent entry writes (CONTRACTS 6, DESIGN 9: DDL, definition row and
 * journal row in one transaction under an advisory lock per target; ddlFor takes the table's
 * ACCESS EXCLUSIVE lock first). What a client must be able to rely on:
 * - every 201 is a row, and no refused write (409 CONFLICT "schema changed, retry", or 400 for a
 *   field that changed under it) left one;
 * - the final table is what the last apply says; the journal holds one row per applied change set;
 * - concurrent applies take turns: never a 500, never two "winners" whose changes both landed;
 * - a destructive apply without confirmDestructive changes nothing, writers or not.
 */

const api = (path: string) => `/admin/api${path}`;

interface Field {
  id?: string;
  name: string;
  type: string;
  index?: boolean;
  unique?: boolean;
}

interface Outcome {
  status: number;
  code?: string;
  errors?: Array<{ path: string; code: string }>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SYSTEM_COLUMNS = ['created_at', 'id', 'updated_at'];

describe('content schema apply under concurrent entry writes', () => {
  let t: TestApp;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
  });
  afterAll(() => t.close());

  async function createCollection(slug: string, fields: Field[]): Promise<Field[]> {
    const res = await t.http.post(api('/collections')).set(admin).send({ slug, fields });
    expect(res.status).toBe(201);
    return res.body.item.fields as Field[];
  }

  const apply = (slug: string, fields: Field[], confirmDestructive?: boolean) =>
    t.http
      .post(api(`/collections/schema/${slug}/apply`))
      .set(admin)
      .send(confirmDestructive === undefined ? { fields } : { fields, confirmDestructive });

  async function definitionFields(slug: string): Promise<Field[]> {
    const res = await t.http.get(api(`/collections/${slug}`)).set(admin);
    expect(res.status).toBe(200);
    return res.body.fields as Field[];
  }

  async function columns(table: string): Promise<Record<string, string>> {
    const found: Array<{ column_name: string; data_type: string }> = await t.db.query(
      `SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1`,
      [table],
    );
    return Object.fromEntries(found.map((r) => [r.column_name, r.data_type]));
  }

  async function indexes(table: string): Promise<string[]> {
    const found: Array<{ indexname: string }> = await t.db.query(
      `SELECT indexname FROM pg_indexes WHERE tablename = $1 ORDER BY indexname`,
      [table],
    );
    return found.map((r) => r.indexname);
  }

  const rowCount = async (table: string): Promise<number> =>
    (await t.db.query(`SELECT count(*)::int AS n FROM "${table}"`))[0].n;

  const journalRows = async (slug: string): Promise<number> =>
    (await t.db.query(`SELECT count(*)::int AS n FROM schema_journal WHERE slug = $1`, [slug]))[0].n;

  /**
   * Writers creating entries until `stop()`: each body fills every text/textarea/number field the
   * definition has (as the writer last read it). A 409 CONFLICT or a 400 VALIDATION_ERROR means
   * the schema moved under the write: the writer re-reads the definition and retries. Anything
   * else is recorded as unexpected.
   */
  function startWriters(slug: string, count: number) {
    const created = new Map<string, string>(); // id -> title
    const retried: Outcome[] = [];
    const unexpected: Array<Outcome & { sent: unknown; body: unknown }> = [];
    let stopped = false;
    let seq = 0;
    const waiters: Array<{ target: number; resolve: () => void }> = [];
    const settle = () => {
      for (const w of waiters.filter((x) => stopped || created.size >= x.target)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    };
    const loop = async (w: number) => {
      let fields = await definitionFields(slug);
      let refusedInARow = 0;
      while (!stopped) {
        const n = ++seq;
        const title = `w${w}-${n}`;
        const body: Record<string, unknown> = {};
        for (const f of fields) {
          if (f.type === 'text' || f.type === 'textarea') {
            body[f.name] = f.name === 'title' ? title : `${f.name}-${title}`;
          } else if (f.type === 'number') {
            body[f.name] = n;
          }
        }
        const res = await t.http
          .post(api(`/collections/${slug}/entries`))
          .set(admin)
          .send(body);
        if (res.status === 201) {
          created.set(res.body.item.id, title);
          refusedInARow = 0;
          settle();
          continue;
        }
        const outcome: Outcome = {
          status: res.status,
          code: res.body?.error?.code,
          errors: res.body?.error?.data?.errors,
        };
        const raced =
          (res.status === 409 && outcome.code === 'CONFLICT') ||
          (res.status === 400 &&
            outcome.code === 'VALIDATION_ERROR' &&
            (outcome.errors ?? []).every((e) => e.code === 'unknown_field' || e.code === 'constraint'));
        if (!raced || ++refusedInARow > 100) {
          unexpected.push({ ...outcome, sent: body, body: res.body });
          if (unexpected.length > 20) {
            stopped = true;
            settle();
          }
        } else {
          retried.push(outcome);
        }
        fields = await definitionFields(slug);
      }
    };
    const running = Promise.all(Array.from({ length: count }, (_, w) => loop(w)));
    return {
      created,
      retried,
      unexpected,
      get total() {
        return created.size;
      },
      /**
       * Resolves once the writers have stored `n` more entries (or stopped): the point at which
       * they have demonstrably written under the current schema. Fails after 10 s.
       */
      async progress(n: number) {
        const target = created.size + n;
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => {
            waiters.push({ target, resolve });
            settle();
          }),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`writers stored ${created.size} of ${target} entries within 10 s`)),
              10_000,
            );
          }),
        ]).finally(() => clearTimeout(timer));
      },
      async stop() {
        stopped = true;
        settle();
        await running;
      },
    };
  }

  it('loses no row while fields are added, renamed, retyped, made unique and dropped under 8 writers', async () => {
    let fields = await createCollection('notes', [
      { name: 'title', type: 'text' },
      { name: 'extra', type: 'text' },
    ]);
    const journalBefore = await journalRows('notes');
    const writers = startWriters('notes', 8);
    const steps: Array<(f: Field[]) => { fields: Field[]; confirm?: boolean }> = [
      (f) => ({ fields: [...f, { name: 'views', type: 'number' }] }),
      (f) => ({ fields: [...f, { name: 'code', type: 'text', index: true }] }),
      (f) => ({ fields: f.map((x) => (x.name === 'extra' ? { ...x, name: 'note' } : x)) }),
      (f) => ({ fields: f.map((x) => (x.name === 'note' ? { ...x, type: 'textarea' } : x)) }),
      (f) => ({ fields: [...f, { name: 'slug', type: 'text', unique: true }] }),
      (f) => ({ fields: f.filter((x) => x.name !== 'code'), confirm: true }),
    ];
    try {
      // Each apply lands while the writers are demonstrably writing: 8 more rows before it, and 8
      // under the last schema before they stop.
      for (const step of steps) {
        await writers.progress(8);
        const next = step(fields);
        const res = await apply('notes', next.fields, next.confirm);
        expect(res.status).toBe(200);
        fields = res.body.item.fields as Field[];
      }
      await writers.progress(8);
    } finally {
      await writers.stop();
    }
    expect(writers.unexpected).toEqual([]);
    expect(writers.total).toBeGreaterThan(20);

    // Every 201 is a row, and nothing else is.
    expect(await rowCount('c_notes')).toBe(writers.total);
    const stored: Array<{ id: string; title: string }> = await t.db.query(`SELECT id, title FROM c_notes`);
    expect(new Map(stored.map((r) => [r.id, r.title]))).toEqual(writers.created);
    // The API lists them all too (page by page: fast writers make more than one page of 500).
    const listed = new Set<string>();
    for (let page = 1; ; page++) {
      const list = await t.http
        .get(api(`/collections/notes/entries?limit=500&page=${page}&sort=createdAt`))
        .set(admin)
        .expect(200);
      expect(list.body.meta.total).toBe(writers.total);
      list.body.items.forEach((i: { id: string }) => listed.add(i.id));
      if (!list.body.meta.hasNext) {
        break;
      }
    }
    expect(listed).toEqual(new Set(writers.created.keys()));

    // The table is what the last apply says; one journal row per apply.
    const cols = await columns('c_notes');
    expect(Object.keys(cols).sort()).toEqual([...SYSTEM_COLUMNS, ...fields.map((f) => f.name)].sort());
    expect(fields.map((f) => f.name)).toEqual(['title', 'note', 'views', 'slug']);
    expect(await indexes('c_notes')).toEqual(expect.arrayContaining(['c_notes-slug-key']));
    expect(await indexes('c_notes')).not.toContain('c_notes-code-idx');
    expect(await journalRows('notes')).toBe(journalBefore + steps.length);
    expect(await definitionFields('notes')).toEqual(fields);
  });

  it('refuses a destructive apply without confirmation while writers run, and changes nothing', async () => {
    const fields = await createCollection('memos', [
      { name: 'title', type: 'text' },
      { name: 'body', type: 'textarea' },
    ]);
    const writers = startWriters('memos', 4);
    let before: Record<string, string> = {};
    let journal = 0;
    try {
      await writers.progress(4);
      before = await columns('c_memos');
      journal = await journalRows('memos');
      for (let i = 0; i < 3; i++) {
        const res = await apply(
          'memos',
          fields.filter((f) => f.name !== 'body'),
        );
        expect(res.status).toBe(409);
        expect(res.body.error.code).toBe('CONFLICT');
        await writers.progress(2);
      }
    } finally {
      await writers.stop();
    }
    expect(writers.unexpected).toEqual([]);
    expect(await columns('c_memos')).toEqual(before);
    expect(await journalRows('memos')).toBe(journal);
    expect(await rowCount('c_memos')).toBe(writers.total);
    expect(await definitionFields('memos')).toEqual(fields);
  });

  // One round can pass by luck of the interleaving: 20 rounds (well under 0.5 s each), each on a
  // collection of its own, with exact counts every round.
  it('serialises concurrent applies, 20 rounds: exactly one winner, the others 409, never a 500', async () => {
    for (let round = 1; round <= 20; round++) {
      const slug = `tickets${round}`;
      const fields = await createCollection(slug, [{ name: 'title', type: 'text' }]);
      const journal = await journalRows(slug);
      // Each apply adds its own field to the same starting definition: after the first lands, the
      // others would drop it, a destructive change they did not confirm.
      const names = ['a', 'b', 'c', 'd', 'e', 'f'];
      const results = await Promise.all(
        names.map((n) => apply(slug, [...fields, { name: n, type: 'text' }])),
      );
      expect({ round, statuses: results.map((r) => r.status).sort() }).toEqual({
        round,
        statuses: [200, 409, 409, 409, 409, 409],
      });
      for (const r of results.filter((x) => x.status === 409)) {
        expect(r.body.error.code).toBe('CONFLICT');
      }
      const winner = names[results.findIndex((r) => r.status === 200)];
      expect({ round, columns: Object.keys(await columns(`c_${slug}`)).sort() }).toEqual({
        round,
        columns: [...SYSTEM_COLUMNS, 'title', winner].sort(),
      });
      expect({ round, journal: await journalRows(slug) }).toEqual({ round, journal: journal + 1 });
      expect((await definitionFields(slug)).map((f) => f.name)).toEqual(['title', winner]);
    }
  }, 90_000);

  /**
   * Regression: a relationship write used to reload a stale registry from inside its transaction,
   * needing a second pool connection; with as many such writes in flight as the pool has
   * connections, all of them waited for the pool timeout and answered 500. Writes now bring the
   * registry up to date before their transaction and only peek at it inside.
   *
   * Deterministic reproduction: two relationship fields to two collections; the first target's
   * table is locked, so `poolSize` writes park inside their transactions; the snapshot is then
   * made stale (Date.now moved past the 5 s TTL) and the lock released.
   */
  it('relationship writes inside transactions never wait on a registry reload (no pool starvation)', async () => {
    await createCollection('people', [{ name: 'title', type: 'text' }]);
    await createCollection('editors', [{ name: 'title', type: 'text' }]);
    await createCollection('posts', [
      { name: 'title', type: 'text' },
      { name: 'author', type: 'relationship', relationTo: 'people' } as Field,
      { name: 'editor', type: 'relationship', relationTo: 'editors' } as Field,
    ]);
    const person = await t.http.post(api('/collections/people/entries')).set(admin).send({ title: 'P' });
    const editor = await t.http.post(api('/collections/editors/entries')).set(admin).send({ title: 'E' });
    expect([person.status, editor.status]).toEqual([201, 201]);

    // Outside the app's pool: one connection holds the lock, one watches (inside a transaction
    // pg_stat_activity is a frozen snapshot).
    const locker = new Client({ connectionString: t.database.url });
    const watcher = new Client({ connectionString: t.database.url });
    await locker.connect();
    await watcher.connect();
    const realNow = Date.now.bind(Date);
    const clock = jest.spyOn(Date, 'now');
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE c_people IN ACCESS EXCLUSIVE MODE');
      const poolSize = 5; // createTestApp's pool
      const writes = Array.from({ length: poolSize }, (_, i) =>
        t.http
          .post(api('/collections/posts/entries'))
          .set(admin)
          .send({ title: `p${i}`, author: person.body.item.id, editor: editor.body.item.id })
          .then((r) => ({ status: r.status, code: r.body.error?.code as string | undefined })),
      );
      // Wait until every pool connection is inside a write transaction, blocked on c_people.
      let parked = 0;
      for (let waited = 0; parked < poolSize && waited < 10_000; waited += 25) {
        await sleep(25);
        const found = await watcher.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%c_people%'`,
        );
        parked = found.rows[0].n;
      }
      clock.mockImplementation(() => realNow() + 6000); // the registry snapshot is now stale
      await locker.query('COMMIT');
      const answers = await Promise.all(writes);
      expect({ parked, answers }).toEqual({
        parked: poolSize,
        answers: Array(poolSize).fill({ status: 201, code: undefined }),
      });
    } finally {
      clock.mockRestore();
      await locker.end();
      await watcher.end();
    }
  }, 30_000);
});
