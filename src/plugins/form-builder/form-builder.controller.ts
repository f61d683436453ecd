import { randomUUID } from 'node:crypto';
import { normalizeIp } from '@nestjs/throttler/dist/ip';
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import {
  CurrentAuth,
  itemAnswer,
  listOf,
  csvRow,
  listRecord,
  parseListQuery,
  RequirePermission,
  ServiceError,
  SLUG_PATTERN,
  type AuthContext,
  type PluginContext,
} from '../api';
import { FORM, PUBLIC_FORM, SUBMISSION, SUBMISSION_RECEIVED } from './form-builder.openapi';
import { FormStore, isDuplicateSlug, type FormRecord, type FormSort } from './form-builder.store';
import { readDefinition, type FormDefinition } from './form-definition';
import {
  FORM_BUILDER_CONTEXT,
  FORM_BUILDER_OPTIONS,
  type ResolvedFormBuilderOptions,
} from './form-builder.options';
import { readSubmission, renderFields } from './form-submission';
import { SUBMISSION_TEMPLATE } from './migrations';
import { PatternBudget } from './pattern-tester';

const FORM_SORTS: readonly FormSort[] = ['name', 'slug', 'createdAt', 'updatedAt'];
const EXPORT_BATCH = 500;

/** What a caller without `read-forms` sees of a form: no notification address (an admin's). */
function publicForm(form: FormRecord): Omit<FormRecord, 'notifyEmail'> {
  const { notifyEmail: _hidden, ...rest } = form;
  return rest;
}

function mayRead(auth: AuthContext | undefined, permission: string): boolean {
  return !!auth && (auth.isSuperAdmin || auth.permissions.includes(permission));
}

const duplicate = (slug: string) =>
  new ServiceError('DUPLICATE', `A form with the slug ${slug} exists already`, {
    errors: [{ path: 'slug', code: 'duplicate', message: 'slug is taken' }],
  });

/** Resolves once `res` can take more (or rejects once the client is gone). */
function drained(res: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', gone);
      resolve();
    };
    const gone = () => {
      res.off('drain', done);
      res.off('close', gone);
      reject(new Error('client went away'));
    };
    res.on('drain', done);
    res.on('close', gone);
  });
}

/**
 * Mounted at `/admin/api/forms` (SPEC 4.2 note 3, the plugin's `mountPath`). Admin routes need
 * the plugin's permissions (`RequirePermission`: 401 without credentials, 403 without the
 * permission, super-admins pass); reading an open form and submitting are public.
 */
@Controller()
export class FormBuilderController {
  constructor(
    @Inject(FORM_BUILDER_CONTEXT) private readonly ctx: PluginContext,
    @Inject(FORM_BUILDER_OPTIONS) private readonly options: ResolvedFormBuilderOptions,
  ) {}

  private store(db = this.ctx.db): FormStore {
    return new FormStore(db);
  }

  /** The form of a route's `:slug`, or 404 (a slug that cannot exist is not looked up). */
  private async form(slug: string): Promise<FormRecord> {
    const form = SLUG_PATTERN.test(slug) ? await this.store().find(slug) : null;
    if (!form) {
      throw new ServiceError('NOT_FOUND', 'No form with this slug');
    }
    return form;
  }

  @Get()
  @RequirePermission('read-forms')
  @ApiOkResponse({ schema: listOf(FORM) })
  async list(@Query() query: Record<string, unknown>) {
    const q = parseListQuery(query, {
      sortable: FORM_SORTS,
      defaultSort: { field: 'slug', direction: 'asc' },
    });
    const { items, total } = await this.store().list(q);
    return listRecord(items, total, q);
  }

  @Post()
  @RequirePermission('create-forms')
  @ApiCreatedResponse({ schema: itemAnswer(FORM) })
  async create(@Body() body: unknown) {
    const definition = readDefinition(body);
    const item = await this.store().create(definition);
    if (!item) {
      throw duplicate(definition.slug);
    }
    this.ctx.logger.info({ form: item.slug }, 'form created');
    return { message: 'Form created', item };
  }

  /** Anyone for an open form (what a site renders); `read-forms` for a closed one. */
  @Get(':slug')
  @ApiOkResponse({
    description: 'The form; without `notifyEmail` for a caller without read-forms',
    schema: { oneOf: [FORM, PUBLIC_FORM] },
  })
  async read(@Param('slug') slug: string, @CurrentAuth() auth: AuthContext | undefined) {
    const form = await this.form(slug);
    if (mayRead(auth, 'read-forms')) {
      return form;
    }
    if (form.status !== 'open') {
      if (!auth) {
        throw new ServiceError('AUTH_REQUIRED', 'Sign in to use this route');
      }
      throw new ServiceError('FORBIDDEN', 'This needs the permission read-forms');
    }
    return publicForm(form);
  }

  @Patch(':slug')
  @RequirePermission('update-forms')
  @ApiOkResponse({ schema: itemAnswer(FORM) })
  async update(@Param('slug') slug: string, @Body() body: unknown) {
    if (!SLUG_PATTERN.test(slug)) {
      throw new ServiceError('NOT_FOUND', 'No form with this slug');
    }
    let next: FormDefinition | undefined;
    try {
      const item = await this.ctx.db.transaction(async (tx) => {
        const current = await this.store(tx).find(slug, { lock: true });
        if (!current) {
          throw new ServiceError('NOT_FOUND', 'No form with this slug');
        }
        next = readDefinition(body, current);
        return this.store(tx).update(current.id, next);
      });
      if (!item) {
        throw new ServiceError('NOT_FOUND', 'No form with this slug');
      }
      this.ctx.logger.info({ form: item.slug }, 'form updated');
      return { message: 'Form updated', item };
    } catch (e) {
      if (next && isDuplicateSlug(e)) {
        throw duplicate(next.slug);
      }
      throw e;
    }
  }

