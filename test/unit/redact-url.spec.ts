import { createRootLogger } from '../../src/common/logger';
import { redactUrl, SECRET_PARAM } from '../../src/common/redact-url';
import { LogCapture } from '../utils/log-capture';

describe('redactUrl (request log lines)', () => {
  it('redacts the values of emailed-link and callback parameters, keeping names and the rest', () => {
    expect(redactUrl('/admin/reset-password?token=abc123&x=1')).toBe(
      '/admin/reset-password?token=[redacted]&x=1',
    );
    expect(redactUrl('/admin/api/auth/session?code=c0de&state=st4te')).toBe(
      '/admin/api/auth/session?code=[redacted]&state=[redacted]',
    );
    expect(redactUrl('https://app.example/admin/verify-email?token=t&next=%2Fhome')).toBe(
      'https://app.example/admin/verify-email?token=[redacted]&next=%2Fhome',
    );
  });

  it('answers a URL without query or fragment unchanged (the fast path)', () => {
    for (const url of ['/', '/admin/api/collections/posts/entries', '/admin/api/auth/token', '']) {
      expect(redactUrl(url)).toBe(url);
    }
  });

  it('answers a query without secret-looking text or escapes unchanged, and still redacts the rest', () => {
    const url = '/admin/api/collections/posts/entries?limit=10&page=2&sort=-views#top';
    expect(redactUrl(url)).toBe(url);
    // A secret-looking value (not name) takes the long way and comes back unchanged.
    expect(redactUrl('/p?q=token&x=1')).toBe('/p?q=token&x=1');
    // An escaped name, with nothing secret-looking in the raw text.
    expect(redactUrl('/p?%6Bey=v&x=1')).toBe('/p?%6Bey=[redacted]&x=1');
    // Only in the fragment, or a fragment before a ?.
    expect(redactUrl('/p?x=1#code=c')).toBe('/p?x=1#code=[redacted]');
    expect(redactUrl('/p#a?otp=1')).toBe('/p#a?otp=[redacted]');
  });

  it('leaves harmless parameters, and the path, untouched', () => {
    const url =
      '/admin/api/collections/posts/entries?limit=20&page=2&sort=-views&where[views][greater_than]=500&status=draft';
    expect(redactUrl(url)).toBe(url);
    // A path segment named like a secret is not a parameter.
    expect(redactUrl('/token/code?x=1')).toBe('/token/code?x=1');
  });

  it('redacts every occurrence of a repeated parameter, and array or nested forms', () => {
    expect(redactUrl('/p?token=a&x=1&token=b&token[]=c&user[password]=d')).toBe(
      '/p?token=[redacted]&x=1&token=[redacted]&token[]=[redacted]&user[password]=[redacted]',
    );
  });

  it('matches names case-insensitively, anywhere in the name, and percent-decoded', () => {
    expect(redactUrl('/p?TOKEN=a&access_token=b&apiKey=c&X-Amz-Signature=d&sig=e&otp=f')).toBe(
      '/p?TOKEN=[redacted]&access_token=[redacted]&apiKey=[redacted]&X-Amz-Signature=[redacted]&sig=[redacted]&otp=[redacted]',
    );
    // The query parser reads `%74oken` as `token`; the name stays as the client wrote it.
    expect(redactUrl('/p?%74oken=a&%54OKEN=b&st%61te=c')).toBe(
      '/p?%74oken=[redacted]&%54OKEN=[redacted]&st%61te=[redacted]',
    );
    // A malformed escape elsewhere in the name does not stop the decoding of the rest.
    expect(redactUrl('/p?%74oken%zz=a')).toBe('/p?%74oken%zz=[redacted]');
  });

  it('covers the documented set of names', () => {
    const names = [
      'token',
      'refreshToken',
      'id_token',
      'code',
      'code_verifier',
      'state',
      'secret',
      'client_secret',
      'password',
      'newPassword',
      'passwd',
      'pwd',
      'key',
      'api_key',
      'signature',
      'sig',
      'otp',
      'nonce',
      'auth',
      'authorization',
      'session',
      'sessionId',
      'ticket',
      'hash',
      'jwt',
      'credential',
      'preview',
    ];
    for (const name of names) {
      expect([name, redactUrl(`/p?${name}=v`)]).toEqual([name, `/p?${name}=[redacted]`]);
    }
    for (const name of [
      'limit',
      'page',
      'sort',
      'search',
      'depth',
      'select',
      'status',
      'richTextFormat',
      'x',
    ]) {
      expect([name, SECRET_PARAM.test(name)]).toEqual([name, false]);
    }
  });

  it('treats ; like & (fail safe: a client that meant it as a separator must not leak)', () => {
    expect(redactUrl('/p?a=1;token=t;b=2')).toBe('/p?a=1;token=[redacted];b=2');
  });

  it('redacts the fragment the same way (OAuth implicit flow), and a ? inside it', () => {
    expect(redactUrl('/cb#access_token=t&token_type=bearer&x=1')).toBe(
      '/cb#access_token=[redacted]&token_type=[redacted]&x=1',
    );
    expect(redactUrl('/p?token=a&x=1#state=s')).toBe('/p?token=[redacted]&x=1#state=[redacted]');
    expect(redactUrl('/p#frag?token=a')).toBe('/p#frag?token=[redacted]');
    expect(redactUrl('/p#section-2')).toBe('/p#section-2');
  });

  it('keeps empty values and value-less names as they are (nothing to hide)', () => {
    for (const url of ['/p?', '/p?token', '/p?token=', '/p?=abc', '/p?&&', '/p#']) {
      expect(redactUrl(url)).toBe(url);
    }
    expect(redactUrl('/p?token==a=b')).toBe('/p?token=[redacted]');
  });
});

describe('the request serializer of the root logger', () => {
  function logged(req: object): Record<string, unknown> {
    const stream = new LogCapture();
    createRootLogger({ level: 'info', pretty: false, stream }).info({ req }, 'something about a request');
    return (stream.records()[0] as { req: Record<string, unknown> }).req;
  }

  it('logs a request passed as `req` lean: the redacted URL (originalUrl first), never its headers', () => {
    const headers = {
      referer: 'http://localhost:3000/admin/reset-password?token=from-referer',
      authorization: 'Bearer b',
      accept: '*/*',
    };
    const req = logged({
      id: 'r-1',
      method: 'POST',
      originalUrl: '/x?token=t&a=1',
      url: '/?token=t',
      headers,
    });
    expect(req).toEqual({ id: 'r-1', method: 'POST', url: '/x?token=[redacted]&a=1' });
    expect(logged({ method: 'GET', url: '/y?code=c', headers: {} }).url).toBe('/y?code=[redacted]');
  });
});
