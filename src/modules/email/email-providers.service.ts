import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ServiceError } from '../../common/errors';
import { listRecord, ListRecord, parseListQuery } from '../../common/pagination';
import { SVC_CONNECTION } from '../../config/svc-options';
import { PASSWORD_MASK } from './email.constants';
import { EmailProviderRecord, toEmailProviderRecord } from './email-provider.mapper';
import {
  EmailProvidersRepository,
  ProviderRow,
  ProviderSortField,
  StoredSmtpConfig,
} from './email-providers.repository';
import { SecretBox } from '../../common/secret-box';
import { AuditService } from '../audit/audit.service';
import { AUDIT_EVENTS } from '../audit/audit.types';
import type { SmtpSettings } from './smtp-transport';
import type { CreateEmailProviderDto, UpdateEmailProviderDto } from './dto/email-provider.dto';

/** A provider ready to send through: its sender and its SMTP settings with the password decrypted. */
export interface SendingProvider {
  id: string;
  name: string;
  from: { address: string; name: string | null };
  smtp: SmtpSettings;
}

export const SORTABLE: readonly ProviderSortField[] = ['name', 'createdAt'];

function notFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such email provider');
}

/**
 * Email providers: CRUD, the single default, and the decrypted settings for sending. The password
 * is sealed (AES-256-GCM) before it reaches the database and only opened for a send.
 */
