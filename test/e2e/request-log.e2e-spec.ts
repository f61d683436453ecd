import { randomBytes } from 'node:crypto';
import { ProbeModule } from '../utils/probe.module';
import { createTestApp, TestApp } from '../utils/test-app';

/** A fresh value no log line can hold by chance. */
const secret = () => randomBytes(18).toString('base64url');

interface LoggedLine {
  msg: string;
  reqId?: string;
  req?: { url: string; headers: Record<string, string> };
}

/**
 * Emailed links land on `/admin/<action>?token=...` and sign-in callbacks carry `code` and
 * `state`: the request log (one line per request, at info) must never hold those values.
 */
describe('request log: no raw secret from a URL', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ imports: [ProbeModule] });
  });
  afterAll(() => t.close());

  /** The request line of this request id ('close' may come a moment after the client has the answer). */
  async function requestLine(id: string): Promise<LoggedLine> {
    const deadline = Date.now() + 2000;
    for (;;) {
      const line = (t.logs.records() as unknown as LoggedLine[]).find((r) => r.reqId === id && r.req);
      if (line || Date.now() > deadline) {
        expect([id, line?.msg]).toEqual([id, expect.stringMatching(/^request (completed|errored)$/)]);
        return line!;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('logs the parameter names of emailed links and callbacks, never their values', async () => {
    const token = secret();
    const repeated = [secret(), secret()];
    const encoded = secret();
    const code = secret();
    const state = secret();
    const fromReferer = secret();
    const onLane = secret();

    await t.http.get(`/admin/reset-password?token=${token}&x=1`).set('X-Request-Id', 'log-link');
    await t.http
      .get(`/admin/verify-email?token=${repeated[0]}&token=${repeated[1]}&%74oken=${encoded}`)
      .set('X-Request-Id', 'log-repeated');
    await t.http
      .get(`/admin/api/auth/session?code=${code}&state=${state}`)
      .set('X-Request-Id', 'log-callback');
    // The page opened from the link calls the API; the browser sends the page's URL as Referer.
    await t.http
      .post('/admin/api/auth/reset-password')
      .set('Referer', `http://localhost:3000/admin/reset-password?token=${fromReferer}`)
      .set('X-Request-Id', 'log-referer')
      .send({});
    // Content reads are logged by the read lane, ahead of Express: the same serializer.
    await t.http
      .get(`/admin/api/collections/media/entries?limit=1&token=${onLane}`)
      .set('X-Request-Id', 'log-lane');

    expect((await requestLine('log-link')).req!.url).toBe('/admin/reset-password?token=[redacted]&x=1');
    expect((await requestLine('log-repeated')).req!.url).toBe(
      '/admin/verify-email?token=[redacted]&token=[redacted]&%74oken=[redacted]',
    );
    expect((await requestLine('log-callback')).req!.url).toBe(
      '/admin/api/auth/session?code=[redacted]&state=[redacted]',
    );
    expect((await requestLine('log-referer')).req!.headers.referer).toBe(
      'http://localhost:3000/admin/reset-password?token=[redacted]',
    );
    expect((await requestLine('log-lane')).req!.url).toBe(
      '/admin/api/collections/media/entries?limit=1&token=[redacted]',
    );

    const text = t.logs.text();
    for (const value of [token, ...repeated, encoded, code, state, fromReferer, onLane]) {
      expect(text).not.toContain(value);
    }
  });

  it('redacts the "request errored" line (a 5xx) the same way', async () => {
    const token = secret();
    const code = secret();
    const res = await t.http
      .get(`/admin/api/__probe/boom?token=${token}&code=${code}&page=3`)
      .set('X-Request-Id', 'log-errored');
    expect(res.status).toBe(500);

    const line = await requestLine('log-errored');
    expect(line.msg).toBe('request errored');
    expect(line.req!.url).toBe('/admin/api/__probe/boom?token=[redacted]&code=[redacted]&page=3');
    expect(JSON.stringify(line)).not.toContain(token);
  });

  it("leaves no raw value in any line logged for a failed request (the error filter's line too)", async () => {
    const token = secret();
    const code = secret();
    const res = await t.http
      .get(`/admin/api/__probe/boom?token=${token}&code=${code}`)
      .set('X-Request-Id', 'log-errored-all');
    expect(res.status).toBe(500);
    await requestLine('log-errored-all');

    // The request line and the filter's "<method> <url> failed" line, at least.
    const lines = t.logs.forRequest('log-errored-all');
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.join('\n')).toContain('token=');
    for (const value of [token, code]) {
      expect(t.logs.text()).not.toContain(value);
    }
  });
});
