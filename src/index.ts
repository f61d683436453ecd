/** Library entry: what a host application or a config file imports from the package root. */
export { SvcModule } from './svc.module';
export type { SvcModuleAsyncOptions } from './svc.module';
export type { SvcModuleOptions } from './config/svc-options';
export { defineConfig } from './config/config-file';
export type * from './config/config.types';
export { ServiceError } from './common/errors/service-error';
export type { ErrorCode } from './common/errors/error-codes';
export { configureApp } from './app.setup';
export { startServer } from './server';
export { getSession, requireAuth, hasRole, hasAnyRole, hasAllRoles, login } from './modules/auth/in-process';
export type { Session } from './modules/auth/in-process';
export { Public } from './common/access/public.decorator';
export { RequirePermission, CookieOnly, CurrentAuth } from './common/access/auth.decorators';
export type { AuthContext } from './common/access/auth-context';
export { seedSuperAdmin } from './modules/accounts/seed-admin';
