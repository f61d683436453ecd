import { Module } from '@nestjs/common';
import { RbacRepository } from './rbac.repository';
import { RbacService } from './rbac.service';

/**
 * RbacService (permission resolution, the Super Admin lookup) and its repository, without the
 * REST controllers: what RbacModule exports, and all a small context such as `seed:admin` needs
 * (the controllers' DTOs cannot be compiled when it runs from source).
 */
@Module({
  providers: [RbacRepository, RbacService],
  exports: [RbacService],
})
export class RbacCoreModule {}
