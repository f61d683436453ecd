import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRootLogger, formatAccessLine, prettyStream, REDACTED_PATHS } from '../../src/common/logger';
import {
  recordPrincipal,
  requestLogging,
  type RequestLoggingOptions,
} from '../../src/common/request-logging';
import { storage } from 'nestjs-pino/storage';
import type { Logger } from 'pino';
import { LogCapture } from '../utils/log-capture';

const line = (fields: Record<string, unknown>) => ({
  level: 30,
  time: 1_700_000_000_000,
  msg: 'request completed',
  reqId: 'r-1',
  method: 'GET',
  path: '/admin/api/me',
  status: 200,
  durationMs: 3.214,
  ip: '127.0.0.1',
  userAgent: 'curl/8',
  contentLength: 512,
  ...fields,
});

describe('the development form of the access line', () => {
  it('is one short line: method, path, status, duration, size, principal, request id', () => {
    expect(formatAccessLine(line({ principal: { via: 'session', userId: 'u-1' } }))).toBe(
      'GET /admin/api/me 200 3.2ms 512B user=u-1 req=r-1',
    );
    expect(formatAccessLine(line({ contentLength: undefined }))).toBe('GET /admin/api/me 200 3.2ms req=r-1');
    expect(formatAccessLine(line({ principal: { via: 'api-key', userId: 'u-2', apiKeyId: 'k-9' } }))).toBe(
      'GET /admin/api/me 200 3.2ms 512B key=k-9 user=u-2 req=r-1',
    );
  });

  it('marks an aborted request and names the error of a 5xx', () => {
    expect(
      formatAccessLine(line({ msg: 'request aborted', status: undefined, contentLength: undefined })),
    ).toBe('GET /admin/api/me --- 3.2ms aborted req=r-1');
    expect(
      formatAccessLine(
        line({ msg: 'request errored', level: 50, status: 500, error: { type: 'Error', message: 'boom' } }),
      ),
    ).toBe('GET /admin/api/me 500 3.2ms 512B req=r-1 Error: boom');
  });

  it('leaves every other record alone', () => {
    expect(formatAccessLine({ level: 30, msg: 'email sent', path: '/x' })).toBeUndefined();
    expect(formatAccessLine({ level: 30, msg: 'request completed' })).toBeUndefined();
  });

  it('goes through pino-pretty: the access fields are not printed again, other records keep theirs', () => {
    const out: string[] = [];
    const log = createRootLogger({
      level: 'info',
      pretty: true,
      stream: prettyStream({ write: (s: string) => out.push(s) }, false),
    });
    log.info(
      { reqId: 'r-7', method: 'POST', path: '/a?token=[redacted]', status: 201, durationMs: 0.42, ip: '::1' },
      'request completed',
    );
    log.warn({ template: 'invite', attempt: 2 }, 'email not sent yet');
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(/INFO.*: POST \/a\?token=\[redacted\] 201 0\.4ms req=r-7\n$/);
    expect(out[0]).not.toContain('::1');
    expect(out[0]).not.toContain('"method"');
    expect(out[1]).toMatch(/WARN.*: email not sent yet \{"template":"invite","attempt":2\}\n$/);
  });
});

describe('requestLogging (node:http round trips)', () => {
  let server: Server;
  let logs: LogCapture;
  let handle: (req: IncomingMessage, res: ServerResponse) => void;

  async function start(level: string, options?: RequestLoggingOptions): Promise<number> {
    logs = new LogCapture();
    const middleware = requestLogging(createRootLogger({ level, pretty: false, stream: logs }), options);
    server = createServer((req, res) => middleware(req, res, () => handle(req, res)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return (server.address() as AddressInfo).port;
  }
  afterEach(() => new Promise((r) => server.close(r)));

  function get(port: number, path: string, headers: Record<string, string> = {}): Promise<number> {
    return new Promise((resolve, reject) => {
      request({ port, path, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      })
        .on('error', reject)
        .end();
    });
  }

  /** The access line is written on the response's 'close', which may follow the client's 'end'. */
  async function records(count: number): Promise<Array<Record<string, unknown>>> {
    for (let i = 0; i < 100 && logs.lines.length < count; i++) {
      await new Promise((r) => setTimeout(r, 5));
    }
    return logs.records();
  }

  it('logs exactly the access fields at info, and the principal recorded while handling', async () => {
    handle = (req, res) => {
      recordPrincipal(req, { method: 'api-key', user: { id: 'u-1' }, apiKey: { id: 'k-1' } });
      res.setHeader('Content-Length', 2);
      res.end('ok');
    };
    const port = await start('info');
    await get(port, '/x?token=t0p&page=2', { 'User-Agent': 'unit/1', 'X-Request-Id': 'unit-1' });
    const [record] = await records(1);
    expect(record).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: expect.any(String),
      reqId: 'unit-1',
      method: 'GET',
      path: '/x?token=[redacted]&page=2',
      status: 200,
      durationMs: expect.any(Number),
      ip: '127.0.0.1',
      userAgent: 'unit/1',
      contentLength: 2,
      principal: { via: 'api-key', userId: 'u-1', apiKeyId: 'k-1' },
      msg: 'request completed',
    });
    expect(logs.text()).not.toContain('t0p');
  });

  it('logs no field named like a redacted one (its writer skips the redaction)', async () => {
    handle = (req, res) => {
      recordPrincipal(req, { method: 'api-key', user: { id: 'u-1' }, apiKey: { id: 'k-1' } });
      (storage.getStore() as unknown as { logger: Logger }).logger.error(
        { err: new TypeError('no') },
        'failed',
      );
      res.statusCode = 500;
      res.end();
    };
    const port = await start('info');
    await get(port, '/x');
    const record = (await records(2)).find((r) => r.msg === 'request errored')!;
    expect(record.error).toEqual({ type: 'TypeError', message: 'no' });
    const names = Object.entries(record).flatMap(([k, v]) =>
      v && typeof v === 'object' ? [k, ...Object.keys(v)] : [k],
    );
    const redacted = new Set(REDACTED_PATHS.map((p) => p.split('.').at(-1)));
    expect(names.filter((n) => redacted.has(n))).toEqual([]);
  });

  it('writes nothing above info for a success, and the error line for a 5xx', async () => {
    handle = (_req, res) => {
      res.statusCode = res.req.url === '/fail' ? 503 : 200;
      res.end();
    };
    const port = await start('warn');
    await get(port, '/ok');
    await get(port, '/fail');
    const all = await records(1);
    expect(all.map((r) => [r.level, r.msg, r.path, r.status])).toEqual([
      [50, 'request errored', '/fail', 503],
    ]);
  });

  it('decides the client IP of a non-Express request with Express\'s "trust proxy"', async () => {
    handle = (_req, res) => res.end();
    const port = await start('info', { trustProxy: 'loopback' });
    await get(port, '/a', { 'X-Forwarded-For': '203.0.113.7, 10.0.0.2' });
    await get(port, '/b', { 'X-Forwarded-For': '203.0.113.7, 127.0.0.5' });
    await get(port, '/c');
    const all = await records(3);
    expect(Object.fromEntries(all.map((r) => [r.path, r.ip]))).toEqual({
      '/a': '10.0.0.2',
      '/b': '203.0.113.7',
      '/c': '127.0.0.1',
    });
  });

  it('ignores X-Forwarded-For when no proxy is trusted', async () => {
    handle = (_req, res) => res.end();
    const port = await start('info');
    await get(port, '/a', { 'X-Forwarded-For': '203.0.113.7' });
    expect((await records(1))[0].ip).toBe('127.0.0.1');
  });
});
