import { Module } from '@nestjs/common';
import { AuditModule } from '../audit/audit.module';
import { PermissionsController } from './permissions.controller';
import { PermissionsRepository } from './permissions.repository';
import { PermissionsService } from './permissions.service';
import { RbacCoreModule } from './rbac-core.module';
import { RolesController } from './roles.controller';
import { RolesRepository } from './roles.repository';
import { RolesService } from './roles.service';

/**
 * Roles, permissions and inheritance over REST, and permission resolution (RbacService, from
 * RbacCoreModule) for the rest of the service. Depends only on the audit module (role writes are
 * audited; the access decorators are metadata only), so the accounts, identity and auth modules
 * can import it.
 */
@Module({
  imports: [RbacCoreModule, AuditModule],
  controllers: [RolesController, PermissionsController],
  providers: [RolesRepository, RolesService, PermissionsRepository, PermissionsService],
  exports: [RbacCoreModule],
})
export class RbacModule {}
