import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { SvcController } from '../../common/access/svc-controller';
import { RequirePermission } from '../../common/access/auth.decorators';
import {
  CreateEmailTemplateDto,
  PreviewEmailTemplateDto,
  UpdateEmailLayoutDto,
  UpdateEmailTemplateDto,
} from './dto/email-template.dto';
import { EmailTemplatesService, SORTABLE } from './email-templates.service';
import { IdPipe } from '../../common/id.pipe';
import { ApiListQuery, itemAnswer, listOf } from '../../common/api-schema';
import { EMAIL_LAYOUT, EMAIL_TEMPLATE, RENDERED_EMAIL } from './email.openapi';

const TemplateId = () => Param('id', new IdPipe('email template'));

/** `/admin/api/email-templates` (SPEC 4.2, CONTRACTS 7). */
@SvcController('email-templates')
export class EmailTemplatesController {
  constructor(private readonly templates: EmailTemplatesService) {}

  // The layout routes come first, so `/layout` is never read as an `:id`.
  @Get('layout')
  @RequirePermission('read-email-templates')
  @ApiOkResponse({ schema: EMAIL_LAYOUT })
  layout() {
    return this.templates.getLayout();
  }

  @Patch('layout')
  @RequirePermission('update-email-templates')
  @ApiOkResponse({ schema: itemAnswer(EMAIL_LAYOUT) })
  async updateLayout(@Body() dto: UpdateEmailLayoutDto) {
    return { message: 'Email layout updated', item: await this.templates.updateLayout(dto) };
  }

  @Get()
  @RequirePermission('read-email-templates')
  @ApiOkResponse({ schema: listOf(EMAIL_TEMPLATE) })
  @ApiListQuery({ sortable: SORTABLE, search: true })
  list(@Query() query: Record<string, unknown>) {
    return this.templates.list(query);
  }

  @Post()
  @RequirePermission('create-email-templates')
  @ApiCreatedResponse({ schema: itemAnswer(EMAIL_TEMPLATE) })
  async create(@Body() dto: CreateEmailTemplateDto) {
    return { message: 'Email template created', item: await this.templates.create(dto) };
  }

  @Get(':id')
  @RequirePermission('read-email-templates')
  @ApiOkResponse({ schema: EMAIL_TEMPLATE })
  get(@TemplateId() id: string) {
    return this.templates.get(id);
  }

  @Patch(':id')
  @RequirePermission('update-email-templates')
  @ApiOkResponse({ schema: itemAnswer(EMAIL_TEMPLATE) })
  async update(@TemplateId() id: string, @Body() dto: UpdateEmailTemplateDto) {
    return { message: 'Email template updated', item: await this.templates.update(id, dto) };
  }

  @Delete(':id')
  @RequirePermission('delete-email-templates')
  @ApiOkResponse({ schema: itemAnswer(EMAIL_TEMPLATE) })
  async remove(@TemplateId() id: string) {
    return { message: 'Email template deleted', item: await this.templates.delete(id) };
  }

  @Post(':id/preview')
  @HttpCode(200)
  @RequirePermission('read-email-templates')
  @ApiOkResponse({ schema: RENDERED_EMAIL })
  preview(@TemplateId() id: string, @Body() dto: PreviewEmailTemplateDto) {
    return this.templates.preview(id, dto.variables);
  }
}
