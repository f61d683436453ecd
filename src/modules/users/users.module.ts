import { Module } from '@nestjs/common';
import { RbacModule } from '../rbac/rbac.module';
import { AccountsService } from './accounts.service';
import { MeController } from './me.controller';
import { UsersRepository } from './users.repository';

@Module({
  imports: [RbacModule],
  controllers: [MeController],
  providers: [UsersRepository, AccountsService],
  exports: [AccountsService],
})
export class UsersModule {}
