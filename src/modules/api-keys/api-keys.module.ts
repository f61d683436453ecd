import { Module } from '@nestjs/common';
import { RbacModule } from '../rbac/rbac.module';
import { UserFieldsModule } from '../user-fields/user-fields.module';
import { UsersModule } from '../users/users.module';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

@Module({
  imports: [UsersModule, RbacModule, UserFieldsModule],
  controllers: [ApiKeysController],
  providers: [ApiKeysRepository, ApiKeysService],
  exports: [ApiKeysService],
})
export class ApiKeysModule {}
