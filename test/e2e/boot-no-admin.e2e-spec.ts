import { resolve } from 'node:path';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import request from 'supertest';
import { RunningServer, startServer } from '../../src/server';
import { LogCapture } from '../utils/log-capture';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { TEST_SECRET } from '../utils/test-app';

/**
 * The boot log at info is one line per stage, in the service's log format. A first run says there
 * that no administrator exists and how to make one (the setup route and `npm run seed:admin`);
 * once one exists the line is gone.
 */
describe('boot log', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database.drop();
  });

  async function boot(level = 'warn'): Promise<{ server: RunningServer; logs: LogCapture }> {
    // nestjs-pino keeps the first app's logger for the process: each boot here gets its own.
    __resetOutOfContextForTests();
    const logs = new LogCapture();
    const server = await startServer(
      {
        NODE_ENV: 'test',
        DATABASE_URL: database.url,
        HOST: '127.0.0.1',
        PORT: '0',
        SVC_SECRET: TEST_SECRET,
        SVC_LOG_LEVEL: level,
        SVC_AUTO_MIGRATE: 'false',
        SVC_CONFIG: resolve(__dirname, '../fixtures/config/config.cjs'),
      },
      { logStream: logs },
    );
    return { server, logs };
  }

  it('is one line per stage at info, the hint among them; routes are listed at debug only', async () => {
    const { server, logs } = await boot('info');
    try {
      const records = logs.records();
      // Every line is a log record (LogCapture parses them all), none a route or a module.
      expect(records.filter((r) => /Mapped|dependencies initialized/.test(String(r.msg)))).toEqual([]);
      expect(records.length).toBeLessThanOrEqual(8);
      const stages = records.map((r) => [r.level, r.context, String(r.msg).split(/[;:]/)[0]]);
      expect(stages).toEqual([
        [30, 'Database', `database "${new URL(database.url).pathname.slice(1)}" ready`],
        [30, 'Content', 'content ready (0 collections and 0 singles in the configuration)'],
        [40, 'Boot', 'no administrator exists yet'],
        [30, 'Boot', 'svc listening on http'],
      ]);
      expect(records[0].msg).toMatch(/migrations not run/);
      expect(records.at(-1)!.msg).toBe(`svc listening on ${server.url}`);
    } finally {
      await server.close();
    }
    const verbose = await boot('debug');
    try {
      const mapped = verbose.logs.records().filter((r) => String(r.msg).startsWith('Mapped {'));
      expect(mapped.length).toBeGreaterThan(100);
      expect(mapped[0]).toMatchObject({ level: 20, context: 'RouterExplorer' });
    } finally {
      await verbose.server.close();
    }
  });

  const noAdmin = (logs: LogCapture) =>
    logs.records().filter((r) => String(r.msg).startsWith('no administrator exists yet'));

  it('warns once at boot while there is no user, naming the setup route and the CLI', async () => {
    const { server, logs } = await boot();
    try {
      const lines = noAdmin(logs);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 40, context: 'Boot' });
      const msg = String(lines[0].msg);
      expect(msg).toContain(`POST ${server.url}/admin/api/auth/setup`);
      expect(msg).toContain('npm run seed:admin -- --email <address> --password <password>');

      // The route the line names is the one that creates the administrator.
      const http = request(server.app.getHttpServer());
      const csrf = await http.get('/admin/api/auth/csrf').expect(200);
      const cookie = csrf.headers['set-cookie'] as unknown as string[];
      await http
        .post('/admin/api/auth/setup')
        .set('Cookie', cookie)
        .set('X-CSRF-Token', (csrf.body as { csrfToken: string }).csrfToken)
        .send({ email: 'admin@example.com', name: 'Admin', password: 'Str0ng-password' })
        .expect(201);
    } finally {
      await server.close();
    }
  });

  it('says nothing once an administrator exists', async () => {
    const { server, logs } = await boot();
    try {
      expect(noAdmin(logs)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
