import { once } from 'node:events';
import { AddressInfo, createServer, connect, Socket } from 'node:net';
import { ACCOUNT_MAIL } from '../../src/jobs/account-mail.job';
import { JOBS_SCHEMA } from '../../src/jobs/jobs.service';
import { AccountLifecycleService } from '../../src/modules/accounts/account-lifecycle.service';
import { SecretBox } from '../../src/common/secret-box';
import { browser, cookieValue, createUser, PASSWORD, setCookies, signIn } from '../utils/auth';
import { addresses, extractLink, startSmtp, TestSmtp, useTestSmtp } from '../utils/smtp';
import { createTestApp, TEST_SECRET, TestApp } from '../utils/test-app';
import { createTestDatabase } from '../utils/test-db';

const NEW_PASSWORD = 'Brand-New-Pass-7';

function tokenOf(link: string): string {
  return new URL(link).searchParams.get('token')!;
}

interface MailJob {
  id: string;
  state: string;
  retry_count: number;
  data: Record<string, unknown>;
}

/**
 * The state of an address's first mail job, once it is `state` (bounded polling: pg-boss writes an
 * attempt's outcome after the handler returns, and that write has no event to await).
 */
async function jobReaches(t: TestApp, to: string, state: string): Promise<MailJob> {
  for (let i = 0; i < 100; i++) {
    const [job] = await mailJobs(t, to);
    if (job?.state === state) {
      return job;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`the mail job to ${to} never reached ${state}: ${JSON.stringify(await mailJobs(t, to))}`);
}

/** The account-mail jobs queued for an address, oldest first: the only way an account email goes out. */
function mailJobs(t: TestApp, to: string): Promise<MailJob[]> {
  return t.db.query(
    `SELECT id, state, retry_count, data FROM ${JOBS_SCHEMA}.job WHERE name = $1 AND data->>'to' = $2 ORDER BY created_on`,
    [ACCOUNT_MAIL.name, to],
  );
}

describe('account lifecycle with a real SMTP server', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp();
    await useTestSmtp(t, smtp);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  async function mailTo(address: string, subjectOrAction?: RegExp) {
    return smtp.waitFor(
      (m) =>
        (m.to && JSON.stringify(m.to).toLowerCase().includes(address.toLowerCase())) === true &&
        (!subjectOrAction || subjectOrAction.test(`${m.subject ?? ''} ${m.text ?? ''} ${m.html || ''}`)),
      10_000,
    );
  }

  it('register -> email -> verify -> login', async () => {
    const b = await browser(t);
    const email = 'newcomer@example.com';
    const res = await b.post('/auth/register', { email, password: PASSWORD, name: 'New Comer' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });

    // Not signed in yet: verification is required.
    const early = await b.post('/auth/login', { email, password: PASSWORD });
    expect(early.body.error.code).toBe('EMAIL_NOT_VERIFIED');

    const mail = await mailTo(email, /verify-email/);
    const link = extractLink(mail, 'verify-email');
    expect(link).toMatch(/^http:\/\/localhost:3000\/admin\/verify-email\?token=/);
    const verified = await b.post('/auth/verify-email', { token: tokenOf(link!) });
    expect(verified.status).toBe(200);

    expect((await b.post('/auth/login', { email, password: PASSWORD })).status).toBe(200);
    // The token is single use and only its hash is stored.
    const again = await b.post('/auth/verify-email', { token: tokenOf(link!) });
    expect(again.status).toBe(422);
    expect(again.body.error.code).toBe('INVALID_INPUT');
    const stored = await t.db.query(`SELECT token_hash FROM account_tokens WHERE kind = 'verify-email'`);
    expect(JSON.stringify(stored)).not.toContain(tokenOf(link!));
  });

  it('answers a taken address with the same status and bytes, and creates nothing', async () => {
    const existing = await createUser(t);
    const b = await browser(t);
    const fresh = await b.post('/auth/register', {
      email: 'unique-one@example.com',
      password: PASSWORD,
      name: 'A',
    });
    const taken = await b.post('/auth/register', {
      email: existing.email.toUpperCase(),
      password: PASSWORD,
      name: 'B',
    });
    expect(taken.status).toBe(fresh.status);
    expect(taken.text).toBe(fresh.text);
    const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)`, [
      existing.email,
    ]);
    expect(n).toBe(1);
  });

  it('refuses a weak password or a bad address on register', async () => {
    const b = await browser(t);
    const res = await b.post('/auth/register', { email: 'nope', password: 'weak', name: '' });
    expect(res.status).toBe(400);
    const paths = (res.body.error.data.errors as Array<{ path: string }>).map((e) => e.path).sort();
    expect(paths).toEqual(['email', 'name', 'password']);
  });

  it('refuses an invalid, used or expired verification token with one message', async () => {
    const b = await browser(t);
    const email = 'late-verifier@example.com';
    await b.post('/auth/register', { email, password: PASSWORD, name: 'Late' });
    const token = tokenOf(extractLink(await mailTo(email, /verify-email/), 'verify-email')!);
    await t.db.query(
      `UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE kind = 'verify-email'`,
    );
    const expired = await b.post('/auth/verify-email', { token });
    const garbage = await b.post('/auth/verify-email', { token: 'garbage' });
    expect(expired.status).toBe(422);
    expect(expired.body.error.message).toBe(garbage.body.error.message);
  });

  it('resends a verification link only for an unverified, active account; the new link replaces the old', async () => {
    const b = await browser(t);
    const email = 'resender@example.com';
    await b.post('/auth/register', { email, password: PASSWORD, name: 'Re' });
    const first = tokenOf(extractLink(await mailTo(email, /verify-email/), 'verify-email')!);
    smtp.clear();
    for (const address of ['nobody-here@example.com', email]) {
      const res = await b.post('/auth/verify-email/resend', { email: address });
      expect(res.status).toBe(200);
    }
    const second = tokenOf(extractLink(await mailTo(email, /verify-email/), 'verify-email')!);
    expect(second).not.toBe(first);
    expect((await b.post('/auth/verify-email', { token: first })).status).toBe(422);
    expect((await b.post('/auth/verify-email', { token: second })).status).toBe(200);
    expect(smtp.messages.filter((m) => JSON.stringify(m.to).includes('nobody-here'))).toHaveLength(0);
  });

  it('forgot -> reset ends the old sessions; the link works once; password-changed is sent', async () => {
    const user = await createUser(t);
    const { body: session, res: login } = await signIn(t, user);
    const oldRefresh = cookieValue(setCookies(login).svc_refresh);
    const b = await browser(t);
    const unknown = await b.post('/auth/forgot-password', { email: 'never-registered@example.com' });
    const known = await b.post('/auth/forgot-password', { email: user.email });
    expect(known.status).toBe(200);
    expect(known.text).toBe(unknown.text);

    const token = tokenOf(extractLink(await mailTo(user.email, /reset-password/), 'reset-password')!);
    const weak = await b.post('/auth/reset-password', { token, password: 'weak' });
    expect(weak.status).toBe(400);
    const reset = await b.post('/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(reset.status).toBe(200);

    expect((await t.http.get('/admin/api/me').set('Authorization', `Bearer ${session.token}`)).status).toBe(
      401,
    );
    const refresh = await b.agent
      .post('/admin/api/auth/refresh')
      .set('Cookie', `svc_refresh=${oldRefresh}`)
      .set('X-CSRF-Token', b.csrf);
    expect(refresh.body.error.code).toBe('REFRESH_FAILED');

    expect((await b.post('/auth/reset-password', { token, password: 'Another-Pass-8' })).status).toBe(422);
    expect((await b.post('/auth/login', { email: user.email, password: PASSWORD })).status).toBe(401);
    expect((await b.post('/auth/login', { email: user.email, password: NEW_PASSWORD })).status).toBe(200);
    await mailTo(user.email, /password/i);
    expect(
      smtp.messages.some(
        (m) => /changed/i.test(m.subject ?? '') && JSON.stringify(m.to).includes(user.email),
      ),
    ).toBe(true);
  });

  it('refuses an expired reset link', async () => {
    const user = await createUser(t);
    const b = await browser(t);
    await b.post('/auth/forgot-password', { email: user.email });
    const token = tokenOf(extractLink(await mailTo(user.email, /reset-password/), 'reset-password')!);
    await t.db.query(
      `UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      [user.id],
    );
    const res = await b.post('/auth/reset-password', { token, password: NEW_PASSWORD });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('INVALID_INPUT');
  });

  it('change-password checks the current password, ends every session (the caller too) and clears cookies', async () => {
    const user = await createUser(t);
    const first = await signIn(t, user);
    const second = await signIn(t, user);

    const wrong = await first.browser.patch('/auth/change-password', {
      currentPassword: 'Not-The-One-1',
      newPassword: NEW_PASSWORD,
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.code).toBe('INVALID_INPUT');
    expect(wrong.body.error.data.errors[0].path).toBe('currentPassword');

    const bearer = await t.http
      .patch('/admin/api/auth/change-password')
      .set('Authorization', `Bearer ${first.body.token}`)
      .send({ currentPassword: user.password, newPassword: NEW_PASSWORD });
    expect(bearer.status).toBe(401);

    const ok = await first.browser.patch('/auth/change-password', {
      currentPassword: user.password,
      newPassword: NEW_PASSWORD,
    });
    expect(ok.status).toBe(200);
    expect(setCookies(ok).svc_session).toMatch(/^svc_session=;/);
    for (const s of [first, second]) {
      expect((await t.http.get('/admin/api/me').set('Authorization', `Bearer ${s.body.token}`)).status).toBe(
        401,
      );
    }
    expect((await signIn(t, { email: user.email, password: NEW_PASSWORD })).res.status).toBe(200);
  });

  it('invite -> accept -> login; the address counts as verified', async () => {
    const rows = await t.db.query(
      `INSERT INTO users (email, name) VALUES ('invitee@example.com', 'Invitee') RETURNING id`,
    );
    const id = rows[0].id as string;
    (await t.app.get(AccountLifecycleService).invite(id)).send();
    const link = extractLink(await mailTo('invitee@example.com', /accept-invite/), 'accept-invite')!;
    expect(link).toMatch(/\/admin\/accept-invite\?token=/);
    const b = await browser(t);
    const res = await b.post('/auth/accept-invite', {
      token: tokenOf(link),
      password: NEW_PASSWORD,
      name: 'Ivy Invitee',
    });
    expect(res.status).toBe(200);
    const login = await b.post('/auth/login', { email: 'invitee@example.com', password: NEW_PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.user.name).toBe('Ivy Invitee');
    expect(
      (await b.post('/auth/accept-invite', { token: tokenOf(link), password: NEW_PASSWORD })).status,
    ).toBe(422);
  });

  it('forced first password: challenge -> pending token -> set-initial-password -> session', async () => {
    const user = await createUser(t);
    await t.app.get(AccountLifecycleService).setPasswordByAdmin(user.id, 'Admin-Chosen-1', true);
    const b = await browser(t);
    const login = await b.post('/auth/login', { email: user.email, password: 'Admin-Chosen-1' });
    expect(login.status).toBe(200);
    expect(login.body).toEqual({
      status: 'challenge',
      challengeType: 'set-initial-password',
      pendingToken: expect.any(String),
      uiHint: null,
    });
    const cookies = setCookies(login);
    expect(cookies.svc_session).toBeUndefined();
    expect(cookies.svc_refresh).toBeUndefined();
    expect(cookies.svc_pending).toMatch(/HttpOnly/);
    const pendingToken = login.body.pendingToken as string;

    const pending = await b.agent.get('/admin/api/auth/pending');
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual({
      challengeType: 'set-initial-password',
      uiHint: null,
      attemptsRemaining: 5,
      expiresAt: expect.any(String),
    });
    expect(JSON.stringify(pending.body)).not.toContain(pendingToken);
    const minutes = (new Date(pending.body.expiresAt).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(9);
    expect(minutes).toBeLessThanOrEqual(10);

    // Never a session: not as Bearer, not as the session cookie.
    expect((await t.http.get('/admin/api/me').set('Authorization', `Bearer ${pendingToken}`)).status).toBe(
      401,
    );
    expect((await t.http.get('/admin/api/me').set('Cookie', `svc_session=${pendingToken}`)).status).toBe(401);

    const bogus = await b.post('/auth/set-initial-password', {
      pendingToken: 'not-a-token',
      newPassword: NEW_PASSWORD,
    });
    expect(bogus.status).toBe(401);
    expect(bogus.body.error.code).toBe('AUTH_INVALID_CREDENTIALS');

    const done = await b.post('/auth/set-initial-password', { pendingToken, newPassword: NEW_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      message: expect.any(String),
      user: expect.objectContaining({ id: user.id }),
      token: expect.any(String),
      exp: expect.any(Number),
    });
    expect(cookieValue(setCookies(done).svc_session)).toBe(done.body.token);
    expect((await t.http.get('/admin/api/me').set('Authorization', `Bearer ${done.body.token}`)).status).toBe(
      200,
    );

    const reused = await b.post('/auth/set-initial-password', {
      pendingToken,
      newPassword: 'Third-Password-9',
    });
    expect(reused.status).toBe(401);
    expect(reused.body.error.code).toBe('AUTH_INVALID_CREDENTIALS');
    expect(reused.body.error.data?.pendingToken).toBeUndefined();
    expect((await b.agent.get('/admin/api/auth/pending')).status).toBe(204);

    const normal = await b.post('/auth/login', { email: user.email, password: NEW_PASSWORD });
    expect(normal.body.token).toEqual(expect.any(String));
  });

  it('set-initial-password reads the pending token from the cookie when the body has none', async () => {
    const user = await createUser(t);
    await t.app.get(AccountLifecycleService).setPasswordByAdmin(user.id, 'Admin-Chosen-2', true);
    const b = await browser(t);
    await b.post('/auth/login', { email: user.email, password: 'Admin-Chosen-2' });
    const done = await b.post('/auth/set-initial-password', { newPassword: NEW_PASSWORD });
    expect(done.status).toBe(200);
  });

  it('an administrator-set password ends the account sessions', async () => {
    const user = await createUser(t);
    const { body } = await signIn(t, user);
    await t.app.get(AccountLifecycleService).setPasswordByAdmin(user.id, 'Admin-Chosen-3', false);
    expect((await t.http.get('/admin/api/me').set('Authorization', `Bearer ${body.token}`)).status).toBe(401);
    expect((await signIn(t, { email: user.email, password: 'Admin-Chosen-3' })).res.status).toBe(200);
  });

  it('a deactivated account: its verification link verifies (nothing sent), its reset and invite links are refused', async () => {
    const b = await browser(t);
    const email = 'soon-deactivated@example.com';
    await b.post('/auth/register', { email, password: PASSWORD, name: 'Soon' });
    const verifyToken = tokenOf(extractLink(await mailTo(email, /verify-email/), 'verify-email')!);
    const [{ id }] = await t.db.query(`SELECT id FROM users WHERE email = $1`, [email]);
    const invite = await t.app.get(AccountLifecycleService).invite(id);
    invite.send();
    const inviteToken = tokenOf(extractLink(await mailTo(email, /accept-invite/), 'accept-invite')!);
    await t.db.query(`UPDATE users SET is_active = false WHERE id = $1`, [id]);
    smtp.clear();
    const queuedBefore = (await mailJobs(t, email)).length;

    expect((await b.post('/auth/verify-email', { token: verifyToken })).status).toBe(200);
    const [row] = await t.db.query(`SELECT email_verified_at, is_active FROM users WHERE id = $1`, [id]);
    expect(row.email_verified_at).not.toBeNull();
    expect(row.is_active).toBe(false);

    expect((await b.post('/auth/accept-invite', { token: inviteToken, password: NEW_PASSWORD })).status).toBe(
      422,
    );
    expect((await b.post('/auth/forgot-password', { email })).status).toBe(200);
    expect((await b.post('/auth/verify-email/resend', { email })).status).toBe(200);
    // A mail would have been queued in the transaction behind the answer: none was, so none goes.
    expect(await mailJobs(t, email)).toHaveLength(queuedBefore);
    expect(smtp.messages).toHaveLength(0);
  });
});

describe('registration with revealRegistrationConflict', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { auth: { revealRegistrationConflict: true } } });
  });
  afterAll(() => t.close());

  it('answers a taken address with 409 DUPLICATE', async () => {
    const existing = await createUser(t);
    const b = await browser(t);
    const res = await b.post('/auth/register', { email: existing.email, password: PASSWORD, name: 'Dup' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('DUPLICATE');
  });
});

