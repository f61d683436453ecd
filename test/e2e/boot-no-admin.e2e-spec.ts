import { resolve } from 'node:path';
import request from 'supertest';
import { RunningServer, startServer } from '../../src/server';
import { LogCapture } from '../utils/log-capture';
import { createTestDatabase, TestDatabase } from '../utils/test-db';
import { TEST_SECRET } from '../utils/test-app';

/**
 * Issue 21: a first run says, in the boot log, that no administrator exists and how to make one
 * (the setup route and `npm run seed:admin`); once one exists the line is gone.
 */
describe('boot log without an administrator', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database.drop();
  });

  async function boot(): Promise<{ server: RunningServer; logs: LogCapture }> {
    const logs = new LogCapture();
    const server = await startServer(
      {
        NODE_ENV: 'test',
        DATABASE_URL: database.url,
        HOST: '127.0.0.1',
        PORT: '0',
        SVC_SECRET: TEST_SECRET,
        SVC_LOG_LEVEL: 'warn',
        SVC_AUTO_MIGRATE: 'false',
        SVC_CONFIG: resolve(__dirname, '../fixtures/config/config.cjs'),
      },
      { bootLog: logs },
    );
    return { server, logs };
  }

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
