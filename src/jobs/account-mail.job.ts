import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ServiceError } from '../common/errors';
import { EmailService } from '../modules/email/email.service';
import { SecretBox, SecretPurpose } from '../common/secret-box';
import { SVC_OPTIONS, SvcOptions } from '../config/svc-options';
import { Job, JobsService, QueueSpec } from './jobs.service';

/**
 * The account emails (verify-email, reset-password, invite, password-changed). Five attempts:
 * retries after about 5-10, 10-20, 20-40 and 40-80 s (pg-boss doubles the delay and adds up to as
 * much again at random), so a mail server restart is ridden out while the person still waits for
 * the link; past that the failure is logged. An attempt is cut off after 60 s (an SMTP send gives
 * up after 20 s), so a job whose process died is retried; one not started within a day is dropped.
 */
export const ACCOUNT_MAIL: QueueSpec = {
  name: 'account-mail',
  retryLimit: 4,
  retryDelaySeconds: 5,
  expireInSeconds: 60,
  retentionMinutes: 24 * 60,
};

export interface AccountMail {
  /** A template slug (EMAIL_TEMPLATES). */
  template: string;
  to: string;
  name: string;
  /** The emailed link, raw token included: stored sealed, opened only by the worker. */
  link?: string;
}

/** What the job row holds: never the raw token (SPEC 5.6: raw tokens are only ever emailed). */
interface AccountMailPayload {
  template: string;
  to: string;
  name: string;
  sealedLink?: string;
}

/** Its own key and associated data: no other sealed value of the service opens as a link. */
const LINK_PURPOSE: SecretPurpose = { keyLabel: 'svc account mail link', aad: 'svc:jobs:account-mail:link' };

/**
 * Account mail after the answer, durably: `enqueue` inserts the job in the transaction that
 * issued the link, so the mail exists exactly when the token does, and survives a crash; the
 * worker renders and sends it through EmailService. The link is sealed with AES-256-GCM under a
 * key derived from SVC_SECRET, so the job tables (and their backups) hold no usable token.
 */
@Injectable()
export class AccountMailJob implements OnApplicationBootstrap {
  private readonly logger = new Logger('Accounts');
  private readonly box: SecretBox;

  constructor(
    private readonly jobs: JobsService,
    private readonly email: EmailService,
    @Inject(SVC_OPTIONS) options: SvcOptions,
  ) {
    this.box = new SecretBox(options.secret, LINK_PURPOSE);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.jobs.work<AccountMailPayload>(ACCOUNT_MAIL, (job) => this.deliver(job));
  }

  /** Within the caller's transaction; call `wake` once it committed. */
  async enqueue(em: EntityManager, mail: AccountMail): Promise<void> {
    const payload: AccountMailPayload = { template: mail.template, to: mail.to, name: mail.name };
    if (mail.link !== undefined) {
      payload.sealedLink = this.box.seal(mail.link);
    }
    await this.jobs.send(em, ACCOUNT_MAIL, payload);
  }

  /** After the commit: the mail goes now rather than at the worker's next poll. */
  wake(): void {
    this.jobs.wake(ACCOUNT_MAIL);
  }

  private async deliver(job: Job<AccountMailPayload>): Promise<void> {
    const { template, to, name, sealedLink } = job.data;
    const variables: Record<string, string> = { name };
    if (sealedLink !== undefined) {
      try {
        variables.link = this.box.open(sealedLink);
      } catch {
        // Sealed under an earlier SVC_SECRET: no retry can open it; the person asks for a new link.
        this.logger.error({ template, to }, 'email not sent: its link no longer opens (SVC_SECRET changed?)');
        return;
      }
    }
    try {
      await this.email.sendTemplate({ to, template, variables });
    } catch (e) {
      const reason =
        e instanceof ServiceError && typeof e.data?.reason === 'string' ? e.data.reason : String(e);
      const last = job.retryCount >= job.retryLimit;
      const fields = { template, to, attempt: job.retryCount + 1, reason };
      if (last) {
        this.logger.error(fields, 'email not sent: every attempt failed');
      } else {
        this.logger.warn(fields, 'email not sent yet: will retry');
      }
      // pg-boss stores what a handler throws in the job row: a new error with the reason only
      // (the message was rendered with the link; the reason is the SMTP server's reply).
      throw new Error(`email not sent: ${reason}`);
    }
  }
}
