import { AccountLifecycleService } from '../../src/modules/auth/account-lifecycle.service';
import { browser, cookieValue, createUser, PASSWORD, setCookies, signIn } from '../utils/auth';
import { extractLink, startSmtp, TestSmtp, useTestSmtp } from '../utils/smtp';
import { createTestApp, TestApp } from '../utils/test-app';

const NEW_PASSWORD = 'Brand-New-Pass-7';

function tokenOf(link: string): string {
  return new URL(link).searchParams.get('token')!;
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

    expect((await b.post('/auth/verify-email', { token: verifyToken })).status).toBe(200);
    const [row] = await t.db.query(`SELECT email_verified_at, is_active FROM users WHERE id = $1`, [id]);
    expect(row.email_verified_at).not.toBeNull();
    expect(row.is_active).toBe(false);

    expect((await b.post('/auth/accept-invite', { token: inviteToken, password: NEW_PASSWORD })).status).toBe(
      422,
    );
    expect((await b.post('/auth/forgot-password', { email })).status).toBe(200);
    expect((await b.post('/auth/verify-email/resend', { email })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
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
