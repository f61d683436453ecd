import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ServiceError } from '../../../common/errors';
import { AUTH_CONTEXT, RequestWithAuth } from '../../../common/access/auth-context';
import { REQUIRED_PERMISSIONS, SUPER_ADMIN_ONLY } from '../../../common/access/auth.decorators';
import { RouteMetadata } from '../../../common/access/route-metadata';

/** Global guard after authentication: @RequirePermission('a', 'b') needs a or b; super-admins pass. */
@Injectable()
export class PermissionGuard implements CanActivate {
  private readonly routes: RouteMetadata<{ required: string[] | undefined; superAdminOnly: boolean }>;

  constructor(reflector: Reflector) {
    this.routes = new RouteMetadata((targets) => ({
      required: reflector.getAllAndOverride<string[] | undefined>(REQUIRED_PERMISSIONS, targets),
      superAdminOnly: reflector.getAllAndOverride<boolean>(SUPER_ADMIN_ONLY, targets) === true,
    }));
  }

  canActivate(context: ExecutionContext): boolean {
    const { required, superAdminOnly } = this.routes.of(context);
    if (superAdminOnly) {
      const auth = context.switchToHttp().getRequest<RequestWithAuth>()[AUTH_CONTEXT];
      if (!auth) {
        throw new ServiceError('AUTH_REQUIRED', 'Sign in to use this route');
      }
      if (!auth.isSuperAdmin) {
        throw new ServiceError('FORBIDDEN', 'Only a super-admin may use this route');
      }
      return true;
    }
    if (!required?.length) {
      return true;
    }
    const auth = context.switchToHttp().getRequest<RequestWithAuth>()[AUTH_CONTEXT];
    if (!auth) {
      throw new ServiceError('AUTH_REQUIRED', 'Sign in to use this route');
    }
    if (auth.isSuperAdmin || required.some((p) => auth.permissions.includes(p))) {
      return true;
    }
    throw new ServiceError('FORBIDDEN', `This needs the permission ${required.join(' or ')}`);
  }
}