describe('emails without a provider (development)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('writes the message, link included, to the log', async () => {
    const b = await browser(t);
    await b.post('/auth/register', { email: 'logged@example.com', password: PASSWORD, name: 'Logged' });
    const deadline = Date.now() + 5000;
    while (!/\/admin\/verify-email\?token=/.test(t.logs.text()) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(t.logs.text()).toMatch(/http:\/\/localhost:3000\/admin\/verify-email\?token=[A-Za-z0-9_%-]+/);
  });
});

/**
 * A TCP front for the test SMTP server, at an address of its own: while down it hangs up on every
 * connection (reporting each), once up it forwards to the server. A mail server that is down and
 * then back, at the same address.
 */
async function smtpFront(smtp: TestSmtp) {
  let up = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    if (!up) {
      client.destroy();
      server.emit('refused');
      return;
    }
    const upstream = connect(smtp.port, smtp.host);
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as AddressInfo).port,
    /** Resolves at the next connection refused while down. */
    refusal: () => once(server, 'refused'),
    bringUp: () => {
      up = true;
    },
    close: () => {
      sockets.forEach((s) => s.destroy());
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('account mail is a durable job', () => {
  let smtp: TestSmtp;
  let t: TestApp;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp();
    await useTestSmtp(t, smtp);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('is committed with the answer, holds the link only sealed, and the delivered link works', async () => {
    const user = await createUser(t);
    const b = await browser(t);
    expect((await b.post('/auth/forgot-password', { email: user.email })).status).toBe(200);
    // Queued in the transaction behind the answer: the row is there as soon as the client has it.
    const [job] = await mailJobs(t, user.email);
    expect(job.data).toEqual({
      template: 'reset-password',
      to: user.email,
      name: 'Test User',
      sealedLink: expect.stringMatching(/^v1:[\w-]+:[\w-]+:[\w-]+$/),
    });
    // Sealed for this use only: the box of the provider passwords (same secret) cannot open it.
    expect(() => new SecretBox(TEST_SECRET).open(job.data.sealedLink as string)).toThrow();

    const mail = await smtp.waitFor((m) => addresses(m).includes(user.email.toLowerCase()), 10_000);
    const link = extractLink(mail, 'reset-password')!;
    const token = tokenOf(link);
    // Every row of every table pg-boss keeps (jobs, archive, queues), as text: no token, raw or in
    // its link form, even once the job is done.
    const tables: Array<{ name: string }> = await t.db.query(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1`,
      [JOBS_SCHEMA],
    );
    expect(tables.map((x) => x.name)).toEqual(expect.arrayContaining(['job', 'archive', 'queue']));
    let stored = '';
    for (const { name } of tables) {
      const rows: Array<{ row: string }> = await t.db.query(
        `SELECT row_to_json(x)::text AS row FROM ${JOBS_SCHEMA}."${name}" x`,
      );
      stored += rows.map((r) => r.row).join('\n');
    }
    expect(stored).toContain(job.id);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(encodeURIComponent(token));
    expect((await b.post('/auth/reset-password', { token, password: NEW_PASSWORD })).status).toBe(200);
  });

  it('exists exactly when the transaction that issued the link commits', async () => {
    const email = 'rolled-back@example.com';
    const [{ id }] = await t.db.query(`INSERT INTO users (email, name) VALUES ($1, 'Rolled') RETURNING id`, [
      email,
    ]);
    const lifecycle = t.app.get(AccountLifecycleService);
    await expect(
      t.db.transaction(async (em) => {
        await lifecycle.invite(id, em);
        throw new Error('the caller failed after the invite');
      }),
    ).rejects.toThrow('the caller failed');
    expect(await mailJobs(t, email)).toHaveLength(0);
    expect(await t.db.query(`SELECT 1 FROM account_tokens WHERE user_id = $1`, [id])).toHaveLength(0);

    const invite = await t.db.transaction((em) => lifecycle.invite(id, em));
    expect(await mailJobs(t, email)).toHaveLength(1);
    invite.send();
    const mail = await smtp.waitFor((m) => addresses(m).includes(email), 10_000);
    expect(extractLink(mail, 'accept-invite')).toMatch(/\/admin\/accept-invite\?token=/);
  });

  it('gives up after the last attempt, logged at error by template and address, never the link', async () => {
    const front = await smtpFront(smtp);
    const down = await createTestApp();
    try {
      await useTestSmtp(down, { ...smtp, port: front.port });
      const email = 'last-try@example.com';
      const [{ id }] = await down.db.query(
        `INSERT INTO users (email, name) VALUES ($1, 'Last') RETURNING id`,
        [email],
      );
      const lifecycle = down.app.get(AccountLifecycleService);
      // Its first attempt is its last: the job's retry limit set to 0 in the transaction that queues it.
      const invite = await down.db.transaction(async (em) => {
        const invite = await lifecycle.invite(id, em);
        await em.query(`UPDATE ${JOBS_SCHEMA}.job SET retry_limit = 0 WHERE data->>'to' = $1`, [email]);
        return invite;
      });
      const refused = front.refusal();
      invite.send();
      await refused;
      const job = await jobReaches(down, email, 'failed');
      const record = down.logs.records().find((r) => r.msg === 'email not sent: every attempt failed');
      expect(record).toMatchObject({ level: 50, template: 'invite', to: email, attempt: 1, jobId: job.id });
      expect(down.logs.text()).not.toMatch(/accept-invite\?token=/);
    } finally {
      await down.close();
      await front.close();
    }
  });

  it('a mail whose attempt failed while SMTP was down is sent, by another instance, once it is back', async () => {
    const front = await smtpFront(smtp);
    const database = await createTestDatabase();
    const first = await createTestApp({ database });
    let firstOpen = true;
    let second: TestApp | undefined;
    try {
      await useTestSmtp(first, { ...smtp, port: front.port });
      const user = await createUser(first);
      const refused = front.refusal();
      expect((await (await browser(first)).post('/auth/forgot-password', { email: user.email })).status).toBe(
        200,
      );
      await refused;
      // The failed attempt is recorded (its backoff running) before the instance goes away.
      expect(await jobReaches(first, user.email, 'retry')).toMatchObject({ retry_count: 0 });
      firstOpen = false;
      await first.close();

      front.bringUp();
      second = await createTestApp({ database });
      // The retry comes 5 to 10 s after the failure (ACCOUNT_MAIL's backoff), from the second instance.
      const mail = await smtp.waitFor((m) => addresses(m).includes(user.email.toLowerCase()), 30_000);
      const job = await jobReaches(second, user.email, 'completed');
      expect(job.retry_count).toBe(1);
      const token = tokenOf(extractLink(mail, 'reset-password')!);
      const b = await browser(second);
      expect((await b.post('/auth/reset-password', { token, password: NEW_PASSWORD })).status).toBe(200);

      // The failure was logged by template and address, never with the link.
      const warning = first.logs.records().find((r) => r.msg === 'email not sent yet: will retry');
      expect(warning).toMatchObject({
        template: 'reset-password',
        to: user.email,
        attempt: 1,
        jobId: job.id,
      });
      expect(first.logs.text()).not.toContain(token);
    } finally {
      if (firstOpen) {
        await first.close();
      }
      await second?.close();
      await database.drop();
      await front.close();
    }
  }, 60_000);
});