  @Delete(':slug')
  @RequirePermission('delete-forms')
  @ApiOkResponse({ schema: itemAnswer(FORM) })
  async remove(@Param('slug') slug: string) {
    const item = SLUG_PATTERN.test(slug) ? await this.store().delete(slug) : null;
    if (!item) {
      throw new ServiceError('NOT_FOUND', 'No form with this slug');
    }
    this.ctx.logger.info({ form: item.slug }, 'form deleted with its submissions');
    return { message: 'Form deleted with its submissions', item };
  }

  /**
   * Public. The budget is per client address and form; a closed form is refused after the
   * budget is counted, so hammering one still ends at 429. A filled honeypot answers as a stored
   * submission would, and stores nothing.
   */
  @Post(':slug/submit')
  @HttpCode(201)
  @ApiCreatedResponse({ schema: SUBMISSION_RECEIVED })
  async submit(
    @Param('slug') slug: string,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const form = await this.form(slug);
    const ip = req.ip ?? null;
    await this.ctx.limits.consume(
      `submit:${form.id}:${normalizeIp(ip ?? 'unknown')}`,
      this.options.submitRateLimit,
      res,
    );
    if (form.status !== 'open') {
      throw new ServiceError('CONFLICT', 'This form is closed');
    }
    const check = readSubmission(body, form, new PatternBudget());
    if (check.spam) {
      this.ctx.logger.info({ form: form.slug }, 'form submission dropped: honeypot filled');
      return { message: 'Submission received', id: randomUUID() };
    }
    const id = await this.store().addSubmission(form.id, check.data, ip);
    if (!id) {
      // Closed or deleted between the read and the write.
      const now = await this.store().find(form.slug);
      throw now && now.id === form.id
        ? new ServiceError('CONFLICT', 'This form is closed')
        : new ServiceError('NOT_FOUND', 'No form with this slug');
    }
    this.ctx.logger.info({ form: form.slug, submissionId: id }, 'form submission stored');
    if (form.notifyEmail) {
      void this.notify(form, form.notifyEmail, id, check.data);
    }
    return { message: 'Submission received', id };
  }

  /** The notification, after the submission is stored; a failure is logged, never answered. */
  private async notify(
    form: FormRecord,
    to: string,
    id: string,
    data: Record<string, unknown>,
  ): Promise<void> {
    try {
      await this.ctx.email.sendTemplate({
        to,
        template: SUBMISSION_TEMPLATE,
        variables: {
          formName: form.name,
          formSlug: form.slug,
          submissionId: id,
          fields: renderFields(form, data),
        },
      });
    } catch (e) {
      this.ctx.logger.warn(
        {
          form: form.slug,
          submissionId: id,
          err: { code: (e as { code?: unknown }).code, message: (e as Error).message },
        },
        'form submission notification not sent',
      );
    }
  }

  @Get(':slug/submissions')
  @RequirePermission('read-form-submissions')
  @ApiOkResponse({ schema: listOf(SUBMISSION) })
  async submissions(@Param('slug') slug: string, @Query() query: Record<string, unknown>) {
    const form = await this.form(slug);
    const q = parseListQuery(query, {
      sortable: ['createdAt'] as const,
      defaultSort: { field: 'createdAt', direction: 'desc' },
    });
    const { items, total } = await this.store().listSubmissions(form.id, {
      limit: q.limit,
      offset: q.offset,
      direction: q.sort.direction,
    });
    return listRecord(items, total, q);
  }

  /**
   * CSV of every submission, oldest first: a header row of the form's field names, then one row
   * per submission (values of fields the form no longer has are left out). Read in batches and
   * streamed, so a large export holds one batch in memory.
   */
  @Get(':slug/submissions/export')
  @RequirePermission('read-form-submissions')
  @ApiOkResponse({
    description: 'Every submission, oldest first: a header row of the field names, then a row each',
    content: { 'text/csv': {} },
  })
  async export(@Param('slug') slug: string, @Query() query: Record<string, unknown>, @Res() res: Response) {
    const format = query.format ?? 'csv';
    if (format !== 'csv') {
      throw ServiceError.validation([{ path: 'format', code: 'isIn', message: 'format must be csv' }]);
    }
    const form = await this.form(slug);
    const store = this.store();
    const names = form.fields.map((f) => f.name);
    // The first batch is read before anything is sent, so a failure there is an ordinary error answer.
    let batch = await store.exportBatch(form.id, null, EXPORT_BATCH);
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${form.slug}-submissions.csv"`);
    res.setHeader('Cache-Control', 'no-store');
    try {
      let chunk = csvRow(names);
      for (;;) {
        for (const row of batch) {
          chunk += csvRow(
            names.map((n) => (Object.prototype.hasOwnProperty.call(row.data, n) ? row.data[n] : null)),
          );
        }
        if (!res.write(chunk)) {
          await drained(res);
        }
        chunk = '';
        if (batch.length < EXPORT_BATCH) {
          break;
        }
        batch = await store.exportBatch(form.id, batch[batch.length - 1].cursor, EXPORT_BATCH);
      }
      res.end();
    } catch (e) {
      this.ctx.logger.warn({ form: form.slug, err: (e as Error).message }, 'form export stopped');
      res.destroy();
    }
  }
}
