import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { AUTH_CONTEXT, AuthContext, RequestWithAuth } from './auth-context';

export const REQUIRED_PERMISSIONS = 'svc:permissions';
export const COOKIE_ONLY = 'svc:cookie-only';
export const OPTIONAL_AUTH = 'svc:optional-auth';
export const SUPER_ADMIN_ONLY = 'svc:super-admin-only';

/** The route needs one of these permissions (any of them); super-admins always pass. */
export const RequirePermission = (...slugs: string[]) => SetMetadata(REQUIRED_PERMISSIONS, slugs);

/** Only a super-admin passes (no permission stands in for it). */
export const SuperAdminOnly = () => SetMetadata(SUPER_ADMIN_ONLY, true);

/** The route accepts only the session cookie: any Bearer credential is refused (SPEC 4.2 note 1). */
export const CookieOnly = () => SetMetadata(COOKIE_ONLY, true);

/**
 * The route decides access itself (content access rules may let visitors in): a request without
 * credentials reaches it with no AuthContext; credentials that come along must be valid (401
 * otherwise), exactly as on any other route.
 */
export const OptionalAuth = () => SetMetadata(OPTIONAL_AUTH, true);

/** The caller's AuthContext (undefined on a public route called without credentials). */
export const CurrentAuth = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): AuthContext | undefined =>
    ctx.switchToHttp().getRequest<RequestWithAuth>()[AUTH_CONTEXT] ?? undefined,
);
