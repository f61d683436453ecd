import { createTestApp, TestApp } from '../utils/test-app';
import { ProbeModule } from '../utils/probe.module';

const PROBLEM = /^application\/problem\+json/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('error envelope (SPEC 7, CONTRACTS 8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ imports: [ProbeModule] });
  });
  afterAll(() => t.close());

  function expectProblem(
    res: { status: number; headers: Record<string, string>; body: unknown },
    status: number,
    code: string,
  ) {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(PROBLEM);
    const id = res.headers['x-request-id'];
    expect(id).toBeTruthy();
    const body = res.body as { error: { code: string; message: string; requestId: string } };
    expect(body.error.code).toBe(code);
    expect(typeof body.error.message).toBe('string');
    expect(body.error.requestId).toBe(id);
    return body.error;
  }

  it('answers an unknown route with 404 NOT_FOUND, inside and outside /admin/api', async () => {
    expectProblem(await t.http.get('/admin/api/no-such-thing'), 404, 'NOT_FOUND');
    expectProblem(await t.http.get('/nowhere'), 404, 'NOT_FOUND');
    expectProblem(await t.http.delete('/api/health'), 404, 'NOT_FOUND');
  });

  it('answers malformed JSON with 400 VALIDATION_ERROR', async () => {
    const res = await t.http
      .post('/admin/api/__probe/echo')
      .set('Content-Type', 'application/json')
      .send('{"email": ');
    expectProblem(res, 400, 'VALIDATION_ERROR');
  });

  it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const big = JSON.stringify({ email: 'a@b.co', pad: 'x'.repeat(1024 * 1024) });
    const res = await t.http
      .post('/admin/api/__probe/echo')
      .set('Content-Type', 'application/json')
      .send(big);
    expectProblem(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('accepts a body just under 1 MiB (the cap is 1 MiB, not less)', async () => {
    const body = JSON.stringify({ email: 'a@b.co', count: 1, address: { city: 'x'.repeat(1000 * 1000) } });
    const res = await t.http
      .post('/admin/api/__probe/echo')
      .set('Content-Type', 'application/json')
      .send(body);
    expect(res.status).toBe(201);
  });

  it('answers a non-JSON content type with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await t.http.post('/admin/api/__probe/echo').set('Content-Type', type).send('email=a');
      expectProblem(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('accepts application/json with a charset and +json types', async () => {
    const body = JSON.stringify({ email: 'a@b.co', count: 2, address: { city: 'Oslo' } });
    for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json']) {
      const res = await t.http.post('/admin/api/__probe/echo').set('Content-Type', type).send(body);
      expect(res.status).toBe(201);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toEqual({ received: { email: 'a@b.co', count: 2, address: { city: 'Oslo' } } });
    }
  });

  it('lists every validation problem with path, code and message', async () => {
    const res = await t.http
      .post('/admin/api/__probe/echo')
      .send({ email: 'not-an-email', count: 50, address: { city: 7 }, extra: true });
    const error = expectProblem(res, 400, 'VALIDATION_ERROR') as unknown as {
      data: { errors: Array<{ path: string; code: string; message: string }> };
    };
    const paths = error.data.errors.map((e) => `${e.path}:${e.code}`).sort();
    expect(paths).toEqual(['address.city:isString', 'count:max', 'email:isEmail', 'extra:unknown_field']);
    for (const e of error.data.errors) {
      expect(e.message.length).toBeGreaterThan(0);
    }
  });

  it('refuses a JSON body that is not an object', async () => {
    const res = await t.http
      .post('/admin/api/__probe/echo')
      .set('Content-Type', 'application/json')
      .send('"text"');
    expectProblem(res, 400, 'VALIDATION_ERROR');
    const missing = await t.http.post('/admin/api/__probe/echo');
    expectProblem(missing, 400, 'VALIDATION_ERROR');
  });

  it('answers an unexpected failure with 500 INTERNAL_ERROR and nothing internal in the body', async () => {
    const res = await t.http.get('/admin/api/__probe/boom');
    const error = expectProblem(res, 500, 'INTERNAL_ERROR');
    expect(JSON.stringify(res.body)).not.toMatch(/secret internal detail|at .*\.ts|stack/);
    expect(error).not.toHaveProperty('data');
    // The full detail goes to the log, tagged with the request id.
    const lines = t.logs.forRequest(error.requestId).join('\n');
    expect(lines).toContain('secret internal detail');
    expect(lines).toMatch(/"stack"/);
  });

  it('answers a database failure with 500 DATABASE_ERROR and no SQL in the body', async () => {
    const res = await t.http.get('/admin/api/__probe/sql');
    expectProblem(res, 500, 'DATABASE_ERROR');
    expect(JSON.stringify(res.body)).not.toMatch(/table_that_does_not_exist|SELECT|hunter2/);
  });

  it('sets Retry-After from error.data.retryAfterSeconds on 429', async () => {
    const res = await t.http.get('/admin/api/__probe/limited');
    const error = expectProblem(res, 429, 'RATE_LIMITED') as unknown as {
      data: { retryAfterSeconds: number };
    };
    expect(res.headers['retry-after']).toBe('42');
    expect(error.data.retryAfterSeconds).toBe(42);
  });

  it('never caches an error', async () => {
    const res = await t.http.get('/admin/api/no-such-thing');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('X-Request-Id (CONTRACTS 8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ imports: [ProbeModule] });
  });
  afterAll(() => t.close());

  it('echoes a sane client id on success and failure', async () => {
    const ok = await t.http.get('/api/health').set('X-Request-Id', 'client-id_1.2');
    expect(ok.headers['x-request-id']).toBe('client-id_1.2');
    const failed = await t.http.get('/admin/api/nope').set('X-Request-Id', 'abc-123');
    expect(failed.headers['x-request-id']).toBe('abc-123');
    expect(failed.body.error.requestId).toBe('abc-123');
  });

  it('replaces an insane id with a generated one', async () => {
    for (const bad of ['has space', 'x'.repeat(129), 'semi;colon', 'a/b', '']) {
      const res = await t.http.get('/admin/api/nope').set('X-Request-Id', bad);
      expect(res.headers['x-request-id']).toMatch(UUID);
      expect(res.body.error.requestId).toBe(res.headers['x-request-id']);
    }
  });

  it('generates distinct ids when none is sent', async () => {
    const a = await t.http.get('/api/health');
    const b = await t.http.get('/api/health');
    expect(a.headers['x-request-id']).toMatch(UUID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('tags every log line of a request with its id', async () => {
    const res = await t.http.get('/admin/api/__probe/boom').set('X-Request-Id', 'trace-me-42');
    expect(res.status).toBe(500);
    const records = t.logs.records().filter((r) => JSON.stringify(r).includes('trace-me-42'));
    expect(records.length).toBeGreaterThanOrEqual(2); // the error record and the request record
    for (const r of records) {
      expect((r.req as { id?: string } | undefined)?.id ?? r.reqId ?? r.requestId).toBe('trace-me-42');
    }
  });

  it('redacts authorization, cookies and secrets in the log', async () => {
    await t.http
      .post('/admin/api/__probe/echo')
      .set('Authorization', 'Bearer super-secret-token-value')
      .set('Cookie', 'svc_session=cookie-secret-value')
      .set('X-Request-Id', 'redact-check')
      .send({ email: 'a@b.co', count: 1, address: { city: 'x' } });
    const text = t.logs.forRequest('redact-check').join('\n');
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain('super-secret-token-value');
    expect(text).not.toContain('cookie-secret-value');
    // The access line names what it logs: no header at all.
    expect(text).toContain('"msg":"request completed"');
    expect(text).not.toMatch(/"headers"|authorization|cookie/i);
  });
});
