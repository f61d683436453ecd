import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ServiceError } from '../../common/errors';
import { listRecord, ListRecord, parseListQuery } from '../../common/pagination';
import { SVC_CONNECTION, SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { isUniqueViolation } from '../../database/pg-errors';
import { AuditService } from '../audit/audit.service';
import { AUDIT_EVENTS } from '../audit/audit.types';
import { BUILT_IN_TEMPLATE_SLUGS } from './email.constants';
import { EmailLayout, RenderedEmail, renderTemplate, TemplateVariables } from './email-render';
import {
  EmailLayoutRecord,
  EmailTemplateRecord,
  toEmailLayoutRecord,
  toEmailTemplateRecord,
} from './email-template.mapper';
import { EmailTemplatesRepository, TemplateRow, TemplateSortField } from './email-templates.repository';
import type {
  CreateEmailTemplateDto,
  UpdateEmailLayoutDto,
  UpdateEmailTemplateDto,
} from './dto/email-template.dto';

export const SORTABLE: readonly TemplateSortField[] = ['name', 'slug', 'createdAt', 'updatedAt'];

function notFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such email template');
}

/**
 * Email templates and the shared layout. The built-in templates (CONTRACTS 7) can be edited but
 * neither renamed nor deleted: the account emails look them up by slug.
 */
@Injectable()
export class EmailTemplatesService {
  constructor(
    @InjectDataSource(SVC_CONNECTION) private readonly db: DataSource,
    private readonly repo: EmailTemplatesRepository,
    @Inject(SVC_OPTIONS) private readonly options: SvcOptions,
    private readonly audit: AuditService,
  ) {}

  async list(query: Record<string, unknown>): Promise<ListRecord<EmailTemplateRecord>> {
    const q = parseListQuery(query, { sortable: SORTABLE, defaultSort: { field: 'slug', direction: 'asc' } });
    const { rows, total } = await this.repo.list(this.db.manager, q);
    return listRecord(rows.map(toEmailTemplateRecord), total, q);
  }

  async get(id: string): Promise<EmailTemplateRecord> {
    return toEmailTemplateRecord(await this.getRow(id));
  }

  async create(dto: CreateEmailTemplateDto): Promise<EmailTemplateRecord> {
    try {
      const row = await this.db.transaction(async (em) => {
        const created = await this.repo.insert(em, {
          slug: dto.slug,
          name: dto.name,
          subject: dto.subject,
          html: dto.html,
          text: dto.text || null,
        });
        await this.recordAudit(em, 'email-template-created', `email-template:${created.id}`, {
          slug: created.slug,
        });
        return created;
      });
      return toEmailTemplateRecord(row);
    } catch (e) {
      throw this.duplicate(e, dto.slug);
    }
  }

  async update(id: string, dto: UpdateEmailTemplateDto): Promise<EmailTemplateRecord> {
    try {
      const row = await this.db.transaction(async (em) => {
        const current = await this.repo.findById(em, id, { forUpdate: true });
        if (!current) {
          throw notFound();
        }
        if (
          dto.slug !== undefined &&
          dto.slug !== current.slug &&
          BUILT_IN_TEMPLATE_SLUGS.includes(current.slug)
        ) {
          throw new ServiceError('CONFLICT', `The built-in template ${current.slug} cannot be renamed`);
        }
        const updated = await this.repo.update(em, id, {
          slug: dto.slug ?? current.slug,
          name: dto.name ?? current.name,
          subject: dto.subject ?? current.subject,
          html: dto.html ?? current.html,
          text: dto.text === undefined ? current.text : dto.text || null,
        });
        const fields = (['slug', 'name', 'subject', 'html', 'text'] as const).filter(
          (k) => dto[k] !== undefined,
        );
        await this.recordAudit(em, 'email-template-updated', `email-template:${id}`, {
          slug: updated?.slug ?? current.slug,
          fields,
        });
        return updated;
      });
      if (!row) {
        throw notFound();
      }
      return toEmailTemplateRecord(row);
    } catch (e) {
      throw this.duplicate(e, dto.slug);
    }
  }

  async delete(id: string): Promise<EmailTemplateRecord> {
    const current = await this.getRow(id);
    if (BUILT_IN_TEMPLATE_SLUGS.includes(current.slug)) {
      throw new ServiceError(
        'CONFLICT',
        `The built-in template ${current.slug} cannot be deleted; edit it instead`,
      );
    }
    const row = await this.db.transaction(async (em) => {
      const deleted = await this.repo.delete(em, id);
      if (deleted) {
        await this.recordAudit(em, 'email-template-deleted', `email-template:${id}`, { slug: deleted.slug });
      }
      return deleted;
    });
    if (!row) {
      throw notFound();
    }
    return toEmailTemplateRecord(row);
  }

  async getLayout(): Promise<EmailLayoutRecord> {
    return toEmailLayoutRecord(await this.repo.getLayout(this.db.manager));
  }

  async updateLayout(dto: UpdateEmailLayoutDto): Promise<EmailLayoutRecord> {
    const row = await this.db.transaction(async (em) => {
      const updated = await this.repo.updateLayout(em, dto);
      const fields = Object.keys(dto).filter((k) => dto[k as keyof UpdateEmailLayoutDto] !== undefined);
      await this.recordAudit(em, 'email-layout-updated', 'email-layout:default', { fields });
      return updated;
    });
    return toEmailLayoutRecord(row);
  }

  /** `settings-changed` (CONTRACTS 14.3) for a template or layout write, in its transaction. */
  private recordAudit(
    em: EntityManager,
    action: string,
    target: string,
    details: Record<string, unknown>,
  ): Promise<void> {
    return this.audit.record(
      {
        event: AUDIT_EVENTS.settingsChanged,
        actorId: this.audit.requestActorId(),
        target,
        metadata: { action, ...details },
      },
      em,
    );
  }

  /**
   * Renders a template with sample values (a name, an address, a link, the app URL) for every
   * variable the caller did not give.
   */
  async preview(id: string, variables: TemplateVariables = {}): Promise<RenderedEmail> {
    const template = await this.getRow(id);
    const sample: TemplateVariables = {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      appUrl: this.options.publicUrl,
      link: `${this.options.publicUrl}/admin/example?token=sample-token`,
    };
    return renderTemplate(template, { ...sample, ...variables }, await this.layout());
  }

  /** For sending: the template by slug with the current layout; 404 NOT_FOUND for an unknown slug. */
  async forSending(slug: string): Promise<{ template: TemplateRow; layout: EmailLayout }> {
    const template = await this.repo.findBySlug(this.db.manager, slug);
    if (!template) {
      throw new ServiceError('NOT_FOUND', `No email template with the slug ${slug}`);
    }
    return { template, layout: await this.layout() };
  }

  async layout(): Promise<EmailLayout> {
    const { header, footer } = await this.repo.getLayout(this.db.manager);
    return { header, footer };
  }

  private async getRow(id: string): Promise<TemplateRow> {
    const row = await this.repo.findById(this.db.manager, id);
    if (!row) {
      throw notFound();
    }
    return row;
  }

  private duplicate(e: unknown, slug: string | undefined): unknown {
    if (isUniqueViolation(e, 'email_templates_slug_key')) {
      return new ServiceError('DUPLICATE', `An email template with the slug ${slug} exists already`, {
        errors: [{ path: 'slug', code: 'duplicate', message: 'slug is taken' }],
      });
    }
    return e;
  }
}
