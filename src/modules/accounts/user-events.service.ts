import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { UserFieldsService } from '../user-fields/user-fields.service';
import { WebhookOutbox } from '../webhooks/webhook-outbox.service';
import type { WebhookEventType } from '../webhooks/webhooks.types';
import { toUserRecord, type UserRecord } from './user.mapper';
import { UsersRepository } from './users.repository';

type UserEvent = Extract<WebhookEventType, `user.${string}`>;

/**
 * The webhook events of accounts (`user.created`, `user.updated`, `user.deleted`,
 * `user.deactivated`, `user.activated`, `user.password-changed`), reported in the transaction of
 * the change with the user as the users API shows it then (never a hash or a token).
 */
@Injectable()
export class UserEvents {
  constructor(
    private readonly users: UsersRepository,
    private readonly userFields: UserFieldsService,
    private readonly outbox: WebhookOutbox,
  ) {}

  /** The user as it stands in `em`'s transaction. */
  async report(em: EntityManager, types: readonly UserEvent[], id: string): Promise<void> {
    if (!types.length) {
      return;
    }
    const account = await this.users.findAccountById(em, id);
    if (account) {
      await this.reportRecord(em, types, toUserRecord(account, this.userFields.present(account.custom)));
    }
  }

  /** A user record already at hand (a deleted user's last state). */
  reportRecord(em: EntityManager, types: readonly UserEvent[], user: UserRecord): Promise<void> {
    return this.outbox.emit(
      em,
      types.map((type) => ({ type, data: { user } })),
    );
  }

  /** After the commit: deliveries start now. */
  wake(): void {
    this.outbox.wake();
  }
}
