import net from 'node:net';
import { attempt, newSecret } from '../../src/modules/webhooks/webhook-sender';

/**
 * Attempts keep their connection to a receiver open for the next one, and a kept connection the
 * receiver drops just as a request goes out costs no failed attempt: the request goes again on a
 * new connection. A raw TCP receiver, so the test decides exactly when a connection dies.
 */
describe('webhooks: connections to a receiver', () => {
  let server: net.Server;
  let url: string;
  let connections = 0;
  /** What the receiver does with the n-th request on a connection (1-based): answer, or reset it. */
  let onRequest: (nthOnConnection: number) => 'answer' | 'reset';
  const bodies: string[] = [];

  beforeAll(async () => {
    server = net.createServer((socket) => {
      connections++;
      let n = 0;
      let buffer = '';
      socket.on('error', () => undefined);
      socket.on('data', (chunk) => {
        buffer += chunk.toString('latin1');
        for (;;) {
          const end = buffer.indexOf('\r\n\r\n');
          if (end < 0) {
            return;
          }
          const length = Number(/content-length: (\d+)/i.exec(buffer.slice(0, end))?.[1] ?? 0);
          if (buffer.length < end + 4 + length) {
            return;
          }
          bodies.push(buffer.slice(end + 4, end + 4 + length));
          buffer = buffer.slice(end + 4 + length);
          n++;
          if (onRequest(n) === 'reset') {
            socket.resetAndDestroy();
            return;
          }
          socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: keep-alive\r\n\r\nok');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  beforeEach(() => {
    connections = 0;
    bodies.length = 0;
  });

  const send = (secret: string, id: string) =>
    attempt({
      url,
      eventId: id,
      body: JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { id } }),
      secret,
      timeoutMs: 2000,
      allowPrivateNetworks: true,
    });

  it('three attempts in a row go over one connection', async () => {
    onRequest = () => 'answer';
    const secret = newSecret();
    for (const id of ['msg_a', 'msg_b', 'msg_c']) {
      const result = await send(secret, id);
      expect(result).toMatchObject({ ok: true, statusCode: 200, responseBody: 'ok' });
    }
    expect(bodies).toHaveLength(3);
    expect(connections).toBeLessThanOrEqual(1);
  });

  it('a kept connection reset as the request goes out: sent again on a new one, one successful attempt', async () => {
    const secret = newSecret();
    onRequest = () => 'answer';
    await send(secret, 'msg_warm');
    // The kept connection now dies at its next request; a new connection answers.
    let resets = 0;
    onRequest = (n) => (n > 1 && resets++ === 0 ? 'reset' : 'answer');
    const result = await send(secret, 'msg_again');
    expect(result).toMatchObject({ ok: true, statusCode: 200 });
    expect(result).not.toHaveProperty('error');
    // The same request both times: the first reached a connection that was going away.
    expect(resets).toBe(1);
    const sent = bodies.filter((b) => b.includes('msg_again'));
    expect(sent).toHaveLength(2);
    expect(sent[0]).toBe(sent[1]);
  });

  it('a reset on a new connection is a failed attempt (not sent a third time)', async () => {
    onRequest = () => 'reset';
    const result = await send(newSecret(), 'msg_reset');
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/ECONNRESET|socket hang up/);
    expect(bodies.filter((b) => b.includes('msg_reset')).length).toBeLessThanOrEqual(2);
  });
});
