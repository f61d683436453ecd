import type { ParsedMail } from 'mailparser';
import { EmailService } from '../../src/modules/email/email.service';
import { EMAIL_TEMPLATES } from '../../src/modules/email/email.constants';
import { createUser, signIn } from '../utils/auth';
import { addresses, extractLink, startSmtp, TestSmtp, useTestSmtp } from '../utils/smtp';
import { createTestApp, TestApp } from '../utils/test-app';

/** The SMTP password of the test server's account: must never leave the database sealed. */
const SMTP_USER = 'mailer';
const SMTP_PASSWORD = 'Smtp-Secret-Pa55word';
const NEW_SMTP_PASSWORD = 'Rotated-Smtp-Pa55word';

type Method = 'get' | 'post' | 'patch' | 'delete';

describe('email providers, templates and sending (real SMTP server)', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let token: string;
  /** Every response body, to check no secret ever went out. */
  const bodies: string[] = [];

  function api(method: Method, path: string, body?: object, bearer: string | null = token) {
    let req = t.http[method](`/admin/api${path}`);
    if (bearer) {
      req = req.set('Authorization', `Bearer ${bearer}`);
    }
    const sent = body === undefined ? req : req.send(body);
    return sent.then((res) => {
      bodies.push(res.text);
      return res;
    });
  }

  function mailTo(address: string): Promise<ParsedMail> {
    return smtp.waitFor((m) => addresses(m).includes(address.toLowerCase()));
  }

  function providerBody(over: Record<string, unknown> = {}) {
    return {
      name: 'Test SMTP',
      fromEmail: 'no-reply@svc.test',
      fromName: 'svc tests',
      config: { host: smtp.host, port: smtp.port, secure: false, user: SMTP_USER, password: SMTP_PASSWORD },
      ...over,
    };
  }

  beforeAll(async () => {
    smtp = await startSmtp({ users: { [SMTP_USER]: SMTP_PASSWORD, other: NEW_SMTP_PASSWORD } });
    t = await createTestApp();
    const admin = await createUser(t, { roles: ['super-admin'] });
    token = (await signIn(t, admin)).body.token;
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  describe('access', () => {
    it('needs credentials: 401 AUTH_REQUIRED', async () => {
      for (const [method, path] of [
        ['get', '/email-providers'],
        ['get', '/email-templates'],
        ['get', '/email-templates/layout'],
        ['post', '/email/send'],
        ['post', '/email/send-with-template'],
      ] as Array<[Method, string]>) {
        const res = await api(method, path, method === 'post' ? {} : undefined, null);
        expect([path, res.status, res.body.error.code]).toEqual([path, 401, 'AUTH_REQUIRED']);
      }
    });

    it('needs the SPEC 4.2 permission: 403 FORBIDDEN without it', async () => {
      const [role] = await t.db.query(
        `INSERT INTO roles (name, slug) VALUES ('Template reader', 'template-reader') RETURNING id`,
      );
      await t.db.query(
        `INSERT INTO role_permissions (role_id, permission_id)
         SELECT $1, id FROM permissions WHERE slug = 'read-email-templates'`,
        [role.id],
      );
      const reader = await createUser(t, { roles: ['template-reader'] });
      const readerToken = (await signIn(t, reader)).body.token;
      const plain = await createUser(t);
      const plainToken = (await signIn(t, plain)).body.token;

      const providers = await api('get', '/email-providers', undefined, readerToken);
      expect(providers.status).toBe(403);
      expect(providers.body.error.code).toBe('FORBIDDEN');
      expect((await api('get', '/email-templates', undefined, readerToken)).status).toBe(200);
      expect((await api('get', '/email-templates/layout', undefined, readerToken)).status).toBe(200);
      for (const [method, path, body] of [
        ['post', '/email-providers', providerBody()],
        ['post', '/email-templates', { slug: 'x', name: 'x', subject: 'x', html: 'x' }],
        ['patch', '/email-templates/layout', { header: 'x' }],
      ] as Array<[Method, string, object]>) {
        const res = await api(method, path, body, readerToken);
        expect([path, res.status, res.body.error?.code]).toEqual([path, 403, 'FORBIDDEN']);
      }
      // Authenticated is enough for /email/*: validation runs (400), not the permission check.
      const send = await api('post', '/email/send', {}, plainToken);
      expect(send.status).toBe(400);
      expect((await api('get', '/email-templates', undefined, plainToken)).status).toBe(403);
    });
  });

  describe('/email-providers', () => {
    let providerId: string;

    it('creates a provider: 201 { message, item }, password masked, sealed at rest', async () => {
      const res = await api('post', '/email-providers', providerBody());
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: {
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          name: 'Test SMTP',
          type: 'smtp',
          fromEmail: 'no-reply@svc.test',
          fromName: 'svc tests',
          config: { host: smtp.host, port: smtp.port, secure: false, user: SMTP_USER, password: '********' },
          // The first provider becomes the default.
          isDefault: true,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      });
      providerId = res.body.item.id;

      const [row] = await t.db.query(`SELECT * FROM email_providers WHERE id = $1`, [providerId]);
      expect(row.password_enc).toMatch(/^v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
      expect(JSON.stringify(row)).not.toContain(SMTP_PASSWORD);
      expect(row.config).toEqual({ host: smtp.host, port: smtp.port, secure: false, user: SMTP_USER });
    });

    it('reads it bare and lists it', async () => {
      const one = await api('get', `/email-providers/${providerId}`);
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ id: providerId, config: { password: '********' } });
      const list = await api('get', '/email-providers');
      expect(list.status).toBe(200);
      expect(list.body.items.map((p: { id: string }) => p.id)).toEqual([providerId]);
      expect(list.body.meta).toEqual({
        total: 1,
        page: 1,
        limit: 10,
        totalPages: 1,
        hasNext: false,
        hasPrev: false,
      });
    });

    it('sends a test email that the SMTP server receives (authenticated with the decrypted password)', async () => {
      smtp.clear();
      const res = await api('post', `/email-providers/${providerId}/test`, { to: 'ops@example.com' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.any(String) });
      const mail = await mailTo('ops@example.com');
      expect(mail.subject).toBe('Test email');
      expect(mail.from?.value[0]).toEqual({ address: 'no-reply@svc.test', name: 'svc tests' });
      expect(mail.html).toContain('Test SMTP');
      expect(smtp.auths).toEqual([{ username: SMTP_USER, password: SMTP_PASSWORD }]);
    });

    it('answers 503 SERVICE_UNAVAILABLE with the server reply when the SMTP server refuses', async () => {
      const res = await api('post', `/email-providers/${providerId}/test`, { to: 'nobody@reject.test' });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(res.body.error.data.reason).toMatch(/^550 5\.1\.1 Mailbox does not exist/);
      const lines = t.logs.lines.filter((l) => l.includes('email delivery failed'));
      expect(lines.at(-1)).toContain(providerId);
    });

    it('PATCH keeps the stored password when it is absent or masked, and replaces it when given', async () => {
      const [before] = await t.db.query(`SELECT password_enc FROM email_providers WHERE id = $1`, [
        providerId,
      ]);
      const renamed = await api('patch', `/email-providers/${providerId}`, { name: 'Renamed' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({
        message: expect.any(String),
        item: expect.objectContaining({ name: 'Renamed' }),
      });
      expect(renamed.body.item.config).toEqual({
        host: smtp.host,
        port: smtp.port,
        secure: false,
        user: SMTP_USER,
        password: '********',
      });
      const masked = await api('patch', `/email-providers/${providerId}`, {
        config: { password: '********', port: smtp.port },
      });
      expect(masked.status).toBe(200);
      const [kept] = await t.db.query(`SELECT password_enc FROM email_providers WHERE id = $1`, [providerId]);
      expect(kept.password_enc).toBe(before.password_enc);

      const rotated = await api('patch', `/email-providers/${providerId}`, {
        config: { user: 'other', password: NEW_SMTP_PASSWORD },
      });
      expect(rotated.status).toBe(200);
      expect(rotated.body.item.config).toMatchObject({ user: 'other', password: '********' });
      const [after] = await t.db.query(`SELECT password_enc FROM email_providers WHERE id = $1`, [
        providerId,
      ]);
      expect(after.password_enc).not.toBe(before.password_enc);
      expect(after.password_enc).not.toContain(NEW_SMTP_PASSWORD);

      smtp.clear();
      expect(
        (await api('post', `/email-providers/${providerId}/test`, { to: 'ops2@example.com' })).status,
      ).toBe(200);
      expect(smtp.auths).toEqual([{ username: 'other', password: NEW_SMTP_PASSWORD }]);
    });

    it('answers 503 with the server reply (and no password) when the SMTP login fails', async () => {
      const bad = await api(
        'post',
        '/email-providers',
        providerBody({ name: 'Wrong login', isDefault: false }),
      );
      const wrongPassword = 'Not-The-Right-Pa55';
      await api('patch', `/email-providers/${bad.body.item.id}`, { config: { password: wrongPassword } });
      const res = await api('post', `/email-providers/${bad.body.item.id}/test`, { to: 'ops@example.com' });
      expect(res.status).toBe(503);
      expect(res.body.error.data.reason).toMatch(/^535/);
      expect(res.text).not.toContain(wrongPassword);
      expect(t.logs.text()).not.toContain(wrongPassword);
      expect((await api('delete', `/email-providers/${bad.body.item.id}`)).status).toBe(200);
    });

    it('removes the password with null', async () => {
      const p = await api(
        'post',
        '/email-providers',
        providerBody({ name: 'No password', isDefault: false }),
      );
      const res = await api('patch', `/email-providers/${p.body.item.id}`, {
        config: { user: null, password: null },
      });
      expect(res.body.item.config).toEqual({
        host: smtp.host,
        port: smtp.port,
        secure: false,
        user: null,
        password: null,
      });
      const [row] = await t.db.query(`SELECT password_enc FROM email_providers WHERE id = $1`, [
        p.body.item.id,
      ]);
      expect(row.password_enc).toBeNull();
      await api('delete', `/email-providers/${p.body.item.id}`);
    });

    it('switches the default: only one default at a time', async () => {
      const b = await api('post', '/email-providers', providerBody({ name: 'Second', isDefault: false }));
      expect(b.status).toBe(201);
      expect(b.body.item.isDefault).toBe(false);
      const second = b.body.item.id as string;

      const res = await api('patch', `/email-providers/${second}/default`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: expect.objectContaining({ id: second, isDefault: true }),
      });
      expect((await api('get', `/email-providers/${providerId}`)).body.isDefault).toBe(false);

      // A new provider created as default takes over; concurrent switches leave exactly one.
      const c = await api('post', '/email-providers', providerBody({ name: 'Third', isDefault: true }));
      expect(c.body.item.isDefault).toBe(true);
      expect((await api('get', `/email-providers/${second}`)).body.isDefault).toBe(false);
      const results = await Promise.all(
        [providerId, second, c.body.item.id, providerId].map((id) =>
          api('patch', `/email-providers/${id}/default`),
        ),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM email_providers WHERE is_default`);
      expect(n).toBe(1);

      for (const id of [second, c.body.item.id]) {
        const del = await api('delete', `/email-providers/${id}`);
        expect(del.status).toBe(200);
        expect(del.body).toEqual({ message: expect.any(String), item: expect.objectContaining({ id }) });
        expect((await api('get', `/email-providers/${id}`)).status).toBe(404);
      }
      // The first provider is the default again for the tests that follow.
      expect((await api('patch', `/email-providers/${providerId}/default`)).body.item.isDefault).toBe(true);
    });

    it('searches and sorts the list', async () => {
      await api('post', '/email-providers', providerBody({ name: 'Zeta relay', isDefault: false }));
      await api('post', '/email-providers', providerBody({ name: 'Alpha 100% relay', isDefault: false }));
      const sorted = await api('get', '/email-providers?sort=-name');
      expect(sorted.body.items.map((p: { name: string }) => p.name)).toEqual([
        'Zeta relay',
        'Renamed',
        'Alpha 100% relay',
      ]);
      const found = await api('get', '/email-providers?search=100%25');
      expect(found.body.items.map((p: { name: string }) => p.name)).toEqual(['Alpha 100% relay']);
      expect((await api('get', '/email-providers?sort=password')).status).toBe(400);
    });

    it('validates bodies strictly and answers 404 for unknown or malformed ids', async () => {
      const res = await api('post', '/email-providers', {
        ...providerBody(),
        extra: 1,
        fromEmail: 'not-an-address',
        config: { host: 'smtp.example.com', port: 'abc', secure: false, bogus: true },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      const paths = res.body.error.data.errors.map((e: { path: string }) => e.path);
      expect(paths).toEqual(expect.arrayContaining(['extra', 'fromEmail', 'config.port', 'config.bogus']));
      const noConfig = await api('post', '/email-providers', { name: 'x', fromEmail: 'a@b.test' });
      expect(noConfig.body.error.data.errors.map((e: { path: string }) => e.path)).toContain('config');
      const nullName = await api('patch', `/email-providers/${providerId}`, { name: null });
      expect(nullName.status).toBe(400);

      for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
        for (const [method, path] of [
          ['get', `/email-providers/${id}`],
          ['patch', `/email-providers/${id}`],
          ['delete', `/email-providers/${id}`],
          ['patch', `/email-providers/${id}/default`],
          ['post', `/email-providers/${id}/test`],
        ] as Array<[Method, string]>) {
          const r = await api(
            method,
            path,
            method === 'post' ? { to: 'a@b.test' } : method === 'patch' ? {} : undefined,
          );
          expect([path, r.status, r.body.error?.code]).toEqual([path, 404, 'NOT_FOUND']);
        }
      }
    });
  });

  describe('/email-templates', () => {
    let templateId: string;

    it('lists the built-in templates with List meta', async () => {
      const res = await api('get', '/email-templates?limit=100');
      expect(res.status).toBe(200);
      expect(res.body.items.map((x: { slug: string }) => x.slug)).toEqual(
        expect.arrayContaining(Object.values(EMAIL_TEMPLATES)),
      );
      expect(res.body.meta).toEqual({
        total: 5,
        page: 1,
        limit: 100,
        totalPages: 1,
        hasNext: false,
        hasPrev: false,
      });
      const verify = res.body.items.find((x: { slug: string }) => x.slug === 'verify-email');
      expect(verify).toEqual({
        id: expect.any(String),
        slug: 'verify-email',
        name: expect.any(String),
        subject: expect.any(String),
        html: expect.stringContaining('{{link}}'),
        text: expect.stringContaining('{{link}}'),
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
    });

    it('pages, clamps the limit and refuses bad page/limit', async () => {
      const page = await api('get', '/email-templates?limit=3&page=2&sort=slug');
      expect(page.body.items.map((x: { slug: string }) => x.slug)).toEqual([
        'reset-password',
        'verify-email',
      ]);
      expect(page.body.meta).toEqual({
        total: 5,
        page: 2,
        limit: 3,
        totalPages: 2,
        hasNext: false,
        hasPrev: true,
      });
      const past = await api('get', '/email-templates?page=9');
      expect(past.status).toBe(200);
      expect(past.body).toEqual({
        items: [],
        meta: { total: 5, page: 9, limit: 10, totalPages: 1, hasNext: false, hasPrev: true },
      });
      expect((await api('get', '/email-templates?limit=100000')).body.meta.limit).toBe(500);
      for (const [query, path] of [
        ['limit=abc', 'limit'],
        ['limit=0', 'limit'],
        ['page=0', 'page'],
        ['page=x', 'page'],
        ['sort=html', 'sort'],
      ]) {
        const res = await api('get', `/email-templates?${query}`);
        expect([query, res.status, res.body.error.code]).toEqual([query, 400, 'VALIDATION_ERROR']);
        expect(res.body.error.data.errors).toEqual([expect.objectContaining({ path })]);
      }
      const search = await api('get', '/email-templates?search=RESET');
      expect(search.body.items.map((x: { slug: string }) => x.slug)).toEqual(['reset-password']);
    });

    it('creates, reads, updates a template; a duplicate slug is 409 DUPLICATE', async () => {
      const body = {
        slug: 'welcome',
        name: 'Welcome',
        subject: 'Welcome {{name}}',
        html: '<p>Hello {{ name }}, visit <a href="{{link}}">us</a></p>',
      };
      const res = await api('post', '/email-templates', body);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: {
          id: expect.any(String),
          ...body,
          text: null,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      });
      templateId = res.body.item.id;
      expect((await api('get', `/email-templates/${templateId}`)).body).toEqual(res.body.item);

      const dup = await api('post', '/email-templates', body);
      expect(dup.status).toBe(409);
      expect(dup.body.error.code).toBe('DUPLICATE');
      const renameToTaken = await api('patch', `/email-templates/${templateId}`, { slug: 'invite' });
      expect(renameToTaken.status).toBe(409);
      expect(renameToTaken.body.error.code).toBe('DUPLICATE');

      const updated = await api('patch', `/email-templates/${templateId}`, {
        subject: 'Hi {{name}}',
        text: 'Hi {{name}}',
      });
      expect(updated.status).toBe(200);
      expect(updated.body.item).toMatchObject({
        slug: 'welcome',
        subject: 'Hi {{name}}',
        text: 'Hi {{name}}',
        html: body.html,
      });

      for (const slug of ['Welcome', '1abc', 'a_b', 'a'.repeat(64), '']) {
        const bad = await api('post', '/email-templates', { ...body, slug });
        expect([slug, bad.status]).toEqual([slug, 400]);
        expect(bad.body.error.data.errors.map((e: { path: string }) => e.path)).toContain('slug');
      }
      const unknownField = await api('post', '/email-templates', { ...body, slug: 'other', isBuiltIn: true });
      expect(unknownField.body.error.data.errors).toEqual([expect.objectContaining({ path: 'isBuiltIn' })]);
    });

    it('keeps built-in templates: editable, but not renamed or deleted', async () => {
      const list = await api('get', '/email-templates?search=invite');
      const invite = list.body.items[0];
      expect(
        (await api('patch', `/email-templates/${invite.id}`, { slug: 'invitation' })).body.error.code,
      ).toBe('CONFLICT');
      expect((await api('delete', `/email-templates/${invite.id}`)).body.error.code).toBe('CONFLICT');
      const edited = await api('patch', `/email-templates/${invite.id}`, { name: 'Team invitation' });
      expect(edited.status).toBe(200);
    });

    it('gets and patches the layout; /layout is not read as an id; bad ids are 404', async () => {
      const empty = await api('get', '/email-templates/layout');
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ header: '', footer: '' });
      const res = await api('patch', '/email-templates/layout', {
        header: '<div class="brand">{{appUrl}}</div>',
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        message: expect.any(String),
        item: { header: '<div class="brand">{{appUrl}}</div>', footer: '' },
      });
      const both = await api('patch', '/email-templates/layout', { footer: '<footer>Sent by svc</footer>' });
      expect(both.body.item).toEqual({
        header: '<div class="brand">{{appUrl}}</div>',
        footer: '<footer>Sent by svc</footer>',
      });
      expect((await api('patch', '/email-templates/layout', { header: 1 })).status).toBe(400);
      expect((await api('delete', '/email-templates/layout')).body.error.code).toBe('NOT_FOUND');
      for (const id of ['nope', '00000000-0000-4000-8000-000000000000']) {
        expect((await api('get', `/email-templates/${id}`)).status).toBe(404);
        expect((await api('post', `/email-templates/${id}/preview`, {})).status).toBe(404);
      }
    });

    it('previews with escaped variables, sample values for the rest, inside the layout', async () => {
      const res = await api('post', `/email-templates/${templateId}/preview`, {
        variables: { name: '<script>alert("x")</script> & co' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        subject: 'Hi <script>alert("x")</script> & co',
        html:
          '<div class="brand">http://localhost:3000</div>' +
          '<p>Hello &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co, visit ' +
          '<a href="http://localhost:3000/admin/example?token=sample-token">us</a></p>' +
          '<footer>Sent by svc</footer>',
        text: 'Hi <script>alert("x")</script> & co',
      });
      const sample = await api('post', `/email-templates/${templateId}/preview`, {});
      expect(sample.body.subject).toBe('Hi Ada Lovelace');
      const bad = await api('post', `/email-templates/${templateId}/preview`, {
        variables: { name: { nested: 1 } },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.data.errors[0].path).toBe('variables');
    });

    it('deletes a custom template', async () => {
      const res = await api('delete', `/email-templates/${templateId}`);
      expect(res.status).toBe(200);
      expect(res.body.item.slug).toBe('welcome');
      expect((await api('get', `/email-templates/${templateId}`)).status).toBe(404);
    });
  });

  describe('/email/send and /email/send-with-template', () => {
    it('sends a template through the default provider with escaped variables', async () => {
      const res = await api('post', '/email/send-with-template', {
        to: 'reader@example.com',
        template: 'reset-password',
        variables: {
          name: '<img src=x onerror=alert(1)>',
          link: 'http://localhost:3000/admin/reset-password?token=abc123',
        },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: expect.any(String), messageId: expect.stringMatching(/^<.+>$/) });
      const mail = await mailTo('reader@example.com');
      expect(mail.messageId).toBe(res.body.messageId);
      expect(mail.subject).toBe('Reset your password');
      const html = mail.html as string;
      expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
      expect(html).not.toContain('<img');
      expect(html.startsWith('<div class="brand">http://localhost:3000</div>')).toBe(true);
      expect(html).toContain('reader@example.com');
      expect(mail.text).toContain('<img src=x onerror=alert(1)>');
      expect(extractLink(mail, 'reset-password')).toBe(
        'http://localhost:3000/admin/reset-password?token=abc123',
      );
    });

    it('sends a raw email wrapped in the layout', async () => {
      const res = await api('post', '/email/send', {
        to: 'raw@example.com',
        subject: 'Raw',
        html: '<p>Raw body</p>',
      });
      expect(res.status).toBe(200);
      const mail = await mailTo('raw@example.com');
      expect(mail.subject).toBe('Raw');
      expect(mail.html).toBe(
        '<div class="brand">http://localhost:3000</div><p>Raw body</p><footer>Sent by svc</footer>',
      );
      expect(mail.text?.trim()).toBe('Raw body');
    });

    it('answers 404 for an unknown template, 400 for a bad address, 503 for a refused one', async () => {
      const unknown = await api('post', '/email/send-with-template', {
        to: 'a@example.com',
        template: 'nope',
        variables: {},
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('NOT_FOUND');
      const bad = await api('post', '/email/send-with-template', {
        to: 'not an address',
        template: 'invite',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.data.errors.map((e: { path: string }) => e.path)).toEqual(['to']);
      const badRaw = await api('post', '/email/send', { to: 'x', subject: 's', html: 'h', cc: 'y@z.test' });
      expect(badRaw.body.error.data.errors.map((e: { path: string }) => e.path).sort()).toEqual(['cc', 'to']);
      const refused = await api('post', '/email/send', { to: 'x@reject.test', subject: 's', html: 'h' });
      expect(refused.status).toBe(503);
      expect(refused.body.error.data.reason).toMatch(/^550/);
    });
  });

  it('never answers or logs the provider password', () => {
    for (const secret of [SMTP_PASSWORD, NEW_SMTP_PASSWORD]) {
      for (const body of bodies) {
        expect(body).not.toContain(secret);
      }
      expect(t.logs.text()).not.toContain(secret);
    }
    expect(t.logs.text()).not.toContain(
      Buffer.from(`\u0000${SMTP_USER}\u0000${SMTP_PASSWORD}`).toString('base64'),
    );
  });
});

describe('email without a default provider', () => {
  let dev: TestApp;
  beforeAll(async () => {
    dev = await createTestApp();
  });
  afterAll(() => dev.close());

  it('outside production: 200 with messageId null, and the whole message (link included) in the log at info', async () => {
    const admin = await createUser(dev, { roles: ['super-admin'] });
    const { body } = await signIn(dev, admin);
    const link = 'http://localhost:3000/admin/verify-email?token=dev-log-token-123';
    const res = await dev.http
      .post('/admin/api/email/send-with-template')
      .set('Authorization', `Bearer ${body.token}`)
      .send({ to: 'dev@example.com', template: 'verify-email', variables: { name: 'Dev', link } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String), messageId: null });
    const record = dev.logs.records().find((r) => String(r.msg).includes('no default email provider'));
    expect(record).toBeDefined();
    expect(record!.level).toBe(30);
    expect(String(record!.msg)).toContain(link);
    expect(record!.email).toMatchObject({ to: 'dev@example.com', subject: 'Confirm your email address' });
  });

  it('in production: the send fails with 503 SERVICE_UNAVAILABLE and the failure is logged', async () => {
    const prod = await createTestApp({ database: dev.database, overrides: { production: true } });
    try {
      const err = await prod.app
        .get(EmailService)
        .sendTemplate({
          to: 'prod@example.com',
          template: EMAIL_TEMPLATES.passwordChanged,
          variables: { name: 'P' },
        })
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });

      // Over HTTP, so the log line lands in this app's log (outside a request nestjs-pino writes
      // to the first app created in the process).
      const admin = await createUser(prod, { roles: ['super-admin'] });
      const { body } = await signIn(prod, admin);
      const res = await prod.http
        .post('/admin/api/email/send-with-template')
        .set('Authorization', `Bearer ${body.token}`)
        .set('X-Request-Id', 'prod-no-provider')
        .send({ to: 'prod@example.com', template: 'password-changed', variables: { name: 'P' } });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
      const lines = prod.logs.forRequest('prod-no-provider');
      const record = lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((r) => String(r.msg).includes('no default email provider'));
      expect(record).toMatchObject({ level: 50, template: 'password-changed' });
      expect(lines.join('\n')).not.toContain('prod@example.com');
    } finally {
      await prod.close();
    }
  });
});

describe('useTestSmtp', () => {
  it('makes the test server the default provider, so service emails arrive', async () => {
    const smtp = await startSmtp();
    const t = await createTestApp();
    try {
      const provider = await useTestSmtp(t, smtp);
      expect(provider.isDefault).toBe(true);
      const { messageId } = await t.app.get(EmailService).sendTemplate({
        to: 'someone@example.com',
        template: EMAIL_TEMPLATES.verifyEmail,
        variables: { name: 'Someone', link: 'http://localhost:3000/admin/verify-email?token=xyz_-.9' },
      });
      const mail = await smtp.waitFor((m) => m.messageId === messageId);
      expect(extractLink(mail, 'verify-email')).toBe(
        'http://localhost:3000/admin/verify-email?token=xyz_-.9',
      );
      expect(extractLink(mail, 'reset-password')).toBeNull();
    } finally {
      await t.close();
      await smtp.close();
    }
  });
});
