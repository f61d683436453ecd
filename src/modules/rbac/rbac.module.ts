import { Module } from '@nestjs/common';
import { PermissionsController } from './permissions.controller';
import { PermissionsRepository } from './permissions.repository';
import { PermissionsService } from './permissions.service';
import { RbacRepository } from './rbac.repository';
import { RbacService } from './rbac.service';
import { RolesController } from './roles.controller';
import { RolesRepository } from './roles.repository';
import { RolesService } from './roles.service';

/**
 * Roles, permissions and inheritance over REST, and permission resolution (RbacService) for the
 * rest of the service. Depends on no other module (the access decorators are metadata only), so
 * the accounts, identity and auth modules can import it.
 */
@Module({
  controllers: [RolesController, PermissionsController],
  providers: [
    RbacRepository,
    RbacService,
    RolesRepository,
    RolesService,
    PermissionsRepository,
    PermissionsService,
  ],
  exports: [RbacService],
})
export class RbacModule {}
