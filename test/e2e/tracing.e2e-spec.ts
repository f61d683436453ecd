import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { SvcConfig } from '../../src/config/config.types';
import { tracingConfigured } from '../../src/config/tracing-env';
import { bearerFor, createUser } from '../utils/auth';
import { freePort, startServerProcess } from '../utils/server-process';
import { createTestApp } from '../utils/test-app';
import { createTestDatabase, type TestDatabase } from '../utils/test-db';
import { WebhookReceiver } from '../utils/webhook-receiver';

/**
 * Tracing, as the standalone server runs it with OTEL_EXPORTER_OTLP_ENDPOINT set, against a local
 * OTLP/HTTP receiver: an incoming `traceparent` is continued, the request, Express and Nest,
 * PostgreSQL and Redis show as spans of that trace, an outgoing webhook call is a client span,
 * and the access line carries the `traceId`.
 */

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

const SERVER = 2;
const CLIENT = 3;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const attr = (s: Span, key: string) => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v === undefined ? undefined : Object.values(v)[0];
};
/** The database a span is about (the current semantic conventions' name, or the older one). */
const dbOf = (s: Span) => attr(s, 'db.system.name') ?? attr(s, 'db.system');

/** A collector's OTLP/HTTP traces endpoint (JSON), keeping every span it receives. */
class OtlpReceiver {
  readonly spans: Span[] = [];
  readonly contentTypes = new Set<string>();
  private server?: Server;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        this.contentTypes.add(String(req.headers['content-type']));
        if (req.url === '/v1/traces' && /json/.test(String(req.headers['content-type']))) {
          const payload = JSON.parse(body) as {
            resourceSpans: Array<{ scopeSpans: Array<{ spans: Span[] }> }>;
          };
          for (const rs of payload.resourceSpans) {
            for (const ss of rs.scopeSpans) {
              this.spans.push(...ss.spans);
            }
          }
        }
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', () => r()));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!ok()) {
      if (Date.now() > deadline) {
        throw new Error(
          `no ${what} among ${this.spans.length} spans: ${this.spans.map((s) => s.name).join(', ')}`,
        );
      }
      await sleep(100);
    }
  }

  close(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

describe('tracing (OpenTelemetry, OTLP/HTTP)', () => {
  jest.setTimeout(120_000);
  let database: TestDatabase;
  let otlp: OtlpReceiver;
  let hooks: WebhookReceiver;
  let server: ChildProcess & { output(): string };
  let base: string;
  let admin: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    otlp = new OtlpReceiver();
    const endpoint = await otlp.start();
    hooks = await new WebhookReceiver().start();
    const config: SvcConfig = {
      collections: [{ slug: 'notes', fields: [{ name: 'title', type: 'text' }] }],
      webhooks: { allowPrivateNetworks: true },
    };
    const dir = mkdtempSync(join(tmpdir(), 'svc-tracing-'));
    const configFile = join(dir, 'svc.config.cjs');
    writeFileSync(configFile, `module.exports = ${JSON.stringify(config)};\n`);
    // The admin, made by an instance of the test that then stops.
    const maker = await createTestApp({ config, database });
    admin = await bearerFor(maker, (await createUser(maker, { roles: ['super-admin'] })).id);
    await maker.close();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startServerProcess(database.url, configFile, port, {
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
        OTEL_SERVICE_NAME: 'svc-under-test',
        // Export every 100 ms rather than every 5 s.
        OTEL_BSP_SCHEDULE_DELAY: '100',
        REDIS_URL: 'redis://127.0.0.1:6379',
        SVC_REDIS_PREFIX: `svc-tracing-${process.pid}:`,
      },
    });
  });

  afterAll(async () => {
    server?.kill('SIGKILL');
    await otlp?.close();
    await hooks?.close();
    await database?.drop();
  });

  it('is configured by the standard variables only', () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(
      true,
    );
    expect(
      tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBe(false);
  });

  it('continues an incoming traceparent through the request, Nest, PostgreSQL and Redis; the access line has the traceId', async () => {
    const traceId = randomBytes(16).toString('hex');
    const parent = randomBytes(8).toString('hex');
    const res = await request(base).get('/api/health').set('traceparent', `00-${traceId}-${parent}-01`);
    expect(res.status).toBe(200);
    expect(res.body.redis.ok).toBe(true);
    const ofTrace = () => otlp.spans.filter((s) => s.traceId === traceId);
    await otlp.until('health trace with its database and Redis spans', () => {
      const spans = ofTrace();
      return (
        spans.some((s) => s.kind === SERVER) &&
        spans.some((s) => dbOf(s) === 'postgresql') &&
        spans.some((s) => dbOf(s) === 'redis')
      );
    });
    const spans = ofTrace();
    const incoming = spans.find((s) => s.kind === SERVER)!;
    expect(incoming.parentSpanId).toBe(parent);
    expect(spans.some((s) => /nest|request handler|HealthController/i.test(s.name))).toBe(true);
    expect([...otlp.contentTypes]).toEqual(['application/json']);
    // Redis commands are named, never listed with their keys (which hold addresses and ids).
    const redis = spans.filter((s) => dbOf(s) === 'redis');
    expect(redis.map((s) => attr(s, 'db.query.text') ?? attr(s, 'db.statement'))).toEqual(
      redis.map((s) => s.name),
    );
    // Without a request or job around them, queries are not traced (the job polls would flood).
    expect(otlp.spans.filter((s) => dbOf(s) !== undefined && s.parentSpanId === undefined)).toEqual([]);
    const line = server
      .output()
      .split('\n')
      .find((l) => l.includes('"request completed"') && l.includes(traceId));
    expect(line).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ traceId, path: '/api/health', status: 200 });
  });

  it('traces a content read of the lane, and a webhook delivery as an outgoing call', async () => {
    const made = await request(base)
      .post('/admin/api/collections/notes/entries')
      .set(admin)
      .send({ title: 'x' });
    expect(made.status).toBe(201);
    const traceId = randomBytes(16).toString('hex');
    const read = await request(base)
      .get(`/admin/api/collections/notes/entries/${made.body.item.id as string}`)
      .set(admin)
      .set('traceparent', `00-${traceId}-${randomBytes(8).toString('hex')}-01`);
    expect(read.status).toBe(200);
    await otlp.until('the lane read with its query', () => {
      const spans = otlp.spans.filter((s) => s.traceId === traceId);
      return spans.some((s) => s.kind === SERVER) && spans.some((s) => dbOf(s) === 'postgresql');
    });
    // No statement parameter (the entry's values) reaches a span.
    expect(JSON.stringify(otlp.spans)).not.toContain('"x"');

    hooks.on('/traced', (_req, res) => {
      res.writeHead(200).end('ok');
    });
    const hook = await request(base)
      .post('/admin/api/webhooks')
      .set(admin)
      .send({ name: 'Traced', url: hooks.url('/traced'), events: ['webhook.test'] });
    expect(hook.status).toBe(201);
    expect(
      (
        await request(base)
          .post(`/admin/api/webhooks/${hook.body.item.id as string}/test`)
          .set(admin)
      ).status,
    ).toBe(202);
    await hooks.waitFor('/traced', 1, 20_000);
    await otlp.until('the outgoing webhook call', () =>
      otlp.spans.some(
        (s) =>
          s.kind === CLIENT && String(attr(s, 'url.full') ?? attr(s, 'http.url') ?? '').includes('/traced'),
      ),
    );
  });
});
