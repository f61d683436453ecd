import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RbacModule } from '../rbac/rbac.module';
import { UserFieldsModule } from '../user-fields/user-fields.module';
import { UsersAdminService } from './users-admin.service';
import { UsersController } from './users.controller';
import { UsersModule } from './users.module';

/**
 * The `/users` REST surface. Its own module because it needs the auth module (invitations,
 * administrator-set passwords), which itself builds on UsersModule's accounts.
 */
@Module({
  imports: [UsersModule, AuthModule, RbacModule, UserFieldsModule],
  controllers: [UsersController],
  providers: [UsersAdminService],
})
export class UsersAdminModule {}