@Injectable()
export class EmailProvidersService {
  private readonly logger = new Logger('EmailProviders');

  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: EmailProvidersRepository,
    private readonly secrets: SecretBox,
    private readonly audit: AuditService,
  ) {}

  async list(query: Record<string, unknown>): Promise<ListRecord<EmailProviderRecord>> {
    const q = parseListQuery(query, { sortable: SORTABLE, defaultSort: { field: 'name', direction: 'asc' } });
    const { rows, total } = await this.repo.list(this.db.manager, q);
    return listRecord(rows.map(toEmailProviderRecord), total, q);
  }

  async get(id: string): Promise<EmailProviderRecord> {
    const row = await this.repo.findById(this.db.manager, id);
    if (!row) {
      throw notFound();
    }
    return toEmailProviderRecord(row);
  }

  /** A provider created while there is no default becomes the default unless `isDefault: false`. */
  async create(dto: CreateEmailProviderDto): Promise<EmailProviderRecord> {
    const row = await this.db.transaction(async (em) => {
      await this.repo.lockDefault(em);
      const isDefault = dto.isDefault ?? !(await this.repo.hasDefault(em));
      if (isDefault) {
        await this.repo.clearDefault(em);
      }
      const created = await this.repo.insert(em, {
        name: dto.name,
        fromEmail: dto.fromEmail,
        fromName: emptyToNull(dto.fromName),
        config: {
          host: dto.config.host,
          port: dto.config.port,
          secure: dto.config.secure ?? false,
          user: emptyToNull(dto.config.user),
        },
        passwordEnc: this.sealPassword(dto.config.password, null),
        isDefault,
      });
      await this.recordAudit(em, 'email-provider-created', created.id, { isDefault });
      return created;
    });
    this.logger.log({ providerId: row.id }, 'email provider created');
    return toEmailProviderRecord(row);
  }

  /** Partial: absent fields (and absent config keys) keep their value; see UpdateSmtpConfigDto for the password. */
  async update(id: string, dto: UpdateEmailProviderDto): Promise<EmailProviderRecord> {
    const row = await this.db.transaction(async (em) => {
      const current = await this.repo.findById(em, id, { forUpdate: true });
      if (!current) {
        throw notFound();
      }
      const c = dto.config ?? {};
      const config: StoredSmtpConfig = {
        host: c.host ?? current.config.host,
        port: c.port ?? current.config.port,
        secure: c.secure ?? current.config.secure === true,
        user: c.user === undefined ? (current.config.user ?? null) : emptyToNull(c.user),
      };
      const updated = await this.repo.update(em, id, {
        name: dto.name ?? current.name,
        fromEmail: dto.fromEmail ?? current.from_email,
        fromName: dto.fromName === undefined ? current.from_name : emptyToNull(dto.fromName),
        config,
        passwordEnc: this.sealPassword(c.password, current.password_enc),
      });
      // The names of the fields sent (`config.password` among them when it was), never a value.
      const fields = [
        ...(['name', 'fromEmail', 'fromName'] as const).filter((k) => dto[k] !== undefined),
        ...Object.keys(c)
          .filter((k) => c[k as keyof typeof c] !== undefined)
          .map((k) => `config.${k}`),
      ];
      await this.recordAudit(em, 'email-provider-updated', id, { fields });
      return updated;
    });
    if (!row) {
      throw notFound();
    }
    this.logger.log({ providerId: id }, 'email provider updated');
    return toEmailProviderRecord(row);
  }

  /** Deleting the default leaves no default: sends then follow CONTRACTS 3.4 until another is chosen. */
  async delete(id: string): Promise<EmailProviderRecord> {
    const row = await this.db.transaction(async (em) => {
      const deleted = await this.repo.delete(em, id);
      if (deleted) {
        await this.recordAudit(em, 'email-provider-deleted', id, {});
      }
      return deleted;
    });
    if (!row) {
      throw notFound();
    }
    this.logger.log({ providerId: id }, 'email provider deleted');
    return toEmailProviderRecord(row);
  }

  /**
   * `settings-changed` (CONTRACTS 14.3) for a provider write, in its transaction: target
   * `email-provider:<id>`, the signed-in caller as actor, what was done; never the SMTP password.
   */
  private recordAudit(
    em: EntityManager,
    action: string,
    id: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.record(
      {
        event: AUDIT_EVENTS.settingsChanged,
        actorId: this.audit.requestActorId(),
        target: `email-provider:${id}`,
        metadata: { action, ...details },
      },
      em,
    );
  }

  /** Makes this provider the only default, in one transaction. */
  async setDefault(id: string): Promise<EmailProviderRecord> {
    const row = await this.db.transaction(async (em) => {
      await this.repo.lockDefault(em);
      if (!(await this.repo.findById(em, id))) {
        throw notFound();
      }
      await this.repo.clearDefault(em, id);
      const marked = await this.repo.markDefault(em, id);
      await this.recordAudit(em, 'email-provider-default-set', id, {});
      return marked;
    });
    if (!row) {
      throw notFound();
    }
    this.logger.log({ providerId: id }, 'default email provider set');
    return toEmailProviderRecord(row);
  }

  async hasDefault(): Promise<boolean> {
    return this.repo.hasDefault(this.db.manager);
  }

  /** The default provider ready to send, or null when none is configured. */
  async defaultForSending(em: EntityManager = this.db.manager): Promise<SendingProvider | null> {
    const row = await this.repo.findDefault(em);
    return row ? this.forSending(row) : null;
  }

  async byIdForSending(id: string): Promise<SendingProvider> {
    const row = await this.repo.findById(this.db.manager, id);
    if (!row) {
      throw notFound();
    }
    return this.forSending(row);
  }

  private forSending(row: ProviderRow): SendingProvider {
    let password: string | null = null;
    if (row.password_enc) {
      try {
        password = this.secrets.open(row.password_enc);
      } catch {
        // Sealed under another SVC_SECRET (or damaged): refuse rather than send without it.
        this.logger.error({ providerId: row.id }, 'email provider password cannot be decrypted');
        throw new ServiceError('SERVICE_UNAVAILABLE', 'The email provider cannot be used', {
          reason: 'The stored password cannot be decrypted (was SVC_SECRET changed?); set the password again',
        });
      }
    }
    return {
      id: row.id,
      name: row.name,
      from: { address: row.from_email, name: row.from_name },
      smtp: {
        host: row.config.host,
        port: row.config.port,
        secure: row.config.secure === true,
        user: row.config.user ?? null,
        password,
      },
    };
  }

  /** undefined or the mask: keep `current`; null or '': none; anything else: sealed anew. */
  private sealPassword(input: string | null | undefined, current: string | null): string | null {
    if (input === undefined || input === PASSWORD_MASK) {
      return current;
    }
    return input ? this.secrets.seal(input) : null;
  }
}

function emptyToNull(v: string | null | undefined): string | null {
  return v === undefined || v === null || v === '' ? null : v;
}
