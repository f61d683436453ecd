import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { SvcController } from '../../common/access/svc-controller';
import { SendEmailDto, SendTemplateEmailDto } from './dto/send-email.dto';
import { EmailService, SendResult } from './email.service';
import { EMAIL_SENT } from './email.openapi';

function answer(r: SendResult) {
  return {
    message: r.messageId
      ? 'Email sent'
      : 'No email provider is configured; the email was written to the server log',
    messageId: r.messageId,
  };
}

/** `/admin/api/email/*`: any signed-in caller (SPEC 4.2 "Authenticated": the global guard requires credentials). */
@SvcController('email')
export class EmailController {
  constructor(private readonly email: EmailService) {}

  @Post('send')
  @HttpCode(200)
  @ApiOkResponse({ schema: EMAIL_SENT })
  async send(@Body() dto: SendEmailDto) {
    return answer(await this.email.send(dto));
  }

  @Post('send-with-template')
  @HttpCode(200)
  @ApiOkResponse({ schema: EMAIL_SENT })
  async sendWithTemplate(@Body() dto: SendTemplateEmailDto) {
    return answer(await this.email.sendTemplate(dto));
  }
}
