import { connect, type AddressInfo } from 'node:net';
import { LimitedExpressAdapter } from '../../src/http-server';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * Slow and malformed clients (issue 15): the standalone server's HTTP limits, here shortened, and
 * Node-level protocol errors answered in the problem+json envelope with a request id.
 */
describe('HTTP limits', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({
      adapter: new LimitedExpressAdapter({
        headersTimeoutMs: 1000,
        idleTimeoutMs: 1500,
        requestTimeoutMs: 20_000,
        keepAliveTimeoutMs: 1000,
      }),
    });
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  /** Writes `chunks` to a raw connection; answers what came back and when the server closed it. */
  function raw(chunks: string[]): Promise<{ text: string; ms: number }> {
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve({ text, ms: performance.now() - started }));
      socket.on('error', reject);
      socket.setTimeout(15_000, () => socket.destroy(new Error('the server kept the connection open')));
      for (const c of chunks) {
        socket.write(c);
      }
    });
  }

  function problem(text: string, status: number): { code: string; requestId: string } {
    const [head, body] = text.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe(
      `HTTP/1.1 ${status} ${head.split('\r\n')[0].split(' ').slice(2).join(' ')}`,
    );
    expect(head).toMatch(/content-type: application\/problem\+json/i);
    const requestId = /x-request-id: (\S+)/i.exec(head)?.[1];
    const error = (JSON.parse(body) as { error: { code: string; requestId: string } }).error;
    expect(error.requestId).toBe(requestId);
    return error;
  }

  it('closes a connection whose headers never finish within the header timeout, answering 408', async () => {
    const { text, ms } = await raw(['GET /api/health HTTP/1.1\r\nHost: x\r\n']);
    expect(ms).toBeLessThan(5000);
    expect(text.startsWith('HTTP/1.1 408')).toBe(true);
    problem(text, 408);
  });

  it('closes a connection whose body stalls (idle timeout)', async () => {
    const { text, ms } = await raw([
      'POST /admin/api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email"',
    ]);
    expect(ms).toBeGreaterThanOrEqual(1000);
    expect(ms).toBeLessThan(8000);
    expect(text).toBe('');
  });

  it('answers a request that is not HTTP with 400 in the problem+json envelope', async () => {
    const { text } = await raw(['NOT HTTP AT ALL\r\n\r\n']);
    expect(problem(text, 400).code).toBe('VALIDATION_ERROR');
  });

  it('answers headers over the size limit with 431 in the envelope', async () => {
    const { text } = await raw([
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ]);
    expect(problem(text, 431).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('serves a normal request on the same server', async () => {
    const { text } = await raw(['GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n']);
    expect(text.startsWith('HTTP/1.1 200')).toBe(true);
  });
});
