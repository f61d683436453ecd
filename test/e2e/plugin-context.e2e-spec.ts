import { Body, Controller, HttpCode, Inject, Module, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import type { PluginContext, PluginDefinition } from '../../src/modules/plugins/plugin.types';
import { createUser } from '../utils/auth';
import { addresses, startSmtp, TestSmtp, useTestSmtp } from '../utils/smtp';
import { createTestApp, TestApp } from '../utils/test-app';

/**
 * What a plugin's context reaches beyond sign-in (CONTRACTS 10, issue 20): accounts by address
 * and accounts it creates (no password, its roles, an audit row, never a super-admin), budgets
 * of its own in the service's counter store, and the email module's templates.
 */

const CTX = 'CTX';

@Controller()
class ContextController {
  constructor(@Inject(CTX) private readonly ctx: PluginContext) {}

  @Post('find')
  @HttpCode(200)
  async find(@Body() body: { email: string }) {
    return { account: await this.ctx.users.findByEmail(body.email) };
  }

  @Post('create')
  @HttpCode(201)
  async create(@Body() body: { email: string; name: string; emailVerified: boolean; roles?: string[] }) {
    return { account: await this.ctx.users.create(body) };
  }

  @Post('limited')
  @HttpCode(200)
  async limited(@Body() body: { key: string }, @Res({ passthrough: true }) res: Response) {
    await this.ctx.limits.consume(body.key, { max: 2, windowSeconds: 60 }, res);
    return { ok: true };
  }

  @Post('mail')
  @HttpCode(200)
  async mail(@Body() body: { to: string; template: string }) {
    return this.ctx.email.sendTemplate({ to: body.to, template: body.template, variables: { name: 'Ada' } });
  }
}

@Module({})
class ContextModule {}

const plugin: PluginDefinition = {
  slug: 'ctxtest',
  version: '1.0.0',
  minServiceVersion: '0.1.0',
  module: (ctx) => ({
    module: ContextModule,
    controllers: [ContextController],
    providers: [{ provide: CTX, useValue: ctx }],
  }),
};

describe('plugin context: users, limits, email', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  const at = (path: string) => `/admin/api/plugins/ctxtest/${path}`;

  beforeAll(async () => {
    t = await createTestApp({ config: { plugins: [plugin] } });
    smtp = await startSmtp();
    await useTestSmtp(t, smtp);
  });

  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('findByEmail answers the account without secrets, whatever the case of the address', async () => {
    const u = await createUser(t, { email: 'Found.Me@example.test', name: 'Found', verified: true });
    const res = await t.http.post(at('find')).send({ email: 'found.me@EXAMPLE.test' }).expect(200);
    expect(res.body.account).toEqual({
      id: u.id,
      email: 'Found.Me@example.test',
      name: 'Found',
      isActive: true,
      emailVerified: true,
    });
    const none = await t.http.post(at('find')).send({ email: 'nobody@example.test' }).expect(200);
    expect(none.body.account).toBeNull();
  });

  it('create makes a password-less account with its roles and a register audit row naming the plugin', async () => {
    await t.db.query(`INSERT INTO roles (name, slug) VALUES ('Editor', 'editor')`);
    const res = await t.http
      .post(at('create'))
      .send({ email: 'made@example.test', name: 'Made', emailVerified: true, roles: ['editor'] })
      .expect(201);
    const id = res.body.account.id as string;
    expect(res.body.account).toEqual({
      id,
      email: 'made@example.test',
      name: 'Made',
      isActive: true,
      emailVerified: true,
    });
    const [row] = await t.db.query(
      `SELECT u.password_hash, array_agg(r.slug) AS roles FROM users u
         JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id WHERE u.id = $1 GROUP BY u.id`,
      [id],
    );
    expect(row).toEqual({ password_hash: null, roles: ['editor'] });
    const audit = await t.db.query(
      `SELECT event, actor_id, target, metadata FROM audit_log WHERE target = $1`,
      [`user:${id}`],
    );
    expect(audit).toEqual([
      { event: 'register', actor_id: id, target: `user:${id}`, metadata: { plugin: 'ctxtest' } },
    ]);

    const unverified = await t.http
      .post(at('create'))
      .send({ email: 'unverified@example.test', name: 'U', emailVerified: false })
      .expect(201);
    expect(unverified.body.account.emailVerified).toBe(false);
  });

  it('create refuses a taken address (409), an unknown role and a super-admin role (500), writing nothing', async () => {
    await createUser(t, { email: 'taken@example.test' });
    const dup = await t.http
      .post(at('create'))
      .send({ email: 'TAKEN@example.test', name: 'Dup', emailVerified: true })
      .expect(409);
    expect(dup.body.error.code).toBe('DUPLICATE');
    for (const roles of [['no-such-role'], ['super-admin']]) {
      await t.http
        .post(at('create'))
        .send({ email: 'never@example.test', name: 'Never', emailVerified: true, roles })
        .expect(500);
    }
    expect(await t.db.query(`SELECT id FROM users WHERE email = 'never@example.test'`)).toEqual([]);
  });

  it('two parallel creates of one address: one account, the other 409', async () => {
    const send = () =>
      t.http.post(at('create')).send({ email: 'race@example.test', name: 'Race', emailVerified: true });
    const answers = await Promise.all([send(), send(), send()]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await t.db.query(`SELECT id FROM users WHERE email = 'race@example.test'`)).toHaveLength(1);
  });

  it("limits.consume counts the plugin's own budget per key, with the service's headers and 429", async () => {
    const first = await t.http.post(at('limited')).send({ key: 'a' }).expect(200);
    expect(first.headers['x-ratelimit-limit']).toBe('2');
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    await t.http.post(at('limited')).send({ key: 'a' }).expect(200);
    const refused = await t.http.post(at('limited')).send({ key: 'a' }).expect(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    // Another key has its own budget.
    await t.http.post(at('limited')).send({ key: 'b' }).expect(200);
  });

  it('email.sendTemplate sends a stored template through the default provider; an unknown one is 404', async () => {
    const res = await t.http
      .post(at('mail'))
      .send({ to: 'reader@example.test', template: 'invite' })
      .expect(200);
    expect(typeof res.body.messageId).toBe('string');
    const mail = await smtp.waitFor((m) => addresses(m).includes('reader@example.test'));
    expect(mail.subject).toBeTruthy();
    await t.http
      .post(at('mail'))
      .send({ to: 'reader@example.test', template: 'no-such-template' })
      .expect(404);
  });
});
