import { connect } from 'node:net';
import { resolve } from 'node:path';
import { RunningServer, startServer } from '../../src/server';
import { LogCapture } from '../utils/log-capture';
import { TEST_SECRET } from '../utils/test-app';
import { createTestDatabase, TestDatabase } from '../utils/test-db';

/**
 * A client whose headers trickle in (one byte every 2 s) is cut off close to the header timeout
 * (20 s by default), on the server `npm start` runs with its default limits, not left open until
 * Node's next connection check.
 */
describe('slow headers on the standalone server', () => {
  let database: TestDatabase;
  let server: RunningServer;
  let port: number;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startServer(
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
      { logStream: new LogCapture() },
    );
    port = Number(new URL(server.url).port);
  });

  afterAll(async () => {
    await server?.close();
    await database.drop();
  });

  it('closes a connection whose headers trickle in within 25 s', async () => {
    const head = `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(100)}`;
    const { text, ms } = await new Promise<{ text: string; ms: number }>((done) => {
      const started = performance.now();
      const socket = connect(port, '127.0.0.1');
      let text = '';
      let i = 0;
      const drip = setInterval(() => socket.write(head[i++ % head.length]), 2000);
      socket.write(head[i++]);
      // The test's own bound: a socket still open at 30 s is closed here and fails the assertion.
      const bound = setTimeout(() => socket.destroy(), 30_000);
      socket.on('data', (d) => (text += d.toString()));
      // A drip written as the server closes may fail (EPIPE); 'close' follows and tells the time.
      socket.on('error', () => clearInterval(drip));
      socket.on('close', () => {
        clearInterval(drip);
        clearTimeout(bound);
        done({ text, ms: performance.now() - started });
      });
    });
    expect(ms).toBeGreaterThanOrEqual(19_000);
    expect(ms).toBeLessThan(25_000);
    expect(text === '' || text.startsWith('HTTP/1.1 408')).toBe(true);
  }, 45_000);
});
