import { Module } from '@nestjs/common';
import { RbacModule } from '../rbac/rbac.module';
import { UserFieldsModule } from '../user-fields/user-fields.module';
import { AccountsService } from './accounts.service';
import { MeController } from './me.controller';
import { UsersRepository } from './users.repository';

@Module({
  imports: [RbacModule, UserFieldsModule],
  controllers: [MeController],
  providers: [UsersRepository, AccountsService],
  exports: [AccountsService, UsersRepository],
})
export class UsersModule {}
