import { isAdminPagePath, isSameOriginPath, safeNext } from '../../src/common/redirects';
import { nextPath } from '../../admin/src/auth/next';

const KEPT = [
  '/admin',
  '/admin/',
  '/admin?tab=security',
  '/admin#keys',
  '/admin/posts',
  '/admin/posts/',
  '/admin/posts/12?x=1&next=/admin/api/x',
  '/admin/posts#/admin/api/x',
  '/admin/posts/%C3%A9t%C3%A9',
  '/admin/apis',
  '/admin/x/api',
  '/admin/login?next=%2Fadmin%2Fposts',
];

const REPLACED = [
  // Another origin.
  'https://evil.example/admin',
  '//evil.example/admin',
  '/\\evil.example',
  'javascript:alert(1)',
  'admin',
  '',
  // Not an admin page.
  '/',
  '/posts',
  '/administrator',
  '/adminapi',
  '/Admin',
  '/%61dmin',
  // The API, however written.
  '/admin/api',
  '/admin/api/',
  '/admin/api?x=1',
  '/admin/api#x',
  '/admin/api/plugins/magic-link/verify?token=abc',
  '/admin/API/auth/session',
  '/admin/Api',
  '/admin/%61pi/auth/session',
  '/admin/%41PI',
  // Dot segments, encoded or not; empty segments; encoded slashes and backslashes; double encoding.
  '/admin/./api',
  '/admin/.',
  '/admin/..',
  '/admin/x/../api/auth/session',
  '/admin/%2e%2e/admin/api',
  '/admin/%2E/api',
  '/admin/.%2e/x',
  '/admin//api',
  '/admin//',
  '/admin/x//y',
  '/admin/x%2f..%2fapi',
  '/admin/x%2F..%2Fapi',
  '/admin/x%5c..%5capi',
  '/admin/%252e%252e/api',
  // Undecodable, control characters.
  '/admin/%E0%A4%A',
  '/admin/%',
  '/admin/x%0aapi',
  '/admin/\tapi',
  '/admin\n',
];

describe('safeNext: where a sign-in lands', () => {
  it.each(KEPT)('keeps the admin page %s', (next) => {
    expect(safeNext(next)).toBe(next);
  });

  it.each(REPLACED)('replaces %j by /admin', (next) => {
    expect(safeNext(next)).toBe('/admin');
  });

  it('replaces anything that is not a string by /admin', () => {
    for (const next of [undefined, null, 5, ['/admin/posts'], { toString: () => '/admin/posts' }]) {
      expect(safeNext(next)).toBe('/admin');
    }
  });

  it('isAdminPagePath is stricter than isSameOriginPath', () => {
    expect(isSameOriginPath('/admin/api/x')).toBe(true);
    expect(isAdminPagePath('/admin/api/x')).toBe(false);
    expect(isSameOriginPath('//evil.example')).toBe(false);
    expect(isAdminPagePath('/admin/posts')).toBe(true);
  });
});

describe("the admin app's sign-in: nextPath", () => {
  const nextPathOf = (query: Record<string, string>): string => nextPath(`?${new URLSearchParams(query)}`);

  it.each([...KEPT, ...REPLACED])('agrees with safeNext on %j', (next) => {
    expect(nextPathOf({ next })).toBe(safeNext(next));
  });

  it('is /admin without a next', () => {
    expect(nextPathOf({})).toBe('/admin');
  });
});
