import type { AddressInfo } from 'node:net';
import { ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, SMTPServerAddress, SMTPServerAuthentication } from 'smtp-server';
import { EmailProvidersService } from '../../src/modules/email/email-providers.service';
import type { EmailProviderRecord } from '../../src/modules/email/email-provider.mapper';
import type { TestApp } from './test-app';

/** Recipients at this domain are always refused (550), to test delivery failures. */
export const REJECT_DOMAIN = 'reject.test';

export interface TestSmtp {
  host: string;
  port: number;
  /** Every message accepted so far, parsed, oldest first. */
  messages: ParsedMail[];
  /** Credentials clients signed in with (AUTH), oldest first. */
  auths: Array<{ username: string; password: string }>;
  /** The first message (already received or still to come) matching `predicate`. */
  waitFor(predicate: (mail: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  /** Refuses the next recipient with this SMTP reply. */
  rejectNext(code?: number, message?: string): void;
  clear(): void;
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  /** When set, AUTH must use these credentials (535 otherwise); any credentials pass when unset. */
  users?: Record<string, string>;
}

/**
 * A real SMTP server on 127.0.0.1 (a free port), plain text (no STARTTLS), authentication optional
 * (allowed without TLS). Every accepted message is parsed with mailparser.
 */
export async function startSmtp(opts: TestSmtpOptions = {}): Promise<TestSmtp> {
  const messages: ParsedMail[] = [];
  const auths: Array<{ username: string; password: string }> = [];
  const waiters = new Set<(mail: ParsedMail) => void>();
  const rejections: Array<{ code: number; message: string }> = [];

  const server = new SMTPServer({
    secure: false,
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    hideSTARTTLS: true,
    logger: false,
    banner: 'svc test SMTP server',
    onAuth(auth: SMTPServerAuthentication, _session, callback) {
      const username = auth.username ?? '';
      const password = auth.password ?? '';
      auths.push({ username, password });
      if (opts.users && opts.users[username] !== password) {
        const err = Object.assign(new Error('5.7.8 Authentication credentials invalid'), {
          responseCode: 535,
        });
        callback(err);
        return;
      }
      callback(null, { user: username });
    },
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const next = rejections.shift();
      if (next) {
        callback(Object.assign(new Error(next.message), { responseCode: next.code }));
        return;
      }
      if (address.address.toLowerCase().endsWith(`@${REJECT_DOMAIN}`)) {
        callback(Object.assign(new Error('5.1.1 Mailbox does not exist'), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          for (const w of [...waiters]) {
            w(mail);
          }
          callback();
        })
        .catch((e: Error) => callback(e));
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Errors of single connections (a client hanging up) must not crash the test process.
  server.on('error', () => undefined);
  const port = (server.server.address() as AddressInfo).port;

  return {
    host: '127.0.0.1',
    port,
    messages,
    auths,
    waitFor(predicate, timeoutMs = 5000) {
      const found = messages.find(predicate);
      if (found) {
        return Promise.resolve(found);
      }
      return new Promise<ParsedMail>((resolve, reject) => {
        const waiter = (mail: ParsedMail) => {
          if (predicate(mail)) {
            clearTimeout(timer);
            waiters.delete(waiter);
            resolve(mail);
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(waiter);
          reject(
            new Error(
              `no matching email within ${timeoutMs} ms; received: ${JSON.stringify(
                messages.map((m) => ({ to: addresses(m), subject: m.subject })),
              )}`,
            ),
          );
        }, timeoutMs);
        waiters.add(waiter);
      });
    },
    rejectNext(code = 550, message = '5.7.1 Recipient refused by the test server') {
      rejections.push({ code, message });
    },
    clear() {
      messages.length = 0;
      auths.length = 0;
      rejections.length = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The recipients of a parsed message, lower-cased. */
export function addresses(mail: ParsedMail): string[] {
  const to = mail.to ? (Array.isArray(mail.to) ? mail.to : [mail.to]) : [];
  return to.flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
}

/**
 * Makes the test SMTP server the app's default email provider, through the service (so the
 * password is sealed exactly as over REST). Returns the provider record.
 */
export async function useTestSmtp(
  t: TestApp,
  smtp: TestSmtp,
  o: { name?: string; fromEmail?: string; fromName?: string; user?: string; password?: string } = {},
): Promise<EmailProviderRecord> {
  return t.app.get(EmailProvidersService).create({
    name: o.name ?? 'Test SMTP',
    fromEmail: o.fromEmail ?? 'no-reply@svc.test',
    fromName: o.fromName ?? 'svc',
    config: {
      host: smtp.host,
      port: smtp.port,
      secure: false,
      user: o.user ?? null,
      password: o.password ?? null,
    },
    isDefault: true,
  });
}

/**
 * The first `${baseUrl}/admin/<action>?token=...` link of a message (text part first, then HTML),
 * or null. `baseUrl` is the app's public URL (createTestApp uses http://localhost:3000).
 */
export function extractLink(
  mail: ParsedMail,
  action: string,
  baseUrl = 'http://localhost:3000',
): string | null {
  const prefix = `${baseUrl.replace(/\/+$/, '')}/admin/${action}?token=`;
  const pattern = new RegExp(`${escapeRegExp(prefix)}[A-Za-z0-9._~%-]+`);
  for (const body of [mail.text ?? '', typeof mail.html === 'string' ? mail.html : '']) {
    const m = pattern.exec(body);
    if (m) {
      return m[0];
    }
  }
  return null;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
