import { Body, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import { SvcController } from '../../common/access/svc-controller';
import { RequirePermission } from '../../common/access/auth.decorators';
import {
  CreateEmailProviderDto,
  TestEmailProviderDto,
  UpdateEmailProviderDto,
} from './dto/email-provider.dto';
import { EmailProvidersService, SORTABLE } from './email-providers.service';
import { EmailService } from './email.service';
import { IdPipe } from '../../common/id.pipe';
import { ApiListQuery, itemAnswer, listOf, MESSAGE_ANSWER } from '../../common/api-schema';
import { EMAIL_PROVIDER } from './email.openapi';

const ProviderId = () => Param('id', new IdPipe('email provider'));

/** `/admin/api/email-providers` (SPEC 4.2, CONTRACTS 7). */
@SvcController('email-providers')
export class EmailProvidersController {
  constructor(
    private readonly providers: EmailProvidersService,
    private readonly email: EmailService,
  ) {}

  @Get()
  @RequirePermission('read-email-providers')
  @ApiOkResponse({ schema: listOf(EMAIL_PROVIDER) })
  @ApiListQuery({ sortable: SORTABLE, search: true })
  list(@Query() query: Record<string, unknown>) {
    return this.providers.list(query);
  }

  @Post()
  @RequirePermission('create-email-providers')
  @ApiCreatedResponse({ schema: itemAnswer(EMAIL_PROVIDER) })
  async create(@Body() dto: CreateEmailProviderDto) {
    return { message: 'Email provider created', item: await this.providers.create(dto) };
  }

  @Get(':id')
  @RequirePermission('read-email-providers')
  @ApiOkResponse({ schema: EMAIL_PROVIDER })
  get(@ProviderId() id: string) {
    return this.providers.get(id);
  }

  @Patch(':id')
  @RequirePermission('update-email-providers')
  @ApiOkResponse({ schema: itemAnswer(EMAIL_PROVIDER) })
  async update(@ProviderId() id: string, @Body() dto: UpdateEmailProviderDto) {
    return { message: 'Email provider updated', item: await this.providers.update(id, dto) };
  }

  @Delete(':id')
  @RequirePermission('delete-email-providers')
  @ApiOkResponse({ schema: itemAnswer(EMAIL_PROVIDER) })
  async remove(@ProviderId() id: string) {
    return { message: 'Email provider deleted', item: await this.providers.delete(id) };
  }

  @Patch(':id/default')
  @RequirePermission('update-email-providers')
  @ApiOkResponse({ schema: itemAnswer(EMAIL_PROVIDER) })
  async setDefault(@ProviderId() id: string) {
    return { message: 'Default email provider set', item: await this.providers.setDefault(id) };
  }

  @Post(':id/test')
  @HttpCode(200)
  @RequirePermission('read-email-providers')
  @ApiOkResponse({ schema: MESSAGE_ANSWER })
  async test(@ProviderId() id: string, @Body() dto: TestEmailProviderDto) {
    await this.email.sendTest(id, dto.to);
    return { message: `Test email accepted by the SMTP server for ${dto.to}` };
  }
}
