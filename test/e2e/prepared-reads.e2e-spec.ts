import { CONTENT_READ_TYPES } from '../../src/database/pg-timestamps';
import { preparedRows } from '../../src/database/sql';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * Reads prepared by name with the content readers: timestamps arrive as their JSON text (no Date
 * made per row), every other value as node-pg reads it, and parameters bind as in any statement.
 */
describe('prepared reads', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const SQL = `SELECT $1::timestamptz AS at, $2::int AS n, $3::text AS s, $1::timestamptz = $1 AS same`;
  const PARAMS = ['2026-11-29T20:01:02.345678Z', 41, 'x'];

  it('reads timestamps as JSON text with the content readers, the same statement twice', async () => {
    for (let i = 0; i < 2; i++) {
      const [row] = await preparedRows<Record<string, unknown>>(
        t.db.manager,
        SQL,
        PARAMS,
        true,
        CONTENT_READ_TYPES,
      );
      expect(row).toEqual({ at: '2026-11-29T20:01:02.345Z', n: 41, s: 'x', same: true });
    }
  });

  it('reads them as node-pg does without the readers, and unprepared', async () => {
    for (const prepare of [true, false]) {
      const [row] = await preparedRows<Record<string, unknown>>(t.db.manager, SQL, PARAMS, prepare);
      expect(row.at).toBeInstanceOf(Date);
      expect({ ...row, at: (row.at as Date).toJSON() }).toEqual({
        at: '2026-11-29T20:01:02.345Z',
        n: 41,
        s: 'x',
        same: true,
      });
    }
  });
});
