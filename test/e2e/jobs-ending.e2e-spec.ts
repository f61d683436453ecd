import { randomUUID } from 'node:crypto';
import { JobsService } from '../../src/jobs/jobs.service';
import { createTestApp, TestApp } from '../utils/test-app';

interface Boss {
  getDb(): { executeSql: (...args: unknown[]) => Promise<unknown> };
  complete(name: string, id: string): Promise<unknown>;
  fail(name: string, id: string, data?: unknown): Promise<unknown>;
}

/**
 * pg-boss's `work()` ends a job with a complete or fail statement it does not await: a failure of
 * that statement (its pool timing out on a busy database) must be reported, not left as an
 * unhandled rejection that ends the process (src/jobs/pg-boss-completion.ts).
 */
describe('job queue: a job that cannot be marked done', () => {
  let t: TestApp;
  let boss: Boss;
  beforeAll(async () => {
    t = await createTestApp();
    boss = (t.app.get(JobsService) as unknown as { boss: Boss }).boss;
  });
  afterAll(() => t.close());

  it.each(['complete', 'fail'] as const)(
    '%s: the failure is logged and the call resolves',
    async (action) => {
      const db = boss.getDb();
      const spy = jest
        .spyOn(db, 'executeSql')
        .mockRejectedValueOnce(new Error('timeout exceeded when trying to connect'));
      const id = randomUUID();
      try {
        await expect(boss[action]('svc-audit-purge', id)).resolves.toEqual({
          jobs: [],
          requested: 0,
          affected: 0,
        });
      } finally {
        spy.mockRestore();
      }
      const line = t.logs.records().find((r) => String(r.msg).includes(id));
      expect(line).toMatchObject({ level: 40 });
      expect(String(line?.msg)).toMatch(/timeout exceeded when trying to connect; it is retried/);
      // Working again once the database answers: the statement runs (no such job: nothing affected).
      await expect(boss[action]('svc-audit-purge', randomUUID())).resolves.toMatchObject({ affected: 0 });
    },
  );
});
