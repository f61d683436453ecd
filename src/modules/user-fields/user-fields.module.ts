import { Module } from '@nestjs/common';
import { UserFieldsController } from './user-fields.controller';
import { UserFieldsRepository } from './user-fields.repository';
import { UserFieldsService } from './user-fields.service';

/**
 * Custom user fields: definitions over REST and from `users.fields` of the config, and
 * UserFieldsService (validation and presentation of values) for the accounts module. Depends on
 * no other module (the access decorators are metadata only), so the accounts module can import
 * it.
 */
@Module({
  controllers: [UserFieldsController],
  providers: [UserFieldsRepository, UserFieldsService],
  exports: [UserFieldsService],
})
export class UserFieldsModule {}
