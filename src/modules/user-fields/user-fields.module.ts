import { Module } from '@nestjs/common';
import { bodyRules } from '../../common/validation';
import { CreateUserFieldDto } from './dto/user-field.dto';
import { checkDefinition, type DefinitionInput } from './user-field-values';
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

// A definition with an unknown key is answered with the problems of its known keys too.
bodyRules(CreateUserFieldDto, (body) => checkDefinition(body as DefinitionInput).errors);
