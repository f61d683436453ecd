import { createTransport } from 'nodemailer';
import { SMTP_TIMEOUTS, SmtpTimeouts } from './email.constants';

/** Everything needed to reach one SMTP server (the password already decrypted). */
export interface SmtpSettings {
  host: string;
  port: number;
  secure: boolean;
  user: string | null;
  password: string | null;
}

export interface OutgoingEmail {
  from: { address: string; name: string | null };
  to: string;
  subject: string;
  html: string;
  text: string;
}

/**
 * A failed delivery. `reason` is what the server answered (or the network error); no credential
 * is ever in it, in `message`, or in the other fields.
 */
export class SmtpDeliveryError extends Error {
  constructor(
    readonly reason: string,
    readonly details: { code?: string; responseCode?: number; command?: string },
  ) {
    super(`SMTP delivery failed: ${reason}`);
    this.name = 'SmtpDeliveryError';
  }
}

/**
 * Sends one message over a fresh SMTP connection (no pool: sends are rare, and a provider edit
 * then applies to the next send with nothing to invalidate). Bounded by per-phase timeouts and
 * an overall deadline, so a slow server costs a request at most `timeouts.deadline` ms.
 */
export async function sendSmtp(
  settings: SmtpSettings,
  email: OutgoingEmail,
  timeouts: SmtpTimeouts = SMTP_TIMEOUTS,
): Promise<{ messageId: string | null; response: string }> {
  const transporter = createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: settings.user ? { user: settings.user, pass: settings.password ?? '' } : undefined,
    connectionTimeout: timeouts.connectionTimeout,
    greetingTimeout: timeouts.greetingTimeout,
    socketTimeout: timeouts.socketTimeout,
    dnsTimeout: timeouts.dnsTimeout,
    // Message content is ours or an administrator's: never read files or URLs for it.
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
    debug: false,
  });
  try {
    const info = await transporter.sendMail({
      from: email.from.name ? { name: email.from.name, address: email.from.address } : email.from.address,
      to: email.to,
      subject: email.subject,
      html: email.html,
      text: email.text,
      signal: AbortSignal.timeout(timeouts.deadline),
    });
    return { messageId: info.messageId ?? null, response: String(info.response ?? '') };
  } catch (e) {
    throw toDeliveryError(e, settings, timeouts);
  } finally {
    transporter.close();
  }
}

function toDeliveryError(e: unknown, settings: SmtpSettings, timeouts: SmtpTimeouts): SmtpDeliveryError {
  const err = (e ?? {}) as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    response?: unknown;
    responseCode?: unknown;
    command?: unknown;
  };
  let reason: string;
  if (err.name === 'AbortError' || err.code === 'EABORT') {
    reason = `No answer from the SMTP server within ${timeouts.deadline} ms`;
  } else if (typeof err.response === 'string' && err.response.trim()) {
    reason = err.response.trim();
  } else {
    reason = typeof err.message === 'string' && err.message ? err.message : 'Unknown SMTP error';
  }
  return new SmtpDeliveryError(scrub(reason, settings), {
    code: typeof err.code === 'string' ? err.code : undefined,
    responseCode: typeof err.responseCode === 'number' ? err.responseCode : undefined,
    // Only the verb (e.g. "AUTH PLAIN", "RCPT TO"): never any argument that could carry a secret.
    command: typeof err.command === 'string' ? err.command.split(' ').slice(0, 2).join(' ') : undefined,
  });
}

/** Removes the password (and its usual SMTP encodings) should a server ever echo it back. */
function scrub(text: string, settings: SmtpSettings): string {
  const secrets = [settings.password].filter((s): s is string => !!s && s.length >= 3);
  let out = text.slice(0, 1000);
  for (const s of secrets) {
    const plainAuth = Buffer.from(`\u0000${settings.user ?? ''}\u0000${s}`).toString('base64');
    for (const form of [s, Buffer.from(s).toString('base64'), plainAuth]) {
      out = out.split(form).join('[redacted]');
    }
  }
  return out;
}
