import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadEnv } from '../../src/config/env';
import { bearerFor, createUser, PASSWORD, signIn } from '../utils/auth';
import { createTestApp, type TestApp } from '../utils/test-app';
import { WebhookReceiver } from '../utils/webhook-receiver';

/**
 * `GET /api/metrics`: off (404) without a token; with one, answered to that bearer token only;
 * the series an operator relies on, with route templates as labels and never an id or an email.
 */

const TOKEN = 'metrics-token-0123456789abcdef-0123456789';
const API = '/admin/api';

/** The value of one series (`name{labels}`) in the text format, or undefined. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics off', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 404 without a token, whatever is sent', async () => {
    for (const auth of [undefined, `Bearer ${TOKEN}`]) {
      const res = await t.http.get('/api/metrics').set(auth ? { Authorization: auth } : {});
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('a token shorter than 32 characters stops the boot, naming the variable', () => {
    expect(() => loadEnv({ SVC_METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadEnv({ SVC_METRICS_TOKEN: 'short' })).toThrow(/SVC_METRICS_TOKEN must be at least 32/);
    expect(loadEnv({ SVC_METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
  });
});

describe('metrics on', () => {
  jest.setTimeout(60_000);
  let t: TestApp;
  let receiver: WebhookReceiver;
  let admin: Record<string, string>;
  const scrape = () => t.http.get('/api/metrics').set('Authorization', `Bearer ${TOKEN}`);

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await createTestApp({
      overrides: { metricsToken: TOKEN },
      config: {
        collections: [{ slug: 'notes', fields: [{ name: 'title', type: 'text' }] }],
        webhooks: { allowPrivateNetworks: true },
        security: { authRateLimit: { max: 5, windowSeconds: 3600 } },
      },
    });
    admin = await bearerFor(t, (await createUser(t, { roles: ['super-admin'] })).id);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('answers its bearer token only: no credential, another token, a session, an API key, a cookie or a query value is 401', async () => {
    const user = await createUser(t, { roles: ['super-admin'] });
    const { browser, body } = await signIn(t, user);
    const key = await browser.post('/api-keys', { name: 'metrics?', type: 'full-access' });
    expect(key.status).toBe(201);
    const refused = [
      t.http.get('/api/metrics'),
      t.http.get('/api/metrics').set('Authorization', `Bearer ${TOKEN}x`),
      t.http.get('/api/metrics').set('Authorization', `Bearer ${TOKEN.slice(1)}`),
      t.http.get('/api/metrics').set('Authorization', TOKEN),
      t.http.get('/api/metrics').set('Authorization', `Bearer ${body.token}`),
      t.http.get('/api/metrics').set('Authorization', `Bearer ${key.body.key as string}`),
      browser.agent.get('/api/metrics'),
      t.http.get('/api/metrics').query({ token: TOKEN }),
      t.http.get('/api/metrics').set('Cookie', `svc_session=${TOKEN}`),
    ];
    for (const res of await Promise.all(refused)) {
      expect([res.status, res.body.error?.code]).toEqual([401, 'AUTH_REQUIRED']);
    }
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(ok.headers['cache-control']).toBe('no-store');
  });

  it('counts requests by route template and status, never by path, id or email', async () => {
    const user = await createUser(t, { email: `counted-${Date.now()}@example.com` });
    const note = await t.http.post(`${API}/collections/notes/entries`).set(admin).send({ title: 'n' });
    expect(note.status).toBe(201);
    const before = await scrape();
    const get = (series: string) => valueOf(before.text, series) ?? 0;
    const userRoute = 'http_requests_total{method="GET",route="/admin/api/users/:id",status="200"}';
    const laneRoute =
      'http_requests_total{method="GET",route="/admin/api/collections/:slug/entries/:id",status="200"}';
    const unmatched = 'http_requests_total{method="GET",route="unmatched",status="404"}';
    const wasUser = get(userRoute);
    const wasLane = get(laneRoute);
    const wasUnmatched = get(unmatched);

    expect((await t.http.get(`${API}/users/${user.id}`).set(admin)).status).toBe(200);
    expect((await t.http.get(`${API}/users/${user.id}`).set(admin)).status).toBe(200);
    expect(
      (await t.http.get(`${API}/collections/notes/entries/${note.body.item.id}`).set(admin)).status,
    ).toBe(200);
    expect((await t.http.get(`/no/such/${user.email}`)).status).toBe(404);

    const after = (await scrape()).text;
    expect(valueOf(after, userRoute)).toBe(wasUser + 2);
    expect(valueOf(after, laneRoute)).toBe(wasLane + 1);
    expect(valueOf(after, unmatched)).toBe(wasUnmatched + 1);
    expect(after).toMatch(
      /^http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/admin\/api\/users\/:id",status="200"\} \d+$/m,
    );
    for (const secret of [user.id, user.email, note.body.item.id as string, admin.Authorization.slice(7)]) {
      expect(after).not.toContain(secret);
    }
  });

  it('counts sign-ins by result, refusals by budget, webhook deliveries by outcome, and reports the pool, the queues and the caches', async () => {
    const user = await createUser(t);
    const was = (await scrape()).text;
    const login = (password: string) =>
      t.http
        .post(`${API}/auth/login`)
        .set('Authorization', 'Bearer none')
        .send({ email: user.email, password });
    await signIn(t, user);
    const failed = await login('Wrong-password-1');
    expect(failed.status).toBe(401);
    // The sign-in budget (5 an hour from this address) runs out.
    let refusal = failed;
    for (let i = 0; i < 6 && refusal.status !== 429; i++) {
      refusal = await login(PASSWORD);
    }
    expect(refusal.status).toBe(429);

    const hook = await t.http
      .post(`${API}/webhooks`)
      .set(admin)
      .send({ name: 'Metrics', url: receiver.url('/metrics'), events: ['webhook.test'] });
    expect(hook.status).toBe(201);
    receiver.on('/metrics', (_req, res) => {
      res.writeHead(200).end('ok');
    });
    expect((await t.http.post(`${API}/webhooks/${hook.body.item.id}/test`).set(admin)).status).toBe(202);
    await receiver.waitFor('/metrics', 1, 20_000);

    const delivered = 'svc_webhook_deliveries_total{outcome="delivered"}';
    let now = (await scrape()).text;
    for (let i = 0; i < 50 && (valueOf(now, delivered) ?? 0) < 1; i++) {
      await new Promise((r) => setTimeout(r, 100));
      now = (await scrape()).text;
    }
    const grew = (series: string) => (valueOf(now, series) ?? 0) - (valueOf(was, series) ?? 0);
    expect(grew('svc_auth_logins_total{result="success"}')).toBeGreaterThanOrEqual(1);
    expect(grew('svc_auth_logins_total{result="failure"}')).toBeGreaterThanOrEqual(1);
    expect(grew('svc_rate_limit_refusals_total{budget="sign-in"}')).toBe(1);
    expect(grew(delivered)).toBe(1);
    expect(valueOf(now, 'svc_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(0);
    expect(valueOf(now, 'svc_db_pool_connections{state="waiting"}')).toBe(0);
    expect(now).toMatch(/^# TYPE svc_job_queue_depth gauge$/m);
    expect(valueOf(now, 'svc_cache_requests_total{cache="accounts",result="hit"}')).toBeGreaterThan(0);
    expect(valueOf(now, 'svc_cache_requests_total{cache="permissions",result="miss"}')).toBeGreaterThan(0);
    expect(now).toMatch(/^process_cpu_seconds_total \d/m);
    expect(now).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    expect(now).not.toContain(user.email);
  });

  it('the Grafana dashboard in docs/ uses only series the service exports', async () => {
    const dashboard = readFileSync(join(__dirname, '..', '..', 'docs', 'grafana-dashboard.json'), 'utf8');
    const used = new Set([...dashboard.matchAll(/\b([a-z][a-z0-9_]*)\{/g)].map((m) => m[1]));
    const exported = new Set([...(await scrape()).text.matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]));
    expect(used.size).toBeGreaterThan(5);
    for (const name of used) {
      expect([name, exported.has(name.replace(/_bucket$/, ''))]).toEqual([name, true]);
    }
  });
});
