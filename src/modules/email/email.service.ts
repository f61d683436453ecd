import { Inject, Injectable, Logger } from '@nestjs/common';
import { ServiceError } from '../../common/errors';
import { SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { escapeHtml, RenderedEmail, renderRaw, renderTemplate, TemplateVariables } from './email-render';
import { EmailProvidersService, SendingProvider } from './email-providers.service';
import { EmailTemplatesService } from './email-templates.service';
import { SMTP_TIMEOUTS, SmtpTimeouts } from './email.constants';
import { SmtpDeliveryError, sendSmtp } from './smtp-transport';

export interface SendResult {
  /** The Message-ID the SMTP server accepted; null when no provider is configured (development log). */
  messageId: string | null;
}

export interface SendEmailInput {
  to: string;
  subject: string;
  html: string;
  /** The plain-text part; derived from the HTML when absent. */
  text?: string | null;
}

export interface SendTemplateInput {
  to: string;
  /** A template slug, e.g. one of EMAIL_TEMPLATES. */
  template: string;
  /** `appUrl` and `email` (the recipient) are filled in when not given. */
  variables?: TemplateVariables;
}

/**
 * Sends email through the default provider. What other modules use (the account flows call
 * `sendTemplate`). Every call either resolves once the SMTP server accepted the message or
 * rejects with a ServiceError:
 * - `NOT_FOUND` for an unknown template slug;
 * - `SERVICE_UNAVAILABLE` when the server refused or did not answer in time (`data.reason` holds
 *   its reply), or, in production, when no default provider is configured (CONTRACTS 3.4).
 * Outside production, with no default provider, the whole message is logged at info level and the
 * call resolves with `messageId: null`. Callers decide whether a failure matters (forgot-password
 * sends in the background and ignores it).
 */
@Injectable()
export class EmailService {
  private readonly logger = new Logger('Email');
  /** Per-phase timeouts and the overall deadline of one SMTP send. */
  private readonly timeouts: SmtpTimeouts = SMTP_TIMEOUTS;

  constructor(
    private readonly providers: EmailProvidersService,
    private readonly templates: EmailTemplatesService,
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
  ) {}

  /** A message given as is (no placeholders), wrapped in the shared layout. */
  async send(input: SendEmailInput): Promise<SendResult> {
    const layout = await this.templates.layout();
    const rendered = renderRaw(input, layout, this.baseVariables(input.to));
    return this.deliver(input.to, rendered, { kind: 'raw' });
  }

  /** A stored template rendered with `variables` (HTML-escaped in the HTML part). */
  async sendTemplate(input: SendTemplateInput): Promise<SendResult> {
    const { template, layout } = await this.templates.forSending(input.template);
    const rendered = renderTemplate(
      template,
      { ...this.baseVariables(input.to), ...input.variables },
      layout,
    );
    return this.deliver(input.to, rendered, { kind: 'template', template: template.slug });
  }

  /** A test message through one provider (default or not); SMTP failure is SERVICE_UNAVAILABLE. */
  async sendTest(providerId: string, to: string): Promise<SendResult> {
    const provider = await this.providers.byIdForSending(providerId);
    const layout = await this.templates.layout();
    const rendered = renderRaw(
      {
        subject: 'Test email',
        html: `<p>This test email was sent through the email provider “${escapeHtml(provider.name)}”. It works.</p>`,
      },
      layout,
      this.baseVariables(to),
    );
    return this.sendVia(provider, to, rendered, { kind: 'test' });
  }

  /** Whether a default provider is configured (without one, sends follow CONTRACTS 3.4). */
  hasDefaultProvider(): Promise<boolean> {
    return this.providers.hasDefault();
  }

  private baseVariables(to: string): TemplateVariables {
    return { appUrl: this.options.publicUrl, email: to };
  }

  private async deliver(to: string, email: RenderedEmail, what: Record<string, string>): Promise<SendResult> {
    const provider = await this.providers.defaultForSending();
    if (!provider) {
      if (!this.options.production) {
        // Development: the message (links included) goes to the log so flows can be followed.
        this.logger.log(
          { email: { to, subject: email.subject, text: email.text, html: email.html }, ...what },
          `email not sent (no default email provider): to ${to}, subject "${email.subject}"\n${email.text}`,
        );
        return { messageId: null };
      }
      this.logger.error({ ...what }, 'email not sent: no default email provider is configured');
      throw new ServiceError('SERVICE_UNAVAILABLE', 'No email provider is configured', {
        reason: 'No default email provider is configured',
      });
    }
    return this.sendVia(provider, to, email, what);
  }

  private async sendVia(
    provider: SendingProvider,
    to: string,
    email: RenderedEmail,
    what: Record<string, string>,
  ): Promise<SendResult> {
    const started = Date.now();
    try {
      const { messageId } = await sendSmtp(
        provider.smtp,
        { from: provider.from, to, subject: email.subject, html: email.html, text: email.text },
        this.timeouts,
      );
      this.logger.log(
        { providerId: provider.id, messageId, ms: Date.now() - started, ...what },
        'email sent',
      );
      return { messageId };
    } catch (e) {
      if (e instanceof SmtpDeliveryError) {
        // Only the provider id, the server's reply and the failed command: never credentials.
        this.logger.error(
          { providerId: provider.id, reason: e.reason, ...e.details, ms: Date.now() - started, ...what },
          'email delivery failed',
        );
        throw new ServiceError('SERVICE_UNAVAILABLE', 'The email could not be sent', { reason: e.reason });
      }
      this.logger.error({ providerId: provider.id, ...what }, 'email delivery failed unexpectedly');
      throw e;
    }
  }
}
