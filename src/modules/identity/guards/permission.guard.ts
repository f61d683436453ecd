import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ServiceError } from '../../../common/errors';
import { AUTH_CONTEXT, RequestWithAuth } from '../../../common/access/auth-context';
import { REQUIRED_PERMISSIONS, SUPER_ADMIN_ONLY } from '../../../common/access/auth.decorators';
import { RouteMetadata } from '../../../common/access/route-metadata';
import { PLUGIN_ROUTE } from '../../../common/access/svc-controller';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Global guard after authentication: @RequirePermission('a', 'b') needs a or b; super-admins pass. */
@Injectable()
export class PermissionGuard implements CanActivate {
  private readonly routes: RouteMetadata<{
    required: string[] | undefined;
    superAdminOnly: boolean;
    plugin: boolean;
  }>;

  constructor(reflector: Reflector) {
    this.routes = new RouteMetadata((targets) => ({
      required: reflector.getAllAndOverride<string[] | undefined>(REQUIRED_PERMISSIONS, targets),
      superAdminOnly: reflector.getAllAndOverride<boolean>(SUPER_ADMIN_ONLY, targets) === true,
      plugin: reflector.getAllAndOverride<boolean>(PLUGIN_ROUTE, targets) === true,
    }));
  }

  canActivate(context: ExecutionContext): boolean {
    const { required, superAdminOnly, plugin } = this.routes.of(context);
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
      // A write no permission names (sending email, say) is still a write: a read-only or scoped
      // key may not make it (plugins' routes decide for themselves).
      const request = context.switchToHttp().getRequest<RequestWithAuth & { method: string }>();
      const key = request[AUTH_CONTEXT]?.apiKey;
      if (key && !plugin && !READS.has(request.method) && (key.type === 'read-only' || key.scoped)) {
        throw new ServiceError('FORBIDDEN', 'This key may not make changes here (its type or scopes)');
      }
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
