import { GUARDS_METADATA } from '@nestjs/common/constants';
import {
  COOKIE_ONLY,
  OPTIONAL_AUTH,
  REQUIRED_PERMISSIONS,
  SUPER_ADMIN_ONLY,
} from '../../src/common/access/auth.decorators';
import { CONTENT_ROUTE, ContentRouteMeta } from '../../src/modules/content/content-route';
import { PREVIEW_READ } from '../../src/modules/content/preview-grant';
import { IS_PUBLIC } from '../../src/common/access/public.decorator';
import { AuthRateLimitGuard } from '../../src/modules/auth/guards/auth-rate-limit.guard';
import { CsrfGuard } from '../../src/modules/auth/guards/csrf.guard';
import { serviceRoutes } from '../utils/routes';
import { createTestApp, TestApp } from '../utils/test-app';

type Target = object;
const meta = <T>(key: string, ...targets: Target[]): T | undefined => {
  for (const target of targets) {
    const value = Reflect.getMetadata(key, target) as T | undefined;
    if (value !== undefined) {
      return value;
    }
  }
  return undefined;
};

/** The guards a route runs beyond the global ones: its class's and its handler's (`@UseGuards`). */
const guardsOf = (handler: Target, cls: Target): unknown[] => [
  ...((Reflect.getMetadata(GUARDS_METADATA, cls) as unknown[] | undefined) ?? []),
  ...((Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? []),
];

/**
 * DESIGN 8: every route of the service with who may reach it, in one snapshot, so a change in
 * access shows up in review. (Update with `npx jest test/e2e/route-access -u` and read the diff.)
 * Each line also marks `[auth-budget]` (the per-IP budget of SPEC 8, `AuthRateLimitGuard`),
 * `[csrf]` (a POST or PATCH checked by `CsrfGuard`, CONTRACTS 3.1) and `[preview-token]` (a read a
 * preview token opens): all are attached route by route, so a route that loses one shows in the
 * diff. test/e2e/auth-routes.e2e-spec.ts proves the first two over HTTP,
 * test/e2e/preview-tokens.e2e-spec.ts the last.
 */
describe('route access', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('matches the reviewed snapshot', () => {
    const lines: string[] = [];
    for (const { method, path: full, handler, cls } of serviceRoutes(t.app)) {
      const permissions = meta<string[]>(REQUIRED_PERMISSIONS, handler, cls);
      const content = meta<ContentRouteMeta>(CONTENT_ROUTE, handler);
      const access = meta<boolean>(IS_PUBLIC, handler, cls)
        ? 'public'
        : content
          ? `${content.kind} access rule, else ${content.action}-{slug}`
          : [
              meta<boolean>(COOKIE_ONLY, handler, cls) ? 'cookie-only' : 'authenticated',
              // Visitors reach it too; the handler decides (media files, the session read).
              ...(meta<boolean>(OPTIONAL_AUTH, handler, cls) ? ['or-visitor (handler decides)'] : []),
              ...(permissions?.length ? [permissions.join(' | ')] : []),
              ...(meta<boolean>(SUPER_ADMIN_ONLY, handler, cls) ? ['super-admin'] : []),
            ].join(' ');
      const guards = guardsOf(handler, cls);
      const markers = [
        ...(guards.includes(AuthRateLimitGuard) ? ['[auth-budget]'] : []),
        ...(guards.includes(CsrfGuard) && (method === 'POST' || method === 'PATCH') ? ['[csrf]'] : []),
        // A preview token naming the entry stands in for credentials (the content access guard).
        ...(meta<boolean>(PREVIEW_READ, handler) ? ['[preview-token]'] : []),
      ];
      lines.push([`${method.padEnd(6)} ${full.padEnd(52)} ${access}`, ...markers].join(' '));
    }
    expect(lines.sort().join('\n')).toMatchSnapshot();
  });
});
