import { createServer, Server, Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { SecretBox } from '../../src/common/secret-box';
import { sendSmtp, SmtpDeliveryError } from '../../src/modules/email/smtp-transport';
import { startSmtp, TestSmtp } from '../utils/smtp';

const email = {
  from: { address: 'no-reply@svc.test', name: 'svc' },
  to: 'someone@example.com',
  subject: 'Hello',
  html: '<p>Hi</p>',
  text: 'Hi',
};

describe('SecretBox', () => {
  it('seals as v1:<iv>:<tag>:<ciphertext> and opens only under the same secret', () => {
    const box = new SecretBox('a-secret-that-is-long-enough-0123456789');
    const sealed = box.seal('hunter2-päss');
    expect(sealed).toMatch(/^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('hunter2');
    expect(box.seal('hunter2-päss')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('hunter2-päss');
    expect(() => new SecretBox('another-secret-that-is-long-enough-012').open(sealed)).toThrow();
    const [v, iv, tag, ct] = sealed.split(':');
    const flipped = `${v}:${iv}:${tag}:${ct.slice(0, -2)}${ct.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(() => box.open(flipped)).toThrow();
    expect(() => box.open('v2:x:y:z')).toThrow();
  });
});

describe('sendSmtp', () => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp({ users: { mailer: 'S3cret-pw!' } });
  });
  afterAll(() => smtp.close());

  const settings = () => ({
    host: smtp.host,
    port: smtp.port,
    secure: false,
    user: 'mailer',
    password: 'S3cret-pw!',
  });

  it('delivers with authentication and returns the message id', async () => {
    const res = await sendSmtp(settings(), email);
    expect(res.messageId).toMatch(/^<.+>$/);
    const mail = await smtp.waitFor((m) => m.messageId === res.messageId);
    expect(mail.subject).toBe('Hello');
    expect(mail.text?.trim()).toBe('Hi');
    expect(smtp.auths.at(-1)).toEqual({ username: 'mailer', password: 'S3cret-pw!' });
  });

  it('reports the server reply on a refused recipient, and never the password on a refused login', async () => {
    smtp.rejectNext(550, '5.1.1 No such user here');
    const refused = await sendSmtp(settings(), email).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SmtpDeliveryError);
    expect((refused as SmtpDeliveryError).reason).toMatch(/^550 5\.1\.1 No such user here/);
    expect((refused as SmtpDeliveryError).details.command).toBe('RCPT TO');

    const badLogin = await sendSmtp({ ...settings(), password: 'Wrong-pw-123' }, email).catch(
      (e: unknown) => e,
    );
    expect(badLogin).toBeInstanceOf(SmtpDeliveryError);
    const err = badLogin as SmtpDeliveryError;
    expect(err.reason).toMatch(/^535/);
    expect(err.details).toEqual({ code: 'EAUTH', responseCode: 535, command: 'AUTH PLAIN' });
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain('Wrong-pw-123');
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain(
      Buffer.from('\u0000mailer\u0000Wrong-pw-123').toString('base64'),
    );
  });

  describe('bounded timeouts', () => {
    let silent: Server;
    const sockets = new Set<Socket>();
    beforeAll(async () => {
      // Accepts connections and never says a word.
      silent = createServer((s) => {
        sockets.add(s);
        s.on('error', () => undefined);
      });
      await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    });
    afterAll(async () => {
      for (const s of sockets) {
        s.destroy();
      }
      await new Promise<void>((r) => silent.close(() => r()));
    });

    it('gives up on a server that never greets within the greeting timeout', async () => {
      const port = (silent.address() as AddressInfo).port;
      const started = Date.now();
      const err = await sendSmtp(
        { host: '127.0.0.1', port, secure: false, user: null, password: null },
        email,
        {
          connectionTimeout: 300,
          greetingTimeout: 300,
          socketTimeout: 300,
          dnsTimeout: 300,
          deadline: 5000,
        },
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SmtpDeliveryError);
      expect((err as SmtpDeliveryError).reason).toMatch(/greeting|timeout/i);
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it('stops at the overall deadline even when every phase stays within its timeout', async () => {
      const port = (silent.address() as AddressInfo).port;
      const started = Date.now();
      const err = await sendSmtp(
        { host: '127.0.0.1', port, secure: false, user: null, password: null },
        email,
        {
          connectionTimeout: 10_000,
          greetingTimeout: 10_000,
          socketTimeout: 10_000,
          dnsTimeout: 10_000,
          deadline: 400,
        },
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SmtpDeliveryError);
      expect((err as SmtpDeliveryError).reason).toBe('No answer from the SMTP server within 400 ms');
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it('reports a refused connection', async () => {
      const closed = createServer();
      await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
      const port = (closed.address() as AddressInfo).port;
      await new Promise<void>((r) => closed.close(() => r()));
      const err = await sendSmtp(
        { host: '127.0.0.1', port, secure: false, user: null, password: null },
        email,
      ).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SmtpDeliveryError);
      expect((err as SmtpDeliveryError).reason).toMatch(/ECONNREFUSED/);
    });
  });
});
