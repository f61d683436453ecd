import { execFile } from 'node:child_process';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import {
  getSession,
  hasAllRoles,
  hasAnyRole,
  hasRole,
  login,
  requireAuth,
  seedSuperAdmin,
  ServiceError,
  type Session,
} from '../../src';
import { createUser, decodeJwt, PASSWORD, signIn } from '../utils/auth';
import { createTestApp, TestApp } from '../utils/test-app';

const ROOT = join(__dirname, '..', '..');
const DAY = 24 * 60 * 60;

/** What a host application hands the helpers: anything with headers (no cookie middleware needed). */
function req(headers: Record<string, string> = {}): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

const bearer = (token: string) => req({ authorization: `Bearer ${token}` });

async function expectServiceError(p: Promise<unknown>, code: string): Promise<ServiceError> {
  const error = await p.then(
    () => {
      throw new Error(`expected a ServiceError ${code}, got a result`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ServiceError);
  expect(error).toMatchObject({ code });
  return error as ServiceError;
}

/** The helpers refuse to run without a service in the process, and the log names the fix (SPEC 5.4.3). */
async function expectNotInitialised() {
  const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  try {
    const e = await expectServiceError(getSession(bearer('anything')), 'INTERNAL_ERROR');
    expect(e.status).toBe(500);
    await expectServiceError(requireAuth(req()), 'INTERNAL_ERROR');
    await expectServiceError(login({ email: 'a@example.com', password: PASSWORD }), 'INTERNAL_ERROR');
    await expectServiceError(hasRole(null, 'super-admin'), 'INTERNAL_ERROR');
    const messages = logged.mock.calls.map((c) => String(c[0]));
    expect(messages.length).toBeGreaterThanOrEqual(3);
    expect(messages.find((m) => m.startsWith('getSession()'))).toMatch(/not initialised.*SvcModule\.forRoot/);
    expect(messages.find((m) => m.startsWith('login()'))).toMatch(/SvcModule\.forRoot/);
  } finally {
    logged.mockRestore();
  }
}

// First: no createTestApp has run anywhere in this file yet (hooks run after collection).
describe('in-process helpers before the service starts in this process', () => {
  it('fail with INTERNAL_ERROR and log how to fix it', async () => {
    await expectNotInitialised();
  });
});

describe('in-process helpers with the service running (SPEC 5.4.3, 2.4a, 5.6)', () => {
  let t: TestApp;
  let superAdminRoleId: string;
  let editorRoleId: string;

  beforeAll(async () => {
    t = await createTestApp();
    superAdminRoleId = (await t.db.query(`SELECT id FROM roles WHERE slug = 'super-admin'`))[0].id;
    editorRoleId = (
      await t.db.query(`INSERT INTO roles (name, slug) VALUES ('Editor', 'editor') RETURNING id`)
    )[0].id;
  });
  afterAll(() => t.close());

  describe('getSession / requireAuth', () => {
    let user: { id: string; email: string; password: string };
    let token: string;
    let exp: number;

    beforeAll(async () => {
      user = await createUser(t, { name: 'Ada' });
      ({ token, exp } = (await signIn(t, user)).body);
    });

    it('reads a Bearer access token from a plain request object', async () => {
      const session = await getSession(bearer(token));
      expect(session).toEqual({
        user: { id: user.id, email: user.email, name: 'Ada', image: null, roleIds: [] },
        exp,
        method: 'bearer',
        isSuperAdmin: false,
        permissions: [],
      });
      expect(await requireAuth(bearer(token))).toEqual(session);
    });

    it('reads the session cookie from a raw Cookie header (no cookie middleware ran)', async () => {
      const r = req({ cookie: `theme=dark; svc_session=${encodeURIComponent(token)}; other=1` });
      const session = await getSession(r);
      expect(session).toMatchObject({ user: { id: user.id, email: user.email }, exp, method: 'session' });
      expect(await getSession(req({ cookie: `svc_session=${token}` }))).toMatchObject({ method: 'session' });
    });

    it('answers null without credentials, and requireAuth throws AUTH_REQUIRED', async () => {
      expect(await getSession(req())).toBeNull();
      expect(await getSession(req({ cookie: 'theme=dark' }))).toBeNull();
      const e = await expectServiceError(requireAuth(req()), 'AUTH_REQUIRED');
      expect(e.status).toBe(401);
    });

    it('answers null for an unreadable, tampered or foreign token', async () => {
      const [h, p] = token.split('.');
      const tampered = `${h}.${p}.${'A'.repeat(43)}`;
      const other = Buffer.from(JSON.stringify({ sub: user.id, ver: 0, roleIds: [] })).toString('base64url');
      for (const r of [
        bearer('garbage'),
        bearer(tampered),
        bearer(`${h}.${other}.${token.split('.')[2]}`),
        bearer('svc_live_not-a-real-key'),
        req({ authorization: 'Basic dXNlcjpwYXNz' }),
        req({ cookie: 'svc_session=garbage' }),
        req({ cookie: `svc_session=${tampered}` }),
      ]) {
        expect(await getSession(r)).toBeNull();
      }
      await expectServiceError(requireAuth(bearer('garbage')), 'AUTH_REQUIRED');
    });

    it('answers null for a session cookie that is not valid percent-encoding', async () => {
      // cookie-parser leaves such a value as it is; the in-process parser must not throw URIError.
      expect(await getSession(req({ cookie: 'svc_session=%E0%A4%A' }))).toBeNull();
    });
  });

  describe('hasRole / hasAnyRole / hasAllRoles', () => {
    let admin: Session;
    let both: Session;
    let plain: Session;

    beforeAll(async () => {
      const sessionOf = async (roles: string[]) => {
        const u = await createUser(t, { roles });
        return (await getSession(bearer((await signIn(t, u)).body.token)))!;
      };
      admin = await sessionOf(['super-admin']);
      both = await sessionOf(['super-admin', 'editor']);
      plain = await sessionOf([]);
    });

    it('names roles by slug or by id', async () => {
      expect(admin.user.roleIds).toEqual([superAdminRoleId]);
      expect(await hasRole(admin, 'super-admin')).toBe(true);
      expect(await hasRole(admin, superAdminRoleId)).toBe(true);
      expect(await hasRole(admin, 'editor')).toBe(false);
      expect(await hasRole(admin, editorRoleId)).toBe(false);
      expect(await hasRole(plain, 'super-admin')).toBe(false);
      expect(await hasRole(null, 'super-admin')).toBe(false);
    });

    it('hasAnyRole needs one of the roles', async () => {
      expect(await hasAnyRole(admin, ['editor', 'super-admin'])).toBe(true);
      expect(await hasAnyRole(admin, ['editor', editorRoleId])).toBe(false);
      expect(await hasAnyRole(both, [editorRoleId])).toBe(true);
      expect(await hasAnyRole(plain, ['editor', 'super-admin'])).toBe(false);
      expect(await hasAnyRole(admin, [])).toBe(false);
      expect(await hasAnyRole(null, ['super-admin'])).toBe(false);
    });

    it('hasAllRoles needs every role', async () => {
      expect(await hasAllRoles(admin, ['super-admin', 'editor'])).toBe(false);
      expect(await hasAllRoles(both, ['super-admin', 'editor'])).toBe(true);
      expect(await hasAllRoles(both, [superAdminRoleId, 'editor'])).toBe(true);
      expect(await hasAllRoles(plain, ['editor'])).toBe(false);
      expect(await hasAllRoles(null, ['editor'])).toBe(false);
    });
  });

  describe('Direct API login', () => {
    let user: { id: string; email: string; password: string };
    let result: Awaited<ReturnType<typeof login>>;
    let before: number;

    beforeAll(async () => {
      user = await createUser(t, { roles: ['super-admin'] });
      before = Math.floor(Date.now() / 1000);
      result = await login({ email: user.email, password: user.password });
    });

    it('answers { user, token, exp } with a 30-day expiry', () => {
      expect(Object.keys(result).sort()).toEqual(['exp', 'token', 'user']);
      expect(result.user).toMatchObject({ id: user.id, email: user.email, roleIds: [superAdminRoleId] });
      expect(result.exp - before).toBeGreaterThanOrEqual(30 * DAY - 5);
      expect(result.exp - before).toBeLessThanOrEqual(30 * DAY + 5);
      expect(decodeJwt(result.token).payload).toMatchObject({ sub: user.id, exp: result.exp });
    });

    it('mints a token with no `typ` header (SPEC 5.2.5)', () => {
      expect(decodeJwt(result.token).header).toEqual({ alg: 'HS256' });
    });

    it('mints a token the REST API accepts as Authorization: Bearer', async () => {
      const me = await t.http.get('/admin/api/me').set('Authorization', `Bearer ${result.token}`);
      expect({ status: me.status, body: me.body }).toMatchObject({
        status: 200,
        body: { id: user.id, email: user.email },
      });
      // The same token through the in-process reader.
      expect(await getSession(bearer(result.token))).toMatchObject({
        user: { id: user.id },
        exp: result.exp,
        method: 'bearer',
      });
    });

    it('refuses a wrong password or an unknown account with AUTH_INVALID_CREDENTIALS', async () => {
      const user = await createUser(t);
      const e = await expectServiceError(
        login({ email: user.email, password: 'Wrong-Password-1' }),
        'AUTH_INVALID_CREDENTIALS',
      );
      expect(e.status).toBe(401);
      await expectServiceError(
        login({ email: 'nobody-here@example.com', password: PASSWORD }),
        'AUTH_INVALID_CREDENTIALS',
      );
    });
  });

  describe('seedSuperAdmin', () => {
    const paths = (e: ServiceError) =>
      ((e.data?.errors ?? []) as Array<{ path: string }>).map((i) => i.path).sort();

    it('requires email and password: VALIDATION_ERROR naming the missing field', async () => {
      expect(
        paths(await expectServiceError(seedSuperAdmin(t.db, { password: PASSWORD }), 'VALIDATION_ERROR')),
      ).toEqual(['email']);
      expect(
        paths(
          await expectServiceError(seedSuperAdmin(t.db, { email: 'seed1@example.com' }), 'VALIDATION_ERROR'),
        ),
      ).toEqual(['password']);
      const both = await expectServiceError(seedSuperAdmin(t.db, {}), 'VALIDATION_ERROR');
      expect(both.status).toBe(400);
      expect(paths(both)).toEqual(['email', 'password']);
      for (const e of both.data!.errors as Array<{ code: string; message: string }>) {
        expect(typeof e.code).toBe('string');
        expect(e.message.length).toBeGreaterThan(0);
      }
    });

    it('refuses a weak password and a malformed email', async () => {
      for (const password of ['short1A', 'alllowercase1', 'ALLUPPERCASE1', 'NoDigitsHere']) {
        const e = await expectServiceError(
          seedSuperAdmin(t.db, { email: 'seed2@example.com', password }),
          'VALIDATION_ERROR',
        );
        expect(paths(e)).toEqual(['password']);
      }
      const e = await expectServiceError(
        seedSuperAdmin(t.db, { email: 'not-an-email', password: PASSWORD }),
        'VALIDATION_ERROR',
      );
      expect(paths(e)).toEqual(['email']);
      const count = await t.db.query(`SELECT count(*)::int AS n FROM users WHERE email LIKE 'seed2@%'`);
      expect(count[0].n).toBe(0);
    });

    it('creates a verified super-admin who can sign in; a second call with the same email is DUPLICATE', async () => {
      const email = `seeded-${Date.now()}@example.com`;
      const created = await seedSuperAdmin(t.db, { email, password: PASSWORD, name: 'Seeded Admin' });
      expect(created).toEqual({ id: expect.any(String), email });

      const { browser, body } = await signIn(t, { email, password: PASSWORD });
      expect(body.user.id).toBe(created.id);
      const perms = await browser.agent.get('/admin/api/me/permissions');
      expect(perms.status).toBe(200);
      expect(perms.body.isSuperAdmin).toBe(true);
      const me = await browser.agent.get('/admin/api/me');
      expect(me.body).toMatchObject({ email, name: 'Seeded Admin', emailVerified: true });

      const dup = await expectServiceError(seedSuperAdmin(t.db, { email, password: PASSWORD }), 'DUPLICATE');
      expect(dup.status).toBe(409);
      await expectServiceError(
        seedSuperAdmin(t.db, { email: email.toUpperCase(), password: PASSWORD }),
        'DUPLICATE',
      );
    }, 20_000);
  });

  describe('seed-admin command line (run from source with jiti, no build)', () => {
    function seedCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
      return new Promise((resolve) => {
        execFile(
          process.execPath,
          [
            join(ROOT, 'node_modules', 'jiti', 'lib', 'jiti-cli.mjs'),
            join(ROOT, 'src', 'cli', 'seed-admin.ts'),
            ...args,
          ],
          {
            cwd: ROOT,
            // Always the test database: without DATABASE_URL the CLI would start an embedded server.
            env: { ...process.env, DATABASE_URL: t.database.url, JITI_FS_CACHE: 'false' },
            timeout: 60_000,
          },
          (error, stdout, stderr) => {
            const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
            resolve({ code, stdout, stderr });
          },
        );
      });
    }

    const userCount = async (email: string) =>
      (await t.db.query(`SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)`, [email]))[0].n;

    it('refuses to run without email and password (no default credentials)', async () => {
      const none = await seedCli([]);
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/email is required/);
      expect(none.stderr).toMatch(/password is required/);

      const noPassword = await seedCli(['--email', 'cli-nopass@example.com']);
      expect(noPassword.code).toBe(1);
      expect(noPassword.stderr).toMatch(/password is required/);
      expect(await userCount('cli-nopass@example.com')).toBe(0);

      const weak = await seedCli(['--email', 'cli-weak@example.com', '--password', 'weak']);
      expect(weak.code).toBe(1);
      expect(weak.stderr).toMatch(/password/);
      expect(await userCount('cli-weak@example.com')).toBe(0);
    }, 60_000);

    it('refuses unknown options', async () => {
      const res = await seedCli(['--email', 'cli-x@example.com', '--password', PASSWORD, '--role', 'admin']);
      expect(res.code).toBe(1);
      expect(res.stderr).toMatch(/--role/);
      expect(await userCount('cli-x@example.com')).toBe(0);
    }, 60_000);

    it('creates a super-admin who can sign in, and refuses the same email twice', async () => {
      const email = `cli-${Date.now()}@example.com`;
      const res = await seedCli(['--email', email, '--password', PASSWORD, '--name', 'Cli Admin']);
      expect(res.stderr).toBe('');
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(
        new RegExp(`^super-admin ${email.replace(/[.]/g, '\\.')} created \\(id [0-9a-f-]{36}\\)\\n$`),
      );

      const { browser } = await signIn(t, { email, password: PASSWORD });
      expect((await browser.agent.get('/admin/api/me/permissions')).body.isSuperAdmin).toBe(true);

      const again = await seedCli(['--email', email, '--password', PASSWORD]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/already exists/);
      expect(await userCount(email)).toBe(1);
    }, 60_000);
  });
});

describe('in-process helpers with two instances in one process', () => {
  let a: TestApp;
  afterAll(() => a?.close());

  it('keep working on the remaining instance after another one closes', async () => {
    a = await createTestApp();
    const user = await createUser(a);
    const { token } = (await signIn(a, user)).body;
    expect(await getSession(bearer(token))).toMatchObject({ user: { id: user.id } });

    const b = await createTestApp({ database: a.database });
    await b.close();
    // `a` still serves this process: the helpers must not act as if no service were running.
    expect(await getSession(bearer(token))).toMatchObject({ user: { id: user.id }, method: 'bearer' });
    expect((await login({ email: user.email, password: user.password })).user.id).toBe(user.id);
  }, 30_000);
});

describe('in-process helpers after every service in the process closed', () => {
  it('fail with INTERNAL_ERROR again', async () => {
    await expectNotInitialised();
  });
});
