import { AuditModule } from '../audit/audit.module';
import { Module } from '@nestjs/common';
import { SVC_OPTIONS, SvcOptions } from '../../config/svc-options';
import { EmailProvidersController } from './email-providers.controller';
import { EmailProvidersRepository } from './email-providers.repository';
import { EmailProvidersService } from './email-providers.service';
import { EmailTemplatesController } from './email-templates.controller';
import { EmailTemplatesRepository } from './email-templates.repository';
import { EmailTemplatesService } from './email-templates.service';
import { EmailController } from './email.controller';
import { EmailService } from './email.service';
import { SecretBox } from '../../common/secret-box';

/**
 * Email: providers, templates and layout over REST, and EmailService for the rest of the
 * service. Depends only on the audit module (provider, template and layout writes are audited
 * as `settings-changed`; the access decorators are metadata only), so the jobs (account mail)
 * can import it.
 */
@Module({
  imports: [AuditModule],
  controllers: [EmailProvidersController, EmailTemplatesController, EmailController],
  providers: [
    { provide: SecretBox, inject: [SVC_OPTIONS], useFactory: (o: SvcOptions) => new SecretBox(o.secret) },
    EmailProvidersRepository,
    EmailProvidersService,
    EmailTemplatesRepository,
    EmailTemplatesService,
    EmailService,
  ],
  exports: [EmailService],
})
export class EmailModule {}
